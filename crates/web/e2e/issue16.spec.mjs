// Browser tests of issue 16 (the game as players judge it): each bug found by playing the game
// to the win, and what the fixes promise. Run after play.spec.mjs by crates/web/tests/e2e.rs:
//
//   node crates/web/e2e/issue16.spec.mjs http://127.0.0.1:PORT/
//
// Every check runs in a browser context of its own, so one check's game never leaks into the
// next. Prints one line per check and a closing "N passed, N failed" line; exits non-zero on
// the first failure, after a screenshot to $SHUDU_E2E_SHOTS. With SHUDU_E2E_LOOK set, it also
// saves screenshots of the desktop, the phone, dark mode and a hint at each stage there, to be
// looked at.

import { chromium } from 'playwright-core';
import { assert, assertEq, harness, launchChromium } from './harness.mjs';
import os from 'node:os';
import path from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node issue16.spec.mjs URL');
  process.exit(2);
}
const shots = process.env.SHUDU_E2E_SHOTS || os.tmpdir();
const look = !!process.env.SHUDU_E2E_LOOK;
const only = process.env.SHUDU_E2E_ONLY ? new RegExp(process.env.SHUDU_E2E_ONLY) : null;

let page;
let browser;
const { step, done } = harness({
  page: () => page,
  browser: () => browser,
  screenshot: path.join(shots, 'shudu-e2e-issue16-failure.png'),
  only,
  // Every check has a browser context of its own.
  after: async () => {
    await page?.context().close().catch(() => {});
    page = null;
  },
});

async function post(p, body) {
  const res = await fetch(new URL(p, url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert(res.ok, `${p} answered ${res.status}`);
  return res.json();
}

const solutionOf = async (puzzle) => (await post('/api/solve', { puzzle })).solution;

// A fresh profile on an easy game (or the stored game given), at this viewport.
async function open({ viewport = { width: 1100, height: 800 }, game = null, settings = {}, ...ctx } = {}) {
  const context = await browser.newContext({ viewport, ...ctx });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.addInitScript(([s, g]) => {
    if (!localStorage.getItem('shudu.settings.v1')) {
      localStorage.setItem('shudu.settings.v1', JSON.stringify({ band: 'easy', ...s }));
      if (g) localStorage.setItem('shudu.game.v1', JSON.stringify(g));
    }
  }, [settings, game]);
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  await page.goto(url);
  await page.waitForSelector('body.ready');
  return page;
}

const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('shudu.game.v1')));
const savedStats = () => page.evaluate(() => JSON.parse(localStorage.getItem('shudu.stats.v1') || '{}'));
const cell = (i) => page.locator(`.cell[data-i="${i}"]`);
const valueOf = async (i) => ((await cell(i).locator('.v').count()) ? cell(i).locator('.v').textContent() : '');
// Marks are drawn from their `data-d` attribute (the cell's label says them in words).
const marksOf = async (i) => (await cell(i).locator('.marks .m').evaluateAll((els) => els.map((e) => e.dataset.d))).sort().join('');
const centreOf = (i) => cell(i).locator('.centre').getAttribute('data-d');
const stage = () => page.textContent('#hint-stage');

async function box(sel) {
  const b = await page.locator(sel).boundingBox();
  assert(b, `${sel} is laid out`);
  return b;
}

const within = (b, vw, vh) => b.x >= 0 && b.y >= 0 && b.x + b.width <= vw + 0.5 && b.y + b.height <= vh + 0.5;
const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Opens a new hint (stage 1) at the current position.
async function openHint() {
  await page.click('#hint');
  await page.waitForFunction(() => /Hint 1 of 3/.test(document.getElementById('hint-stage').textContent));
}

async function importPuzzle(text) {
  await page.click('#open-import');
  await page.fill('#import-text', text);
  await page.click('#import-go');
  await page.waitForFunction((p) => JSON.parse(localStorage.getItem('shudu.game.v1')).puzzle === p, text);
}

function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

browser = await launchChromium(chromium);

const DIRECT = '9..8....17.2.....6.8.6...4..2......9....9.4..1......572..4.5....16.7.2....3..9.7.';

