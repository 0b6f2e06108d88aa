import * as pulumi from "@pulumi/pulumi";
import {
  getAvailability,
  getAvailabilityOutput,
  getMachines,
  getNetworks,
  getScriptText,
  getScriptTextOutput,
  getScripts,
  getTemplates,
  getTemplatesOutput,
  getUsers,
  getUsersOutput,
  getUtilization,
  getUtilizationOutput,
  DataSourceError,
} from "../../../src/provider/functions";
import { VmApiClient } from "../../../src/client/client";
import { useTestEmulator } from "../../kit/emulator";

const emu = useTestEmulator();
let options: { apiKey: string; baseUrl: string };

/** The value of an Output outside a deployment (the SDK resolves applies eagerly). */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return (output as unknown as { promise(): Promise<T> }).promise();
}

/**
 * The error an Output rejects with. Its isKnown, isSecret and resources reject with it too: they
 * are settled here so the rejection does not leak into another test as an unhandled one.
 */
async function failureOf<T>(output: pulumi.Output<T>): Promise<unknown> {
  const parts = output as unknown as {
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
    allResources(): Promise<unknown>;
  };
  await Promise.allSettled([parts.isKnown, parts.isSecret, parts.allResources()]);
  return rejectionOf(valueOf(output));
}

/** What a promise rejects with (undefined when it fulfils). */
function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

beforeAll(async () => {
  options = { apiKey: emu.keys.teamAdmin, baseUrl: emu.url };
});

/** Connection settings with a key the API does not know. */
const wrongKey = () => ({ apiKey: "wrong-secret-key", baseUrl: emu.url });

describe("data sources", () => {
  it("getUsers: team admin → the team's users; a filter narrows them; the Output twin agrees", async () => {
    const { users } = await getUsers({}, options);
    expect(users.length).toBeGreaterThanOrEqual(2);
    expect(new Set(users.map((u) => u.teamId)).size).toBe(1);
    const one = await getUsers({ email: users[0].email }, options);
    expect(one.users.map((u) => u.id)).toEqual([users[0].id]);
    const twin = await valueOf(getUsersOutput({ email: pulumi.output(users[0].email) }, options));
    expect(twin.users.map((u) => u.id)).toEqual([users[0].id]);
  });

  it("getNetworks: one per region at least; filter by region", async () => {
    const { networks } = await getNetworks({}, options);
    expect(new Set(networks.map((n) => n.region))).toEqual(
      new Set(["West Coast (CA1)", "East Coast (NY2)", "Europe (AMS1)"]),
    );
    const ny = await getNetworks({ region: "East Coast (NY2)" }, options);
    expect(ny.networks.every((n) => n.region === "East Coast (NY2)")).toBe(true);
  });

  it("getTemplates: Ubuntu and Windows templates; os filter; Output twin", async () => {
    const { templates } = await getTemplates({}, options);
    expect(templates.some((t) => t.os.startsWith("Windows"))).toBe(true);
    const windows = await valueOf(getTemplatesOutput({ os: "Windows 10" }, options));
    expect(windows.templates.length).toBeGreaterThan(0);
    expect(windows.templates.every((t) => t.os === "Windows 10")).toBe(true);
  });

  it("getAvailability: a dedicated GPU type → a boolean; both functions agree", async () => {
    const args = { region: "East Coast (NY2)" as const, machineType: "P5000" as const };
    const direct = await getAvailability(args, options);
    expect(typeof direct.available).toBe("boolean");
    expect(await valueOf(getAvailabilityOutput(args, options))).toEqual(direct);
  });

  it("getMachines, getUtilization, getScripts, getScriptText: see what the client made", async () => {
    const client = new VmApiClient({ apiKey: emu.keys.individual, baseUrl: emu.url });
    const mine = { apiKey: emu.keys.individual, baseUrl: emu.url };
    const template = (await client.templates.list()).find((t) => t.os.startsWith("Ubuntu"))!;
    const machine = await client.machines.create({
      region: "Europe (AMS1)",
      machineType: "C2",
      size: 50,
      billingType: "hourly",
      machineName: "listed",
      templateId: template.id,
    });
    const script = await client.scripts.create({ scriptName: "s1", scriptText: "echo listed" });
    expect((await getMachines({ name: "listed" }, mine)).machines.map((m) => m.id)).toEqual([machine.id]);
    expect((await getMachines({ maxItems: 0 }, mine)).machines).toEqual([]);
    // A whole number, as the schema types it for the plugin's SDKs: a fraction is refused by name.
    await expect(getMachines({ maxItems: 1.5 }, mine)).rejects.toThrow(
      /maxItems must be a whole number, 0 or more \(got 1\.5\)/,
    );
    const month = new Date(Date.now()).toISOString().slice(0, 7);
    const usage = await getUtilization({ machineId: machine.id, billingMonth: month }, mine);
    expect(usage.machineId).toBe(machine.id);
    expect((await getScripts({ name: "s1" }, mine)).scripts.map((s) => s.id)).toEqual([script.id]);
    expect(await getScriptText({ scriptId: script.id }, mine)).toEqual({ text: "echo listed" });
    const secretText = getScriptTextOutput({ scriptId: script.id }, mine);
    expect(await (secretText as unknown as { isSecret: Promise<boolean> }).isSecret).toBe(true);
  });

  it("getUsers: wrong key → one line naming getUsers, a RunError (the SDK prints it without a stack)", async () => {
    // The ...Output twins apply these same functions, so their failures read the same.
    const error = (await getUsers({}, { apiKey: "wrong-secret-key", baseUrl: emu.url }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect(error.message).toBe("getUsers: invalid API key (401 invalid_api_key, GET /users/getUsers)");
    expect(`${error.message} ${error.stack}`).not.toContain("wrong-secret-key");
  });

  it.each([
    [
      "getUsersOutput",
      () => failureOf(getUsersOutput({ email: pulumi.output("ada@acme.example") }, wrongKey())),
      "GET /users/getUsers",
    ],
    [
      "getUtilization",
      () => rejectionOf(getUtilization({ machineId: "psnothere", billingMonth: "2026-01" }, wrongKey())),
      "GET /machines/getUtilization",
    ],
    [
      "getUtilizationOutput",
      () =>
        failureOf(
          getUtilizationOutput(
            { machineId: pulumi.output("psnothere"), billingMonth: "2026-01" },
            wrongKey(),
          ),
        ),
      "GET /machines/getUtilization",
    ],
    [
      "getAvailability",
      () => rejectionOf(getAvailability({ region: "East Coast (NY2)", machineType: "P5000" }, wrongKey())),
      "GET /machines/getAvailability",
    ],
  ])("%s: wrong key → one line naming the function, no key in it", async (name, failure, route) => {
    const fn = name.replace(/Output$/, "");
    const error = (await failure()) as Error;
    expect(error).toBeInstanceOf(DataSourceError);
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect((error as DataSourceError).function).toBe(fn);
    expect(error.message).toBe(`${fn}: invalid API key (401 invalid_api_key, ${route})`);
    expect(`${error.message} ${error.stack}`).not.toContain("wrong-secret-key");
  });

  it("a data source without any key → a clear configuration error before any request", async () => {
    const saved = { ...process.env };
    delete process.env.VMAPI_API_KEY;
    delete process.env.PAPERSPACE_API_KEY;
    try {
      await expect(getUsers({}, { baseUrl: emu.url })).rejects.toThrow(/API key/i);
    } finally {
      process.env = saved;
    }
  });
});
