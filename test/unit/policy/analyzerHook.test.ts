/** servedAsAnalyzer: the plugin's entry goes on as the resource provider unless started as the policy pack's analyzer. */
import { ANALYZER_EXECUTABLE, servedAsAnalyzer } from "../../../src/policy/analyzerHook";

test.each([
  ["pulumi-analyzer-policy-vmapi", true],
  ["pulumi-resource-vmapi", false],
  ["pulumi-converter-vmapi", false],
  ["main.js", false],
  ["pulumi-analyzer-policy-", false],
])("the name %p → analyzer: %p", (name, analyzer) => {
  expect(ANALYZER_EXECUTABLE.test(name)).toBe(analyzer);
});

test("started as the resource plugin (node .../native/main.js) → false, nothing served", () => {
  expect(servedAsAnalyzer({ version: "0.1.0" }, ["/usr/bin/node", "/pkg/dist/provider/native/main.js"])).toBe(
    false,
  );
});
