// Browser tests of issue 38's player complaints: each fails on the game before its fix. Run by
// crates/web/tests/e2e.rs:
//
//   node crates/web/e2e/issue38.spec.mjs http://127.0.0.1:PORT/
//
// Every check runs in a browser context of its own, so one check's game never leaks into the
// next. Prints one line per check and a closing "N passed, N failed" line; exits non-zero on
// the first failure, after a screenshot to $SHUDU_E2E_SHOTS.

import { chromium } from 'playwright-core';
import { assert, assertEq, harness, launchChromium } from './harness.mjs';
import os from 'node:os';
import path from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: node issue38.spec.mjs URL');
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
  screenshot: path.join(shots, 'shudu-e2e-issue38-failure.png'),
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


await step('typing the digit a cell holds keeps it, unless Settings say it erases', async () => {
  for (const [toggleErase, after] of [[false, '5'], [true, '']]) {
    await open({ settings: { toggleErase } });
    const { puzzle } = await saved();
    const e = [...puzzle].indexOf('.');
    await cell(e).click();
    await page.keyboard.press('5');
    assertEq(await valueOf(e), '5', 'the digit is placed');
    await page.keyboard.press('5');
    assertEq(await valueOf(e), after, `typed again with toggleErase ${toggleErase}`);
    assertEq(await page.isChecked('#set-toggleerase'), toggleErase, 'the setting shows');
    await page.context().close();
    page = null;
  }
});

