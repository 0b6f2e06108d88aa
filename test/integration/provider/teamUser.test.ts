/**
 * A machine made with a new team user (email, password, firstName, lastName; team admin key):
 * the user outlives the machine, so a replacement, or a destroy followed by an up, finds that
 * user by email and assigns the new machine to it, and preview says so beforehand.
 */
import { LookupCache } from "../../../src/provider/account/lookups";
import { providerContext } from "../../../src/provider/account/context";
import { VmApiClient } from "../../../src/client/client";
import type { ProviderSettings } from "../../../src/provider/account/settings";
import { providersOn, useProviderKit } from "./providerTestKit";
import { SEEDED } from "../../kit/seeded";
import { resourceOfThisTest } from "../../kit/machines";

type Props = Record<string, unknown>;
const kit = useProviderKit();
let admin: ProviderSettings;

beforeAll(() => {
  admin = { ...kit.settings, apiKey: kit.keys.teamAdmin };
});

function news(email: string, overrides: Props = {}): Props {
  return {
    ...resourceOfThisTest("hire"),
    region: "West Coast (CA1)",
    machineType: "C3",
    size: 50,
    billingType: "hourly",
    templateId: SEEDED.headlessTemplate,
    teamId: SEEDED.team,
    email,
    password: "first-day-secret",
    firstName: "New",
    lastName: "Hire",
    ...overrides,
  };
}

async function checked(olds: Props, declared: Props): Promise<Props> {
  const { inputs, failures } = await kit.providers.machine.check(olds, declared, admin);
  expect(failures).toEqual([]);
  return inputs!;
}

async function userNamed(email: string) {
  return (await new VmApiClient(admin).users.list({ email })).map((u) => u.id);
}

describe("a new team user outlives its machine", () => {
  it("replace: size changed → preview says the user exists; the replacement is made for that same user", async () => {
    const first = await checked({}, news("replaced@acme.example"));
    const created = await kit.providers.machine.create(first, admin);
    const [userId] = await userNamed("replaced@acme.example");
    expect(created.outs.userId).toBe(userId);

    // The next up runs in a new plugin process: a fresh lookup cache.
    const nextUp = providersOn(
      providerContext({ ...kit.context, lookups: new LookupCache() }),
      kit.settings,
    ).machine;
    const changed = news("replaced@acme.example", { size: 100 });
    const diff = await kit.providers.machine.diff(created.id, created.outs, await checked(first, changed));
    expect(diff).toMatchObject({ changes: true, replaces: ["size"] });
    kit.progress.length = 0;
    const replacement = (await nextUp.check({}, changed, admin)).inputs!; // a replacement is checked without olds
    expect(kit.progress).toContainEqual(
      expect.stringMatching(
        new RegExp(`team user replaced@acme\\.example already exists \\(${userId}\\).*assigned to that user`),
      ),
    );
    const second = await kit.providers.machine.create(replacement, admin);
    expect(second.outs.userId).toBe(userId);
    expect(await userNamed("replaced@acme.example")).toEqual([userId]);
    await kit.providers.machine.delete(created.id, created.outs, admin);
    expect(await kit.providers.machine.diff(second.id, second.outs, changed)).toMatchObject({
      changes: false,
    });
  });

  it("destroy then up: the user stays → up makes the machine again for that user", async () => {
    const declared = await checked({}, news("again@acme.example"));
    const created = await kit.providers.machine.create(declared, admin);
    await kit.providers.machine.delete(created.id, created.outs, admin);
    const [userId] = await userNamed("again@acme.example");
    const again = await kit.providers.machine.create(await checked({}, news("again@acme.example")), admin);
    expect(again.outs.userId).toBe(userId);
  });
});
