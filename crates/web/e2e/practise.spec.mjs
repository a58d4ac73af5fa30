// Browser test of "practise a technique" (issue 14): a puzzle dealt to practise the X-Wing,
// played by asking hints and applying them; while the position holds no X-Wing the hint is the
// ordinary one and says "No X-Wing yet", and as soon as it holds one, the hint is that X-Wing
// (all three stages, figure included), even where an easier step exists; once it is applied,
// ordinary hints resume. Run after issue16.spec.mjs by crates/web/tests/e2e.rs:
//
//   node crates/web/e2e/practise.spec.mjs http://127.0.0.1:PORT/
//
// Whether the position holds an X-Wing is decided here, independently of the server: a plain
// search over the candidates the page shows (a digit with exactly two places in each of two
// rows, or columns, in the same two cross lines, with the digit elsewhere in those). Prints one
// line per check and a closing "N passed, N failed" line; exits non-zero on the first failure,
// after a screenshot to $SHUDU_E2E_SHOTS, where it also leaves the X-Wing hint at stage 3
// (shudu-e2e-practise-x-wing.png), to be looked at.

import { chromium } from 'playwright-core';
import { assert, harness, launchChromium } from './harness.mjs';
import os from 'node:os';
import path from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node practise.spec.mjs URL');
  process.exit(2);
}
const shots = process.env.SHUDU_E2E_SHOTS || os.tmpdir();

let page;
let browser;
const { step, done } = harness({
  page: () => page,
  browser: () => browser,
  screenshot: path.join(shots, 'shudu-e2e-practise-failure.png'),
});

const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')));
const text = (sel) => page.textContent(sel);

// The candidates of every cell as the page holds them (0 for a filled cell): the notes less the
// digits of the cell's peers, as the server reads a position; every digit where a cell has none.
function candidates(g) {
  const vals = [...g.puzzle].map((ch, i) => Number(ch) || g.values[i] || 0);
  return vals.map((v, i) => {
    if (v) return 0;
    let m = g.marks[i] || 0x1ff;
    const r = Math.floor(i / 9), c = i % 9;
    for (let j = 0; j < 81; j++) {
      const rj = Math.floor(j / 9), cj = j % 9;
      const peer = j !== i && (rj === r || cj === c ||
        (Math.floor(rj / 3) === Math.floor(r / 3) && Math.floor(cj / 3) === Math.floor(c / 3)));
      if (peer && vals[j]) m &= ~(1 << (vals[j] - 1));
    }
    return m;
  });
}

// Whether the candidates hold an X-Wing that removes something.
function hasXWing(cands) {
  for (let d = 0; d < 9; d++) {
    for (const rows of [true, false]) {
      const at = (line, x) => (rows ? line * 9 + x : x * 9 + line);
      const places = [...Array(9).keys()].map((line) =>
        [...Array(9).keys()].filter((x) => cands[at(line, x)] >> d & 1));
      for (let a = 0; a < 9; a++) {
        for (let b = a + 1; b < 9; b++) {
          const [pa, pb] = [places[a], places[b]];
          if (pa.length !== 2 || pb.length !== 2 || pa[0] !== pb[0] || pa[1] !== pb[1]) continue;
          const removes = pa.some((x) => [...Array(9).keys()]
            .some((line) => line !== a && line !== b && cands[at(line, x)] >> d & 1));
          if (removes) return true;
        }
      }
    }
  }
  return false;
}

// Opens a new hint at the current position (stage 1) and returns what the panel says.
async function openHint() {
  await page.click('#hint');
  await page.waitForFunction(() => /Hint 1 of 3/.test(document.getElementById('hint-stage').textContent));
  const practise = await page.locator('#hint-practise');
  return {
    line: (await practise.isVisible()) ? (await practise.textContent()) : '',
    text: await text('#hint-text'),
  };
}

// Takes the open hint through stages 2 and 3 and applies it.
async function applyHint() {
  for (let s = 0; s < 3; s++) await page.click('#hint-next');
  await page.waitForSelector('#hint-panel', { state: 'hidden' });
}

