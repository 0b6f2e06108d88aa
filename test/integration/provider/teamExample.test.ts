/**
 * examples/team run as a program under the SDK's mocks, its data sources against an in-process
 * emulator with the default seed: the workstation goes to the team member and the access grant
 * to the admin, found by their seeded emails (never a fallback to whichever user is listed first).
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { useTestEmulator } from "../../kit/emulator";
import { SEEDED } from "../../kit/seeded";

jest.mock("pulumi-vmapi", () => jest.requireActual("../../../src/index"), { virtual: true });

type Registered = { type: string; name: string; inputs: Record<string, unknown> };
const emu = useTestEmulator();
const registered: Registered[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: { ...args.inputs, machineId: `${args.name}-machine` } };
      },
      call: () => ({}),
    },
    "vmapi-team",
    "dev",
    false,
  );
  pulumi.runtime.setAllConfig(
    {
      "vmapi-team:teamId": SEEDED.team,
      "vmapi-team:newUserPassword": "first-day-secret",
      "vmapi:apiKey": emu.keys.teamAdmin,
      "vmapi:baseUrl": emu.url,
    },
    ["vmapi-team:newUserPassword", "vmapi:apiKey"],
  );
});

/** Waits until the program has registered `count` resources (data sources resolve first). */
async function registeredResources(count: number): Promise<Registered[]> {
  for (let i = 0; i < 200 && registered.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  return registered;
}

test("examples/team: default seed → workstation for the member (max@), access for the admin (ada@)", async () => {
  const program = jest.requireActual(path.join("..", "..", "..", "examples", "team", "index.ts"));
  await pulumi.output(program.workstationId).apply(() => undefined);
  const resources = await registeredResources(4);
  const byName = Object.fromEntries(resources.map((r) => [r.name, r.inputs]));
  expect(byName["design-workstation"]).toMatchObject({ userId: SEEDED.member, teamId: SEEDED.team });
  expect(byName["admin-on-workstation"]).toMatchObject({ userId: SEEDED.admin });
});
