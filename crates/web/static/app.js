// shudu: the game page. Plain JavaScript, no build step; served from the binary.
//
// The game state is one object (`game`) saved to localStorage after every change: the puzzle,
// the player's digits (`values`) and pencil marks (`marks`, one 9-bit mask a cell), and the undo
// and redo stacks as lists of cell changes. The page never holds the solution while playing: a
// win is judged by the rules (the grid is full and no house repeats a digit), and the solution is
// fetched only when the player asks for "first mistake".

const $ = (id) => document.getElementById(id);

const BANDS = ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme'];
const LABEL = {
  easy: 'Easy', medium: 'Medium', hard: 'Hard', fiendish: 'Fiendish',
  diabolical: 'Diabolical', extreme: 'Extreme', imported: 'Imported',
};
const STORE = { game: 'shudu.game.v1', stats: 'shudu.stats.v1', settings: 'shudu.settings.v1' };
const DEFAULT_SETTINGS = {
  theme: 'auto', timer: true, autoMarks: true, same: true, conflicts: true, symmetry: 'none',
  band: 'medium',
};

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
let game = null;
const ui = {
  selected: 40,
  pencil: false,
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

function saveGame() {
  if (game) store(STORE.game, game);
}

// ---------------------------------------------------------------------------------------------
// The API

async function api(path, body) {
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
const positionKey = () => `${entriesLine()}|${game.marks.join(',')}`;

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
// Changes, undo and redo. A move is a list of [cell, oldValue, oldMarks, newValue, newMarks].

function commit(changes, label) {
  if (!game || game.solved || ui.paused) return false;
  const move = [];
  for (const [i, next] of changes) {
    const v = next.v ?? game.values[i];
    const m = next.m ?? game.marks[i];
    if (v !== game.values[i] || m !== game.marks[i]) move.push([i, game.values[i], game.marks[i], v, m]);
  }
  if (move.length === 0) return false;
  for (const [i, , , v, m] of move) {
    game.values[i] = v;
    game.marks[i] = m;
  }
  game.history.push({ k: label, c: move });
  game.future = [];
  afterChange();
  return true;
}

function undo() {
  if (!game || game.solved || ui.paused || game.history.length === 0) return;
  const move = game.history.pop();
  for (const [i, v, m] of move.c) {
    game.values[i] = v;
    game.marks[i] = m;
  }
  game.future.push(move);
  afterChange();
  announce(`Undid ${describeMove(move)}`);
}

function redo() {
  if (!game || game.solved || ui.paused || game.future.length === 0) return;
  const move = game.future.pop();
  for (const [i, , , v, m] of move.c) {
    game.values[i] = v;
    game.marks[i] = m;
  }
  game.history.push(move);
  afterChange();
  announce(`Redid ${describeMove(move)}`);
}

function describeMove(move) {
  const names = { digit: 'a digit', erase: 'an erase', mark: 'a pencil mark', fill: 'filling candidates',
    clear: 'clearing marks', hint: 'a hint' };
  return names[move.k] || 'a move';
}

function afterChange() {
  ui.wrong.clear();
  ui.flash = null;
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
    }
  }
  return changes;
}

function enterDigit(d, asMark) {
  if (!game || game.solved || ui.paused) return;
  const i = ui.selected;
  if (givenAt(i)) {
    toast(`${cellName(i)} is a given.`);
    return;
  }
  if (asMark) {
    if (game.values[i]) {
      toast('Erase the digit first to pencil in marks.');
      return;
    }
    commit(new Map([[i, { m: game.marks[i] ^ bit(d) }]]), 'mark');
    return;
  }
  if (game.values[i] === d) {
    commit(new Map([[i, { v: 0 }]]), 'erase');
    return;
  }
  if (commit(placement(i, d), 'digit') && settings.conflicts && !game.solved) {
    const clash = PEERS[i].find((p) => valueAt(p) === d);
    if (clash !== undefined) {
      const where = row(clash) === row(i) ? 'row' : col(clash) === col(i) ? 'column' : 'box';
      toast(`${d} is already in this ${where}.`);
    }
  }
}