await step('two quick H presses ask for one hint and count one', async () => {
  await open();
  let requests = 0;
  // The answer is slowed so that the second press surely comes while the first is pending.
  await page.route('**/api/hint', async (route) => {
    requests++;
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.keyboard.press('h');
  await page.keyboard.press('h');
  await page.waitForFunction(() => /Hint 1 of 3/.test(document.getElementById('hint-stage').textContent));
  await page.waitForTimeout(600);
  assertEq(requests, 1, 'one request');
  assertEq((await saved()).hints, 1, 'one hint counted');
  assert(/Hint 1 of 3/.test(await stage()), `still stage 1: ${await stage()}`);
});

await step('a finished keypad digit keeps its contrast; colour 2 does not look like the selection', async () => {
  for (const colorScheme of ['light', 'dark']) {
    await open({ colorScheme });
    const { puzzle } = await saved();
    const sol = await solutionOf(puzzle);
    const d = sol[[...puzzle].indexOf('.')];
    for (let i = 0; i < 81; i++) {
      if (puzzle[i] === '.' && sol[i] === d) {
        await cell(i).click();
        await page.keyboard.press(d);
      }
    }
    const key = page.locator(`.key[data-d="${d}"]`);
    assert(await key.evaluate((k) => k.classList.contains('done')), `digit ${d} is finished`);
    // The digit's ink against the key, each blended by the key's opacity over the page.
    const [fg, bg, page_, opacity] = await key.evaluate((k) => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const s = getComputedStyle(k);
      return [rgb(getComputedStyle(k.querySelector('.key-digit')).color), rgb(s.backgroundColor),
        rgb(getComputedStyle(document.body).backgroundColor), Number(s.opacity)];
    });
    const blend = (c) => c.map((v, j) => v * opacity + page_[j] * (1 - opacity));
    const ratio = contrast(blend(fg), blend(bg));
    assert(ratio >= 4.5, `${colorScheme}: finished digit ${d} at ${ratio.toFixed(2)}:1`);
    // Colour 2 in an unselected cell, next to the selection: a pattern tells them apart.
    const empty = [...puzzle].map((ch, i) => (ch === '.' && sol[i] !== d ? i : -1)).filter((i) => i >= 0);
    await cell(empty[0]).click();
    await page.keyboard.press('c');
    await page.keyboard.press('2');
    await page.keyboard.press('c');
    await cell(empty[1]).click();
    const tint = await cell(empty[0]).locator('.tint.t2').evaluate((e) => getComputedStyle(e).backgroundImage);
    assert(tint !== 'none', `${colorScheme}: colour 2 has a pattern: ${tint}`);
    const sel = await cell(empty[1]).evaluate((e) => getComputedStyle(e).backgroundImage);
    assertEq(sel, 'none', 'the selection is flat');
    await page.context().close();
    page = null;
  }
});

await step('a game paused stays paused over a reload: board hidden, clock stopped', async () => {
  await open();
  const { puzzle } = await saved();
  await cell([...puzzle].indexOf('.')).click();
  await page.keyboard.press('p');
  assert(await page.isHidden('#board'), 'paused: the board is hidden');
  await page.reload();
  await page.waitForSelector('body.ready');
  assert(await page.isHidden('#board'), 'after the reload the board is still hidden');
  assert(await page.isVisible('#paused'), 'the pause screen shows');
  const clock = await page.textContent('#timer');
  await page.waitForTimeout(2200);
  assertEq(await page.textContent('#timer'), clock, 'the clock stays stopped');
  await page.click('#resume');
  assert(await page.isVisible('#board'), 'Resume shows the board again');
  assertEq((await saved()).paused, false, 'saved as running');
});

await step('a reload keeps the hint at its stage and does not count it again', async () => {
  await open();
  await openHint();
  await page.click('#hint-next');
  assert(/Hint 2 of 3/.test(await stage()), 'stage 2');
  assertEq((await saved()).hints, 1, 'one hint');
  await page.reload();
  await page.waitForSelector('body.ready');
  await page.click('#hint');
  await page.waitForSelector('#hint-panel:not([hidden])');
  await page.waitForFunction(() => /Hint \d of 3/.test(document.getElementById('hint-stage').textContent));
  assert(/Hint 2 of 3/.test(await stage()), `the same stage after a reload: ${await stage()}`);
  assertEq((await saved()).hints, 1, 'still one hint');
});

await step('marking notes complete (K) refreshes an open hint, without counting another', async () => {
  await open();
  const puzzle = (await saved()).puzzle;
  const solution = await solutionOf(puzzle);
  const i = [...puzzle].findIndex((ch) => ch === '.' || ch === '0');
  const wrong = String((Number(solution[i]) % 9) + 1);
  // A note in an empty cell that leaves out the cell's digit: a reminder while the notes are
  // partial, a mistake once they are marked complete.
  await cell(i).click();
  await page.keyboard.press('n');
  await page.keyboard.press(wrong);
  await page.keyboard.press('n');
  assertEq(await marksOf(i), wrong, 'the note is drawn');
  await openHint();
  assert(!/mistake/i.test(await stage()), `partial notes are no mistake: ${await stage()}`);
  await cell(i).click();
  await page.keyboard.press('k');
  await page.waitForFunction(() => document.getElementById('hint-panel').dataset.kind === 'mistake');
  assert(!(await page.locator('#hint-panel').isHidden()), 'the hint stays open, refreshed');
  assert(/Hint 1 of 3 · A mistake/.test(await stage()), `the refreshed hint: ${await stage()}`);
  assertEq((await saved()).hints, 1, 'the refresh is not another hint');
});

await step('with a dark theme, printing gives black givens and black box lines', async () => {
  for (const [colorScheme, theme] of [['dark', null], ['light', 'dark']]) {
    await open({ colorScheme, settings: theme ? { theme } : {} });
    if (theme) await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await page.emulateMedia({ media: 'print', colorScheme });
    const [given, boxLine, bg] = await page.evaluate(() => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const g = document.querySelector('.cell.given');
      const boxed = document.querySelector('.row > .cell:nth-child(3)');
      return [rgb(getComputedStyle(g).color), rgb(getComputedStyle(boxed).borderRightColor),
        rgb(getComputedStyle(document.body).backgroundColor)];
    });
    const what = `${colorScheme} system theme${theme ? `, page theme ${theme}` : ''}`;
    assert(contrast(given, bg) >= 15, `${what}: givens print black on white (${given} on ${bg})`);
    assert(contrast(boxLine, bg) >= 15, `${what}: box lines print black (${boxLine})`);
  }
});

await step('closing a stage-3 hint takes its drawing off the board, the labels and paper', async () => {
  await open();
  await openHint();
  await page.click('#hint-next');
  await page.click('#hint-next');
  assert(/Hint 3 of 3/.test(await stage()), `stage 3: ${await stage()}`);
  const drawn = () => page.evaluate(() => ({
    cells: document.querySelectorAll('.cell.hint-cell, .cell.hint-place, .cell.hint-target, .cell .preview').length,
    labels: [...document.querySelectorAll('.cell')].filter((c) => /the hint/.test(c.getAttribute('aria-label') || '')).length,
  }));
  const open3 = await drawn();
  assert(open3.cells > 0, `stage 3 draws on the board: ${JSON.stringify(open3)}`);
  await page.click('#hint-close');
  assertEq(JSON.stringify(await drawn()), JSON.stringify({ cells: 0, labels: 0 }), 'nothing drawn once closed');
  await page.emulateMedia({ media: 'print' });
  assertEq((await drawn()).cells, 0, 'nothing of the hint on paper');
  await page.emulateMedia({ media: 'screen' });
  await page.click('#hint');
  await page.waitForSelector('#hint-panel:not([hidden])');
  assert(/Hint 3 of 3/.test(await stage()), `reopened at its stage: ${await stage()}`);
  assert((await drawn()).cells > 0, 'drawn again when reopened');
});

