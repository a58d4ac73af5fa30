// shudu: the game page. Plain JavaScript, no build step; served from the binary.
//
// The game state is one object (`game`) saved to localStorage after every change: the puzzle,
// the player's digits (`values`), corner pencil marks (`marks`, one 9-bit mask a cell: the
// candidates hints read), centre marks (`centre`, the same shape), cell colours (`colours`,
// 0 for none or 1-9), and the undo and redo stacks as lists of cell changes. The page never holds the solution while playing: a
// win is judged by the rules (the grid is full and no house repeats a digit), and the solution is
// fetched only when the player asks for "first mistake".

const $ = (id) => document.getElementById(id);

const BANDS = ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme'];
const LABEL = {
  easy: 'Easy', medium: 'Medium', hard: 'Hard', fiendish: 'Fiendish',
  diabolical: 'Diabolical', extreme: 'Extreme', imported: 'Imported',
};
const STORE = {
  game: 'shudu.game.v1', stats: 'shudu.stats.v1', settings: 'shudu.settings.v1', seen: 'shudu.seen.v1',
};
const DEFAULT_SETTINGS = {
  theme: 'auto', timer: true, autoMarks: true, same: true, conflicts: true, symmetry: 'none',
  band: 'medium', digitFirst: false, coords: false, toggleErase: false,
};
// Cell colours, after Okabe and Ito's palette for colour-blind readers (with grey and a pale
// rose to make nine); screen readers hear their names.
const COLOUR_NAMES = ['', 'orange', 'sky blue', 'green', 'yellow', 'blue', 'vermilion', 'purple', 'grey', 'rose'];
const MODE_NAMES = { digit: 'Digits', corner: 'Pencil marks', centre: 'Centre marks', colour: 'Colours' };

// ---------------------------------------------------------------------------------------------
// Geometry: cells 0..80 row-major; houses are 9 rows, 9 columns, 9 boxes.

const row = (i) => Math.floor(i / 9);
const col = (i) => i % 9;
const box = (i) => Math.floor(row(i) / 3) * 3 + Math.floor(col(i) / 3);
const HOUSES = [];
for (let r = 0; r < 9; r++) HOUSES.push([...Array(9)].map((_, c) => r * 9 + c));
for (let c = 0; c < 9; c++) HOUSES.push([...Array(9)].map((_, r) => r * 9 + c));
for (let b = 0; b < 9; b++) {
  HOUSES.push([...Array(9)].map((_, k) => (Math.floor(b / 3) * 3 + Math.floor(k / 3)) * 9 + (b % 3) * 3 + (k % 3)));
}
const PEERS = [...Array(81)].map((_, i) =>
  [...Array(81).keys()].filter((j) => j !== i && (row(j) === row(i) || col(j) === col(i) || box(j) === box(i))));
const bit = (d) => 1 << (d - 1);
const cellName = (i) => `r${row(i) + 1}c${col(i) + 1}`;
const spokenCell = (i) => `row ${row(i) + 1}, column ${col(i) + 1}`;
const digitsOf = (mask) => [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => mask & bit(d));
const isLine = (s) => typeof s === 'string' && /^[0-9.]{81}$/.test(s);

// ---------------------------------------------------------------------------------------------
// Storage

function load(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing or a full store: the game goes on, unsaved.
  }
}

let settings = { ...DEFAULT_SETTINGS, ...load(STORE.settings, {}) };
let stats = load(STORE.stats, {});
// The classes of the puzzles this browser was dealt, per band (the server's `key`s): sent with
// each request so that no puzzle equivalent to one seen here is dealt again.
let seenClasses = load(STORE.seen, {});
if (typeof seenClasses !== 'object' || seenClasses === null || Array.isArray(seenClasses)) seenClasses = {};
// The most keys kept and sent a band: the request body stays under the server's 16 KiB.
const SEEN_PER_BAND = 700;

function seenKeys(band) {
  const keys = Array.isArray(seenClasses[band]) ? seenClasses[band] : [];
  return keys.filter((k) => typeof k === 'string' && /^[0-9a-f]{16}$/.test(k)).slice(-SEEN_PER_BAND);
}

function remember(info) {
  if (!info || typeof info.key !== 'string' || !BANDS.includes(info.band)) return;
  const keys = seenKeys(info.band);
  if (!keys.includes(info.key)) keys.push(info.key);
  seenClasses[info.band] = keys.slice(-SEEN_PER_BAND);
  store(STORE.seen, seenClasses);
}

// A new puzzle of `band` that this browser has not seen (`practise`: one whose hardest step is
// that technique, in the band or the lowest band where it occurs).
async function dealPuzzle(band, practise = '') {
  const body = { band, seen: [] };
  if (settings.symmetry && settings.symmetry !== 'none') body.symmetry = settings.symmetry;
  if (practise) body.practise = practise;
  // A practised technique may be dealt in another band than the one asked for.
  body.seen = practise ? BANDS.flatMap(seenKeys).slice(-SEEN_PER_BAND) : seenKeys(band);
  const info = await api('/api/puzzle', body);
  remember(info);
  return info;
}
let game = null;
const ui = {
  selected: 40,
  selection: new Set(), // more cells, chosen by Ctrl-click or by dragging; empty for one
  dragging: false,
  mode: 'digit', // what the keypad enters: 'digit', 'corner', 'centre' or 'colour'
  digit: 0, // the digit picked first, in digit-first mode
  longPress: null, // a touch held on a key, for a pencil mark
  paused: false,
  loading: false,
  hint: null, // { key, data, stage }
  wrong: new Set(), // from the last "check"
  flash: null, // a cell to draw attention to
  solution: null, // { puzzle, line }, fetched for "first mistake" only
  since: null, // when the running stretch of the clock began (performance.now())
};

function validGame(g) {
  return g && g.v === 1 && isLine(g.puzzle) && Array.isArray(g.values) && g.values.length === 81 &&
    Array.isArray(g.marks) && g.marks.length === 81 && Array.isArray(g.history) && Array.isArray(g.future);
}

// Games saved before centre marks and colours get empty ones.
function upgradeGame(g) {
  if (!Array.isArray(g.centre) || g.centre.length !== 81) g.centre = Array(81).fill(0);
  if (!Array.isArray(g.colours) || g.colours.length !== 81) g.colours = Array(81).fill(0);
  if (!Array.isArray(g.complete) || g.complete.length !== 81) g.complete = Array(81).fill(0);
  // The practised technique: a slug (it goes into a selector and a request), its name as the
  // server said it (it goes into the info line's markup).
  if (typeof g.practise !== 'string' || !/^[a-z0-9-]+$/.test(g.practise)) g.practise = null;
  if (typeof g.practiseName !== 'string' || !/^[\w ()+-]+$/.test(g.practiseName)) g.practiseName = null;
  // The open hint, if it is well formed (the panel shows it again only at its position).
  const h = g.hint;
  if (!h || typeof h.key !== 'string' || ![1, 2, 3].includes(h.stage) || typeof h.data !== 'object' || !h.data) {
    g.hint = null;
  }
  return g;
}

