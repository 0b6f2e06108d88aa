/**
 * Creating names (src/contract/unfinishedCreates.ts) as a read tells them: every creating name ends
 * as one, whoever's, and a machine's own name is answered as it is without the resource's digest
 * (src/provider/machine/leftovers.ts `nameToGet`, which every read of a machine asks).
 */
import { creatingName, endsAsCreating, urnIdentity } from "../../../src/contract/unfinishedCreates";
import { nameToGet } from "../../../src/provider/machine/leftovers";

const IDENTITIES = ["", "seed", urnIdentity("urn:pulumi:dev::p::vmapi:index:Machine::box"), "é".repeat(40)];
const NAMES = ["trainer", "", "a".repeat(300), "worker (creating 0123456789)", "ünïcode name"];

test("endsAsCreating: every creating name, of any name and identity, ends as one", () => {
  for (const identity of IDENTITIES)
    for (const name of NAMES) expect(endsAsCreating(creatingName(name, identity))).toBe(true);
});

test("endsAsCreating: a name that is nobody's creating name does not", () => {
  for (const name of [
    "trainer",
    "trainer (creating)",
    "trainer (creating 012345678)",
    "trainer (creating 0123456789a)",
    "trainer (creating 012345678A)",
    "trainer (creating 0123456789) ",
    "trainer(creating 0123456789)",
  ])
    expect(endsAsCreating(name)).toBe(false);
});

test("nameToGet: a machine's own name → as it is, the resource's identity never asked", () => {
  const resource = {
    get identity(): string {
      throw new Error("the identity's digest was made");
    },
  };
  expect(nameToGet("trainer", "trainer", resource)).toBe("trainer");
});

test("nameToGet: the resource's own creating name → the declared name; another resource's → as it is", () => {
  const identity = urnIdentity("urn:pulumi:dev::p::vmapi:index:Machine::box");
  expect(nameToGet(creatingName("trainer", identity), "trainer", { identity })).toBe("trainer");
  const other = creatingName("trainer", urnIdentity("urn:pulumi:dev::p::vmapi:index:Machine::other"));
  expect(nameToGet(other, "trainer", { identity })).toBe(other);
});
