// Positions, moves (undo and redo), digits and pencil marks, and the clock.

import { focusCell, render, say } from './board.js';
import { announce, toast } from './dialogs.js';
import { bandStats, checkWin } from './games.js';
import { hideHint, hintPress } from './hints.js';
import { $, HOUSES, PEERS, STORE, bit, cellName, col, digitsOf, game, row, saveGame, settings, spokenCell, stats, store, ui } from './storage.js';

export const givenAt = (i) => (game.puzzle[i] === '.' || game.puzzle[i] === '0' ? 0 : Number(game.puzzle[i]));
export const valueAt = (i) => givenAt(i) || game.values[i];
export const boardValues = () => [...Array(81).keys()].map(valueAt);
export const entriesLine = () => game.values.map((v) => (v ? String(v) : '.')).join('');
export const marksList = () => game.marks.map((m) => digitsOf(m).join(''));
// The notes a hint judges: every cell's once candidates were filled, else those of the cells
// marked complete (the server takes every candidate for a cell sent without notes); none if
// no cell is marked.
export function judgedMarks() {
  if (game.filled) return marksList();
  if (!game.complete.some((x, i) => x && !boardValues()[i] && game.marks[i])) return null;
  return game.marks.map((m, i) => (game.complete[i] ? digitsOf(m).join('') : ''));
}

// Marks the target cells' notes complete (or not, if all are already): a hint then judges
// them, and says if they leave out the cell's digit.
export function toggleComplete() {
  if (!game || game.solved || ui.paused || ui.loading) return;
  const vals = boardValues();
  const all = targets().filter((i) => !vals[i]);
  if (all.length === 0) return;
  const on = all.every((i) => game.complete[i]) ? 0 : 1;
  const hintOpen = !!ui.hint && !$('hint-panel').hidden;
  // A move like any other, so Undo takes the mark off (or puts it back) again.
  if (!commit(new Map(all.map((i) => [i, { x: on }])), 'complete')) return;
  announce(on ? `Notes of ${all.length === 1 ? spokenCell(all[0]) : `${all.length} cells`} marked complete: hints will check them.`
    : 'Notes no longer marked complete.');
  // An open hint was about the notes as they were judged before: ask again for the position
  // now (which may be a mistake in the notes just marked), without counting another hint.
  if (hintOpen) hintPress({ refresh: true });
}
// What a hint is about: the digits, the notes, and which notes are marked complete (hints
// judge those), so marking notes complete makes an open hint stale like any move.
export const positionKey = () => `${entriesLine()}|${game.marks.join(',')}|${game.complete.join('')}`;

export function candidatesOf(i, vals = boardValues()) {
  if (vals[i]) return 0;
  let mask = 0x1ff;
  for (const p of PEERS[i]) if (vals[p]) mask &= ~bit(vals[p]);
  return mask;
}

