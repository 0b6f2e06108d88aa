import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The layers of src/ and which may import which (README, "Layout"). A breach fails `npm run lint`.
 *
 *   contract  the ground under everything: what is written once (the price list); imports no
 *             other folder of src, and never Pulumi or axios
 *   client    -> contract; never Pulumi
 *   emulator  -> contract, and the client's contract only (constants, schemas, requestSchemas,
 *                listFilters, formatIssues): the server shares the wire types, not the client's machinery
 *   provider  -> client, contract (functions/ also -> provider); never emulator, recovery or review
 *   recovery  -> client, contract
 *   review    -> contract, the client's formatIssues and the provider's machineDiffTable (data with
 *                no runtime import): `vmapi-review` reads a preview, it calls no API and loads no Pulumi
 *   index.ts  -> client, provider, review (the emulator has its own entry point, pulumi-vmapi/dist/emulator)
 */
const CONTRACT = "constants|schemas|requestSchemas|listFilters|formatIssues";
const layer = (files, patterns, paths = []) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns, paths }] },
});
const noPulumi = { name: "@pulumi/pulumi", message: "Only src/provider knows Pulumi." };
const LAYERS = [
  layer(
    ["src/contract/**/*.ts"],
    [{ regex: "^\\.\\./", message: "src/contract is the ground layer: it imports no other folder of src." }],
    [noPulumi, { name: "axios", message: "The contract sends no requests." }],
  ),
  layer(
    ["src/client/**/*.ts"],
    [
      {
        regex: "^\\.\\./(?!contract/)",
        message: "src/client imports no other folder of src but the contract.",
      },
    ],
    [noPulumi],
  ),
  layer(
    ["src/emulator/**/*.ts"],
    [
      {
        regex: "^\\.\\./(provider|recovery|review|index)(/|$)",
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
    [
      {
        regex: "^(\\.\\./)+(emulator|recovery|review)(/|$)",
        message: "The provider builds on the client and the contract alone.",
      },
    ],
  ),
  layer(
    ["src/recovery/**/*.ts"],
    [{ regex: "^\\.\\./(provider|emulator|review)(/|$)", message: "Recovery builds on the client alone." }],
    [noPulumi],
  ),
  layer(
    ["src/review/**/*.ts"],
    [
      {
        regex: "^\\.\\./(?!contract/|client/formatIssues$|provider/machineDiffTable$)",
        message:
          "The review reads a preview: it imports the contract, the client's formatIssues and the provider's machineDiffTable only.",
      },
    ],
    [noPulumi, { name: "axios", message: "The review reads a preview: it calls no API." }],
  ),
  layer(
    ["src/index.ts"],
    [
      {
        regex: "^\\./(emulator|recovery)(/|$)",
        message: "The package's entry point is the client, the provider and the review.",
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
