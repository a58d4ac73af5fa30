// End-to-end test of the game page in headless Chromium, driven by playwright-core.
//
//   node crates/web/e2e/play.spec.mjs http://127.0.0.1:PORT/
//
// Run by crates/web/tests/e2e.rs, which starts the server on a free port. Chromium is Debian's
// (`/usr/bin/chromium`, or $CHROMIUM); playwright-core never downloads a browser. Prints one line
// per check and a closing "N passed, N failed" line; exits non-zero on the first failure, after a
// screenshot to $SHUDU_E2E_SHOTS (default: the system's temporary folder).

import { chromium } from 'playwright-core';
import { assert, assertEq, harness, launchChromium } from './harness.mjs';
import os from 'node:os';
import path from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node play.spec.mjs URL');
  process.exit(2);
}
const shots = process.env.SHUDU_E2E_SHOTS || os.tmpdir();

let page;
let context;
let browser;
const { step, done } = harness({
  page: () => page,
  browser: () => browser,
  screenshot: path.join(shots, 'shudu-e2e-failure.png'),
});

const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')));
const cell = (i) => page.locator(`.cell[data-i="${i}"]`);
const cellText = (i) => cell(i).locator('.v').textContent({ timeout: 2000 }).catch(() => '');
// Marks are drawn from their `data-d` attribute (the cell's label says them in words).
const marksOf = (i) => cell(i).locator('.marks .m').evaluateAll((els) => els.map((e) => e.dataset.d));

async function solutionOf(puzzle) {
  const res = await fetch(new URL('/api/solve', url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ puzzle }),
  });
  assert(res.ok, `solve answered ${res.status}`);
  return (await res.json()).solution;
}

// The first `n` cells of `empties[from..]` that hold no digit now: the hint step fills one cell
// of the puzzle, which may be any of them.
async function emptyNow(from, n) {
  const out = [];
  for (const i of empties.slice(from)) {
    if ((await cell(i).locator('.v').count()) === 0) out.push(i);
    if (out.length === n) break;
  }
  assert(out.length === n, `${n} empty cells from empties[${from}]`);
  return out;
}

async function typeAt(i, digit) {
  await cell(i).click();
  await page.keyboard.press(String(digit));
}

browser = await launchChromium(chromium);
context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
page = await context.newPage();
// The first visit deals an easy game: the quickest band for the server's pool to fill.
await page.addInitScript(() => {
  if (!localStorage.getItem('shudu.settings.v1')) localStorage.setItem('shudu.settings.v1', '{"band":"easy"}');
});
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(e.message));
page.setDefaultTimeout(60_000);

let puzzle;
let solution;
let empties;

await step('the page loads and deals a first game', async () => {
  await page.goto(url);
  await page.waitForSelector('body.ready');
  assertEq(await page.locator('.cell').count(), 81, 'cells');
  const g = await saved();
  assert(g && /^[1-9.]{81}$/.test(g.puzzle), 'a game is saved');
});

await step('a new easy game shows its band and rating', async () => {
  const first = (await saved()).created;
  await page.selectOption('#band', 'easy');
  await page.click('#new-game');
  // A game without moves is replaced without asking.
  await page.waitForFunction((t) => JSON.parse(localStorage.getItem('shudu.game.v1')).created !== t, first);
  assertEq((await saved()).band, 'easy', 'band');
  const info = await page.textContent('#game-info');
  assert(/Easy/.test(info) && /rating \d+\.\d/.test(info), `info line: ${info}`);
  puzzle = (await saved()).puzzle;
  solution = await solutionOf(puzzle);
  empties = [...puzzle].map((ch, i) => (ch === '.' ? i : -1)).filter((i) => i >= 0);
  assert(empties.length > 20, 'the puzzle has empty cells');
  const label = await cell(empties[0]).getAttribute('aria-label');
  assert(/row \d, column \d: empty/.test(label), `cell label: ${label}`);
});

await step('digits are entered with the keyboard and the keypad', async () => {
  const [a, b] = empties;
  await typeAt(a, solution[a]);
  assertEq(await cellText(a), solution[a], 'keyboard digit');
  await cell(b).click();
  await page.click(`.key[data-d="${solution[b]}"]`);
  assertEq(await cellText(b), solution[b], 'keypad digit');
  assert(/entry/.test(await cell(b).getAttribute('class')), 'entry styling');
});

