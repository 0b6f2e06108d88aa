/**
 * The emulator's control endpoints (`/_emulator/...`) as a route table, like the API's
 * (src/contract/operations.ts): method, path, body and answer schemas. The control router serves
 * them (control.ts) and api/openapi.json lists them under their own tag. The answer schemas are
 * held to the TypeScript types of the control client at compile time (below), so the document
 * and the types cannot tell two stories.
 */
import { z } from "zod";
import { MACHINE_TYPES, REGIONS } from "../../contract/constants";
import type { Operation } from "../../contract/operation";
import { UpdateMachineRequestSchema } from "../../contract/requestSchemas";
import {
  MachineSchema,
  NetworkSchema,
  ResourceDelegationSchema,
  ScriptSchema,
  TemplateSchema,
  TimestampSchema,
  UserSchema,
} from "../../contract/schemas";
import type { CapacityRecord } from "../state/records";
import type { CapacityChange, ClockView, EmulatorStateDump } from "./controlTypes";
import {
  FaultRuleSchema,
  FaultRulesRequestSchema,
  type FaultCounts,
  type HeldRequest,
} from "../traffic/faults";
import { RateLimitRequestSchema, type RateLimitView } from "../traffic/rateLimit";

/** Body of `POST /_emulator/clock/advance`. */
export const AdvanceRequestSchema = z.strictObject({ ms: z.number().min(0) });

/** Body of `POST /_emulator/capacity` (`CapacityChange`). */
export const CapacityRequestSchema = z.strictObject({
  region: z.enum(REGIONS),
  machineType: z.enum(MACHINE_TYPES),
  available: z.boolean().optional(),
  failNextStarts: z.number().int().min(0).optional(),
});

/** Body of `POST /_emulator/machines/{machineId}/rename`: the API's own rule for machine names. */
export const RenameRequestSchema = z.strictObject({
  machineName: UpdateMachineRequestSchema.shape.machineName.unwrap(),
});

const ClockViewSchema = z.object({ now: TimestampSchema, mode: z.enum(["real", "manual"]) });
const CountsSchema = z.object({ served: z.number().int(), refused: z.number().int() });
const RateLimitViewSchema = CountsSchema.extend({
  rate: z.number().nullable(),
  burst: z.number().nullable(),
  perKey: z.record(z.string(), CountsSchema),
});
const CapacityRecordSchema = z.object({
  region: z.string(),
  machineType: z.string(),
  available: z.boolean(),
  failNextStarts: z.number().int(),
});
const FaultRulesSchema = z.object({ rules: z.array(FaultRuleSchema) });
const HeldRequestSchema = z.object({ method: z.string(), route: z.string() });
const FaultCountsSchema = z.object({
  total: z.number().int(),
  random: z.number().int(),
  byKind: z.record(z.string(), z.number().int()),
});

/** What `GET /_emulator/state` answers. */
export const StateDumpSchema = z.object({
  now: TimestampSchema,
  clock: z.enum(["real", "manual"]),
  timeScale: z.number(),
  teams: z.array(z.object({ id: z.string(), name: z.string(), dtCreated: TimestampSchema })),
  users: z.array(UserSchema.extend({ role: z.enum(["admin", "member"]) })),
  networks: z.array(NetworkSchema),
  templates: z.array(TemplateSchema.extend({ agentType: z.string() })),
  machines: z.array(
    MachineSchema.extend({ dtDestroyed: TimestampSchema.nullable(), accessUserIds: z.array(z.string()) }),
  ),
  scripts: z.array(ScriptSchema.extend({ runs: z.record(z.string(), TimestampSchema) })),
  accessGrants: z.array(z.object({ machineId: z.string(), userId: z.string() })),
  delegations: z.array(
    ResourceDelegationSchema.omit({ accessTokenId: true }).extend({
      userId: z.string(),
      expired: z.boolean(),
    }),
  ),
  capacity: z.array(CapacityRecordSchema),
  reservedIps: z.array(z.string()),
  faults: z.array(FaultRuleSchema),
  faultsInjected: FaultCountsSchema,
  rateLimit: RateLimitViewSchema,
  requestCounts: z.record(z.string(), z.number().int()),
});

const control = <O extends Omit<Operation, "tag" | "open">>(operation: O) =>
  ({ ...operation, tag: "emulator control", open: true }) as const;

