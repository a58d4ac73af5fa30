// The game's print page against `shudu print`'s PDF (issue 14: "the game's print page and the
// CLI's PDF should look alike"), side by side:
//
//   node crates/web/e2e/print.spec.mjs URL OUTDIR NAME PUZZLE BOOK.pdf [NAME PUZZLE BOOK.pdf ...]
//
// (PUZZLE `new:N`: the game prints N new puzzles four a page with answers, and BOOK.pdf is
// `shudu print --per-page 4 --answers` of N puzzles; see `compareBatch`.)
//
// URL serves the game (`shudu play`); each BOOK.pdf is `shudu print --per-page 1 --rate` of its
// PUZZLE on A4. The game opens the same puzzle (a share link, `#p=PUZZLE`: a pencil-mark line
// brings its marks as the player's notes) and prints it on A4 ("Print this puzzle", with the
// player's notes), Chromium writes that to a PDF, and both PDFs are rendered by poppler's
// `pdftoppm -r 100` and measured the same way: the grid's lines (where, how thick), the ink in
// the cells (regular against bold digits), and the words and where they stand (label, digits,
// candidates, page number). Run by crates/cli/tests/print.rs, which has the `shudu` binary.
// Leaves NAME-game.pdf, NAME-game.png and NAME-book.png in OUTDIR to be looked at. Prints one
// line per check and "N passed, N failed"; exits non-zero on the first failure.

import { chromium } from 'playwright-core';
import { assert, assertEq, harness } from './harness.mjs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [url, out, ...rest] = process.argv.slice(2);
if (!rest.length || rest.length % 3) {
  console.error('usage: node print.spec.mjs URL OUTDIR NAME PUZZLE BOOK.pdf [NAME PUZZLE BOOK.pdf ...]');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

let browser;
const { step, done } = harness({ browser: () => browser });

const run = (tool, args) => execFileSync(tool, args, { encoding: 'utf8' });

// Page `page` of a PDF at 100 dpi in grey levels (0 black, 255 white), and as a PNG to look at.
function render(pdf, name, page = 1) {
  const prefix = path.join(out, name);
  const pages = ['-f', String(page), '-l', String(page)];
  run('pdftoppm', ['-r', '100', ...pages, '-singlefile', '-gray', pdf, prefix]);
  run('pdftoppm', ['-r', '100', ...pages, '-singlefile', '-png', pdf, prefix]);
  const buf = fs.readFileSync(`${prefix}.pgm`);
  // P5 header: "P5", width, height, maxval, one whitespace byte, then the pixels.
  const fields = [];
  let at = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(buf[at]))) at++;
    let s = '';
    while (!/\s/.test(String.fromCharCode(buf[at]))) s += String.fromCharCode(buf[at++]);
    fields.push(s);
  }
  assertEq(fields[0], 'P5', `${name}: a PGM`);
  const [w, h] = [Number(fields[1]), Number(fields[2])];
  return { w, h, px: buf.subarray(at + 1, at + 1 + w * h) };
}

// The grids' lines on a page: runs of columns (rows) holding a dark stretch of at least 100
// pixels (a grid 9 a page is about 200 pixels high; no digit or text is that tall), as
// { centre, width } in pixels, in order.
function gridLines({ w, h, px }) {
  const dark = (x, y) => px[y * w + x] < 128;
  const longest = (n, m, at) => {
    let best = 0;
    let run = 0;
    for (let j = 0; j < m; j++) {
      run = at(n, j) ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return best;
  };
  const lines = (count, m, at) => {
    const runs = [];
    for (let i = 0; i < count; i++) {
      if (longest(i, m, at) < 100) continue;
      const last = runs[runs.length - 1];
      if (last && last.end === i - 1) last.end = i;
      else runs.push({ start: i, end: i });
    }
    return runs.map((r) => ({ centre: (r.start + r.end) / 2, width: r.end - r.start + 1 }));
  };
  return {
    vertical: lines(w, h, (x, y) => dark(x, y)),
    horizontal: lines(h, w, (y, x) => dark(x, y)),
  };
}

// One grid's page: its lines, its cell, the ink in its cells (digits and candidates: dark
// pixels inside each cell, away from its lines), and its box and cell lines' widths.
function measure(image) {
  const { w, h, px } = image;
  const dark = (x, y) => px[y * w + x] < 128;
  const { vertical, horizontal } = gridLines(image);
  assertEq([vertical.length, horizontal.length], [10, 10], 'ten lines each way');
  const cell = (vertical[9].centre - vertical[0].centre) / 9;
  let ink = 0;
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const x0 = Math.ceil(vertical[c].centre + 0.15 * cell);
      const y0 = Math.ceil(horizontal[r].centre + 0.15 * cell);
      for (let y = y0; y < horizontal[r].centre + 0.85 * cell; y++) {
        for (let x = x0; x < vertical[c].centre + 0.85 * cell; x++) ink += dark(x, y);
      }
    }
  }
  const thick = [0, 3, 6, 9].map((i) => vertical[i].width);
  const thin = vertical.filter((_, i) => i % 3).map((l) => l.width);
  return { vertical, horizontal, cell, ink, thick, thin, size: [w, h] };
}

