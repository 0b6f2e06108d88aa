import { settleMachine, SettleError, HEARTBEAT_MS } from "../../../src/provider/machine/settle";
import type { Machine } from "../../../src/contract/schemas";

function machine(state: Machine["state"]): Machine {
  return { id: "ps1", state, events: [] } as unknown as Machine;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe("settleMachine progress", () => {
  it("settle: a 65 s provisioning → a line at the start, a heartbeat every 20 s, then ready", async () => {
    const lines: string[] = [];
    const waits: { state: string; firstPollDelayMs?: number }[] = [];
    const client = {
      machines: {
        waitFor: (
          _id: string,
          state: string,
          options: { firstPollDelayMs?: number; onProgress?: (p: { state: string }) => void },
        ) => {
          waits.push({ state, firstPollDelayMs: options.firstPollDelayMs });
          return new Promise<Machine>((resolve) =>
            setTimeout(() => {
              options.onProgress?.({ state: "ready" });
              resolve(machine("ready"));
            }, 65_000),
          );
        },
      },
    };
    const settling = settleMachine(client as never, "ps1", "ready", {
      timeoutMs: 600_000,
      label: "box",
      progress: (line) => lines.push(line),
      current: machine("provisioning"),
    });
    await jest.advanceTimersByTimeAsync(65_000);
    await expect(settling).resolves.toMatchObject({ state: "ready" });
    expect(HEARTBEAT_MS).toBe(20_000);
    expect(lines).toEqual([
      "machine box (ps1): provisioning, waiting for ready (0 s)",
      "machine box (ps1): still provisioning, waiting for ready (20 s)",
      "machine box (ps1): still provisioning, waiting for ready (40 s)",
      "machine box (ps1): still provisioning, waiting for ready (1 min 00 s)",
      "machine box (ps1): ready (1 min 05 s)",
    ]);
    // A provisioning is first polled at 30 s: no provisioning has ever been faster.
    expect(waits).toEqual([{ state: "ready", firstPollDelayMs: 30_000 }]);
  });
});

describe("settleMachine budget", () => {
  it("settle: the machine leaves the target after every leg → throws with its id and current state, never returns it", async () => {
    jest.useRealTimers();
    // Someone starts the machine again each time it has stopped: every wait for off ends ready.
    const client = {
      machines: {
        stop: jest.fn(async () => undefined),
        start: jest.fn(async () => undefined),
        waitFor: jest.fn(async () => machine("ready")),
      },
    };
    const settling = settleMachine(client as never, "ps1", "off", {
      timeoutMs: 600_000,
      label: "box",
      progress: () => undefined,
      current: machine("ready"),
    });
    await expect(settling).rejects.toBeInstanceOf(SettleError);
    await expect(settling).rejects.toMatchObject({
      machineId: "ps1",
      state: "ready",
      message: expect.stringMatching(/machine box \(ps1\) is ready, not off, after 4 waits/),
    });
    expect(client.machines.stop).toHaveBeenCalledTimes(4);
  });
});
