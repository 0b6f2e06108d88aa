/**
 * The Machine resource class as a program sees it, under the SDK's mocks: every output the
 * provider writes is declared (or the engine's value never reaches the program), and the
 * declared types say what the API can return.
 */
import * as pulumi from "@pulumi/pulumi";
import type { MachineState } from "../../../src/contract/constants";
import type { Machine } from "../../../src/provider/dynamic/machine";
import { SEEDED } from "../../kit/seeded";
import { MACHINE_BASICS } from "../../kit/machines";
import { useEchoMocks, valueOf } from "../../kit/pulumiMocks";

/** Compile-time equality of two types: `npm run typecheck` fails when an output's type drifts. */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type OutputOf<K extends keyof Machine> = Machine[K] extends pulumi.Output<infer T> ? T : never;
const typeChecks: [
  Equals<OutputOf<"state">, "ready" | "off">,
  Equals<OutputOf<"currentState">, MachineState>,
  Equals<null extends OutputOf<"region"> ? true : false, true>,
  Equals<"Mars (XX1)" extends OutputOf<"region"> ? true : false, true>,
  Equals<"Z99" extends OutputOf<"machineType"> ? true : false, true>,
  Equals<OutputOf<"passwordDigest">, string | undefined>,
] = [true, true, true, true, true, true];

const engineState = {
  passwordDigest: "scrypt$00$11",
  currentState: "starting",
  state: "ready",
  region: null,
  machineType: "Z99",
};

useEchoMocks(engineState);

describe("Machine outputs", () => {
  it("Machine: the engine's state holds passwordDigest, currentState, a null region → each output resolves to it", async () => {
    expect(typeChecks).toEqual([true, true, true, true, true, true]);
    const { Machine: MachineResource } = await import("../../../src/provider/dynamic/machine");
    const machine = new MachineResource("m", {
      ...MACHINE_BASICS,
      templateId: SEEDED.headlessTemplate,
      teamId: "te1",
      email: "new.hire@example.com",
      password: "pw",
      firstName: "New",
      lastName: "Hire",
    });
    await valueOf(machine.urn); // registered: the provider is serialized before the test ends
    expect(await valueOf(machine.passwordDigest)).toBe("scrypt$00$11");
    expect(await valueOf(machine.currentState)).toBe("starting");
    expect(await valueOf(machine.state)).toBe("ready");
    expect(await valueOf(machine.region)).toBeNull();
    expect(await valueOf(machine.machineType)).toBe("Z99");
  });
});