// Lines at the same places (to 1.5 pixels) and of the same widths (to 1 pixel).
function sameLines(game, book, what) {
  for (const dir of ['vertical', 'horizontal']) {
    assertEq(game[dir].length, book[dir].length, `${what}: ${dir} lines`);
    book[dir].forEach((l, i) => {
      const g = game[dir][i];
      assert(Math.abs(l.centre - g.centre) <= 1.5, `${what}: ${dir} line ${i} at ${l.centre} in the PDF, ${g.centre} in the game`);
      assert(Math.abs(l.width - g.width) <= 1, `${what}: ${dir} line ${i} ${l.width} px wide in the PDF, ${g.width} in the game`);
    });
  }
}

const lines = (pdf) => run('pdftotext', ['-layout', '-f', '1', '-l', '1', pdf, '-'])
  .split('\n').map((l) => l.trim().split(/\s+/).join(' ')).filter((l) => l);

// The words of page `page` with where they start, in points: `pdftotext -bbox`.
const words = (pdf, page = 1) => [...run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), pdf, '-'])
  .matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)]
  .map((m) => ({ text: m[3], x: Number(m[1]), y: Number(m[2]) }));

browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });

for (let k = 0; k < rest.length; k += 3) {
  const [name, puzzle, bookPdf] = rest.slice(k, k + 3);
  const batch = puzzle.match(/^new:(\d+)$/);
  if (batch) await compareBatch(name, Number(batch[1]), bookPdf);
  else await compare(name, puzzle, bookPdf);
}

// "Print new puzzles": N easy puzzles four a page with their answers, against BOOK.pdf, which is
// `shudu print --per-page 4 --answers` of N other puzzles: the puzzles differ, so only what does
// not depend on them is compared, page by page: the grids' lines, the title and page numbers.
async function compareBatch(name, n, bookPdf) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.setDefaultTimeout(60_000);
  const gamePdf = path.join(out, `${name}-game.pdf`);
  const pages = Math.ceil(n / 4) + Math.ceil(n / 9);
  await step(`${name}: the game prints ${n} new puzzles four a page, then their answers`, async () => {
    await page.goto(url);
    await page.waitForSelector('body.ready');
    await page.click('#open-print');
    await page.selectOption('#print-paper', 'a4');
    await page.fill('#print-count', String(n));
    await page.selectOption('#print-band', 'easy');
    await page.selectOption('#print-per-page', '4');
    await page.check('#print-solutions');
    await page.click('#print-batch');
    await page.waitForFunction((k) => document.querySelectorAll('#print-area .print-puzzle').length === k, 2 * n);
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => document.fonts.ready);
    await page.pdf({ path: gamePdf, format: 'A4', preferCSSPageSize: true, printBackground: true });
    const count = (pdf) => Number(run('pdfinfo', [pdf]).match(/Pages:\s+(\d+)/)[1]);
    assertEq([count(gamePdf), count(bookPdf)], [pages, pages], 'pages of the game and of the PDF');
  });
  for (let k = 1; k <= pages; k++) {
    await step(`${name}: page ${k}: the same grids' lines, title and page number`, async () => {
      const game = gridLines(render(gamePdf, `${name}-game-${k}`, k));
      const book = gridLines(render(bookPdf, `${name}-book-${k}`, k));
      sameLines(game, book, `page ${k}`);
      assert(game.vertical.length >= 10 && game.horizontal.length >= 10, `grids found: ${game.vertical.length} x ${game.horizontal.length} lines`);
      console.log(`  # page ${k}: ${game.vertical.length} vertical and ${game.horizontal.length} horizontal lines in both`);
      const fixed = (pdf) => words(pdf, k).filter((w) => w.text === 'Answers' || (w.text === String(k) && w.y > 700));
      const [g, b] = [fixed(gamePdf), fixed(bookPdf)];
      assertEq(g.map((w) => w.text), b.map((w) => w.text), 'title and page number');
      b.forEach((w, i) => assert(Math.abs(w.x - g[i].x) < 1 && Math.abs(w.y - g[i].y) < 8,
        `"${w.text}" at (${w.x}, ${w.y}) in the PDF, (${g[i].x}, ${g[i].y}) in the game`));
    });
  }
  await page.close();
}

