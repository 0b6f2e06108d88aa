/**
 * Request bodies and query strings of the VM API with their rules, written once: the client
 * checks input before sending, the provider's `check` answers with them, and the emulator
 * refuses with them. Every message names the field and, for closed sets, the allowed values
 * (formatIssues.ts words them).
 */
import { z } from "zod";
import {
  AUTO_SNAPSHOT_FREQUENCIES,
  BILLING_TYPES,
  DEDICATED_GPU_MACHINE_TYPES,
  MACHINE_TYPES,
  REGIONS,
  RESTORE_POINT_FREQUENCIES,
  SCRIPT_MAX_BYTES,
  WAITABLE_STATES,
} from "./constants";

/**
 * No C0/C1 controls and no lone surrogates: names reach terminals and logs, where those rewrite
 * lines. Two patterns, so the first (plain code points) stays usable by tools that read the
 * OpenAPI document with another regex engine (Python's cannot express a lone surrogate).
 */
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const NO_LONE_SURROGATES = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;
const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(NO_CONTROL_CHARACTERS, { message: "must not contain control characters" })
  .regex(NO_LONE_SURROGATES, { message: "must not contain unpaired surrogates" });
const id = z.string().min(1).max(128);

/**
 * A whole number from 0 to `max`, or the same number written as a decimal string ("3"): the
 * service's Terraform provider sends `autoSnapshotSaveCount` as a string (docs/api.md, "Creating
 * a machine"). Any other string is refused with a message naming `field`.
 */
function wholeNumberSetting(field: string, max: number) {
  return z.preprocess((value: number | string, ctx) => {
    if (typeof value !== "string") return value;
    if (/^\s*-?\d+\s*$/.test(value)) return Number(value);
    ctx.addIssue({
      code: "custom",
      message: `${field} must be a whole number or a numeric string such as "3" (got ${JSON.stringify(value.slice(0, 64))})`,
    });
    return z.NEVER;
  }, z.number().int().min(0).max(max));
}

/**
 * The in-place settings that create and update both take, with one set of rules. Create takes
 * these four because the service's own Terraform provider sends them there (docs/api.md);
 * `shutdownTimeoutForces` is set by update only.
 */
const MACHINE_SETTINGS = {
  shutdownTimeoutInHours: wholeNumberSetting("shutdownTimeoutInHours", 720).optional(),
  performAutoSnapshot: z.boolean().optional(),
  autoSnapshotFrequency: z.enum(AUTO_SNAPSHOT_FREQUENCIES).nullable().optional(),
  autoSnapshotSaveCount: wholeNumberSetting("autoSnapshotSaveCount", 1000).optional(),
};

/** Fields that create a new team user; mutually exclusive with `userId`. */
export const NEW_USER_FIELDS = ["email", "password", "firstName", "lastName"] as const;

/** POST /machines/createSingleMachinePublic (docs/api.md, "Creating a machine"). */
export const CreateMachineRequestSchema = z
  .object({
    region: z.enum(REGIONS),
    machineType: z.enum(MACHINE_TYPES),
    size: z.number().int().positive().max(2000),
    billingType: z.enum(BILLING_TYPES),
    machineName: name,
    templateId: id,
    teamId: id.optional(),
    assignPublicIp: z.boolean().optional(),
    dynamicPublicIp: z.boolean().optional(),
    startOnCreate: z.boolean().optional(),
    networkId: id.optional(),
    scriptId: id.optional(),
    userId: id.optional(),
    email: z.string().email().max(255).optional(),
    password: z.string().min(1).max(255).optional(),
    firstName: name.optional(),
    lastName: name.optional(),
    notificationEmail: z.string().email().max(255).optional(),
    takeInitialSnapshot: z.boolean().optional(),
    markSnapshotAsRestorePoint: z.boolean().optional(),
    restorePointFrequency: z.enum(RESTORE_POINT_FREQUENCIES).optional(),
    ...MACHINE_SETTINGS,
  })
  .superRefine((body, ctx) => {
    if (body.assignPublicIp === true && body.dynamicPublicIp === true) {
      ctx.addIssue({
        code: "custom",
        path: ["dynamicPublicIp"],
        message: "assignPublicIp and dynamicPublicIp cannot be combined: choose one",
      });
    }
    const newUserFields = NEW_USER_FIELDS.filter((f) => body[f] !== undefined);
    if (body.userId !== undefined && newUserFields.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["userId"],
        message: `userId cannot be combined with the new-user fields (${newUserFields.join(", ")})`,
      });
    } else if (newUserFields.length > 0 && newUserFields.length < NEW_USER_FIELDS.length) {
      const missing = NEW_USER_FIELDS.filter((f) => body[f] === undefined);
      ctx.addIssue({
        code: "custom",
        path: [missing[0]],
        message: `a new user needs all of ${NEW_USER_FIELDS.join(", ")}; missing ${missing.join(", ")}`,
      });
    }
    if (body.markSnapshotAsRestorePoint === true) {
      if (body.takeInitialSnapshot !== true) {
        ctx.addIssue({
          code: "custom",
          path: ["markSnapshotAsRestorePoint"],
          message: "markSnapshotAsRestorePoint needs takeInitialSnapshot: true",
        });
      }
      if (body.restorePointFrequency === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["restorePointFrequency"],
          message: `markSnapshotAsRestorePoint needs restorePointFrequency (one of: ${RESTORE_POINT_FREQUENCIES.join(", ")})`,
        });
      }
    }
  });
