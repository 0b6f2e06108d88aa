/**
 * The document's `components.schemas`: every schema an operation names, converted by zod's own
 * `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1). Answers are converted as
 * they come out of a schema (`io: "output"`), request bodies as they go in (`io: "input"`: what
 * a caller may send, before defaults and transforms). A schema used twice is one component.
 */
import { z } from "zod";
import {
  ERROR_STATUSES,
  errorBodySchema,
  type ErrorStatus,
  type Operation,
} from "../../src/contract/operation";
import * as wire from "../../src/contract/schemas";

/** Answer schemas with a name of their own; an answer not listed here is named after its operation. */
const NAMED_ANSWERS: Record<string, z.ZodType> = {
  Machine: wire.MachineSchema,
  MachineEvent: wire.MachineEventSchema,
  MachineList: wire.MachineListSchema,
  Script: wire.ScriptSchema,
  ScriptMachine: wire.ScriptMachineSchema,
  ScriptList: wire.ScriptListSchema,
  ScriptText: wire.ScriptTextSchema,
  User: wire.UserSchema,
  UserList: wire.UserListSchema,
  Network: wire.NetworkSchema,
  NetworkList: wire.NetworkListSchema,
  Template: wire.TemplateSchema,
  TemplateList: wire.TemplateListSchema,
  ResourceDelegation: wire.ResourceDelegationSchema,
  Utilization: wire.UtilizationSchema,
  Availability: wire.AvailabilitySchema,
  Timestamp: wire.TimestampSchema,
};

/** The component name of each error body: `Error400`, ..., `ServerError`, and `Error` (any). */
export function errorComponent(status?: ErrorStatus | "5XX"): string {
  if (status === undefined) return "Error";
  return status === "5XX" ? "ServerError" : `Error${status}`;
}

type Meta = { id: string };

/** The schemas of `operations` as components, and the name each schema got. */
export class Components {
  private readonly answers = z.registry<Meta>();
  private readonly requests = z.registry<Meta>();

  constructor(operations: readonly Operation[]) {
    for (const [name, schema] of Object.entries(NAMED_ANSWERS)) this.answers.add(schema, { id: name });
    this.answers.add(errorBodySchema(), { id: errorComponent() });
    for (const status of [...errorStatuses(), "5XX" as const]) {
      this.answers.add(errorBodySchema(status), { id: errorComponent(status) });
    }
    for (const operation of operations) {
      const name = operation.id[0].toUpperCase() + operation.id.slice(1);
      if (operation.answer.status === 200 && !this.answers.has(operation.answer.schema)) {
        this.answers.add(operation.answer.schema, { id: `${name}Answer` });
      }
      if (operation.body !== undefined && !this.requests.has(operation.body.schema)) {
        this.requests.add(operation.body.schema, { id: `${name}Request` });
      }
    }
  }

  /** A `$ref` to the component of an answer's schema. */
  answerRef(schema: z.ZodType): { $ref: string } {
    return ref(this.answers.get(schema)?.id);
  }

  /** A `$ref` to the component of a request body's schema. */
  requestRef(schema: z.ZodType): { $ref: string } {
    return ref(this.requests.get(schema)?.id);
  }

  /** Every component, answers first, each without `$schema` and `$id`. */
  schemas(): Record<string, unknown> {
    const convert = (registry: z.core.$ZodRegistry<Meta>, io: "input" | "output") =>
      z.toJSONSchema(registry, { target: "draft-2020-12", io, uri: (id) => `#/components/schemas/${id}` })
        .schemas;
    const all = { ...convert(this.answers, "output"), ...convert(this.requests, "input") };
    return Object.fromEntries(Object.entries(all).map(([name, schema]) => [name, bare(schema)]));
  }
}

/** The refusal statuses, in order. */
export function errorStatuses(): ErrorStatus[] {
  return Object.keys(ERROR_STATUSES).map(Number) as ErrorStatus[];
}

/** A JSON Schema as a document embeds it: without `$schema` and `$id`. */
export function bare(schema: object): Record<string, unknown> {
  const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
  return rest;
}

function ref(id: string | undefined): { $ref: string } {
  if (id === undefined) throw new Error("a schema of the route table has no component");
  return { $ref: `#/components/schemas/${id}` };
}
