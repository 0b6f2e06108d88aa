/**
 * The web console in a real browser (Debian's Chromium, driven by playwright-core), against an
 * emulator that the real engine brings the quickstart up on: the machine appears on the page
 * while `up` runs and reaches `ready` there; a fault rule and a rate limit set from the page mark
 * the requests they answer; names and texts from API users render as text; the out-of-band
 * controls change what `pulumi refresh` then finds; and the page logs no error.
 *
 * `npm run console:screenshot` runs this file and writes the page after the `up` to
 * docs/images/console.png (VMAPI_CONSOLE_SCREENSHOT names the file).
 */
import * as path from "path";
import type { Browser, Page } from "playwright-core";
import { changedOutputs, expectExit, steps } from "../e2e/support/cli";
import type { EngineStack } from "../e2e/support/engineStack";
import { E2eContext, EXAMPLES } from "../e2e/support/kit";
import { REPO } from "../e2e/support/cli";
import { launchChromium, watchProblems, type PageProblems } from "./support/chromium";

jest.setTimeout(300_000);

/** Provisioning lasts 6 s: long enough for the page (updated every 0.5 s) to show it under load. */
const TIME_SCALE = 0.1;
/** How long the page may take to show something: generous, the machine is shared. */
const SHOWN_MS = 60_000;
const HOSTILE = "<img src=x onerror=alert(1)>";

let ctx: E2eContext;
let browser: Browser;
let page: Page;
let problems: PageProblems;
let stack: EngineStack;
let machineId: string;

beforeAll(async () => {
  ctx = await E2eContext.start({ timeScale: TIME_SCALE });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1500, height: 860 } });
  problems = watchProblems(page);
  await page.goto(ctx.emu.console);
  await page.locator('[data-testid="connection"]', { hasText: "live" }).waitFor({ timeout: SHOWN_MS });
});

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

const tab = (name: string) => page.click(`button[data-tab="${name}"]`);
const machineRow = (id: string) => page.locator(`tr.machine[data-machine="${id}"]`);

test("up of the quickstart → the machine shows on the page while provisioning, then ready under its name", async () => {
  stack = await ctx.stack(path.join(EXAMPLES, "quickstart"), ctx.emu.keys.individual);
  const up = stack.up();
  const provisioning = page.locator('tr.machine [data-state="provisioning"]').waitFor({ timeout: SHOWN_MS });
  // The page must show it before the up returns: after that, it is ready.
  await Promise.race([
    provisioning,
    up.then(() =>
      Promise.reject(new Error("the up finished before the page showed the machine provisioning")),
    ),
  ]);
  expectExit(await up);
  const outputs = await stack.outputs();
  machineId = String(outputs.machineId);
  await machineRow(machineId).locator('[data-state="ready"]').waitFor({ timeout: SHOWN_MS });
  await machineRow(machineId)
    .locator("td.name", { hasText: String(outputs.machineName) })
    .waitFor();
  // The account and user, the public IP, and the up's requests under the account's name.
  expect(await machineRow(machineId).locator("td.user").getAttribute("title")).toContain("jane@example.com");
  expect(await machineRow(machineId).locator("td.ip").textContent()).toBe(String(outputs.publicIp));
  expect(await page.locator("h3", { hasText: "Jane Doe" }).count()).toBe(1);
  await page
    .locator('tr[data-route="/machines/createSingleMachinePublic"] td.caller', { hasText: "Jane Doe" })
    .waitFor();

  await machineRow(machineId).click();
  const history = page.locator(`[data-detail="${machineId}"] ol.history li`);
  await history.nth(2).waitFor();
  // The quickstart's template is a headless server's: it passes through serviceready.
  expect(await history.locator(".state").allTextContents()).toEqual([
    "provisioning",
    "serviceready",
    "ready",
  ]);
  const screenshot = process.env.VMAPI_CONSOLE_SCREENSHOT;
  if (screenshot !== undefined) await page.screenshot({ path: path.resolve(REPO, screenshot) });
});

