/**
 * Compile-time test that the generated `Machine` class (src/provider/dynamic/machine.ts, from its
 * declaration) promises no less than the API may send: each output the API reports is declared
 * with a type that accepts every value the wire schema lets through. `npm run typecheck` covers
 * this file; nothing runs it.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Machine as ApiMachine } from "../../src/contract/schemas";
import type { Machine } from "../../src/provider/dynamic/machine";
import type { ReportedOutput, WireFieldOf } from "../../src/provider/machine/machineModel";
import type { Assert, Same } from "../../src/provider/shared/resourceImplementation";

type ValueOf<K> = K extends keyof Machine ? (Machine[K] extends pulumi.Output<infer T> ? T : never) : never;
type NarrowerThanWire = {
  [O in ReportedOutput]: Exclude<ApiMachine[WireFieldOf<O>], undefined> extends ValueOf<O> ? never : O;
}[ReportedOutput];
type _DeclaredTypesAcceptTheWire = Assert<Same<NarrowerThanWire, never>>;
