/**
 * Control endpoints that act on one machine out of band, as its owner would outside any program
 * (model/outOfBand.ts): `POST /_emulator/machines/{machineId}/stop` and
 * `POST /_emulator/machines/{machineId}/rename` with `{"machineName": "..."}`, the name checked by
 * the API's own rule for machine names. The console's buttons call these.
 */
import { renameOutOfBand, stopOutOfBand } from "../model/outOfBand";
import { RenameRequestSchema } from "./controlOperations";
import type { ControlContext } from "./controlTypes";
import { noContent, type Route } from "./router";
import { bodyOrEmpty, parseWith } from "./validate";

/** The handlers of the out-of-band machine routes (their table entries: controlOperations.ts). */
export const MACHINE_CONTROL_HANDLERS = {
  stopMachineOutOfBand: (c: ControlContext, p: Readonly<Record<string, string>>) => {
    stopOutOfBand(c.emulator.store, p.machineId);
    return noContent();
  },
  renameMachine: (c: ControlContext, p: Readonly<Record<string, string>>) => {
    const { machineName } = parseWith(RenameRequestSchema, bodyOrEmpty(c.body));
    renameOutOfBand(c.emulator.store, p.machineId, machineName);
    return noContent();
  },
} satisfies Record<string, Route<ControlContext>["handle"]>;
