/**
 * `<vmapi-console>`: the page. It keeps the last of each event the emulator streamed (and the
 * recent requests, as many as the emulator keeps) and hands them to the views; it owns no data
 * of its own. Every value from the emulator is rendered through Lit's text bindings, never as
 * markup.
 */
import { LitElement, html, nothing, type PropertyDeclarations } from "lit";
import type {
  ConsoleMeta,
  ConsoleState,
  ConsoleStatus,
  RequestEntry,
} from "../../src/emulator/http/consoleTypes";
import { clockTime } from "./format";
import { openFeed } from "./liveFeed";

const TABS = [
  ["machines", "Machines and requests"],
  ["scripts", "Scripts"],
  ["delegations", "Delegations"],
  ["accounts", "Users and teams"],
  ["networks", "Networks"],
  ["templates", "Templates"],
  ["capacity", "Capacity"],
  ["controls", "Faults, limits, clock"],
] as const;
type Tab = (typeof TABS)[number][0];

/** The console's root element. */
export class ConsoleApp extends LitElement {
  static override properties: PropertyDeclarations = {
    meta: { state: true },
    status: { state: true },
    data: { state: true },
    requests: { state: true },
    connected: { state: true },
    tab: { state: true },
    selected: { state: true },
  };

  meta: ConsoleMeta | undefined = undefined;
  status: ConsoleStatus | undefined = undefined;
  data: ConsoleState | undefined = undefined;
  requests: RequestEntry[] = [];
  connected = false;
  tab: Tab = "machines";
  /** The machine shown in full. */
  selected: string | null = null;
  private close: (() => void) | undefined;

  // Light DOM: one stylesheet (console.css) styles the whole page.
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.close = openFeed({
      meta: (meta) => {
        // A new connection sends everything it keeps again.
        this.meta = meta;
        this.requests = [];
      },
      status: (status) => (this.status = status),
      state: (state) => (this.data = state),
      requests: (fresh) => {
        const capacity = this.meta?.requestLogCapacity ?? 1000;
        this.requests = [...this.requests, ...fresh].slice(-capacity);
      },
      connection: (open) => (this.connected = open),
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.close?.();
  }

  protected override render() {
    return html`
      <header>
        <h1>vmapi emulator</h1>
        <span class="origin">${location.origin}</span>
        ${this.renderClock()}
        <span class="live ${this.connected ? "on" : "off"}" data-testid="connection"
          >${this.connected ? "live" : "reconnecting…"}</span
        >
      </header>
      <nav>
        ${TABS.map(
          ([id, label]) =>
            html`<button
              class=${this.tab === id ? "tab current" : "tab"}
              data-tab=${id}
              @click=${() => (this.tab = id)}
            >
              ${label}${this.count(id)}
            </button>`,
        )}
      </nav>
      <main>
        ${this.data === undefined || this.status === undefined ? html`<p>Connecting…</p>` : this.renderTab()}
      </main>
    `;
  }

  private renderClock() {
    const s = this.status;
    if (s === undefined) return nothing;
    const armed = s.faults.rules.length;
    return html`<span class="clock" title="the emulator's clock (UTC)"
        >${clockTime(s.now)} · ${s.clock} clock · time × ${s.timeScale}</span
      >
      <span class="served">${s.requestsServed} requests</span>
      ${armed > 0 ? html`<span class="badge fault">${armed} fault rule${armed === 1 ? "" : "s"} armed</span>` : nothing}
      ${s.rateLimit.rate !== null ? html`<span class="badge throttled">limit ${s.rateLimit.rate}/s</span>` : nothing}`;
  }

  private count(tab: Tab): string {
    const d = this.data;
    if (d === undefined) return "";
    const n: Partial<Record<Tab, number>> = {
      machines: d.machines.filter((m) => m.dtDestroyed === null).length,
      scripts: d.scripts.length,
      delegations: d.delegations.length,
    };
    return n[tab] === undefined ? "" : ` (${n[tab]})`;
  }

  private renderTab() {
    const [meta, status, data] = [this.meta!, this.status!, this.data!];
    switch (this.tab) {
      case "machines":
        return html`<div class="split">
          <div>
            <vmapi-machines
              .data=${data}
              .selected=${this.selected}
              @select=${(e: CustomEvent<string | null>) => (this.selected = e.detail)}
            ></vmapi-machines>
            ${
              this.selected === null
                ? nothing
                : html`<vmapi-machine-detail
                    .machineId=${this.selected}
                    .data=${data}
                    .status=${status}
                    @close=${() => (this.selected = null)}
                  ></vmapi-machine-detail>`
            }
          </div>
          <vmapi-requests .requests=${this.requests} .data=${data} .meta=${meta}></vmapi-requests>
        </div>`;
      case "controls":
        return html`<vmapi-controls .status=${status} .meta=${meta}></vmapi-controls>`;
      default:
        return html`<vmapi-resources .data=${data} .status=${status} .view=${this.tab}></vmapi-resources>`;
    }
  }
}
