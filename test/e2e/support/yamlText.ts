/**
 * Pieces of the Pulumi YAML programs the real-engine tests write inline: the `plugins:` section
 * that names the npm package's plugin folder of this checkout (the test programs keep it, so that
 * route stays tested; the examples have none), and the Machine the tests declare.
 */
import * as path from "path";
import { REPO } from "./cli";

/** A `plugins:` section naming this checkout's `plugin/` folder, at the top level of a Pulumi.yaml. */
export const CHECKOUT_PLUGINS_SECTION = `plugins:
  providers:
    - name: vmapi
      path: ${path.join(REPO, "plugin")}`;

/** A Machine's properties (C4 in East Coast (NY2), 50 GB, hourly, template tubsrv01), indented as a resource's `properties:` entries. */
export const MACHINE_PROPERTIES = `      region: East Coast (NY2)
      machineType: C4
      size: 50
      billingType: hourly
      templateId: tubsrv01`;