await step('first mistake on shared progress judges the board and keeps the correct moves', async () => {
  await open();
  const puzzle = (await saved()).puzzle;
  const solution = await solutionOf(puzzle);
  const empty = [...puzzle].flatMap((ch, i) => (ch === '.' || ch === '0' ? [i] : []));
  const [a, b] = empty;
  // A shared link whose progress holds a wrong digit in `a`.
  const entries = [...puzzle].map(() => '.');
  entries[a] = String((Number(solution[a]) % 9) + 1);
  await page.goto(`${url}#p=${puzzle}&e=${entries.join('')}`);
  await page.waitForSelector('body.ready');
  await page.waitForFunction((e) => JSON.parse(localStorage.getItem('shudu.game.v1'))?.values?.some((v) => v), entries);
  assertEq(await valueOf(a), entries[a], 'the shared wrong digit is on the board');
  // A correct move of the player's own.
  await cell(b).click();
  await page.keyboard.press(solution[b]);
  assertEq(await valueOf(b), solution[b], 'the correct move is made');
  await page.click('#first-mistake');
  await page.waitForFunction(() => document.getElementById('toast').classList.contains('show')
    && /wrong/.test(document.getElementById('toast').textContent));
  const toastText = await page.textContent('#toast');
  assert(!/Went back 0 moves/.test(toastText), `no "went back 0 moves": ${toastText}`);
  assert(/position you were given has 1 wrong digit/.test(toastText), `names the shared mistake: ${toastText}`);
  assertEq(await valueOf(b), solution[b], 'the correct move is kept');
  assert(await cell(a).evaluate((c) => c.classList.contains('wrong')), 'the shared wrong digit is marked');
});

