/**
 * The Python quickstart (examples/python, an ordinary Pulumi Python program on the generated
 * Python SDK in sdk/python, installed by pip), its program function hosted inline by the
 * Automation API runner (tools/examples/runner/runner.py), on the real engine and this
 * repository's plugin, run as `npm run example:python` runs it: up, preview, refresh after a
 * change through the client, destroy, and a create bounded by customTimeouts. The tests are
 * support/quickstartSuite.ts's.
 */
import { quickstartSuite } from "./support/quickstartSuite";

jest.setTimeout(180_000);

quickstartSuite("python");
