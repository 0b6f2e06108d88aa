/**
 * The review of a preview as data: what buildModel (model.ts) makes of the preview's steps, with
 * the effects (effects.ts) filled in, and what the Markdown (markdown.ts) and the gates (gates.ts)
 * read. Types only, so every step of the review imports them without importing each other.
 */
import type { PriceList } from "../contract/prices";
import type { Cost } from "./cost";

/** What happens to a machine. A machine can be updated in place and started or stopped at once. */
export type MachineAction =
  "create" | "adopt" | "replace" | "update" | "start" | "stop" | "restart" | "delete" | "same";

/** One input that changes, as shown: values are display strings (secrets and unknowns named as such). */
export interface InputChange {
  key: string;
  before: string;
  after: string;
}

/** A machine's disk that the change destroys. */
export interface DestroyedDisk {
  resource: string;
  machineName: string;
  machineId: string;
  sizeGb: number | undefined;
  cause: "replace" | "delete";
}

/** A public IP a machine gives up (`kept`: a static IP that stays reserved in the account). */
export interface ReleasedIp {
  resource: string;
  machineName: string;
  address: string;
  kind: "static" | "dynamic";
  kept: boolean;
  cause: "replace" | "delete" | "stop";
}

/** A script a machine will run when it next boots. */
export interface BootScript {
  resource: string;
  machineName: string;
  script: string;
  runOnce: boolean;
  /** Why the machine boots: it is new, replaced or started; or the script was assigned to it. */
  occasion: "create" | "replace" | "start" | "assigned" | "restart";
  /** The script resource's own change in this preview, if any. */
  scriptChange?: string;
}

/** One machine of the preview. */
export interface MachineReview {
  resource: string;
  actions: MachineAction[];
  nameBefore?: string;
  nameAfter?: string;
  machineId?: string;
  /** The inputs that force the replacement. */
  forcedBy: InputChange[];
  /** Other inputs that change. */
  changes: InputChange[];
  before?: Cost;
  after?: Cost;
}

/** A resource of another type that changes (Script, MachineAccess, ResourceDelegation). */
export interface OtherChange {
  type: string;
  resource: string;
  op: string;
  reasons: string[];
}

/**
 * A warning of the preview's, as shown (a secret reads "(secret)"): a provider's (a machine
 * replaced with its disk, a machine taken over) or the engine's.
 */
export interface PreviewWarning {
  /** The resource it is about, when the engine names one (the plugin's warnings carry its URN). */
  resource?: string;
  message: string;
}

/** Everything the Markdown shows. */
export interface ReviewModel {
  project?: string;
  stack?: string;
  machines: MachineReview[];
  disks: DestroyedDisk[];
  ips: ReleasedIp[];
  bootScripts: BootScript[];
  others: OtherChange[];
  /**
   * Unchanged resources the preview counts but does not list (it lists them with `--show-sames`):
   * 0 means the totals are the whole stack's.
   */
  hiddenSames: number;
  errors: string[];
  /** The preview's warnings, each once, in the order the engine gave them. */
  warnings: PreviewWarning[];
  prices: PriceList;
}
