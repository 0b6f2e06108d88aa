/**
 * Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing), driven by
 * playwright-core: no browser is ever downloaded. The flags keep it off the network, which this
 * machine's closed network would refuse many times a start (docs: CONTRIBUTING.md, "Browser
 * tests"), and let it run as root in a container.
 */
import * as fs from "fs";
import { chromium, type Browser, type Page } from "playwright-core";

/** Where Debian puts it; VMAPI_CHROMIUM names another. */
export const CHROMIUM = process.env.VMAPI_CHROMIUM ?? "/usr/bin/chromium";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Starts headless Chromium; a missing browser fails with how to install it. */
export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's (as root: apt-get install -y --no-install-recommends chromium; ` +
        ".ci/run does it when missing) or name one with VMAPI_CHROMIUM",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** What went wrong on a page: console errors, uncaught exceptions, dialogs (an alert means a script ran). */
export interface PageProblems {
  errors: string[];
  dialogs: string[];
}

/** Records every console error, page error and dialog of `page` (dialogs are dismissed). */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { errors: [], dialogs: [] };
  page.on("console", (message) => {
    if (message.type() === "error") problems.errors.push(message.text());
  });
  page.on("pageerror", (error) => problems.errors.push(`uncaught: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}
