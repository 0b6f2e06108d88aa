/**
 * Sizes on the wire: a machine's `size` is given in GB (GiB, 2^30 bytes) and the API reports
 * `ram`, `storageTotal` and `storageUsed` as numeric strings in bytes (docs/api.md, "Resources").
 * The emulator writes them and the provider reads them back with these two functions.
 */

/** Bytes in one GB of the API (a GiB). */
export const BYTES_PER_GB = 2 ** 30;

/** `gb` as the wire's numeric string of bytes, e.g. 8 → "8589934592". */
export function gbToBytes(gb: number): string {
  return String(Math.round(gb * BYTES_PER_GB));
}

/** GB from the wire's numeric string of bytes; undefined when it is null or not a whole number. */
export function bytesToGb(bytes: string | null): number | undefined {
  if (bytes === null || !/^\d+$/.test(bytes)) return undefined;
  return Number(bytes) / BYTES_PER_GB;
}
