/**
 * A Machine's create after an earlier create of the same resource did not finish (its process
 * died: nothing reached the stack). The machine that create made still has its creating name,
 * which only this resource makes: the next create takes it over instead of making a second one.
 * A machine with the auto-name itself was handed to a stack once (kept by retainOnDelete): the
 * create stops and says how to adopt it. A namesake of a declared name is anyone's: created beside.
 */
import type { Machine as ApiMachine } from "../../../src/contract/schemas";
import { creatingName, markerText } from "../../../src/contract/unfinishedCreates";
import { ScriptNameTakenError } from "../../../src/provider/script/scriptCreate";
import { LeftoverError } from "../../../src/provider/machine/leftovers";
import { providerContext } from "../../../src/provider/account/context";
import { checkedMachine, providersOn, useProviderKit, requestCounts, requestsSince } from "./providerTestKit";
import { MACHINE_BASICS, resourceOfThisTest } from "../../kit/machines";

type Props = Record<string, unknown>;
const kit = useProviderKit();

/** The inputs `check` makes for resource `name` of this test, `extra` declared too. */
const checked = (name: string, extra: Props = {}) => checkedMachine(kit, name, extra);

/** What a create of `inputs` whose process died left behind: its machine, under its creating name. */
async function leftBy(inputs: Props, spec: Props = {}): Promise<ApiMachine> {
  const name = creatingName(String(inputs.name), String(inputs.__namingSeed));
  return kit
    .client()
    .machines.create(
      { ...MACHINE_BASICS, templateId: kit.templateId, machineName: name, ...spec },
      { uniqueName: true },
    );
}

async function live(): Promise<ApiMachine[]> {
  return kit.client().machines.list();
}

