/**
 * The idiomatic baseline of bench/engine.ts: `count` (default 200) dynamic resources whose
 * provider does nothing and is one object shared by all of them (the SDK serializes it once).
 */
import * as pulumi from "@pulumi/pulumi";

const provider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(inputs) {
    return { id: `noop-${inputs.index}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, index: number) {
    super(provider, name, { index, text: "#!/bin/bash\necho hello\n" }, {}, "bench", "Noop");
  }
}

const count = new pulumi.Config().getNumber("count") ?? 200;
export const made = Array.from({ length: count }, (_, i) => new Noop(`noop-${i}`, i)).length;
