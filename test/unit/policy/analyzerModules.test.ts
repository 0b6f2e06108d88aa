/**
 * What the policy pack's analyzer loads (src/policy/analyzerServer.ts and the pack): its policies,
 * the price table and the plugin's codec, never zod (the price file's schema, about 35 ms to load
 * under node, in front of every preview with the pack), axios, the provider or the SDK. Loaded as
 * the npm package runs it (here under ts-node), and the modules it holds are listed.
 */
import { spawnSync } from "child_process";
import * as path from "path";

const REPO = path.resolve(__dirname, "..", "..", "..");

test("the analyzer's modules → the pack, the price table and the plugin's codec; no zod, axios, provider or SDK", () => {
  const probe = [
    "require('./src/policy/analyzerServer.ts');",
    "process.stdout.write(JSON.stringify(Object.keys(require.cache)));",
  ].join("\n");
  const run = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", probe], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, TS_NODE_PROJECT: path.join(REPO, "tsconfig.json") },
  });
  const loaded = (JSON.parse(run.stdout) as string[]).map((file) => path.relative(REPO, file));
  expect(loaded).toContain(path.join("src", "policy", "policies.ts"));
  expect(loaded).toContain(path.join("src", "contract", "priceList.ts"));
  expect(
    loaded.filter((file) => /node_modules\/(zod|axios|@pulumi|@grpc|google-protobuf)\//.test(file)),
  ).toEqual([]);
  expect(loaded.filter((file) => /^src\/(provider\/(machine|account|dynamic)|client)\//.test(file))).toEqual(
    [],
  );
});
