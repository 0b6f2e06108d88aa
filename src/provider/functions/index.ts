export * from "./lists";
export * from "./machineInfo";
export type { DataSourceOptions } from "./programClient";
