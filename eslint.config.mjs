import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The layers of src/ and which may import which (README, "Layout"). A breach fails `npm run lint`.
 *
 *   client    the ground: imports no other folder of src, and never Pulumi
 *   emulator  -> client's contract only (constants, schemas, requestSchemas, listFilters,
 *                formatIssues): the server shares the wire types, not the client's machinery
 *   provider  -> client (functions/ also -> provider); never emulator or recovery
 *   recovery  -> client
 *   index.ts  -> client, provider (the emulator has its own entry point, pulumi-vmapi/dist/emulator)
 */
const CONTRACT = "constants|schemas|requestSchemas|listFilters|formatIssues";
const layer = (files, patterns, paths = []) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns, paths }] },
});
const noPulumi = { name: "@pulumi/pulumi", message: "Only src/provider knows Pulumi." };
const LAYERS = [
  layer(
    ["src/client/**/*.ts"],
    [{ regex: "^\\.\\./", message: "src/client is the ground layer: it imports no other folder of src." }],
    [noPulumi],
  ),
  layer(
    ["src/emulator/**/*.ts"],
    [
      {
        regex: "^\\.\\./(provider|recovery|index)(/|$)",
        message: "The emulator imports only the client's contract.",
      },
      {
        regex: `^\\.\\./client/(?!(${CONTRACT})$)`,
        message: `The emulator imports only the client's contract: ${CONTRACT.split("|").join(", ")}.`,
      },
    ],
    [noPulumi, { name: "axios", message: "The emulator is the server: it sends no requests." }],
  ),
  layer(
    ["src/provider/**/*.ts"],
    [{ regex: "^(\\.\\./)+(emulator|recovery)(/|$)", message: "The provider builds on the client alone." }],
  ),
  layer(
    ["src/recovery/**/*.ts"],
    [{ regex: "^\\.\\./(provider|emulator)(/|$)", message: "Recovery builds on the client alone." }],
    [noPulumi],
  ),
  layer(
    ["src/index.ts"],
    [
      {
        regex: "^\\./(emulator|recovery)(/|$)",
        message: "The package's entry point is the client and the provider.",
      },
    ],
  ),
];

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "coverage/", ".vmapi/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  ...LAYERS,
);
