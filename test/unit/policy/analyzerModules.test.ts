/**
 * What the policy pack's analyzer loads (src/policy/analyzerServer.ts and the pack): its policies,
 * the price table and the plugin's codec, never zod (the price file's schema, about 35 ms to load
 * under node, in front of every preview with the pack), axios, the provider or the SDK. Loaded as
 * the npm package runs it (here under ts-node), and the modules it holds are listed.
 */
import * as path from "path";
import { loadedModules, WRITE_LOADED } from "../../kit/loadedModules";

test("the analyzer's modules → the pack, the price table and the plugin's codec; no zod, axios, provider or SDK", () => {
  const loaded = loadedModules(["require('./src/policy/analyzerServer.ts');", WRITE_LOADED]);
  expect(loaded).toContain(path.join("src", "policy", "policies.ts"));
  expect(loaded).toContain(path.join("src", "contract", "priceList.ts"));
  expect(
    loaded.filter((file) => /node_modules\/(zod|axios|@pulumi|@grpc|google-protobuf)\//.test(file)),
  ).toEqual([]);
  expect(loaded.filter((file) => /^src\/(provider\/(machine|account|dynamic)|client)\//.test(file))).toEqual(
    [],
  );
});
