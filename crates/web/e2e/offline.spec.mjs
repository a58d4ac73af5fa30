// The game without a server: the folder `shudu play --export DIR --engine PKG` writes, served as
// static files, in headless Chromium. Load it, let the service worker keep it, go offline,
// reload, and play: a new game of every band (the engine in a Web Worker; extreme from the
// bank), a hint at each of its stages, a digit placed and checked; then the variants page, whose
// engine (shudu/variants) loads from the same cache, deals a 6x6 killer X and is played by hints.
//
//   node crates/web/e2e/offline.spec.mjs DIR
//
// Serves DIR itself on a free port of 127.0.0.1 (a secure context, as service workers need).
// Prints one line per check and the time each new game took; screenshots go to
// $SHUDU_E2E_SHOTS (default: the system's temporary folder).

import { chromium } from 'playwright-core';
import { assert, harness, launchChromium } from './harness.mjs';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2];
if (!dir || !fs.existsSync(path.join(dir, 'sw.js'))) {
  console.error('usage: node offline.spec.mjs DIR (a folder `shudu play --export` wrote)');
  process.exit(2);
}
const shots = process.env.SHUDU_E2E_SHOTS || os.tmpdir();
const only = process.env.SHUDU_E2E_ONLY ? new RegExp(process.env.SHUDU_E2E_ONLY) : null;
// The same engine, in Node, judges what the page deals.
const shudu = await import(pathToFileURL(path.join(path.resolve(dir), 'shudu/index.js')).href);

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json', '.ttf': 'font/ttf',
};
// Every file the server sent, in order. The browser's own check for a new service worker script
// (`sw.js`, fetched by the browser at navigations, outside the page's offline switch) is not a
// file the page needs, and is not counted.
const served = [];
const sentSince = (n) => served.slice(n).filter((u) => u !== '/sw.js');
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/\/$/, '/index.html');
  const file = path.join(dir, path.normalize(rel));
  if (!file.startsWith(path.resolve(dir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404).end('not found');
    return;
  }
  served.push(req.url);
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;

let page;
let browser;
const { step, done } = harness({
  page: () => page,
  browser: () => browser,
  screenshot: path.join(shots, 'shudu-offline-failure.png'),
  only,
});

browser = await launchChromium(chromium);
const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
page = await context.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));
const game = () => page.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1') || 'null'));

