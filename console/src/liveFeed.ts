/**
 * The live stream (`/_console/events`, server-sent events). The browser's EventSource reconnects
 * by itself when the emulator restarts; each connection starts with `meta` and everything kept.
 */
import type { ConsoleEvents } from "../../src/emulator/http/consoleTypes";

/** What the page does with each event, and with the connection coming and going. */
export type FeedHandlers = { [K in keyof ConsoleEvents]: (data: ConsoleEvents[K]) => void } & {
  connection(open: boolean): void;
};

const EVENTS: readonly (keyof ConsoleEvents)[] = ["meta", "status", "state", "requests"];

/** Opens the stream; returns what closes it. */
export function openFeed(handlers: FeedHandlers): () => void {
  const source = new EventSource("/_console/events");
  for (const name of EVENTS) {
    source.addEventListener(name, (event) => {
      const data: unknown = JSON.parse((event as MessageEvent<string>).data);
      (handlers[name] as (value: unknown) => void)(data);
    });
  }
  source.addEventListener("open", () => handlers.connection(true));
  source.addEventListener("error", () => handlers.connection(false));
  return () => source.close();
}