await step('bug 1: a Direct Hidden Pair strikes out what its text removes and keys the pair', async () => {
  await open();
  await importPuzzle(DIRECT);
  await page.click('#fill-marks');
  let found = false;
  for (let k = 0; k < 80 && !found; k++) {
    await openHint();
    if (/Direct Hidden Pair/.test(await page.textContent('#hint-text'))) {
      found = true;
      break;
    }
    for (let s = 0; s < 3; s++) await page.click('#hint-next');
    await page.waitForSelector('#hint-panel', { state: 'hidden' });
  }
  assert(found, 'hints reach a Direct Hidden Pair');
  await page.click('#hint-next');
  await page.click('#hint-next');
  assert(/Hint 3 of 3/.test(await stage()), 'stage 3');
  const pair = await page.locator('.cell.hint-cell').evaluateAll((els) => els.map((el) => ({
    keys: [...el.querySelectorAll('.m-key')].map((m) => m.dataset.d).join(''),
    elims: [...el.querySelectorAll('.m-elim')].map((m) => m.dataset.d).join(''),
  })));
  assertEq(pair.length, 2, 'the pair\'s two cells');
  for (const c of pair) {
    assert(c.elims.length > 0, `struck-out candidates in a pair cell: ${JSON.stringify(c)}`);
    assertEq(c.keys.length, 2, `the pair's two digits are the key candidates: ${JSON.stringify(c)}`);
    assert(![...c.keys].some((d) => c.elims.includes(d)), 'a key digit is not struck out');
  }
  assertEq(pair[0].keys, pair[1].keys, 'both cells key the same pair');
});

await step('bug 2: partial pencil marks are no mistake, and a notes hint never gives a digit away', async () => {
  await open();
  const { puzzle } = await saved();
  const sol = await solutionOf(puzzle);
  // A cell with more than two candidates, so two marks can leave out its digit.
  const c = [...puzzle].findIndex((ch, i) => ch === '.' && i > 10);
  const others = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => String(d) !== sol[c]).slice(0, 2);
  await cell(c).click();
  for (const d of others) await page.keyboard.press(`Shift+Digit${d}`);
  await openHint();
  const t1 = await page.textContent('#hint-text');
  assert(!/pencil|notes/i.test(t1), `two notes are no mistake: ${t1}`);
  for (let s = 0; s < 3; s++) await page.click('#hint-next');
  if (!(await valueOf(c))) assert(!(await marksOf(c)).includes(sol[c]), 'the hint did not add the digit to the notes');

  // With every candidate filled, removing a cell's digit from its notes is a mistake.
  await page.click('#fill-marks');
  // A cell with two candidates or more: taking out its digit leaves notes (a cell without
  // notes counts as holding every candidate).
  let d = -1;
  for (const i of [...Array(81).keys()]) {
    if (puzzle[i] === '.' && i !== c && !(await valueOf(i)) && (await marksOf(i)).length >= 2) {
      d = i;
      break;
    }
  }
  assert(d >= 0, 'a cell with two candidates');
  const before = await marksOf(d);
  assert(before.includes(sol[d]), 'filled candidates hold the digit');
  await cell(d).click();
  await page.keyboard.press(`Shift+Digit${sol[d]}`);
  await openHint();
  assert(/notes/i.test(await page.textContent('#hint-text')), 'stage 1 speaks of notes');
  await page.click('#hint-next');
  const r = Math.floor(d / 9) + 1;
  const k = (d % 9) + 1;
  assertEq(await page.textContent('#hint-text'), `Your notes in r${r}c${k} leave out its digit.`, 'stage 2');
  await page.click('#hint-next');
  await page.click('#hint-next');
  assertEq(await valueOf(d), '', 'no digit placed');
  assertEq(await marksOf(d), before, 'the notes are whole again');
});

