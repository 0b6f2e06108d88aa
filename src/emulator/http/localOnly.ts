/**
 * The console (`/_console/`) and the control endpoints (`/_emulator/`) ask for no key: they are
 * for the person running the emulator, on loopback. A web page open in that person's browser can
 * still send requests there, so two rules keep other sites out:
 *
 * - The Host header must name the emulator as the connection reached it: `localhost`,
 *   `127.0.0.1` or `[::1]`, or the address the connection came in on, with the port it came in
 *   on. A page that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name as the
 *   Host, so it can neither read the state nor drive the controls.
 * - The request must come from this machine (a loopback peer), unless the emulator was started
 *   with `remoteControl` (`--remote-control`): bound to another interface (`--host 0.0.0.0`) the
 *   API answers the network, but the console and control endpoints, which show every account's
 *   machines, users' emails and script texts and can reset or stop anything, do not by default.
 * - A control POST must declare its body `application/json`, even an empty one: an HTML form can
 *   only send urlencoded, multipart or text/plain bodies, and a script may send JSON to another
 *   origin only after a CORS preflight, which the emulator never grants. So no other site can
 *   reset the emulator or change its faults, clock or machines.
 */
import type * as http from "node:http";
import { ApiError } from "../model/apiError";
import { isJsonType } from "./requestBody";

/** `address` without the IPv4-mapped prefix a dual-stack socket gives it (`::ffff:127.0.0.1`). */
function plainAddress(address: string | undefined): string {
  return (address ?? "").replace(/^::ffff:/, "");
}

/** The loopback names a browser on this machine may address the emulator by. */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `address` (a socket's remote address) is this machine's loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  const plain = plainAddress(address);
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/**
 * 403 when the request comes from another machine and `remoteControl` is off, or when its Host
 * header does not name this emulator (console and control endpoints); else null.
 */
export function foreignHostRefusal(req: http.IncomingMessage, remoteControl = false): ApiError | null {
  if (!remoteControl && !isLoopbackAddress(req.socket.remoteAddress)) {
    return new ApiError(
      403,
      "forbidden",
      "the console and the control endpoints answer only this machine (loopback); start the emulator with --remote-control to open them to the network",
    );
  }
  const own = ownHosts(req.socket);
  const host = req.headers.host?.toLowerCase();
  if (host !== undefined && own.includes(host)) return null;
  const got = host === undefined ? "none" : JSON.stringify(host.slice(0, 100));
  return new ApiError(
    403,
    "forbidden",
    `the console and the control endpoints answer only requests addressed to this emulator: the Host header must be one of ${own.join(", ")} (got ${got})`,
  );
}

/** 415 when a control POST does not declare its body JSON, as a cross-site form would not; else null. */
export function formPostRefusal(req: http.IncomingMessage): ApiError | null {
  const type = req.headers["content-type"] ?? "";
  if (req.method !== "POST" || isJsonType(type)) return null;
  const got = type === "" ? "none" : JSON.stringify(type.slice(0, 100));
  return new ApiError(
    415,
    "unsupported_media_type",
    `a control POST must be sent with Content-Type: application/json, even without a body (got ${got})`,
  );
}

/** Every `host:port` the emulator answers to on this connection. */
function ownHosts(socket: { localAddress?: string; localPort?: number }): string[] {
  const address = plainAddress(socket.localAddress);
  const arrived = address.includes(":") ? `[${address}]` : address;
  const names =
    LOOPBACK_HOSTS.includes(arrived) || arrived === "" ? LOOPBACK_HOSTS : [...LOOPBACK_HOSTS, arrived];
  return names.map((name) => `${name}:${socket.localPort ?? ""}`);
}
