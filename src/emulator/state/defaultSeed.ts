/**
 * The built-in seed: one individual account, the team "Acme" (an admin and a member), a network
 * per region per account, public templates and a team template, and GPU availability. Replace it
 * with `--seed FILE` (same JSON shape, validated by seed.ts).
 */
import { REGIONS } from "../../contract/constants";
import type { SeedInput } from "./seed";

const created = "2025-06-01T12:00:00.000Z";

const networks = (prefix: string, owner: { teamId: string | null; userId: string | null }, octet: number) =>
  REGIONS.map((region, i) => ({
    id: `n${prefix}${["ca1", "ny2", "am1"][i]}`,
    name: `${prefix === "ind" ? "Jane" : "Acme"} ${region}`,
    region,
    dtCreated: created,
    network: `10.${octet}.${i + 1}.0`,
    netmask: "255.255.255.0",
    ...owner,
  }));

/** The default seed, as it would appear in a `--seed` file. */
export const DEFAULT_SEED: SeedInput = {
  clockStart: "2026-01-15T09:00:00.000Z",
  randomSeed: 20260115,
  keys: {
    individual: "dev-individual-key",
    teamAdmin: "dev-team-admin-key",
    teamMember: "dev-team-member-key",
  },
  teams: [{ id: "teacme001", name: "Acme", dtCreated: created }],
  users: [
    {
      id: "ujane001",
      email: "jane@example.com",
      firstname: "Jane",
      lastname: "Doe",
      dtCreated: created,
      teamId: null,
      role: "admin",
      apiKey: "dev-individual-key",
    },
    {
      id: "uadmin01",
      email: "ada@acme.example",
      firstname: "Ada",
      lastname: "Admin",
      dtCreated: created,
      teamId: "teacme001",
      role: "admin",
      apiKey: "dev-team-admin-key",
    },
    {
      id: "umembr01",
      email: "max@acme.example",
      firstname: "Max",
      lastname: "Member",
      dtCreated: created,
      teamId: "teacme001",
      role: "member",
      apiKey: "dev-team-member-key",
    },
  ],
  networks: [
    ...networks("ind", { teamId: null, userId: "ujane001" }, 64),
    ...networks("acm", { teamId: "teacme001", userId: null }, 65),
  ],
  templates: [
    {
      id: "tubdesk1",
      name: "paperspace/tubdesk1",
      label: "Ubuntu 22.04 Desktop",
      os: "Ubuntu 22.04 Desktop",
      agentType: "LinuxDesktop",
      dtCreated: created,
    },
    {
      id: "tubsrv01",
      name: "paperspace/tubsrv01",
      label: "Ubuntu 22.04 Server (ML-in-a-Box)",
      os: "Ubuntu 22.04 Server",
      agentType: "LinuxHeadless",
      dtCreated: created,
    },
    {
      id: "twin1001",
      name: "paperspace/twin1001",
      label: "Windows 10 (Server 2019)",
      os: "Windows 10",
      agentType: "WindowsDesktop",
      dtCreated: created,
    },
    {
      id: "tacme001",
      name: "acme/tacme001",
      label: "Acme build agent",
      os: "Ubuntu 22.04 Server",
      agentType: "LinuxHeadless",
      dtCreated: created,
      teamId: "teacme001",
    },
  ],
  capacity: [
    { region: "West Coast (CA1)", machineType: "GPU+", available: true },
    { region: "West Coast (CA1)", machineType: "P4000", available: true },
    { region: "West Coast (CA1)", machineType: "P5000", available: true },
    { region: "West Coast (CA1)", machineType: "P6000", available: false },
    { region: "East Coast (NY2)", machineType: "GPU+", available: true },
    { region: "East Coast (NY2)", machineType: "P4000", available: true },
    { region: "East Coast (NY2)", machineType: "P5000", available: true },
    { region: "East Coast (NY2)", machineType: "P6000", available: true },
    { region: "East Coast (NY2)", machineType: "V100", available: true },
    { region: "Europe (AMS1)", machineType: "P4000", available: true },
    { region: "Europe (AMS1)", machineType: "P5000", available: true },
    { region: "Europe (AMS1)", machineType: "GPU+", available: false },
  ],
};
