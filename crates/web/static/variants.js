// shudu variants: the game for every size and rule set the engine knows (X, Windoku, jigsaw,
// killer, anti-knight, anti-king; 4x4 to 16x16). One module: the puzzle comes from
// `GET /api/variant/puzzle` as a spec (size, rule names, regions, cages, givens), the page draws
// it, and every position goes back whole to `/api/variant/check` (judged by the rules) and
// `/api/variant/hint` (the variant techniques). The game is kept in localStorage.

import { api, OFFLINE } from './engine.js';

const $ = (id) => document.getElementById(id);
const STORE = 'shudu-variant-game';
const BOXES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4] };

const st = {
  spec: null, name: '', rating: null, band: null, hardest: '', entries: [], marks: [],
  filled: false, sel: 0, pencil: false, history: [], hint: null, stage: 0, conflicts: [],
  solved: false, busy: false,
};

const sym = (d) => (d <= 9 ? String(d) : String.fromCharCode(55 + d));
const n = () => st.spec.size;

function symDigit(ch) {
  if (/^[1-9]$/.test(ch)) return Number(ch);
  const c = ch.toUpperCase();
  if (c >= 'A' && c <= 'G') return c.charCodeAt(0) - 55;
  return 0;
}

function region(c) {
  if (st.spec.regions) return st.spec.regions[c];
  const [br, bc] = BOXES[n()];
  const r = Math.floor(c / n()), col = c % n();
  return Math.floor(r / br) * (n() / bc) + Math.floor(col / bc);
}

function has(rule) {
  return st.spec.variants.includes(rule);
}

// Houses in the server's order: rows, columns, regions, the diagonals, Windoku's windows.
function houses() {
  const N = n(), hs = [];
  for (let r = 0; r < N; r++) hs.push([...Array(N).keys()].map((i) => r * N + i));
  for (let c = 0; c < N; c++) hs.push([...Array(N).keys()].map((i) => i * N + c));
  const regs = [...Array(N)].map(() => []);
  for (let c = 0; c < N * N; c++) regs[region(c)].push(c);
  hs.push(...regs);
  if (has('x')) {
    hs.push([...Array(N).keys()].map((i) => i * N + i));
    hs.push([...Array(N).keys()].map((i) => i * N + (N - 1 - i)));
  }
  if (has('windoku')) {
    for (const [r0, c0] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
      hs.push([...Array(9).keys()].map((i) => (r0 + Math.floor(i / 3)) * 9 + c0 + (i % 3)));
    }
  }
  return hs;
}

// For every cell, the cells that must hold another digit.
function peers() {
  const N = n(), ps = [...Array(N * N)].map(() => new Set());
  const link = (group) => {
    for (const a of group) for (const b of group) if (a !== b) ps[a].add(b);
  };
  houses().forEach(link);
  for (const cage of st.spec.cages) link(cage.cells);
  const moves = [];
  if (has('anti-knight')) moves.push([1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]);
  if (has('anti-king')) moves.push([1, 1], [1, -1], [-1, 1], [-1, -1]);
  for (let c = 0; c < N * N; c++) {
    const r = Math.floor(c / N), col = c % N;
    for (const [dr, dc] of moves) {
      const r2 = r + dr, c2 = col + dc;
      if (r2 >= 0 && r2 < N && c2 >= 0 && c2 < N) ps[c].add(r2 * N + c2);
    }
  }
  return ps;
}

function givenAt(c) {
  const ch = st.spec.givens[c];
  return ch === '.' || ch === '0' ? 0 : symDigit(ch);
}

function digitAt(c) {
  return givenAt(c) || st.entries[c];
}

function entriesLine() {
  return st.entries.map((d) => (d ? sym(d) : '.')).join('');
}

function save() {
  if (!st.spec) return;
  const keep = {
    spec: st.spec, name: st.name, rating: st.rating, band: st.band, hardest: st.hardest,
    entries: st.entries, marks: st.marks, filled: st.filled, solved: st.solved,
  };
  try { localStorage.setItem(STORE, JSON.stringify(keep)); } catch { /* private mode: not kept */ }
}

function toast(text) {
  const t = $('vtoast');
  t.textContent = text;
  t.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove('show'), 3500);
}

