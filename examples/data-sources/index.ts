/**
 * Data sources: pick a Linux template and the first GPU type available in the region, then
 * create a machine of that type on the region's network.
 *
 * Config: `vmapi:baseUrl` and `vmapi:apiKey` (secret; the emulator's `dev-individual-key`), as in
 * examples/quickstart. Then `npm run pulumi -- up --yes` in this folder.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  DEDICATED_GPU_MACHINE_TYPES,
  Machine,
  getAvailability,
  getNetworks,
  getTemplates,
  type DedicatedGpuMachineType,
} from "pulumi-vmapi";

const region = "East Coast (NY2)" as const;

async function firstAvailableGpu(): Promise<DedicatedGpuMachineType> {
  for (const machineType of DEDICATED_GPU_MACHINE_TYPES) {
    if ((await getAvailability({ region, machineType })).available) return machineType;
  }
  throw new Error(`no dedicated GPU type is available in ${region} now`);
}

const gpu = pulumi.output(firstAvailableGpu());
const template = pulumi
  .output(getTemplates({ os: "Ubuntu 22.04 Server" }))
  .apply(({ templates }) => templates[0].id);
const network = pulumi.output(getNetworks({ region })).apply(({ networks }) => networks[0].id);

const machine = new Machine("gpu-box", {
  region,
  machineType: gpu,
  size: 100,
  billingType: "hourly",
  templateId: template,
  networkId: network,
});

export const chosenType = gpu;
export const machineId = machine.machineId;
