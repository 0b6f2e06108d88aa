/**
 * The state file stays off the read path: a read that lets a machine's lifecycle
 * advance writes nothing, and after a restart from the file the same steps are recomputed from
 * the stored timestamps, with the same states, events, addresses and script runs.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../../src/emulator";
import { startTestEmulator } from "../../kit/emulator";
import { Api, createBody } from "./api";

let dir: string;
let file: string;
let emu: RunningEmulator | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-reads-"));
  file = path.join(dir, "state.json");
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<Api> {
  emu = await startTestEmulator({ stateFile: file });
  return new Api(emu.url, emu.keys.individual);
}

/** A machine with a startup script and a dynamic IP, created at the clock's start. */
async function machineWithScript(api: Api): Promise<string> {
  const m = await api.post<{ id: string }>(
    "/machines/createSingleMachinePublic",
    createBody({ dynamicPublicIp: true }),
  );
  await api.post("/scripts/createScript", { scriptName: "boot", scriptText: "echo", machineId: m.body.id });
  return m.body.id;
}

describe("state file and reads", () => {
  it("GET: a read that advances provisioning to ready → the state file is not written", async () => {
    const api = await start();
    const id = await machineWithScript(api);
    emu!.advance(61_000);
    const written = fs.readFileSync(file, "utf8");
    const shown = await api.get<{ state: string }>("/machines/getMachinePublic", { machineId: id });
    await api.get("/machines/getMachines");
    await emu!.control.state();
    expect(shown.body.state).toBe("ready");
    expect(fs.readFileSync(file, "utf8")).toBe(written);
  });

  it("restart: steps a read observed but did not write → recomputed the same from the timestamps", async () => {
    const api = await start();
    const id = await machineWithScript(api);
    emu!.advance(61_000);
    const before = (await emu!.control.state()).machines;
    const scriptsBefore = (await emu!.control.state()).scripts;
    await emu!.close();
    const again = await start();
    expect((await again.get("/machines/getMachinePublic", { machineId: id })).status).toBe(200);
    const after = await emu!.control.state();
    expect(after.machines).toEqual(before);
    expect(after.scripts).toEqual(scriptsBefore);
    expect(after.machines[0]).toMatchObject({ state: "ready", dtLastRun: "2026-01-15T09:01:00.000Z" });
  });

  it("POST: a change after a read → written, with the steps the read observed", async () => {
    const api = await start();
    const id = await machineWithScript(api);
    emu!.advance(61_000);
    await api.get("/machines/getMachinePublic", { machineId: id });
    await api.post(`/machines/${id}/stop`);
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { data: { machines: { state: string }[] } };
    expect(saved.data.machines.map((m) => m.state)).toEqual(["stopping"]);
  });
});
