/**
 * `<vmapi-requests>`: the recent requests, newest first (method, route, status, time taken, who
 * called: an account and its user, never a key), injected faults and 429s marked, filtered by
 * route and by status.
 */
import { LitElement, html, nothing, type PropertyDeclarations } from "lit";
import { repeat } from "lit/directives/repeat.js";
import type { ConsoleMeta, ConsoleState, RequestEntry } from "../../src/emulator/http/consoleTypes";
import { clockTime, statusTone } from "./format";

/** The most rows drawn at once (the emulator keeps more: the filters reach all of them). */
const ROWS = 100;

const STATUS_FILTERS: Readonly<Record<string, (r: RequestEntry) => boolean>> = {
  all: () => true,
  "2xx": (r) => typeof r.status === "number" && r.status < 300,
  "4xx": (r) => typeof r.status === "number" && r.status >= 400 && r.status < 500,
  "5xx or cut": (r) => typeof r.status !== "number" || r.status >= 500,
  "injected faults": (r) => r.mark === "fault",
  "429 throttled": (r) => r.mark === "throttled",
};

/** The request log. */
export class RequestsView extends LitElement {
  static override properties: PropertyDeclarations = {
    requests: { attribute: false },
    data: { attribute: false },
    meta: { attribute: false },
    route: { state: true },
    statusFilter: { state: true },
  };

  requests: RequestEntry[] = [];
  data!: ConsoleState;
  meta!: ConsoleMeta;
  route = "";
  statusFilter = "all";

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    const matchStatus = STATUS_FILTERS[this.statusFilter] ?? STATUS_FILTERS.all;
    const matching = this.requests.filter(
      (r) => (this.route === "" || r.route === this.route) && matchStatus(r),
    );
    const shown = matching.slice(-ROWS).reverse();
    const routes = [...new Set(this.requests.map((r) => r.route))].sort();
    return html`<section class="requests">
      <h2>Requests</h2>
      <div class="filters">
        <label
          >route
          <select name="route" @change=${(e: Event) => (this.route = (e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${this.route === ""}>all</option>
            ${routes.map((r) => html`<option .value=${r} ?selected=${r === this.route}>${r}</option>`)}
          </select></label
        >
        <label
          >status
          <select
            name="status"
            @change=${(e: Event) => (this.statusFilter = (e.target as HTMLSelectElement).value)}
          >
            ${Object.keys(STATUS_FILTERS).map(
              (f) => html`<option .value=${f} ?selected=${f === this.statusFilter}>${f}</option>`,
            )}
          </select></label
        >
        <span class="muted">${matching.length} of the last ${this.requests.length}</span>
      </div>
      <table class="requests-table">
        <thead>
          <tr>
            <th>at</th>
            <th>method</th>
            <th>route</th>
            <th>status</th>
            <th>ms</th>
            <th>account</th>
          </tr>
        </thead>
        <tbody>
          ${repeat(
            shown,
            (r) => r.seq,
            (r) => this.row(r),
          )}
        </tbody>
      </table>
    </section>`;
  }

  private row(r: RequestEntry) {
    return html`<tr
      class=${r.mark ?? "plain"}
      data-seq=${r.seq}
      data-route=${r.route}
      data-status=${r.status}
    >
      <td class="muted">${clockTime(new Date(r.at).toISOString())}</td>
      <td>${r.method}</td>
      <td class="route">${r.route}</td>
      <td class="status ${statusTone(r.status)}">${r.status} ${this.mark(r)}</td>
      <td class="ms">${r.ms}</td>
      <td class="caller" title=${r.caller ?? ""}>${this.caller(r.caller)}</td>
    </tr>`;
  }

  private mark(r: RequestEntry) {
    if (r.mark === "fault") return html`<span class="badge fault">fault (${r.faultSource})</span>`;
    if (r.mark === "throttled") return html`<span class="badge throttled">429 throttled</span>`;
    return nothing;
  }

  /**
   * A user id as its account (a team's with the user's name); a delegation as its creator's;
   * anything else (`control`, `no key`, `unknown key`) as it is. Never a key: the log holds none.
   */
  private caller(label: string | null): string {
    if (label === null) return "–";
    const delegation = /^delegation (\d+)$/.exec(label);
    const userId = delegation
      ? this.data.delegations.find((d) => String(d.id) === delegation[1])?.userId
      : label;
    const user = this.data.users.find((u) => u.id === userId);
    if (user === undefined) return label;
    const account = this.data.accounts.find((a) => a.id === user.accountId);
    const name = account?.name ?? user.accountId;
    const who = account?.kind === "team" ? `${name} · ${user.firstname} ${user.lastname}` : name;
    return delegation ? `${who} · delegation ${delegation[1]}` : who;
  }
}