await step('arrow keys move the selection', async () => {
  await cell(40).click();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  assert(/selected/.test(await cell(30).getAttribute('class')), 'r4c4 selected');
  assertEq(await page.evaluate(() => document.activeElement.dataset.i), '30', 'focus follows');
});

await step('a digit that repeats in a house is flagged as a conflict', async () => {
  const c = empties[2];
  const peer = [...Array(81).keys()].find((j) => j !== c && puzzle[j] !== '.' &&
    (Math.floor(j / 9) === Math.floor(c / 9) || j % 9 === c % 9));
  await typeAt(c, puzzle[peer]);
  assert(/conflict/.test(await cell(c).getAttribute('class')), 'conflict class');
  assert(/breaks a rule/.test(await cell(c).getAttribute('aria-label')), 'conflict in the label');
  await page.keyboard.press('Backspace');
  assertEq(await cellText(c), '', 'erased');
});

await step('pencil marks: mode, shift+digit, fill, auto-remove, clear', async () => {
  const c = empties[3];
  await cell(c).click();
  await page.click('#pencil');
  assertEq(await page.getAttribute('#pencil', 'aria-pressed'), 'true', 'pencil pressed');
  const cands = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => String(d) !== solution[c]).slice(0, 2);
  await page.keyboard.press(String(cands[0]));
  await page.keyboard.press(String(cands[1]));
  assertEq(await marksOf(c), cands.map(String), 'two marks');
  await page.keyboard.press('n');
  assertEq(await page.getAttribute('#pencil', 'aria-pressed'), 'false', 'pencil off by key');
  await page.keyboard.press(`Shift+Digit${solution[c]}`);
  assertEq((await marksOf(c)).sort(), [...cands, Number(solution[c])].sort().map(String), 'shift adds a mark');

  await page.click('#fill-marks');
  const d = empties[4];
  const markCount = await page.locator('.cell .marks .m').count();
  assert(markCount > empties.length, `filled candidates (${markCount} marks)`);
  // Placing a digit removes it from the marks of every peer.
  await typeAt(d, solution[d]);
  const peersWithMark = await page.evaluate(([i, digit]) => {
    const g = JSON.parse(localStorage.getItem('shudu.game.v1'));
    const r = Math.floor(i / 9), c = i % 9, b = Math.floor(r / 3) * 3 + Math.floor(c / 3);
    return g.marks.filter((m, j) => {
      const rj = Math.floor(j / 9), cj = j % 9, bj = Math.floor(rj / 3) * 3 + Math.floor(cj / 3);
      return j !== i && (rj === r || cj === c || bj === b) && (m & (1 << (digit - 1)));
    }).length;
  }, [d, Number(solution[d])]);
  assertEq(peersWithMark, 0, 'peers keep no mark of the placed digit');
  await page.click('#clear-marks');
  assertEq(await page.locator('.cell .marks .m').count(), 0, 'marks cleared');
});

await step('undo and redo walk the history', async () => {
  const before = (await saved()).history.length;
  await page.click('#undo'); // clear marks
  assert(await page.locator('.cell .marks .m').count() > 0, 'marks are back');
  await page.click('#redo');
  assertEq(await page.locator('.cell .marks .m').count(), 0, 'cleared again');
  const d = empties[4];
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  assertEq(await cellText(d), '', 'digit undone');
  await page.keyboard.press('Control+y');
  assertEq(await cellText(d), solution[d], 'digit redone');
  await page.keyboard.press('Control+y');
  assertEq((await saved()).history.length, before, 'history length restored');
});

await step('a hint comes in stages: technique, where, step, apply', async () => {
  const movesBefore = (await saved()).history.length;
  await page.click('#hint');
  await page.waitForSelector('#hint-panel:not([hidden])');
  // The panel opens at once, saying it is looking; stage 1 follows the server's answer.
  await page.waitForFunction(() => /Hint 1 of 3/.test(document.getElementById('hint-stage').textContent));
  const t1 = await page.textContent('#hint-text');
  assert(t1.length > 5, `technique text: ${t1}`);
  await page.click('#hint-next');
  assert(/Hint 2 of 3/.test(await page.textContent('#hint-stage')), 'stage 2');
  // Stage 2 names and tints the houses only: a cell would give the step away.
  assert(await page.locator('.cell.hint-house').count() >= 9, 'a house tinted');
  assertEq(await page.locator('.cell.hint-cell').count(), 0, 'no cell highlighted yet');
  assert(!/r\dc\d/.test(await page.textContent('#hint-text')), 'no cell named at stage 2');
  await page.click('#hint-next');
  assert(/Hint 3 of 3/.test(await page.textContent('#hint-stage')), 'stage 3');
  assert(await page.locator('.cell.hint-cell').count() > 0, 'cells highlighted');
  assertEq(await page.textContent('#hint-next'), 'Apply', 'apply button');
  await page.click('#hint-next');
  await page.waitForSelector('#hint-panel', { state: 'hidden' });
  const g = await saved();
  assertEq(g.history.length, movesBefore + 1, 'the hint is one move');
  assertEq(g.history.at(-1).k, 'hint', 'a hint move');
  // What the hint placed is right.
  for (const [i, , , v] of g.history.at(-1).c) if (v) assertEq(String(v), solution[i], `hint placed r${Math.floor(i / 9) + 1}c${i % 9 + 1}`);
});

