/**
 * The plugin's door (src/provider/native/nativeProvider.ts) against the kit's emulator, whose
 * manual clock stands still, so a machine stays provisioning: what the door gives the engine when
 * a create fails after the API made the resource. The door runs the process's implementations
 * (implementations.ts) on the real clock, so its waits are real; the bound here is half a second.
 * The real-engine tests are test/e2e/goProgram.test.ts and pythonProgram.test.ts.
 */
import { providerContext } from "../../../src/provider/account/context";
import { NativeProvider } from "../../../src/provider/native/nativeProvider";
import { shippedSchema } from "../../../src/provider/native/schemaFile";
import { structProto } from "../../kit/sdkStubs";
import { toWire } from "../../../src/provider/native/wireValues";
import { MACHINE_BASICS, partialFailureOf, useProviderKit } from "./providerTestKit";

const kit = useProviderKit();

const URN = "urn:pulumi:dev::native::vmapi:index:Machine::partial";

test("create: its timeout runs out → a partial failure whose properties the protocol's Struct carries, secrets marked", async () => {
  const provider = new NativeProvider(providerContext(), { log: () => undefined }, shippedSchema());
  provider.configure({ ...kit.settings, pollScale: "0.01" });
  const declared = toWire({ ...MACHINE_BASICS, templateId: kit.templateId, name: "native-partial" }, [
    "name",
  ]);
  const checked = await provider.check(URN, {}, declared, Buffer.alloc(0));
  expect(checked.failures).toEqual([]);

  // The engine sends the operation's timeout in seconds.
  const failure = await partialFailureOf(provider.create(URN, checked.inputs, 5));
  expect(failure.message).toMatch(
    /^customTimeouts\.create \(5000ms\) ran out: machine ps\w+ did not become ready/,
  );
  expect(Object.entries(failure.properties).filter(([, value]) => value === undefined)).toEqual([]);
  expect(() => structProto.Struct.fromJavaScript(failure.properties)).not.toThrow();
  expect(failure.properties.name).toEqual(toWire({ name: "native-partial" }, ["name"]).name);
  expect(failure.properties).not.toHaveProperty("__customTimeouts");
});
