// The small test harness the browser scripts share (play, issue16, practise and print.spec.mjs):
// TAP-like lines "ok N - name" / "not ok N - name", a closing "N passed, N failed" line, a
// screenshot and a non-zero exit on the first failure.

/**
 * Debian's Chromium (`$CHROMIUM`, else /usr/bin/chromium) through playwright-core's `chromium`,
 * headless, with the flags a machine without outside network needs (no background
 * connections, updates or sync, which it would refuse many at a time).
 */
export function launchChromium(chromium) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** Throws `assertion failed: message` unless `cond` holds. */
export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

/** Throws unless `actual` and `expected` are the same as JSON, showing both. */
export function assertEq(actual, expected, message) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/**
 * A harness for one script. `page()` and `browser()` give the script's current page and browser
 * (either may be unset); on a failure the page is saved to `screenshot` (if given), the browser
 * closed and the process ends with status 1. Steps whose names `only` does not match are
 * skipped; `after()` runs after every step that ran, passed or not.
 */
export function harness({ page = () => null, browser = () => null, screenshot = null, only = null, after = null } = {}) {
  let passed = 0;
  async function step(name, fn) {
    if (only && !only.test(name)) return;
    try {
      await fn();
      passed++;
      console.log(`ok ${passed} - ${name}`);
    } catch (e) {
      console.log(`not ok ${passed + 1} - ${name}`);
      console.log(String((e && e.stack) || e).split('\n').map((l) => `  # ${l}`).join('\n'));
      const shown = page();
      if (screenshot && shown) {
        try {
          await shown.screenshot({ path: screenshot, fullPage: true });
          console.log(`  # screenshot: ${screenshot}`);
        } catch { /* the page may be gone */ }
      }
      console.log(`${passed} passed, 1 failed`);
      await browser()?.close().catch(() => {});
      process.exit(1);
    } finally {
      if (after) await after();
    }
  }
  /** Closes the browser and prints the closing line of a run without failures. */
  async function done() {
    await browser()?.close();
    console.log(`${passed} passed, 0 failed`);
  }
  return { step, done };
}