await step('first mistake rewinds to the last position with no wrong digit', async () => {
  const [wrongCell, okCell] = await emptyNow(5, 2);
  const wrongDigit = solution[wrongCell] === '9' ? '1' : String(Number(solution[wrongCell]) + 1);
  const before = (await saved()).history.length;
  await typeAt(wrongCell, wrongDigit);
  await typeAt(okCell, solution[okCell]);
  await page.click('#first-mistake');
  await page.waitForFunction((n) => JSON.parse(localStorage.getItem('shudu.game.v1')).history.length === n, before);
  assertEq(await cellText(wrongCell), '', 'wrong digit gone');
  assert(/first wrong digit/.test(await page.textContent('#toast')), 'says which digit was wrong');
  assertEq((await saved()).future.length, 2, 'the moves can be redone');
});

await step('check marks wrong digits with a slash', async () => {
  // Past the two cells of the step before, which may reach empties[7].
  const [c] = await emptyNow(8, 1);
  const wrong = solution[c] === '9' ? '1' : String(Number(solution[c]) + 1);
  await typeAt(c, wrong);
  await page.click('#check');
  await page.waitForSelector(`.cell[data-i="${c}"].wrong`);
  assert(/wrong/.test(await cell(c).getAttribute('aria-label')), 'wrong in the label');
  await page.keyboard.press('Backspace');
});

await step('pause hides the grid and stops the clock', async () => {
  await page.click('#pause');
  assert(await page.isVisible('#paused'), 'paused overlay');
  assert(/hidden/.test(await page.getAttribute('#board', 'class')), 'grid hidden');
  const t = await page.textContent('#timer');
  await page.waitForTimeout(1200);
  assertEq(await page.textContent('#timer'), t, 'clock stopped');
  await page.click('#resume');
  assert(!(await page.isVisible('#paused')), 'resumed');
});

await step('the game and its undo history survive a reload', async () => {
  const before = await saved();
  const shown = await Promise.all(empties.slice(0, 8).map(cellText));
  await page.reload();
  await page.waitForSelector('body.ready');
  const after = await saved();
  assertEq(after.puzzle, before.puzzle, 'same puzzle');
  assertEq(after.values, before.values, 'same digits');
  assertEq(after.history.length, before.history.length, 'same history');
  assertEq(await Promise.all(empties.slice(0, 8).map(cellText)), shown, 'same grid on screen');
  await page.click('#undo');
  assertEq((await saved()).history.length, before.history.length - 1, 'undo works after reload');
  await page.click('#redo');
});

await step('a share link opens the same puzzle with its progress', async () => {
  await page.click('#open-share');
  await page.check('#share-progress');
  const link = await page.inputValue('#share-link');
  assert(link.includes(`p=${puzzle}`) && link.includes('&e='), `link: ${link}`);
  await page.keyboard.press('Escape');
  // Another browser profile, as on a friend's machine: its own storage.
  const friend = await browser.newContext();
  const other = await friend.newPage();
  await other.goto(link);
  await other.waitForSelector('body.ready');
  await other.waitForFunction((p) => JSON.parse(localStorage.getItem('shudu.game.v1') || '{}').puzzle === p, puzzle);
  const theirs = await other.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')).values);
  assertEq(theirs, (await saved()).values, 'the progress came along');
  assertEq(new URL(other.url()).hash, '', 'the link is consumed');
  await friend.close();
});