/** A create-machine body as the caller writes it. */
export type CreateMachineRequest = z.input<typeof CreateMachineRequestSchema>;

/** POST /machines/{id}/updateMachinePublic: every field optional. */
export const UpdateMachineRequestSchema = z.object({
  machineName: name.optional(),
  ...MACHINE_SETTINGS,
  shutdownTimeoutForces: z.boolean().optional(),
  dynamicPublicIp: z.boolean().optional(),
});
/** An update-machine body as the caller writes it. */
export type UpdateMachineRequest = z.input<typeof UpdateMachineRequestSchema>;

/** POST /machines/{id}/destroyMachine: the body is optional. */
export const DestroyMachineRequestSchema = z.object({ releasePublicIp: z.boolean().optional() });

/** A flag in a query string as clients send it: true, false, 1 or 0, in any case. */
export const QUERY_FLAG_PATTERN = /^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$/;
/** destroyMachine's query string: `releasePublicIp` as some clients send it there. */
export const DestroyMachineQuerySchema = z.object({
  releasePublicIp: z.string().regex(QUERY_FLAG_PATTERN).optional(),
});

/** Some clients send `"true"`/`"false"` strings (docs/api.md, "Endpoints"); both are accepted here. */
const boolish = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/** POST /machines/{id}/setMachineAccess; `machineId` may be repeated in the body. */
export const SetMachineAccessRequestSchema = z.object({
  userId: id,
  enableAccess: boolish,
  machineId: id.optional(),
});
/** A setMachineAccess body as the caller writes it. */
export type SetMachineAccessRequest = z.input<typeof SetMachineAccessRequestSchema>;

/** Size of a script text in bytes, as the 16 KB limit counts it (UTF-8). */
export function scriptTextBytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** POST /scripts/createScript as it travels (the client turns `scriptFile` into `scriptText`). */
export const CreateScriptRequestSchema = z.object({
  scriptName: name,
  scriptText: z.string().min(1),
  scriptDescription: z.string().max(1024).optional(),
  isEnabled: z.boolean().optional(),
  runOnce: z.boolean().optional(),
  machineId: id.optional(),
});
/** A createScript body as the caller writes it (the text, never a file path). */
export type CreateScriptRequest = z.input<typeof CreateScriptRequestSchema>;

/** A flag in a query string: `"true"` or `"false"`. */
const queryFlag = z.enum(["true", "false"]).transform((v) => v === "true");

/**
 * createScript's query string when the script travels as a multipart file (part `file`): the
 * same fields less the text, with flags in their query-string form.
 */
export const CreateScriptUploadQuerySchema = CreateScriptRequestSchema.omit({ scriptText: true }).extend({
  isEnabled: queryFlag.optional(),
  runOnce: queryFlag.optional(),
});

/** The 16 KB rule, apart so the emulator can answer it with 413 rather than 400. */
export function scriptTooLargeMessage(text: string): string | null {
  const bytes = scriptTextBytes(text);
  return bytes > SCRIPT_MAX_BYTES
    ? `scriptText is ${bytes} bytes; the limit is ${SCRIPT_MAX_BYTES} bytes (16 KB)`
    : null;
}

/** POST /resourceDelegations/create. */
export const CreateDelegationRequestSchema = z.object({
  machine: z.object({ ids: z.array(id).max(1000).optional() }).optional(),
});
/** A resource-delegation body as the caller writes it. */
export type CreateDelegationRequest = z.input<typeof CreateDelegationRequestSchema>;

/** Query of GET /machines/getAvailability. */
export const AvailabilityQuerySchema = z.object({
  region: z.enum(REGIONS),
  machineType: z.enum(DEDICATED_GPU_MACHINE_TYPES),
});

/** Query of GET /machines/getUtilization. */
export const UtilizationQuerySchema = z.object({
  machineId: id,
  billingMonth: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: "must be YYYY-MM" }),
});

/** A state `machines.waitFor` can wait for. */
export const WaitableStateSchema = z.enum(WAITABLE_STATES);

/**
 * A whole number in a query string: digits only, as the API's document says `integer`. Coercing
 * would take "" and " " for 0 and "0x10" for 16, and answer "abc" with "must be a number (got
 * number)"; a number (the client's own input) is checked as it is.
 */
function queryInteger(field: string, min: number, max: number) {
  return z.preprocess((value: unknown, ctx) => {
    if (typeof value !== "string") return value;
    if (/^\d{1,15}$/.test(value)) return Number(value);
    ctx.addIssue({
      code: "custom",
      message: `${field} must be a whole number written in digits (got ${JSON.stringify(value.slice(0, 64))})`,
    });
    return z.NEVER;
  }, z.number().int().min(min).max(max));
}

/** Paging of GET /machines/getMachines. */
export const PagingQuerySchema = z.object({
  limit: queryInteger("limit", 1, 1000).optional(),
  skip: queryInteger("skip", 0, Number.MAX_SAFE_INTEGER).optional(),
});
