// Drawing the grid, the keypad and a hint's figure; the live region screen readers hear.

import { announce } from './dialogs.js';
import { practiseName } from './hints.js';
import { boardValues, candidatesOf, conflictsOf, enterDigit, givenAt, positionKey, showTime } from './notes.js';
import { $, COLOUR_NAMES, HOUSES, LABEL, MODE_NAMES, bit, box, col, digitsOf, game, row, settings, spokenCell, ui } from './storage.js';

export const cells = [];
export const keys = [];

export function buildBoard() {
  const board = $('board');
  for (let r = 0; r < 9; r++) {
    const rowEl = document.createElement('div');
    rowEl.className = 'row';
    rowEl.setAttribute('role', 'row');
    for (let c = 0; c < 9; c++) {
      const i = r * 9 + c;
      const el = document.createElement('div');
      el.className = 'cell';
      el.setAttribute('role', 'gridcell');
      el.dataset.i = String(i);
      el.tabIndex = -1;
      el.addEventListener('pointerdown', (e) => cellDown(e, i));
      el.addEventListener('pointerenter', () => cellDrag(i));
      rowEl.append(el);
      cells.push({ el, html: '', cls: '', label: '' });
    }
    board.append(rowEl);
  }
  const pad = $('keypad');
  for (let d = 1; d <= 9; d++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'key';
    b.dataset.d = String(d);
    b.innerHTML = `<span class="key-swatch t${d}" aria-hidden="true"></span><span class="key-digit">${d}</span>` +
      '<span class="key-left" aria-hidden="true"></span>';
    b.addEventListener('click', (e) => keyPress(d, e));
    // A touch held on a key enters a pencil mark.
    b.addEventListener('pointerdown', (e) => {
      if (e.pointerType !== 'touch') return;
      clearTimeout(ui.longPress?.timer);
      ui.longPress = { d, fired: false, timer: setTimeout(() => {
        ui.longPress.fired = true;
        enterDigit(d, 'corner');
        navigator.vibrate?.(15);
      }, 450) };
    });
    for (const end of ['pointerup', 'pointercancel', 'pointerleave']) {
      b.addEventListener(end, () => clearTimeout(ui.longPress?.timer));
    }
    b.addEventListener('contextmenu', (e) => { if (ui.longPress) e.preventDefault(); });
    pad.append(b);
    keys.push(b);
  }
}