await step('entering a puzzle from elsewhere checks it', async () => {
  await page.click('#open-import');
  await page.fill('#import-text', puzzle.slice(0, 80));
  await page.click('#import-go');
  await page.waitForFunction(() => document.getElementById('import-error').textContent.length > 0);
  assert(/81/.test(await page.textContent('#import-error')), 'explains the length');
  await page.fill('#import-text', `${'.'.repeat(81)}`);
  await page.click('#import-go');
  await page.waitForFunction(() => /more than one solution/.test(document.getElementById('import-error').textContent));
  await page.keyboard.press('Escape');
});

await step('print renders the current puzzle, with or without the player\'s progress', async () => {
  // The layout of `shudu print` (crates/web/e2e/print.spec.mjs compares the two printouts).
  await page.click('#open-print');
  await page.uncheck('#print-progress');
  await page.click('#print-current');
  assertEq(await page.locator('#print-area .print-page').count(), 1, 'one page');
  const givens = (await page.locator('#print-area .print-grid text.given').allTextContents()).join('');
  assertEq(givens, puzzle.replace(/\./g, ''), 'the givens, in reading order');
  assertEq(await page.locator('#print-area text.entry, #print-area text.candidate').count(), 0, 'only the givens');
  const label = await page.locator('#print-area .print-label').textContent();
  assert(/^1 {2}· {2}(easy|medium|hard|fiendish|diabolical|extreme) {2}· {2}SE \d+\.\d$/.test(label), `label: ${label}`);
  // With progress: the player's digits in an answer's grey, their notes as small candidates.
  const g = await saved();
  await page.click('#open-print');
  await page.check('#print-progress');
  await page.click('#print-current');
  const entries = g.values.filter((v) => v).length;
  const notes = g.values.reduce((n, v, i) => n + (v ? 0 : [...Array(9).keys()].filter((k) => (g.marks[i] | g.centre[i]) & (1 << k)).length), 0);
  assert(entries > 0, 'the game has entries by now');
  assertEq(await page.locator('#print-area text.entry').count(), entries, 'the player\'s digits');
  assertEq(await page.locator('#print-area text.entry').first().getAttribute('fill'), '#6e6e6e', 'in grey');
  assertEq(await page.locator('#print-area text.candidate').count(), notes, 'the player\'s notes');
});

await step('print renders N new puzzles of a band, with solutions', async () => {
  await page.click('#open-print');
  await page.fill('#print-count', '3');
  await page.selectOption('#print-band', 'medium');
  await page.selectOption('#print-per-page', '4');
  await page.check('#print-solutions');
  // A check box sits beside its words, not at the far end of the line from them.
  const gap = await page.evaluate(() => {
    const box = document.getElementById('print-solutions');
    const words = document.createRange();
    words.selectNode(box.nextSibling);
    return words.getBoundingClientRect().left - box.getBoundingClientRect().right;
  });
  assert(gap >= 0 && gap < 20, `the check box is ${gap}px from "Solutions at the end"`);
  await page.click('#print-batch');
  await page.waitForFunction(() => document.querySelectorAll('#print-area .print-puzzle').length === 6);
  assertEq(await page.locator('#print-area .print-page').count(), 2, 'a page of puzzles, a page of answers');
  const labels = await page.locator('#print-area .print-label').allTextContents();
  assertEq(labels.slice(3), ['Answer 1', 'Answer 2', 'Answer 3'], 'the answers');
  assert(labels.slice(0, 3).every((c, k) => new RegExp(`^${k + 1} {2}· {2}medium {2}· {2}SE \\d+\\.\\d$`).test(c)), `labels: ${labels}`);
  assertEq(await page.locator('#print-area .print-title').allTextContents(), ['Answers'], 'the answer page\'s title');
  assertEq(await page.locator('#print-area .print-page:nth-child(2) text.solved').count() +
    await page.locator('#print-area .print-page:nth-child(2) text.given').count(), 3 * 81, 'three full grids');
});

await step('completing the grid by the rules wins', async () => {
  const g = await saved();
  for (const i of empties) {
    const have = g.values[i];
    if (String(have) !== solution[i]) await typeAt(i, solution[i]);
  }
  await page.waitForSelector('#dlg-win[open]');
  assert(/solved this easy puzzle/i.test(await page.textContent('#win-text')), 'win text');
  assert((await saved()).solved, 'saved as solved');
  await page.click('#dlg-win [data-close]');
  assert(await page.isDisabled('#hint'), 'no hints on a solved grid');
});

