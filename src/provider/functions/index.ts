export * from "./dataSourceFunctions";
export {
  DataSourceError,
  type DataSourceOptions,
  type OutputArgs,
  type VmApiInvokeOptions,
  type VmApiInvokeOutputOptions,
} from "./programClient";
