/**
 * `count` independent scripts (default 2), auto-named; the first one's text is a secret.
 * Config: `count`, `text`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Script } from "pulumi-vmapi";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 2;
const text = config.get("text") ?? "#!/bin/bash\necho hello\n";

const scripts = Array.from(
  { length: count },
  (_, i) => new Script(`script-${i}`, { scriptText: i === 0 ? pulumi.secret(text) : text }),
);

export const ids = scripts.map((s) => s.scriptId);
export const secretText = pulumi.secret(text);
