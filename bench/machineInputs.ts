/**
 * The machine every benchmark creates. A module of its own, free of imports, so the benchmark
 * programs run by the real CLI (bench/programs) can use it without loading the emulator or the
 * provider into the program they time.
 */

/** A CPU machine from a desktop template: `provisioning → ready` after 60 s, no serviceready step. */
export const MACHINE_INPUTS = {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: "tubdesk1",
} as const;

/** The create request body of the same machine, for driving the client directly. */
export function createRequest(machineName: string) {
  return { ...MACHINE_INPUTS, machineName };
}