await step('statistics count the solve and its time', async () => {
  await page.click('#open-stats');
  const row = await page.locator('#stats-body tr', { hasText: 'Easy' }).textContent();
  // The game took an applied hint: it counts as solved, with its time in the average, but
  // sets no best time.
  assert(/^Easy\d+1—\d+:\d\d$/.test(row.replace(/\s/g, '')), `easy row: ${row}`);
  await page.keyboard.press('Escape');
});

await step('dark mode and a phone-sized screen', async () => {
  await page.click('#open-settings');
  await page.selectOption('#set-theme', 'dark');
  await page.keyboard.press('Escape');
  assertEq(await page.getAttribute('html', 'data-theme'), 'dark', 'theme attribute');
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await page.locator('#board').boundingBox();
  assert(box.width <= 390 && box.width > 300, `board fits: ${box.width}`);
  const keys = await page.locator('.key').count();
  assertEq(keys, 9, 'keypad');
  await page.screenshot({ path: path.join(shots, 'shudu-e2e-phone-dark.png') });
});

await step('a phone with a touch screen plays with taps on the keypad', async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const p = await phone.newPage();
  await p.addInitScript(() => localStorage.setItem('shudu.settings.v1', '{"band":"easy"}'));
  await p.goto(url);
  await p.waitForSelector('body.ready');
  const g = await p.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')));
  const sol = await solutionOf(g.puzzle);
  const i = g.puzzle.indexOf('.');
  await p.tap(`.cell[data-i="${i}"]`);
  await p.tap(`.key[data-d="${sol[i]}"]`);
  assertEq(await p.locator(`.cell[data-i="${i}"] .v`).textContent(), sol[i], 'tapped digit');
  await p.tap('#pencil');
  const j = g.puzzle.indexOf('.', i + 1);
  await p.tap(`.cell[data-i="${j}"]`);
  await p.tap('.key[data-d="7"]');
  assertEq(await p.locator(`.cell[data-i="${j}"] .marks .m`).evaluateAll((els) => els.map((e) => e.dataset.d)), ['7'], 'tapped mark');
  const board = await p.locator('#board').boundingBox();
  const pad = await p.locator('#keypad').boundingBox();
  assert(board.x >= 0 && board.x + board.width <= 390, 'the grid fits the screen');
  assert(pad.y + pad.height <= 844, 'the keypad is on screen without scrolling');
  await phone.close();
});

await step('practise a technique deals a puzzle that needs it', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const p = await ctx.newPage();
  p.on('pageerror', (e) => pageErrors.push(String(e)));
  await p.goto(url);
  await p.waitForSelector('body.ready');
  const before = await p.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')).created);
  await p.selectOption('#practise', 'x-wing');
  const answer = p.waitForResponse((r) => r.url().endsWith('/api/puzzle') && r.request().method() === 'POST');
  await p.click('#new-game');
  const response = await answer;
  assertEq(JSON.parse(response.request().postData()).practise, 'x-wing', 'the technique is sent');
  const info = await response.json();
  assertEq(info.needs, ['x-wing'], 'needs echoed');
  assertEq(info.hardest, 'X-Wing', 'the hardest step is the X-Wing');
  await p.waitForFunction((t) => JSON.parse(localStorage.getItem('shudu.game.v1')).created !== t, before);
  const g = await p.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')));
  assertEq(g.puzzle, info.puzzle, 'the dealt puzzle is played');
  // Its hardest step is the X-Wing: rated 3.2, a hard puzzle.
  assertEq([info.rating, info.band], ['3.2', 'hard'], 'rated as its X-Wing');
  await ctx.close();
});

await step('axe finds no accessibility violations, light or dark', async () => {
  const axePath = path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules/axe-core/axe.min.js');
  for (const colorScheme of ['light', 'dark']) {
    // Injecting axe needs the page's Content-Security-Policy bypassed: a context of its own.
    const ctx = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 1100, height: 800 } });
    const p = await ctx.newPage();
    await p.addInitScript(() => localStorage.setItem('shudu.settings.v1', '{"band":"easy"}'));
    await p.goto(url);
    await p.waitForSelector('body.ready');
    await p.click('.cell[data-i="40"]');
    await p.keyboard.press('Shift+Digit3');
    await p.addScriptTag({ path: axePath });
    const violations = await p.evaluate(async () =>
      (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
    await ctx.close();
    assertEq(violations, [], `${colorScheme} violations`);
  }
});

await step('no script errors', async () => {
  assertEq(pageErrors, [], 'page errors');
});

await done();
