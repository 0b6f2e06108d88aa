/**
 * The closed value sets of the VM API (docs/api.md), shared by the client, the provider's `check`
 * and the emulator, so an allowed value is written once.
 */

/** Regions a machine can be created in. */
export const REGIONS = ["West Coast (CA1)", "East Coast (NY2)", "Europe (AMS1)"] as const;
/** A region of the API. */
export type Region = (typeof REGIONS)[number];

/** GRID GPU types: Ubuntu templates cannot create these. */
export const GRID_MACHINE_TYPES = ["Air", "Standard", "Pro", "Advanced"] as const;
/** Dedicated GPU types: the only ones that report availability. */
export const DEDICATED_GPU_MACHINE_TYPES = ["GPU+", "P4000", "P5000", "P6000", "V100"] as const;
/** CPU-only types: Windows templates cannot create these. */
export const CPU_MACHINE_TYPES = ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"] as const;
/** Every machine type: GRID, then dedicated GPU, then CPU-only. */
export const MACHINE_TYPES = [
  ...GRID_MACHINE_TYPES,
  ...DEDICATED_GPU_MACHINE_TYPES,
  ...CPU_MACHINE_TYPES,
] as const;
/** A machine type of the API: grid, dedicated GPU or CPU. */
export type MachineType = (typeof MACHINE_TYPES)[number];
/** A dedicated GPU type: the only types whose availability the API reports. */
export type DedicatedGpuMachineType = (typeof DEDICATED_GPU_MACHINE_TYPES)[number];

/** How a machine is billed. */
export const BILLING_TYPES = ["monthly", "hourly"] as const;
/** How a machine is billed: `monthly` or `hourly`. */
export type BillingType = (typeof BILLING_TYPES)[number];

/** How often automatic snapshots are taken. */
export const AUTO_SNAPSHOT_FREQUENCIES = ["hour", "day", "week"] as const;
/** How often automatic snapshots are taken: `hour`, `day` or `week`. */
export type AutoSnapshotFrequency = (typeof AUTO_SNAPSHOT_FREQUENCIES)[number];

/** When a machine with a restore point is restored. */
export const RESTORE_POINT_FREQUENCIES = ["shutdown"] as const;
/** When a machine with a restore point is restored: only `shutdown`. */
export type RestorePointFrequency = (typeof RESTORE_POINT_FREQUENCIES)[number];

/** Every state the API reports for a machine. */
export const MACHINE_STATES = [
  "off",
  "starting",
  "stopping",
  "restarting",
  "serviceready",
  "ready",
  "upgrading",
  "provisioning",
] as const;
/** A state the API reports for a machine. */
export type MachineState = (typeof MACHINE_STATES)[number];

/** States a caller can wait for (docs/api.md, "Endpoints"). */
export const WAITABLE_STATES = ["off", "serviceready", "ready"] as const;
/** A state `machines.waitFor` can wait for: `off`, `serviceready` or `ready`. */
export type WaitableState = (typeof WAITABLE_STATES)[number];

/** The names of a machine's lifecycle events. */
export const EVENT_NAMES = ["create", "start", "stop", "restart", "snapshot-create"] as const;
/** The states of a lifecycle event. */
export const EVENT_STATES = ["pending", "done", "error"] as const;

/** How a machine is reached, by its template. */
export const AGENT_TYPES = ["LinuxHeadless", "LinuxDesktop", "WindowsDesktop"] as const;

/** Who owns a script. */
export const OWNER_TYPES = ["user", "team"] as const;
/** Who owns a script: a `user` or a `team`. */
export type OwnerType = (typeof OWNER_TYPES)[number];

/** Script text limit: 16 KB of UTF-8 per script. */
export const SCRIPT_MAX_BYTES = 16 * 1024;

/** A resource delegation stops working this long after its `dtCreated`. */
export const DELEGATION_LIFETIME_MS = 4 * 60 * 60 * 1000;

/** Default and largest page of GET /machines/getMachines. */
export const DEFAULT_MACHINE_PAGE_SIZE = 1000;

/** The production host of the retired hosted service; the client's default base URL. */
export const DEFAULT_BASE_URL = "https://api.paperspace.io";

/** Header that carries the API key (or a delegation's accessTokenId). */
export const API_KEY_HEADER = "X-Api-Key";

/**
 * Stable machine-readable `error.code` values (docs/api.md, "Errors"). The emulator sends
 * them; the client maps statuses to classes and keeps the code for callers who want it.
 */
export const ERROR_CODES = [
  "validation_failed",
  "malformed_json",
  "unsupported_media_type",
  "invalid_api_key",
  "forbidden",
  "not_found",
  "route_not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "rate_limited",
  "internal_error",
  "service_unavailable",
] as const;
/** The `code` of an error answer of the API (and of the emulator). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The template/type rules of a create (docs/api.md, "Creating a machine"). Returns the reason a
 * template of this `os` cannot create `machineType`, or null when it can.
 */
export function templateTypeViolation(os: string | null, machineType: string): string | null {
  const family = (os ?? "").toLowerCase();
  if (family.startsWith("windows") && (CPU_MACHINE_TYPES as readonly string[]).includes(machineType)) {
    return `machineType ${machineType} cannot be created from a Windows template (CPU-only types ${CPU_MACHINE_TYPES[0]}–${CPU_MACHINE_TYPES[CPU_MACHINE_TYPES.length - 1]} need a Linux template)`;
  }
  if (family.startsWith("ubuntu") && (GRID_MACHINE_TYPES as readonly string[]).includes(machineType)) {
    return `machineType ${machineType} cannot be created from an Ubuntu template (GRID types ${GRID_MACHINE_TYPES.join(", ")} need a Windows template)`;
  }
  return null;
}
