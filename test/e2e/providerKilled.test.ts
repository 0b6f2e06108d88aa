/**
 * The provider process killed (SIGKILL, as the OOM killer or a crash ends it) in the middle of a
 * create, on the real engine: the `up` fails, and the next `up` finishes the job with exactly one
 * machine or script for the resource, the one in the stack; `destroy` then leaves nothing.
 *
 * The process is the plugin the CLI runs for this package's resources (`node
 * …/dynamic-provider/index.js`, below the CLI), found by its pid. The emulator holds a request of
 * the create until the test releases it, and every API request after it too (a fault rule's
 * `hold: "all"`), so the kill lands at a known point however slow the machine is:
 * - **before**: before the create request is sent (a Machine's listing of its names, a Script's
 *   first request: the marker);
 * - **in flight**: the create request itself, which the API acts on after the process is gone;
 * - **after**: once the create was answered, while the machine provisions (its first poll held)
 *   or the script is read back.
 * Each run asserts which case it ran, on what the API had when the kill landed: the requests it
 * held, how many creates reached it, and whether the resource existed.
 * For Machines and Scripts, auto-named and with a declared name: twelve runs.
 */
import * as path from "path";
import type { FaultRuleInput } from "../kit/emulator";
import { expectExit, messages } from "./support/cli";
import { PROGRAMS, liveMachines, until, upWithPluginKilled, useE2eContext } from "./support/kit";

jest.setTimeout(300_000);

const PROGRAM = path.join(PROGRAMS, "killed");
const ROUTE = {
  listMachines: "GET /machines/getMachines",
  showMachine: "GET /machines/getMachinePublic",
  createMachine: "POST /machines/createSingleMachinePublic",
  createScript: "POST /scripts/createScript",
  showScript: "GET /scripts/getScript",
} as const;
type Route = (typeof ROUTE)[keyof typeof ROUTE];

type Kind = "machine" | "script";
type Point = "before" | "in flight" | "after";

/**
 * Per kind and point: the rules that stop the API there, the request held first (either of
 * `held`), and what the API had when the kill landed: the creates that reached it (a script's
 * marker is one) and whether the resource existed.
 */
interface Hold {
  rules: FaultRuleInput[];
  held: Route[];
  creates: number;
  existed: boolean;
}
const HOLDS: Record<Kind, Record<Point, Hold>> = {
  machine: {
    before: { rules: [holdAll(ROUTE.listMachines)], held: [ROUTE.listMachines], creates: 0, existed: false },
    "in flight": {
      rules: [holdAll(ROUTE.createMachine)],
      held: [ROUTE.createMachine],
      creates: 1,
      existed: false,
    },
    // The listing before the create passes; the first poll after the answer (a show or the
    // watcher's listing) is held.
    after: {
      rules: [holdAll(ROUTE.showMachine), holdAll(ROUTE.listMachines, { skip: 1 })],
      held: [ROUTE.showMachine, ROUTE.listMachines],
      creates: 1,
      existed: true,
    },
  },
  script: {
    before: { rules: [holdAll(ROUTE.createScript)], held: [ROUTE.createScript], creates: 1, existed: false },
    // The script's own create: the one after the marker's.
    "in flight": {
      rules: [holdAll(ROUTE.createScript, { skip: 1 })],
      held: [ROUTE.createScript],
      creates: 2,
      existed: false,
    },
    after: { rules: [holdAll(ROUTE.showScript)], held: [ROUTE.showScript], creates: 2, existed: true },
  },
};
const CREATE: Record<Kind, Route> = { machine: ROUTE.createMachine, script: ROUTE.createScript };

/** A rule that holds the first request of `route`, and every API request after it, until released. */
function holdAll(route: Route, extra: Partial<FaultRuleInput> = {}): FaultRuleInput {
  const [method, template] = route.split(" ");
  return { method, route: template, hold: "all", ...extra };
}

const ctx = useE2eContext();

/** A creating name's suffix (contract/unfinishedCreates.ts). */
const CREATING = / \(creating [0-9a-f]{10}\)$/;

/**
 * What the API holds of a resource: live machines (under their name or creating name) or scripts
 * named `name`, or for `auto` an auto-name of resource `name`; with `markers`, the scripts marking
 * an unfinished create of that script instead.
 */
async function madeFor(kind: Kind, name: string, auto: boolean, markers = false) {
  const state = await ctx.emu.control.state();
  const named = auto ? (n: string) => new RegExp(`^${name}-[a-z0-9]{7}$`).test(n) : (n: string) => n === name;
  if (kind === "machine" && markers) return [];
  const records =
    kind === "machine"
      ? liveMachines(state).filter((m) => named(m.name.replace(CREATING, "")))
      : state.scripts.filter((s) => CREATING.test(s.name) === markers && named(s.name.replace(CREATING, "")));
  return records.map((r) => ({ id: r.id, name: r.name }));
}

const CASES = (["machine", "script"] as const).flatMap((kind) =>
  (["auto-named", "named"] as const).flatMap((naming) =>
    (["before", "in flight", "after"] as const).map((point) => [kind, naming, point] as const),
  ),
);

test.each(CASES)(
  "%s, %s, provider killed %s its create → up fails; the next up → exactly one, the stack's; destroy → none",
  async (kind, naming, point) => {
    const auto = naming === "auto-named";
    const resource = `${kind}-${point.replace(" ", "-")}-${naming}`;
    const name = auto ? resource : `${resource}-box`;
    const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, {
      kind,
      resource,
      ...(auto ? {} : { name }),
    });
    const hold = HOLDS[kind][point];
    const counts = async () => (await ctx.emu.control.state()).requestCounts;
    const before = await counts();
    await ctx.emu.control.addFaults(hold.rules);

    // The dynamic-provider plugin: `node …/dynamic-provider/index.js`.
    await upWithPluginKilled(ctx, stack, "dynamic-provider");

    // The case this run ran.
    const [first] = await ctx.emu.control.held();
    expect(hold.held).toContain(`${first.method} ${first.route}`);
    const creates = ((await counts())[CREATE[kind]] ?? 0) - (before[CREATE[kind]] ?? 0);
    expect(creates).toBe(hold.creates);
    expect(await madeFor(kind, name, auto)).toHaveLength(hold.existed ? 1 : 0);

    // The API finishes what it was sent (a held create acts now), as it would after a crash.
    await ctx.emu.control.clearFaults();
    await ctx.emu.control.release();
    const sent = await counts();
    await until(() => ctx.finished.caughtUp(sent, Object.values(ROUTE)), "the held requests to finish");
    const leftBehind = await madeFor(kind, name, auto);
    // What the dead create left: nothing when it died before sending it.
    expect(leftBehind).toHaveLength(point === "before" ? 0 : 1);

    const next = expectExit(await stack.up());
    const [recorded] = await stack.resources();
    expect(recorded.id).toBeDefined();
    const made = await madeFor(kind, name, auto);
    expect(made).toEqual([{ id: recorded.id, name: recorded.outputs?.name }]);
    expect(await madeFor(kind, name, auto, true)).toEqual([]);
    // Taken over, said so: the machine or script the dead create made, not a second one.
    const tookOver = point !== "before";
    expect(made[0].id === leftBehind[0]?.id).toBe(tookOver);
    expect(messages(next).some((line) => /did not finish .*taking it over/.test(line))).toBe(tookOver);

    expectExit(await stack.destroy());
    expect(await madeFor(kind, name, auto)).toEqual([]);
  },
);
