/**
 * The comparison row of bench/engineUp.ts: the retired client's way of waiting, on the real engine.
 * Each of `count` machines is created through the client, then read at once and every 5 s
 * (× `vmapi:pollScale`) until it is ready, as paperspace-node's `machines.waitfor` polls; delete
 * destroys it without waiting. The emulator's URL and key come from the same stack config as the
 * Machine rows'; the key is an input here (as a secret), which is fine for a benchmark only.
 */
import * as pulumi from "@pulumi/pulumi";
import { createRequest } from "../../machineInputs";

const config = new pulumi.Config();
const vmapi = new pulumi.Config("vmapi");
const count = config.getNumber("count") ?? 1;
const pollMs = 5_000 * (vmapi.getNumber("pollScale") ?? 1);

interface Inputs {
  baseUrl: string;
  apiKey: string;
  /** The create body: the benchmark's machine (bench/machineInputs.ts) under this resource's name. */
  request: ReturnType<typeof createRequest>;
  pollMs: number;
}

/** The package's client, loaded in the plugin process from the program's folder. */
function client(inputs: Inputs) {
  const { VmApiClient } = require(require.resolve("pulumi-vmapi/client", { paths: [process.cwd()] }));
  return new VmApiClient({ apiKey: inputs.apiKey, baseUrl: inputs.baseUrl });
}

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Inputs) {
    const api = client(inputs);
    const machine = await api.machines.create(inputs.request);
    for (;;) {
      if ((await api.machines.get(machine.id)).state === "ready") break;
      await new Promise((resolve) => setTimeout(resolve, inputs.pollMs));
    }
    return { id: machine.id, outs: inputs };
  },
  async delete(id: string, props: Inputs) {
    await client(props).machines.destroy(id);
  },
};

class FixedPollMachine extends pulumi.dynamic.Resource {
  constructor(name: string, inputs: pulumi.Inputs) {
    super(provider, name, inputs, {}, "bench", "FixedPollMachine");
  }
}

export const made = Array.from(
  { length: count },
  (_, i) =>
    new FixedPollMachine(`fixed-${i}`, {
      baseUrl: vmapi.require("baseUrl"),
      apiKey: vmapi.requireSecret("apiKey"),
      request: createRequest(`${pulumi.getStack()}-fixed-${i}`),
      pollMs,
    }),
).length;
