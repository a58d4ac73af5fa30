// The game's state, and what the browser keeps of it.
//
// The game state is one object (`game`) saved to localStorage after every change: the puzzle,
// the player's digits (`values`), corner pencil marks (`marks`, one 9-bit mask a cell: the
// candidates hints read), centre marks (`centre`, the same shape), cell colours (`colours`,
// 0 for none or 1-9), and the undo and redo stacks as lists of cell changes. The page never
// holds the solution while playing: a win is judged by the rules (the grid is full and no house
// repeats a digit), and the solution is fetched only when the player asks for "first mistake".
// Only this module assigns `game` and `stats` (`setGame`, `setStats`); every module reads them.

import { api } from './engine.js';

export const $ = (id) => document.getElementById(id);

export const BANDS = ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme'];
export const LABEL = {
  easy: 'Easy', medium: 'Medium', hard: 'Hard', fiendish: 'Fiendish',
  diabolical: 'Diabolical', extreme: 'Extreme', imported: 'Imported',
};
export const STORE = {
  game: 'shudu.game.v1', stats: 'shudu.stats.v1', settings: 'shudu.settings.v1', seen: 'shudu.seen.v1',
};
export const DEFAULT_SETTINGS = {
  theme: 'auto', timer: true, autoMarks: true, same: true, conflicts: true, symmetry: 'none',
  band: 'medium', digitFirst: false, coords: false, toggleErase: false,
};
// Cell colours, after Okabe and Ito's palette for colour-blind readers (with grey and a pale
// rose to make nine); screen readers hear their names.
export const COLOUR_NAMES = ['', 'orange', 'sky blue', 'green', 'yellow', 'blue', 'vermilion', 'purple', 'grey', 'rose'];
export const MODE_NAMES = { digit: 'Digits', corner: 'Pencil marks', centre: 'Centre marks', colour: 'Colours' };

// ---------------------------------------------------------------------------------------------
// Geometry: cells 0..80 row-major; houses are 9 rows, 9 columns, 9 boxes.

export const row = (i) => Math.floor(i / 9);
export const col = (i) => i % 9;
export const box = (i) => Math.floor(row(i) / 3) * 3 + Math.floor(col(i) / 3);
export const HOUSES = [];
for (let r = 0; r < 9; r++) HOUSES.push([...Array(9)].map((_, c) => r * 9 + c));
for (let c = 0; c < 9; c++) HOUSES.push([...Array(9)].map((_, r) => r * 9 + c));
for (let b = 0; b < 9; b++) {
  HOUSES.push([...Array(9)].map((_, k) => (Math.floor(b / 3) * 3 + Math.floor(k / 3)) * 9 + (b % 3) * 3 + (k % 3)));
}
export const PEERS = [...Array(81)].map((_, i) =>
  [...Array(81).keys()].filter((j) => j !== i && (row(j) === row(i) || col(j) === col(i) || box(j) === box(i))));
export const bit = (d) => 1 << (d - 1);
export const cellName = (i) => `r${row(i) + 1}c${col(i) + 1}`;
export const spokenCell = (i) => `row ${row(i) + 1}, column ${col(i) + 1}`;
export const digitsOf = (mask) => [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => mask & bit(d));
export const isLine = (s) => typeof s === 'string' && /^[0-9.]{81}$/.test(s);

// ---------------------------------------------------------------------------------------------
// Storage

export function load(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

export function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing or a full store: the game goes on, unsaved.
  }
}

export let settings = { ...DEFAULT_SETTINGS, ...load(STORE.settings, {}) };
export let stats = load(STORE.stats, {});
/** Replaces the statistics (reset from the statistics dialog). */
export function setStats(s) {
  stats = s;
}
// The classes of the puzzles this browser was dealt, per band (the server's `key`s): sent with
// each request so that no puzzle equivalent to one seen here is dealt again.
export let seenClasses = load(STORE.seen, {});
if (typeof seenClasses !== 'object' || seenClasses === null || Array.isArray(seenClasses)) seenClasses = {};
// The most keys kept and sent a band: the request body stays under the server's 16 KiB.
export const SEEN_PER_BAND = 700;

export function seenKeys(band) {
  const keys = Array.isArray(seenClasses[band]) ? seenClasses[band] : [];
  return keys.filter((k) => typeof k === 'string' && /^[0-9a-f]{16}$/.test(k)).slice(-SEEN_PER_BAND);
}

export function remember(info) {
  if (!info || typeof info.key !== 'string' || !BANDS.includes(info.band)) return;
  const keys = seenKeys(info.band);
  if (!keys.includes(info.key)) keys.push(info.key);
  seenClasses[info.band] = keys.slice(-SEEN_PER_BAND);
  store(STORE.seen, seenClasses);
}

// A new puzzle of `band` that this browser has not seen (`practise`: one whose hardest step is
// that technique, in the band or the lowest band where it occurs).
export async function dealPuzzle(band, practise = '') {
  const body = { band, seen: [] };
  if (settings.symmetry && settings.symmetry !== 'none') body.symmetry = settings.symmetry;
  if (practise) body.practise = practise;
  // A practised technique may be dealt in another band than the one asked for.
  body.seen = practise ? BANDS.flatMap(seenKeys).slice(-SEEN_PER_BAND) : seenKeys(band);
  const info = await api('/api/puzzle', body);
  remember(info);
  return info;
}
export let game = null;
/** Replaces the game in play (other modules see `game` change; only this one can assign it). */
export function setGame(g) {
  game = g;
}
export const ui = {
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

export function validGame(g) {
  return g && g.v === 1 && isLine(g.puzzle) && Array.isArray(g.values) && g.values.length === 81 &&
    Array.isArray(g.marks) && g.marks.length === 81 && Array.isArray(g.history) && Array.isArray(g.future);
}

// Games saved before centre marks and colours get empty ones.
export function upgradeGame(g) {
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

export function saveGame() {
  if (game) store(STORE.game, game);
}
