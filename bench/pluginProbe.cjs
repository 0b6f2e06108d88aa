/**
 * Preloaded into every Node process of a `pulumi` command (`NODE_OPTIONS=--require
 * bench/pluginProbe.cjs`, with BENCH_PLUGIN_PROBE naming a folder): in the dynamic-provider
 * plugin only (the process that runs our provider), it records the process's peak RSS
 * (`resourceUsage().maxRSS`, the kernel's high-water mark) and the event loop's delay
 * (`monitorEventLoopDelay`, less its 10 ms resolution), and rewrites `<folder>/<pid>.json` with them every 250 ms. Rewritten
 * rather than written at exit because the engine kills its plugins when a command ends.
 * Every other process (the wrapper, the CLI's `node -e`, the program) loads it and does nothing.
 * Plain CommonJS because it runs before anything else in a process without ts-node.
 */
const dir = process.env.BENCH_PLUGIN_PROBE;
const script = process.argv[1] ?? "";
if (dir && /[\\/]cmd[\\/]dynamic-provider([\\/]|$)/.test(script)) {
  const fs = require("node:fs");
  const path = require("node:path");
  const { monitorEventLoopDelay } = require("node:perf_hooks");
  const { setInterval } = require("node:timers");
  const resolutionMs = 10;
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  delay.enable();
  const file = path.join(dir, `${process.pid}.json`);
  // The histogram records the time between two ticks of its timer, so an idle loop reads the
  // resolution itself (10 ms): what exceeds it is the delay.
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 100) / 100);
  const write = () => {
    const sample = {
      pid: process.pid,
      maxRssKB: process.resourceUsage().maxRSS,
      loopDelayMs: {
        mean: ms(delay.mean),
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
      },
    };
    // Written aside and renamed, so a reader never sees half a file.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(sample));
    fs.renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 250).unref();
  process.on("exit", write);
}
