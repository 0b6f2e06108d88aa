/**
 * The Go quickstart (examples/go, an ordinary Pulumi Go program on the generated Go SDK in
 * sdk/go/vmapi), its program function hosted inline by the Automation API runner
 * (tools/examples/runner/runner.go, built into the example's package by tools/examples/go.sh), on
 * the real engine and this repository's plugin, run as `npm run example:go` runs it: up, preview,
 * refresh after a change through the client, destroy, and a create bounded by customTimeouts. The
 * tests are support/quickstartSuite.ts's.
 */
import { quickstartSuite } from "./support/quickstartSuite";

jest.setTimeout(180_000);

quickstartSuite("go");
