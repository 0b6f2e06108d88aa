/**
 * The console and the control endpoints ask for no key, so other sites must not reach them
 * through the browser of the person running the emulator (src/emulator/http/localOnly.ts): a
 * request whose Host is not the emulator's own loopback host and port (a page that rebinds its
 * own name to 127.0.0.1) is refused and changes nothing; a control POST must declare JSON (a
 * cross-site HTML form cannot); the state dump never carries a delegation's token; and another
 * machine is answered only when the emulator was started with --remote-control.
 */
import type { IncomingMessage } from "node:http";
import { foreignHostRefusal, isLoopbackAddress } from "../../src/emulator/http/localOnly";
import { useTestEmulator } from "../kit/emulator";
import { expectClientError, send, snapshot } from "./support/http";

const emu = useTestEmulator();
let port: string;

beforeAll(async () => {
  port = new URL(emu.url).port;
});

/** The console's and the control's reads, and a control POST that would change the state. */
const READS = ["/_console/", "/_console/state", "/_console/events", "/_emulator/state", "/_emulator/clock"];

describe("Host", () => {
  it.each([
    ["a rebound name", () => `attacker.example:${port}`],
    ["a rebound name without a port", () => "attacker.example"],
    ["localhost on another port", () => `localhost:${Number(port) + 1}`],
    ["a name that starts like loopback", () => `127.0.0.1.attacker.example:${port}`],
  ])("%s → 403 forbidden on the console and the control endpoints, the state unchanged", async (_, host) => {
    const before = await snapshot(emu.url);
    for (const path of READS) {
      const answer = await send(emu.url, { path, headers: { Host: host() } });
      expect(expectClientError(answer, 403, "forbidden").message).toContain(`127.0.0.1:${port}`);
      expect(answer.text).not.toContain('"machines"');
    }
    const reset = await send(emu.url, {
      method: "POST",
      path: "/_emulator/clock/advance",
      headers: { Host: host() },
      json: { ms: 60_000 },
    });
    expectClientError(reset, 403, "forbidden");
    expect(await snapshot(emu.url)).toEqual(before);
  });

  it.each(["127.0.0.1", "localhost", "LOCALHOST"])(
    "%s:<port> → the console and the control endpoints answer",
    async (name) => {
      for (const path of ["/_console/state", "/_emulator/state"]) {
        expect((await send(emu.url, { path, headers: { Host: `${name}:${port}` } })).status).toBe(200);
      }
    },
  );

  it("the API itself → answers whatever the Host (it asks for a key)", async () => {
    const answer = await send(emu.url, {
      path: "/users/getUsers",
      key: emu.keys.individual,
      headers: { Host: "attacker.example" },
    });
    expect(answer.status).toBe(200);
  });
});

describe("control POST", () => {
  it.each([
    ["a form with no fields (urlencoded, empty)", "application/x-www-form-urlencoded", ""],
    ["a text/plain form with no fields", "text/plain", ""],
    ["no Content-Type and no body", undefined, undefined],
    ["a form's fields", "application/x-www-form-urlencoded", "ms=60000"],
  ])("%s → 415 on every control POST, nothing reset", async (_, type, body) => {
    await send(emu.url, {
      method: "POST",
      path: "/scripts/createScript",
      key: emu.keys.individual,
      json: { scriptName: `kept-${Math.random().toString(36).slice(2)}`, scriptText: "echo hi" },
    });
    const before = await snapshot(emu.url);
    for (const path of ["/_emulator/reset", "/_emulator/clock/advance", "/_emulator/held/release"]) {
      const answer = await send(emu.url, {
        method: "POST",
        path,
        headers: type === undefined ? {} : { "Content-Type": type },
        body,
      });
      expectClientError(answer, 415, "unsupported_media_type");
    }
    expect(await snapshot(emu.url)).toEqual(before);
  });

  it("declared JSON, with no body → answered (the console's reset sends none)", async () => {
    const answer = await send(emu.url, {
      method: "POST",
      path: "/_emulator/reset",
      headers: { "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(204);
  });
});

describe("GET /_emulator/state", () => {
  it("a delegation → listed by its id, never with its token", async () => {
    const made = await send(emu.url, {
      method: "POST",
      path: "/resourceDelegations/create",
      key: emu.keys.individual,
      json: { machine: { ids: [] } },
    });
    const { id, accessTokenId } = made.body as { id: number; accessTokenId: string };
    const dump = await send(emu.url, { path: "/_emulator/state" });
    expect((dump.body as { delegations: unknown[] }).delegations).toEqual([
      expect.not.objectContaining({ accessTokenId: expect.anything() }),
    ]);
    expect((dump.body as { delegations: unknown[] }).delegations).toEqual([expect.objectContaining({ id })]);
    expect(dump.text).not.toContain(accessTokenId);
    for (const key of Object.values(emu.keys)) expect(dump.text).not.toContain(key);
  });
});

describe("another machine", () => {
  /** A request as it arrives on a socket bound to every interface, from `peer`. */
  const request = (peer: string) =>
    ({
      socket: { remoteAddress: peer, localAddress: "192.0.2.1", localPort: 4000 },
      headers: { host: "192.0.2.1:4000" },
    }) as unknown as IncomingMessage;

  it("a peer on the network, emulator bound to every interface → 403 naming --remote-control; with it → answered", () => {
    for (const peer of ["192.0.2.7", "::ffff:10.0.0.5", "fe80::1"]) {
      const refusal = foreignHostRefusal(request(peer));
      expect(refusal?.status).toBe(403);
      expect(refusal?.message).toContain("--remote-control");
      expect(foreignHostRefusal(request(peer), true)).toBeNull();
    }
  });

  it("a loopback peer (127.0.0.0/8, ::1, IPv4-mapped) → answered without the opt-in", () => {
    for (const peer of ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"])
      expect([peer, isLoopbackAddress(peer)]).toEqual([peer, true]);
    for (const peer of ["128.0.0.1", "::2", "", undefined, "127.0.0.1.example"])
      expect([peer, isLoopbackAddress(peer)]).toEqual([peer, false]);
  });
});
