/**
 * Every answer an in-process emulator sends during a test file, held to api/openapi.json (jest's
 * setupFilesAfterEnv, so no test has to ask): the status must be one the operation documents and
 * the body must match that response's schema; an unknown path must be the documented 404, a known
 * path under another method the 405; an injected fault must carry the error shape. A file whose
 * emulators sent a single answer the document does not describe fails in its afterAll, naming the
 * request and what differs. The document therefore cannot drift from what the emulator sends.
 *
 * The answers are taken where the emulator writes them (`createEmulatorServer`'s `observe`); the
 * real-engine files (test/e2e, test/package) are left out: their emulators serve other processes
 * and the unit and integration files already reach every route.
 */
import * as server from "../../src/emulator/http/server";
import { OpenApiDocument } from "./openApi";

/** At most this many problems are listed in the failure. */
const SHOWN = 20;

const testPath = expect.getState().testPath ?? "";
if (!/[/\\]test[/\\](e2e|package)[/\\]/.test(testPath)) recordAnswers();

function recordAnswers(): void {
  const answers: server.SentAnswer[] = [];
  const create = server.createEmulatorServer;
  jest.spyOn(server, "createEmulatorServer").mockImplementation((emulator, log, observe) =>
    create(emulator, log, (answer) => {
      answers.push(answer);
      observe?.(answer);
    }),
  );
  afterAll(() => {
    if (answers.length === 0) return;
    const document = new OpenApiDocument();
    const problems = answers.flatMap((answer) => document.checkAnswer(answer));
    if (problems.length === 0) return;
    const shown = problems.slice(0, SHOWN).map((p) => `  ${p}`);
    const more = problems.length > SHOWN ? [`  ... and ${problems.length - SHOWN} more`] : [];
    throw new Error(
      [
        `${problems.length} of ${answers.length} emulator answers do not match api/openapi.json:`,
        ...shown,
        ...more,
      ].join("\n"),
    );
  });
}