await step('placements, conflicts and the end are said once in a live region; the header is not re-read', async () => {
  await open();
  const puzzle = (await saved()).puzzle;
  const solution = await solutionOf(puzzle);
  const empty = [...puzzle].flatMap((ch, i) => (ch === '.' || ch === '0' ? [i] : []));
  await page.evaluate(() => {
    window.infoChanges = 0;
    new MutationObserver(() => { window.infoChanges++; })
      .observe(document.getElementById('game-info'), { childList: true, characterData: true, subtree: true });
  });
  const live = () => page.evaluate(() => document.getElementById('live').textContent);
  const name = (i) => `r${Math.floor(i / 9) + 1}c${(i % 9) + 1}`;
  const i = empty[0];
  await cell(i).click();
  await page.keyboard.press(solution[i]);
  await page.waitForFunction((t) => document.getElementById('live').textContent === t, `${solution[i]} in ${name(i)}.`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assertEq(await page.evaluate(() => window.infoChanges), 0, 'the header is not rewritten by moves');
  assertEq(await page.getAttribute('#game-info', 'aria-live'), null, 'the header is no live region');
  // A digit its row already holds: the conflict is said in the live region, the toast is quiet.
  const j = empty.find((k) => k !== i && Math.floor(k / 9) === Math.floor(i / 9));
  if (j !== undefined) {
    await cell(j).click();
    await page.keyboard.press(solution[i]);
    await page.waitForFunction(() => /conflict/.test(document.getElementById('live').textContent));
    assert(/already in this row at r/.test(await live()), `the conflict says where: ${await live()}`);
    assertEq(await page.getAttribute('#toast', 'aria-live'), 'off', 'the toast does not say it again');
    await page.keyboard.press('u');
  }
  // Every other empty cell: the last placement is said as the end of the game.
  for (const k of empty.slice(1)) {
    await cell(k).click();
    await page.keyboard.press(solution[k]);
  }
  await page.waitForFunction(() => /^Solved/.test(document.getElementById('live').textContent));
});

await step('forced colours keep the hint\'s houses, rings and the cell colours', async () => {
  await open({ forcedColors: 'active' });
  await page.emulateMedia({ forcedColors: 'active' });
  assert(await page.evaluate(() => matchMedia('(forced-colors: active)').matches), 'forced colours are on');
  const puzzle = (await saved()).puzzle;
  const i = [...puzzle].findIndex((ch) => ch === '.' || ch === '0');
  // A colour on an empty cell (C, then the colour's key).
  await cell(i).click();
  await page.keyboard.press('c');
  await page.keyboard.press('1');
  await page.keyboard.press('c');
  const [tint, canvas] = await cell(i).locator('.tint').evaluate((t) => [getComputedStyle(t).backgroundColor,
    getComputedStyle(document.querySelector('.board')).backgroundColor]);
  assert(tint !== canvas && !/rgba\(0, 0, 0, 0\)|transparent/.test(tint), `the colour is drawn: ${tint} on ${canvas}`);
  await openHint();
  await page.click('#hint-next');
  await page.click('#hint-next');
  const look = await page.evaluate(() => {
    const canvas = getComputedStyle(document.querySelector('.board')).backgroundColor;
    const house = [...document.querySelectorAll('.cell.hint-house, .cell.hint-base, .cell.hint-cover')];
    const rings = [...document.querySelectorAll('.cell.hint-target, .cell.hint-place')];
    return {
      houses: house.length,
      tinted: house.filter((c) => getComputedStyle(c).backgroundColor !== canvas || getComputedStyle(c).backgroundImage !== 'none').length,
      rings: rings.length,
      ringed: rings.filter((c) => getComputedStyle(c).outlineStyle !== 'none' && parseFloat(getComputedStyle(c).outlineWidth) >= 2).length,
    };
  });
  assert(look.houses > 0 && look.rings > 0, `the hint draws houses and rings: ${JSON.stringify(look)}`);
  assertEq(look.tinted, look.houses, `every hint house is marked: ${JSON.stringify(look)}`);
  assertEq(look.ringed, look.rings, `every target and placement is ringed: ${JSON.stringify(look)}`);
  if (process.env.SHUDU_E2E_SHOTS) await page.screenshot({ path: `${shots}/issue38-forced-colours-hint.png` });
});

await step('phones and desktops: an open hint covers no control, targets are 44 px, badges clear, marks legible, landscape fits', async () => {
  const views = [
    ['phone portrait', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ['phone landscape', { viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true }],
    ['desktop', { viewport: { width: 1280, height: 800 } }],
  ];
  for (const [name, ctx] of views) {
    await open(ctx);
    const controls = '.key, .tool, #band, #practise, #new-game';
    const underHint = `${controls}, .board-wrap`;
    if (name === 'phone landscape') {
      const extra = await page.evaluate(() => document.scrollingElement.scrollHeight - innerHeight);
      assert(extra <= 0, `${name}: the page scrolls ${extra} px`);
    }
    // Every control a finger can hit is at least 44 px each way.
    const small = await page.locator(controls).evaluateAll((els) => els.filter((e) => e.offsetParent)
      .map((e) => [e.id || e.textContent.trim().slice(0, 10), e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 43.5 || r.height < 43.5).map(([n, r]) => `${n} ${Math.round(r.width)}x${Math.round(r.height)}`));
    assertEq(small, [], `${name}: controls under 44 px`);
    // A key's count badge sits clear of its digit.
    const onDigit = await page.locator('.key').evaluateAll((keys) => keys.filter((k) => {
      const [b, d] = [k.querySelector('.key-left'), k.querySelector('.key-digit')].map((e) => e?.getBoundingClientRect());
      return b && d && b.width > 0 && b.left < d.right && d.left < b.right && b.top < d.bottom && d.top < b.bottom;
    }).length);
    assertEq(onDigit, 0, `${name}: keys whose badge covers the digit`);
    // Pencil marks of at least 12 px on a phone.
    if (name !== 'desktop') {
      await page.click('#fill-marks');
      const px = await page.locator('.marks .m').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      assert(px >= 12, `${name}: pencil marks are ${px} px`);
    }
    // Cells stay square and inside the board, marks and all.
    const cells = await page.locator('.cell').evaluateAll((els) => {
      const board = document.querySelector('.board-wrap').getBoundingClientRect();
      return els.filter((e) => {
        const r = e.getBoundingClientRect();
        return Math.abs(r.width - r.height) > 1.5 || r.bottom > board.bottom + 0.5 || r.right > board.right + 0.5;
      }).length;
    });
    assertEq(cells, 0, `${name}: cells out of shape or out of the board`);
    // An open hint, at every stage, covers no control and no cell.
    await openHint();
    for (let s = 1; s <= 3; s++) {
      if (s > 1) await page.click('#hint-next');
      const hint = await box('#hint-panel');
      const covered = await page.locator(underHint).evaluateAll((els, h) => els.filter((e) => e.offsetParent).filter((e) => {
        const r = e.getBoundingClientRect();
        return r.left < h.x + h.width && h.x < r.right && r.top < h.y + h.height && h.y < r.bottom;
      }).map((e) => e.id || e.className || e.textContent.trim().slice(0, 10)), hint);
      assertEq(covered, [], `${name}, hint stage ${s}: controls under the hint`);
    }
    if (process.env.SHUDU_E2E_SHOTS) await page.screenshot({ path: `${shots}/issue38-${name.replace(' ', '-')}-hint.png` });
    await page.context().close();
  }
});

await done();