// ---------------------------------------------------------------------------------------------
// Drawing

function build() {
  const N = n(), board = $('vboard');
  board.style.setProperty('--n', N);
  board.setAttribute('aria-label', `${st.name}, ${N} by ${N}`);
  board.replaceChildren();
  const [mr, mc] = BOXES[N];
  const windows = has('windoku') ? new Set(houses().slice(3 * N + (has('x') ? 2 : 0)).flat()) : new Set();
  const cageOf = new Map();
  st.spec.cages.forEach((cage, i) => cage.cells.forEach((c) => cageOf.set(c, i)));
  for (let r = 0; r < N; r++) {
    const row = document.createElement('div');
    row.className = 'vrow';
    row.setAttribute('role', 'row');
    for (let col = 0; col < N; col++) {
      const c = r * N + col;
      const cell = document.createElement('div');
      cell.className = 'vcell';
      cell.setAttribute('role', 'gridcell');
      cell.dataset.cell = c;
      cell.tabIndex = -1;
      if (col < N - 1 && region(c) !== region(c + 1)) cell.classList.add('tr');
      if (r < N - 1 && region(c) !== region(c + N)) cell.classList.add('tb');
      if (windows.has(c)) cell.classList.add('win');
      const v = document.createElement('span');
      v.className = 'v';
      const marks = document.createElement('span');
      marks.className = 'vmarks';
      marks.style.setProperty('--mc', mc);
      marks.style.setProperty('--mr', mr);
      for (let d = 1; d <= N; d++) {
        const m = document.createElement('span');
        m.textContent = sym(d);
        marks.append(m);
      }
      cell.append(v, marks);
      const k = cageOf.get(c);
      if (k !== undefined && Math.min(...st.spec.cages[k].cells) === c && st.spec.cages[k].sum != null) {
        const s = document.createElement('span');
        s.className = 'csum';
        s.textContent = st.spec.cages[k].sum;
        cell.append(s);
      }
      row.append(cell);
    }
    board.append(row);
  }
  drawLines(cageOf);
  buildKeypad();
}

