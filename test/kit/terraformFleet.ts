/**
 * The Terraform state fixture test/fixtures/terraform/fleet.tfstate (and its `show -json` twin): the
 * Pulumi names its scripts and machines are imported under, in the state's order. The converter's
 * integration test and the real CLI's import both hold their answer to it.
 */
export const FLEET_IMPORTED_NAMES = [
  "setup",
  "spare",
  "trainer",
  "box",
  "fleet_us_east",
  "fleet_eu_ams",
  "gpu_0_worker",
  "gpu_1_worker",
] as const;
