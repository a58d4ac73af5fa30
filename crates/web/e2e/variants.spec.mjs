// Browser tests of the variants page (variants.html): dealing each kind, the rules drawn, a game
// played to the win by hints alone, conflicts by the rules, pencil marks, 16x16 with letters, a
// reload keeping the game, and the phone layout. Run by crates/web/tests/e2e.rs:
//
//   node crates/web/e2e/variants.spec.mjs http://127.0.0.1:PORT/
//
// Every check runs in a browser context of its own. Prints one line per check and a closing
// "N passed, N failed" line; exits non-zero on the first failure, after a screenshot to
// $SHUDU_E2E_SHOTS.

import { chromium } from 'playwright-core';
import { assert, assertEq, harness, launchChromium } from './harness.mjs';
import os from 'node:os';
import path from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node variants.spec.mjs URL');
  process.exit(2);
}
const shots = process.env.SHUDU_E2E_SHOTS || os.tmpdir();
const only = process.env.SHUDU_E2E_ONLY ? new RegExp(process.env.SHUDU_E2E_ONLY) : null;

let page;
let browser;
const { step, done } = harness({
  page: () => page,
  browser: () => browser,
  screenshot: path.join(shots, 'shudu-e2e-variants-failure.png'),
  only,
  after: async () => {
    await page?.context().close().catch(() => {});
    page = null;
  },
});

async function open(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  page = await context.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(new URL('variants.html', url).href);
  await page.waitForSelector('.vcell');
}

/** Deals a puzzle of `size` with exactly the rules `rules` checked. */
async function deal(size, rules) {
  await page.selectOption('#vsize', String(size));
  // The rules are in a menu: open it (as a player taps "Rules").
  if (!(await page.$eval('#vrules-menu', (d) => d.open))) await page.click('#vrules-summary');
  for (const box of await page.$$('#vrules input')) {
    const want = rules.includes(await box.getAttribute('value'));
    if ((await box.isChecked()) !== want) await box.click();
  }
  const before = await page.evaluate(() => localStorage.getItem('shudu-variant-game'));
  await page.click('#vnew');
  await page.waitForFunction(
    ([n, was]) => document.querySelectorAll('.vcell').length === n * n
      && localStorage.getItem('shudu-variant-game') !== was,
    [size, before],
  );
}

const spec = () => page.evaluate(() => JSON.parse(localStorage.getItem('shudu-variant-game')).spec);

browser = await launchChromium(chromium);

await step('a 6x6 killer X is dealt and drawn: cages dashed with their sums, both diagonals', async () => {
  await open();
  await deal(6, ['x', 'killer']);
  const s = await spec();
  assertEq(s.size, 6, 'size');
  assert(s.cages.length > 0, 'cages dealt');
  const sums = await page.$$eval('.csum', (els) => els.map((e) => Number(e.textContent)));
  assertEq(sums.sort((a, b) => a - b), s.cages.map((c) => c.sum).sort((a, b) => a - b), 'one sum a cage');
  assertEq(await page.$$eval('#vlines line.diag', (l) => l.length), 2, 'two diagonals');
  assert(await page.$$eval('#vlines line.cage', (l) => l.length) >= s.cages.length * 4, 'cage outlines');
  // Boxes of 2x3: thick borders after columns 3 and rows 2 and 4.
  assertEq(await page.$$eval('.vcell.tr', (c) => c.length), 6, 'thick box edges between columns');
  assertEq(await page.$$eval('.vcell.tb', (c) => c.length), 12, 'thick box edges between rows');
  const info = await page.textContent('#vinfo');
  assert(/6x6/.test(info) && /rated \d+\.\d/.test(info), `the info line names the rules and rating: ${info}`);
});

await step('hints alone play a 6x6 killer X to the win, the check judging by the rules', async () => {
  await open();
  await deal(6, ['x', 'killer']);
  for (let i = 0; i < 300; i++) {
    if (/solved!/.test(await page.textContent('#vinfo'))) break;
    await page.click('#vhint');
    await page.waitForSelector('#vhint-panel:not([hidden])');
    // Through the stages to the step, then apply it.
    for (let k = 0; k < 3; k++) {
      const label = await page.textContent('#vhint-next');
      await page.click('#vhint-next');
      if (!/Show/.test(label)) break;
    }
    await page.waitForTimeout(20);
  }
  await page.waitForFunction(() => /solved!/.test(document.getElementById('vinfo').textContent));
  assertEq(await page.$$eval('.vcell.conflict', (c) => c.length), 0, 'no conflict at the end');
  assert(await page.$$eval('.vcell .v', (v) => v.every((x) => x.textContent !== '')), 'every cell filled');
});