// Killer cages as dashed outlines inside their cells, and the diagonals of Sudoku X.
function drawLines(cageOf) {
  const N = n(), svg = $('vlines'), ns = 'http://www.w3.org/2000/svg';
  svg.setAttribute('viewBox', `0 0 ${N} ${N}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.replaceChildren();
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(ns, 'line');
    Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => l.setAttribute(k, v));
    l.setAttribute('class', cls);
    svg.append(l);
  };
  if (has('x')) {
    line(0, 0, N, N, 'diag');
    line(N, 0, 0, N, 'diag');
  }
  const e = 0.09;
  for (let c = 0; c < N * N; c++) {
    const k = cageOf.get(c);
    if (k === undefined) continue;
    const r = Math.floor(c / N), col = c % N;
    const same = (rr, cc) => rr >= 0 && rr < N && cc >= 0 && cc < N && cageOf.get(rr * N + cc) === k;
    const up = same(r - 1, col), down = same(r + 1, col), left = same(r, col - 1), right = same(r, col + 1);
    // Each side that is the cage's edge, inset; sides inside the cage run to the cell's edge.
    const x0 = col + (left ? 0 : e), x1 = col + 1 - (right ? 0 : e);
    const y0 = r + (up ? 0 : e), y1 = r + 1 - (down ? 0 : e);
    if (!up) line(x0, r + e, x1, r + e, 'cage');
    if (!down) line(x0, r + 1 - e, x1, r + 1 - e, 'cage');
    if (!left) line(col + e, y0, col + e, y1, 'cage');
    if (!right) line(col + 1 - e, y0, col + 1 - e, y1, 'cage');
  }
}

function buildKeypad() {
  const N = n(), pad = $('vkeypad');
  pad.replaceChildren();
  pad.style.setProperty('--kcols', N <= 8 ? N : Math.ceil(N / 2));
  for (let d = 1; d <= N; d++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'key';
    b.dataset.digit = d;
    b.textContent = sym(d);
    b.setAttribute('aria-label', `Digit ${sym(d)}`);
    pad.append(b);
  }
}

function render() {
  if (!st.spec) return;
  const N = n(), hint = st.hint, stage = st.stage;
  const conflicts = new Set(st.conflicts);
  const selDigit = digitAt(st.sel);
  const ps = render.peers;
  let houseCells = new Set(), hintCells = new Set();
  if (hint && stage >= 2) houseCells = new Set((hint.houses || []).flatMap((h) => render.houses[h] || []));
  if (hint && (stage >= 3 || hint.kind !== 'step')) hintCells = new Set(hint.cells);
  for (const cell of $('vboard').querySelectorAll('.vcell')) {
    const c = Number(cell.dataset.cell), d = digitAt(c);
    cell.querySelector('.v').textContent = d ? sym(d) : '';
    cell.classList.toggle('given', givenAt(c) !== 0);
    cell.classList.toggle('entry', givenAt(c) === 0 && d !== 0);
    cell.classList.toggle('selected', c === st.sel);
    cell.classList.toggle('peer', c !== st.sel && ps[st.sel].has(c));
    cell.classList.toggle('same', c !== st.sel && selDigit !== 0 && d === selDigit);
    cell.classList.toggle('conflict', conflicts.has(c));
    cell.classList.toggle('hint-house', houseCells.has(c));
    cell.classList.toggle('hint-cell', hintCells.has(c));
    const marks = cell.querySelector('.vmarks');
    marks.hidden = d !== 0;
    [...marks.children].forEach((m, i) => m.classList.toggle('on', (st.marks[c] >> i & 1) === 1));
    cell.setAttribute('aria-selected', c === st.sel ? 'true' : 'false');
    cell.setAttribute('aria-label', `r${Math.floor(c / N) + 1}c${(c % N) + 1}${d ? `, ${sym(d)}` : ', empty'}${givenAt(c) ? ', given' : ''}`);
  }
  const rating = st.rating ? `rated ${st.rating} (${st.band}; hardest step ${st.hardest})` : 'not rated within the server\'s budget';
  $('vinfo').textContent = st.solved ? `${st.name}: solved!` : `${st.name}, ${rating}`;
  $('vpencil').setAttribute('aria-pressed', st.pencil ? 'true' : 'false');
  $('vpencil-state').textContent = st.pencil ? 'on' : 'off';
}

// ---------------------------------------------------------------------------------------------
// Moves

function snapshot() {
  st.history.push({ entries: [...st.entries], marks: [...st.marks] });
  if (st.history.length > 500) st.history.shift();
}

function closeHint() {
  st.hint = null;
  st.stage = 0;
  $('vhint-panel').hidden = true;
}

async function enter(d) {
  const c = st.sel;
  if (!st.spec || givenAt(c) || st.solved) return;
  snapshot();
  if (st.pencil) {
    if (st.entries[c]) return;
    st.marks[c] ^= 1 << (d - 1);
  } else {
    st.entries[c] = st.entries[c] === d ? 0 : d;
    // The digit leaves the marks of the cells it sees.
    if (st.entries[c]) for (const p of render.peers[c]) st.marks[p] &= ~(1 << (d - 1));
  }
  closeHint();
  render();
  save();
  if (!st.pencil) await check(false);
}

function erase() {
  const c = st.sel;
  if (!st.spec || givenAt(c) || st.solved) return;
  snapshot();
  if (st.entries[c]) st.entries[c] = 0;
  else st.marks[c] = 0;
  closeHint();
  render();
  save();
  check(false);
}

function undo() {
  const last = st.history.pop();
  if (!last) return;
  st.entries = last.entries;
  st.marks = last.marks;
  st.solved = false;
  closeHint();
  render();
  save();
  check(false);
}

function fillNotes() {
  if (!st.spec || st.solved) return;
  snapshot();
  fillMarks();
  render();
  save();
}

function fillMarks() {
  const N = n();
  for (let c = 0; c < N * N; c++) {
    if (digitAt(c)) { st.marks[c] = 0; continue; }
    let m = (1 << N) - 1;
    for (const p of render.peers[c]) if (digitAt(p)) m &= ~(1 << (digitAt(p) - 1));
    st.marks[c] = m;
  }
  st.filled = true;
}

async function check(announce) {
  if (!st.spec) return;
  try {
    const r = await api('/api/variant/check', { puzzle: st.spec, entries: entriesLine() });
    st.conflicts = announce || r.complete ? r.conflicts : r.conflicts.filter((c) => st.entries[c] || givenAt(c));
    if (r.solved && !st.solved) {
      st.solved = true;
      toast('Solved! Every rule holds.');
    } else if (announce) {
      toast(r.conflicts.length ? `${r.conflicts.length} cells break a rule` : 'No rule is broken so far');
    }
    render();
    save();
  } catch (e) {
    toast(e.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Hints: which technique, then where, then the whole step, then apply it.

function marksForHint() {
  if (!st.filled) return undefined;
  return st.marks.map((m, c) => (digitAt(c) ? '' : [...Array(n()).keys()].filter((i) => m >> i & 1).map((i) => sym(i + 1)).join('')));
}

async function hint() {
  if (!st.spec) return;
  if (st.hint && st.stage < 3) return advanceHint();
  try {
    $('vhint').disabled = true;
    const h = await api('/api/variant/hint', { puzzle: st.spec, entries: entriesLine(), marks: marksForHint() });
    st.hint = h;
    st.stage = h.kind === 'step' ? 1 : 3;
    showHint();
  } catch (e) {
    toast(e.message);
  } finally {
    $('vhint').disabled = false;
  }
}

function advanceHint() {
  const h = st.hint;
  if (!h) return;
  if (st.stage < 3) {
    st.stage += 1;
    showHint();
    return;
  }
  // Apply the step. Its eliminations need candidates to remove: a board without notes gets
  // them filled first (and hints take the notes from then on).
  snapshot();
  if (h.eliminations.length && !st.filled) fillMarks();
  for (const { cell, digit } of h.placements) {
    st.entries[cell] = digit;
    for (const p of render.peers[cell]) st.marks[p] &= ~(1 << (digit - 1));
  }
  for (const { cell, digit } of h.eliminations) st.marks[cell] &= ~(1 << (digit - 1));
  for (const cell of h.clear) st.entries[cell] = 0;
  for (const { cell, digit } of h.restore_marks) st.marks[cell] |= 1 << (digit - 1);
  closeHint();
  render();
  save();
  check(false);
}

function showHint() {
  const h = st.hint, panel = $('vhint-panel');
  panel.hidden = false;
  const texts = { 1: h.technique_text, 2: h.where_text, 3: h.text };
  $('vhint-text').textContent = texts[st.stage];
  const stageName = h.kind === 'step' ? `Hint ${st.stage} of 3${h.rating ? ` · ${h.rating}` : ''}` : h.kind === 'mistake' ? 'Mistake' : h.kind === 'reveal' ? 'A digit' : 'Solved';
  $('vhint-stage').textContent = stageName;
  const next = $('vhint-next');
  const action = { step: 'Apply the step', mistake: h.clear.length ? 'Clear them' : 'Restore the marks', reveal: 'Show the digit', solved: 'Close' }[h.kind];
  next.textContent = st.stage === 1 ? 'Show where' : st.stage === 2 ? 'Show the step' : action;
  if (h.kind === 'solved') next.onclick = closeHint;
  else next.onclick = advanceHint;
  render();
}

// ---------------------------------------------------------------------------------------------
// New games

function chosenRules() {
  return [...$('vrules').querySelectorAll('input:checked')].map((i) => i.value);
}

// The rules menu's summary names the rules chosen for the next game.
function showRules() {
  const names = [...$('vrules').querySelectorAll('input:checked')].map((i) => i.parentElement.textContent.trim());
  $('vrules-summary').textContent = names.length ? names.join(', ') : 'Classic rules';
}

async function newGame() {
  const size = Number($('vsize').value);
  const rules = chosenRules();
  if (rules.includes('windoku') && size !== 9) {
    toast('Windoku needs a 9×9 grid: its extra boxes are 3×3');
    return;
  }
  $('vloading').hidden = false;
  $('vnew').disabled = true;
  try {
    // The server takes the request as a query; the offline engine (a Web Worker) as a body.
    const q = { size, variant: rules.join(',') };
    const d = OFFLINE
      ? await api('/api/variant/puzzle', q)
      : await api(`/api/variant/puzzle?${new URLSearchParams({ size: String(size), variant: q.variant })}`);
    start(d);
  } catch (e) {
    toast(e.message);
  } finally {
    $('vloading').hidden = true;
    $('vnew').disabled = false;
  }
}

function start(d) {
  st.spec = d.puzzle;
  st.name = d.name;
  st.rating = d.rating;
  st.band = d.band;
  st.hardest = d.hardest;
  const N = d.puzzle.size;
  st.entries = d.entries || Array(N * N).fill(0);
  st.marks = d.marks || Array(N * N).fill(0);
  st.filled = Boolean(d.filled);
  st.solved = Boolean(d.solved);
  st.sel = 0;
  st.history = [];
  st.conflicts = [];
  closeHint();
  render.houses = houses();
  render.peers = peers();
  build();
  render();
  save();
  focus();
}

function focus() {
  const cell = $('vboard').querySelector(`[data-cell="${st.sel}"]`);
  if (cell) cell.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------------
// Input

function wire() {
  $('vnew').addEventListener('click', () => { $('vrules-menu').open = false; newGame(); });
  $('vrules').addEventListener('change', showRules);
  $('vboard').addEventListener('click', (e) => {
    const cell = e.target.closest('.vcell');
    if (!cell) return;
    st.sel = Number(cell.dataset.cell);
    render();
    focus();
  });
  $('vkeypad').addEventListener('click', (e) => {
    const b = e.target.closest('[data-digit]');
    if (b) enter(Number(b.dataset.digit));
  });
  $('verase').addEventListener('click', erase);
  $('vundo').addEventListener('click', undo);
  $('vfill').addEventListener('click', fillNotes);
  $('vpencil').addEventListener('click', () => { st.pencil = !st.pencil; render(); });
  $('vhint').addEventListener('click', hint);
  $('vhint-close').addEventListener('click', () => { closeHint(); render(); });
  $('vcheck').addEventListener('click', () => check(true));
  document.addEventListener('keydown', (e) => {
    if (!st.spec || e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
    const N = n();
    const moves = { ArrowUp: -N, ArrowDown: N, ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) {
      const r = Math.floor(st.sel / N), c = st.sel % N;
      if (e.key === 'ArrowUp') st.sel = ((r + N - 1) % N) * N + c;
      if (e.key === 'ArrowDown') st.sel = ((r + 1) % N) * N + c;
      if (e.key === 'ArrowLeft') st.sel = r * N + ((c + N - 1) % N);
      if (e.key === 'ArrowRight') st.sel = r * N + ((c + 1) % N);
      e.preventDefault();
      render();
      focus();
      return;
    }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') { e.preventDefault(); undo(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0') { e.preventDefault(); erase(); return; }
    // A digit by its key, Shift giving a pencil mark (the code, since Shift changes the key).
    let d = 0;
    const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code) || /^Key([A-G])$/.exec(e.code);
    if (m) d = symDigit(m[1]);
    if (d && d <= N && !(e.code.startsWith('Key') && 'HN'.includes(e.key.toUpperCase()))) {
      e.preventDefault();
      if (e.shiftKey) {
        const was = st.pencil;
        st.pencil = true;
        enter(d).finally(() => { st.pencil = was; render(); });
      } else {
        enter(d);
      }
      return;
    }
    if (e.key === 'n' || e.key === 'N') { st.pencil = !st.pencil; render(); return; }
    if (e.key === 'h' || e.key === 'H') { hint(); }
  });
}

function main() {
  wire();
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(STORE) || 'null'); } catch { saved = null; }
  if (saved && saved.spec && Array.isArray(saved.entries) && saved.entries.length === saved.spec.size ** 2) {
    $('vsize').value = String(saved.spec.size);
    for (const i of $('vrules').querySelectorAll('input')) {
      i.checked = saved.spec.variants.includes(i.value);
    }
    start({ puzzle: saved.spec, ...saved });
  } else {
    newGame();
  }
  showRules();
  document.body.classList.add('ready');
}

main();