await step('the exported page deals a game from its own engine, and a service worker keeps it', async () => {
  await page.goto(url);
  await page.waitForSelector('body.ready', { timeout: 30000 });
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('shudu.game.v1') || 'null')?.puzzle, null, { timeout: 30000 });
  const g = await game();
  assert(shudu.count(g.puzzle, 2) === 1, `dealt ${g.puzzle}: not unique`);
  const controlled = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    return true;
  });
  assert(controlled, 'no service worker');
  // The worker caches every file on install; the page it controls is the next one loaded.
  await page.reload();
  await page.waitForSelector('body.ready');
  assert(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the reloaded page is not controlled');
  // Installable: Chromium's own check (manifest, icon, service worker) finds nothing missing.
  const cdp = await context.newCDPSession(page);
  // (A test's browser context is incognito, which Chromium lists too: not the page's doing.)
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  const errors = installabilityErrors.filter((e) => e.errorId !== 'in-incognito');
  assert(errors.length === 0, `not installable: ${JSON.stringify(errors)}`);
  assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await step('offline, the page reloads and plays a new game of every band', async () => {
  await context.setOffline(true);
  const before = served.length;
  await page.reload();
  await page.waitForSelector('body.ready', { timeout: 30000 });
  const times = [];
  for (const band of ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme']) {
    await page.selectOption('#band', band);
    // Timed in the page: from the click to the new game saved (a check every millisecond).
    const ms = await page.evaluate(() => new Promise((resolve) => {
      const created = () => JSON.parse(localStorage.getItem('shudu.game.v1') || 'null')?.created;
      const was = created();
      const t0 = performance.now();
      document.getElementById('new-game').click();
      const poll = () => {
        if (created() !== was) resolve(Math.round(performance.now() - t0));
        else setTimeout(poll, 1);
      };
      poll();
    }));
    const g = await game();
    assert(shudu.count(g.puzzle, 2) === 1, `${band}: ${g.puzzle} not unique`);
    const r = shudu.rate(g.puzzle);
    assert(r.band === band, `${band}: dealt a puzzle rated ${r.er} (${r.band})`);
    times.push(`${band} ${ms} ms`);
  }
  assert(sentSince(before).length === 0, `the server was asked for ${sentSince(before).join(', ')} while offline`);
  console.log(`  # new games offline: ${times.join(', ')}`);
  await page.screenshot({ path: path.join(shots, 'shudu-offline.png') });
  assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await step('offline, a hint goes through its three stages and a digit is checked', async () => {
  await page.selectOption('#band', 'medium');
  const was = (await game())?.created;
  await page.click('#new-game');
  await page.waitForFunction((t) => JSON.parse(localStorage.getItem('shudu.game.v1')).created !== t, was);
  const texts = [];
  for (let stage = 1; stage <= 3; stage++) {
    await page.click('#hint');
    await page.waitForFunction((s) => !document.getElementById('hint-panel').hidden
      && document.getElementById('hint-stage').textContent.includes(String(s)), stage, { timeout: 10000 });
    texts.push(await page.locator('#hint-text').textContent());
  }
  assert(texts.every((t) => t && t.length > 10), `hint texts: ${JSON.stringify(texts)}`);
  await page.screenshot({ path: path.join(shots, 'shudu-offline-hint.png') });
  // Place the solution's digit in the first empty cell: the check finds nothing wrong.
  const g = await game();
  const solution = shudu.solve(g.puzzle).solution;
  const i = [...g.puzzle].findIndex((c, k) => c === '.' && !g.values[k]);
  await page.click('#hint-close');
  await page.locator(`.cell[data-i="${i}"]`).click();
  await page.keyboard.press(solution[i]);
  const check = await page.evaluate(async ([puzzle, entries]) => {
    const w = new Worker('worker.js', { type: 'module' });
    return new Promise((resolve) => {
      w.onmessage = (e) => resolve(e.data);
      w.postMessage({ id: 1, endpoint: 'check', body: { givens: puzzle, entries } });
    });
  }, [g.puzzle, (await game()).values.map((v) => (v ? String(v) : '.')).join('')]);
  assert(check.ok && check.data.wrong.length === 0 && check.data.conflicts.length === 0, JSON.stringify(check));
  assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await step('offline, the variants page deals a 6x6 killer X from the engine and plays it by hints', async () => {
  const before = served.length;
  await page.goto(new URL('variants.html', url).href);
  await page.waitForSelector('body.ready', { timeout: 30000 });
  await page.selectOption('#vsize', '6');
  await page.click('#vrules-summary');
  for (const box of await page.$$('#vrules input')) {
    const want = ['x', 'killer'].includes(await box.getAttribute('value'));
    if ((await box.isChecked()) !== want) await box.click();
  }
  const was = await page.evaluate(() => localStorage.getItem('shudu-variant-game'));
  await page.click('#vnew');
  await page.waitForFunction((w) => {
    const g = localStorage.getItem('shudu-variant-game');
    return g !== w && JSON.parse(g).spec.size === 6;
  }, was, { timeout: 30000 });
  assert(await page.$$eval('.csum', (s) => s.length) > 0, 'cage sums drawn');
  await page.screenshot({ path: path.join(shots, 'shudu-offline-variants.png') });
  for (let i = 0; i < 300; i++) {
    if (/solved!/.test(await page.textContent('#vinfo'))) break;
    await page.click('#vhint');
    await page.waitForSelector('#vhint-panel:not([hidden])', { timeout: 10000 });
    for (let k = 0; k < 3; k++) {
      const label = await page.textContent('#vhint-next');
      await page.click('#vhint-next');
      if (!/Show/.test(label)) break;
    }
  }
  await page.waitForFunction(() => /solved!/.test(document.getElementById('vinfo').textContent), null, { timeout: 10000 });
  assert(sentSince(before).length === 0, `the server was asked for ${sentSince(before).join(', ')} while offline`);
  assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await done();
server.close();
