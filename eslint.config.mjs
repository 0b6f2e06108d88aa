import js from "@eslint/js";
import jest from "eslint-plugin-jest";
import tseslint from "typescript-eslint";

/**
 * The layers of src/ and which may import which (CONTRIBUTING.md, "Layout"). A breach fails `npm run lint`.
 *
 *   contract  the wire contract, written once (constants, zod schemas of every record and request,
 *             list-filter fields, issue formatting, the price list); imports no other folder of src,
 *             and never Pulumi or axios
 *   client    -> contract; never Pulumi. Inside it, core/ (the machinery) imports no resource,
 *                resources/ (one file per API resource; a folder for the Machine, whose waiting
 *                and late creates are its own) build on core/ alone, client.ts on both
 *   emulator  -> contract only; inside it, http -> traffic -> model -> state: the traffic
 *                controls (traffic/: faults, rate limit, request log) never import the HTTP side,
 *                the rules (model) import neither, and the store (state) none of them; model/ and
 *                http/ change records only through the store's collections, never its data
 *   provider  -> client, contract; never emulator, recovery or review. Inside it, account/ is
 *                the ground (what every door hands in: an account resolved once, in the context
 *                of its process) and imports nothing else of the provider; shared/ (what every
 *                implementation is served with and uses) stands on it and imports nothing else
 *                of the provider either. Every other folder but the two doors is a resource folder (machine/,
 *                script/, ..., and functions/, the data sources): protocol-free, it never
 *                imports either door, dynamic/ (the TypeScript classes, the provider module) or
 *                native/ (the plugin), nor the registry above it (implementations.ts and its
 *                generated index, runtime.ts); and one door never imports the other. The
 *                folders are named by what they are not, so a new resource folder is under
 *                these rules without editing this file
 *   recovery  -> client, contract
 *   terraform -> client, contract, the plugin's protobuf writer (provider/native/protoWire,
 *                structWire) and its gRPC (provider/native/transport/grpc):
 *                `pulumi-converter-vmapi` reads a Terraform state and lists the API; it loads no
 *                Pulumi. The plugin's entry (provider/native/main.ts) calls its converterHook
 *                (the release's executable is the converter too)
 *   policy    -> contract, review/cost (vmapi-review's prices), the plugin's protobuf writer,
 *                Struct codec, wire values and gRPC, and the provider's shared/unknown:
 *                `pulumi-analyzer-policy-vmapi` reads resources the engine sends; it calls no API
 *                and loads no Pulumi. The plugin's entry calls its analyzerHook
 *   review    -> contract and the provider's machine/machineDiffTable (data with no runtime
 *                import): `vmapi-review` reads a preview, it calls no API and loads no Pulumi
 *   index.ts  -> client, provider, review (the emulator has its own entry point, pulumi-vmapi/dist/emulator)
 *   console/  the emulator's web page (browser code): the console's wire types and the contract's
 *             constants only, and text bindings only (below)
 */
const layer = (files, patterns, paths = []) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns, paths }] },
});
const noPulumi = { name: "@pulumi/pulumi", message: "Only src/provider knows Pulumi." };
const noAxios = { name: "axios", message: "The emulator is the server: it sends no requests." };
/** The emulator's rule for a file `depth` folders below src/emulator, plus `inside` rules. */
const emulatorLayer = (files, depth, inside = []) =>
  layer(
    files,
    [
      {
        regex: `^${"\\.\\./".repeat(depth + 1)}(?!contract/)`,
        message: "The emulator imports no other folder of src but the contract.",
      },
      ...inside,
    ],
    [noPulumi, noAxios],
  );
/** The rule of an API resource's file `depth` folders below src/client/resources (the Machine's is a folder, machine/). */
const clientResourceLayer = (files, depth) =>
  layer(
    files,
    [
      {
        regex: `^${"\\.\\./".repeat(depth + 1)}(?!core/|\\.\\./contract/)`,
        message:
          "An API resource's file builds on the client's machinery (core/) and the contract alone: not on the client built on it, no other folder of src.",
      },
    ],
    [noPulumi],
  );
