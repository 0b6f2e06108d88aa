export * from "./lists";
export * from "./machineInfo";
export { DataSourceError, type DataSourceOptions } from "./programClient";
