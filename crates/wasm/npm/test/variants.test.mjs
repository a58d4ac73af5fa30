// shudu/variants under Node's own test runner (`node --test test/` in the built package). An
// independent checker and solution counter (the rules, written here from the puzzle's spec)
// judges every puzzle; with SHUDU_BIN set, the answers are compared with the CLI's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as v from '../variants.js';
import { ShuduError } from '../index.js';

const BIN = process.env.SHUDU_BIN;
const BOXES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4] };
const SYMBOLS = '123456789ABCDEFG';

// The houses and "must differ" pairs of a spec {size, variants, regions, cages}, from the rules.
function rulesOf(spec) {
  const n = spec.size, [bh, bw] = BOXES[n], names = spec.variants ?? [];
  const houses = [];
  for (let i = 0; i < n; i++) {
    houses.push([...Array(n)].map((_, k) => n * i + k), [...Array(n)].map((_, k) => n * k + i));
  }
  const region = spec.regions ?? [...Array(n * n)].map((_, c) => {
    const r = Math.floor(c / n), col = c % n;
    return Math.floor(r / bh) * (n / bw) + Math.floor(col / bw);
  });
  for (let g = 0; g < n; g++) houses.push([...Array(n * n).keys()].filter((c) => region[c] === g));
  if (names.includes('x')) {
    houses.push([...Array(n)].map((_, k) => n * k + k), [...Array(n)].map((_, k) => n * k + n - 1 - k));
  }
  if (names.includes('windoku')) {
    for (const r0 of [1, 5]) for (const c0 of [1, 5]) houses.push([...Array(9)].map((_, k) => 9 * (r0 + Math.floor(k / 3)) + c0 + (k % 3)));
  }
  const peers = [...Array(n * n)].map(() => new Set());
  for (const h of houses) for (const a of h) for (const b of h) if (a !== b) peers[a].add(b);
  const moves = [];
  if (names.includes('anti-knight')) moves.push([1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]);
  if (names.includes('anti-king')) moves.push([1, 1], [1, -1], [-1, 1], [-1, -1]);
  for (let c = 0; c < n * n; c++) {
    for (const [dr, dc] of moves) {
      const r = Math.floor(c / n) + dr, col = (c % n) + dc;
      if (r >= 0 && r < n && col >= 0 && col < n) peers[c].add(n * r + col);
    }
  }
  for (const cage of spec.cages ?? []) for (const a of cage.cells) for (const b of cage.cells) if (a !== b) peers[a].add(b);
  return { n, houses, peers: peers.map((s) => [...s]), cages: spec.cages ?? [] };
}

const digits = (line) => [...line].map((ch) => (ch === '.' || ch === '0' ? 0 : SYMBOLS.indexOf(ch) + 1));

// Whether a full grid keeps every rule.
function isSolution(spec, line) {
  const { n, houses, peers, cages } = rulesOf(spec), g = digits(line);
  if (g.length !== n * n || g.some((d) => d < 1 || d > n)) return false;
  if (houses.some((h) => new Set(h.map((c) => g[c])).size !== n)) return false;
  if (g.some((d, c) => peers[c].some((p) => g[p] === d))) return false;
  return cages.every((k) => k.sum == null || k.cells.reduce((s, c) => s + g[c], 0) === k.sum);
}

// Solutions counted to `limit` by plain backtracking: the oracle for uniqueness.
function oracleCount(spec, limit = 2) {
  const { n, peers, cages } = rulesOf(spec), g = digits(spec.givens);
  const cageOf = [...Array(n * n)].map(() => null);
  for (const k of cages) for (const c of k.cells) cageOf[c] = k;
  const ok = (c, d) => {
    if (peers[c].some((p) => g[p] === d)) return false;
    const k = cageOf[c];
    if (!k || k.sum == null) return true;
    let sum = d, empty = 0;
    for (const x of k.cells) if (x !== c) { if (g[x]) sum += g[x]; else empty++; }
    if (empty === 0) return sum === k.sum;
    // The empty cells take distinct digits: at least 1+2+..., at most n+(n-1)+...
    return sum + (empty * (empty + 1)) / 2 <= k.sum && sum + empty * n - (empty * (empty - 1)) / 2 >= k.sum;
  };
  let found = 0;
  const go = () => {
    let best = -1, bestN = n + 1;
    for (let c = 0; c < n * n; c++) {
      if (g[c]) continue;
      let m = 0;
      for (let d = 1; d <= n; d++) if (ok(c, d)) m++;
      if (m < bestN) { best = c; bestN = m; if (m === 0) break; }
    }
    if (best < 0) { found++; return; }
    for (let d = 1; d <= n && found < limit; d++) {
      if (ok(best, d)) { g[best] = d; go(); g[best] = 0; }
    }
  };
  for (let c = 0; c < n * n; c++) if (g[c] && !ok(c, g[c])) return 0;
  go();
  return found;
}

