/**
 * `<vmapi-machines>`: every machine, per account (id, name, state in its colour and since when,
 * region, type, public IP, its user), and the selected one in full below. A row changes only
 * when its machine does: nothing in it ticks with the clock, so a thousand rows cost the page
 * nothing between changes.
 */
import { LitElement, html, nothing, type PropertyDeclarations } from "lit";
import { repeat } from "lit/directives/repeat.js";
import type { ConsoleMachine, ConsoleState } from "../../src/emulator/http/consoleTypes";
import { clockTime, stateTone } from "./format";

/** The machines table and the selected machine's detail. */
export class MachinesView extends LitElement {
  static override properties: PropertyDeclarations = {
    data: { attribute: false },
    selected: { attribute: false },
    showDestroyed: { state: true },
  };

  data!: ConsoleState;
  /** The machine shown in full, highlighted here. */
  selected: string | null = null;
  showDestroyed = false;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    const shown = this.data.machines.filter((m) => this.showDestroyed || m.dtDestroyed === null);
    const destroyed =
      this.data.machines.length - this.data.machines.filter((m) => m.dtDestroyed === null).length;
    return html`
      <section class="machines">
        <h2>
          Machines
          <label class="toggle"
            ><input
              type="checkbox"
              .checked=${this.showDestroyed}
              @change=${(e: Event) => (this.showDestroyed = (e.target as HTMLInputElement).checked)}
            />
            destroyed (${destroyed})</label
          >
        </h2>
        ${shown.length === 0 ? html`<p class="empty">No machines yet. Run <code>pulumi up</code>.</p>` : nothing}
        ${this.data.accounts.map((account) => {
          const machines = shown.filter((m) => m.accountId === account.id);
          if (machines.length === 0) return nothing;
          return html`<h3>
              ${account.name} <span class="muted">${account.kind} account ${account.id}</span>
            </h3>
            <table class="machines-table">
              <thead>
                <tr>
                  <th>id</th>
                  <th>name</th>
                  <th>state</th>
                  <th>region</th>
                  <th>type</th>
                  <th>public IP</th>
                  <th>user</th>
                </tr>
              </thead>
              <tbody>
                ${repeat(
                  machines,
                  (m) => m.id,
                  (m) => this.row(m),
                )}
              </tbody>
            </table>`;
        })}
      </section>
    `;
  }

  /** Tells the page which machine to show in full (null: none). */
  private select(id: string | null): void {
    this.dispatchEvent(new CustomEvent<string | null>("select", { detail: id }));
  }

  private row(m: ConsoleMachine) {
    const state = m.dtDestroyed === null ? m.state : "destroyed";
    const user = this.data.users.find((u) => u.id === m.userId);
    return html`<tr
      class=${this.selected === m.id ? "machine selected" : "machine"}
      data-machine=${m.id}
      @click=${() => this.select(m.id)}
    >
      <td class="id">${m.id}</td>
      <td class="name">${m.name}</td>
      <td>
        <span class="state ${stateTone(state)}" data-state=${state}>${state}</span>
        <span class="muted">since ${clockTime(m.dtDestroyed ?? m.stateSince)}</span>
      </td>
      <td>${m.region}</td>
      <td>${m.machineType}</td>
      <td class="ip">${m.publicIp ?? "–"}</td>
      <td class="user" title=${user === undefined ? m.userId : `${user.email} (${m.userId})`}>
        ${user === undefined ? m.userId : `${user.firstname} ${user.lastname}`}
      </td>
    </tr>`;
  }
}
