/**
 * A seeded emulator with resources in both accounts (a team and an individual) and two
 * delegation tokens: one expired for the team's target machine, one valid for another machine.
 * Everything is created through the API; the manual clock is then 4 h 1 min past the first token.
 */
import { DELEGATION_LIFETIME_MS } from "../../../src/contract/constants";
import type { EmulatorOptions, RunningEmulator } from "../../../src/emulator";
import { control, startTestEmulator } from "../../kit/emulator";
import { machineRequest } from "../../kit/machines";
import { SEEDED, USERS } from "../../kit/seeded";
import { send, type RawRequest } from "./http";

export { USERS } from "../../kit/seeded";
export const TEAM = SEEDED.team;

/** The resources of one account that requests aim at. */
export interface Target {
  account: "team" | "individual";
  /** Ready machine owned by the account's admin. */
  machine: string;
  /** Off machine (startOnCreate: false) owned by the account's admin. */
  offMachine: string;
  script: string;
  /** A user of the account (setMachineAccess, getUsers filter). */
  user: string;
  network: string;
  /** A getTemplates filter that selects only this account's private templates. */
  templateFilter: readonly [string, string];
  /** A create body naming this account's ids, as a team admin of the *other* account would send it. */
  createBody: Record<string, unknown>;
  /** Ids no other account may ever see in a 2xx answer. */
  privateIds: string[];
}

/** The started emulator, both accounts' targets, keys and tokens. */
export interface World {
  emu: RunningEmulator;
  url: string;
  team: Target;
  individual: Target;
  keys: RunningEmulator["keys"];
  tokens: { expiredForTarget: string; validForOtherMachine: string };
  close(): Promise<void>;
}

/** A valid create body for the individual account. */
export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return machineRequest("security-target", overrides);
}

async function ok<T>(url: string, key: string, req: RawRequest): Promise<T> {
  const answer = await send(url, { ...req, key, method: req.method ?? "POST" });
  if (answer.status !== 200) throw new Error(`setup ${req.path}: HTTP ${answer.status} ${answer.text}`);
  return answer.body as T;
}

/** Starts an emulator (manual clock; `options` e.g. to capture the log) and creates the world. */
export async function buildWorld(options: EmulatorOptions = {}): Promise<World> {
  const emu = await startTestEmulator(options);
  return { ...(await populate(emu.url, emu.keys)), emu, close: () => emu.close() };
}

/** Creates the world through the API of the emulator at `url` (manual clock), e.g. a CLI child. */
export async function populate(url: string, keys: World["keys"]): Promise<Omit<World, "emu" | "close">> {
  const machine = (key: string, body: Record<string, unknown>) =>
    ok<{ id: string }>(url, key, { path: "/machines/createSingleMachinePublic", json: createBody(body) });
  const script = (key: string, name: string) =>
    ok<{ id: string }>(url, key, {
      path: "/scripts/createScript",
      json: { scriptName: name, scriptText: "echo" },
    });
  const delegate = (id: string) =>
    ok<{ accessTokenId: string }>(url, keys.teamAdmin, {
      path: "/resourceDelegations/create",
      json: { machine: { ids: [id] } },
    });

  const asAdmin = { teamId: TEAM, userId: USERS.admin };
  const t = await machine(keys.teamAdmin, asAdmin);
  const tOff = await machine(keys.teamAdmin, { ...asAdmin, startOnCreate: false });
  const tOther = await machine(keys.teamAdmin, asAdmin);
  const i = await machine(keys.individual, {});
  const iOff = await machine(keys.individual, { startOnCreate: false });
  const ts = await script(keys.teamAdmin, "team-script");
  const is = await script(keys.individual, "jane-script");
  const expired = await delegate(t.id);
  await control(url).advance(DELEGATION_LIFETIME_MS + 60_000);
  const valid = await delegate(tOther.id);

  const team: Target = {
    account: "team",
    machine: t.id,
    offMachine: tOff.id,
    script: ts.id,
    user: USERS.member,
    network: SEEDED.teamNy2Network,
    templateFilter: ["id", SEEDED.teamTemplate],
    createBody: createBody({
      ...asAdmin,
      templateId: SEEDED.teamTemplate,
      networkId: SEEDED.teamNy2Network,
      scriptId: ts.id,
    }),
    privateIds: [
      ...[t.id, tOff.id, tOther.id, ts.id, TEAM, USERS.admin, USERS.member],
      ...[SEEDED.teamNy2Network, SEEDED.teamTemplate],
    ],
  };
  const individual: Target = {
    account: "individual",
    machine: i.id,
    offMachine: iOff.id,
    script: is.id,
    user: USERS.jane,
    network: SEEDED.individualNy2Network,
    templateFilter: ["userId", USERS.jane],
    createBody: createBody({
      teamId: TEAM,
      userId: USERS.jane,
      networkId: SEEDED.individualNy2Network,
      scriptId: is.id,
    }),
    privateIds: [i.id, iOff.id, is.id, USERS.jane, SEEDED.individualNy2Network],
  };
  return {
    url,
    team,
    individual,
    keys,
    tokens: { expiredForTarget: expired.accessTokenId, validForOtherMachine: valid.accessTokenId },
  };
}
