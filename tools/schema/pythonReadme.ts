/**
 * The Python SDK's README (the schema's `language.python.readme`): the generator writes it into
 * the package (`pulumi_vmapi/README.md`), and `npm run sdk:generate` copies it to
 * `sdk/python/README.md`, the file the generated pyproject.toml names as the wheel's long
 * description. It ships on its own, so every link in it is absolute.
 */
import { GO_IMPORT_BASE_PATH } from "./sources";

/** The versions the README states, as the schema's python section holds them. */
export interface PythonVersions {
  /** The package's own version (the plugin's). */
  version: string;
  /** `requires-python`. */
  pythonRequires: string;
  /** The `pulumi` requirement. */
  pulumi: string;
}

/** The README's text. */
export function pythonReadme({ version, pythonRequires, pulumi }: PythonVersions): string {
  const repository = `https://${GO_IMPORT_BASE_PATH.split("/").slice(0, 3).join("/")}`;
  const docs = `${repository}/blob/main/docs`;
  return `# pulumi_vmapi

The Python SDK of the \`vmapi\` Pulumi provider: machines, startup scripts, resource delegations and
machine access of the VM machine API, with data sources for users, networks, templates, machines,
scripts and utilization.

## Install

\`\`\`sh
pip install pulumi_vmapi==${version}                      # from a package index
pip install pulumi_vmapi-${version}-py3-none-any.whl      # or from the wheel of a release
\`\`\`

pip installs its dependencies with it, \`pulumi\` (${pulumi}) among them. It needs Python
${pythonRequires.replace(/^>=/, "")} or newer. The resources are served by the provider plugin
\`pulumi-resource-vmapi\` ${version}, which the SDK asks the engine for: install it as
[the plugin's page](${docs}/plugin.md) says.

## Use

\`\`\`python
import pulumi
import pulumi_vmapi as vmapi

templates = vmapi.get_templates(os="Ubuntu 22.04 Server")
machine = vmapi.Machine(
    "trainer",
    region=vmapi.Region.EAST_COAST_NY2,
    machine_type=vmapi.MachineType.C4,
    size=50,
    billing_type=vmapi.BillingType.HOURLY,
    template_id=templates.templates[0].id,
)
pulumi.export("machineId", machine.machine_id)
\`\`\`

The provider reads \`vmapi:baseUrl\` and \`vmapi:apiKey\` (a secret) from the stack's config.
Reference: [Go and Python](${docs}/languages.md), [the resources](${docs}/resources/README.md),
[the data sources](${docs}/data-sources.md), [configuration](${docs}/configuration.md).
`;
}
