/**
 * The Go quickstart (examples/go: the generated Go SDK in sdk/go/vmapi, hosted by the Automation
 * API in examples/go/main.go) on the real engine and this repository's plugin, run as
 * `npm run example:go` runs it: up, preview, refresh after a change through the client, destroy,
 * and a create bounded by customTimeouts. The tests are support/quickstartSuite.ts's.
 */
import { quickstartSuite } from "./support/quickstartSuite";

jest.setTimeout(180_000);

quickstartSuite("go");
