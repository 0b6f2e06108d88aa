/**
 * Kept for bench/ (engineUp.ts, fleet.ts), which another branch changes at the same time: the
 * test kit moved to test/kit/. Once bench/ imports test/kit/emulator and uses `emu.control`,
 * this file goes.
 */
import { control, type EmulatorStateDump } from "../kit/emulator";

export { startTestEmulator, type EmulatorStateDump } from "../kit/emulator";

/** GET /_emulator/state through the emulator's control client. */
export function state(url: string): Promise<EmulatorStateDump> {
  return control(url).state();
}
