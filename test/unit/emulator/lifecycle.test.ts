/**
 * The lifecycle table and `advanceLifecycle`, without HTTP: each timed row ends after its duration (scaled),
 * effects happen at the instant of the step, and the operations table is complete.
 */
import { MACHINE_STATES } from "../../../src/contract/constants";
import {
  advanceLifecycle,
  enter,
  HISTORY_LIMIT,
  LIFECYCLE,
  OPERATIONS,
  type LifecycleEffects,
} from "../../../src/emulator/state/lifecycle";
import type { MachineRecord } from "../../../src/emulator/state/records";

function machine(overrides: Partial<MachineRecord> = {}): MachineRecord {
  return {
    id: "ps0000001",
    internalId: 1,
    name: "m",
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    templateId: "t1",
    os: "Ubuntu",
    agentType: "LinuxDesktop",
    region: "East Coast (NY2)",
    networkId: null,
    privateIpAddress: null,
    staticPublicIp: null,
    dynamicPublicIp: null,
    dynamicPublicIpEnabled: false,
    userId: "u1",
    teamId: null,
    scriptId: null,
    dtLastRun: null,
    dtCreated: 0,
    dtDestroyed: null,
    shutdownTimeoutInHours: 1,
    shutdownTimeoutForces: false,
    performAutoSnapshot: false,
    autoSnapshotFrequency: null,
    autoSnapshotSaveCount: null,
    restorePointSnapshotId: null,
    restorePointFrequency: null,
    takeInitialSnapshot: false,
    accessUserIds: [],
    state: "provisioning",
    stateSince: 0,
    pending: { eventHandle: "h1", boot: true, failWith: null },
    bootCount: 0,
    runs: [],
    events: [
      {
        name: "create",
        state: "pending",
        errorMsg: "",
        handle: "h1",
        dtCreated: 0,
        dtModified: 0,
        dtFinished: null,
      },
    ],
    ...overrides,
  };
}

function recorder(): LifecycleEffects & { calls: string[] } {
  const calls: string[] = [];
  return { calls, onBoot: (_m, at) => calls.push(`boot@${at}`), onOff: (_m, at) => calls.push(`off@${at}`) };
}

describe("LIFECYCLE table", () => {
  it.each(Object.entries(LIFECYCLE))("row %s: ends exactly after its duration", (state, row) => {
    const m = machine({
      state: state as MachineRecord["state"],
      stateSince: 1000,
      agentType: "LinuxHeadless",
    });
    const effects = recorder();
    expect(advanceLifecycle(m, 1000 + row!.durationMs - 1, 1, effects)).toBe(false);
    expect(m.state).toBe(state);
    expect(advanceLifecycle(m, 1000 + row!.durationMs, 1, effects)).toBe(true);
    expect(m.state).not.toBe(state);
    expect(m.stateSince).toBe(1000 + row!.durationMs);
  });

  it("advanceLifecycle: desktop provisioning read long after → ready, boot effect at the step instant", () => {
    const m = machine();
    const effects = recorder();
    advanceLifecycle(m, 10 * 60_000, 1, effects);
    expect(m.state).toBe("ready");
    expect(effects.calls).toEqual([`boot@${LIFECYCLE.provisioning!.durationMs}`]);
    expect(m.events[0]).toMatchObject({ state: "done", dtFinished: LIFECYCLE.provisioning!.durationMs });
    expect(m.pending).toBeNull();
  });

  it("advanceLifecycle: headless → serviceready then ready, event done at ready", () => {
    const m = machine({ agentType: "LinuxHeadless" });
    const p = LIFECYCLE.provisioning!.durationMs;
    const s = LIFECYCLE.serviceready!.durationMs;
    advanceLifecycle(m, p, 1, recorder());
    expect([m.state, m.events[0].state]).toEqual(["serviceready", "pending"]);
    advanceLifecycle(m, p + s, 1, recorder());
    expect([m.state, m.events[0].state, m.events[0].dtFinished]).toEqual(["ready", "done", p + s]);
  });

  it("advanceLifecycle: provisioning without boot → off, no boot and no off effect", () => {
    const m = machine({ pending: { eventHandle: "h1", boot: false, failWith: null } });
    const effects = recorder();
    advanceLifecycle(m, 60_000, 1, effects);
    expect(m.state).toBe("off");
    expect(effects.calls).toEqual([]);
  });

  it("advanceLifecycle: a drawn capacity failure → off with an error event, never booted", () => {
    const m = machine({ pending: { eventHandle: "h1", boot: true, failWith: "insufficient capacity" } });
    const effects = recorder();
    advanceLifecycle(m, 60_000, 1, effects);
    expect(m.state).toBe("off");
    expect(m.events[0]).toMatchObject({ state: "error", errorMsg: "insufficient capacity" });
    expect(effects.calls).toEqual([]);
  });

  it("advanceLifecycle: stopping → off with the off effect", () => {
    const m = machine({ state: "stopping", stateSince: 0, pending: null });
    const effects = recorder();
    advanceLifecycle(m, LIFECYCLE.stopping!.durationMs, 1, effects);
    expect(m.state).toBe("off");
    expect(effects.calls).toEqual([`off@${LIFECYCLE.stopping!.durationMs}`]);
  });

  it("advanceLifecycle: time scale 0.01 → every duration a hundredth", () => {
    const m = machine();
    advanceLifecycle(m, 599, 0.01, recorder());
    expect(m.state).toBe("provisioning");
    advanceLifecycle(m, 600, 0.01, recorder());
    expect(m.state).toBe("ready");
  });
});

