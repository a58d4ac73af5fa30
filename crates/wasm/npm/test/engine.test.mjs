// The package under Node's own test runner: `node --test test/` in the built package
// (crates/wasm/build.sh). With SHUDU_BIN set to a shudu binary, the answers are compared with
// the CLI's for the same input and seed; with SHUDU_DATA set to ../shared/data, solving is
// checked on its sets. An independent checker (the rules, written here) judges every grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as shudu from '../index.js';

const BIN = process.env.SHUDU_BIN;
const DATA = process.env.SHUDU_DATA;
const CLASSIC = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......';
const SE_HIDDEN = '...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9';

// The rules, independently of the engine: every house holds 1-9 once.
function isValidGrid(g) {
  if (!/^[1-9]{81}$/.test(g)) return false;
  const houses = [];
  for (let i = 0; i < 9; i++) {
    houses.push([...Array(9)].map((_, k) => 9 * i + k));
    houses.push([...Array(9)].map((_, k) => 9 * k + i));
    const r = 3 * Math.floor(i / 3), c = 3 * (i % 3);
    houses.push([...Array(9)].map((_, k) => 9 * (r + Math.floor(k / 3)) + c + (k % 3)));
  }
  return houses.every((h) => new Set(h.map((i) => g[i])).size === 9);
}
const keeps = (puzzle, grid) => [...puzzle].every((ch, i) => ch === '.' || ch === '0' || ch === grid[i]);

// Solutions counted to 2 by plain backtracking: the oracle for uniqueness.
function oracleCount(p, limit = 2) {
  const cells = [...p].map((ch) => (ch === '.' ? 0 : Number(ch)));
  let n = 0;
  const ok = (i, d) => {
    const r = Math.floor(i / 9), c = i % 9, br = r - (r % 3), bc = c - (c % 3);
    for (let k = 0; k < 9; k++) {
      if (cells[9 * r + k] === d || cells[9 * k + c] === d) return false;
      if (cells[9 * (br + Math.floor(k / 3)) + bc + (k % 3)] === d) return false;
    }
    return true;
  };
  const go = () => {
    let best = -1, bestN = 10;
    for (let i = 0; i < 81; i++) {
      if (cells[i]) continue;
      let m = 0;
      for (let d = 1; d <= 9; d++) if (ok(i, d)) m++;
      if (m < bestN) { best = i; bestN = m; }
    }
    if (best < 0) { n++; return; }
    for (let d = 1; d <= 9 && n < limit; d++) {
      if (ok(best, d)) { cells[best] = d; go(); cells[best] = 0; }
    }
  };
  go();
  return n;
}

test('solve gives the unique solution, and says none or multiple', () => {
  const r = shudu.solve(CLASSIC);
  assert.equal(r.status, 'unique');
  assert.ok(isValidGrid(r.solution) && keeps(CLASSIC, r.solution));
  const open = '.'.repeat(81);
  assert.equal(shudu.solve(open).status, 'multiple');
  assert.ok(isValidGrid(shudu.solve(open).solution));
  // No rule broken by the givens, yet r1c9 can hold nothing.
  assert.deepEqual(shudu.solve('12345678.' + '........9' + '.'.repeat(63)), { status: 'none' });
  assert.throws(() => shudu.solve('11' + '.'.repeat(79)), /digit 1 appears twice in row 1/);
  assert.equal(shudu.count(CLASSIC), 1);
  assert.equal(shudu.count(open, 5), 5);
  assert.equal(shudu.isUnique(CLASSIC), true);
});

test('bad input throws a ShuduError that says where and what was expected', () => {
  assert.throws(() => shudu.solve('12x'), (e) => e instanceof shudu.ShuduError && /column 3/.test(e.message) && /expected/.test(e.message));
  assert.throws(() => shudu.solve(42), /puzzle: found number; expected a string/);
  assert.throws(() => shudu.count(CLASSIC, 0), /limit: found 0/);
  assert.throws(() => shudu.generate({ band: 'impossible' }), /band: .*easy/);
  assert.throws(() => shudu.generate({ symmetry: 'spiral' }), /symmetry/);
  assert.throws(() => shudu.generate({ colour: 'red' }), /unknown field `colour`/);
  assert.throws(() => shudu.generate({ seed: -1 }), /seed: found -1/);
  assert.throws(() => shudu.generate({ band: 'easy', rating: 2 }), /one of them, not both/);
  assert.throws(() => shudu.rate('.'.repeat(81)), /more than one solution/);
  assert.throws(() => shudu.request('nothing'), /unknown endpoint 'nothing'/);
  assert.throws(() => shudu.hint(CLASSIC, { entries: 'x' }), /entries: found 1 character; expected 81/);
});

