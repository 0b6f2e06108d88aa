/**
 * The Python quickstart (examples/python: the generated Python SDK in sdk/python, installed by
 * pip, hosted by the Automation API in examples/python/main.py) on the real engine and this
 * repository's plugin, run as `npm run example:python` runs it: up, preview, refresh after a
 * change through the client, destroy, and a create bounded by customTimeouts. The tests are
 * support/quickstartSuite.ts's.
 */
import { quickstartSuite } from "./support/quickstartSuite";

jest.setTimeout(180_000);

quickstartSuite("python");
