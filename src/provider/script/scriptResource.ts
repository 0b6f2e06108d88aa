/**
 * The Script, declared once (shared/resourceDeclaration.ts says who reads what): its fields, from
 * which its class, its diff table and its part of the schema are made; the registry finds its
 * implementation beside it.
 */
import { z } from "zod";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { fieldsOf, input, output } from "../shared/resourceFields";

/** A startup script, auto-named. Scripts are immutable in the API, so any change replaces it. */
export const scriptResource = {
  ...fieldsOf({
    kind: "Script",
    description: "A startup script; outputs include its owner and the machines it is attached to.",
    argsDescription: "Inputs of a {@link Script}. Every change replaces the script.",
    getDescription:
      "Reads an existing script into the program without managing it: its outputs are the script as\n" +
      "the API reports it (not its text: see `getScriptText`), and `pulumi destroy` leaves it alone.",
    inputs: z.object({
      name: input(z.string().optional(), {
        change: "replace",
        description:
          'Unique name per owner; defaults to the resource name plus a suffix the stack fixes (docs/resources/README.md, "How names are made"). Replaces.',
      }),
      scriptText: input(z.string().optional(), {
        description:
          "The script (bash on Linux, PowerShell on Windows), at most 16 KB; this or `scriptFile`. A\n" +
          "changed text replaces the script. Wrap in pulumi.secret to keep it secret.",
      }),
      scriptFile: input(z.string().optional(), {
        description:
          "A file holding the script, read by the provider; this or `scriptText`. A changed content replaces the script.",
      }),
      description: input(z.string().optional(), {
        change: "replace",
        description: "A description. Replaces.",
      }),
      isEnabled: input(z.boolean().optional(), {
        change: "replace",
        default: true,
        description: "Whether machines run it at startup. Default true. Replaces.",
      }),
      runOnce: input(z.boolean().optional(), {
        change: "replace",
        default: false,
        description: "Run on first boot only. Default false. Replaces.",
      }),
      machineId: input(z.string().optional(), {
        change: "replace",
        description:
          "Machine the script is created for: it is assigned to it and runs from its next boot. An\n" +
          "edited script is then a new one assigned to the same machine, which is kept\n" +
          '(docs/resources/script.md, "Startup scripts that change"). Replaces.',
      }),
    }),
    computed: z.object({
      contentSha256: output(z.string(), {
        derivedFrom: ["scriptText", "scriptFile"],
        change: "replace",
        description: "SHA-256 of the script's content: how a changed file is noticed.",
      }),
    }),
    outputs: z.object({
      name: output(z.string(), {
        description: "The script's name (declared, or the generated `<resource name>-<suffix>`).",
      }),
      scriptId: output(z.string(), { description: "The script's id in the API (the resource's id too)." }),
      description: output(z.string().nullable(), { description: "As declared." }),
      isEnabled: output(z.boolean(), { description: "Whether machines run it at startup." }),
      runOnce: output(z.boolean(), { description: "Whether it runs at the first boot only." }),
      machineId: output(z.string().optional(), {
        description: "The machine it was created for, as declared.",
      }),
      ownerType: output(z.enum(["user", "team"]), { description: "Whether a user or a team owns it." }),
      ownerId: output(z.string(), { description: "The id of that user or team." }),
      dtCreated: output(z.string(), { description: "When it was created (ISO 8601, UTC)." }),
      machines: output(z.array(z.unknown()), {
        type: 'NonNullable<z.infer<typeof ScriptSchema>["machines"]>',
        description: "The machines it is attached to, with when it last ran on each.",
      }),
    }),
  }),
  autoNamed: true,
  models: [{ file: "src/provider/script/scriptModel.ts", type: "ScriptOutputs" }],
  page: "docs/resources/script.md",
} as const satisfies ResourceDeclaration;
