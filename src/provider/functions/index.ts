export * from "./lists";
export * from "./machineInfo";
export {
  DataSourceError,
  type DataSourceOptions,
  type OutputArgs,
  type VmApiInvokeOptions,
  type VmApiInvokeOutputOptions,
} from "./programClient";