test('puzzles in the line format are unique for the oracle and solve as it says', () => {
  for (const [size, variant] of [[4, []], [6, ['x']], [8, ['anti-king']], [9, ['windoku']], [9, ['x', 'anti-knight']], [12, []]]) {
    const r = v.generateMany({ size, variant, count: 3, seed: 21 });
    assert.equal(r.puzzles.length, 3, `${size} ${variant}`);
    for (const p of r.puzzles) {
      const spec = { size, variants: variant, givens: p.line };
      if (size <= 9) assert.equal(oracleCount(spec), 1, `${size} ${variant}: ${p.line}`);
      assert.ok(isSolution(spec, p.solution), `${size} ${variant}: ${p.solution}`);
      assert.deepEqual(v.solve(p.line, { size, variant }), { status: 'unique', solution: p.solution });
      assert.deepEqual(v.solve(p.link), { status: 'unique', solution: p.solution });
    }
  }
  const empty = '.'.repeat(36);
  assert.equal(v.count(empty, { size: 6, variant: 'x', limit: 5 }), 5);
  assert.equal(v.solve(`11${'.'.repeat(34)}`, { size: 6 }).status, 'none');
});

test('killer and jigsaw puzzles dealt with their cages and regions are unique for the oracle', () => {
  for (const variant of ['killer', 'killer,x', 'jigsaw', 'jigsaw,anti-king', 'killer,jigsaw']) {
    for (const seed of [1, 2, 3]) {
      const d = v.request('variant/puzzle', { size: 6, variant, seed }, { seed: 99 });
      const spec = d.puzzle;
      assert.equal(oracleCount(spec), 1, `${variant} ${seed}: ${JSON.stringify(spec)}`);
      if (variant.includes('killer')) assert.ok(spec.cages.length > 0);
      if (variant.includes('jigsaw')) assert.equal(spec.regions.length, 36);
      const full = v.request('variant/check', { puzzle: spec, entries: spec.givens });
      assert.equal(full.solved, false);
    }
  }
  // Generated killers: the solution keeps the rules the link holds, and is the only one.
  const r = v.generateMany({ size: 8, variant: 'killer', count: 2, seed: 5 });
  for (const p of r.puzzles) {
    assert.equal(p.line, undefined);
    assert.equal(v.count(p.link, { limit: 3 }), 1);
    assert.equal(p.givens, 0);
  }
});

test('a band asked for is the rating the puzzle gets', () => {
  const r = v.generateMany({ size: 6, variant: 'x', count: 2, seed: 3, band: 'hard', timeoutMs: 30000 });
  assert.equal(r.puzzles.length, 2);
  for (const p of r.puzzles) {
    assert.equal(p.band, 'hard');
    const rated = v.rate(p.line, { size: 6, variant: 'x' });
    assert.equal(rated.er, p.rating);
    assert.ok(rated.er >= 2.6 && rated.er <= 4.0);
  }
  assert.ok(r.made >= 2);
});

