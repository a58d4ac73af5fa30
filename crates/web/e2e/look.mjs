// Screenshots of the game to look at before a change to the page is merged (not a test):
//
//   node crates/web/e2e/look.mjs http://127.0.0.1:PORT/ OUT_DIR
//
// Desktop (1280x800), phone portrait (390x844) and landscape (844x390), dark mode, and a hint
// at each of its three stages on a puzzle whose path has a Direct Hidden Pair.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const [url, out = 'shots'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node look.mjs URL [OUT_DIR]');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const DIRECT = '9..8....17.2.....6.8.6...4..2......9....9.4..1......572..4.5....16.7.2....3..9.7.';

async function open(viewport, { theme = 'light', touch = false, coords = false } = {}) {
  const ctx = await browser.newContext({ viewport, colorScheme: theme, hasTouch: touch, isMobile: touch });
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  await page.addInitScript((c) => localStorage.setItem('shudu.settings.v1', JSON.stringify({ band: 'easy', coords: c })), coords);
  await page.goto(url);
  await page.waitForSelector('body.ready');
  await page.click('#open-import');
  await page.fill('#import-text', DIRECT);
  await page.click('#import-go');
  await page.waitForFunction((p) => JSON.parse(localStorage.getItem('shudu.game.v1')).puzzle === p, DIRECT);
  return page;
}

async function shot(page, name) {
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  console.log(path.join(out, `${name}.png`));
}

// Takes hints until stage 1 names `technique`.
async function hintUntil(page, technique) {
  for (let k = 0; k < 80; k++) {
    await page.click('#hint');
    await page.waitForFunction(() => /Hint 1 of 3/.test(document.getElementById('hint-stage').textContent));
    if ((await page.textContent('#hint-text')).includes(technique)) return;
    for (let s = 0; s < 3; s++) await page.click('#hint-next');
  }
  throw new Error(`no ${technique}`);
}

// Notes and colours: centre and corner marks, and three cells coloured at once.
for (const [name, viewport, opts] of [
  ['notes', { width: 1280, height: 800 }, { coords: true }],
  ['notes-phone-dark', { width: 390, height: 844 }, { touch: true, theme: 'dark' }],
]) {
  const page = await open(viewport, opts);
  const cell = (i) => page.locator(`.cell[data-i="${i}"]`);
  await cell(1).click();
  await page.keyboard.press('m');
  for (const d of ['4', '5', '6']) await page.keyboard.press(d);
  await page.keyboard.press('m');
  await cell(2).click();
  for (const d of ['4', '5']) await page.keyboard.press(`Shift+Digit${d}`);
  await cell(10).click();
  await cell(11).click({ modifiers: ['Control'] });
  await cell(19).click({ modifiers: ['Control'] });
  await page.keyboard.press('c');
  await page.keyboard.press('2');
  await cell(40).click();
  await page.keyboard.press('3');
  await cell(31).click();
  await page.keyboard.press('c');
  await shot(page, name);
  await page.context().close();
}

for (const [name, viewport, opts] of [
  ['desktop', { width: 1280, height: 800 }, {}],
  ['desktop-dark', { width: 1280, height: 800 }, { theme: 'dark' }],
  ['phone', { width: 390, height: 844 }, { touch: true }],
  ['phone-dark', { width: 390, height: 844 }, { touch: true, theme: 'dark' }],
  ['phone-landscape', { width: 844, height: 390 }, { touch: true, coords: true }],
]) {
  const page = await open(viewport, opts);
  await page.click('#fill-marks');
  await page.click('.cell[data-i="10"]');
  await shot(page, name);
  await hintUntil(page, 'Direct Hidden Pair');
  await shot(page, `${name}-hint1`);
  await page.click('#hint-next');
  await shot(page, `${name}-hint2`);
  await page.click('#hint-next');
  await shot(page, `${name}-hint3`);
  await page.context().close();
}
await browser.close();
