/** How the console writes times, durations and states. Pure functions of their arguments. */
import type { MachineState } from "../../src/contract/constants";

/** `12:34:56.789` (UTC, as the emulator's clock is shown everywhere on the page). */
export function clockTime(iso: string): string {
  return iso.slice(11, 23);
}

/** `2026-11-27 12:34:56` (UTC). */
export function dateTime(iso: string | null): string {
  return iso === null ? "–" : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** A duration in ms as `850 ms`, `3.0 s`, `2 min 5 s`, `1 h 3 min`. */
export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const s = Math.floor(ms / 1_000);
  if (s < 3_600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3_600)} h ${Math.floor((s % 3_600) / 60)} min`;
}

/** The time from `from` to `to` (ISO strings). */
export function between(from: string, to: string): string {
  return duration(Date.parse(to) - Date.parse(from));
}

/** How a state is coloured: settled up, settled down, on its way, or being built. */
export function stateTone(state: MachineState | "destroyed"): string {
  if (state === "ready") return "up";
  if (state === "serviceready") return "service";
  if (state === "off") return "down";
  if (state === "destroyed") return "gone";
  if (state === "provisioning") return "building";
  return "moving";
}

/** How a status is coloured: 2xx, 3xx, 4xx, 5xx, or a cut connection. */
export function statusTone(status: number | string): string {
  if (typeof status !== "number") return "s5";
  return `s${Math.floor(status / 100)}`;
}