describe("state history", () => {
  it("history: headless provisioning read long after → every state entered, each at the instant it began", () => {
    const m = machine({ agentType: "LinuxHeadless", history: [{ state: "provisioning", at: 0 }] });
    const p = LIFECYCLE.provisioning!.durationMs;
    advanceLifecycle(m, 10 * 60_000, 1, recorder());
    expect(m.history).toEqual([
      { state: "provisioning", at: 0 },
      { state: "serviceready", at: p },
      { state: "ready", at: p + LIFECYCLE.serviceready!.durationMs },
    ]);
  });

  it("history: a machine of an older state file (no history) → starts at its next change", () => {
    const m = machine({ state: "stopping", pending: null });
    advanceLifecycle(m, LIFECYCLE.stopping!.durationMs, 1, recorder());
    expect(m.history).toEqual([{ state: "off", at: LIFECYCLE.stopping!.durationMs }]);
  });

  it("history: more changes than HISTORY_LIMIT → the newest HISTORY_LIMIT kept, oldest first", () => {
    const m = machine({ history: [] });
    for (let at = 1; at <= HISTORY_LIMIT + 10; at++) enter(m, at % 2 === 0 ? "ready" : "restarting", at);
    expect(m.history).toHaveLength(HISTORY_LIMIT);
    expect(m.history![0].at).toBe(11);
    expect(m.history![HISTORY_LIMIT - 1].at).toBe(HISTORY_LIMIT + 10);
  });
});

describe("OPERATIONS table", () => {
  it("operations: every state either has an outcome or is a documented 409", () => {
    const table = Object.fromEntries(
      Object.entries(OPERATIONS).map(([op, row]) => [
        op,
        MACHINE_STATES.map((s) => `${s}:${row[s] ?? "409"}`),
      ]),
    );
    expect(table).toEqual({
      start: [
        "off:starting",
        "starting:noop",
        "stopping:409",
        "restarting:409",
        "serviceready:noop",
        "ready:noop",
        "upgrading:409",
        "provisioning:409",
      ],
      stop: [
        "off:noop",
        "starting:409",
        "stopping:noop",
        "restarting:409",
        "serviceready:stopping",
        "ready:stopping",
        "upgrading:409",
        "provisioning:409",
      ],
      restart: [
        "off:409",
        "starting:409",
        "stopping:409",
        "restarting:restarting",
        "serviceready:restarting",
        "ready:restarting",
        "upgrading:409",
        "provisioning:409",
      ],
    });
  });
});
