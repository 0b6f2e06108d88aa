/** Scripts, templates, users, networks and delegations against the emulator over loopback. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from "../../../src/client/core/errors";
import { countDelta, machineRequest, useHarness } from "./harness";
import { SEEDED } from "../../kit/seeded";

const h = useHarness();

const dir = mkdtempSync(join(tmpdir(), "vmapi-scripts-"));
function scriptFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe("scripts", () => {
  it("create with scriptText → get, list, text, destroy", async () => {
    const client = h.client();
    const script = await client.scripts.create({
      scriptName: "s-text",
      scriptText: "#!/bin/bash\necho hello\n",
      scriptDescription: "says hello",
      runOnce: true,
    });
    expect(script).toMatchObject({
      name: "s-text",
      description: "says hello",
      runOnce: true,
      isEnabled: true,
    });
    expect(await client.scripts.get(script.id)).toMatchObject({ id: script.id, machines: [] });
    expect((await client.scripts.list({ name: "s-text" })).map((s) => s.id)).toEqual([script.id]);
    expect(await client.scripts.list({ name: "s-text", runOnce: false })).toEqual([]);
    expect(await client.scripts.text(script.id)).toBe("#!/bin/bash\necho hello\n");
    await client.scripts.destroy(script.id);
    await expect(client.scripts.get(script.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("create with scriptFile → the file's text is uploaded", async () => {
    const client = h.client();
    const path = scriptFile("boot.sh", "#!/bin/bash\napt-get update\n");
    const script = await client.scripts.create({ scriptName: "s-file", scriptFile: path });
    expect(await client.scripts.text(script.id)).toBe("#!/bin/bash\napt-get update\n");
  });

  it("create with a file of exactly 16 KB → accepted", async () => {
    const script = await h
      .client()
      .scripts.create({ scriptName: "s-16k", scriptFile: scriptFile("16k.sh", "x".repeat(16384)) });
    expect(script.name).toBe("s-16k");
  });

  it("create with a file of 16 KB + 1 byte → ValidationError with the size, no request sent", async () => {
    const before = await h.counts();
    const path = scriptFile("big.sh", "x".repeat(16385));
    const create = h.client().scripts.create({ scriptName: "s-big", scriptFile: path });
    await expect(create).rejects.toBeInstanceOf(ValidationError);
    await expect(create).rejects.toThrow(/is 16385 bytes; the limit is 16384 bytes/);
    await expect(h.client().scripts.create({ scriptName: "s-none" } as never)).rejects.toThrow(/is required/);
    expect(countDelta(before, await h.counts())).toEqual({});
  });

  it("create: duplicate name → ConflictError", async () => {
    const client = h.client();
    await client.scripts.create({ scriptName: "s-dup", scriptText: "echo 1" });
    await expect(client.scripts.create({ scriptName: "s-dup", scriptText: "echo 2" })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it("create attached to a machine → get lists the machine", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-scripted"));
    const script = await client.scripts.create({
      scriptName: "s-attached",
      scriptText: "echo hi",
      machineId: m.id,
    });
    const shown = await client.scripts.get(script.id);
    expect(shown.machines?.map((x) => x.machineId)).toEqual([m.id]);
  });
});

describe("templates, users, networks, delegations", () => {
  it("templates.list → public templates; filter by os", async () => {
    const client = h.client();
    const ids = (await client.templates.list()).map((t) => t.id);
    expect(ids).toEqual(
      expect.arrayContaining([SEEDED.desktopTemplate, SEEDED.headlessTemplate, SEEDED.windowsTemplate]),
    );
    expect((await client.templates.list({ os: "Windows 10" })).map((t) => t.id)).toEqual([
      SEEDED.windowsTemplate,
    ]);
  });

  it("users.list → the team's users for a team key", async () => {
    const users = await h.client({ key: "teamAdmin" }).users.list();
    expect(users.map((u) => u.id).sort()).toEqual([SEEDED.admin, SEEDED.member]);
    expect(await h.client({ key: "teamAdmin" }).users.list({ email: "max@acme.example" })).toHaveLength(1);
  });

  it("networks.list → one network per region; filter by region", async () => {
    const client = h.client();
    expect(await client.networks.list()).toHaveLength(3);
    expect(await client.networks.list({ region: "Europe (AMS1)" })).toHaveLength(1);
  });

  it("resourceDelegations.create → a token for the listed machines", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("m-delegated"));
    const delegation = await client.resourceDelegations.create({ machine: { ids: [m.id] } });
    expect(delegation).toMatchObject({ delegation: { machine: { ids: [m.id] } }, isEnabled: true });
    expect(delegation.accessTokenId).toEqual(expect.any(String));
    const delegate = h.client({ apiKey: delegation.accessTokenId });
    await expect(delegate.machines.get(m.id)).resolves.toMatchObject({ id: m.id });
    await expect(delegate.scripts.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