/** Every control endpoint, by id. They take no key and are never throttled or faulted. */
export const CONTROL_OPERATIONS = {
  getState: control({
    id: "getState",
    method: "GET",
    path: "/_emulator/state",
    summary: "Everything the emulator holds, destroyed machines included (never a key or a delegation token)",
    answer: { status: 200, schema: StateDumpSchema, description: "The state dump." },
    refusals: [],
  }),
  reset: control({
    id: "reset",
    method: "POST",
    path: "/_emulator/reset",
    summary: "Back to the seed: resources, ids, counts, fault rules, the start-up rate limit",
    answer: { status: 204, description: "Reset (the clock keeps its time)." },
    refusals: [],
  }),
  getFaults: control({
    id: "getFaults",
    method: "GET",
    path: "/_emulator/faults",
    summary: "The scripted fault rules still armed",
    answer: { status: 200, schema: FaultRulesSchema, description: "The rules, `times` counting down." },
    refusals: [],
  }),
  addFaults: control({
    id: "addFaults",
    method: "POST",
    path: "/_emulator/faults",
    summary: "Arm scripted fault rules (appended)",
    body: { schema: FaultRulesRequestSchema, required: true },
    answer: { status: 200, schema: FaultRulesSchema, description: "Every rule still armed." },
    refusals: [],
  }),
  clearFaults: control({
    id: "clearFaults",
    method: "DELETE",
    path: "/_emulator/faults",
    summary: "Drop every scripted fault rule",
    answer: { status: 204, description: "Dropped." },
    refusals: [],
  }),
  getHeld: control({
    id: "getHeld",
    method: "GET",
    path: "/_emulator/held",
    summary: "The requests a `hold` fault rule holds now, in the order they came",
    answer: {
      status: 200,
      schema: z.object({ requests: z.array(HeldRequestSchema) }),
      description: "The held requests.",
    },
    refusals: [],
  }),
  releaseHeld: control({
    id: "releaseHeld",
    method: "POST",
    path: "/_emulator/held/release",
    summary: 'Let every held request go on (a `hold: "all"` ends)',
    answer: {
      status: 200,
      schema: z.object({ released: z.array(HeldRequestSchema) }),
      description: "The requests released.",
    },
    refusals: [],
  }),
  getRateLimit: control({
    id: "getRateLimit",
    method: "GET",
    path: "/_emulator/rate-limit",
    summary: "The rate limit and its counts per caller",
    answer: { status: 200, schema: RateLimitViewSchema, description: "`rate` null: off." },
    refusals: [],
  }),
  setRateLimit: control({
    id: "setRateLimit",
    method: "POST",
    path: "/_emulator/rate-limit",
    summary: "Change the rate limit (`rate` null: off); every bucket starts full",
    body: { schema: RateLimitRequestSchema, required: true },
    answer: { status: 200, schema: RateLimitViewSchema, description: "The new limit." },
    refusals: [],
  }),
  getClock: control({
    id: "getClock",
    method: "GET",
    path: "/_emulator/clock",
    summary: "The emulator's time and clock mode",
    answer: { status: 200, schema: ClockViewSchema, description: "The clock." },
    refusals: [],
  }),
  advanceClock: control({
    id: "advanceClock",
    method: "POST",
    path: "/_emulator/clock/advance",
    summary: "Move a manual clock forward (a real clock refuses with 409)",
    description:
      "The clock never passes 9999-12-31T23:59:59.999Z, the last instant a timestamp can show: a longer step is a 400 naming ms and the largest step allowed.",
    body: { schema: AdvanceRequestSchema, required: true },
    answer: { status: 200, schema: ClockViewSchema, description: "The clock after the move." },
    refusals: [409],
  }),
  setCapacity: control({
    id: "setCapacity",
    method: "POST",
    path: "/_emulator/capacity",
    summary: "Set one region's availability and coming start failures for one machine type",
    body: { schema: CapacityRequestSchema, required: true },
    answer: { status: 200, schema: CapacityRecordSchema, description: "The capacity entry." },
    refusals: [],
  }),
  stopMachineOutOfBand: control({
    id: "stopMachineOutOfBand",
    method: "POST",
    path: "/_emulator/machines/{machineId}/stop",
    summary: "Stop a machine out of band, as its owner would outside any program",
    answer: { status: 204, description: "Stopping." },
    refusals: [404, 409],
  }),
  renameMachine: control({
    id: "renameMachine",
    method: "POST",
    path: "/_emulator/machines/{machineId}/rename",
    summary: "Rename a machine out of band (the API's own rule for machine names)",
    body: { schema: RenameRequestSchema, required: true },
    answer: { status: 204, description: "Renamed." },
    refusals: [404, 409],
  }),
} as const satisfies Record<string, Operation>;

/** The id of a control endpoint. */
export type ControlOperationId = keyof typeof CONTROL_OPERATIONS;

// The document's schemas and the control client's types describe the same answers: each pair
// must be assignable both ways, or this file does not compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.output<typeof StateDumpSchema>, EmulatorStateDump>,
  Same<z.output<typeof ClockViewSchema>, ClockView>,
  Same<z.output<typeof RateLimitViewSchema>, RateLimitView>,
  Same<z.output<typeof CapacityRecordSchema>, CapacityRecord>,
  Same<z.output<typeof FaultCountsSchema>, FaultCounts>,
  Same<z.output<typeof HeldRequestSchema>, HeldRequest>,
  Same<z.input<typeof CapacityRequestSchema>, CapacityChange>,
] = [true, true, true, true, true, true, true];
void sameShapes;