describe("a create after an unfinished create of the same resource", () => {
  it("create: a machine under its creating name, of its spec, still provisioning → taken over (no second POST), settled, given its name; the warning names it", async () => {
    const inputs = await checked("resumed");
    const leftover = await leftBy(inputs);
    const before = await requestCounts(kit);
    kit.progress.length = 0;
    const { id, outs } = await kit.providers.machine.create(inputs, kit.settings);
    const requests = await requestsSince(kit, before);

    expect(id).toBe(leftover.id);
    expect(requests.createMachine ?? 0).toBe(0);
    expect(outs).toMatchObject({ machineId: leftover.id, name: inputs.name, currentState: "ready" });
    expect((await kit.client().machines.get(id)).name).toBe(inputs.name);
    expect(kit.progress).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^warning: machine ${leftover.id} was made by an earlier create of ${String(inputs.name)} that did not finish`,
        ),
      ),
    );
  });

  it("create: the leftover has another name of the same resource (a plugin draws its auto-names anew) → taken over and given the declared name", async () => {
    const inputs = await checked("renamed", { name: "renamed-new" });
    const leftover = await leftBy({ ...inputs, name: "renamed-old" });
    const { id } = await kit.providers.machine.create(inputs, kit.settings);
    expect(id).toBe(leftover.id);
    expect((await kit.client().machines.get(id)).name).toBe("renamed-new");
  });

  it("create: a declared (fixed) name → its creating name is taken over the same way", async () => {
    const inputs = await checked("fixed", { name: "fixed-box" });
    const leftover = await leftBy(inputs);
    const { id } = await kit.providers.machine.create(inputs, kit.settings);
    expect(id).toBe(leftover.id);
    expect((await live()).filter((m) => m.name.startsWith("fixed-box")).map((m) => [m.id, m.name])).toEqual([
      [leftover.id, "fixed-box"],
    ]);
  });

  it("create: the leftover is of another region (the program changed since) → LeftoverError naming it and the region; nothing created, the leftover untouched", async () => {
    const inputs = await checked("moved");
    const leftover = await leftBy(inputs, { region: "Europe (AMS1)" });
    const before = await requestCounts(kit);
    const error = await kit.providers.machine.create(inputs, kit.settings).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LeftoverError);
    expect((error as Error).message).toContain(leftover.id);
    expect((error as Error).message).toContain(`region "Europe (AMS1)" where "East Coast (NY2)" is declared`);
    const requests = await requestsSince(kit, before);
    expect([requests.createMachine ?? 0, requests.updateMachine ?? 0]).toEqual([0, 0]);
    expect((await kit.client().machines.get(leftover.id)).name).toBe(leftover.name);
  });

  it("create: a machine of another resource's creating name (another stack) → not taken: a new machine is made", async () => {
    const inputs = await checked("neighbour", { name: "shared-name" });
    const other = await leftBy({ ...inputs, __namingSeed: "another stack's seed" });
    const { id } = await kit.providers.machine.create(inputs, kit.settings);
    expect(id).not.toBe(other.id);
    expect((await kit.client().machines.get(other.id)).name).toBe(other.name);
  });
});

describe("a create whose names are already taken by finished machines", () => {
  it("create (auto-named): a machine with its auto-name and spec (kept by retainOnDelete) → LeftoverError with adoptMachineId; nothing created", async () => {
    const inputs = await checked("kept");
    const kept = await kit
      .client()
      .machines.create(
        { ...MACHINE_BASICS, templateId: kit.templateId, machineName: String(inputs.name) },
        { uniqueName: true },
      );
    const before = await requestCounts(kit);
    const error = await kit.providers.machine.create(inputs, kit.settings).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LeftoverError);
    expect((error as Error).message).toContain(`add adoptMachineId: "${kept.id}"`);
    expect((await requestsSince(kit, before)).createMachine ?? 0).toBe(0);

    // Adopting it is the way on: the same resource with adoptMachineId takes it as it is.
    kit.advance(10 * 60_000);
    const adopted = await checked("kept", { name: inputs.name, adoptMachineId: kept.id });
    expect((await kit.providers.machine.create(adopted, kit.settings)).id).toBe(kept.id);
  });

  it("create (auto-named): a machine with its auto-name but another size → not this resource's: created beside", async () => {
    const inputs = await checked("resized");
    const other = await kit
      .client()
      .machines.create(
        { ...MACHINE_BASICS, size: 100, templateId: kit.templateId, machineName: String(inputs.name) },
        { uniqueName: true },
      );
    kit.advance(10 * 60_000); // provisioned: the API reports its storage
    const { id } = await kit.providers.machine.create(inputs, kit.settings);
    expect(id).not.toBe(other.id);
  });

  it("create (declared name): a finished machine of that name and spec → anyone's: created beside, as always", async () => {
    const inputs = await checked("named", { name: "team-box" });
    const other = await kit
      .client()
      .machines.create(
        { ...MACHINE_BASICS, templateId: kit.templateId, machineName: "team-box" },
        { uniqueName: true },
      );
    const { id } = await kit.providers.machine.create(inputs, kit.settings);
    expect(id).not.toBe(other.id);
    expect(
      (await live())
        .filter((m) => m.name === "team-box")
        .map((m) => m.id)
        .sort(),
    ).toEqual([id, other.id].sort());
  });
});

describe("the creating name while a create runs", () => {
  it("create: until it has settled the machine carries its creating name; the last request names it", async () => {
    const inputs = await checked("watched", { name: "watched-box" });
    const seen: string[] = [];
    const clock = kit.clock.fork(async () => {
      for (const m of await live()) if (m.name.startsWith("watched-box")) seen.push(m.name);
    });
    const context = providerContext({ ...kit.context, timing: { ...kit.context.timing, ...clock.timing() } });
    await providersOn(context, kit.settings).machine.create(inputs, kit.settings);

    const creating = creatingName("watched-box", String(inputs.__namingSeed));
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([creating]));
    expect((await live()).filter((m) => m.name.startsWith("watched-box")).map((m) => m.name)).toEqual([
      "watched-box",
    ]);
  });
});

describe("a machine adopted under its creating name (vmapi-recover-pending)", () => {
  it("read (the refresh after the recovery): its creating name → outputs the name it has, inputs the one it is to get; the next diff is an in-place rename", async () => {
    const inputs = await checked("recovered");
    const leftover = await leftBy(inputs);
    // What the recovery records: the create's inputs, the id.
    const read = await kit.providers.machine.read(
      leftover.id,
      { ...inputs, machineId: leftover.id },
      kit.settings,
    );
    expect(read.props?.name).toBe(leftover.name);
    expect(read.inputs?.name).toBe(inputs.name);
    const diff = await kit.providers.machine.diff(leftover.id, read.props!, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
  });

  it("read: a name that merely looks like another resource's creating name → the name as it is", async () => {
    const inputs = await checked("lookalike");
    const other = await leftBy({ ...inputs, __namingSeed: "another-resource" });
    const read = await kit.providers.machine.read(other.id, { ...inputs, machineId: other.id }, kit.settings);
    expect(read.inputs?.name).toBe(other.name);
  });
});

describe("Scripts: the marker of an unfinished create", () => {
  /** The inputs `check` makes for Script resource `name` of this test. */
  async function script(name: string, extra: Props = {}): Promise<Props> {
    const news = { ...resourceOfThisTest(name), scriptText: "echo hi\n", ...extra };
    const { inputs, failures } = await kit.providers.script.check({}, news, kit.settings);
    expect(failures).toEqual([]);
    return inputs!;
  }

  /** What a create of `inputs` whose process died left: its marker, and the script when `text` is given. */
  async function leftByScriptCreate(inputs: Props, text?: string) {
    const markerName = creatingName(String(inputs.name), String(inputs.__namingSeed));
    await kit.client().scripts.create({
      scriptName: markerName,
      scriptText: markerText(String(inputs.name)),
      isEnabled: false,
    });
    if (text === undefined) return undefined;
    return kit.client().scripts.create({ scriptName: String(inputs.name), scriptText: text });
  }

  async function scriptsStartingWith(name: string) {
    return (await kit.client().scripts.list()).filter((s) => s.name.startsWith(name));
  }

  it("create: no leftover → the marker is made first and removed last; only the script remains", async () => {
    const inputs = await script("plain");
    const before = await requestCounts(kit);
    const { id } = await kit.providers.script.create(inputs, kit.settings);
    const requests = await requestsSince(kit, before);
    expect([requests.createScript, requests.destroyScript]).toEqual([2, 1]);
    expect((await scriptsStartingWith(String(inputs.name))).map((s) => [s.id, s.name])).toEqual([
      [id, inputs.name],
    ]);
  });

  it("create: its marker and its script of the declared text left by an unfinished create → the script taken over (same id), the marker removed, a warning", async () => {
    const inputs = await script("resumed");
    const left = await leftByScriptCreate(inputs, "echo hi\n");
    kit.progress.length = 0;
    const { id } = await kit.providers.script.create(inputs, kit.settings);
    expect(id).toBe(left!.id);
    expect((await scriptsStartingWith(String(inputs.name))).map((s) => s.id)).toEqual([id]);
    expect(kit.progress).toContainEqual(
      expect.stringMatching(new RegExp(`^warning: script ${id} .* taking it over`)),
    );
  });

  it("create: its marker and a script of other text (the program changed since) → that script destroyed, the declared one made, the marker removed", async () => {
    const inputs = await script("edited", { scriptText: "echo new\n" });
    const left = await leftByScriptCreate(inputs, "echo old\n");
    const { id } = await kit.providers.script.create(inputs, kit.settings);
    expect(id).not.toBe(left!.id);
    expect((await scriptsStartingWith(String(inputs.name))).map((s) => s.id)).toEqual([id]);
    expect(await kit.client().scripts.text(id)).toBe("echo new\n");
  });

  it("create: its marker and a script of another name of the same resource (a plugin draws its auto-names anew) → that script destroyed, the declared one made, the marker removed", async () => {
    const inputs = await script("redrawn", { name: "redrawn-new.sh" });
    const left = await leftByScriptCreate({ ...inputs, name: "redrawn-old.sh" }, "echo hi\n");
    const { id } = await kit.providers.script.create(inputs, kit.settings);
    expect(id).not.toBe(left!.id);
    expect((await scriptsStartingWith("redrawn-")).map((s) => [s.id, s.name])).toEqual([
      [id, "redrawn-new.sh"],
    ]);
  });

  it("create: only its marker left (the process died before the script's create) → the script made, the marker removed", async () => {
    const inputs = await script("early");
    await leftByScriptCreate(inputs);
    const { id } = await kit.providers.script.create(inputs, kit.settings);
    expect((await scriptsStartingWith(String(inputs.name))).map((s) => s.id)).toEqual([id]);
  });

  it("create: a script of its name without its marker (kept by retainOnDelete, or someone's) → ScriptNameTakenError naming it; nothing made, nothing left", async () => {
    const inputs = await script("kept", { name: "kept.sh" });
    const kept = await kit.client().scripts.create({ scriptName: "kept.sh", scriptText: "echo hi\n" });
    const error = await kit.providers.script.create(inputs, kit.settings).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptNameTakenError);
    expect((error as Error).message).toContain(kept.id);
    expect((await scriptsStartingWith("kept.sh")).map((s) => s.id)).toEqual([kept.id]);
  });
});
