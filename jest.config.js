/**
 * One jest run for the whole suite: unit/ (no network), integration/ (client and provider
 * against an in-process emulator on loopback), security/, and e2e/ (the real `pulumi` CLI through
 * `npm run pulumi`). The global setup compiles dist/ and makes sure the CLI exists. Type errors
 * are caught by `npm run typecheck`, so ts-jest transpiles file by file (isolatedModules).
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", {}] },
  globalSetup: "<rootDir>/test/globalSetup.ts",
  // Every answer of an in-process emulator is held to api/openapi.json (test/kit/answerConformance.ts).
  setupFilesAfterEnv: ["<rootDir>/test/kit/answerConformance.ts"],
  testTimeout: 30000,
  // Tests start emulators and CLI runs. Three workers on a 2-core machine: the real-engine files
  // spend part of their time waiting on the engine and the API, which a third file fills.
  maxWorkers: 3,
  // Longest files first, by the record of a whole run (test/durations.json), so a fresh clone
  // with no jest cache does not leave the minutes-long real-engine files for last.
  testSequencer: "<rootDir>/test/sequencer.js",
};
