/**
 * Hardware per machine type: the numbers the emulator reports once provisioning is over.
 * Invented but plausible; only their shape is part of the API. Prices live in the contract's
 * price list (src/contract/prices.ts), which `vmapi-review` reads too.
 */
import type { MachineType } from "../../contract/constants";

/** What a machine of a type looks like: CPU count, RAM in GiB, GPU name. */
export interface MachineTypeSpec {
  cpus: number;
  ramGiB: number;
  gpu: string | null;
}

/** The hardware table, one row per machine type of `MACHINE_TYPES`. */
export const MACHINE_TYPE_SPECS: Record<MachineType, MachineTypeSpec> = {
  Air: { cpus: 2, ramGiB: 4, gpu: "GRID K160Q" },
  Standard: { cpus: 2, ramGiB: 8, gpu: "GRID K180Q" },
  Pro: { cpus: 4, ramGiB: 16, gpu: "GRID K240Q" },
  Advanced: { cpus: 6, ramGiB: 32, gpu: "GRID K280Q" },
  "GPU+": { cpus: 8, ramGiB: 30, gpu: "Quadro M4000" },
  P4000: { cpus: 8, ramGiB: 30, gpu: "Quadro P4000" },
  P5000: { cpus: 8, ramGiB: 30, gpu: "Quadro P5000" },
  P6000: { cpus: 8, ramGiB: 30, gpu: "Quadro P6000" },
  V100: { cpus: 8, ramGiB: 30, gpu: "Tesla V100" },
  C1: { cpus: 1, ramGiB: 0.5, gpu: null },
  C2: { cpus: 1, ramGiB: 1, gpu: null },
  C3: { cpus: 2, ramGiB: 2, gpu: null },
  C4: { cpus: 2, ramGiB: 4, gpu: null },
  C5: { cpus: 4, ramGiB: 8, gpu: null },
  C6: { cpus: 6, ramGiB: 16, gpu: null },
  C7: { cpus: 8, ramGiB: 30, gpu: null },
  C8: { cpus: 16, ramGiB: 60, gpu: null },
  C9: { cpus: 24, ramGiB: 120, gpu: null },
  C10: { cpus: 32, ramGiB: 244, gpu: null },
};

/** The hardware row of a type (types are validated before this is reached). */
export function specOf(machineType: string): MachineTypeSpec {
  return MACHINE_TYPE_SPECS[machineType as MachineType];
}
