// The print page: a game or a batch laid out as `shudu print` lays out its PDF.

import { api } from './engine.js';
import { $, BANDS, col, dealPuzzle, digitsOf, game, row } from './storage.js';

// The print page draws the layout of `shudu print`'s PDF (crates/cli/src/book.rs), with the
// same constants and the same font (DejaVu Sans, served at /fonts/DejaVuSans.ttf): each page an
// SVG of the paper's size in points. Change both together; crates/cli/tests/print.rs checks
// that these numbers are book.rs's and compares the two printouts pixel by pixel.
export const PRINT = {
  paper: { a4: [595.276, 841.89], letter: [612, 792] },
  font: 'shudu print DejaVu Sans', // style.css's @font-face
  margin: 40, titleSize: 14, footerSize: 10,
  digit: 0.62, candidate: 0.24, candidateStep: 0.29,
  digitHeight: 0.742, // DejaVu Sans's digits stand 0.742 em above the baseline (its '8')
  grey: '#6e6e6e', markGrey: '#8c8c8c', // an answer's (and the player's) digits; candidates
};

// Columns and rows of slots for `perPage` puzzles (book.rs `arrangement`).
export const printArrangement = (perPage) => ({ 1: [1, 1], 2: [1, 2], 4: [2, 2], 6: [2, 3] })[perPage] || [3, 3];

// The slots of a page, in reading order (book.rs `slots`).
export function printSlots(paper, perPage, titled) {
  const [w, h] = PRINT.paper[paper];
  const [cols, rows] = printArrangement(perPage);
  const top = PRINT.margin + (titled ? PRINT.titleSize * 2 : 0);
  const bottom = h - PRINT.margin - PRINT.footerSize * 2;
  const slotW = (w - 2 * PRINT.margin) / cols;
  const slotH = (bottom - top) / rows;
  const gap = perPage === 1 ? 0 : 18;
  const labelSize = perPage >= 6 ? 9 : 11;
  const labelH = labelSize * 1.6;
  const side = Math.min(slotW - gap, slotH - gap - labelH, w - 2 * PRINT.margin);
  const out = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x0 = PRINT.margin + c * slotW;
      const y0 = top + r * slotH;
      out.push({ x: x0 + (slotW - side) / 2, y: y0 + labelH + (slotH - gap - labelH - side) / 2, side, labelSize });
    }
  }
  return out;
}

export const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const pt = (x) => Number(x.toFixed(3));

export function svgText(cls, x, y, size, text, fill = '') {
  return `<text class="${cls}" x="${pt(x)}" y="${pt(y)}" font-size="${pt(size)}"${fill ? ` fill="${fill}"` : ''}>${esc(text)}</text>`;
}

// One grid: `cells[i]` is { d, kind: 'given' | 'entry' | 'solved' } or { marks } (a bit mask of
// candidates) or null. Thin cell lines, thick box lines and border (book.rs `line_widths`).
export function printGrid(slot, cells) {
  const { x, y, side } = slot;
  const cell = side / 9;
  const thin = Math.min(1, Math.max(0.5, side * 0.0025));
  const thick = Math.min(3, Math.max(1.5, side * 0.009));
  let html = '<g class="print-grid">';
  for (const [width, boxes] of [[thin, false], [thick, true]]) {
    let d = '';
    for (let i = 0; i <= 9; i++) {
      if ((i % 3 === 0) !== boxes) continue;
      const t = i * cell;
      d += `M${pt(x)} ${pt(y + t)}H${pt(x + side)}M${pt(x + t)} ${pt(y)}V${pt(y + side)}`;
    }
    html += `<path class="${boxes ? 'thick' : 'thin'}" d="${d}" stroke="#000" stroke-width="${pt(width)}" stroke-linecap="square" fill="none"/>`;
  }
  const half = (size) => (PRINT.digitHeight * size) / 2;
  for (let i = 0; i < 81; i++) {
    const c = cells[i];
    if (!c) continue;
    const cx = x + (col(i) + 0.5) * cell;
    const cy = y + (row(i) + 0.5) * cell;
    if (c.d) {
      const size = cell * PRINT.digit;
      html += svgText(c.kind, cx, cy + half(size), size, c.d, c.kind === 'given' ? '' : PRINT.grey);
    } else if (c.marks) {
      const size = cell * PRINT.candidate;
      for (const d of digitsOf(c.marks)) {
        const mx = cx + (((d - 1) % 3) - 1) * PRINT.candidateStep * cell;
        const my = cy + (Math.floor((d - 1) / 3) - 1) * PRINT.candidateStep * cell;
        html += svgText('candidate', mx, my + half(size), size, d, PRINT.markGrey);
      }
    }
  }
  return `${html}</g>`;
}