/** The provider's ground (account/) and what stands on it (shared/); every other folder but the doors is a resource folder. */
const PROVIDER_GROUND = "src/provider/{shared,account}/**/*.ts";
const LAYERS = [
  layer(
    ["src/contract/**/*.ts"],
    [{ regex: "^\\.\\./", message: "src/contract is the ground layer: it imports no other folder of src." }],
    [noPulumi, { name: "axios", message: "The contract sends no requests." }],
  ),
  layer(
    ["src/client/*.ts"],
    [
      {
        regex: "^\\.\\./(?!contract/)",
        message: "src/client imports no other folder of src but the contract.",
      },
    ],
    [noPulumi],
  ),
  layer(
    ["src/client/core/**/*.ts"],
    [
      {
        regex: "^\\.\\./(?!\\.\\./contract/)",
        message:
          "The client's machinery (core/) imports the contract alone: no API resource (resources/), not the client built on it, no other folder of src.",
      },
    ],
    [noPulumi],
  ),
  clientResourceLayer(["src/client/resources/*.ts"], 0),
  clientResourceLayer(["src/client/resources/*/**/*.ts"], 1),
  emulatorLayer(["src/emulator/*.ts"], 0),
  emulatorLayer(["src/emulator/http/**/*.ts"], 1),
  emulatorLayer(["src/emulator/traffic/**/*.ts"], 1, [
    {
      regex: "^\\.\\./http/",
      message: "The emulator's traffic controls (traffic/) never import its HTTP side.",
    },
  ]),
  emulatorLayer(["src/emulator/model/**/*.ts"], 1, [
    {
      regex: "^\\.\\./(http|traffic)/",
      message: "The emulator's rules (model/) import neither its HTTP side nor its traffic controls.",
    },
  ]),
  emulatorLayer(["src/emulator/state/**/*.ts"], 1, [
    {
      regex: "^\\.\\./(http|traffic|model)/",
      message: "The emulator's store (state/) imports none of model/, traffic/ and http/.",
    },
  ]),
  {
    // The store owns its records (state/store.ts): model/ and http/ read them as it lends them and
    // change them only through a collection's operations, which mark the store changed. Its data
    // is private; a cast back to a record type would write around the collection.
    files: ["src/emulator/model/**/*.ts", "src/emulator/http/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='data'][object.name='store']",
          message: "The store owns its data: use its collections (store.machines, store.users, ...).",
        },
        {
          selector: "MemberExpression[property.name='data'][object.property.name='store']",
          message: "The store owns its data: use its collections (store.machines, store.users, ...).",
        },
        {
          selector: "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name=/^[A-Z]\\w*Record$/]",
          message:
            "A stored record changes only through its collection (collection.change), never through a cast.",
        },
      ],
    },
  },
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
    ["src/provider/shared/**/*.ts"],
    [
      {
        regex: "^(\\.\\./)+(emulator|recovery|review)(/|$)",
        message: "The provider builds on the client and the contract alone.",
      },
      {
        regex: "^\\.\\./(?!account/|\\.\\./)",
        message:
          "src/provider/shared is beneath the resource folders, the registry and the doors: it imports none of them, only account/ below it.",
      },
    ],
  ),
  layer(
    ["src/provider/account/**/*.ts"],
    [
      {
        regex: "^(\\.\\./)+(emulator|recovery|review)(/|$)",
        message: "The provider builds on the client and the contract alone.",
      },
      {
        regex: "^\\.\\./(?!\\.\\./)",
        message:
          "src/provider/account is the provider's ground: it imports no other folder of the provider, not even shared/.",
      },
    ],
  ),
  {
    ...layer(
      ["src/provider/*/**/*.ts"],
      [
        {
          regex: "^(\\.\\./)+(emulator|recovery|review)(/|$)",
          message: "The provider builds on the client and the contract alone.",
        },
        {
          regex: "^\\.\\./(dynamic|native)/",
          message:
            "An implementation never knows which door calls it: it imports neither dynamic/ nor native/.",
        },
        {
          regex: "^\\.\\./(implementations|resourceDeclarations|runtime)$",
          message:
            "A resource folder is beneath the registry that lists it: its declaration is found, never imported back.",
        },
      ],
    ),
    ignores: [PROVIDER_GROUND, "src/provider/{dynamic,native}/**/*.ts"],
  },
  layer(
    ["src/provider/dynamic/**/*.ts"],
    [
      {
        regex: "^(\\.\\./)+(emulator|recovery|review)(/|$)",
        message: "The provider builds on the client and the contract alone.",
      },
      { regex: "^\\.\\./native/", message: "The TypeScript door never imports the plugin's." },
    ],
  ),
  layer(
    ["src/provider/native/**/*.ts"],
    [
      {
        regex: "^(\\.\\./)+(emulator|recovery|review)(/|$)",
        message: "The provider builds on the client and the contract alone.",
      },
      { regex: "^\\.\\./dynamic/", message: "The plugin's door never imports the TypeScript one." },
    ],
  ),
  layer(
    ["src/recovery/**/*.ts"],
    [{ regex: "^\\.\\./(provider|emulator|review)(/|$)", message: "Recovery builds on the client alone." }],
    [noPulumi],
  ),
  layer(
    ["src/terraform/**/*.ts"],
    [
      {
        regex:
          "^\\.\\./(?!client$|contract/|provider/native/(protoWire|structWire|providerMessages|servedAs|transport/grpc)$)",
        message:
          "The converter reads a state and lists the API: it imports the client, the contract, the plugin's protobuf codec and its gRPC only.",
      },
    ],
    [noPulumi],
  ),
  layer(
    ["src/policy/**/*.ts"],
    [
      {
        regex:
          "^\\.\\./(?!contract/|review/cost$|provider/shared/unknown$|provider/native/(protoWire|structWire|providerMessages|servedAs|wireValues|transport/grpc)$)",
        message:
          "The policy pack reads what the engine sends: it imports the contract, the review's costs, the plugin's codec and gRPC, and the unknown sentinel only.",
      },
    ],
    [noPulumi, { name: "axios", message: "The policy pack calls no API." }],
  ),
  layer(
    ["src/review/**/*.ts"],
    [
      {
        regex: "^\\.\\./(?!contract/|provider/machine/machineDiffTable$)",
        message:
          "The review reads a preview: it imports the contract and the provider's machine/machineDiffTable only.",
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
  { ignores: ["node_modules/", "dist/", "coverage/", ".vmapi/", "release/"] },
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
  {
    // The console's page (browser code, console/): every value from the emulator is data from
    // API users (names, descriptions, script texts), so it reaches the DOM only through Lit's
    // text bindings; none of the ways to write markup, and no code from strings. It imports
    // from src/ only the wire types and constants it shares with the server.
    files: ["console/**/*.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["innerHTML", "outerHTML", "insertAdjacentHTML", "write", "writeln", "srcdoc"].map((property) => ({
          property,
          message: "The console renders text only: use a Lit template binding.",
        })),
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^lit/(directives/unsafe-|static-html)",
              message: "The console renders text only: no unsafe or static HTML.",
            },
            {
              regex:
                "^\\.\\./\\.\\./src/(?!contract/constants$|emulator/(http/consoleTypes|traffic/faults|traffic/rateLimit)$)",
              message:
                "The page imports the console's wire types and the contract's constants, nothing else of src/.",
            },
          ],
        },
      ],
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
    },
  },
  {
    // The tests are linted as tests: no focused or disabled test, no `expect` that a condition or
    // a catch can skip, no test without an assertion.
    files: ["test/**/*.ts"],
    ...jest.configs["flat/recommended"],
    rules: {
      ...jest.configs["flat/recommended"].rules,
      "jest/no-disabled-tests": "error",
      // A helper that asserts is named expectX (and calls `expect`); fast-check's fc.assert runs a
      // property that expects.
      "jest/expect-expect": [
        "error",
        { assertFunctionNames: ["expect", "expect*", "*.expect*", "fc.assert"] },
      ],
      "jest/no-commented-out-tests": "error",
    },
  },
  {
    // The kit and the support folders hold assertion helpers that tests call: expect is in place there.
    files: ["test/kit/**/*.ts", "test/**/support/**/*.ts"],
    rules: { "jest/no-standalone-expect": "off" },
  },
);
