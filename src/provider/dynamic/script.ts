/**
 * `Script`: a startup script. Scripts are immutable in the API, so any change replaces it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ScriptSchema } from "../../contract/schemas";
import type { z } from "zod";
import type { Assert } from "../shared/resourceImplementation";
import { VmApiResource, typeToken, type RegistersItsOutputs } from "./resourceClass";
import { scriptResource } from "../script/scriptResource";

/** Inputs of a {@link Script}. Every change replaces the script. */
export interface ScriptArgs {
  /**
   * The named account the resource belongs to: an entry of the secret stack config
   * `vmapi:accounts` (a name, never a key). Left out: the default `vmapi:apiKey`. Replaces.
   */
  account?: pulumi.Input<string>;
  /** Unique name per owner; defaults to the resource name plus a suffix the stack fixes (docs/resources/README.md, "How names are made"). Replaces. */
  name?: pulumi.Input<string>;
  /**
   * The script (bash on Linux, PowerShell on Windows), at most 16 KB; this or `scriptFile`. A
   * changed text replaces the script. Wrap in pulumi.secret to keep it secret.
   */
  scriptText?: pulumi.Input<string>;
  /** A file holding the script, read by the provider; this or `scriptText`. A changed content replaces the script. */
  scriptFile?: pulumi.Input<string>;
  /** A description. Replaces. */
  description?: pulumi.Input<string>;
  /**
   * Whether machines run it at startup. Default true. Replaces.
   * @defaultValue true
   */
  isEnabled?: pulumi.Input<boolean>;
  /**
   * Run on first boot only. Default false. Replaces.
   * @defaultValue false
   */
  runOnce?: pulumi.Input<boolean>;
  /**
   * Machine the script is created for: it is assigned to it and runs from its next boot. An
   * edited script is then a new one assigned to the same machine, which is kept
   * (docs/resources/script.md, "Startup scripts that change"). Replaces.
   */
  machineId?: pulumi.Input<string>;
}

/** A startup script; outputs include its owner and the machines it is attached to. */
export class Script extends VmApiResource {
  /** The script's name (declared, or the generated `<resource name>-<suffix>`). */
  declare readonly name: pulumi.Output<string>;
  /** The named account of `vmapi:accounts` the resource belongs to; undefined: the default key. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The script's id in the API (the resource's id too). */
  declare readonly scriptId: pulumi.Output<string>;
  /** As declared. */
  declare readonly description: pulumi.Output<string | null>;
  /** Whether machines run it at startup. */
  declare readonly isEnabled: pulumi.Output<boolean>;
  /** Whether it runs at the first boot only. */
  declare readonly runOnce: pulumi.Output<boolean>;
  /** The machine it was created for, as declared. */
  declare readonly machineId: pulumi.Output<string | undefined>;
  /** Whether a user or a team owns it. */
  declare readonly ownerType: pulumi.Output<"user" | "team">;
  /** The id of that user or team. */
  declare readonly ownerId: pulumi.Output<string>;
  /** When it was created (ISO 8601, UTC). */
  declare readonly dtCreated: pulumi.Output<string>;
  /** The machines it is attached to, with when it last ran on each. */
  declare readonly machines: pulumi.Output<NonNullable<z.infer<typeof ScriptSchema>["machines"]>>;
  /** SHA-256 of the script's content: how a changed file is noticed. */
  declare readonly contentSha256: pulumi.Output<string>;

  /** @internal The type the engine knows this resource by. */
  static readonly __pulumiType = typeToken("Script");

  /**
   * Reads an existing script into the program without managing it: its outputs are the script as
   * the API reports it (not its text: see `getScriptText`), and `pulumi destroy` leaves it alone.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Script {
    return new Script(name, {} as ScriptArgs, { ...opts, id });
  }

  constructor(name: string, args: ScriptArgs, opts?: pulumi.CustomResourceOptions) {
    super(scriptResource, name, args, opts);
  }
}

/* Compile-time check that every output the class declares is registered (else it stays undefined). */
type _RegistersItsOutputs = Assert<RegistersItsOutputs<Script, (typeof scriptResource.keys)[number]>>;
