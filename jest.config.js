/**
 * One jest run for the whole suite: unit/ (no network), integration/ (client and provider
 * against an in-process emulator on loopback). Type errors are caught by `npm run typecheck`,
 * so ts-jest transpiles file by file (isolatedModules) to keep the suite fast.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", {}] },
  testTimeout: 30000,
  // Tests start emulators on port 0; two workers keep a 2-core machine responsive.
  maxWorkers: 2,
};
