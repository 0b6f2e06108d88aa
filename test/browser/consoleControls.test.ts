/**
 * The console's clock and reset controls in a real browser, on an emulator with a manual clock
 * (no engine needed): time moves only when the page says so, and a reset empties the page.
 */
import type { Browser, Page } from "playwright-core";
import type { RunningEmulator } from "../../src/emulator";
import { startTestEmulator } from "../kit/emulator";
import { machineRequest } from "../kit/machines";
import { launchChromium, watchProblems, type PageProblems } from "./support/chromium";

jest.setTimeout(120_000);

let emu: RunningEmulator;
let browser: Browser;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  emu = await startTestEmulator();
  browser = await launchChromium();
  page = await browser.newPage();
  problems = watchProblems(page);
  await page.goto(emu.console);
});

afterAll(async () => {
  await browser?.close();
  await emu?.close();
});

test("advance 1 min from the page → the provisioning machine shows ready; reset → gone from the page", async () => {
  const made = await fetch(`${emu.url}/machines/createSingleMachinePublic`, {
    method: "POST",
    headers: { "X-Api-Key": emu.keys.individual, "Content-Type": "application/json" },
    body: JSON.stringify(machineRequest("on-the-clock")),
  });
  const { id } = (await made.json()) as { id: string };
  const row = page.locator(`tr.machine[data-machine="${id}"]`);
  await row.locator('[data-state="provisioning"]').waitFor();

  await page.click('button[data-tab="controls"]');
  await page.click('[data-panel="clock"] button:text-is("1 min")');
  await page.locator('[data-outcome="clock"]', { hasText: "advanced 1 min" }).waitFor();
  expect(new Date(emu.now()).toISOString()).toBe("2026-01-15T09:01:00.000Z");
  await page.click('button[data-tab="machines"]');
  await row.locator('[data-state="ready"]').waitFor();

  await page.click('button[data-tab="controls"]');
  await page.click('button[data-action="reset"]');
  await page.click('button[data-action="confirm-reset"]');
  await page.locator('[data-outcome="reset"]', { hasText: "reset to the seed" }).waitFor();
  expect((await emu.control.state()).machines).toEqual([]);
  await page.click('button[data-tab="machines"]');
  await page.locator("p.empty").waitFor();
  expect(problems).toEqual({ errors: [], dialogs: [] });
});
