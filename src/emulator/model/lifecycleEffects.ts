/**
 * What happens to a machine, and to what it touches, when the lifecycle table (state/lifecycle.ts)
 * boots it or brings it to off: its boot count and run intervals (usage), its dynamic public IP,
 * and its startup script. The store replays the table whenever a machine is read and calls these
 * at the instant each step happened, so the same history gives the same result.
 */
import type { LifecycleEffects } from "../state/lifecycle";
import type { MachineRecord, ScriptRecord } from "../state/records";

/** The effects of the lifecycle; `scriptOf` finds the script a booting machine runs. */
export function lifecycleEffects(scriptOf: (id: string) => ScriptRecord | undefined): LifecycleEffects {
  return {
    onBoot: (machine, at) => {
      machine.bootCount += 1;
      machine.runs.push({ from: at, to: null });
      if (machine.dynamicPublicIpEnabled && machine.staticPublicIp === null) {
        machine.dynamicPublicIp = dynamicIp(machine.internalId, machine.bootCount);
      }
      if (machine.scriptId !== null) runStartupScript(scriptOf(machine.scriptId), machine, at);
    },
    onOff: (machine, at) => {
      closeRuns(machine, at);
      machine.dynamicPublicIp = null;
    },
  };
}

/** An enabled script runs at every boot, or only at the first boot on this machine if runOnce. */
function runStartupScript(script: ScriptRecord | undefined, machine: MachineRecord, at: number): void {
  if (script === undefined || !script.isEnabled) return;
  if (script.runOnce && script.runs[machine.id] !== undefined) return;
  script.runs[machine.id] = at;
  machine.dtLastRun = at;
}

/** Ends the open run interval (at stop completion or destroy). */
export function closeRuns(machine: MachineRecord, at: number): void {
  for (const run of machine.runs) if (run.to === null) run.to = at;
}

/**
 * A dynamic public IP, derived from the machine and its boot number rather than drawn at random,
 * so replaying the same history twice (e.g. after a restart from the state file) gives the same IP.
 */
export function dynamicIp(internalId: number, bootCount: number): string {
  const n = ((internalId - 1) * 97 + bootCount) % 65024;
  return `198.18.${Math.floor(n / 254) % 256}.${1 + (n % 254)}`;
}

/** The n-th static public IP (1-based) from 100.64.0.0/10. */
export function staticIp(n: number): string {
  const i = n - 1;
  return `100.${64 + (Math.floor(i / 65024) % 64)}.${Math.floor(i / 254) % 256}.${1 + (i % 254)}`;
}