browser = await launchChromium(chromium);
const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
page = await context.newPage();
page.setDefaultTimeout(30_000);
page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
// Every hint request's body, to see what the page sends.
const sent = [];
page.on('request', (req) => {
  if (req.url().endsWith('/api/hint')) sent.push(JSON.parse(req.postData()));
});
await page.addInitScript(() => {
  if (!localStorage.getItem('shudu.settings.v1')) {
    localStorage.setItem('shudu.settings.v1', JSON.stringify({ band: 'easy' }));
  }
});
await page.goto(url);
await page.waitForSelector('body.ready');

await step('practising X-Wing deals a puzzle that needs one, and a reload keeps the choice', async () => {
  await page.selectOption('#practise', 'x-wing');
  await page.click('#new-game');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('shudu.game.v1'))?.practise === 'x-wing');
  const g = await saved();
  assert(g.practise === 'x-wing' && !g.practiseDone, `saved practise: ${JSON.stringify(g.practise)}`);
  await page.reload();
  await page.waitForSelector('body.ready');
  assert((await saved()).puzzle === g.puzzle, 'the same game after the reload');
  assert((await page.inputValue('#practise')) === 'x-wing', 'the picker keeps the technique');
  const info = await text('#game-info');
  assert(/practising X-Wing/.test(info), `the info line says so: ${info}`);
});

let shown = 0;
await step('hints explain the easier steps until the position holds an X-Wing, then show it', async () => {
  // Every candidate filled in, so that the server judges the notes and applied hints count.
  await page.click('#fill-marks');
  let ordinary = 0;
  for (let k = 0; k < 120 && !shown; k++) {
    const g = await saved();
    const expect = hasXWing(candidates(g));
    const h = await openHint();
    assert(sent.at(-1).practise === 'x-wing', `hint ${k + 1} sends the practised technique`);
    if (expect) {
      assert(h.line === 'Practising X-Wing: here it is.', `hint ${k + 1} at an X-Wing: ${h.line}`);
      assert(h.text === 'Look for an X-Wing.', `stage 1 names it: ${h.text}`);
      await page.click('#hint-next');
      const where = await text('#hint-text');
      assert(/^Look for an X-Wing on the digit \d, with its base in (rows|columns)\.$/.test(where), `stage 2 names the digit and one direction: ${where}`);
      await page.click('#hint-next');
      const stage = await text('#hint-stage');
      assert(/Hint 3 of 3 · X-Wing · 3\.2/.test(stage), `stage 3: ${stage}`);
      // The figure: two base lines and two cover lines tinted, the key says which is which.
      assert((await page.locator('.cell.hint-base').count()) >= 14, 'base lines drawn');
      assert((await page.locator('.cell.hint-cover').count()) >= 14, 'cover lines drawn');
      assert((await page.locator('.cell.hint-target').count()) >= 1, 'a candidate to remove');
      const key = await text('#hint-key');
      assert(/base: .*cover: /.test(key), `the figure's key: ${key}`);
      await page.screenshot({ path: path.join(shots, 'shudu-e2e-practise-x-wing.png') });
      await page.click('#hint-next');
      await page.waitForSelector('#hint-panel', { state: 'hidden' });
      shown++;
    } else {
      assert(/^No X-Wing yet: first (an? )?[A-Z]/.test(h.line), `hint ${k + 1} before any X-Wing: ${h.line}`);
      assert(!/X-Wing/.test(h.text), `the ordinary hint: ${h.text}`);
      ordinary++;
      await applyHint();
    }
  }
  assert(shown === 1, 'an X-Wing came in 120 hints');
  console.log(`  # ${ordinary} ordinary hints before the X-Wing`);
});

await step('once the X-Wing is applied, ordinary hints resume (and a reload keeps that)', async () => {
  assert((await saved()).practiseDone === true, 'saved as done');
  await page.reload();
  await page.waitForSelector('body.ready');
  const h = await openHint();
  assert(sent.at(-1).practise === undefined, 'the hint no longer sends the technique');
  assert(h.line === 'X-Wing practised: ordinary hints from here.', `the practise line: ${h.line}`);
  assert(/^Look for (an? )?[A-Z0-9]/.test(h.text), `an ordinary hint: ${h.text}`);
});

await step('an unknown technique is refused with a message naming the field', async () => {
  const res = await fetch(new URL('/api/hint', url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ givens: (await saved()).puzzle, practise: 'x-wings' }),
  });
  const body = await res.json();
  assert(res.status === 400 && /^practise: unknown technique 'x-wings'/.test(body.error), JSON.stringify(body));
});

await done();