test('hints are steps the solution keeps, and hints alone solve a 6x6 killer X', () => {
  const d = v.request('variant/puzzle', { size: 6, variant: 'killer,x', seed: 8 });
  const spec = d.puzzle;
  const { n, peers } = rulesOf(spec);
  const entries = [...spec.givens];
  // Pencil marks as a player keeps them: every digit no peer holds, less the hints' eliminations.
  let marks = null;
  const fill = () => entries.map((ch, c) => (ch !== '.' ? '' : [...SYMBOLS.slice(0, n)]
    .filter((s) => !peers[c].some((p) => entries[p] === s)).join('')));
  let steps = 0;
  while (entries.includes('.') && steps++ < 400) {
    const h = v.request('variant/hint', { puzzle: spec, entries: entries.join(''), marks });
    assert.equal(h.kind, 'step', JSON.stringify(h));
    assert.ok(h.placements.length + h.eliminations.length > 0, JSON.stringify(h));
    for (const e of h.eliminations) {
      marks ??= fill();
      marks[e.cell] = marks[e.cell].replace(SYMBOLS[e.digit - 1], '');
    }
    for (const p of h.placements) {
      const s = SYMBOLS[p.digit - 1];
      entries[p.cell] = s;
      if (marks) {
        marks[p.cell] = '';
        for (const q of peers[p.cell]) marks[q] = marks[q].replace(s, '');
      }
    }
  }
  const c = v.request('variant/check', { puzzle: spec, entries: entries.join('') });
  assert.ok(c.solved, JSON.stringify(c));
  assert.ok(isSolution(spec, entries.join('')));
  assert.equal(v.request('variant/hint', { puzzle: spec, entries: entries.join('') }).kind, 'solved');
});

test('bad input throws a ShuduError that names the argument', () => {
  const cases = [
    [() => v.solve('...', { size: 6 }), /3 cells, expected 36/],
    [() => v.solve('.'.repeat(36), { size: 6, variant: 'hexagon' }), /unknown variant 'hexagon'/],
    [() => v.solve('.'.repeat(36), { size: 7 }), /size/],
    [() => v.solve('.'.repeat(36), { size: 6, variant: ['killer'] }), /f-puzzles/],
    [() => v.solve('https://f-puzzles.com/?load=zzz'), /f-puzzles/],
    [() => v.solve(42), /puzzle: found number; expected a string/],
    [() => v.count('.'.repeat(16), { size: 4, limit: 0 }), /limit/],
    [() => v.generateMany({ size: 6, givens: 99, seed: 1 }), /givens/],
    [() => v.generateMany({ seed: 1, band: 'tricky' }), /band/],
    [() => v.generateMany({ seed: -1 }), /seed/],
    [() => v.generateMany({ seed: 1, colour: 'red' }), /unknown field `colour`/],
    [() => v.generate({ count: 2 }), /generateMany/],
    [() => v.rate('.'.repeat(36), { size: 6 }), /more than one solution/],
    [() => v.request('variant/nothing', {}), /unknown endpoint/],
    [() => v.request('variant/check', { puzzle: { size: 6, givens: 'x' }, entries: '' }), /givens/],
  ];
  for (const [f, want] of cases) {
    assert.throws(f, (e) => e instanceof ShuduError && want.test(e.message), String(want));
  }
  const r = v.generateMany({ size: 16, count: 40, seed: 2, timeoutMs: 1 });
  assert.equal(r.timedOut, true);
  assert.ok(r.puzzles.length < 40);
});

test('the same seed gives what the CLI gives', { skip: !BIN && 'SHUDU_BIN not set' }, () => {
  const cli = (...args) => execFileSync(BIN, args, { encoding: 'utf8' }).trim().split('\n');
  for (const [size, variant] of [[6, 'x'], [9, 'killer'], [8, 'jigsaw'], [16, '']]) {
    const lines = cli('generate', '--size', String(size), '--variant', variant || 'classic', '-n', '3', '--seed', '17', '--fpuzzles');
    const ours = v.generateMany({ size, variant, count: 3, seed: 17 }).puzzles.map((p) => p.link);
    assert.deepEqual(ours, lines, `${size} ${variant}`);
  }
  const puzzles = v.generateMany({ size: 6, variant: 'x', count: 4, seed: 4 }).puzzles.map((p) => p.line);
  const graded = execFileSync(BIN, ['grade', '--size', '6', '--variant', 'x', '--format', 'json', '-'], { encoding: 'utf8', input: puzzles.join('\n') })
    .trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(puzzles.map((p) => v.rate(p, { size: 6, variant: 'x' }).er), graded.map((g) => g.er));
});
