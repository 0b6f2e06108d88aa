/**
 * Preview catches what `up` would refuse: a wrong key, an unreachable API (in seconds), and the
 * references that can be checked cheaply (template, network and region, script, team-only
 * fields), each failure naming the property. Lookups are cached per plugin process and skipped
 * for unchanged inputs, so a large preview costs about what a no-op provider costs.
 */
import { LookupCache } from "../../../src/provider/account/lookups";
import { providerContext } from "../../../src/provider/account/context";
import { providersOn, unreachableUrl, useProviderKit } from "./providerTestKit";
import { SEEDED } from "../../kit/seeded";
import { MACHINE_BASICS } from "../../kit/machines";

type Props = Record<string, unknown>;
const kit = useProviderKit();

function news(overrides: Props = {}): Props {
  return {
    __resourceName: "pv",
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    ...overrides,
  };
}

/** A provider with its own, empty lookup cache: a fresh plugin process. */
const freshProvider = () =>
  providersOn(providerContext({ ...kit.context, lookups: new LookupCache() }), kit.settings).machine;

async function requestsMadeBy(action: () => Promise<unknown>): Promise<number> {
  const total = async () =>
    Object.values((await kit.control.state()).requestCounts).reduce((a, b) => a + b, 0);
  const before = await total();
  await action();
  return (await total()) - before;
}

describe("preview: the API itself", () => {
  it("check: wrong API key, every input unchanged → fails with 'invalid API key', never echoing the key", async () => {
    const inputs = (await kit.providers.machine.check({}, news(), kit.settings)).inputs!;
    const wrong = { ...kit.settings, apiKey: "wrong-secret-key" };
    const error = await freshProvider()
      .check(inputs, inputs, wrong)
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/invalid API key/);
    expect((error as Error).message).not.toContain("wrong-secret-key");
  });

  it("check: Script with a wrong API key → fails with 'invalid API key' too", async () => {
    const wrong = { ...kit.settings, apiKey: "wrong-secret-key" };
    const check = providersOn(
      providerContext({ ...kit.context, lookups: new LookupCache() }),
      kit.settings,
    ).script.check({}, { name: "s", scriptText: "echo" }, wrong);
    await expect(check).rejects.toThrow(/invalid API key/);
  });

  it("check: API unreachable → fails within 5 s naming the base URL, instead of passing after a 23 s stall", async () => {
    const url = await unreachableUrl();
    const started = kit.now();
    const check = freshProvider().check({}, news(), { ...kit.settings, baseUrl: url });
    await expect(check).rejects.toThrow(`cannot reach the API at ${url}`);
    expect(kit.now() - started).toBeLessThan(5_000);
  });

  it("check: API answering 503 twice → preview rides it out as up would (only an unanswered call fails fast)", async () => {
    await kit.control.addFaults([{ method: "GET", route: "/users/getUsers", status: 503, times: 2 }]);
    const { failures } = await freshProvider().check({}, news(), kit.settings);
    expect(failures).toEqual([]);
  });

  it("read during up: API unreachable → a progress line for each retry, not silence", async () => {
    const url = await unreachableUrl();
    kit.progress.length = 0;
    await expect(kit.providers.machine.read("ps1", {}, { ...kit.settings, baseUrl: url })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(kit.progress).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/GET \/machines\/getMachinePublic failed .*ECONNREFUSED.*; retry 1 of 6 in/),
      ]),
    );
    expect(kit.progress.filter((line) => /retry \d of 6/.test(line))).toHaveLength(6);
  });
});

describe("preview: references", () => {
  it("check: networkId in another region → failure naming networkId and both regions", async () => {
    const { failures } = await freshProvider().check(
      {},
      news({ networkId: SEEDED.individualCa1Network }),
      kit.settings,
    );
    expect(failures).toEqual([
      {
        property: "networkId",
        reason: expect.stringMatching(/nindca1 is in region West Coast \(CA1\), not East Coast \(NY2\)/),
      },
    ]);
  });

  it.each([
    ["an unknown templateId", "tnothere"],
    ["another team's template (tacme001) with an individual key", SEEDED.teamTemplate],
  ])("check: %s → one failure naming templateId, and no create is sent", async (_label, id) => {
    const creates = async () =>
      (await kit.control.state()).requestCounts["POST /machines/createSingleMachinePublic"] ?? 0;
    const before = await creates();
    const { failures } = await freshProvider().check({}, news({ templateId: id }), kit.settings);
    expect(failures).toEqual([
      { property: "templateId", reason: `templateId ${id} not found (see getTemplates)` },
    ]);
    expect(await creates()).toBe(before);
  });

  it("check: unknown networkId and scriptId → failures naming each", async () => {
    const { failures } = await freshProvider().check(
      {},
      news({ networkId: "nnothere", scriptId: "scnothere" }),
      kit.settings,
    );
    expect(failures!.map((f) => f.property).sort()).toEqual(["networkId", "scriptId"]);
  });

  it("check: teamId and new-user fields with an individual key → failures naming teamId and email", async () => {
    const teamOnly = {
      teamId: SEEDED.team,
      email: "n@example.com",
      password: "pw",
      firstName: "N",
      lastName: "H",
    };
    const { failures } = await freshProvider().check({}, news(teamOnly), kit.settings);
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "teamId", reason: expect.stringMatching(/individual account/) },
        { property: "email", reason: expect.stringMatching(/team administrator's key/) },
      ]),
    );
  });

  it("check: a team administrator's key without teamId → failure naming teamId and the key's team", async () => {
    const admin = { ...kit.settings, apiKey: kit.keys.teamAdmin };
    const { failures } = await freshProvider().check({}, news({ userId: SEEDED.member }), admin);
    expect(failures).toEqual([{ property: "teamId", reason: expect.stringMatching(/teacme001/) }]);
  });
});

describe("preview: cost", () => {
  it("check: 200 unchanged machines → one request in all (the key's probe), none per resource", async () => {
    const inputs = (
      await kit.providers.machine.check({}, news({ networkId: SEEDED.individualNy2Network }), kit.settings)
    ).inputs!;
    const provider = freshProvider();
    const requests = await requestsMadeBy(async () => {
      for (let i = 0; i < 200; i++) await provider.check(inputs, inputs, kit.settings);
    });
    expect(requests).toBe(1);
  });

  it("check: 200 new machines on one template and network → the probe plus one lookup each, not 200", async () => {
    const provider = freshProvider();
    const requests = await requestsMadeBy(() =>
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          provider.check(
            {},
            news({ __resourceName: `m${i}`, networkId: SEEDED.individualNy2Network }),
            kit.settings,
          ),
        ),
      ),
    );
    expect(requests).toBe(3);
  });
});
