// Browser test of dealing (issue 36): on a server just started, the first game of every band
// and symmetry, started from the page as a player would, and how long each took from the click
// to the board (a figure, printed and written to $SHUDU_E2E_SHOTS/deals.json; not asserted
// against a time). Checks that no two deals of a band are equivalent (the server's class keys,
// which the page stores and sends back) and that the symmetry asked for holds. Run first by
// crates/web/tests/e2e.rs, so that the server is fresh:
//
//   node crates/web/e2e/deals.spec.mjs http://127.0.0.1:PORT/

import { chromium } from 'playwright-core';
import { assert, harness, launchChromium } from './harness.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node deals.spec.mjs URL');
  process.exit(2);
}
const shots = process.env.SHUDU_E2E_SHOTS || os.tmpdir();
const BANDS = ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme'];
const SYMMETRIES = ['none', 'rot180', 'rot90', 'mirror-h', 'mirror-v', 'mirror-both', 'diagonal',
  'anti-diagonal', 'both-diagonals', 'dihedral'];

let page;
let browser;
const { step, done } = harness({
  page: () => page,
  browser: () => browser,
  screenshot: path.join(shots, 'shudu-e2e-deals-failure.png'),
});

// A fresh profile: playwright's launch gives every browser a new temporary one.
browser = await launchChromium(chromium);
page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
page.setDefaultTimeout(30_000);
await page.goto(url);
await page.waitForSelector('body.ready');

// The cell pattern of a puzzle line holds `symmetry`.
function holds(line, symmetry) {
  const at = (r, c) => line[r * 9 + c] !== '.' && line[r * 9 + c] !== '0';
  const maps = {
    none: [],
    rot180: [(r, c) => [8 - r, 8 - c]],
    rot90: [(r, c) => [c, 8 - r]],
    'mirror-h': [(r, c) => [8 - r, c]],
    'mirror-v': [(r, c) => [r, 8 - c]],
    'mirror-both': [(r, c) => [8 - r, c], (r, c) => [r, 8 - c]],
    diagonal: [(r, c) => [c, r]],
    'anti-diagonal': [(r, c) => [8 - c, 8 - r]],
    'both-diagonals': [(r, c) => [c, r], (r, c) => [8 - c, 8 - r]],
    dihedral: [(r, c) => [c, 8 - r], (r, c) => [c, r]],
  };
  for (const f of maps[symmetry]) {
    for (let r = 0; r < 9; r++) {
      for (let c = 0; c < 9; c++) {
        const [r2, c2] = f(r, c);
        if (at(r, c) !== at(r2, c2)) return false;
      }
    }
  }
  return true;
}

const figures = [];
await step('the first game of every band and symmetry on a fresh server', async () => {
  for (const symmetry of SYMMETRIES) {
    // The symmetry is a setting; the page reads it at load.
    await page.evaluate((s) => {
      const st = JSON.parse(localStorage.getItem('shudu.settings.v1') || '{}');
      st.symmetry = s;
      localStorage.setItem('shudu.settings.v1', JSON.stringify(st));
    }, symmetry);
    await page.reload();
    await page.waitForSelector('body.ready');
    for (const band of BANDS) {
      await page.selectOption('#band', band);
      const before = await page.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1') || 'null')?.created);
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/puzzle') && r.request().method() === 'POST');
      const t0 = Date.now();
      await page.click('#new-game');
      const info = await (await answer).json();
      await page.waitForFunction((t) => JSON.parse(localStorage.getItem('shudu.game.v1')).created !== t, before);
      const ms = Date.now() - t0;
      assert(info.band === band, `${band} ${symmetry}: dealt ${info.band}`);
      assert(holds(info.puzzle, symmetry), `${band} ${symmetry}: ${info.puzzle} lacks the symmetry`);
      figures.push({ band, symmetry, ms, source: info.source, rating: info.rating });
    }
  }
  const seen = await page.evaluate(() => JSON.parse(localStorage.getItem('shudu.seen.v1')));
  for (const band of BANDS) {
    const keys = seen[band] || [];
    // (The page deals a first medium game of its own when it opens.)
    assert(keys.length >= SYMMETRIES.length, `${band}: ${keys.length} keys stored`);
    assert(new Set(keys).size === keys.length, `${band}: a class dealt twice`);
  }
  fs.writeFileSync(path.join(shots, 'deals.json'), JSON.stringify(figures, null, 1));
  const ms = figures.map((f) => f.ms).sort((a, b) => a - b);
  console.log(`  # first deals: ${figures.length}, median ${ms[ms.length >> 1]} ms, slowest ${ms.at(-1)} ms`);
  for (const f of figures) console.log(`  # ${f.band} ${f.symmetry}: ${f.ms} ms (${f.source}, ${f.rating})`);
});

await done();
