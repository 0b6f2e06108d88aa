/**
 * The public surface of pulumi-vmapi. Re-exports only; importing this module has no side effect.
 */
export { VmApiClient, type VmApiClientOptions } from "./client/client";
export {
  AbortedError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  MachineEventError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  StateUnreachableError,
  TimeoutError,
  ValidationError,
  VmApiError,
  WaitError,
  WaitTimeoutError,
  provesAbsence,
  type NotFoundBasis,
  type VmApiErrorInit,
} from "./client/errors";
export type { RequestOptions, RetryNotice } from "./client/http";
export type {
  CreateMachineOptions,
  DestroyMachineOptions,
  ListMachinesOptions,
  Machines,
} from "./client/machines";
export type { Networks } from "./client/networks";
export { collect, Paginator } from "./client/pagination";
export type { ResourceDelegations } from "./client/resourceDelegations";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./client/retry";
export type { CreateScriptInput, Scripts } from "./client/scripts";
export type { ClientSettingsInput } from "./client/settings";
export type { Templates } from "./client/templates";
export type { Users } from "./client/users";
export { DEFAULT_POLL_POLICY, type PollPolicy, type WaitOptions, type WaitProgress } from "./client/waiting";
export * from "./client/constants";
// Wire types carry a `Data` suffix: the Pulumi resources own the plain names (`Machine`, `Script`).
export type {
  Availability as AvailabilityData,
  Machine as MachineData,
  MachineEvent as MachineEventData,
  Network as NetworkData,
  ResourceDelegation as ResourceDelegationData,
  Script as ScriptData,
  Template as TemplateData,
  User as UserData,
  Utilization as UtilizationData,
} from "./client/schemas";
export type {
  CreateDelegationRequest,
  CreateMachineRequest,
  SetMachineAccessRequest,
  UpdateMachineRequest,
} from "./client/requestSchemas";
export type {
  FilterValue,
  MachineFilters,
  NetworkFilters,
  ScriptFilters,
  TemplateFilters,
  UserFilters,
} from "./client/listFilters";

// Pulumi resources and data sources.
export { Machine, type MachineArgs } from "./provider/machine";
export { Script, type ScriptArgs } from "./provider/script";
export { ResourceDelegation, type ResourceDelegationArgs } from "./provider/resourceDelegation";
export { MachineAccess, type MachineAccessArgs } from "./provider/machineAccess";
export * from "./provider/functions";
