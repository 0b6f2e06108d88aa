/**
 * `<vmapi-machine-detail>`: one machine in full (its events, its state history) and what can be
 * done to it out of band, as its owner would outside any program: stop it, rename it. A
 * `pulumi refresh` then finds the change. Read again whenever the emulator's state changes.
 */
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from "lit";
import type { ConsoleMachineDetail, ConsoleState, ConsoleStatus } from "../../src/emulator/http/consoleTypes";
import { controls, machineDetail } from "./controlApi";
import { between, clockTime, dateTime, stateTone } from "./format";

/** The selected machine. */
export class MachineDetail extends LitElement {
  static override properties: PropertyDeclarations = {
    machineId: { attribute: false },
    data: { attribute: false },
    status: { attribute: false },
    detail: { state: true },
    message: { state: true },
  };

  machineId!: string;
  data!: ConsoleState;
  status!: ConsoleStatus;
  detail: ConsoleMachineDetail | undefined = undefined;
  /** The last action's outcome, or why it was refused (the emulator's words). */
  message: { text: string; error: boolean } | null = null;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has("machineId")) this.message = null;
    if (changed.has("machineId") || changed.has("data")) void this.load();
  }

  private async load(): Promise<void> {
    const id = this.machineId;
    try {
      const detail = await machineDetail(id);
      if (id === this.machineId) this.detail = detail;
    } catch (error) {
      this.message = { text: (error as Error).message, error: true };
    }
  }

  protected override render() {
    const d = this.detail;
    if (d === undefined || d.machine.id !== this.machineId)
      return html`<section class="detail">Loading…</section>`;
    const m = d.machine;
    const live = m.dtDestroyed === null;
    const script = this.data.scripts.find((s) => s.id === m.scriptId);
    return html`<section class="detail" data-detail=${m.id}>
      <h2>
        <span class="name">${m.name}</span>
        <span class="state ${stateTone(live ? m.state : "destroyed")}">${live ? m.state : "destroyed"}</span>
        <button class="close" @click=${() => this.dispatchEvent(new Event("close"))} title="close">×</button>
      </h2>
      <dl class="facts">
        <dt>id</dt>
        <dd>${m.id}</dd>
        <dt>region, type</dt>
        <dd>${m.region}, ${m.machineType} (${m.cpus} CPUs)</dd>
        <dt>IP</dt>
        <dd>public ${m.publicIpAddress ?? "–"}, private ${m.privateIpAddress ?? "–"}</dd>
        <dt>script</dt>
        <dd>${script === undefined ? (m.scriptId ?? "none") : `${script.name} (${script.id})`}</dd>
        <dt>created</dt>
        <dd>${dateTime(m.dtCreated)}${live ? "" : `, destroyed ${dateTime(m.dtDestroyed)}`}</dd>
        <dt>owner</dt>
        <dd>${m.userId}${m.teamId === null ? "" : ` in team ${m.teamId}`}</dd>
      </dl>
      ${live ? this.renderActions() : nothing}
      ${
        this.message === null
          ? nothing
          : html`<p class=${this.message.error ? "refused" : "done"} role="status">${this.message.text}</p>`
      }
      <div class="columns">
        <div>
          <h3>State history</h3>
          <ol class="history">
            ${d.history.map(
              (h, i) =>
                html`<li>
                  <span class="state ${stateTone(h.state)}">${h.state}</span> at ${clockTime(h.at)}
                  <span class="muted">for ${between(h.at, d.history[i + 1]?.at ?? this.status.now)}</span>
                </li>`,
            )}
          </ol>
        </div>
        <div>
          <h3>Events</h3>
          <table class="events">
            <thead>
              <tr>
                <th>event</th>
                <th>state</th>
                <th>began</th>
                <th>took</th>
                <th>error</th>
              </tr>
            </thead>
            <tbody>
              ${d.events.map(
                (e) =>
                  html`<tr>
                    <td>${e.name}</td>
                    <td class="event-${e.state}">${e.state}</td>
                    <td>${clockTime(e.dtCreated)}</td>
                    <td>${e.dtFinished === null ? "…" : between(e.dtCreated, e.dtFinished)}</td>
                    <td>${e.errorMsg}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>
      </div>
    </section>`;
  }

  private renderActions() {
    return html`<form class="actions" @submit=${(e: Event) => this.rename(e)}>
      <button
        type="button"
        data-action="stop"
        @click=${() => this.act("stop", () => controls.stopMachine(this.machineId))}
      >
        Stop out of band
      </button>
      <input name="machineName" aria-label="new name" placeholder="new name" required />
      <button type="submit" data-action="rename">Rename out of band</button>
      <span class="muted">as its owner would, outside any program: <code>pulumi refresh</code> finds it</span>
    </form>`;
  }

  private rename(event: Event): void {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem("machineName") as HTMLInputElement;
    void this.act("rename", () => controls.renameMachine(this.machineId, input.value));
  }

  private async act(what: string, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      this.message = { text: `${what}: done`, error: false };
    } catch (error) {
      this.message = { text: `${what} refused: ${(error as Error).message}`, error: true };
    }
    await this.load();
  }
}
