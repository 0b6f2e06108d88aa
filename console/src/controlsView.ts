/**
 * `<vmapi-controls>`: what the control endpoints do, as forms: add and clear fault rules, set
 * the rate limit, advance a manual clock, reset to the seed. The page checks nothing itself:
 * each form sends what was typed to the endpoint, and a refusal shows the emulator's own message.
 */
import { LitElement, html, nothing, type PropertyDeclarations } from "lit";
import { ERROR_CODES } from "../../src/contract/constants";
import type { ConsoleMeta, ConsoleStatus } from "../../src/emulator/http/consoleTypes";
import { controls, type FaultRuleInput } from "./controlApi";

const MINUTE = 60_000;

/** The controls. */
export class ControlsView extends LitElement {
  static override properties: PropertyDeclarations = {
    status: { attribute: false },
    meta: { attribute: false },
    outcome: { state: true },
    confirmReset: { state: true },
  };

  status!: ConsoleStatus;
  meta!: ConsoleMeta;
  /** The last action's outcome per form, or why it was refused (the emulator's words). */
  outcome: Record<string, { text: string; error: boolean }> = {};
  confirmReset = false;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    return html`<div class="controls">
      ${this.faults()} ${this.rateLimit()} ${this.clock()} ${this.reset()}
    </div>`;
  }

  private faults() {
    const { rules, injected } = this.status.faults;
    return html`<section class="panel" data-panel="faults">
      <h2>Fault rules</h2>
      <form @submit=${(e: Event) => this.addFault(e)}>
        <label
          >method
          <select name="method">
            <option value="">any</option>
            <option>GET</option>
            <option>POST</option>
            <option>DELETE</option>
          </select></label
        >
        <label>route <input name="route" list="routes" placeholder="any route" size="36" /></label>
        <datalist id="routes">${this.meta.routes.map((r) => html`<option .value=${r}></option>`)}</datalist>
        <label
          >answer
          <select name="kind">
            <option value="status">an error status</option>
            <option value="reset">a reset connection</option>
            <option value="drop">no answer (acts, then drops)</option>
            <option value="delay">late, otherwise normal</option>
          </select></label
        >
        <label>status <input name="status" type="number" value="503" /></label>
        <label
          >code
          <select name="code">
            <option value="">by status</option>
            ${ERROR_CODES.map((c) => html`<option>${c}</option>`)}
          </select></label
        >
        <label>times <input name="times" type="number" value="1" /></label>
        <label>skip <input name="skip" type="number" placeholder="0" /></label>
        <label>latency ms <input name="latencyMs" type="number" placeholder="0" /></label>
        <label>Retry-After s <input name="retryAfterSeconds" type="number" /></label>
        <button type="submit" data-action="add-fault">Add rule</button>
        <button
          type="button"
          data-action="clear-faults"
          @click=${() => this.run("faults", "cleared", controls.clearFaults)}
        >
          Clear rules
        </button>
      </form>
      ${this.said("faults")}
      <table class="rules">
        <thead>
          <tr>
            <th>method</th>
            <th>route</th>
            <th>answer</th>
            <th>times left</th>
            <th>skip</th>
            <th>latency</th>
          </tr>
        </thead>
        <tbody>
          ${
            rules.length === 0
              ? html`<tr>
                  <td colspan="6" class="muted">none armed</td>
                </tr>`
              : nothing
          }
          ${rules.map(
            (r) =>
              html`<tr>
                <td>${r.method ?? "any"}</td>
                <td>${r.route ?? "any"}</td>
                <td>
                  ${r.reset ? "reset" : r.dropResponse ? "drop" : r.status !== undefined ? `${r.status} ${r.code ?? ""}` : "delay"}
                </td>
                <td>${r.times}</td>
                <td>${r.skip}</td>
                <td>${r.latencyMs ?? 0} ms</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <p class="muted">
        Injected so far: ${injected.total} (${injected.random}
        random)${Object.entries(injected.byKind).map(([k, n]) => html`, ${k}: ${n}`)}
      </p>
    </section>`;
  }

  private rateLimit() {
    const limit = this.status.rateLimit;
    return html`<section class="panel" data-panel="rate-limit">
      <h2>Rate limit</h2>
      <p>
        ${limit.rate === null ? "off" : `${limit.rate} requests/s per key, burst ${limit.burst}`} ·
        ${limit.served} served, ${limit.refused} refused (429)
      </p>
      <form @submit=${(e: Event) => this.setRate(e)}>
        <label>requests/s <input name="rate" type="number" step="any" placeholder="off" /></label>
        <label>burst <input name="burst" type="number" placeholder="auto" /></label>
        <button type="submit" data-action="set-rate">Set</button>
        <button
          type="button"
          @click=${() => this.run("rate", "turned off", () => controls.setRateLimit({ rate: null }))}
        >
          Turn off
        </button>
      </form>
      ${this.said("rate")}
      <table>
        <thead>
          <tr>
            <th>caller</th>
            <th>served</th>
            <th>refused</th>
          </tr>
        </thead>
        <tbody>
          ${Object.entries(limit.perKey).map(
            ([who, c]) =>
              html`<tr>
                <td>${who}</td>
                <td>${c.served}</td>
                <td>${c.refused}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  }

  private clock() {
    const manual = this.status.clock === "manual";
    const advance = (ms: number) =>
      this.run("clock", `advanced ${ms / MINUTE} min`, () => controls.advance(ms));
    return html`<section class="panel" data-panel="clock">
      <h2>Clock</h2>
      <p>${this.status.now} · ${this.status.clock} · durations × ${this.status.timeScale}</p>
      ${
        manual
          ? html`<p>
              Advance by
              <button @click=${() => advance(MINUTE)}>1 min</button>
              <button @click=${() => advance(10 * MINUTE)}>10 min</button>
              <button @click=${() => advance(60 * MINUTE)}>1 h</button>
              <button @click=${() => advance(4 * 60 * MINUTE)}>4 h</button>
            </p>`
          : html`<p class="muted">
              A real clock moves by itself; start the emulator with <code>--clock manual</code> to move it
              from here.
            </p>`
      }
      ${this.said("clock")}
    </section>`;
  }

  private reset() {
    return html`<section class="panel" data-panel="reset">
      <h2>Reset</h2>
      <p class="muted">
        Back to the seed: every machine, script and delegation gone, faults and the rate limit as at start.
        The clock keeps its time.
      </p>
      ${
        this.confirmReset
          ? html`<button
                class="danger"
                data-action="confirm-reset"
                @click=${() => this.run("reset", "reset to the seed", controls.reset).then(() => (this.confirmReset = false))}
              >
                Reset everything
              </button>
              <button @click=${() => (this.confirmReset = false)}>Keep</button>`
          : html`<button data-action="reset" @click=${() => (this.confirmReset = true)}>Reset…</button>`
      }
      ${this.said("reset")}
    </section>`;
  }

  private said(form: string) {
    const o = this.outcome[form];
    return o === undefined
      ? nothing
      : html`<p class=${o.error ? "refused" : "done"} role="status" data-outcome=${form}>${o.text}</p>`;
  }

  private addFault(event: Event): void {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    void this.run("faults", "rule added", () => controls.addFault(faultRule(f)));
  }

  private setRate(event: Event): void {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const rate = numberField(f, "rate") ?? null;
    const burst = numberField(f, "burst");
    void this.run("rate", "set", () =>
      controls.setRateLimit(burst === undefined ? { rate } : { rate, burst }),
    );
  }

  private async run(form: string, done: string, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      this.outcome = { ...this.outcome, [form]: { text: done, error: false } };
    } catch (error) {
      this.outcome = {
        ...this.outcome,
        [form]: { text: `refused: ${(error as Error).message}`, error: true },
      };
    }
  }
}

/** The rule as the form describes it; empty fields are left out (the endpoint's defaults apply). */
function faultRule(f: FormData): FaultRuleInput {
  const kind = f.get("kind");
  const text = (name: string) => (f.get(name) === "" ? undefined : String(f.get(name)));
  const rule: FaultRuleInput = {
    method: text("method"),
    route: text("route"),
    times: numberField(f, "times"),
    skip: numberField(f, "skip"),
    latencyMs: numberField(f, "latencyMs"),
  };
  if (kind === "reset") rule.reset = true;
  if (kind === "drop") rule.dropResponse = true;
  if (kind === "status") {
    rule.status = numberField(f, "status");
    rule.code = text("code") as FaultRuleInput["code"];
    rule.retryAfterSeconds = numberField(f, "retryAfterSeconds");
  }
  return JSON.parse(JSON.stringify(rule)) as FaultRuleInput;
}

function numberField(f: FormData, name: string): number | undefined {
  const value = f.get(name);
  return value === null || value === "" ? undefined : Number(value);
}