function saveGame() {
  if (game) store(STORE.game, game);
}

// ---------------------------------------------------------------------------------------------
// The API

// The page `shudu play --export` writes has no server: `<html data-engine="worker">`, and the
// engine (the npm package, WebAssembly) answers the same requests in a Web Worker (worker.js);
// a service worker (sw.js) keeps every file for offline play.
const OFFLINE = document.documentElement.dataset.engine === 'worker';
const engine = { worker: null, calls: 0, pending: new Map() };

function engineWorker() {
  if (engine.worker) return engine.worker;
  const w = new Worker('worker.js', { type: 'module' });
  w.onmessage = (e) => {
    const { id, ok, data, error } = e.data;
    const p = engine.pending.get(id);
    if (!p) return;
    engine.pending.delete(id);
    if (ok) p.resolve(data);
    else p.reject(new Error(error));
  };
  w.onerror = (e) => {
    e.preventDefault();
    for (const p of engine.pending.values()) p.reject(new Error(`The engine did not start: ${e.message || 'unknown error'}`));
    engine.pending.clear();
    engine.worker = null;
  };
  engine.worker = w;
  return w;
}

function workerApi(path, body) {
  return new Promise((resolve, reject) => {
    const id = ++engine.calls;
    engine.pending.set(id, { resolve, reject });
    engineWorker().postMessage({ id, endpoint: path.replace(/^\/api\//, ''), body: body ?? {} });
  });
}

if (OFFLINE && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}

async function api(path, body) {
  if (OFFLINE) return workerApi(path, body);
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new Error('The shudu server is not answering. Is `shudu play` still running?');
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

// ---------------------------------------------------------------------------------------------
// Positions

const givenAt = (i) => (game.puzzle[i] === '.' || game.puzzle[i] === '0' ? 0 : Number(game.puzzle[i]));
const valueAt = (i) => givenAt(i) || game.values[i];
const boardValues = () => [...Array(81).keys()].map(valueAt);
const entriesLine = () => game.values.map((v) => (v ? String(v) : '.')).join('');
const marksList = () => game.marks.map((m) => digitsOf(m).join(''));
// The notes a hint judges: every cell's once candidates were filled, else those of the cells
// marked complete (the server takes every candidate for a cell sent without notes); none if
// no cell is marked.
function judgedMarks() {
  if (game.filled) return marksList();
  if (!game.complete.some((x, i) => x && !boardValues()[i] && game.marks[i])) return null;
  return game.marks.map((m, i) => (game.complete[i] ? digitsOf(m).join('') : ''));
}

// Marks the target cells' notes complete (or not, if all are already): a hint then judges
// them, and says if they leave out the cell's digit.
function toggleComplete() {
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
const positionKey = () => `${entriesLine()}|${game.marks.join(',')}|${game.complete.join('')}`;

function candidatesOf(i, vals = boardValues()) {
  if (vals[i]) return 0;
  let mask = 0x1ff;
  for (const p of PEERS[i]) if (vals[p]) mask &= ~bit(vals[p]);
  return mask;
}

function conflictsOf(vals) {
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

function setCell(i, v, m, c, k, x) {
  game.values[i] = v;
  game.marks[i] = m;
  if (c !== undefined) game.centre[i] = c;
  if (k !== undefined) game.colours[i] = k;
  if (x !== undefined) game.complete[i] = x;
}
const undoChange = (ch) => setCell(ch[0], ch[1], ch[2], ch[5], ch[7], ch[9]);
const redoChange = (ch) => setCell(ch[0], ch[3], ch[4], ch[6], ch[8], ch[10]);

function commit(changes, label, filled) {
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

function undo() {
  if (!game || game.solved || ui.paused || ui.loading || game.history.length === 0) return;
  const move = game.history.pop();
  for (const ch of move.c) undoChange(ch);
  if (move.f) game.filled = move.f[0];
  game.future.push(move);
  afterChange();
  announce(`Undid ${describeMove(move)}`);
}

function redo() {
  if (!game || game.solved || ui.paused || ui.loading || game.future.length === 0) return;
  const move = game.future.pop();
  for (const ch of move.c) redoChange(ch);
  if (move.f) game.filled = move.f[1];
  game.history.push(move);
  afterChange();
  announce(`Redid ${describeMove(move)}`);
}

function describeMove(move) {
  const names = { digit: 'a digit', erase: 'an erase', mark: 'a pencil mark', fill: 'filling candidates',
    clear: 'clearing marks', hint: 'a hint', centre: 'a centre mark', colour: 'a colour',
    complete: 'notes marked complete' };
  return names[move.k] || 'a move';
}

function afterChange() {
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
function placement(i, d, changes = new Map()) {
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
function targets() {
  return ui.selection.size > 1 ? [...ui.selection].sort((a, b) => a - b) : [ui.selected];
}

// Enters `d` in the target cells in `mode` (the keypad's mode unless Shift or a long press
// said otherwise): a digit, a corner or centre mark (toggled: added to every target unless
// all have it), or a colour.
function enterDigit(d, mode = ui.mode) {
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

function erase() {
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

function fillCandidates() {
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

function clearMarks() {
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

function clockRunning() {
  return !!game && !game.solved && !ui.paused && !ui.loading && !document.hidden &&
    !document.querySelector('dialog[open]');
}

function syncClock() {
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
function foldClock() {
  if (!game) return;
  if (ui.since != null) {
    const now = performance.now();
    game.elapsed += now - ui.since;
    ui.since = clockRunning() ? now : null;
  }
  saveGame();
}

function elapsed() {
  if (!game) return 0;
  return game.elapsed + (ui.since != null ? performance.now() - ui.since : 0);
}

function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

function showTime() {
  $('timer').textContent = formatTime(elapsed());
}

function setPaused(paused) {
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

// ---------------------------------------------------------------------------------------------
// Rendering

const cells = [];
const keys = [];

function buildBoard() {
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

function render() {
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
function linksOf(d) {
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

function drawLinks(d) {
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

function renderInfo() {
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
function say(text) {
  const live = $('live');
  live.textContent = '';
  requestAnimationFrame(() => { live.textContent = text; });
}

function select(i) {
  ui.selected = Math.max(0, Math.min(80, i));
  ui.selection.clear();
  render();
  focusCell();
}

// A press on a cell: in digit-first mode it enters the picked digit; with Ctrl (or Cmd, or
// Shift) it adds the cell to the selection; else it selects the cell and starts a drag that
// selects every cell it passes.
function cellDown(e, i) {
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

function cellDrag(i) {
  if (!ui.dragging || i === ui.selected && ui.selection.size === 0) return;
  if (ui.selection.size === 0) ui.selection.add(ui.selected);
  ui.selection.add(i);
  ui.selected = i;
  render();
}

// A key of the keypad: in digit-first mode it picks the digit (or drops it); else it enters it.
function keyPress(d, e) {
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

function setMode(mode) {
  ui.mode = ui.mode === mode ? 'digit' : mode;
  render();
  announce(`The keypad enters ${MODE_NAMES[ui.mode].toLowerCase()}`);
}

function focusCell() {
  const el = cells[ui.selected]?.el;
  if (el && !ui.paused) el.focus({ preventScroll: true });
}

function move(dr, dc) {
  const r = (row(ui.selected) + dr + 9) % 9;
  const c = (col(ui.selected) + dc + 9) % 9;
  select(r * 9 + c);
}

// Shift+arrow: the cursor moves and the cell it reaches joins the selection.
function extend(dr, dc) {
  if (ui.selection.size === 0) ui.selection.add(ui.selected);
  ui.selected = (row(ui.selected) + dr + 9) % 9 * 9 + (col(ui.selected) + dc + 9) % 9;
  ui.selection.add(ui.selected);
  render();
  focusCell();
}

// ---------------------------------------------------------------------------------------------
// Messages

let toastTimer = null;
function toast(text, ms = 3200, { quiet = false } = {}) {
  const el = $('toast');
  // Quiet: shown, not read out, because the live region says it in full (a conflict).
  el.setAttribute('aria-live', quiet ? 'off' : 'polite');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('show'), ms);
}
const announce = (text) => toast(text, 1800);

function askConfirm(title, text, yes = 'Yes') {
  const dlg = $('dlg-confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = yes;
  return new Promise((resolve) => {
    const done = (answer) => {
      $('confirm-yes').onclick = null;
      $('confirm-no').onclick = null;
      dlg.onclose = null;
      if (dlg.open) dlg.close();
      resolve(answer);
    };
    $('confirm-yes').onclick = () => done(true);
    $('confirm-no').onclick = () => done(false);
    dlg.onclose = () => done(false);
    dlg.showModal();
    $('confirm-yes').focus();
  });
}

// ---------------------------------------------------------------------------------------------
// Games

function inProgress() {
  return game && !game.solved && game.history.length > 0;
}

function bandStats(band) {
  if (!stats[band]) stats[band] = { started: 0, solved: 0, best: null, total: 0 };
  return stats[band];
}

function startGame(info, entries) {
  game = {
    v: 1,
    puzzle: info.puzzle,
    band: info.band || 'imported',
    rating: info.rating || null,
    hardest: info.hardest || null, // the technique of the hardest step the puzzle needs
    // "Practise a technique": the technique the puzzle was dealt for (its slug). Hints show a
    // step of it wherever the position holds one, until it has been used: `practiseShown` is
    // the last such step shown (its placements and eliminations), `practiseDone` set once the
    // player applied it, made it, or the position no longer holds one after one was shown.
    practise: info.needs && info.needs.length === 1 ? info.needs[0] : null,
    practiseName: null,
    practiseShown: null,
    practiseDone: false,
    symmetry: info.symmetry && info.symmetry !== 'none' ? info.symmetry : null,
    values: Array(81).fill(0),
    marks: Array(81).fill(0),
    centre: Array(81).fill(0),
    colours: Array(81).fill(0),
    complete: Array(81).fill(0), // cells whose notes the player marked complete: hints judge them
    history: [],
    future: [],
    elapsed: 0,
    solved: false,
    hints: 0,
    applied: 0, // hints applied: a game finished with one sets no best time
    filled: false, // whether the notes were filled with every candidate (hints judge them then)
    counted: false, // counted as started: on the first move
    created: Date.now(),
  };
  if (entries) {
    for (let i = 0; i < 81; i++) {
      const d = Number(entries[i]) || 0;
      if (d && !givenAt(i)) game.values[i] = d;
    }
  }
  ui.hint = null;
  ui.wrong.clear();
  ui.flash = null;
  ui.solution = null;
  ui.since = null;
  hideHint();
  ui.selected = [...Array(81).keys()].find((i) => !givenAt(i)) ?? 40;
  ui.selection.clear();
  ui.digit = 0;
  saveGame();
  setPaused(false);
  render();
  focusCell();
  checkWin();
}

function setLoading(on, text = 'Making a puzzle…') {
  ui.loading = on;
  $('loading').hidden = !on;
  $('loading-text').textContent = text;
  $('new-game').disabled = on;
  syncClock();
  render();
}

async function newGame(confirmFirst = true) {
  const band = $('band').value;
  if (confirmFirst && inProgress() &&
      !(await askConfirm('Start a new game?', 'The game in progress will be lost.', 'New game'))) {
    return;
  }
  settings.band = band;
  store(STORE.settings, settings);
  setLoading(true, `Making ${/^[aeiou]/.test(band) ? 'an' : 'a'} ${LABEL[band].toLowerCase()} puzzle…`);
  try {
    const practise = $('practise') ? $('practise').value : '';
    const info = await dealPuzzle(band, practise);
    if (practise && info.band !== band) {
      toast(`This technique is never ${LABEL[band].toLowerCase()}: here is a ${LABEL[info.band].toLowerCase()} puzzle whose hardest step it is.`, 6000);
    }
    startGame(info);
    announce(`New ${LABEL[info.band].toLowerCase()} puzzle, rating ${info.rating}.`);
  } catch (e) {
    toast(e.message, 6000);
  } finally {
    setLoading(false);
    if (game) render();
  }
}

function checkWin() {
  if (!game || game.solved) return;
  const vals = boardValues();
  if (vals.some((v) => !v) || conflictsOf(vals).size > 0) return;
  // Complete and no house repeats a digit: solved, whatever the stored puzzle's solution.
  syncClock();
  game.elapsed = elapsed();
  ui.since = null;
  game.solved = true;
  hideHint();
  const s = bandStats(game.band);
  s.solved++;
  s.total += game.elapsed;
  // A best time is one the player earned: a game finished with an applied hint sets none.
  const eligible = !game.applied;
  const record = eligible && (s.best == null || game.elapsed < s.best);
  if (record) s.best = game.elapsed;
  store(STORE.stats, stats);
  saveGame();
  render();
  $('win-text').textContent = `You solved this ${LABEL[game.band].toLowerCase()} puzzle` +
    (settings.timer ? ` in ${formatTime(game.elapsed)}.` : '.') + (record && s.solved > 1 ? ' A new best time!' : '') +
    (eligible ? '' : ' Games finished with an applied hint set no best time.');
  $('win-stats').innerHTML = [
    ['Rating', game.rating ?? '—'],
    ['Hints', String(game.hints)],
    ['Moves', String(game.history.length)],
    [`${LABEL[game.band]} solved`, String(s.solved)],
    ['Best time', s.best != null ? formatTime(s.best) : '—'],
  ].map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('');
  say(`Solved: ${$('win-text').textContent}`);
  $('dlg-win').showModal();
  $('win-new').focus();
}

// ---------------------------------------------------------------------------------------------
// What each technique is: a short explanation a hint links to, for every technique the grader
// can name. Matched on the start of the technique's name, most specific first.

const LEARN = [
  ['Full House', 'A house (row, column or box) with one empty cell: that cell takes the one digit the house is missing.'],
  ['Naked Single', 'A cell whose row, column and box together already hold eight different digits: only the ninth can go there.'],
  ['Hidden Single', 'A digit that has only one place left in a row, column or box: it goes there, whatever else that cell could hold.'],
  ['Direct Pointing', 'Pointing (a digit confined to one line inside a box) that leaves a hidden single: the step places that digit.'],
  ['Direct Claiming', 'Claiming (a digit confined to one box inside a line) that leaves a hidden single: the step places that digit.'],
  ['Pointing', 'Inside a box, a digit can only go in cells of one row or column. Whichever of them holds it, that line gets it from this box, so the rest of the line cannot hold it.'],
  ['Claiming', 'Inside a row or column, a digit can only go in cells of one box. Whichever holds it, the box gets it from this line, so the rest of the box cannot hold it.'],
  ['Direct Hidden', 'A hidden pair or triplet whose clean-up leaves a digit with a single place in the house: the step places that digit.'],
  ['Naked Pair', 'Two cells of a house that can only hold the same two digits: those digits go in those cells, so no other cell of the house can hold them.'],
  ['Naked Triplet', 'Three cells of a house whose candidates together are just three digits: the three digits go in those cells, so the rest of the house loses them.'],
  ['Naked Quad', 'Four cells of a house whose candidates together are just four digits: the rest of the house loses those digits.'],
  ['Hidden Pair', 'Two digits that, in some house, can only go in the same two cells: those cells must hold those digits, so every other candidate leaves them.'],
  ['Hidden Triplet', 'Three digits confined to the same three cells of a house: those cells hold them, so their other candidates go.'],
  ['Hidden Quad', 'Four digits confined to the same four cells of a house: those cells lose every other candidate.'],
  ['Finned', 'A fish (X-Wing, Swordfish, Jellyfish) with an extra candidate, the fin. Either the fish holds, or the fin is the digit; only cells that see the fin and lie on the fish\'s cover lines lose the digit.'],
  ['Sashimi', 'A finned fish whose base lacks one corner: the fin stands in for it. Cells that see the fin and lie on the cover lines lose the digit.'],
  ['X-Wing', 'A digit with exactly two places in each of two rows, in the same two columns. It fills opposite corners of that rectangle, so the rest of both columns loses it (and the same with rows and columns swapped).'],
  ['Swordfish', 'An X-Wing with three lines: a digit whose places in three rows lie in the same three columns. The rest of those columns loses it.'],
  ['Jellyfish', 'The same with four lines: a digit whose places in four rows lie in four columns; the rest of those columns loses it.'],
  ['Skyscraper', 'A digit with two places in each of two lines, one end of each aligned. One of the two loose ends holds the digit, so any cell seeing both loose ends loses it.'],
  ['2-String Kite', 'A digit with two places in a row and two in a column, one of each in the same box. One of the two far ends holds the digit, so a cell seeing both loses it.'],
  ['Turbot Fish', 'A short chain of strong links on one digit (two places in a house): one of its ends holds the digit, so a cell seeing both ends loses it.'],
  ['Empty Rectangle', 'In a box, a digit\'s places form an L along one row and one column. Together with a strong link outside the box, it shows one cell that cannot hold the digit.'],
  ['Simple Colouring', 'Follow one digit through houses where it has exactly two places, colouring them alternately. One colour is the truth: a cell seeing both colours loses the digit.'],
  ['W-Wing', 'Two cells with the same two candidates, joined by a strong link on one of them: the other digit goes in one of the two cells, so a cell seeing both loses it.'],
  ['XY-Wing', 'A pivot cell with two candidates and two pincers, each sharing one candidate with the pivot and the third digit with each other. Whatever the pivot is, one pincer is that third digit, so cells seeing both pincers lose it.'],
  ['XYZ-Wing', 'An XY-Wing whose pivot also holds the third digit: cells seeing the pivot and both pincers lose it.'],
  ['ALS-XZ', 'Two almost locked sets (n cells with n+1 digits) joined by a digit X they cannot both hold: then a digit Z they share goes in one of them, and cells seeing every Z of both lose it.'],
  ['Aligned', 'Two (or three) cells that see each other cannot take a pair of digits that would empty a cell they both see: combinations are ruled out until a candidate goes.'],
  ['Unique Rectangle', 'Four cells in two rows, two columns and two boxes cannot end with the same two digits: the puzzle would have two solutions. So a candidate that would complete that deadly pattern goes.'],
  ['Unique Loop', 'Like a unique rectangle, with a longer loop of cells that cannot all end with the same two digits.'],
  ['BUG', 'Bivalue universal grave: if every empty cell had two candidates, the puzzle would have two solutions. The one cell with three must take the digit that breaks that pattern.'],
  ['Bidirectional', 'A closed loop of links, alternately strong and weak: every weak link in it is in fact strong, which removes the digit from cells outside the loop that see both ends of a link.'],
  ['Forcing X-Chain', 'A chain of links on one digit: if one end is false the other end is true. A cell seeing both ends loses the digit (or a contradiction places it).'],
  ['Forcing Chain', 'A chain of alternating "if not this, then that" links: assuming a candidate leads to a contradiction, or both ends agree, so the step follows.'],
  ['Cell Forcing', 'Every candidate of one cell, followed through chains, leads to the same conclusion: so it is true whichever digit the cell holds.'],
  ['Region Forcing', 'Every place of a digit in a house, followed through chains, leads to the same conclusion: so it is true wherever the digit goes.'],
  ['Dynamic', 'Forcing chains that also use what earlier steps of the chain have placed: longer reasoning, found by trial and contradiction.'],
  ['Nishio', 'Assume one candidate and follow only that digit: if it leads to a contradiction, the candidate is false.'],
  ['Nested', 'Forcing chains that call on other forcing chains: the deepest reasoning the solver knows.'],
];

function learnAbout(technique) {
  const found = LEARN.find(([name]) => technique.startsWith(name)) ||
    LEARN.find(([name]) => technique.includes(name));
  return found ? found[1] : null;
}

// ---------------------------------------------------------------------------------------------
// Hints, check, first mistake

const STAGE_BUTTON = { 1: 'Show where', 2: 'Show the step', 3: 'Apply' };

// The practised technique's name: as the server last said it, else as the picker shows it.
function practiseName() {
  if (game.practiseName) return game.practiseName;
  const option = document.querySelector(`#practise option[value="${game.practise}"]`);
  return option ? option.textContent : game.practise;
}

// Whether the player's own moves made the practised step last shown: its digits placed, its
// candidates struck out of their notes.
function practisedStepMade() {
  const s = game.practiseShown;
  if (!s) return false;
  const vals = boardValues();
  return s.placements.every(({ cell, digit }) => vals[cell] === digit) &&
    s.eliminations.every(({ cell, digit }) => vals[cell] || (game.marks[cell] && !(game.marks[cell] & bit(digit))));
}

// Whether a hint is asked for the practised technique: until it has been used.
function practising() {
  if (!game.practise || game.practiseDone) return false;
  if (practisedStepMade()) game.practiseDone = true;
  return !game.practiseDone;
}

// What the practise line of the hint panel says, if anything.
function practiseLine(d) {
  if (!game.practise) return '';
  const name = practiseName();
  // As the engine's hints say it: no article before a plural or a mass noun.
  const an = (t) => (/(Chains|Cycles|Pointing|Claiming)(\s\(|$)/.test(t) ? ''
    : /^[AEIOX]/.test(t) || /^U(?!ni)/.test(t) ? 'an ' : 'a ');
  if (!d.practise) return game.practiseDone ? `${name} practised: ordinary hints from here.` : '';
  if (d.practise.found) return `Practising ${name}: here it is.`;
  if (d.kind === 'step') return `No ${name} yet: first ${an(d.technique)}${d.technique}.`;
  if (d.kind === 'mistake') return `No ${name} yet: first, this mistake.`;
  return `No ${name} here.`;
}

async function hintPress({ refresh = false } = {}) {
  // One request at a time: a second press (H twice) while the first is answered is ignored,
  // so it neither sends a second request nor counts a second hint.
  if (!game || game.solved || ui.paused || ui.hintPending) return;
  const key = positionKey();
  if (ui.hint && ui.hint.key === key && $('hint-panel').hidden) {
    // Reopening the hint of this position: the same stage, not a second hint.
    showHint();
    return;
  }
  if (!ui.hint || ui.hint.key !== key) {
    try {
      ui.hintPending = true;
      $('hint').disabled = true;
      $('hint-panel').hidden = false;
      $('hint-stage').textContent = 'Hint';
      $('hint-text').textContent = 'Looking for the next step…';
      $('hint-next').hidden = true;
      // Notes are judged only once the player has filled every candidate: partial notes are
      // reminders, not claims, and never a mistake.
      const body = { givens: game.puzzle, entries: entriesLine() };
      const marks = judgedMarks();
      if (marks) body.marks = marks;
      if (practising()) body.practise = game.practise;
      const data = await api('/api/hint', body);
      if (data.practise) {
        game.practiseName = data.practise.technique;
        if (data.practise.found) {
          game.practiseShown = { placements: data.placements, eliminations: data.eliminations };
        } else if (game.practiseShown) {
          // One was shown and the position holds none any more: it has been used.
          game.practiseDone = true;
        }
      }
      ui.hint = { key, data, stage: 1 };
      // Saved with the game: a reload reopens the hint at its stage without counting it again.
      game.hint = ui.hint;
      if (!refresh) game.hints++;
      saveGame();
    } catch (e) {
      hideHint();
      toast(e.message, 6000);
      return;
    } finally {
      ui.hintPending = false;
      $('hint').disabled = false;
    }
  } else if (ui.hint.stage < 3) {
    ui.hint.stage++;
    saveGame();
  } else {
    applyHint();
    return;
  }
  showHint();
}

function showHint() {
  const h = ui.hint;
  if (!h) return hideHint();
  const d = h.data;
  const panel = $('hint-panel');
  panel.hidden = false;
  panel.dataset.kind = d.kind;
  const title = d.kind === 'step' ? (h.stage >= 2 ? `${d.technique}${d.rating ? ` · ${d.rating}` : ''}` : 'Technique')
    : d.kind === 'mistake' ? 'A mistake' : d.kind === 'reveal' ? 'No known technique' : 'Solved';
  $('hint-stage').textContent = `Hint ${h.stage} of 3 · ${title}`;
  const line = practiseLine(d);
  $('hint-practise').hidden = !line;
  $('hint-practise').textContent = line;
  $('hint-practise').classList.toggle('found', !!d.practise?.found);
  $('hint-text').textContent = h.stage === 1 ? d.technique_text : h.stage === 2 ? (d.where_text || d.technique_text) : d.text;
  $('hint-result').hidden = !(h.stage >= 3 && d.result_text);
  $('hint-result').textContent = d.result_text || '';
  // A key to the drawing of a fish or pattern: which tint and line means what.
  const key = h.stage >= 3 && d.kind === 'step' && d.figure ? figureKey(d.figure) : '';
  $('hint-key').hidden = !key;
  $('hint-key').innerHTML = key;
  // What the technique is: open to read at any stage, as it says nothing of where the step is.
  const about = d.kind === 'step' ? learnAbout(d.technique) : null;
  $('hint-learn').hidden = !about;
  if (about) {
    const name = d.technique.replace(/ \(\+\)$/, '');
    if ($('hint-learn-title').textContent !== `What is ${/^[AEIOUX]/.test(name) ? 'an' : 'a'} ${name}?`) {
      $('hint-learn').open = false;
      $('hint-learn-title').textContent = `What is ${/^[AEIOUX]/.test(name) ? 'an' : 'a'} ${name}?`;
    }
    $('hint-learn-text').textContent = about;
  }
  const next = $('hint-next');
  next.hidden = d.kind === 'solved';
  next.textContent = STAGE_BUTTON[h.stage];
  render();
}

function figureKey(f) {
  const names = (hs) => hs.map((h) => h.name).join(', ');
  const parts = [];
  if (f.base.length) parts.push(`<span class="k-base"></span>base: ${names(f.base)}`);
  if (f.cover.length) parts.push(`<span class="k-cover"></span>cover: ${names(f.cover)}`);
  if (f.fins.length) parts.push(`<span class="k-fin"></span>fin${f.fins.length > 1 ? 's' : ''}`);
  if (f.links.some((l) => l.strong)) parts.push('<span class="k-strong"></span>strong link (one is it)');
  if (f.links.some((l) => !l.strong)) parts.push('<span class="k-weak"></span>weak link (at most one)');
  return parts.map((p) => `<span class="k">${p}</span>`).join('');
}

function hideHint() {
  $('hint-panel').hidden = true;
}

function applyHint() {
  const d = ui.hint?.data;
  if (!d || ui.hint.key !== positionKey()) return;
  const vals = boardValues();
  const changes = new Map();
  // Cells whose notes the hint writes from scratch (every candidate but the removed ones): they
  // are complete, so the next hint judges them and does not offer the same removal again.
  const derived = [];
  for (const { cell, digit } of d.placements) placement(cell, digit, changes);
  for (const { cell, digit } of d.eliminations) {
    let m = changes.get(cell)?.m ?? game.marks[cell];
    if (!m) {
      m = candidatesOf(cell, vals); // show what is left once the digit goes
      if (!game.filled && !game.complete[cell]) derived.push(cell);
    }
    changes.set(cell, { ...changes.get(cell), m: m & ~bit(digit) });
  }
  for (const cell of derived) changes.set(cell, { ...changes.get(cell), x: 1 });
  for (const cell of d.clear) changes.set(cell, { v: 0 });
  for (const { cell, digit } of d.restore_marks) {
    changes.set(cell, { m: (changes.get(cell)?.m ?? game.marks[cell]) | bit(digit) });
  }
  ui.hint = null;
  game.hint = null;
  hideHint();
  // The practised technique applied: ordinary hints from now on.
  if (d.practise?.found) game.practiseDone = true;
  // Counted before the move, which may finish the game.
  game.applied = (game.applied || 0) + 1;
  if (commit(changes, 'hint')) {
    announce('Applied the hint.');
  } else {
    game.applied--;
    render();
  }
}

async function check() {
  if (!game || game.solved) return;
  try {
    const r = await api('/api/check', { givens: game.puzzle, entries: entriesLine() });
    ui.wrong = new Set(r.wrong);
    render();
    const n = r.wrong.length;
    toast(n === 0 ? 'No wrong digits so far.' : `${n} wrong digit${n > 1 ? 's' : ''}, marked with a slash.`);
  } catch (e) {
    toast(e.message, 6000);
  }
}

async function firstMistake() {
  if (!game || game.solved || ui.paused) return;
  try {
    if (!ui.solution || ui.solution.puzzle !== game.puzzle) {
      const r = await api('/api/solve', { puzzle: game.puzzle });
      ui.solution = { puzzle: game.puzzle, line: r.solution };
    }
  } catch (e) {
    toast(e.message, 6000);
    return;
  }
  const sol = ui.solution.line;
  const wrongIn = (vals) => vals.flatMap((v, i) => (v && v !== Number(sol[i]) ? [i] : []));
  const vals = game.values.slice();
  if (wrongIn(vals).length === 0) {
    toast('No wrong digits so far.');
    return;
  }
  // The position before the first move: a shared or imported position may hold wrong digits
  // already, which no walk back through the player's moves can take away. Those are shown, not
  // undone; the walk stops at the last position with no wrong digit of the player's own.
  const start = game.values.slice();
  for (let j = game.history.length - 1; j >= 0; j--) for (const [i, v] of game.history[j].c) start[i] = v;
  const inherited = new Set(wrongIn(start).map((i) => `${i}:${start[i]}`));
  const own = (vs) => wrongIn(vs).some((i) => !inherited.has(`${i}:${vs[i]}`));
  let k = game.history.length;
  while (k > 0 && own(vals)) {
    k--;
    for (const [i, v] of game.history[k].c) vals[i] = v;
  }
  const culprit = k < game.history.length
    ? game.history[k].c.find(([i, , , v]) => v && v !== Number(sol[i]))
    : undefined;
  const steps = game.history.length - k;
  while (game.history.length > k) {
    const m = game.history.pop();
    for (const ch of m.c) undoChange(ch);
    game.future.push(m);
  }
  afterChange();
  // Wrong digits the position came with (still on the board): marked as Check marks them.
  const given = wrongIn(game.values).filter((i) => inherited.has(`${i}:${game.values[i]}`));
  const inheritedText = given.length
    ? `The position you were given has ${given.length} wrong digit${given.length > 1 ? 's' : ''}, marked with a slash: ${given.map((i) => `${game.values[i]} in ${cellName(i)}`).join(', ')}.`
    : '';
  ui.wrong = new Set(given);
  if (culprit) {
    ui.selected = culprit[0];
    ui.flash = culprit[0];
    render();
    focusCell();
    toast(`Went back ${steps} move${steps > 1 ? 's' : ''}: ${culprit[3]} in ${cellName(culprit[0])} was the first wrong digit. Redo brings the moves back. ${inheritedText}`.trim(), 8000);
  } else if (steps > 0) {
    render();
    toast(`Went back ${steps} move${steps > 1 ? 's' : ''} to the last position with no wrong digit of yours. ${inheritedText}`.trim(), 8000);
  } else {
    ui.selected = given[0];
    ui.flash = given[0];
    render();
    focusCell();
    toast(`No wrong move of yours. ${inheritedText}`, 8000);
  }
}

// ---------------------------------------------------------------------------------------------
// Share and import

function shareLink(progress) {
  const u = new URL(location.href);
  u.search = '';
  u.hash = `p=${game.puzzle}${progress && game.values.some((v) => v) ? `&e=${entriesLine()}` : ''}`;
  return u.toString();
}

function updateShareLink() {
  $('share-link').value = shareLink($('share-progress').checked);
}

async function importPuzzle(text, entries, { confirmFirst = true } = {}) {
  const info = await api('/api/import', { puzzle: text });
  if (game && game.puzzle === info.puzzle && !entries && !info.marks) return true; // already playing it
  if (confirmFirst && inProgress() &&
      !(await askConfirm('Play the new puzzle?', 'The game in progress will be lost.', 'Play it'))) {
    return false;
  }
  startGame({ ...info, band: info.band || 'imported' }, entries);
  if (info.marks) {
    // A pencil-mark (729-character) line: its candidates become the player's pencil marks,
    // meant to be complete (as after "fill notes"), so hints judge them.
    info.marks.forEach((m, i) => {
      if (!givenAt(i)) game.marks[i] = [...m].reduce((acc, d) => acc | bit(Number(d)), 0);
    });
    game.filled = true;
    saveGame();
    render();
  }
  announce(`Playing the entered puzzle: ${LABEL[info.band] || ''}, rating ${info.rating}.`);
  return true;
}

async function openFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const p = params.get('p');
  if (!p) return false;
  const e = params.get('e');
  history.replaceState(null, '', location.pathname + location.search);
  try {
    return await importPuzzle(p, e && isLine(e) ? e : null);
  } catch (err) {
    toast(`The shared puzzle could not be opened: ${err.message}`, 8000);
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Printing

// The print page draws the layout of `shudu print`'s PDF (crates/cli/src/book.rs), with the
// same constants and the same font (DejaVu Sans, served at /fonts/DejaVuSans.ttf): each page an
// SVG of the paper's size in points. Change both together; crates/cli/tests/print.rs checks
// that these numbers are book.rs's and compares the two printouts pixel by pixel.
const PRINT = {
  paper: { a4: [595.276, 841.89], letter: [612, 792] },
  font: 'shudu print DejaVu Sans', // style.css's @font-face
  margin: 40, titleSize: 14, footerSize: 10,
  digit: 0.62, candidate: 0.24, candidateStep: 0.29,
  digitHeight: 0.742, // DejaVu Sans's digits stand 0.742 em above the baseline (its '8')
  grey: '#6e6e6e', markGrey: '#8c8c8c', // an answer's (and the player's) digits; candidates
};

// Columns and rows of slots for `perPage` puzzles (book.rs `arrangement`).
const printArrangement = (perPage) => ({ 1: [1, 1], 2: [1, 2], 4: [2, 2], 6: [2, 3] })[perPage] || [3, 3];

// The slots of a page, in reading order (book.rs `slots`).
function printSlots(paper, perPage, titled) {
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

const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const pt = (x) => Number(x.toFixed(3));

function svgText(cls, x, y, size, text, fill = '') {
  return `<text class="${cls}" x="${pt(x)}" y="${pt(y)}" font-size="${pt(size)}"${fill ? ` fill="${fill}"` : ''}>${esc(text)}</text>`;
}

// One grid: `cells[i]` is { d, kind: 'given' | 'entry' | 'solved' } or { marks } (a bit mask of
// candidates) or null. Thin cell lines, thick box lines and border (book.rs `line_widths`).
function printGrid(slot, cells) {
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
function printPages(puzzles, answers, perPage, paper) {
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
function printCells(line, solution) {
  return [...Array(81).keys()].map((i) => {
    const g = line[i] === '.' || line[i] === '0' ? 0 : Number(line[i]);
    if (g) return { d: g, kind: 'given' };
    return solution ? { d: Number(solution[i]), kind: 'solved' } : null;
  });
}

// The label over a grid, as `shudu print` writes it: `1  ·  hard  ·  SE 2.3`.
const printLabel = (n, band, rating) => (band && rating ? `${n}  ·  ${band}  ·  SE ${rating}` : `${n}`);

function printCurrent() {
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

async function printBatch() {
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

// ---------------------------------------------------------------------------------------------
// Statistics and settings

function renderStats() {
  $('stats-body').innerHTML = [...BANDS, 'imported'].map((b) => {
    const s = stats[b] || { started: 0, solved: 0, best: null, total: 0 };
    const avg = s.solved ? formatTime(s.total / s.solved) : '—';
    return `<tr><th scope="row">${LABEL[b]}</th><td>${s.started}</td><td>${s.solved}</td>` +
      `<td>${s.best != null ? formatTime(s.best) : '—'}</td><td>${avg}</td></tr>`;
  }).join('');
}

function applySettings() {
  const root = document.documentElement;
  if (settings.theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = settings.theme;
  $('set-theme').value = settings.theme;
  $('set-timer').checked = settings.timer;
  $('set-automarks').checked = settings.autoMarks;
  $('set-same').checked = settings.same;
  $('set-conflicts').checked = settings.conflicts;
  $('set-symmetry').value = settings.symmetry;
  $('set-digitfirst').checked = settings.digitFirst;
  $('set-coords').checked = settings.coords;
  $('set-toggleerase').checked = settings.toggleErase;
  document.body.classList.toggle('coords-on', settings.coords);
  if (!settings.digitFirst) ui.digit = 0;
  render();
}

// ---------------------------------------------------------------------------------------------
// Input

function onKey(e) {
  if (document.querySelector('dialog[open]')) return;
  const t = e.target;
  if (t instanceof Element && t.closest('input, select, textarea')) return;
  const ctrl = e.ctrlKey || e.metaKey;
  const k = e.key;
  if (ctrl && (k === 'z' || k === 'Z')) {
    e.preventDefault();
    if (e.shiftKey) redo(); else undo();
    return;
  }
  if (ctrl && (k === 'y' || k === 'Y')) {
    e.preventDefault();
    redo();
    return;
  }
  if (ctrl || e.altKey) return;
  if (k === 'p' || k === 'P') {
    if (game && !game.solved) setPaused(!ui.paused);
    return;
  }
  if (ui.paused || !game) return;
  // Shift+digit gives '!' and friends in `key`; the physical key tells the digit.
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || '');
  const d = m ? Number(m[1]) : (/^[1-9]$/.test(k) ? Number(k) : 0);
  if (d) {
    e.preventDefault();
    enterDigit(d, e.shiftKey ? (ui.mode === 'corner' ? 'digit' : 'corner') : ui.mode);
    return;
  }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[k]) {
    e.preventDefault();
    if (e.shiftKey) extend(...arrows[k]);
    else move(...arrows[k]);
    return;
  }
  switch (k) {
    case 'Backspace': case 'Delete': case '0': case '.':
      e.preventDefault();
      erase();
      break;
    case 'n': case 'N':
      togglePencil();
      break;
    case 'm': case 'M':
      setMode('centre');
      break;
    case 'c': case 'C':
      setMode('colour');
      break;
    case 'k': case 'K':
      toggleComplete();
      break;
    case 'Escape':
      if (ui.selection.size || ui.digit) {
        ui.selection.clear();
        ui.digit = 0;
        render();
      }
      break;
    case 'u': case 'U':
      undo();
      break;
    case 'r': case 'R':
      redo();
      break;
    case 'h': case 'H':
      hintPress();
      break;
    case 'Home':
      e.preventDefault();
      select(row(ui.selected) * 9);
      break;
    case 'End':
      e.preventDefault();
      select(row(ui.selected) * 9 + 8);
      break;
    default:
  }
}

function togglePencil() {
  ui.mode = ui.mode === 'corner' ? 'digit' : 'corner';
  render();
  announce(ui.mode === 'corner' ? 'Pencil mode on' : 'Pencil mode off');
}

function wire() {
  document.addEventListener('keydown', onKey);
  $('new-game').addEventListener('click', () => newGame(true));
  $('band').addEventListener('change', () => { settings.band = $('band').value; store(STORE.settings, settings); });
  $('practise').addEventListener('change', () => { settings.practise = $('practise').value; store(STORE.settings, settings); });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('erase').addEventListener('click', erase);
  $('pencil').addEventListener('click', togglePencil);
  $('centre-mode').addEventListener('click', () => setMode('centre'));
  $('colour-mode').addEventListener('click', () => setMode('colour'));
  document.addEventListener('pointerup', () => { ui.dragging = false; });
  document.addEventListener('pointercancel', () => { ui.dragging = false; });
  $('fill-marks').addEventListener('click', fillCandidates);
  $('clear-marks').addEventListener('click', clearMarks);
  $('notes-complete').addEventListener('click', toggleComplete);
  $('hint').addEventListener('click', hintPress);
  $('hint-next').addEventListener('click', hintPress);
  // Closing keeps the hint: reopening it at the same position shows the same stage.
  $('hint-close').addEventListener('click', () => { hideHint(); render(); focusCell(); });
  $('check').addEventListener('click', check);
  $('first-mistake').addEventListener('click', firstMistake);
  $('pause').addEventListener('click', () => setPaused(!ui.paused));
  $('resume').addEventListener('click', () => setPaused(false));

  for (const dlg of document.querySelectorAll('dialog')) {
    dlg.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('[data-close]')) dlg.close();
      if (e.target === dlg) dlg.close(); // a click on the backdrop
    });
  }
  $('dlg-win').addEventListener('close', () => focusCell());
  // The clock stops while a dialog is open (help, settings, statistics, print...).
  const dialogs = new MutationObserver(() => { syncClock(); showTime(); });
  for (const dlg of document.querySelectorAll('dialog')) dialogs.observe(dlg, { attributes: true, attributeFilter: ['open'] });
  $('win-new').addEventListener('click', () => { $('dlg-win').close(); newGame(false); });

  $('open-import').addEventListener('click', () => {
    $('import-error').textContent = '';
    $('dlg-import').showModal();
    $('import-text').focus();
  });
  $('import-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('import-error').textContent = '';
    $('import-go').disabled = true;
    try {
      $('dlg-import').close();
      const ok = await importPuzzle($('import-text').value, null);
      if (ok) $('import-text').value = '';
    } catch (err) {
      $('import-error').textContent = err.message;
      $('dlg-import').showModal();
    } finally {
      $('import-go').disabled = false;
    }
  });

  $('open-share').addEventListener('click', () => {
    if (!game) return;
    updateShareLink();
    $('dlg-share').showModal();
    $('share-link').select();
  });
  $('share-progress').addEventListener('change', updateShareLink);
  $('share-copy').addEventListener('click', async () => {
    const link = $('share-link');
    try {
      await navigator.clipboard.writeText(link.value);
      toast('Link copied.');
    } catch {
      link.select();
      toast('Press Ctrl+C to copy the selected link.');
    }
  });

  $('open-print').addEventListener('click', () => {
    $('print-band').value = $('band').value;
    $('print-status').textContent = '';
    $('dlg-print').showModal();
  });
  // US Letter where it is the usual paper (the United States and Canada), A4 elsewhere.
  $('print-paper').value = /^en-(US|CA)$/i.test(navigator.language || '') ? 'letter' : 'a4';
  $('print-current').addEventListener('click', printCurrent);
  $('print-batch').addEventListener('click', printBatch);
  window.addEventListener('afterprint', () => {
    $('print-area').innerHTML = '';
    document.body.classList.remove('print-ready');
  });

  $('open-stats').addEventListener('click', () => { renderStats(); $('dlg-stats').showModal(); });
  $('stats-reset').addEventListener('click', async () => {
    $('dlg-stats').close();
    if (await askConfirm('Reset statistics?', 'Solved counts and best times for every difficulty will be cleared.', 'Reset')) {
      stats = {};
      store(STORE.stats, stats);
    }
  });
  $('open-settings').addEventListener('click', () => $('dlg-settings').showModal());
  const bindSetting = (id, key, prop = 'checked') => $(id).addEventListener('change', () => {
    settings[key] = $(id)[prop];
    store(STORE.settings, settings);
    applySettings();
  });
  bindSetting('set-theme', 'theme', 'value');
  bindSetting('set-timer', 'timer');
  bindSetting('set-automarks', 'autoMarks');
  bindSetting('set-same', 'same');
  bindSetting('set-conflicts', 'conflicts');
  bindSetting('set-symmetry', 'symmetry', 'value');
  bindSetting('set-digitfirst', 'digitFirst');
  bindSetting('set-coords', 'coords');
  bindSetting('set-toggleerase', 'toggleErase');
  $('open-help').addEventListener('click', () => $('dlg-help').showModal());

  document.addEventListener('visibilitychange', () => { syncClock(); saveGame(); });
  window.addEventListener('pagehide', () => foldClock());
  window.addEventListener('hashchange', () => openFromHash());
  setInterval(() => { syncClock(); showTime(); }, 500);
  setInterval(() => { if (clockRunning()) foldClock(); }, 5000);
}

// ---------------------------------------------------------------------------------------------
// Start

async function main() {
  buildBoard();
  wire();
  $('band').value = BANDS.includes(settings.band) ? settings.band : 'medium';
  // The technique picked to practise, if the picker still offers it.
  if ([...$('practise').options].some((o) => o.value === settings.practise)) $('practise').value = settings.practise;
  const saved = load(STORE.game, null);
  if (validGame(saved)) {
    game = upgradeGame(saved);
    if (game.counted === undefined) game.counted = true; // saved before games counted on the first move
    if (game.hint && game.hint.key === positionKey()) ui.hint = game.hint;
    // Time runs from now (unless the game was paused); what ran before the reload was saved in
    // `elapsed`.
    applySettings();
    render();
    if (game.paused && !game.solved) setPaused(true);
    else focusCell();
  } else {
    applySettings();
  }
  const opened = await openFromHash();
  if (!game && !opened) await newGame(false);
  document.body.classList.add('ready');
}

main();
