/** servedAsConverter: the plugin's entry goes on as the resource provider unless started as the converter. */
import { CONVERTER_EXECUTABLE, servedAsConverter } from "../../../src/terraform/converterHook";

test.each([
  ["pulumi-converter-vmapi", true],
  ["pulumi-resource-vmapi", false],
  ["main.js", false],
  ["pulumi-converter-", false],
])("the name %p → converter: %p", (name, converter) => {
  expect(CONVERTER_EXECUTABLE.test(name)).toBe(converter);
});

test("started as the resource plugin (node .../native/main.js) → false, nothing served", () => {
  expect(
    servedAsConverter({ version: "0.1.0" }, ["/usr/bin/node", "/pkg/dist/provider/native/main.js"]),
  ).toBe(false);
});