test('solveAll answers every record in its place, bad ones included', () => {
  const out = shudu.solveAll(`${CLASSIC}\n12x\n${'.'.repeat(81)}\n`);
  assert.equal(out.length, 3);
  assert.equal(out[0].status, 'unique');
  assert.equal(out[1].status, 'error');
  assert.match(out[1].error, /line 2/);
  assert.equal(out[2].status, 'multiple');
});

test('generated puzzles are unique for the oracle, in their band, with their symmetry and givens', () => {
  for (const [band, lo, hi] of [['easy', 1.0, 1.5], ['medium', 1.6, 2.5], ['hard', 2.6, 4.0], ['fiendish', 4.1, 6.1]]) {
    const g = shudu.generate({ band, seed: 11 });
    assert.equal(oracleCount(g.puzzle), 1, `${band}: ${g.puzzle}`);
    assert.ok(isValidGrid(g.solution) && keeps(g.puzzle, g.solution));
    assert.equal(g.band, band);
    assert.ok(g.rating >= lo && g.rating <= hi, `${band} rated ${g.rating}`);
    assert.equal(shudu.rate(g.puzzle).er, g.rating);
  }
  const m = shudu.generateMany({ count: 5, seed: 3, givens: [24, 26], symmetry: 'rot180', minimal: true });
  assert.equal(m.puzzles.length, 5);
  for (const p of m.puzzles) {
    assert.ok(p.givens >= 24 && p.givens <= 26);
    for (let i = 0; i < 81; i++) assert.equal(p.puzzle[i] === '.', p.puzzle[80 - i] === '.');
    assert.equal(oracleCount(p.puzzle), 1);
  }
});

test('the levels cut each band into contiguous ranges, and a level can be asked for alone', () => {
  const levels = shudu.levels();
  const bands = { easy: [1.0, 1.5], medium: [1.6, 2.5], hard: [2.6, 4.0], fiendish: [4.1, 6.1], diabolical: [6.2, 8.9], extreme: [9.0, 20.0] };
  for (const [band, [lo, hi]] of Object.entries(bands)) {
    const mine = levels.filter((l) => l.band === band);
    assert.ok(mine.length >= 2, band);
    assert.equal(mine[0].low, lo, band);
    assert.equal(mine.at(-1).high, hi, band);
    for (let i = 1; i < mine.length; i++) assert.equal(Math.round((mine[i].low - mine[i - 1].high) * 10), 1, `${band} ${i}`);
    for (const l of mine) assert.ok(l.weight >= 1 && l.low <= l.high);
  }
  assert.equal(levels.filter((l) => l.band in bands).length, levels.length);
  for (const l of levels.filter((x) => x.band === 'hard').slice(0, 6)) {
    const g = shudu.generate({ rating: [l.low, l.high], seed: 5 });
    assert.ok(g.rating >= l.low && g.rating <= l.high, `${l.low}-${l.high}: ${g.rating}`);
    assert.equal(oracleCount(g.puzzle), 1);
  }
});

test('a budget too short says so instead of hanging', () => {
  const r = shudu.generateMany({ count: 3, seed: 1, rating: [10.5, 11.0], timeoutMs: 50 });
  assert.equal(r.timedOut, true);
  assert.ok(r.elapsedMs < 5000, `${r.elapsedMs} ms`);
  assert.throws(() => shudu.generate({ seed: 1, rating: [10.5, 11.0], timeoutMs: 50 }), /no puzzle was found within the budget of 50 ms/);
});

