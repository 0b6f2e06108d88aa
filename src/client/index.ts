/**
 * `pulumi-vmapi/client`: the typed client of the API on its own, without Pulumi (importing it
 * does not load @pulumi/pulumi). The package root re-exports all of it.
 */
export { VmApiClient, type VmApiClientOptions } from "./client";
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
} from "./core/errors";
export type { RequestOptions, RetryNotice } from "./core/http";
export {
  DEFAULT_POLL_POLICY,
  type CreateMachineOptions,
  type DestroyMachineOptions,
  type ListMachinesOptions,
  type Machines,
  type PollPolicy,
  type WaitOptions,
  type WaitProgress,
} from "./resources/machine";
export type { Networks } from "./resources/networks";
export { collect, Paginator } from "./core/pagination";
export type { ResourceDelegations } from "./resources/resourceDelegations";
export {
  RateLimiter,
  type Permit,
  type RateLimiterOptions,
  type RequestOutcome,
  type ThrottleNotice,
} from "./core/rateLimiter";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./core/retry";
export type { CreateScriptInput, CreateScriptOptions, Scripts } from "./resources/scripts";
export type { ClientSettingsInput } from "./core/settings";
export type { Templates } from "./resources/templates";
export type { Users } from "./resources/users";
export * from "../contract/constants";
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
} from "../contract/schemas";
export type {
  CreateDelegationRequest,
  CreateMachineRequest,
  SetMachineAccessRequest,
  UpdateMachineRequest,
} from "../contract/requestSchemas";
export type {
  FilterValue,
  MachineFilters,
  NetworkFilters,
  ScriptFilters,
  TemplateFilters,
  UserFilters,
} from "../contract/listFilters";
