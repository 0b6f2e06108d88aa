/**
 * `machines.waitFor` against the emulator's lifecycle. The client's sleep advances the emulator's
 * manual clock, so a 60 s provisioning takes milliseconds and the number of polls is exact.
 */
import {
  AbortedError,
  MachineEventError,
  NotFoundError,
  StateUnreachableError,
  WaitTimeoutError,
} from "../../../src/client/core/errors";
import type { WaitProgress } from "../../../src/client/resources/machine";
import { countDelta, machineRequest, PROVISIONING_MS, useHarness } from "./harness";
import { SEEDED } from "../../kit/seeded";

const SHOW = "GET /machines/getMachinePublic";

const h = useHarness();

describe("machines.waitFor", () => {
  it("waitFor(ready): 60 s provisioning → ready in 10 requests (a fixed 5 s poll makes 13)", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-count"));
    const start = h.elapsed();
    const progress: Omit<WaitProgress, "machine">[] = [];
    const before = await h.counts();
    const ready = await client.machines.waitFor(m.id, "ready", {
      onProgress: ({ machine: _m, ...p }) => progress.push(p),
    });
    const adaptive = countDelta(before, await h.counts())[SHOW];
    expect(ready.state).toBe("ready");
    expect(ready.events?.length).toBeGreaterThan(0);
    expect(adaptive).toBe(10);
    expect(h.elapsed() - start).toBe(65_000); // seen at most 5 s after it happened
    expect(progress).toEqual([
      { state: "provisioning", previousState: undefined, elapsedMs: 0 },
      { state: "ready", previousState: "provisioning", elapsedMs: 65_000 },
    ]);

    const other = await client.machines.create(machineRequest("w-count-fixed"));
    const fixedBefore = await h.counts();
    const fixedPoll = { initialDelayMs: 5000, factor: 1, maxDelayMs: 5000, jitter: 0 };
    await client.machines.waitFor(other.id, "ready", { pollPolicy: fixedPoll });
    expect(countDelta(fixedBefore, await h.counts())[SHOW]).toBe(13);
  });

  it("waitFor(ready, firstPollDelayMs 15 s): 60 s provisioning → ready in 6 requests, seen at the same moment", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-first-delay"));
    const start = h.elapsed();
    const before = await h.counts();
    const ready = await client.machines.waitFor(m.id, "ready", { firstPollDelayMs: 15_000, baseline: m });
    expect(ready.state).toBe("ready");
    expect(countDelta(before, await h.counts())[SHOW]).toBe(6); // 15, 25, 35, 45, 55, 65 s
    expect(h.elapsed() - start).toBe(65_000);
  });

  it("waitFor(ready, baseline): error appears before a delayed first poll → MachineEventError; an older error → ignored", async () => {
    const client = h.client();
    await h.capacity({ region: "Europe (AMS1)", machineType: "C6", failNextStarts: 1 });
    const m = await client.machines.create(
      machineRequest("w-baseline", { region: "Europe (AMS1)", machineType: "C6" }),
    );
    // The first poll comes after the failure: only the baseline tells that the error is new.
    await expect(
      client.machines.waitFor(m.id, "ready", { firstPollDelayMs: 120_000, baseline: m }),
    ).rejects.toMatchObject({
      constructor: MachineEventError,
      errorMsg: expect.stringContaining("capacity"),
    });
    const failed = await client.machines.get(m.id);
    await client.machines.start(m.id);
    const ready = await client.machines.waitFor(m.id, "ready", { firstPollDelayMs: 1000, baseline: failed });
    expect(ready.state).toBe("ready");
  });

  it("waitFor(serviceready): headless template → serviceready before ready", async () => {
    const client = h.client();
    const m = await client.machines.create(
      machineRequest("w-headless", { templateId: SEEDED.headlessTemplate }),
    );
    const machine = await client.machines.waitFor(m.id, "serviceready");
    expect(machine.state).toBe("serviceready");
  });

  it("waitFor(off): stop of a running machine → off", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-stop"));
    h.advance(PROVISIONING_MS);
    await client.machines.stop(m.id);
    await expect(client.machines.waitFor(m.id, "off")).resolves.toMatchObject({ state: "off" });
  });

  it("waitFor(ready): never ready within timeoutMs → WaitTimeoutError with the last state", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-timeout"));
    const wait = client.machines.waitFor(m.id, "ready", { timeoutMs: 20_000 });
    await expect(wait).rejects.toBeInstanceOf(WaitTimeoutError);
    await expect(wait).rejects.toThrow(/within 20000 ms; last state: provisioning/);
  });

  it("waitFor(ready): start fails for capacity → MachineEventError with the event's errorMsg", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-capacity", { startOnCreate: false }));
    h.advance(PROVISIONING_MS);
    await h.capacity({ region: "East Coast (NY2)", machineType: "C4", failNextStarts: 1 });
    await client.machines.start(m.id);
    const error = await client.machines.waitFor(m.id, "ready").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MachineEventError);
    expect((error as MachineEventError).errorMsg).not.toBe("");
    expect((error as MachineEventError).message).toContain((error as MachineEventError).errorMsg);
  });

  it("waitFor(ready): machine created with startOnCreate false → StateUnreachableError once off", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-off", { startOnCreate: false }));
    const error = await client.machines.waitFor(m.id, "ready").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateUnreachableError);
    expect((error as StateUnreachableError).lastState).toBe("off");
  });

  it("waitFor: signal aborted between polls → AbortedError promptly", async () => {
    const controller = new AbortController();
    const client = h.client({
      sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve())),
    });
    const m = await client.machines.create(machineRequest("w-abort"));
    const wait = client.machines.waitFor(m.id, "ready", { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(wait).rejects.toBeInstanceOf(AbortedError);
  });

  it("waitFor: machine destroyed meanwhile → NotFoundError", async () => {
    const client = h.client();
    const m = await client.machines.create(machineRequest("w-gone"));
    await client.machines.destroy(m.id);
    await expect(client.machines.waitFor(m.id, "ready")).rejects.toBeInstanceOf(NotFoundError);
  });
});