function erase() {
  if (!game || game.solved || ui.paused) return;
  const i = ui.selected;
  if (givenAt(i)) return;
  if (game.values[i]) commit(new Map([[i, { v: 0 }]]), 'erase');
  else if (game.marks[i]) commit(new Map([[i, { m: 0 }]]), 'erase');
}

function fillCandidates() {
  if (!game) return;
  const vals = boardValues();
  const changes = new Map();
  for (let i = 0; i < 81; i++) if (!vals[i]) changes.set(i, { m: candidatesOf(i, vals) });
  if (commit(changes, 'fill')) announce('Filled every empty cell with its candidates.');
}

function clearMarks() {
  if (!game) return;
  const changes = new Map();
  for (let i = 0; i < 81; i++) if (game.marks[i]) changes.set(i, { m: 0 });
  if (commit(changes, 'clear')) announce('Cleared every pencil mark.');
}

// ---------------------------------------------------------------------------------------------
// Timer. `game.elapsed` holds the finished stretches; `ui.since` the start of the running one.

function clockRunning() {
  return !!game && !game.solved && !ui.paused && !ui.loading && !document.hidden;
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
      el.addEventListener('click', () => select(i));
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
    b.innerHTML = `<span class="key-digit">${d}</span><span class="key-left" aria-hidden="true"></span>`;
    b.addEventListener('click', (e) => enterDigit(d, ui.pencil !== e.shiftKey));
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
  const selVal = vals[sel];
  const hint = ui.hint && ui.hint.key === positionKey() ? ui.hint : null;
  const hintCells = new Set();
  const hintHouse = new Set();
  const hintPlace = new Map();
  const hintElim = new Map();
  if (hint && hint.stage >= 2) {
    for (const i of hint.data.cells) hintCells.add(i);
    for (const h of hint.data.houses) {
      const k = h.kind === 'row' ? h.index : h.kind === 'col' ? 9 + h.index : 18 + h.index;
      for (const i of HOUSES[k]) hintHouse.add(i);
    }
  }
  // The digits the step is about, shown as candidates in its cells at the last stage.
  const hintKey = new Map();
  if (hint && hint.stage >= 3) {
    for (const { cell, digit } of hint.data.placements) hintPlace.set(cell, digit);
    for (const { cell, digit } of hint.data.eliminations) hintElim.set(cell, (hintElim.get(cell) || 0) | bit(digit));
    let digits = 0;
    for (const { digit } of [...hint.data.placements, ...hint.data.eliminations]) digits |= bit(digit);
    for (const i of hint.data.cells) {
      const shown = (game.marks[i] || candidatesOf(i, vals)) & digits;
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
    else if (row(i) === row(sel) || col(i) === col(sel) || box(i) === box(sel)) cls.push('peer');
    if (settings.same && selVal && v === selVal && i !== sel) cls.push('same');
    if (shownConflicts.has(i)) cls.push('conflict');
    if (ui.wrong.has(i)) cls.push('wrong');
    if (hintCells.has(i)) cls.push('hint-cell');
    if (hintHouse.has(i)) cls.push('hint-house');
    if (hintPlace.has(i)) cls.push('hint-place');
    if (ui.flash === i) cls.push('flash');

    let html;
    let label = `${spokenCell(i)}: `;
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
        html = '<span class="marks">' + [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => {
          if (!(shown & bit(d))) return '<span></span>';
          const k = ['m'];
          if (settings.same && selVal === d) k.push('m-same');
          if (key & bit(d)) k.push('m-key');
          if (elim & bit(d)) k.push('m-elim');
          return `<span class="${k.join(' ')}">${d}</span>`;
        }).join('') + '</span>';
        label += m ? `empty, pencil marks ${digitsOf(m).join(' ')}` : 'empty';
        if (elim) label += `; the hint removes ${digitsOf(elim).join(' ')}`;
      } else {
        html = '';
        label += 'empty';
      }
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

  // Keypad: how many of each digit are left to place.
  const counts = Array(10).fill(0);
  for (const v of vals) if (v) counts[v]++;
  for (const b of keys) {
    const d = Number(b.dataset.d);
    const left = Math.max(0, 9 - counts[d]);
    b.querySelector('.key-left').textContent = left ? String(left) : '✓';
    b.classList.toggle('done', left === 0 && ![...conflicts].some((i) => vals[i] === d));
    // The name stays the visible digit; the count and the mode are the description.
    b.title = `${ui.pencil ? 'Pencil mark' : 'Place'} ${d}: ${left ? `${left} left to place` : 'all placed'}`;
  }
  $('keypad').classList.toggle('pencil', ui.pencil);
  $('pencil').setAttribute('aria-pressed', String(ui.pencil));
  $('pencil-state').textContent = ui.pencil ? 'on' : 'off';
  document.body.classList.toggle('pencil-mode', ui.pencil);
  $('undo').disabled = game.solved || game.history.length === 0;
  $('redo').disabled = game.solved || game.future.length === 0;
  for (const id of ['erase', 'fill-marks', 'clear-marks', 'hint', 'check', 'first-mistake', 'pencil']) {
    $(id).disabled = game.solved || ui.paused;
  }
  for (const b of keys) b.disabled = game.solved || ui.paused;
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

function renderInfo() {
  const parts = [LABEL[game.band] || game.band];
  if (game.rating) parts.push(`rating ${game.rating}`);
  parts.push(`${[...game.puzzle].filter((ch) => ch !== '.' && ch !== '0').length} givens`);
  if (game.symmetry) {
    const option = document.querySelector(`#set-symmetry option[value="${game.symmetry}"]`);
    if (option) parts.push(option.textContent.toLowerCase());
  }
  if (game.solved) parts.push('solved');
  $('game-info').innerHTML = `<span class="badge band-${game.band}">${parts[0]}</span> ${parts.slice(1).join(' · ')}`;
}

function select(i) {
  ui.selected = Math.max(0, Math.min(80, i));
  render();
  focusCell();
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

// ---------------------------------------------------------------------------------------------
// Messages

let toastTimer = null;
function toast(text, ms = 3200) {
  const el = $('toast');
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
    symmetry: info.symmetry && info.symmetry !== 'none' ? info.symmetry : null,
    values: Array(81).fill(0),
    marks: Array(81).fill(0),
    history: [],
    future: [],
    elapsed: 0,
    solved: false,
    hints: 0,
    created: Date.now(),
  };
  if (entries) {
    for (let i = 0; i < 81; i++) {
      const d = Number(entries[i]) || 0;
      if (d && !givenAt(i)) game.values[i] = d;
    }
  }
  bandStats(game.band).started++;
  store(STORE.stats, stats);
  ui.hint = null;
  ui.wrong.clear();
  ui.flash = null;
  ui.solution = null;
  ui.since = null;
  hideHint();
  ui.selected = [...Array(81).keys()].find((i) => !givenAt(i)) ?? 40;
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
    const q = new URLSearchParams({ band });
    if (settings.symmetry && settings.symmetry !== 'none') q.set('symmetry', settings.symmetry);
    // "Practise a technique": a puzzle made on demand whose solving path needs it, at whatever
    // difficulty the technique brings (a band could exclude it: an X-Wing is never easy).
    const practise = $('practise') ? $('practise').value : '';
    if (practise) { q.delete('band'); q.set('needs', practise); }
    const info = await api(`/api/puzzle?${q}`);
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
  const record = s.best == null || game.elapsed < s.best;
  if (record) s.best = game.elapsed;
  store(STORE.stats, stats);
  saveGame();
  render();
  $('win-text').textContent = `You solved this ${LABEL[game.band].toLowerCase()} puzzle` +
    (settings.timer ? ` in ${formatTime(game.elapsed)}.` : '.') + (record && s.solved > 1 ? ' A new best time!' : '');
  $('win-stats').innerHTML = [
    ['Rating', game.rating ?? '—'],
    ['Hints', String(game.hints)],
    ['Moves', String(game.history.length)],
    [`${LABEL[game.band]} solved`, String(s.solved)],
    ['Best time', s.best != null ? formatTime(s.best) : '—'],
  ].map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('');
  $('dlg-win').showModal();
  $('win-new').focus();
}

// ---------------------------------------------------------------------------------------------
// Hints, check, first mistake

const STAGE_BUTTON = { 1: 'Show where', 2: 'Show the step', 3: 'Apply' };

async function hintPress() {
  if (!game || game.solved || ui.paused) return;
  const key = positionKey();
  if (!ui.hint || ui.hint.key !== key) {
    try {
      $('hint').disabled = true;
      $('hint-panel').hidden = false;
      $('hint-stage').textContent = 'Hint';
      $('hint-text').textContent = 'Looking for the next step…';
      $('hint-next').hidden = true;
      const data = await api('/api/hint', { givens: game.puzzle, entries: entriesLine(), marks: marksList() });
      ui.hint = { key, data, stage: 1 };
      game.hints++;
      saveGame();
    } catch (e) {
      hideHint();
      toast(e.message, 6000);
      return;
    } finally {
      $('hint').disabled = false;
    }
  } else if (ui.hint.stage < 3) {
    ui.hint.stage++;
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
  $('hint-text').textContent = h.stage === 1 ? d.technique_text : h.stage === 2 ? (d.where_text || d.technique_text) : d.text;
  const next = $('hint-next');
  next.hidden = d.kind === 'solved';
  next.textContent = STAGE_BUTTON[h.stage];
  render();
}

function hideHint() {
  $('hint-panel').hidden = true;
}

function applyHint() {
  const d = ui.hint?.data;
  if (!d || ui.hint.key !== positionKey()) return;
  const vals = boardValues();
  const changes = new Map();
  for (const { cell, digit } of d.placements) placement(cell, digit, changes);
  for (const { cell, digit } of d.eliminations) {
    let m = changes.get(cell)?.m ?? game.marks[cell];
    if (!m) m = candidatesOf(cell, vals); // show what is left once the digit goes
    changes.set(cell, { ...changes.get(cell), m: m & ~bit(digit) });
  }
  for (const cell of d.clear) changes.set(cell, { v: 0 });
  for (const { cell, digit } of d.restore_marks) {
    changes.set(cell, { m: (changes.get(cell)?.m ?? game.marks[cell]) | bit(digit) });
  }
  ui.hint = null;
  hideHint();
  if (commit(changes, 'hint')) announce('Applied the hint.');
  else render();
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
  const consistent = (vals) => vals.every((v, i) => !v || v === Number(sol[i]));
  const vals = game.values.slice();
  if (consistent(vals)) {
    toast('No wrong digits so far.');
    return;
  }
  // Walk back through the moves until every digit agrees with the solution.
  let k = game.history.length;
  while (k > 0 && !consistent(vals)) {
    k--;
    for (const [i, v] of game.history[k].c) vals[i] = v;
  }
  const culprit = k < game.history.length
    ? game.history[k].c.find(([i, , , v]) => v && v !== Number(sol[i]))
    : undefined;
  const steps = game.history.length - k;
  while (game.history.length > k) {
    const m = game.history.pop();
    for (const [i, v, mk] of m.c) {
      game.values[i] = v;
      game.marks[i] = mk;
    }
    game.future.push(m);
  }
  afterChange();
  if (culprit) {
    ui.selected = culprit[0];
    ui.flash = culprit[0];
    render();
    focusCell();
    toast(`Went back ${steps} move${steps > 1 ? 's' : ''}: ${culprit[3]} in ${cellName(culprit[0])} was the first wrong digit. Redo brings the moves back.`, 6000);
  } else {
    toast(`Went back ${steps} move${steps > 1 ? 's' : ''} to the last position with no wrong digit.`, 6000);
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
  if (game && game.puzzle === info.puzzle && !entries) return true; // already playing it
  if (confirmFirst && inProgress() &&
      !(await askConfirm('Play the new puzzle?', 'The game in progress will be lost.', 'Play it'))) {
    return false;
  }
  startGame({ ...info, band: info.band || 'imported' }, entries);
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

function gridTable(line, title) {
  let html = `<figure class="print-puzzle"><figcaption>${title}</figcaption><table class="print-grid"><tbody>`;
  for (let r = 0; r < 9; r++) {
    html += '<tr>';
    for (let c = 0; c < 9; c++) {
      const ch = line[r * 9 + c];
      html += `<td>${ch === '.' || ch === '0' ? '' : ch}</td>`;
    }
    html += '</tr>';
  }
  return `${html}</tbody></table><p class="print-code">${line}</p></figure>`;
}

function printPages(puzzles, solutions, perPage) {
  const area = $('print-area');
  let html = '';
  for (let k = 0; k < puzzles.length; k += perPage) {
    html += `<section class="print-page per-${perPage}">` +
      puzzles.slice(k, k + perPage).map((p) => gridTable(p.line, p.title)).join('') + '</section>';
  }
  if (solutions.length) {
    for (let k = 0; k < solutions.length; k += 6) {
      html += '<section class="print-page per-6 solutions"><h2>Solutions</h2>' +
        solutions.slice(k, k + 6).map((s) => gridTable(s.line, s.title)).join('') + '</section>';
    }
  }
  area.innerHTML = html;
  document.body.classList.add('print-ready');
  // A browser driven by a test has no print dialog to close; it inspects the print area instead.
  if (!navigator.webdriver) window.print();
}

function printCurrent() {
  const title = `shudu · ${LABEL[game.band] || game.band}${game.rating ? ` · rating ${game.rating}` : ''}`;
  $('dlg-print').close();
  printPages([{ line: game.puzzle, title }], [], 1);
}

async function printBatch() {
  const n = Math.max(1, Math.min(24, Number($('print-count').value) || 1));
  const band = $('print-band').value;
  const withSolutions = $('print-solutions').checked;
  const status = $('print-status');
  const puzzles = [];
  const solutions = [];
  try {
    $('print-batch').disabled = true;
    for (let k = 1; k <= n; k++) {
      status.textContent = `Fetching puzzle ${k} of ${n}…`;
      const info = await api(`/api/puzzle?band=${band}`);
      const title = `#${k} · ${LABEL[info.band]} · rating ${info.rating}`;
      puzzles.push({ line: info.puzzle, title });
      if (withSolutions) {
        const s = await api('/api/solve', { puzzle: info.puzzle });
        solutions.push({ line: s.solution, title: `#${k}` });
      }
    }
    status.textContent = '';
    $('dlg-print').close();
    printPages(puzzles, solutions, n === 1 ? 1 : 2);
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
    enterDigit(d, ui.pencil !== e.shiftKey);
    return;
  }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[k]) {
    e.preventDefault();
    move(...arrows[k]);
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
  ui.pencil = !ui.pencil;
  render();
  announce(ui.pencil ? 'Pencil mode on' : 'Pencil mode off');
}

function wire() {
  document.addEventListener('keydown', onKey);
  $('new-game').addEventListener('click', () => newGame(true));
  $('band').addEventListener('change', () => { settings.band = $('band').value; store(STORE.settings, settings); });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('erase').addEventListener('click', erase);
  $('pencil').addEventListener('click', togglePencil);
  $('fill-marks').addEventListener('click', fillCandidates);
  $('clear-marks').addEventListener('click', clearMarks);
  $('hint').addEventListener('click', hintPress);
  $('hint-next').addEventListener('click', hintPress);
  $('hint-close').addEventListener('click', () => { ui.hint = null; hideHint(); render(); });
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
  const saved = load(STORE.game, null);
  if (validGame(saved)) {
    game = saved;
    // Time runs from now; what ran before the reload was saved in `elapsed`.
    applySettings();
    render();
    focusCell();
  } else {
    applySettings();
  }
  const opened = await openFromHash();
  if (!game && !opened) await newGame(false);
  document.body.classList.add('ready');
}

main();
