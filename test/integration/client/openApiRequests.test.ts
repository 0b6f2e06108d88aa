/**
 * The client against api/openapi.json: every method of every resource of `VmApiClient` is called
 * against an emulator through a loopback relay that keeps each request as it travelled, and every
 * request is held to the document's request validator (operation, query parameters, key, body).
 * A method no test here calls fails the coverage test, so a new one cannot skip the document.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { VmApiClient } from "../../../src/client/client";
import { MACHINE_BASICS } from "../../kit/machines";
import { OpenApiDocument, type WireRequest } from "../../kit/openApi";
import { SEEDED } from "../../kit/seeded";
import { useHarness } from "./harness";

/** Methods on the resource classes' prototypes that are not the client's calls. */
const HELPERS = new Set(["constructor", "action", "idsNamed", "findLate", "findCreated", "findSame"]);

const harness = useHarness();
let relay: http.Server;
let relayUrl: string;
const sent: WireRequest[] = [];
const called = new Set<string>();

beforeAll(async () => {
  relay = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
      );
      sent.push({ method: req.method ?? "", target: req.url ?? "", headers, body: body.toString("utf8") });
      const forward = http.request(
        `${harness.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => relay.close(resolve));
});

/** A client through the relay whose resource objects record which of their methods were called. */
function trackedClient(key: "individual" | "teamAdmin" = "individual"): VmApiClient {
  const client = harness.client({ key, baseUrl: relayUrl });
  for (const name of [
    "machines",
    "scripts",
    "templates",
    "users",
    "networks",
    "resourceDelegations",
  ] as const) {
    const resource = client[name] as unknown as Record<string, unknown>;
    for (const method of publicMethods(resource)) {
      const original = resource[method] as (...args: unknown[]) => unknown;
      resource[method] = (...args: unknown[]) => {
        called.add(`${name}.${method}`);
        return original.apply(resource, args);
      };
    }
  }
  return client;
}

function publicMethods(resource: object): string[] {
  return Object.getOwnPropertyNames(Object.getPrototypeOf(resource)).filter((m) => !HELPERS.has(m));
}

describe("the client's requests against api/openapi.json", () => {
  it("every call of VmApiClient → each request it sends conforms to the document", async () => {
    const client = trackedClient();
    const team = trackedClient("teamAdmin");
    const { machines, scripts } = client;
    const machine = await machines.create({
      ...MACHINE_BASICS,
      machineName: "doc",
      templateId: SEEDED.desktopTemplate,
    });
    await machines.waitFor(machine.id, "ready");
    await machines.get(machine.id);
    await machines.list({ name: "doc", performAutoSnapshot: false }, { limit: 10, skip: 0 });
    for await (const listed of machines.listAll({ state: "ready" }, { pageSize: 5 }))
      expect(listed.id).toBeDefined();
    await machines.update(machine.id, {
      machineName: "doc2",
      shutdownTimeoutInHours: "3",
      autoSnapshotFrequency: null,
    });
    await machines.stop(machine.id);
    await machines.waitFor(machine.id, "off");
    await machines.start(machine.id);
    await machines.waitFor(machine.id, "ready");
    await machines.restart(machine.id);
    await machines.utilization(machine.id, "2026-01");
    await machines.availability("East Coast (NY2)", "P5000");
    const script = await scripts.create({
      scriptName: "doc",
      scriptText: "#!/bin/bash\n",
      machineId: machine.id,
      runOnce: true,
    });
    await scripts.get(script.id);
    await scripts.list({ isEnabled: true });
    await scripts.text(script.id);
    await scripts.destroy(script.id);
    await client.templates.list({ os: "Windows 10" });
    await client.users.list({ teamId: null });
    await client.networks.list({ region: "Europe (AMS1)" });
    await client.resourceDelegations.create({ machine: { ids: [machine.id] } });
    const teamMachine = await team.machines.create({
      ...MACHINE_BASICS,
      machineName: "doc-team",
      templateId: SEEDED.desktopTemplate,
      teamId: SEEDED.team,
      userId: SEEDED.admin,
    });
    await team.machines.setAccess(teamMachine.id, { userId: SEEDED.member, enableAccess: true });
    await machines.destroy(machine.id, { releasePublicIp: true });
    await team.machines.destroy(teamMachine.id);

    const document = new OpenApiDocument();
    expect(sent.length).toBeGreaterThan(20);
    expect(sent.flatMap((request) => document.checkRequest(request))).toEqual([]);
  });

  it("coverage: every public method of every resource of VmApiClient → called above", () => {
    const client = harness.client();
    const all = (
      ["machines", "scripts", "templates", "users", "networks", "resourceDelegations"] as const
    ).flatMap((name) => publicMethods(client[name]).map((method) => `${name}.${method}`));
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((method) => !called.has(method))).toEqual([]);
  });

  it("validator: a request the document does not allow → named", () => {
    const document = new OpenApiDocument();
    const key = { "x-api-key": "k", "content-type": "application/json" };
    expect(
      document.checkRequest({
        method: "GET",
        target: "/machines/getMachines?limit=5000&colour=red",
        headers: key,
      }),
    ).toEqual([
      "GET /machines/getMachines: query parameter colour is not documented",
      "GET /machines/getMachines ?limit: (value) must be <= 1000",
    ]);
    expect(
      document.checkRequest({
        method: "POST",
        target: "/machines/createSingleMachinePublic",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ region: "Mars" }),
      }),
    ).toEqual(
      expect.arrayContaining([
        "POST /machines/createSingleMachinePublic: no X-Api-Key",
        expect.stringMatching(/\/region must be equal to one of the allowed values/),
        expect.stringMatching(/must have required property 'machineType'/),
      ]),
    );
  });
});
