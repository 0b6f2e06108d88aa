/**
 * `<vmapi-resources>`: the other records, one table per view: scripts (with the machines they
 * are attached to, their text on request), delegations (when each expires), users and teams,
 * networks, templates, capacity.
 */
import { LitElement, html, nothing, type PropertyDeclarations } from "lit";
import type { ConsoleScript, ConsoleState, ConsoleStatus } from "../../src/emulator/http/consoleTypes";
import { scriptText } from "./controlApi";
import { between, dateTime } from "./format";

/** Which table: every tab but the machines and the controls. */
export type ResourceView = "scripts" | "delegations" | "accounts" | "networks" | "templates" | "capacity";

/** One view of the records. */
export class ResourcesView extends LitElement {
  static override properties: PropertyDeclarations = {
    data: { attribute: false },
    status: { attribute: false },
    view: { attribute: false },
    texts: { state: true },
  };

  data!: ConsoleState;
  status!: ConsoleStatus;
  view: ResourceView = "scripts";
  /** Script texts the user asked to see, by script id (or why they could not be read). */
  texts: Record<string, string> = {};

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    const d = this.data;
    switch (this.view) {
      case "scripts":
        return this.table(
          "Scripts",
          ["id", "name", "description", "owner", "enabled", "run once", "attached to", ""],
          d.scripts.map((s) => this.script(s)),
        );
      case "delegations":
        return this.table(
          "Delegations",
          ["id", "user", "machines", "created", "expires"],
          d.delegations.map((x) => {
            const left = Date.parse(x.expires) - Date.parse(this.status.now);
            return [
              String(x.id),
              x.userId,
              x.machineIds.join(", "),
              dateTime(x.dtCreated),
              left > 0
                ? `${dateTime(x.expires)} (in ${between(this.status.now, x.expires)})`
                : `expired ${dateTime(x.expires)}`,
            ];
          }),
        );
      case "accounts":
        return html`${this.table(
          "Teams",
          ["id", "name", "created"],
          d.teams.map((t) => [t.id, t.name, dateTime(t.dtCreated)]),
        )}
        ${this.table(
          "Users",
          ["id", "e-mail", "name", "account", "role"],
          d.users.map((u) => [u.id, u.email, `${u.firstname} ${u.lastname}`, u.accountId, u.role]),
        )}`;
      case "networks":
        return this.table(
          "Networks",
          ["id", "name", "region", "network", "netmask", "account"],
          d.networks.map((n) => [n.id, n.name, n.region, n.network, n.netmask, n.teamId ?? n.userId ?? "–"]),
        );
      case "templates":
        return this.table(
          "Templates",
          ["id", "name", "label", "os", "region", "owner"],
          d.templates.map((t) => [
            t.id,
            t.name,
            t.label,
            t.os,
            t.region ?? "any",
            t.teamId ?? t.userId ?? "public",
          ]),
        );
      case "capacity":
        return html`${this.table(
          "Capacity",
          ["region", "type", "available", "next starts that fail"],
          d.capacity.map((c) => [
            c.region,
            c.machineType,
            c.available ? "yes" : "no",
            String(c.failNextStarts),
          ]),
        )}
        ${d.reservedIps.length > 0 ? html`<p>Reserved static IPs: ${d.reservedIps.join(", ")}</p>` : nothing}`;
    }
  }

  private script(s: ConsoleScript): unknown[] {
    const attached = s.machines.map((m) => `${m.machineName} (${m.machineId})`).join(", ") || "–";
    const text = this.texts[s.id];
    return [
      s.id,
      s.name,
      s.description ?? "",
      `${s.ownerType} ${s.ownerId}`,
      s.isEnabled ? "yes" : "no",
      s.runOnce ? "yes" : "no",
      attached,
      text === undefined
        ? html`<button data-action="script-text" @click=${() => this.showText(s.id)}>text</button>`
        : html`<pre class="script-text">${text}</pre>`,
    ];
  }

  private async showText(id: string): Promise<void> {
    let text: string;
    try {
      text = await scriptText(id);
    } catch (error) {
      text = `cannot read it: ${(error as Error).message}`;
    }
    this.texts = { ...this.texts, [id]: text };
  }

  private table(title: string, head: string[], rows: unknown[][]) {
    return html`<section class="resources" data-view=${title.toLowerCase()}>
      <h2>${title} <span class="muted">(${rows.length})</span></h2>
      <table>
        <thead>
          <tr>
            ${head.map((h) => html`<th>${h}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (row) =>
              html`<tr>
                ${row.map((cell) => html`<td>${cell}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  }
}
