/**
 * Secret inputs that `check` refuses, written in the program with `pulumi.secret` as a user
 * would (not as secret config: the CLI masks the values of secret config in whatever it prints,
 * which would hide a leak). The engine stops at the first resource that fails, so config `kind`
 * picks one: `machine` (default), whose `region` is not a region and whose `name` holds a
 * newline; or `script`, named by that same name.
 */
import * as pulumi from "@pulumi/pulumi";
import { Machine, Script, type Region } from "pulumi-vmapi";

/** The secret values; test/e2e/secrets.test.ts looks for them in everything the CLI prints. */
const REGION = "SECRET-region-7b3a";
const NAME = "SECRET-name-c91e\nsecond line";

if (new pulumi.Config().get("kind") === "script") {
  new Script("boot", { name: pulumi.secret(NAME), scriptText: "#!/bin/bash\necho hi\n" });
} else {
  new Machine("box", {
    region: pulumi.secret(REGION as Region),
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    templateId: "tubsrv01",
    name: pulumi.secret(NAME),
  });
}
