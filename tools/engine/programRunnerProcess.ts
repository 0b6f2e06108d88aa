/**
 * Starts the program process of the program runner (programRunnerChild.ts under ts-node, with the
 * stack config in PULUMI_CONFIG as the language host sets it) and carries its IPC messages.
 */
import { fork, type ChildProcess } from "child_process";
import * as path from "path";
import type { ChildMessage, ChildStart, RegisterMessage, ReplyMessage, WireProps } from "./programRunnerWire";

const CHILD_ENTRY = path.join(__dirname, "programRunnerChild.ts");
const TSCONFIG = path.resolve(__dirname, "..", "..", "tsconfig.json");

/** How the program ended: its stack outputs, or the error it failed with. */
export interface ProgramOutcome {
  outputs?: WireProps;
  error?: string;
}

/** A running program process. */
export interface ProgramProcess {
  /** Settles once: the program finished, failed, exited, or ran out of time. */
  readonly outcome: Promise<ProgramOutcome>;
  /** Lines the program printed (pulumi.log.* prints `info: [runtime] …` without an engine). */
  readonly logs: string[];
  /** Ends the process (it started it) and waits until its output is read. */
  stop(): Promise<void>;
}

/** The config environment of the Node language host: PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS. */
export function configEnvironment(
  values: Record<string, string>,
  secretKeys: string[],
): Record<string, string> {
  return {
    PULUMI_CONFIG: JSON.stringify(values),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys),
  };
}

/** Forks the program process; `onRegister` answers each registration (the engine's role). */
export function startProgramProcess(
  start: ChildStart,
  env: Record<string, string>,
  onRegister: (m: RegisterMessage) => Promise<ReplyMessage>,
  timeoutMs: number,
): ProgramProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, TS_NODE_PROJECT: TSCONFIG };
  for (const k of ["PULUMI_NODEJS_MONITOR", "PULUMI_NODEJS_ENGINE", "PULUMI_NODEJS_DRY_RUN"])
    delete childEnv[k];
  const child = fork(CHILD_ENTRY, [JSON.stringify(start)], {
    cwd: path.dirname(start.program),
    env: childEnv,
    execArgv: ["-r", require.resolve("ts-node/register/transpile-only")],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const logs: string[] = [];
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  child.stdout!.on("data", lineCollector(logs));
  child.stderr!.on("data", lineCollector(logs));
  const outcome = new Promise<ProgramOutcome>((resolve) => {
    const timer = setTimeout(
      () => resolve({ error: `the program did not finish within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const settle = (o: ProgramOutcome): void => {
      clearTimeout(timer);
      resolve(o);
    };
    child.on("message", (m: ChildMessage) => {
      if (m.kind === "register") void onRegister(m).then((reply) => reply && safeSend(child, reply));
      else if (m.kind === "done") settle({ outputs: m.outputs });
      else settle({ error: m.message });
    });
    child.once("exit", (code, signal) => settle({ error: `the program exited (${code ?? signal}) early` }));
    child.once("error", (e) => settle({ error: e.message }));
  });
  return {
    outcome,
    logs,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await closed;
    },
  };
}

function safeSend(child: ChildProcess, reply: ReplyMessage): void {
  if (!child.connected) return;
  try {
    child.send(reply);
  } catch {
    // the program is gone; the engine's answer no longer matters
  }
}

function lineCollector(into: string[]): (chunk: Buffer) => void {
  let buf = "";
  return (chunk) => {
    buf += chunk.toString("utf8");
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (line.trim() !== "") into.push(line);
    }
  };
}
