/**
 * The price list, written once, with nothing but data and two lookups (no zod, so what only
 * prices a machine, the policy pack's analyzer among them, loads no schema library): the emulator
 * serves its rates (getUtilization's `hourlyRate` and storage `monthlyRate`), and `vmapi-review`
 * prices a change with the same table, or with a price file of the user's own in the same shape
 * (read by prices.ts, which re-exports this module). Invented but plausible numbers; only their
 * shape is part of the API. Rates are decimal strings, as the wire carries them.
 */

/** What a month is in hours for prices: 365 × 24 / 12, the convention cloud price lists use. */
export const HOURS_PER_MONTH = 730;

/** The rates of one machine type: per hour when billed hourly, per month when billed monthly. */
export interface MachineTypePrice {
  /** Dollars per hour while the machine runs (hourly billing). */
  hourly: string;
  /** Dollars per month whether it runs or not (monthly billing). */
  monthly: string;
}

/** One storage tier: disks up to `upToGb` cost `monthly` dollars a month. */
export interface StorageTier {
  /** The largest disk of the tier, in GB. */
  upToGb: number;
  /** Dollars per month for a disk of the tier. */
  monthly: string;
}

/**
 * A price list: machine rates by type and storage tiers by size (ascending). A disk larger than
 * the last tier is priced at the last tier, as the emulator bills it.
 */
export interface PriceList {
  /** What the list is, as a review's footer names it. */
  name: string;
  /** Rates by machine type (`C4`, `P5000`, ...). */
  machineTypes: Record<string, MachineTypePrice>;
  /** Storage tiers, ascending by `upToGb`. */
  storage: StorageTier[];
}

/** The list the emulator serves and the review uses unless given a price file. */
export const DEFAULT_PRICE_LIST: PriceList = {
  name: "pulumi-vmapi list prices (the emulator's table)",
  machineTypes: {
    Air: { hourly: "0.07", monthly: "30.00" },
    Standard: { hourly: "0.27", monthly: "110.00" },
    Pro: { hourly: "0.41", monthly: "170.00" },
    Advanced: { hourly: "0.65", monthly: "270.00" },
    "GPU+": { hourly: "0.40", monthly: "230.00" },
    P4000: { hourly: "0.51", monthly: "290.00" },
    P5000: { hourly: "0.78", monthly: "440.00" },
    P6000: { hourly: "1.10", monthly: "620.00" },
    V100: { hourly: "2.30", monthly: "1300.00" },
    C1: { hourly: "0.0045", monthly: "2.50" },
    C2: { hourly: "0.009", monthly: "5.00" },
    C3: { hourly: "0.018", monthly: "10.00" },
    C4: { hourly: "0.036", monthly: "20.00" },
    C5: { hourly: "0.072", monthly: "40.00" },
    C6: { hourly: "0.144", monthly: "80.00" },
    C7: { hourly: "0.24", monthly: "140.00" },
    C8: { hourly: "0.48", monthly: "280.00" },
    C9: { hourly: "0.96", monthly: "560.00" },
    C10: { hourly: "1.92", monthly: "1120.00" },
  },
  storage: [
    { upToGb: 50, monthly: "5.00" },
    { upToGb: 100, monthly: "7.00" },
    { upToGb: 250, monthly: "10.00" },
    { upToGb: 500, monthly: "20.00" },
    { upToGb: 1000, monthly: "40.00" },
    { upToGb: 2000, monthly: "80.00" },
  ],
};

/** The hourly rate of a machine type in `list`, or undefined when the list has no such type. */
export function machineTypePrice(list: PriceList, machineType: string): MachineTypePrice | undefined {
  return Object.prototype.hasOwnProperty.call(list.machineTypes, machineType)
    ? list.machineTypes[machineType]
    : undefined;
}

/** The monthly storage rate for `sizeGb`: the first tier that holds it, else the last tier. */
export function storageMonthlyRate(list: PriceList, sizeGb: number): string {
  const tier = list.storage.find((t) => sizeGb <= t.upToGb);
  return (tier ?? list.storage[list.storage.length - 1]).monthly;
}