// The pages of a book, as `shudu print` lays them out: `puzzles` (each { label, cells }) `perPage`
// a page, then `answers` nine a page under the title "Answers"; page numbers at the foot.
export function printPages(puzzles, answers, perPage, paper) {
  const [w, h] = PRINT.paper[paper];
  const pages = [];
  for (let k = 0; k < puzzles.length; k += perPage) pages.push({ items: puzzles.slice(k, k + perPage), perPage, title: null });
  for (let k = 0; k < answers.length; k += 9) pages.push({ items: answers.slice(k, k + 9), perPage: 9, title: 'Answers' });
  let html = '';
  pages.forEach((pg, n) => {
    let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}pt" height="${h}pt">`;
    if (pg.title) svg += svgText('print-title', w / 2, PRINT.margin + PRINT.titleSize, PRINT.titleSize, pg.title);
    svg += svgText('print-foot', w / 2, h - PRINT.margin, PRINT.footerSize, n + 1);
    const slots = printSlots(paper, pg.perPage, !!pg.title);
    pg.items.forEach((item, k) => {
      const slot = slots[k];
      svg += `<g class="print-puzzle">${svgText('print-label', slot.x, slot.y - slot.labelSize * 0.5, slot.labelSize, item.label)}` +
        `${printGrid(slot, item.cells)}</g>`;
    });
    html += `<section class="print-page ${paper}">${svg}</svg></section>`;
  });
  const area = $('print-area');
  area.innerHTML = html;
  document.body.classList.add('print-ready');
  // A browser driven by a test has no print dialog to close; it inspects the print area instead.
  // The font first: a page printed before it loads would fall back to another.
  const font = document.fonts ? document.fonts.load(`10pt "${PRINT.font}"`) : Promise.resolve();
  if (!navigator.webdriver) font.finally(() => window.print());
}

// A puzzle's cells: its givens, and either the rest of its solution (an answer) or nothing.
export function printCells(line, solution) {
  return [...Array(81).keys()].map((i) => {
    const g = line[i] === '.' || line[i] === '0' ? 0 : Number(line[i]);
    if (g) return { d: g, kind: 'given' };
    return solution ? { d: Number(solution[i]), kind: 'solved' } : null;
  });
}

// The label over a grid, as `shudu print` writes it: `1  ·  hard  ·  SE 2.3`.
export const printLabel = (n, band, rating) => (band && rating ? `${n}  ·  ${band}  ·  SE ${rating}` : `${n}`);

export function printCurrent() {
  $('dlg-print').close();
  // With the player's progress: their digits in the grey of an answer's digits and their notes
  // (corner and centre marks alike) as candidates, small in the 3x3 layout and a lighter grey:
  // what `shudu print` draws for the pencil-mark line of the position.
  const progress = $('print-progress').checked;
  const cells = printCells(game.puzzle, null).map((c, i) => {
    if (c || !progress) return c;
    if (game.values[i]) return { d: game.values[i], kind: 'entry' };
    const marks = game.marks[i] | game.centre[i];
    return marks ? { marks } : null;
  });
  const band = BANDS.includes(game.band) ? game.band : null;
  printPages([{ label: printLabel(1, band, game.rating), cells }], [], 1, $('print-paper').value);
}

export async function printBatch() {
  const n = Math.max(1, Math.min(24, Number($('print-count').value) || 1));
  const band = $('print-band').value;
  const withSolutions = $('print-solutions').checked;
  const perPage = Number($('print-per-page').value) || 4;
  const status = $('print-status');
  const puzzles = [];
  const answers = [];
  try {
    $('print-batch').disabled = true;
    for (let k = 1; k <= n; k++) {
      status.textContent = `Fetching puzzle ${k} of ${n}…`;
      const info = await dealPuzzle(band);
      puzzles.push({ label: printLabel(k, info.band, info.rating), cells: printCells(info.puzzle, null) });
      if (withSolutions) {
        const s = await api('/api/solve', { puzzle: info.puzzle });
        answers.push({ label: `Answer ${k}`, cells: printCells(info.puzzle, s.solution) });
      }
    }
    status.textContent = '';
    $('dlg-print').close();
    printPages(puzzles, answers, perPage, $('print-paper').value);
  } catch (e) {
    status.textContent = e.message;
  } finally {
    $('print-batch').disabled = false;
  }
}
