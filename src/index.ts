/**
 * The public surface of pulumi-vmapi. Re-exports only; importing this module has no side effect.
 */
export * from "./client/index";

// Pulumi resources and data sources.
// Each resource's class and its `<Kind>Args` (Machine, Script, ResourceDelegation, MachineAccess,
// MachineRestart), generated from the resources' declarations.
export * from "./provider/dynamic/resourceClasses";
export type { PowerState } from "./provider/machine/machineModel";
export { VmApiResource, type ResourceShape } from "./provider/dynamic/resourceClass";
export type { ResourceKind } from "./provider/dynamic/providerModule";
export * from "./provider/functions";

// Change review: `pulumi preview --json` → Markdown for a pull request (the `vmapi-review` bin).
export {
  reviewPreview,
  parsePriceList,
  parseFailOn,
  DEFAULT_PRICE_LIST,
  HOURS_PER_MONTH,
  PreviewFormatError,
  PriceFileError,
  PriceListError,
  ReviewUsageError,
  type ReviewOptions,
  type ReviewResult,
  type FailOn,
  type PriceList,
  type MachineTypePrice,
  type StorageTier,
} from "./review/index";
