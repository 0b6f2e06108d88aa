/**
 * Hardware and prices per machine type, and storage prices per size: the numbers the emulator
 * reports once provisioning is over. Invented but plausible; only their shape is part of the API.
 */
import type { MachineType } from "../client/constants";

const GIB = 1024 * 1024 * 1024;

/** What a machine of a type looks like: CPU count, RAM in GiB, GPU name, price per hour. */
export interface MachineTypeSpec {
  cpus: number;
  ramGiB: number;
  gpu: string | null;
  hourlyRate: string;
}

/** The hardware table, one row per machine type of `MACHINE_TYPES`. */
export const MACHINE_TYPE_SPECS: Record<MachineType, MachineTypeSpec> = {
  Air: { cpus: 2, ramGiB: 4, gpu: "GRID K160Q", hourlyRate: "0.07" },
  Standard: { cpus: 2, ramGiB: 8, gpu: "GRID K180Q", hourlyRate: "0.27" },
  Pro: { cpus: 4, ramGiB: 16, gpu: "GRID K240Q", hourlyRate: "0.41" },
  Advanced: { cpus: 6, ramGiB: 32, gpu: "GRID K280Q", hourlyRate: "0.65" },
  "GPU+": { cpus: 8, ramGiB: 30, gpu: "Quadro M4000", hourlyRate: "0.40" },
  P4000: { cpus: 8, ramGiB: 30, gpu: "Quadro P4000", hourlyRate: "0.51" },
  P5000: { cpus: 8, ramGiB: 30, gpu: "Quadro P5000", hourlyRate: "0.78" },
  P6000: { cpus: 8, ramGiB: 30, gpu: "Quadro P6000", hourlyRate: "1.10" },
  V100: { cpus: 8, ramGiB: 30, gpu: "Tesla V100", hourlyRate: "2.30" },
  C1: { cpus: 1, ramGiB: 0.5, gpu: null, hourlyRate: "0.0045" },
  C2: { cpus: 1, ramGiB: 1, gpu: null, hourlyRate: "0.009" },
  C3: { cpus: 2, ramGiB: 2, gpu: null, hourlyRate: "0.018" },
  C4: { cpus: 2, ramGiB: 4, gpu: null, hourlyRate: "0.036" },
  C5: { cpus: 4, ramGiB: 8, gpu: null, hourlyRate: "0.072" },
  C6: { cpus: 6, ramGiB: 16, gpu: null, hourlyRate: "0.144" },
  C7: { cpus: 8, ramGiB: 30, gpu: null, hourlyRate: "0.24" },
  C8: { cpus: 16, ramGiB: 60, gpu: null, hourlyRate: "0.48" },
  C9: { cpus: 24, ramGiB: 120, gpu: null, hourlyRate: "0.96" },
  C10: { cpus: 32, ramGiB: 244, gpu: null, hourlyRate: "1.92" },
};

/** Storage price per month by size tier (GB ceiling → monthly price). */
export const STORAGE_MONTHLY_RATES: readonly (readonly [number, string])[] = [
  [50, "5.00"],
  [100, "7.00"],
  [250, "10.00"],
  [500, "20.00"],
  [1000, "40.00"],
  [2000, "80.00"],
];

/** The hardware row of a type (types are validated before this is reached). */
export function specOf(machineType: string): MachineTypeSpec {
  return MACHINE_TYPE_SPECS[machineType as MachineType];
}

/** Monthly storage price for `sizeGb`: the first tier that holds it. */
export function storageMonthlyRate(sizeGb: number): string {
  const tier = STORAGE_MONTHLY_RATES.find(([limit]) => sizeGb <= limit);
  return (tier ?? STORAGE_MONTHLY_RATES[STORAGE_MONTHLY_RATES.length - 1])[1];
}

/** Bytes as the numeric strings of the wire (`ram`, `storageTotal`, `storageUsed`). */
export function gibToBytes(gib: number): string {
  return String(Math.round(gib * GIB));
}