test("a fault rule added from the page → the request it answers is marked in the log; the filters find it", async () => {
  await tab("controls");
  await page.fill('input[name="route"]', "/users/getUsers");
  await page.fill('input[name="status"]', "503");
  await page.click('button[data-action="add-fault"]');
  await page.locator('[data-outcome="faults"]', { hasText: "rule added" }).waitFor();
  await page.locator("table.rules td", { hasText: "/users/getUsers" }).waitFor();
  const answer = await fetch(`${ctx.emu.url}/users/getUsers`, {
    headers: { "X-Api-Key": ctx.emu.keys.individual },
  });
  expect(answer.status).toBe(503);

  await tab("machines");
  const faulted = page.locator('tr.fault[data-route="/users/getUsers"][data-status="503"]');
  await faulted.waitFor({ timeout: SHOWN_MS });
  expect(await faulted.locator(".badge").textContent()).toBe("fault (rule)");
  await page.selectOption('select[name="status"]', "injected faults");
  await page.selectOption('select[name="route"]', "/users/getUsers");
  expect(await page.locator("table.requests-table tbody tr").count()).toBe(1);
  await page.selectOption('select[name="status"]', "2xx");
  const statuses = await page
    .locator("table.requests-table tbody tr")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
  // The provider's own reads of the route answered 200; the faulted one is not among them. The
  // emulator counts every read, the faulted one included (no rate limit is set yet).
  const reads = (await ctx.emulator()).requestCounts["GET /users/getUsers"] ?? 0;
  expect(statuses).not.toHaveLength(0);
  expect(statuses).toEqual(Array.from({ length: reads - 1 }, () => "200"));
  await page.selectOption('select[name="status"]', "all");
  await page.selectOption('select[name="route"]', "");
});

test("a rate limit set from the page → the 429 it answers is marked throttled; turned off from the page", async () => {
  await tab("controls");
  await page.fill('input[name="rate"]', "1");
  await page.fill('input[name="burst"]', "1");
  await page.click('button[data-action="set-rate"]');
  await page.locator('[data-outcome="rate"]', { hasText: "set" }).waitFor();
  const headers = { "X-Api-Key": ctx.emu.keys.teamAdmin };
  const statuses = [];
  for (let i = 0; i < 3; i++)
    statuses.push((await fetch(`${ctx.emu.url}/machines/getMachines`, { headers })).status);
  expect(statuses).toContain(429);
  await page.click("text=Turn off");
  await page.locator('[data-outcome="rate"]', { hasText: "turned off" }).waitFor();

  await tab("machines");
  const throttled = page.locator('tr.throttled[data-status="429"]');
  await throttled.first().waitFor({ timeout: SHOWN_MS });
  expect(await throttled.first().textContent()).toContain("Acme");
});

test("rename and stop from the page → shown as text, and `pulumi refresh` finds both", async () => {
  await machineRow(machineId).click();
  const detail = page.locator(`[data-detail="${machineId}"]`);
  await detail.locator('input[name="machineName"]').fill(HOSTILE);
  await detail.locator('button[data-action="rename"]').click();
  await detail.locator("p.done", { hasText: "rename: done" }).waitFor();
  await detail.locator('button[data-action="stop"]').click();
  await detail.locator("p.done", { hasText: "stop: done" }).waitFor();
  await machineRow(machineId).locator("td.name", { hasText: HOSTILE }).waitFor({ timeout: SHOWN_MS });
  expect(await detail.locator("h2 .name").textContent()).toBe(HOSTILE);
  // The name is text: no element was made of it, and no script ran.
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(problems.dialogs).toEqual([]);

  const refresh = expectExit(await stack.refresh());
  const trainer = steps(refresh).find((s) => s.name === "trainer");
  expect(trainer?.op).toBe("update");
  expect(changedOutputs(trainer!)).toEqual(expect.arrayContaining(["currentState", "name"]));
});

test("a script's name, description and text from an API user → rendered as text on the scripts tab", async () => {
  const hostile = {
    scriptName: "<script>alert(2)</script>",
    scriptDescription: '"><img src=x onerror=alert(3)>',
    scriptText: "</pre><svg onload=alert(4)></svg>",
  };
  const made = await fetch(`${ctx.emu.url}/scripts/createScript`, {
    method: "POST",
    headers: { "X-Api-Key": ctx.emu.keys.individual, "Content-Type": "application/json" },
    body: JSON.stringify(hostile),
  });
  expect(made.status).toBe(200);
  await tab("scripts");
  const row = page.locator("tr", { hasText: hostile.scriptName });
  await row.waitFor({ timeout: SHOWN_MS });
  expect(await row.textContent()).toContain(hostile.scriptDescription);
  await row.locator('button[data-action="script-text"]').click();
  expect(await row.locator("pre.script-text").textContent()).toBe(hostile.scriptText);
  expect(await page.locator('img[src="x"], svg, main script').count()).toBe(0);
  expect(problems.dialogs).toEqual([]);
});

test("the page: no console error, no uncaught exception, no dialog, all along", () => {
  expect(problems).toEqual({ errors: [], dialogs: [] });
});

test("a control the emulator refuses → its own message on the page, naming the field", async () => {
  await tab("controls");
  await page.fill('input[name="route"]', "");
  await page.fill('input[name="status"]', "999");
  await page.click('button[data-action="add-fault"]');
  const refused = page.locator('[data-outcome="faults"].refused');
  await refused.waitFor();
  expect(await refused.textContent()).toMatch(/^refused: rules\.0\.status.*599/);
  // The browser reports the 400 itself; that is the only error.
  expect(problems.errors).toEqual([expect.stringContaining("status of 400")]);
});
