/**
 * The web console's HTTP side (`/_console/`): its page under a strict policy, its views of the
 * store with no key or token in them, the request log (faults and 429s marked, callers named,
 * never keyed), the live stream, and the out-of-band machine controls it calls.
 */
import * as http from "node:http";
import type {
  ConsoleEvents,
  ConsoleMachineDetail,
  ConsoleSnapshot,
} from "../../../src/emulator/http/consoleTypes";
import { ControlError } from "../../../src/emulator";
import { createBody, SEEDED, useFixture, type ErrorBody } from "./api";

const lines: string[] = [];
const fx = useFixture({ log: (line) => lines.push(line) }, { resetEach: true });

async function snapshot(): Promise<ConsoleSnapshot> {
  return (await fx.anonymous.get<ConsoleSnapshot>("/_console/state")).body;
}

async function createMachine(name = "test-machine"): Promise<string> {
  const made = await fx.individual.post<{ id: string }>("/machines/createSingleMachinePublic", {
    ...createBody(),
    machineName: name,
  });
  expect(made.status).toBe(200);
  return made.body.id;
}

describe("the page", () => {
  it("GET /_console/ → the page, under a policy that allows no inline script, no other origin, no markup sink", async () => {
    const page = await fetch(`${fx.emu.url}/_console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("<vmapi-console>");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp.split("; ")).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
      ]),
    );
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    const script = await fetch(`${fx.emu.url}/_console/console.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain("vmapi-console");
  });

  it("GET /_console → redirected to /_console/, where the page's relative links resolve", async () => {
    const response = await fetch(`${fx.emu.url}/_console`, { redirect: "manual" });
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/_console/");
    expect(fx.emu.console).toBe(`${fx.emu.url}/_console/`);
  });

  it("unknown console path holding a key → 404, and the log line never shows the path", async () => {
    lines.length = 0;
    const answer = await fx.anonymous.get<ErrorBody>(`/_console/${fx.emu.keys.individual}`);
    expect(answer.status).toBe(404);
    expect(lines.join("\n")).toContain("GET /_console/(no such page) 404");
    expect(lines.join("\n")).not.toContain(fx.emu.keys.individual);
    expect((await fx.anonymous.post<ErrorBody>("/_console/state", {})).status).toBe(405);
  });
});

describe("GET /_console/state", () => {
  it("state: machines, scripts, delegations, users → each with its account, and no key or delegation token anywhere", async () => {
    const machineId = await createMachine();
    await fx.individual.post("/scripts/createScript", {
      scriptName: "setup",
      scriptText: "echo hi",
      scriptDescription: "installs things",
      machineId,
    });
    const delegation = await fx.individual.post<{ accessTokenId: string }>("/resourceDelegations/create", {
      machine: { ids: [machineId] },
    });
    // The token works as a key: a request made with it is logged under its delegation, not the token.
    await fx.anonymous.get(
      `/machines/getMachinePublic`,
      { machineId },
      { key: delegation.body.accessTokenId },
    );
    const snap = await snapshot();
    const text = JSON.stringify(snap);
    for (const secret of [...Object.values(fx.emu.keys), delegation.body.accessTokenId])
      expect(text).not.toContain(secret);
    expect(snap.state.machines).toEqual([
      expect.objectContaining({ id: machineId, state: "provisioning", accountId: SEEDED.individualUser }),
    ]);
    expect(snap.state.scripts).toEqual([
      expect.objectContaining({
        name: "setup",
        description: "installs things",
        machines: [expect.objectContaining({ machineId })],
      }),
    ]);
    expect(snap.state.delegations).toEqual([
      expect.objectContaining({
        userId: SEEDED.individualUser,
        machineIds: [machineId],
        expires: "2026-01-15T13:00:00.000Z",
      }),
    ]);
    expect(snap.state.accounts.map((a) => a.kind).sort()).toEqual(["individual", "team"]);
    expect(snap.requests.at(-1)).toMatchObject({
      route: "/machines/getMachinePublic",
      caller: expect.stringMatching(/^delegation \d+$/),
    });
  });

  it("script text → only on request, as getScriptText answers it; unknown script → 404", async () => {
    const made = await fx.individual.post<{ id: string }>("/scripts/createScript", {
      scriptName: "s",
      scriptText: "<b>x</b>",
    });
    expect(JSON.stringify(await snapshot())).not.toContain("<b>x</b>");
    expect((await fx.anonymous.get(`/_console/scripts/${made.body.id}/text`)).body).toEqual({
      text: "<b>x</b>",
    });
    expect((await fx.anonymous.get("/_console/scripts/nope/text")).status).toBe(404);
  });

  it("machine detail: create, settle, stop → its events and every state it entered, with when", async () => {
    const machineId = await createMachine();
    await fx.emu.control.advance(60_000);
    await fx.individual.post(`/machines/${machineId}/stop`);
    await fx.emu.control.advance(15_000);
    const detail = (await fx.anonymous.get<ConsoleMachineDetail>(`/_console/machines/${machineId}`)).body;
    expect(detail.history).toEqual([
      { state: "provisioning", at: "2026-01-15T09:00:00.000Z" },
      { state: "ready", at: "2026-01-15T09:01:00.000Z" },
      { state: "stopping", at: "2026-01-15T09:01:00.000Z" },
      { state: "off", at: "2026-01-15T09:01:15.000Z" },
    ]);
    expect(detail.events.map((e) => [e.name, e.state])).toEqual([
      ["stop", "done"],
      ["create", "done"],
    ]);
    expect((await fx.anonymous.get("/_console/machines/psnone")).status).toBe(404);
  });
});

describe("the request log", () => {
  it("a fault rule's answer → marked fault (rule); a 429 of the rate limit → marked throttled; each under its caller's id", async () => {
    await fx.emu.control.addFaults([{ route: "/machines/getMachines", status: 503 }]);
    expect((await fx.individual.get("/machines/getMachines")).status).toBe(503);
    await fx.emu.control.setRateLimit({ rate: 1, burst: 1 });
    await fx.admin.get("/machines/getMachines");
    expect((await fx.admin.get("/machines/getMachines")).status).toBe(429);
    const requests = (await snapshot()).requests.slice(-5);
    expect(requests.map((r) => [r.method, r.route, r.status, r.caller, r.mark, r.faultSource])).toEqual([
      ["POST", "/_emulator/faults", 200, "control", undefined, undefined],
      ["GET", "/machines/getMachines", 503, SEEDED.individualUser, "fault", "rule"],
      ["POST", "/_emulator/rate-limit", 200, "control", undefined, undefined],
      ["GET", "/machines/getMachines", 200, SEEDED.admin, undefined, undefined],
      ["GET", "/machines/getMachines", 429, SEEDED.admin, "throttled", undefined],
    ]);
    // The console's own requests are not in it.
    expect(requests.some((r) => r.route.startsWith("/_console"))).toBe(false);
  });

  it("a reset connection → logged `reset`, marked fault", async () => {
    await fx.emu.control.addFaults([{ route: "/users/getUsers", reset: true }]);
    await expect(fx.individual.get("/users/getUsers")).rejects.toThrow();
    expect((await snapshot()).requests.at(-1)).toMatchObject({
      route: "/users/getUsers",
      status: "reset",
      mark: "fault",
    });
  });
});

describe("GET /_console/events", () => {
  it("stream: a page connects, a machine is created → meta and everything first, then the request and the machine", async () => {
    const events = await openStream();
    try {
      await events.next("meta");
      const first = await events.next("state");
      expect(first.machines).toEqual([]);
      const machineId = await createMachine();
      const state = await events.next("state");
      expect(state.machines.map((m) => m.id)).toEqual([machineId]);
      const requests = await events.next("requests");
      expect(requests.map((r) => r.route)).toContain("/machines/createSingleMachinePublic");
      // A lifecycle step is a change too, without a request: the manual clock moved in-process.
      fx.emu.advance(60_000);
      expect((await events.next("state")).machines[0].state).toBe("ready");
    } finally {
      events.close();
    }
  });
});

describe("out of band: POST /_emulator/machines/{machineId}/stop and /rename", () => {
  it("rename, stop → what the API then shows; a name the API refuses → 400 naming machineName, nothing changed", async () => {
    const machineId = await createMachine();
    await fx.emu.control.advance(60_000);
    await fx.emu.control.renameMachine(machineId, "<img src=x onerror=alert(1)>");
    await fx.emu.control.stopMachine(machineId);
    const shown = await fx.individual.get<{ name: string; state: string }>("/machines/getMachinePublic", {
      machineId,
    });
    expect(shown.body).toMatchObject({ name: "<img src=x onerror=alert(1)>", state: "stopping" });
    const refused = fx.emu.control.renameMachine(machineId, "bad\u0007name");
    await expect(refused).rejects.toMatchObject({
      status: 400,
      body: expect.stringContaining("machineName"),
    });
    expect(
      (await fx.individual.get<{ name: string }>("/machines/getMachinePublic", { machineId })).body.name,
    ).toBe("<img src=x onerror=alert(1)>");
  });

  it("stop while provisioning → 409 as the API answers it; unknown machine → 404", async () => {
    const machineId = await createMachine();
    await expect(fx.emu.control.stopMachine(machineId)).rejects.toMatchObject({
      status: 409,
      body: expect.stringContaining("while it is provisioning"),
    });
    await expect(fx.emu.control.stopMachine("psnone")).rejects.toBeInstanceOf(ControlError);
    await expect(fx.emu.control.renameMachine("psnone", "x")).rejects.toMatchObject({ status: 404 });
  });
});

/** A reader of the live stream: `next(name)` waits for the next event of that name. */
async function openStream() {
  const queue: { event: string; data: unknown }[] = [];
  let wake: (() => void) | undefined;
  const request = http.get(`${fx.emu.url}/_console/events`);
  const response = await new Promise<http.IncomingMessage>((resolve) => request.once("response", resolve));
  expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
  let buffer = "";
  response.setEncoding("utf8");
  response.on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const [eventLine, dataLine] = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      queue.push({
        event: eventLine.slice("event: ".length),
        data: JSON.parse(dataLine.slice("data: ".length)),
      });
    }
    wake?.();
  });
  return {
    async next<K extends keyof ConsoleEvents>(name: K): Promise<ConsoleEvents[K]> {
      for (;;) {
        const at = queue.findIndex((e) => e.event === name);
        if (at >= 0) return queue.splice(0, at + 1)[at].data as ConsoleEvents[K];
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close: () => request.destroy(),
  };
}
