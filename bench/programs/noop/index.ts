/**
 * The idiomatic baseline of bench/engine.ts: `count` (default 200) dynamic resources whose
 * provider does nothing and is one object shared by all of them (the SDK serializes it once).
 * With `createMs`, each create waits that long and nothing else: the floor of bench/engineUp.ts,
 * a provider that knows to the millisecond when its resource is ready. With `readMs`, each read
 * waits that long on a timer and nothing else, as a read waits for an API's answer: the baseline
 * of bench/fleet.ts for a provider whose reads do I/O. With `loadStack`, its plugin loads the
 * stack this package's provider is built on (zod and axios) at its first call and does nothing
 * else with it: beside bench/engine.ts's Machines, the floor of any provider of that stack.
 */
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const createMs = config.getNumber("createMs") ?? 0;
const readMs = config.getNumber("readMs") ?? 0;
const loadStack = config.getBoolean("loadStack") ?? false;

const provider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(inputs) {
    if (createMs > 0) await new Promise((resolve) => setTimeout(resolve, createMs));
    return { id: `noop-${inputs.index}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
};

/**
 * The provider with `readMs`: a second object, so that the idiomatic no-op's serialized provider
 * (which every resource carries, and the engine benchmark's baseline) stays as it was.
 */
const waitingProvider: pulumi.dynamic.ResourceProvider = {
  ...provider,
  async read(id, props) {
    await new Promise((resolve) => setTimeout(resolve, readMs));
    return { id, props };
  },
};

/**
 * The provider with `loadStack`: each call loads zod and axios (once: `require` caches them), as
 * our provider's first call loads them with its contract and client; a third object for the same
 * reason as the second, written out whole so that its serialized text is as small as the first's.
 */
const stackProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    require("zod");
    require("axios");
    return { inputs: news };
  },
  async diff() {
    require("zod");
    require("axios");
    return { changes: false };
  },
  async create(inputs) {
    return { id: `noop-${inputs.index}`, outs: inputs };
  },
  async read(id, props) {
    require("zod");
    require("axios");
    return { id, props };
  },
};

/**
 * With `props` (default 0), each resource also carries that many properties (alternately short
 * strings and numbers), the shape of a resource with many outputs: a Machine declares about 40.
 */
const props = config.getNumber("props") ?? 0;
const extra = Object.fromEntries(
  Array.from({ length: props }, (_, i) => [`p${i}`, i % 2 === 0 ? `value-${i}` : i]),
);

/**
 * With `quiet`, stack traces are off while the resource registers, as this package's resources
 * do (`quietStacks` in src/provider/dynamic/resourceClass.ts): the SDK otherwise records one per property promise.
 */
const quiet = config.getBoolean("quiet") ?? false;

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, index: number) {
    const limit = Error.stackTraceLimit;
    if (quiet) Error.stackTraceLimit = 0;
    try {
      super(
        readMs > 0 ? waitingProvider : loadStack ? stackProvider : provider,
        name,
        { index, text: "#!/bin/bash\necho hello\n", ...extra },
        {},
        "bench",
        "Noop",
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

const count = config.getNumber("count") ?? 200;
export const made = Array.from({ length: count }, (_, i) => new Noop(`noop-${i}`, i)).length;