async function compare(name, puzzle, bookPdf) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.setDefaultTimeout(30_000);
  const gamePdf = path.join(out, `${name}-game.pdf`);

  await step(`${name}: the game opens the puzzle and prints it on A4, one a page`, async () => {
    await page.goto(`${url}#p=${puzzle}`);
    // The givens: digits of an 81-character line; a pencil-mark line's cells with one candidate.
    const fields = puzzle.length === 729 ? puzzle.match(/.{9}/g).map((f) => f.replace(/[.0]/g, '')) : null;
    const givens = fields ? fields.filter((f) => f.length === 1).length : puzzle.replace(/[.0]/g, '').length;
    await page.waitForFunction((n) => document.querySelectorAll('#board .cell.given').length === n, givens);
    await page.click('#open-print');
    await page.selectOption('#print-paper', 'a4');
    await page.click('#print-current');
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => document.fonts.ready);
    const loaded = await page.evaluate(() => [...document.fonts]
      .filter((f) => f.family.replace(/"/g, '') === 'shudu print DejaVu Sans').map((f) => f.status));
    assertEq(loaded, ['loaded'], 'the DejaVu Sans served at /fonts/DejaVuSans.ttf, loaded');
    assertEq(await page.locator('#print-area .print-page').count(), 1, 'one page');
    assertEq(await page.locator('#print-area text.given').count(), givens, 'the givens');
    const candidates = fields ? fields.filter((f) => f.length > 1).join('').length : 0;
    assertEq(await page.locator('#print-area text.candidate').count(), candidates, 'the marks, as the player\'s notes');
    const style = await page.locator('#print-area text.given').first()
      .evaluate((e) => { const s = getComputedStyle(e); return [s.fontWeight, s.fontFamily]; });
    assertEq(style, ['400', '"shudu print DejaVu Sans", sans-serif'], 'digits in the PDF\'s regular DejaVu Sans, not bold');
    await page.pdf({ path: gamePdf, format: 'A4', preferCSSPageSize: true, printBackground: true });
    const info = run('pdfinfo', [gamePdf]);
    assert(/Pages:\s+1\n/.test(info), `one page: ${info}`);
    // Chromium rounds the page to whole CSS pixels: 594.96 x 841.92 points.
    const [pw, ph] = info.match(/Page size:\s+([\d.]+) x ([\d.]+) pts/).slice(1).map(Number);
    assert(Math.abs(pw - 595.276) < 1 && Math.abs(ph - 841.89) < 1, `A4: ${pw} x ${ph}`);
  });

  let game;
  let book;
  await step(`${name}: both render to pages of the same size, with a grid of ten lines each way`, async () => {
    game = measure(render(gamePdf, `${name}-game`));
    book = measure(render(bookPdf, `${name}-book`));
    assertEq(game.size, book.size, 'page size in pixels at 100 dpi');
    console.log(`  # book: lines at x ${book.vertical.map((l) => l.centre).join(' ')}, thick ${book.thick}, thin ${book.thin}, ink ${book.ink}`);
    console.log(`  # game: lines at x ${game.vertical.map((l) => l.centre).join(' ')}, thick ${game.thick}, thin ${game.thin}, ink ${game.ink}`);
  });

  await step(`${name}: the grids sit in the same place at the same size`, async () => {
    sameLines(game, book, 'page 1');
  });

  await step(`${name}: box lines are as thick, and cell lines as thin, as the PDF\'s`, async () => {
    book.thick.forEach((t, i) => assert(Math.abs(t - game.thick[i]) <= 1, `thick line ${i}: ${t} against ${game.thick[i]} px`));
    book.thin.forEach((t, i) => assert(Math.abs(t - game.thin[i]) <= 1, `thin line ${i}: ${t} against ${game.thin[i]} px`));
    const ratio = (m) => m.thick.reduce((a, b) => a + b) / 4 / (m.thin.reduce((a, b) => a + b) / 6);
    assert(Math.abs(ratio(book) - ratio(game)) <= 0.5, `thick/thin: ${ratio(book)} against ${ratio(game)}`);
  });

  await step(`${name}: the digits carry the same ink: same weight and size (bold would be 30% more)`, async () => {
    const r = game.ink / book.ink;
    assert(r > 0.92 && r < 1.08, `ink of the givens: ${game.ink} px in the game, ${book.ink} in the PDF (${r.toFixed(3)})`);
  });

  await step(`${name}: the same text in the same places: label, digits, page number`, async () => {
    const [g, b] = [lines(gamePdf), lines(bookPdf)];
    assertEq(g, b, 'pdftotext -layout of page 1');
    assert(/^1 · \w+ · SE \d+\.\d$/.test(b[0]), `the label: ${b[0]}`);
    // Word by word (the label's words too, so its spacing is the PDF's), across to within a point.
    // Down, the boxes differ by a few points: Chromium's PDF gives the font another ascent and
    // descent than krilla's (the pixels, compared above, agree).
    const [gw, bw] = [words(gamePdf), words(bookPdf)];
    assertEq(gw.length, bw.length, 'as many words');
    const used = new Set();
    for (const w of bw) {
      const k = gw.findIndex((g, i) => !used.has(i) && g.text === w.text && Math.abs(g.x - w.x) < 1 && Math.abs(g.y - w.y) < 8);
      assert(k >= 0, `"${w.text}" at (${w.x}, ${w.y}) in the PDF has no match in the game's`);
      used.add(k);
    }
  });
  await page.close();
}

await done();
