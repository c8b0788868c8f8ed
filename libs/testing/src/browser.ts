import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium when the machine has it; otherwise the one the `@sparticuz/chromium` npm package ships (nothing to download). */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** This machine's network reaches nothing outside: keep Chromium from trying. */
const QUIET = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export async function launchChromium(): Promise<Browser> {
  // Loaded here, not with the module: every test file reaches this library, few open a browser.
  const { chromium } = await import('playwright-core');
  if (fs.existsSync(SYSTEM_CHROMIUM)) {
    return chromium.launch({ executablePath: SYSTEM_CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', ...QUIET] });
  }
  const packaged = packagedChromium();
  // Its flags are made for AWS Lambda; --single-process there ends the whole browser with its first context.
  const args = packaged.args.filter((arg) => arg !== '--single-process');
  // This Lambda build now and then dies at start-up on these shared machines (SIGSEGV before its first page:
  // seen once in a CI run, the same launch passing at once after); a browser that never started is launched again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({ executablePath: packaged.executablePath, headless: true, args: [...args, ...QUIET] });
    } catch (error) {
      if (attempt >= 3) throw error;
      process.stderr.write(`[browser] the packaged Chromium did not start (${(error as Error).message.split('\n')[0]}); launching again\n`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * `@sparticuz/chromium` is an ES module, which Jest's module loader cannot
 * load; a child Node process asks it where it unpacked its browser (the
 * first time it unpacks it, once per machine) and with which flags.
 */
function packagedChromium(): { executablePath: string; args: string[] } {
  const script = `import('@sparticuz/chromium').then(async ({ default: c }) => process.stdout.write(JSON.stringify({ executablePath: await c.executablePath(), args: c.args })))`;
  const output = execFileSync(process.execPath, ['-e', script], {
    cwd: path.resolve(__dirname, '..', '..', '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(output) as { executablePath: string; args: string[] };
}

/** Where browser tests leave their screenshots (kept out of git; CI prints the path). */
export const SCREENSHOT_DIR = path.resolve(__dirname, '..', '..', '..', 'test-output', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Its own bound, not the page's action timeout: a full-page picture of a long page (the /docs page) on a
  // loaded 2-core machine took over 10 s once (a test run of 2026-11-25), and the picture is evidence, not the check.
  await page.screenshot({ path: file, fullPage: true, timeout: 45_000 });
  process.stderr.write(`[browser] screenshot ${file}\n`);
  return file;
}

/** Whether the page fits its viewport's width (no horizontal scrolling), and the element's box lies inside it. */
export async function fitsWidth(page: Page, selector: string): Promise<{ pageFits: boolean; elementFits: boolean }> {
  // Runs in the page (this project compiles without the DOM's types, hence the source text).
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const box = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect();
    return { pageFits: document.documentElement.scrollWidth <= width, elementFits: !!box && box.left >= 0 && box.right <= width };
  })()`);
}
