/**
 * One machine, every varying input read from the stack config, so a test changes the program's
 * goal by changing config: `region`, `machineType`, `templateId`, `name`, `state`,
 * `assignPublicIp`, `dynamicPublicIp`, `size`, `adoptMachineId`, `account`, `userId`, the in-place
 * settings (`shutdownTimeoutInHours`, `shutdownTimeoutForces`, `performAutoSnapshot`,
 * `autoSnapshotFrequency`, `autoSnapshotSaveCount`), and for a new team user `teamId`, `email`,
 * `password` (secret); the options `customTimeouts`, `replaceOnChanges` (JSON).
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, type MachineType, type Region } from "pulumi-vmapi";

const config = new pulumi.Config();

/** Resource options the provider must carry itself (JSON config, e.g. `customTimeouts`). */
const jsonConfig = <T>(key: string): T | undefined => {
  const text = config.get(key);
  return text === undefined ? undefined : (JSON.parse(text) as T);
};

const box = new Machine(
  "box",
  {
    account: config.get("account"),
    region: (config.get("region") ?? "East Coast (NY2)") as Region,
    machineType: (config.get("machineType") ?? "C4") as MachineType,
    size: config.getNumber("size") ?? 50,
    billingType: "hourly",
    templateId: config.get("templateId") ?? "tubsrv01",
    name: config.get("name"),
    state: config.get("state") as "ready" | "off" | undefined,
    assignPublicIp: config.getBoolean("assignPublicIp"),
    dynamicPublicIp: config.getBoolean("dynamicPublicIp"),
    adoptMachineId: config.get("adoptMachineId"),
    shutdownTimeoutInHours: config.getNumber("shutdownTimeoutInHours"),
    shutdownTimeoutForces: config.getBoolean("shutdownTimeoutForces"),
    performAutoSnapshot: config.getBoolean("performAutoSnapshot"),
    autoSnapshotFrequency: config.get("autoSnapshotFrequency") as "hour" | "day" | "week" | undefined,
    autoSnapshotSaveCount: config.getNumber("autoSnapshotSaveCount"),
    // A machine for a new team user (team admin key): all of teamId, email, password, names.
    teamId: config.get("teamId"),
    userId: config.get("userId"),
    email: config.get("email"),
    password: config.getSecret("password"),
    firstName: config.get("email") ? "New" : undefined,
    lastName: config.get("email") ? "User" : undefined,
  },
  {
    customTimeouts: jsonConfig<pulumi.CustomTimeouts>("customTimeouts"),
    replaceOnChanges: jsonConfig<string[]>("replaceOnChanges"),
  },
);

export const machineId = box.machineId;
export const name = box.name;
export const region = box.region;
export const currentState = box.currentState;
export const userId = box.userId;
export const account = box.account;
