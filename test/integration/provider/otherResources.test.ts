import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { VmApiClient } from "../../../src/client/client";
import { providerContext } from "../../../src/provider/shared/context";
import { providersOn, startProviderKit, type ProviderKit } from "./providerTestKit";

let kit: ProviderKit;
let machineId: string;
let tmp: string;

beforeAll(async () => {
  kit = await startProviderKit();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-script-"));
  const client = new VmApiClient(kit.settings);
  const template = (await client.templates.list()).find((t) => t.os.toLowerCase().startsWith("ubuntu"))!;
  const machine = await client.machines.create({
    region: "East Coast (NY2)",
    machineType: "C3",
    size: 50,
    billingType: "hourly",
    machineName: "script-host",
    templateId: template.id,
  });
  machineId = machine.id;
});
afterAll(async () => {
  await kit.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("Script provider", () => {
  it("create → read → delete: outputs owner and machines; gone after delete", async () => {
    const { inputs } = await kit.providers.script.check(
      {},
      { __resourceName: "boot", scriptText: "echo hi", machineId },
      kit.settings,
    );
    const { id, outs } = await kit.providers.script.create(inputs!, kit.settings);
    expect(outs).toMatchObject({ ownerType: "user", name: expect.stringMatching(/^boot-/), scriptId: id });
    expect(outs.machines).toEqual([expect.objectContaining({ machineId })]);
    const read = await kit.providers.script.read(id, outs, kit.settings);
    expect(read.id).toBe(id);
    await kit.providers.script.delete(id, outs, kit.settings);
    expect(await kit.providers.script.read(id, outs, kit.settings)).toEqual({});
    await expect(kit.providers.script.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });

  it("diff: a changed file at the same path → replace", async () => {
    const file = path.join(tmp, "setup.sh");
    fs.writeFileSync(file, "echo one");
    const first = (
      await kit.providers.script.check({}, { __resourceName: "f", scriptFile: file }, kit.settings)
    ).inputs!;
    fs.writeFileSync(file, "echo two");
    const second = (
      await kit.providers.script.check(first, { __resourceName: "f", scriptFile: file }, kit.settings)
    ).inputs!;
    expect(second.name).toBe(first.name);
    expect(await kit.providers.script.diff("sc1", first, second)).toMatchObject({
      changes: true,
      replaces: ["contentSha256"],
    });
  });

  it("check: 16 KB + 1 byte file → failure with the size; neither text nor file → failure", async () => {
    const file = path.join(tmp, "big.sh");
    fs.writeFileSync(file, "x".repeat(16 * 1024 + 1));
    const big = await kit.providers.script.check(
      {},
      { __resourceName: "big", scriptFile: file },
      kit.settings,
    );
    expect(big.failures).toEqual([
      { property: "scriptFile", reason: expect.stringContaining("16385 bytes") },
    ]);
    const none = await kit.providers.script.check({}, { __resourceName: "none" }, kit.settings);
    expect(none.failures!.map((f) => f.property)).toEqual(["scriptText"]);
  });

  it("check: plain scriptText of 20 KB → a failure the engine prints in one short line, without the text", async () => {
    const text = "y".repeat(20 * 1024);
    const inputs = { __resourceName: "huge", scriptText: text };
    const { failures } = await kit.providers.script.check({}, inputs, kit.settings);
    expect(failures).toHaveLength(1);
    // The engine prints a failure as "property 'P' value V has a problem: R", the value in full
    // when it is not a secret (pkg/diag: GetResourcePropertyInvalidValueError).
    const printed = failures!.map((f) =>
      f.property
        ? `property '${f.property}' value ${String((inputs as Record<string, unknown>)[f.property])} has a problem: ${f.reason}`
        : `has a problem: ${f.reason}`,
    );
    expect(printed[0]).toMatch(/scriptText is 20480 bytes; the limit is 16384 bytes/);
    expect(printed[0].length).toBeLessThan(300);
  });

  it("diff: explicit unchanged name with new text → replace, deleting the old one first", async () => {
    const olds = (await kit.providers.script.check({}, { name: "fixed", scriptText: "a" }, kit.settings))
      .inputs!;
    const news = (await kit.providers.script.check(olds, { name: "fixed", scriptText: "b" }, kit.settings))
      .inputs!;
    expect(await kit.providers.script.diff("sc1", olds, news)).toEqual({
      changes: true,
      replaces: ["contentSha256"],
      deleteBeforeReplace: true,
    });
  });
});

/** The delegation provider on the kit's context, its clock stopped at `now`. */
const delegationAt = (now: number) =>
  providersOn(providerContext({ ...kit.context, timing: { ...kit.context.timing, now: () => now } }))
    .delegation;

describe("ResourceDelegation provider", () => {
  it("create: outputs token and expiry 4 h after dtCreated; diff replaces near expiry", async () => {
    const { id, outs } = await kit.providers.delegation.create({ machineIds: [machineId] }, kit.settings);
    expect(id).toMatch(/^\d+$/);
    expect(Date.parse(outs.expiresAt) - Date.parse(outs.dtCreated)).toBe(4 * 3600 * 1000);
    expect(outs.accessTokenId).toEqual(expect.any(String));
    const created = Date.parse(outs.dtCreated);
    expect(await delegationAt(created + 60_000).diff(id, outs, { machineIds: [machineId] })).toMatchObject({
      changes: false,
    });
    // 10 min left, margin 30 min
    expect(
      await delegationAt(created + 4 * 3600 * 1000 - 10 * 60_000).diff(id, outs, { machineIds: [machineId] }),
    ).toMatchObject({
      changes: true,
      replaces: ["expiresAt"],
    });
  });

  it("read with only the id (ResourceDelegation.get) → an error saying the API cannot read one back", async () => {
    await expect(kit.providers.delegation.read("17", {})).rejects.toThrow(
      /resource delegation 17: the API cannot read a delegation back.*ResourceDelegation\.get/,
    );
  });

  it("check: empty machineIds → failure naming machineIds", async () => {
    const { failures } = await kit.providers.delegation.check({}, { machineIds: [] }, kit.settings);
    expect(failures!.map((f) => f.property)).toEqual(["machineIds"]);
  });
});

describe("MachineAccess provider", () => {
  it("create grants, delete revokes (the emulator's grants reflect both)", async () => {
    const users = await new VmApiClient(kit.settings).users.list();
    const userId = users[0].id;
    const grants = async () =>
      ((await kit.control.state()) as unknown as { accessGrants: { machineId: string; userId: string }[] })
        .accessGrants;
    const { id, outs } = await kit.providers.access.create({ machineId, userId }, kit.settings);
    expect(id).toBe(`${machineId}/${userId}`);
    expect(await grants()).toContainEqual(expect.objectContaining({ machineId, userId }));
    await kit.providers.access.delete(id, outs, kit.settings);
    expect(await grants()).not.toContainEqual(expect.objectContaining({ machineId, userId }));
    // Revoking twice (already revoked) is still success.
    await expect(kit.providers.access.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });

  it("read with only the id (MachineAccess.get) → machineId and userId taken from it", async () => {
    const users = await new VmApiClient(kit.settings).users.list();
    const id = `${machineId}/${users[0].id}`;
    expect(await kit.providers.access.read(id, {}, kit.settings)).toMatchObject({
      id,
      props: { machineId, userId: users[0].id },
    });
  });

  it("read: machine destroyed → the grant is gone", async () => {
    const client = new VmApiClient(kit.settings);
    const users = await client.users.list();
    const { id, outs } = await kit.providers.access.create({ machineId, userId: users[0].id }, kit.settings);
    expect((await kit.providers.access.read(id, outs, kit.settings)).id).toBe(id);
    await client.machines.destroy(machineId);
    kit.advance(10 * 60_000);
    expect(await kit.providers.access.read(id, outs, kit.settings)).toEqual({});
  });
});
