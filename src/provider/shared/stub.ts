/** `ResourceKind` where runtime.ts imports it from; the type lives in providerModule.ts. */
export type { ResourceKind } from "./providerModule";