export function render() {
  if (!game) return;
  const vals = boardValues();
  const conflicts = conflictsOf(vals);
  const shownConflicts = settings.conflicts ? conflicts : new Set();
  const sel = ui.selected;
  // The digit to highlight: the one picked first in digit-first mode, else the selected cell's.
  const selVal = settings.digitFirst && ui.digit ? ui.digit : vals[sel];
  const multi = ui.selection.size > 1;
  // The hint is drawn while its panel is open: closed, it leaves nothing on the board (nor on
  // paper, nor in the cells' labels), and reopening it draws it again at its stage.
  const hint = ui.hint && ui.hint.key === positionKey() && !$('hint-panel').hidden ? ui.hint : null;
  const hintCells = new Set();
  const hintHouse = new Set();
  const hintPlace = new Map();
  const hintElim = new Map();
  if (hint && hint.stage >= 2) {
    // Stage 2 tints the houses to look at (for a step without houses, the boxes of its
    // cells, as its text says); the cells themselves would give the step away until stage 3.
    const houses = hint.data.houses.map((h) => (h.kind === 'row' ? h.index : h.kind === 'col' ? 9 + h.index : 18 + h.index));
    if (houses.length === 0 && hint.data.kind === 'step') {
      for (const i of hint.data.cells) if (!houses.includes(18 + box(i))) houses.push(18 + box(i));
    }
    for (const k of houses) for (const i of HOUSES[k]) hintHouse.add(i);
    if (hint.stage >= 3 || hint.data.kind !== 'step') for (const i of hint.data.cells) hintCells.add(i);
  }
  // Stage 3 of a fish or one-digit pattern: its houses tinted by role (base, cover) and its fins
  // ringed, as the core's figure says.
  const hintBase = new Set();
  const hintCover = new Set();
  const hintFin = new Set();
  // Drawn only while the panel shows (a closed hint keeps its stage, not its drawing).
  const drawn = hint && hint.stage >= 3 && hint.data.kind === 'step' && !$('hint-panel').hidden;
  const fig = drawn ? hint.data.figure : null;
  if (fig) {
    const idx = (h) => (h.kind === 'row' ? h.index : h.kind === 'col' ? 9 + h.index : 18 + h.index);
    for (const h of fig.base) for (const i of HOUSES[idx(h)]) hintBase.add(i);
    for (const h of fig.cover) for (const i of HOUSES[idx(h)]) hintCover.add(i);
    for (const i of fig.fins) hintFin.add(i);
  }
  // The digits the step is about, shown as candidates in its cells at the last stage.
  const hintKey = new Map();
  if (hint && hint.stage >= 3) {
    for (const { cell, digit } of hint.data.placements) hintPlace.set(cell, digit);
    for (const { cell, digit } of hint.data.eliminations) hintElim.set(cell, (hintElim.get(cell) || 0) | bit(digit));
    let digits = 0;
    for (const { digit } of [...hint.data.placements, ...hint.data.eliminations]) digits |= bit(digit);
    for (const i of hint.data.cells) {
      const cands = game.marks[i] || candidatesOf(i, vals);
      // A cell that loses candidates itself (a hidden set) keys the digits it keeps; any other
      // cell keys the step's digits among its candidates (a naked set, a fish's corners).
      const elim = hintElim.get(i) || 0;
      const shown = elim ? cands & ~elim : cands & digits;
      if (!vals[i] && shown) hintKey.set(i, shown);
    }
  }

  for (let i = 0; i < 81; i++) {
    const v = vals[i];
    const given = !!givenAt(i);
    const cls = ['cell'];
    if (given) cls.push('given');
    else if (v) cls.push('entry');
    if (i === sel) cls.push('selected');
    else if (multi && ui.selection.has(i)) cls.push('selected', 'also');
    else if (!multi && (row(i) === row(sel) || col(i) === col(sel) || box(i) === box(sel))) cls.push('peer');
    // The same-digit highlight would compete with a hint's drawing: off while a hint shows.
    const sameOn = settings.same && !(hint && hint.stage >= 2 && !$('hint-panel').hidden);
    if (sameOn && selVal && v === selVal && (i !== sel || ui.digit)) cls.push('same');
    if (shownConflicts.has(i)) cls.push('conflict');
    if (ui.wrong.has(i)) cls.push('wrong');
    if (hintCells.has(i)) cls.push('hint-cell');
    if (hintHouse.has(i)) cls.push('hint-house');
    if (hintBase.has(i)) cls.push('hint-base');
    if (hintCover.has(i)) cls.push('hint-cover');
    if (hintFin.has(i)) cls.push('hint-fin');
    if (hintPlace.has(i)) cls.push('hint-place');
    else if (hintElim.has(i) && !hintCells.has(i)) cls.push('hint-target');
    if (ui.flash === i) cls.push('flash');
    if (!v && game.complete[i]) cls.push('notes-complete');

    let html;
    let label = `${spokenCell(i)}: `;
    const centre = game.centre[i];
    if (v) {
      html = `<span class="v">${v}</span>`;
      label += given ? `${v}, given` : `${v}`;
    } else if (hintPlace.has(i)) {
      html = `<span class="v preview">${hintPlace.get(i)}</span>`;
      label += `empty, the hint places ${hintPlace.get(i)}`;
    } else {
      const m = game.marks[i];
      const elim = hintElim.get(i) || 0;
      const key = hintKey.get(i) || 0;
      if (m || elim || key) {
        const shown = m | elim | key;
        // The cell's label says the marks in words; the small digits are drawn by the style
        // sheet (`data-d`), for the eye only, so the label is the cell's whole text.
        html = '<span class="marks" aria-hidden="true">' + [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => {
          if (!(shown & bit(d))) return '<span></span>';
          const k = ['m'];
          if (sameOn && selVal === d) k.push('m-same');
          if (key & bit(d)) k.push('m-key');
          if (elim & bit(d)) k.push('m-elim');
          return `<span class="${k.join(' ')}" data-d="${d}"></span>`;
        }).join('') + '</span>';
        label += m ? `empty, pencil marks ${digitsOf(m).join(' ')}` : 'empty';
        if (elim) label += `; the hint removes ${digitsOf(elim).join(' ')}`;
      } else {
        html = '';
        label += 'empty';
      }
      if (game.complete[i]) label += ', notes complete';
      if (centre) {
        html += `<span class="centre${digitsOf(centre).length > 4 ? ' many' : ''}" aria-hidden="true" data-d="${digitsOf(centre).join('')}"></span>`;
        label += `, centre marks ${digitsOf(centre).join(' ')}`;
      }
    }
    const colour = game.colours[i];
    if (colour) {
      html = `<span class="tint t${colour}" aria-hidden="true"></span>${html}`;
      label += `, coloured ${COLOUR_NAMES[colour]}`;
    }
    if (shownConflicts.has(i)) label += ', breaks a rule';
    if (ui.wrong.has(i)) label += ', wrong';
    if (hintCells.has(i)) label += ', part of the hint';

    const c = cells[i];
    const clsText = cls.join(' ');
    if (c.cls !== clsText) { c.el.className = clsText; c.cls = clsText; }
    if (c.html !== html) { c.el.innerHTML = html; c.html = html; }
    if (c.label !== label) { c.el.setAttribute('aria-label', label); c.label = label; }
    c.el.tabIndex = i === sel ? 0 : -1;
    c.el.setAttribute('aria-selected', String(i === sel));
  }

  drawLinks(drawn ? hint.data : null);

  // Keypad: how many of each digit are left to place.
  const counts = Array(10).fill(0);
  for (const v of vals) if (v) counts[v]++;
  for (const b of keys) {
    const d = Number(b.dataset.d);
    const left = Math.max(0, 9 - counts[d]);
    b.querySelector('.key-left').textContent = left ? String(left) : '✓';
    b.classList.toggle('done', left === 0 && ![...conflicts].some((i) => vals[i] === d));
    // The name stays the visible digit; the count and the mode are the description.
    const what = { digit: 'Place', corner: 'Pencil mark', centre: 'Centre mark', colour: `Colour ${COLOUR_NAMES[d]},` }[ui.mode];
    b.title = `${what} ${d}: ${left ? `${left} left to place` : 'all placed'}`;
    if (settings.digitFirst) b.setAttribute('aria-pressed', String(ui.digit === d));
    else b.removeAttribute('aria-pressed');
  }
  const pencil = ui.mode === 'corner';
  $('keypad').classList.toggle('pencil', pencil);
  $('keypad').classList.toggle('centre', ui.mode === 'centre');
  $('keypad').classList.toggle('colour', ui.mode === 'colour');
  $('pencil').setAttribute('aria-pressed', String(pencil));
  $('pencil-state').textContent = pencil ? 'on' : 'off';
  $('centre-mode').setAttribute('aria-pressed', String(ui.mode === 'centre'));
  $('colour-mode').setAttribute('aria-pressed', String(ui.mode === 'colour'));
  document.body.classList.toggle('pencil-mode', pencil);
  $('undo').disabled = game.solved || game.history.length === 0;
  $('redo').disabled = game.solved || game.future.length === 0;
  for (const id of ['erase', 'fill-marks', 'clear-marks', 'notes-complete', 'hint', 'check', 'first-mistake', 'pencil', 'centre-mode', 'colour-mode']) {
    $(id).disabled = game.solved || ui.paused;
  }
  for (const b of keys) b.disabled = game.solved || ui.paused || ui.loading;
  $('pause').disabled = game.solved;
  if (ui.paused) {
    $('undo').disabled = true;
    $('redo').disabled = true;
  }
  $('board').classList.toggle('solved', game.solved);
  $('clock-box').hidden = !settings.timer;
  renderInfo();
  showTime();
}

