/**
 * Every resource class declares `account` as an Output, so a program can read which named account
 * of `vmapi:accounts` a resource belongs to: under the SDK's mocks (the engine's state echoes the
 * inputs), `.account` of each of the five resources is an Output of the name given.
 */
import * as pulumi from "@pulumi/pulumi";
import { SEEDED } from "../../kit/seeded";
import { MACHINE_BASICS } from "../../kit/machines";
import { useEchoMocks, valueOf } from "../../kit/pulumiMocks";

useEchoMocks();

test("account: each of the five resources with account 'team' → .account is an Output of 'team'", async () => {
  const { Machine, Script, ResourceDelegation, MachineAccess, MachineRestart } =
    await import("../../../src/index");
  const account = "team";
  const resources = {
    Machine: new Machine("m", { ...MACHINE_BASICS, templateId: SEEDED.headlessTemplate, account }),
    Script: new Script("s", { scriptText: "echo hi", account }),
    ResourceDelegation: new ResourceDelegation("d", { machineIds: ["ps1"], account }),
    MachineAccess: new MachineAccess("a", { machineId: "ps1", userId: "u1", account }),
    MachineRestart: new MachineRestart("r", { machineId: "ps1", triggers: ["1"], account }),
  };
  const seen: Record<string, unknown> = {};
  for (const [kind, resource] of Object.entries(resources)) {
    const output = (resource as { account?: pulumi.Output<string | undefined> }).account;
    seen[kind] = pulumi.Output.isInstance(output) ? await valueOf(output) : output;
  }
  expect(seen).toEqual({
    Machine: account,
    Script: account,
    ResourceDelegation: account,
    MachineAccess: account,
    MachineRestart: account,
  });
});