export function conflictsOf(vals) {
  const out = new Set();
  for (const house of HOUSES) {
    const seen = new Map();
    for (const i of house) {
      const v = vals[i];
      if (!v) continue;
      if (seen.has(v)) {
        out.add(i);
        out.add(seen.get(v));
      } else {
        seen.set(v, i);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Changes, undo and redo. A move is a list of [cell, oldValue, oldMarks, newValue, newMarks],
// followed by [oldCentre, newCentre, oldColour, newColour] when the centre marks or the colour
// change, and then by [oldComplete, newComplete] when the cell's "notes complete" mark changes
// (moves saved before those existed have five or nine items). A move that fills or clears every
// note also keeps `f: [oldFilled, newFilled]`, so Undo and Redo restore whether hints judge the
// notes as complete.

export function setCell(i, v, m, c, k, x) {
  game.values[i] = v;
  game.marks[i] = m;
  if (c !== undefined) game.centre[i] = c;
  if (k !== undefined) game.colours[i] = k;
  if (x !== undefined) game.complete[i] = x;
}
export const undoChange = (ch) => setCell(ch[0], ch[1], ch[2], ch[5], ch[7], ch[9]);
export const redoChange = (ch) => setCell(ch[0], ch[3], ch[4], ch[6], ch[8], ch[10]);

export function commit(changes, label, filled) {
  if (!game || game.solved || ui.paused || ui.loading) return false;
  const move = [];
  for (const [i, next] of changes) {
    const v = next.v ?? game.values[i];
    const m = next.m ?? game.marks[i];
    const c = next.c ?? game.centre[i];
    const k = next.k ?? game.colours[i];
    const x = next.x ?? game.complete[i];
    const ch = [i, game.values[i], game.marks[i], v, m];
    if (c !== game.centre[i] || k !== game.colours[i] || x !== game.complete[i]) {
      ch.push(game.centre[i], c, game.colours[i], k);
    }
    if (x !== game.complete[i]) ch.push(game.complete[i], x);
    if (ch.length > 5 || v !== game.values[i] || m !== game.marks[i]) move.push(ch);
  }
  if (move.length === 0) return false;
  for (const ch of move) redoChange(ch);
  const entry = { k: label, c: move };
  if (filled !== undefined && filled !== game.filled) {
    entry.f = [game.filled, filled];
    game.filled = filled;
  }
  game.history.push(entry);
  game.future = [];
  if (!game.counted) {
    // A game counts as started on its first move, not when it is dealt or imported.
    game.counted = true;
    bandStats(game.band).started++;
    store(STORE.stats, stats);
  }
  afterChange();
  return true;
}

export function undo() {
  if (!game || game.solved || ui.paused || ui.loading || game.history.length === 0) return;
  const move = game.history.pop();
  for (const ch of move.c) undoChange(ch);
  if (move.f) game.filled = move.f[0];
  game.future.push(move);
  afterChange();
  announce(`Undid ${describeMove(move)}`);
}

export function redo() {
  if (!game || game.solved || ui.paused || ui.loading || game.future.length === 0) return;
  const move = game.future.pop();
  for (const ch of move.c) redoChange(ch);
  if (move.f) game.filled = move.f[1];
  game.history.push(move);
  afterChange();
  announce(`Redid ${describeMove(move)}`);
}

export function describeMove(move) {
  const names = { digit: 'a digit', erase: 'an erase', mark: 'a pencil mark', fill: 'filling candidates',
    clear: 'clearing marks', hint: 'a hint', centre: 'a centre mark', colour: 'a colour',
    complete: 'notes marked complete' };
  return names[move.k] || 'a move';
}

export function afterChange() {
  ui.wrong.clear();
  ui.flash = null;
  // A hint belongs to its position: after any move it would show text without highlights.
  if (ui.hint && ui.hint.key !== positionKey()) {
    ui.hint = null;
    game.hint = null;
    hideHint();
  }
  saveGame();
  render();
  checkWin();
}

// A digit placed in cell i, with the marks of its peers updated when that setting is on.
export function placement(i, d, changes = new Map()) {
  changes.set(i, { v: d, m: 0 });
  if (d && settings.autoMarks) {
    for (const p of PEERS[i]) {
      const m = changes.get(p)?.m ?? game.marks[p];
      if (m & bit(d)) changes.set(p, { ...changes.get(p), m: m & ~bit(d) });
      const c = changes.get(p)?.c ?? game.centre[p];
      if (c & bit(d)) changes.set(p, { ...changes.get(p), c: c & ~bit(d) });
    }
  }
  return changes;
}

// The cells an entry goes to: every selected cell, or the one with the cursor.
export function targets() {
  return ui.selection.size > 1 ? [...ui.selection].sort((a, b) => a - b) : [ui.selected];
}

// Enters `d` in the target cells in `mode` (the keypad's mode unless Shift or a long press
// said otherwise): a digit, a corner or centre mark (toggled: added to every target unless
// all have it), or a colour.
export function enterDigit(d, mode = ui.mode) {
  if (!game || game.solved || ui.paused || ui.loading) return;
  const all = targets();
  if (mode === 'colour') {
    const k = all.every((i) => game.colours[i] === d) ? 0 : d;
    commit(new Map(all.map((i) => [i, { k }])), 'colour');
    return;
  }
  const open = all.filter((i) => !givenAt(i));
  if (open.length === 0) {
    toast(`${cellName(ui.selected)} is a given.`);
    return;
  }
  if (mode === 'corner' || mode === 'centre') {
    const empty = open.filter((i) => !game.values[i]);
    if (empty.length === 0) {
      toast('Erase the digit first to pencil in marks.');
      return;
    }
    const field = mode === 'corner' ? 'm' : 'c';
    const have = (i) => (mode === 'corner' ? game.marks[i] : game.centre[i]);
    const adding = !empty.every((i) => have(i) & bit(d));
    commit(new Map(empty.map((i) => [i, { [field]: adding ? have(i) | bit(d) : have(i) & ~bit(d) }])),
      mode === 'corner' ? 'mark' : 'centre');
    return;
  }
  if (open.length === 1 && game.values[open[0]] === d) {
    // The digit the cell holds: erased only if the player asked for that (Settings); else
    // typing it again changes nothing.
    if (settings.toggleErase) commit(new Map([[open[0], { v: 0 }]]), 'erase');
    return;
  }
  const changes = new Map();
  for (const i of open) placement(i, d, changes);
  if (!commit(changes, 'digit')) return;
  const placed = open.length === 1 ? `${d} in ${cellName(open[0])}` : `${d} in ${open.length} cells`;
  const i = settings.conflicts && !game.solved ? open.find((j) => PEERS[j].some((p) => valueAt(p) === d)) : undefined;
  if (i !== undefined) {
    const clash = PEERS[i].find((p) => valueAt(p) === d);
    const where = row(clash) === row(i) ? 'row' : col(clash) === col(i) ? 'column' : 'box';
    toast(`${d} is already in this ${where}.`, 3200, { quiet: true });
    say(`${placed}: conflict, ${d} is already in this ${where} at ${cellName(clash)}.`);
  } else if (!game.solved) {
    say(`${placed}.`);
  }
}

export function erase() {
  if (!game || game.solved || ui.paused || ui.loading) return;
  const all = targets();
  if (ui.mode === 'colour' || all.every((i) => givenAt(i) || (!game.values[i] && !game.marks[i] && !game.centre[i]))) {
    // Nothing else to erase: the colour goes.
    if (all.some((i) => game.colours[i])) commit(new Map(all.map((i) => [i, { k: 0 }])), 'erase');
    return;
  }
  const open = all.filter((i) => !givenAt(i));
  if (open.some((i) => game.values[i])) commit(new Map(open.map((i) => [i, { v: 0 }])), 'erase');
  else commit(new Map(open.map((i) => [i, { m: 0, c: 0 }])), 'erase');
}

export function fillCandidates() {
  if (!game) return;
  const vals = boardValues();
  const changes = new Map();
  for (let i = 0; i < 81; i++) if (!vals[i]) changes.set(i, { m: candidatesOf(i, vals) });
  // From now on the notes are meant to be complete: hints judge them (undone with the move).
  if (commit(changes, 'fill', true)) announce('Filled every empty cell with its candidates.');
  else if (!game.filled) {
    game.filled = true;
    saveGame();
  }
}

export function clearMarks() {
  if (!game) return;
  const changes = new Map();
  for (let i = 0; i < 81; i++) {
    if (game.marks[i] || game.centre[i] || game.complete[i]) changes.set(i, { m: 0, c: 0, x: 0 });
  }
  if (commit(changes, 'clear', false)) announce('Cleared every pencil mark.');
  else if (game.filled) {
    game.filled = false;
    saveGame();
  }
}

// ---------------------------------------------------------------------------------------------
// Timer. `game.elapsed` holds the finished stretches; `ui.since` the start of the running one.

export function clockRunning() {
  return !!game && !game.solved && !ui.paused && !ui.loading && !document.hidden &&
    !document.querySelector('dialog[open]');
}

export function syncClock() {
  const now = performance.now();
  if (clockRunning()) {
    if (ui.since == null) ui.since = now;
  } else if (ui.since != null) {
    game.elapsed += now - ui.since;
    ui.since = null;
    saveGame();
  }
}

// Adds the running stretch to `game.elapsed` and saves, so a reload loses no time.
export function foldClock() {
  if (!game) return;
  if (ui.since != null) {
    const now = performance.now();
    game.elapsed += now - ui.since;
    ui.since = clockRunning() ? now : null;
  }
  saveGame();
}

export function elapsed() {
  if (!game) return 0;
  return game.elapsed + (ui.since != null ? performance.now() - ui.since : 0);
}

export function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function showTime() {
  $('timer').textContent = formatTime(elapsed());
}

export function setPaused(paused) {
  if (!game || game.solved) paused = false;
  ui.paused = paused;
  syncClock();
  // Saved with the game, so that a reload keeps the board hidden and the clock stopped.
  if (game && !!game.paused !== paused) {
    game.paused = paused;
    saveGame();
  }
  $('paused').hidden = !paused;
  $('board').classList.toggle('hidden', paused);
  $('pause').setAttribute('aria-pressed', String(paused));
  $('pause-label').textContent = paused ? 'Resume' : 'Pause';
  $('pause').title = paused ? 'Resume (P)' : 'Pause (P)';
  document.body.classList.toggle('is-paused', paused);
  if (paused) $('resume').focus();
  else focusCell();
  render();
}