// The links a step uses, drawn over the grid at stage 3: those the core records (fish and the
// one-digit patterns: strong links solid, weak ones dashed); else a wing's pivot to its
// pincers, a chain or loop from cell to cell in its order (the grader lists a chain's cells from
// its start). Other steps are drawn by their cells and houses alone.
export function linksOf(d) {
  const t = d.technique;
  const c = d.cells;
  if (d.figure && d.figure.links.length) {
    return { pivot: null, lines: d.figure.links.map((l) => [l.from, l.to, l.strong]) };
  }
  if (/^XYZ?-Wing/.test(t) && c.length === 3) return { pivot: c[0], lines: [[c[0], c[1]], [c[0], c[2]]] };
  if (/Chain|Cycle|Turbot/.test(t) && !/Forcing Chains/.test(t) && c.length > 1) {
    const lines = c.slice(1).map((to, k) => [c[k], to]);
    if (/Cycle/.test(t) && c.length > 2) lines.push([c.at(-1), c[0]]);
    return { pivot: null, lines };
  }
  return { pivot: null, lines: [] };
}

export function drawLinks(d) {
  const svg = $('links');
  const { pivot, lines } = d ? linksOf(d) : { pivot: null, lines: [] };
  const at = (i) => [col(i) + 0.5, row(i) + 0.5];
  svg.innerHTML = lines.map(([a, b, strong]) => {
    const [x1, y1] = at(a);
    const [x2, y2] = at(b);
    const kind = strong === true ? ' class="strong"' : strong === false ? ' class="weak"' : '';
    return `<line${kind} x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  }).join('');
  svg.toggleAttribute('hidden', lines.length === 0);
  for (let i = 0; i < 81; i++) cells[i].el.classList.toggle('hint-pivot', i === pivot);
}

export function renderInfo() {
  const parts = [LABEL[game.band] || game.band];
  if (game.rating) parts.push(`rating ${game.rating}${game.hardest ? ` (${game.hardest})` : ''}`);
  parts.push(`${[...game.puzzle].filter((ch) => ch !== '.' && ch !== '0').length} givens`);
  if (game.symmetry) {
    const option = document.querySelector(`#set-symmetry option[value="${game.symmetry}"]`);
    if (option) parts.push(option.textContent.toLowerCase());
  }
  if (game.practise) parts.push(`practising ${practiseName()}`);
  if (game.solved) parts.push('solved');
  // Written only when it changes: it is not a live region, and rewriting it at every render
  // made screen readers read the header again after every key.
  const html = `<span class="badge band-${game.band}">${parts[0]}</span> ${parts.slice(1).join(' · ')}`;
  if ($('game-info').innerHTML !== html) $('game-info').innerHTML = html;
}

// Says `text` once to screen readers (a polite live region, not shown): placements, conflicts
// and the end of a game. The region is emptied first, so the same words twice are said twice.
export function say(text) {
  const live = $('live');
  live.textContent = '';
  requestAnimationFrame(() => { live.textContent = text; });
}

export function select(i) {
  ui.selected = Math.max(0, Math.min(80, i));
  ui.selection.clear();
  render();
  focusCell();
}

// A press on a cell: in digit-first mode it enters the picked digit; with Ctrl (or Cmd, or
// Shift) it adds the cell to the selection; else it selects the cell and starts a drag that
// selects every cell it passes.
export function cellDown(e, i) {
  if (e.button !== 0) return;
  // Touch pointers are captured by the cell they start on: released, a drag reaches the others.
  if (e.target instanceof Element && e.target.hasPointerCapture?.(e.pointerId)) e.target.releasePointerCapture(e.pointerId);
  if (settings.digitFirst && ui.digit && !e.ctrlKey && !e.metaKey) {
    select(i);
    if (!givenAt(i) || ui.mode === 'colour') enterDigit(ui.digit);
    return;
  }
  if (e.ctrlKey || e.metaKey || e.shiftKey) {
    e.preventDefault();
    if (ui.selection.size === 0) ui.selection.add(ui.selected);
    if (ui.selection.has(i) && ui.selection.size > 1) {
      ui.selection.delete(i);
      ui.selected = [...ui.selection].at(-1);
    } else {
      ui.selection.add(i);
      ui.selected = i;
    }
    render();
    focusCell();
    return;
  }
  select(i);
  ui.dragging = true;
}

export function cellDrag(i) {
  if (!ui.dragging || i === ui.selected && ui.selection.size === 0) return;
  if (ui.selection.size === 0) ui.selection.add(ui.selected);
  ui.selection.add(i);
  ui.selected = i;
  render();
}

// A key of the keypad: in digit-first mode it picks the digit (or drops it); else it enters it.
export function keyPress(d, e) {
  if (ui.longPress?.fired) {
    ui.longPress = null;
    return;
  }
  ui.longPress = null;
  if (settings.digitFirst && !e.shiftKey) {
    ui.digit = ui.digit === d ? 0 : d;
    render();
    announce(ui.digit ? `Digit ${d} picked: tap cells to enter it` : 'No digit picked');
    return;
  }
  enterDigit(d, e.shiftKey ? (ui.mode === 'corner' ? 'digit' : 'corner') : ui.mode);
}

export function setMode(mode) {
  ui.mode = ui.mode === mode ? 'digit' : mode;
  render();
  announce(`The keypad enters ${MODE_NAMES[ui.mode].toLowerCase()}`);
}

export function focusCell() {
  const el = cells[ui.selected]?.el;
  if (el && !ui.paused) el.focus({ preventScroll: true });
}

export function move(dr, dc) {
  const r = (row(ui.selected) + dr + 9) % 9;
  const c = (col(ui.selected) + dc + 9) % 9;
  select(r * 9 + c);
}

// Shift+arrow: the cursor moves and the cell it reaches joins the selection.
export function extend(dr, dc) {
  if (ui.selection.size === 0) ui.selection.add(ui.selected);
  ui.selected = (row(ui.selected) + dr + 9) % 9 * 9 + (col(ui.selected) + dc + 9) % 9;
  ui.selection.add(ui.selected);
  render();
  focusCell();
}
