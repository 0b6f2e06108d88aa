/**
 * Preloaded into the emulator child process (`node --expose-gc --require bench/memoryProbe.cjs
 * dist/emulator/cli.js ...`): answers a "memory" message on the IPC channel with
 * `process.memoryUsage()` taken after a full garbage collection, so heap figures are live data,
 * and a "cpu" message with `process.cpuUsage()`: the CPU time the emulator has used, which a
 * busy machine's other work does not add to.
 * Plain CommonJS because it runs before anything else in a process without ts-node.
 */
process.on("message", (message) => {
  if (!process.send) return;
  if (message === "cpu") {
    process.send({ cpu: process.cpuUsage() });
    return;
  }
  if (message !== "memory") return;
  if (typeof globalThis.gc === "function") globalThis.gc();
  process.send({ memory: process.memoryUsage() });
});
// The IPC channel must not keep the emulator alive once it has been told to stop.
if (process.channel) process.channel.unref();