await step('bug 3: printing (Ctrl+P) shows the current grid with the player\'s digits', async () => {
  await open();
  const { puzzle } = await saved();
  const sol = await solutionOf(puzzle);
  const e = puzzle.indexOf('.');
  await cell(e).click();
  await page.keyboard.press(sol[e]);
  await page.emulateMedia({ media: 'print' });
  assert(await page.isVisible('#board'), 'the grid prints');
  const b = await box('#board');
  assert(b.width > 300, `a full-size grid: ${b.width}`);
  assert(await cell(e).locator('.v').isVisible(), 'the player\'s digit prints');
  const given = puzzle.search(/[1-9]/);
  assert(await cell(given).locator('.v').isVisible(), 'the givens print');
  for (const id of ['#keypad', '.topbar', '#hint']) assert(!(await page.isVisible(id)), `${id} does not print`);
  if (look) await page.screenshot({ path: path.join(shots, 'look-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
});

await step('bug 4: on a phone the hint panel and its button are on screen, clear of messages', async () => {
  await open({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.tap('#hint');
  await page.waitForFunction(() => /Hint 1 of 3/.test(document.getElementById('hint-stage').textContent));
  await page.evaluate(() => { document.getElementById('toast').textContent = 'A message'; document.getElementById('toast').classList.add('show'); });
  await page.waitForTimeout(300);
  const next = await box('#hint-next');
  assert(within(next, 390, 844), `the hint button is on screen: ${JSON.stringify(next)}`);
  assert(!overlaps(await box('#toast'), await box('#hint-panel')), 'the message does not cover the hint');
  const board = await box('#board');
  assert(within(board, 390, 844), 'the grid stays on screen');
  assert(next.width >= 44 && next.height >= 44, 'a 44 px target');
  if (look) await page.screenshot({ path: path.join(shots, 'look-phone-hint.png') });
});

await step('bug 4: the Settings drop-downs fit the dialog on a phone', async () => {
  await open({ viewport: { width: 390, height: 844 } });
  await page.click('#open-settings');
  const dlg = await box('#dlg-settings');
  for (const id of ['#set-theme', '#set-symmetry']) {
    const s = await box(id);
    assert(s.x >= dlg.x && s.x + s.width <= dlg.x + dlg.width, `${id} inside the dialog: ${JSON.stringify([s, dlg])}`);
  }
  if (look) await page.screenshot({ path: path.join(shots, 'look-phone-settings.png') });
});

await step('bug 4: at 1280x800 a long hint keeps its Apply button on screen', async () => {
  await open({ viewport: { width: 1280, height: 800 } });
  await openHint();
  await page.click('#hint-next');
  await page.click('#hint-next');
  await page.evaluate(() => {
    const t = document.getElementById('hint-text');
    t.textContent = t.textContent + ' So r4c4 cannot be 1 or 3.'.repeat(60);
  });
  const next = await box('#hint-next');
  assert(within(next, 1280, 800), `Apply is on screen: ${JSON.stringify(next)}`);
});

await step('bug 5: forced colours show the selected cell; the hint heading has 4.5:1 contrast', async () => {
  await open();
  await page.emulateMedia({ forcedColors: 'active' });
  await cell(40).click();
  const ring = await cell(40).evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  assert(ring.style !== 'none' && ring.width >= 2, `a visible outline: ${JSON.stringify(ring)}`);
  await page.emulateMedia({ forcedColors: 'none' });
  await openHint();
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
    const [fg, bg] = await page.evaluate(() => {
      const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
      return [rgb(getComputedStyle(document.getElementById('hint-stage')).color),
        rgb(getComputedStyle(document.getElementById('hint-panel')).backgroundColor)];
    });
    const ratio = contrast(fg, bg);
    assert(ratio >= 4.5, `${theme} hint heading contrast ${ratio.toFixed(2)}:1`);
  }
});

await step('bug 6: reopening a hint keeps its stage and counts once; a move closes it', async () => {
  await open();
  const { puzzle } = await saved();
  await openHint();
  await page.click('#hint-next');
  assert(/Hint 2 of 3/.test(await stage()), 'stage 2');
  const hints = (await saved()).hints;
  await page.click('#hint-close');
  await page.click('#hint');
  await page.waitForSelector('#hint-panel:not([hidden])');
  assert(/Hint 2 of 3/.test(await stage()), `the same stage: ${await stage()}`);
  assertEq((await saved()).hints, hints, 'the same hint is not counted twice');
  // Any move makes the hint stale: it closes rather than keeping text without its highlights.
  const e = [...puzzle].lastIndexOf('.');
  await cell(e).click();
  await page.keyboard.press('Shift+Digit5');
  assert(await page.isHidden('#hint-panel'), 'the hint closed after a move');
});

await step('bug 7: the clock stops while a dialog is open', async () => {
  await open();
  const { puzzle } = await saved();
  const sol = await solutionOf(puzzle);
  const e = puzzle.indexOf('.');
  await cell(e).click();
  await page.keyboard.press(sol[e]);
  for (const id of ['#open-help', '#open-settings', '#open-stats', '#open-print']) {
    await page.click(id);
    const t = (await saved()).elapsed;
    const shown = await page.textContent('#timer');
    await page.waitForTimeout(1300);
    assertEq(await page.textContent('#timer'), shown, `clock stopped under ${id}`);
    await page.keyboard.press('Escape');
    assert((await saved()).elapsed - t < 600, `no time counted under ${id}`);
  }
});

await step('bug 7: the keypad does not edit the old puzzle while a new one is made', async () => {
  await open();
  const { puzzle } = await saved();
  await page.route('**/api/puzzle', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  const e = puzzle.indexOf('.');
  await cell(e).click();
  await page.click('#new-game');
  await page.waitForSelector('#loading:not([hidden])');
  await page.click('.key[data-d="5"]', { force: true });
  await page.keyboard.press('6');
  assertEq((await saved()).puzzle, puzzle, 'still the old game while loading');
  assertEq((await saved()).history.length, 0, 'no move made on the old game');
  await page.waitForFunction((p) => JSON.parse(localStorage.getItem('shudu.game.v1')).puzzle !== p, puzzle);
  assertEq((await saved()).history.length, 0, 'the new game starts clean');
});

await step('bug 7: a game finished with an applied hint sets no best time; imports start on the first move', async () => {
  const puzzle = DIRECT;
  const sol = await solutionOf(puzzle);
  const last = puzzle.indexOf('.');
  // Every digit but one placed by the player; the hint places the last.
  const values = [...sol].map((ch, i) => (puzzle[i] === '.' && i !== last ? Number(ch) : 0));
  const game = {
    v: 1, puzzle, band: 'imported', rating: null, symmetry: null, values, marks: Array(81).fill(0),
    history: [{ k: 'digit', c: [[last === 0 ? 1 : 0, 0, 0, 0, 0]] }], future: [], elapsed: 5000,
    solved: false, hints: 0, created: Date.now(),
  };
  await open({ game });
  await openHint();
  for (let s = 0; s < 3; s++) await page.click('#hint-next');
  await page.waitForSelector('#dlg-win[open]');
  const s = (await savedStats()).imported;
  assertEq(s.solved, 1, 'the solve counts');
  assertEq(s.best, null, 'but sets no best time');
  assert(/hint/i.test(await page.textContent('#win-text')), 'the win says why');
  await page.click('#dlg-win [data-close]');

  // An imported puzzle is filed under the band its grade puts it in.
  const startedAll = async () => Object.values(await savedStats()).reduce((n, b) => n + b.started, 0);
  const started = await startedAll();
  await importPuzzle('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79');
  assertEq(await startedAll(), started, 'an import is not a start');
  await cell(2).click();
  await page.keyboard.press('Shift+Digit1');
  assertEq((await saved()).history.length, 1, 'a move');
  assertEq(await startedAll(), started + 1, 'the first move starts it');
});

await step('Shift+arrows select several cells; notes marked complete (K) are judged by hints', async () => {
  await open();
  const { puzzle } = await saved();
  const sol = await solutionOf(puzzle);
  const c = [...puzzle].findIndex((ch, i) => ch === '.' && i > 10);
  await cell(c).click();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  assertEq(await page.locator('.cell.selected').count(), 3, 'three cells selected by Shift+arrows');
  await page.keyboard.press('Escape');
  assertEq(await page.locator('.cell.selected').count(), 1, 'Esc drops the selection');

  // Two marks that leave out the cell's digit, marked complete: a hint now judges them.
  await cell(c).click();
  const others = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => String(d) !== sol[c]).slice(0, 2);
  for (const d of others) await page.keyboard.press(`Shift+Digit${d}`);
  await page.keyboard.press('k');
  assert(await cell(c).evaluate((e) => e.classList.contains('notes-complete')), 'the cell shows its notes complete');
  assert(/notes complete/.test(await cell(c).getAttribute('aria-label')), 'and says so');
  await openHint();
  assert(/notes/i.test(await page.textContent('#hint-text')), 'stage 1 speaks of notes');
  await page.click('#hint-next');
  const r = Math.floor(c / 9) + 1;
  const k = (c % 9) + 1;
  assertEq(await page.textContent('#hint-text'), `Your notes in r${r}c${k} leave out its digit.`, 'stage 2');
  await page.click('#hint-close');
  // The button takes the mark off again: the notes are reminders once more.
  await cell(c).click();
  await page.click('#notes-complete');
  assert(!(await cell(c).evaluate((e) => e.classList.contains('notes-complete'))), 'unmarked');
  // Marking is a move like any other: Undo puts the mark back, Redo takes it off again.
  const marked = () => cell(c).evaluate((e) => e.classList.contains('notes-complete'));
  await page.click('#undo');
  assert(await marked(), 'Undo marks the notes complete again');
  assert((await saved()).complete[c], 'and the saved game has the mark');
  await page.click('#redo');
  assert(!(await marked()), 'Redo takes the mark off');
  // Filling every note makes hints judge all notes; Undo gives back the partial notes and
  // the reminders they were, Redo the filled ones (and Undo of "clear" the filled state).
  await page.click('#fill-marks');
  assert((await saved()).filled, 'filled notes are judged');
  await page.click('#undo');
  assert(!(await saved()).filled, 'Undo of the fill: the notes are reminders again');
  await page.click('#redo');
  assert((await saved()).filled, 'Redo of the fill: judged again');
  await page.click('#clear-marks');
  assert(!(await saved()).filled, 'cleared notes are not judged');
  await page.click('#undo');
  assert((await saved()).filled, 'Undo of the clear: the filled notes are judged again');
  if (look) await page.screenshot({ path: path.join(shots, 'look-notes-complete.png') });
});

await step('hints teach: stage 2 tints a house and names no cell; stage 3 says the outcome; each technique explained', async () => {
  await open();
  await importPuzzle(DIRECT);
  assert(/rating 6\.6 \(Turbot Fish\)/.test(await page.textContent('#game-info')),
    'an import shows its hardest technique beside its rating');
  await page.click('#fill-marks');
  await openHint();
  assert(await page.isVisible('#hint-learn'), 'a "what is" link from stage 1');
  await page.click('#hint-learn summary');
  assert((await page.textContent('#hint-learn-text')).length > 40, 'an explanation');
  await page.click('#hint-next');
  assert(!/r\dc\d/.test(await page.textContent('#hint-text')), 'stage 2 names no cell');
  assertEq(await page.locator('.cell.hint-cell').count(), 0, 'stage 2 highlights no cell');
  assert(await page.locator('.cell.hint-house').count() >= 9, 'stage 2 tints a house');
  await page.click('#hint-next');
  assert(/^So r\dc\d (can't be|is) /.test(await page.textContent('#hint-result')), 'stage 3 ends with the outcome');
  assert(await page.locator('.cell.hint-cell').count() > 0, 'stage 3 shows the cells');
});

await step('hints draw a wing: the pivot ringed, links to the pincers', async () => {
  await open();
  await importPuzzle('954...3.....5.3...3.8.....12.....6...912.8.3....4...12...1.2...........4.459....6');
  await page.click('#fill-marks');
  let found = false;
  for (let k = 0; k < 81 && !found; k++) {
    await openHint();
    if (/XY-Wing/.test(await page.textContent('#hint-text'))) {
      found = true;
      break;
    }
    for (let s = 0; s < 3; s++) await page.click('#hint-next');
    await page.waitForSelector('#hint-panel', { state: 'hidden' });
  }
  assert(found, 'hints reach an XY-Wing');
  await page.click('#hint-next');
  assertEq(await page.locator('#links line').count(), 0, 'no links before stage 3');
  await page.click('#hint-next');
  assertEq(await page.locator('#links line').count(), 2, 'pivot to each pincer');
  assertEq(await page.locator('.cell.hint-pivot').count(), 1, 'one pivot');
  assert(await page.locator('.cell.hint-target').count() > 0, 'the cells that lose the digit');
  if (look) await page.screenshot({ path: path.join(shots, 'look-xy-wing.png') });
  await page.click('#hint-next');
  assertEq(await page.locator('#links line').count(), 0, 'links go with the hint');
});

await step('hints draw a pattern: base and cover houses by role, strong and weak links, a key', async () => {
  // The API test's skyscraper position (tests/api.rs): 9 in columns 3 and 9, bases in row 7.
  const puzzle = '....1.....2..7...6..48....7..1...3.........8.6..7.8..2...6.3....8.4.2.3..4..5..2.';
  const entries = '...21..43.2..74..6..483.2.7871.2.3644.236178.63.748..22..68347..8.492.3..4.157.28';
  const marks = ('57,569,78,,,569,589,,,1359,,38,59,,,1589,159,,159,1569,,,,569,,159,,,,,' +
    '59,,59,,,,,59,,,,,,,59,,,59,,,,15,159,,,159,59,,,,,,159,157,,67,,,,56,,15,39,,36,,,,69,,')
    .split(',').map((f) => [...f].reduce((m, ch) => m | (1 << (Number(ch) - 1)), 0));
  const values = [...entries].map((ch, i) => (puzzle[i] === '.' && ch !== '.' ? Number(ch) : 0));
  const game = {
    v: 1, puzzle, band: 'imported', rating: null, symmetry: null, values, marks,
    centre: Array(81).fill(0), colours: Array(81).fill(0), history: [], future: [], elapsed: 0,
    solved: false, hints: 0, filled: true, created: Date.now(),
  };
  await open({ game });
  await openHint();
  assert(/Skyscraper/.test(await page.textContent('#hint-text')), 'the hint is a skyscraper');
  await page.click('#hint-next');
  assertEq(await page.locator('.cell.hint-base').count(), 0, 'no roles at stage 2');
  assertEq(await page.locator('#links line').count(), 0, 'no links at stage 2');
  await page.click('#hint-next');
  assertEq(await page.locator('.cell.hint-base').count(), 18, 'two base columns');
  assertEq(await page.locator('.cell.hint-cover').count(), 9, 'one cover row');
  assertEq(await page.locator('.cell.hint-base.hint-cover').count(), 2, 'crossing at the bases');
  assertEq(await page.locator('#links line.strong').count(), 2, 'a strong link in each column');
  assertEq(await page.locator('#links line.weak').count(), 1, 'a weak link between the bases');
  assert(await page.isVisible('#hint-key'), 'a key to the drawing');
  assert(/base: column 3, column 9/.test(await page.textContent('#hint-key')), 'the key names the base');
  if (look) await page.screenshot({ path: path.join(shots, 'look-skyscraper.png') });
  await page.click('#hint-close');
  assertEq(await page.locator('.cell.hint-base').count(), 0, 'roles go with the hint');
});

await step('phone: the grid fills a landscape screen; 44 px targets; remaining counts are badges', async () => {
  await open({ viewport: { width: 844, height: 390 }, hasTouch: true, isMobile: true });
  const b = await box('#board');
  assert(b.height >= 320 && within(b, 844, 390), `the grid fills the height: ${JSON.stringify(b)}`);
  for (const sel of ['#pause', '#hint', '#undo', '.key[data-d="5"]', '#open-settings', '#new-game']) {
    const t = await box(sel);
    assert(t.width >= 44 && t.height >= 44 && within(t, 844, 390), `${sel} is a 44 px target on screen: ${JSON.stringify(t)}`);
  }
  if (look) await page.screenshot({ path: path.join(shots, 'look-phone-landscape.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  for (const sel of ['#pause', '#hint', '#open-import', '#hint']) {
    const t = await box(sel);
    assert(t.width >= 44 && t.height >= 44, `${sel} is a 44 px target in portrait: ${JSON.stringify(t)}`);
  }
  assert(/Enter puzzle/.test(await page.textContent('#open-import')), 'the menu item says what it does');
  const badge = await page.locator('.key[data-d="5"] .key-left').evaluate((el) => {
    const s = getComputedStyle(el);
    return { radius: parseFloat(s.borderTopLeftRadius), bg: s.backgroundColor };
  });
  assert(badge.radius >= 6 && badge.bg !== 'rgba(0, 0, 0, 0)', `a badge: ${JSON.stringify(badge)}`);
});

await step('notes: centre marks, colours, several cells at once, undo', async () => {
  await open();
  const { puzzle } = await saved();
  const empty = [...puzzle].map((ch, i) => (ch === '.' ? i : -1)).filter((i) => i >= 0);
  const [a, b, c, d] = empty;
  await cell(a).click();
  await page.click('#centre-mode');
  await page.keyboard.press('1');
  await page.keyboard.press('2');
  assertEq(await centreOf(a), '12', 'centre marks');
  assertEq(await marksOf(a), '', 'no corner marks');
  await page.keyboard.press('Shift+Digit7');
  assertEq(await marksOf(a), '7', 'Shift still gives a corner mark');
  await page.click('#centre-mode');
  // Ctrl-click selects several cells; a corner mark goes to each.
  await cell(b).click({ modifiers: ['Control'] });
  await cell(c).click({ modifiers: ['Control'] });
  assertEq(await page.locator('.cell.selected').count(), 3, 'three selected');
  await page.keyboard.press('Shift+Digit4');
  for (const i of [a, b, c]) assert((await marksOf(i)).includes('4'), `mark 4 in cell ${i}`);
  // Colours go to every selected cell, givens too, and are named for screen readers.
  await page.keyboard.press('c');
  await page.keyboard.press('3');
  for (const i of [a, b, c]) assertEq(await cell(i).locator('.tint.t3').count(), 1, `colour in cell ${i}`);
  assert(/coloured green/.test(await cell(b).getAttribute('aria-label')), 'colour in the label');
  await page.keyboard.press('c');
  await page.click('#undo');
  assertEq(await page.locator('.tint').count(), 0, 'undo takes the colours back');
  // A drag selects every cell it passes.
  const from = await cell(d).boundingBox();
  const to = await cell(d + 1 + (d % 9 === 8 ? -2 : 0)).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
  assertEq(await page.locator('.cell.selected').count(), 2, 'a drag selects two cells');
  // Reload keeps centre marks.
  await page.reload();
  await page.waitForSelector('body.ready');
  assertEq(await centreOf(a), '12', 'centre marks survive a reload');
});

await step('input: digit first, highlight every N from the keypad, long press for a mark', async () => {
  await open({ settings: { digitFirst: true } });
  const { puzzle } = await saved();
  const sol = await solutionOf(puzzle);
  const e = puzzle.indexOf('.');
  const d = Number(sol[e]);
  await page.click(`.key[data-d="${d}"]`);
  assertEq(await page.getAttribute(`.key[data-d="${d}"]`, 'aria-pressed'), 'true', 'the digit is picked');
  const givensOfD = [...puzzle].filter((ch) => ch === String(d)).length;
  assertEq(await page.locator('.cell.same').count(), givensOfD, 'every cell holding it is highlighted');
  await cell(e).click();
  assertEq(await valueOf(e), String(d), 'a tap enters the picked digit');
  const f = puzzle.indexOf('.', e + 1);
  await cell(f).click();
  assertEq(await valueOf(f), String(d), 'and again, without picking it again');
  await page.keyboard.press('Control+z');
  assertEq(await valueOf(f), '', 'undone');
  // A touch held on a key enters a pencil mark (touch events synthesised: Playwright taps only).
  await page.evaluate(() => {
    localStorage.setItem('shudu.settings.v1', JSON.stringify({ ...JSON.parse(localStorage.getItem('shudu.settings.v1')), digitFirst: false }));
  });
  await page.reload();
  await page.waitForSelector('body.ready');
  await cell(f).click();
  const key = page.locator('.key[data-d="8"]');
  await key.dispatchEvent('pointerdown', { pointerType: 'touch', button: 0, isPrimary: true });
  await page.waitForTimeout(700);
  await key.dispatchEvent('pointerup', { pointerType: 'touch', button: 0, isPrimary: true });
  await key.dispatchEvent('click');
  assertEq(await marksOf(f), '8', 'a long press gives a pencil mark');
  assertEq(await valueOf(f), '', 'and no digit');
});

await step('row and column labels match the names hints use', async () => {
  await open({ settings: { coords: true } });
  assert(await page.isVisible('.coords-rows'), 'row labels');
  assertEq(await page.locator('.coords-cols span').allTextContents(), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'], 'column labels');
  const label = await page.locator('.coords-rows span').nth(3).boundingBox();
  const r4 = await cell(27).boundingBox();
  assert(Math.abs(label.y + label.height / 2 - (r4.y + r4.height / 2)) < 3, 'r4 beside row 4');
  const wrap = await box('.board-wrap');
  const grid = await box('#board');
  assert(grid.x + grid.width <= wrap.x + wrap.width + 0.5 && grid.y + grid.height <= wrap.y + wrap.height + 0.5, 'the grid fits its place');
  await page.click('#open-settings');
  await page.uncheck('#set-coords');
  await page.keyboard.press('Escape');
  assert(!(await page.isVisible('.coords-rows')), 'labels off');
});

await step('difficulty: easy and medium deal their givens, the grader agrees with every band, the hardest technique shows', async () => {
  // Two puzzles of each of the first three bands, one of each harder band (slower to make).
  const ranges = {
    // Harder bands keep the generator's count: minimal puzzles, 21-35 givens (docs/bands.md).
    easy: [32, 36], medium: [28, 31], hard: [17, 36],
    fiendish: [17, 36], diabolical: [17, 36], extreme: [17, 36],
  };
  for (const band of Object.keys(ranges)) {
    for (let k = 0; k < (['easy', 'medium', 'hard'].includes(band) ? 2 : 1); k++) {
      const res = await fetch(new URL(`/api/puzzle?band=${band}`, url));
      assert(res.ok, `${band}: ${res.status}`);
      const info = await res.json();
      const [lo, hi] = ranges[band];
      assert(info.givens >= lo && info.givens <= hi, `${band} with ${info.givens} givens`);
      assert(info.hardest && info.hardest.length > 3, `${band}: hardest technique ${info.hardest}`);
      const graded = await post('/api/import', { puzzle: info.puzzle });
      assertEq([graded.band, graded.rating], [band, info.rating], `the grader agrees on ${info.puzzle}`);
    }
  }
  await open();
  await page.selectOption('#band', 'medium');
  await page.click('#new-game');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('shudu.game.v1')).band === 'medium');
  const line = await page.textContent('#game-info');
  // Medium is 1.6-2.5: naked singles and the direct intersections and subsets.
  assert(/Medium rating (1\.[6-9]|2\.[0-5]) \((Naked Single|Direct [A-Za-z ]+)\) · (2[89]|3[01]) givens/.test(line), `info line: ${line}`);
});

await step('axe finds no violations with a hint at stage 3, notes, colours and labels, light or dark', async () => {
  const axePath = path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules/axe-core/axe.min.js');
  for (const colorScheme of ['light', 'dark']) {
    // Injecting axe needs the page's Content-Security-Policy bypassed.
    await open({ bypassCSP: true, colorScheme, settings: { coords: true } });
    await importPuzzle(DIRECT);
    const { puzzle } = await saved();
    const e = puzzle.indexOf('.');
    await cell(e).click();
    await page.keyboard.press('m');
    await page.keyboard.press('4');
    await page.keyboard.press('m');
    await page.keyboard.press('c');
    await page.keyboard.press('2');
    await page.keyboard.press('c');
    await page.click('#fill-marks');
    await openHint();
    await page.click('#hint-next');
    await page.click('#hint-next');
    await page.click('#hint-learn summary');
    await page.addScriptTag({ path: axePath });
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
    assertEq(violations, [], `${colorScheme} violations`);
    await page.context().close();
  }
});

// A removal applied from a hint without notes writes the cell's remaining candidates; the next
// hint must judge them and move on, not offer the same removal again (the player would be stuck).
const POINTING = '12......9.5..9.2.3........4.3.........18.........246......67.5...2.41.7.9........';
await step('a removal applied without notes is not offered again by the next hint', async () => {
  await open();
  await importPuzzle(POINTING);
  await openHint();
  assert(/Pointing/.test(await page.textContent('#hint-text')), 'the first hint is a pointing');
  await page.click('#hint-next');
  await page.click('#hint-next');
  const first = await page.textContent('#hint-text');
  await page.click('#hint-next'); // Apply
  await page.waitForSelector('#hint-panel', { state: 'hidden' });
  const g = await saved();
  const touched = g.marks.map((m, i) => [m, i]).filter(([m]) => m).map(([, i]) => i);
  assert(touched.length > 0, 'the removal left notes in its cells');
  assert(touched.every((i) => g.complete[i]), 'those notes are marked complete');
  await openHint();
  await page.click('#hint-next');
  await page.click('#hint-next');
  const second = await page.textContent('#hint-text');
  assert(second !== first, `the second hint differs from the first: ${second}`);
  await page.context().close();
});

await done();