test('rate, explain and hint agree on the path', () => {
  const r = shudu.rate(SE_HIDDEN);
  const t = shudu.explain(SE_HIDDEN);
  assert.equal(t.er, r.er);
  assert.equal(t.steps.length, r.steps);
  assert.equal(t.steps[0].technique, 'Hidden Single');
  const h = shudu.hint(SE_HIDDEN);
  assert.equal(h.kind, 'step');
  assert.equal(h.technique_text, 'Look for a Hidden Single.');
  assert.equal(h.placements.length, 1);
  // A wrong digit is the hint before any step.
  const solution = shudu.solve(SE_HIDDEN).solution;
  const cell = SE_HIDDEN.indexOf('.');
  const wrong = (Number(solution[cell]) % 9) + 1;
  const entries = '.'.repeat(cell) + wrong + '.'.repeat(80 - cell);
  assert.equal(shudu.hint(SE_HIDDEN, { entries }).kind, 'mistake');
  assert.deepEqual(shudu.check(SE_HIDDEN, { entries }).wrong, [cell]);
});

test('canonical forms are the same for equivalent puzzles', () => {
  const t = [...Array(81)].map((_, i) => CLASSIC[(i % 9) * 9 + Math.floor(i / 9)]).join('');
  assert.notEqual(t, CLASSIC);
  assert.deepEqual(shudu.canonical(t), shudu.canonical(CLASSIC));
});

test('the game API answers as the server does', () => {
  const bands = shudu.request('bands');
  assert.deepEqual(bands.bands, ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme']);
  const p = shudu.request('puzzle', { band: 'easy', seen: [] }, { seed: 5 });
  assert.equal(p.band, 'easy');
  assert.equal(p.source, 'fresh');
  assert.match(p.key, /^[0-9a-f]{16}$/);
  assert.equal(oracleCount(p.puzzle), 1);
  const again = shudu.request('puzzle', { band: 'easy', seen: [p.key] }, { seed: 5 });
  assert.notEqual(again.key, p.key);
  assert.throws(() => shudu.request('puzzle', { band: 'easy', seen: ['xyz'] }), /seen\[0\]/);
  assert.equal(shudu.request('solve', { puzzle: CLASSIC }).solution, shudu.solve(CLASSIC).solution);
});

test('the same seed gives what the CLI gives', { skip: !BIN && 'SHUDU_BIN not set' }, () => {
  const cli = (...args) => execFileSync(BIN, args, { encoding: 'utf8' });
  for (const [args, options] of [
    [['--seed', '7', '--difficulty', 'hard'], { seed: 7, band: 'hard' }],
    [['--seed', '9', '--minimal', '--symmetry', 'rot180'], { seed: 9, minimal: true, symmetry: 'rot180' }],
    [['--seed', '4', '--givens', '30'], { seed: 4, givens: 30 }],
    [['--seed', '2', '--needs', 'x-wing'], { seed: 2, needs: 'x-wing' }],
  ]) {
    const lines = cli('generate', '-n', '3', ...args).trim().split('\n');
    const ours = shudu.generateMany({ count: 3, ...options }).puzzles.map((p) => p.puzzle);
    assert.deepEqual(ours, lines, args.join(' '));
  }
  const graded = JSON.parse(cli('explain', '--format', 'json', SE_HIDDEN));
  assert.deepEqual(shudu.explain(SE_HIDDEN), graded);
  const canon = execFileSync(BIN, ['canon', '--automorphisms', '-'], { encoding: 'utf8', input: CLASSIC });
  assert.equal(`${shudu.canonical(CLASSIC).form} ${shudu.canonical(CLASSIC).automorphisms}`, canon.trim());
});

test('the 17-clue and top1465 sets solve to valid grids that keep their givens', { skip: !DATA && 'SHUDU_DATA not set' }, () => {
  for (const name of ['puzzles2_17_clue', 'puzzles3_magictour_top1465']) {
    const puzzles = readFileSync(join(DATA, name), 'utf8').split('\n').filter((l) => /^[0-9.]{81}/.test(l)).map((l) => l.slice(0, 81));
    assert.ok(puzzles.length > 1000);
    for (const p of puzzles) {
      const r = shudu.solve(p);
      assert.equal(r.status, 'unique', p);
      assert.ok(isValidGrid(r.solution) && keeps(p, r.solution), p);
    }
  }
});