await step('a digit repeated in a row is shown as a conflict on both cells, undo clears it', async () => {
  await open();
  await deal(6, ['killer']);
  await page.click('.vcell[data-cell="0"]');
  await page.keyboard.press('3');
  await page.click('.vcell[data-cell="5"]');
  await page.keyboard.press('3');
  await page.waitForSelector('.vcell[data-cell="5"].conflict');
  assert(await page.$eval('.vcell[data-cell="0"]', (c) => c.classList.contains('conflict')), 'first cell too');
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => !document.querySelector('.vcell.conflict'));
});

await step('pencil marks: Shift+digit and pencil mode mark a cell; Fill notes fills every cell', async () => {
  await open();
  await deal(9, ['x']);
  const s = await spec();
  const empty = [...s.givens].findIndex((ch) => ch === '.');
  await page.click(`.vcell[data-cell="${empty}"]`);
  await page.keyboard.press('Shift+Digit4');
  await page.keyboard.press('n');
  await page.keyboard.press('7');
  const marked = await page.$$eval(`.vcell[data-cell="${empty}"] .vmarks span.on`, (m) => m.map((x) => x.textContent));
  assertEq(marked, ['4', '7'], 'two marks');
  assertEq(await page.$eval(`.vcell[data-cell="${empty}"] .v`, (v) => v.textContent), '', 'no digit entered');
  await page.click('#vfill');
  const counts = await page.$$eval('.vcell', (cells) => cells
    .filter((c) => c.querySelector('.v').textContent === '')
    .map((c) => c.querySelectorAll('.vmarks span.on').length));
  assert(counts.every((k) => k >= 1), 'every empty cell has candidates');
});

await step('16x16: 256 cells, 16 keys, letters typed as digits 10 to 16; a reload keeps the game', async () => {
  await open();
  await deal(16, []);
  assertEq(await page.$$eval('#vkeypad .key', (k) => k.map((x) => x.textContent)).then((k) => k.length), 16, 'keys');
  const s = await spec();
  const empty = [...s.givens].findIndex((ch) => ch === '.');
  await page.click(`.vcell[data-cell="${empty}"]`);
  await page.keyboard.press('g');
  assertEq(await page.$eval(`.vcell[data-cell="${empty}"] .v`, (v) => v.textContent), 'G', 'g enters G (16)');
  await page.reload();
  await page.waitForSelector('.vcell');
  assertEq(await page.$$eval('.vcell', (c) => c.length), 256, 'the 16x16 game is back');
  assertEq(await page.$eval(`.vcell[data-cell="${empty}"] .v`, (v) => v.textContent), 'G', 'with its entry');
  assertEq((await spec()).givens, s.givens, 'the same puzzle');
});

await step('jigsaw regions are drawn where regions change; windoku windows shaded', async () => {
  await open();
  await deal(9, ['jigsaw', 'windoku']);
  const s = await spec();
  assert(Array.isArray(s.regions) && s.regions.length === 81, 'regions dealt');
  const want = [];
  for (let c = 0; c < 81; c++) if (c % 9 < 8 && s.regions[c] !== s.regions[c + 1]) want.push(c);
  const got = await page.$$eval('.vcell.tr', (cells) => cells.map((c) => Number(c.dataset.cell)));
  assertEq(got, want, 'thick right edges exactly where the region changes');
  assertEq(await page.$$eval('.vcell.win', (c) => c.length), 36, 'four windows of nine cells');
});

await step('phone portrait 390x844: the 16x16 grid fits, keys are at least 44 px, no sideways scroll', async () => {
  await open({ width: 390, height: 844 });
  await deal(16, []);
  const m = await page.evaluate(() => {
    const b = document.getElementById('vboard').getBoundingClientRect();
    const keys = [...document.querySelectorAll('#vkeypad .key')].map((k) => k.getBoundingClientRect());
    return {
      left: b.left, right: b.right, width: window.innerWidth,
      scroll: document.documentElement.scrollWidth,
      minKey: Math.min(...keys.map((k) => Math.min(k.width, k.height))),
    };
  });
  assert(m.left >= 0 && m.right <= m.width, `the grid fits: ${JSON.stringify(m)}`);
  assert(m.scroll <= m.width, `no sideways scroll: ${JSON.stringify(m)}`);
  assert(m.minKey >= 44, `keys of 44 px or more: ${JSON.stringify(m)}`);
});

await step('bad requests are 400s naming the field', async () => {
  const r = await fetch(new URL('api/variant/puzzle?size=7', url));
  assertEq(r.status, 400, 'status');
  assert(/^size/.test((await r.json()).error), 'names size');
  const c = await fetch(new URL('api/variant/check', url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ puzzle: { size: 4, givens: '....' }, entries: null }),
  });
  assertEq(c.status, 400, 'short givens');
  assert(/givens/.test((await c.json()).error), 'names givens');
});

await done();
