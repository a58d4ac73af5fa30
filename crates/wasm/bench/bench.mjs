// The npm package side by side with the JavaScript Sudoku packages, in Node, one thread.
//
//   node crates/wasm/bench/bench.mjs PACKAGE_DIR DATA_DIR [PEERS_DIR] [--quick]
//
// PACKAGE_DIR: the built package (crates/wasm/build.sh; target/npm/shudu). DATA_DIR: ../shared/data.
// PEERS_DIR: a folder with node_modules holding the peers (`scripts/peers OUT` installs them into
// OUT/npm); without it only shudu is measured. Prints one JSON object: per-puzzle microseconds
// (median of 5 runs) for solve + uniqueness on the 17-clue and top1465 sets, puzzles a second per
// band for generation, and for each peer's generator whether its puzzles are unique and how they
// rate on Sudoku Explainer's scale (checked by shudu), band by band and level by level (a level:
// the ratings of one technique or a few alike, `levels()`), and shudu asked for each level alone.
// scripts/bench writes it into BENCHMARKS.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quick = process.argv.includes('--quick');
if (args.length < 2) {
  console.error('usage: bench.mjs PACKAGE_DIR DATA_DIR [PEERS_DIR] [--quick]');
  process.exit(2);
}
const [pkgDir, dataDir, peersDir] = args;
const shudu = isMainThread ? await import(pathToFileURL(join(resolve(pkgDir), 'index.js')).href) : null;

function lines(name, limit) {
  const text = readFileSync(join(dataDir, name), 'utf8');
  const out = [];
  for (const line of text.split('\n')) {
    const m = line.match(/^[0-9.]{81}/);
    if (m) out.push(m[0]);
    if (out.length >= limit) break;
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Microseconds a puzzle for `f` over the set, median of `runs` passes.
function perPuzzle(set, f, runs = 5) {
  const times = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    for (const p of set) f(p);
    times.push(((performance.now() - t) * 1000) / set.length);
  }
  return median(times);
}

// Puzzles a second made by `make` within `seconds` (at least `least` puzzles).
function rate(make, seconds, least = 3) {
  const made = [];
  const t = performance.now();
  while (made.length < least || performance.now() - t < seconds * 1000) made.push(make());
  return { perSecond: made.length / ((performance.now() - t) / 1000), made };
}

const toBoard = (line, zeroBased) =>
  [...line].map((ch) => (ch === '.' || ch === '0' ? null : Number(ch) - (zeroBased ? 1 : 0)));
const fromBoard = (board, zeroBased) =>
  board.map((v) => (v === null || v === undefined ? '.' : String(v + (zeroBased ? 1 : 0)))).join('');

// The peers, loaded from PEERS_DIR: each an object with what it offers.
function loadPeers(dir) {
  const peers = {};
  if (!dir) return peers;
  const req = createRequire(join(resolve(dir), 'package.json'));
  const load = (name) => {
    try {
      return req(name);
    } catch {
      return null;
    }
  };
  const dachev = load('sudoku');
  if (dachev) {
    peers.sudoku = {
      version: req('sudoku/package.json').version,
      // solvepuzzle solves; the package has no uniqueness check.
      solve: (p) => dachev.solvepuzzle(toBoard(p, true)),
      generate: { any: () => fromBoard(dachev.makepuzzle(), true) },
    };
  }
  const core = load('sudoku-core');
  if (core) {
    peers['sudoku-core'] = {
      version: req('sudoku-core/package.json').version,
      // analyze tells uniqueness; solve is its human-style solver.
      solve: (p) => {
        const b = toBoard(p, false);
        return [core.analyze(b).hasUniqueSolution, core.solve(b)];
      },
      generate: Object.fromEntries(
        ['easy', 'medium', 'hard', 'expert', 'master'].map((d) => [d, () => fromBoard(core.generate(d), false)]),
      ),
    };
  }
  const gen = load('sudoku-gen');
  if (gen) {
    peers['sudoku-gen'] = {
      version: req('sudoku-gen/package.json').version,
      solve: null,
      generate: Object.fromEntries(
        ['easy', 'medium', 'hard', 'expert'].map((d) => [d, () => gen.getSudoku(d).puzzle.replaceAll('-', '.')]),
      ),
    };
  }
  return peers;
}

// A peer's work runs in a worker thread, so that a call that never returns (sudoku-core on a
// 17-clue puzzle) is cut off at the budget: the figure is then what it did in that time.
if (!isMainThread) {
  const { task, peer, dir, puzzles, level, seconds } = workerData;
  const p = loadPeers(dir)[peer];
  const t = performance.now();
  if (task === 'solve') {
    for (const q of puzzles) {
      p.solve(q);
      parentPort.postMessage({ done: 1, ms: performance.now() - t });
    }
  } else {
    while (performance.now() - t < seconds * 1000) {
      const q = p.generate[level]();
      parentPort.postMessage({ puzzle: q, ms: performance.now() - t });
    }
  }
  parentPort.postMessage({ end: true, ms: performance.now() - t });
  process.exit(0);
}

function bounded(data, seconds) {
  return new Promise((done) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: data, argv: process.argv.slice(2) });
    const r = { done: 0, puzzles: [], ms: 0, finished: false };
    const timer = setTimeout(() => {
      w.terminate();
    }, seconds * 1000);
    w.on('message', (m) => {
      if (m.done) r.done += 1;
      if (m.puzzle) r.puzzles.push(m.puzzle);
      r.ms = m.ms;
      if (m.end) r.finished = true;
    });
    w.on('exit', () => {
      clearTimeout(timer);
      if (!r.finished) r.ms = seconds * 1000;
      done(r);
    });
  });
}

const peers = loadPeers(peersDir);
const sets = {
  '17-clue': lines('puzzles2_17_clue', quick ? 2000 : 49158),
  top1465: lines('puzzles3_magictour_top1465', 1465),
};
const result = { node: process.version, shudu: shudu.version, quick, solve: {}, generate: {}, peers: {} };
// A peer's budget for each measurement, in seconds.
const budget = quick ? 5 : 60;

for (const [name, set] of Object.entries(sets)) {
  // Solve + uniqueness: count to 2, and the solution.
  const row = { puzzles: set.length, shudu: perPuzzle(set, (p) => shudu.solve(p)) };
  for (const [peer, p] of Object.entries(peers)) {
    if (!p.solve) continue;
    // The peers take the set's first puzzles until their budget runs out.
    const r = await bounded({ task: 'solve', peer, dir: peersDir, puzzles: set.slice(0, 2000) }, budget);
    row[peer] = { usPerPuzzle: r.done ? (r.ms * 1000) / r.done : null, solved: r.done, finished: r.finished, seconds: r.ms / 1000 };
  }
  result.solve[name] = row;
}

// The levels each band is spread over (rated::LEVELS).
const levels = shudu.levels();
const levelOf = (er) => levels.find((l) => er >= l.low - 1e-9 && er <= l.high + 1e-9);
const levelName = (l) =>
  l.high >= 20 ? `${l.low.toFixed(1)}+` : l.low === l.high ? l.low.toFixed(1) : `${l.low.toFixed(1)}-${l.high.toFixed(1)}`;
const bands = ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme'];
let seed = 1;
for (const band of bands) {
  const seconds = quick ? 1 : band === 'extreme' ? 20 : 5;
  const r = rate(() => shudu.generate({ band, seed: seed++ }), seconds, quick ? 1 : 3);
  const classes = new Set(r.made.map((g) => shudu.canonical(g.puzzle).form));
  const inBand = r.made.filter((g) => g.band === band && shudu.count(g.puzzle, 2) === 1).length;
  const byLevel = {};
  for (const g of r.made) {
    const l = levelName(levelOf(g.rating));
    byLevel[l] = (byLevel[l] ?? 0) + 1;
  }
  result.generate[band] = { perSecond: r.perSecond, puzzles: r.made.length, classes: classes.size, inBand, byLevel };
}

// Each level alone (`generate({rating: [low, high]})`): what a peer's puzzles of that level are
// compared with. A call gets the time left as its budget, so a rare level ends with what it found.
result.levels = [];
for (const l of levels) {
  const seconds = quick ? 0.5 : l.band === 'extreme' ? 30 : 3;
  const made = [];
  const t = performance.now();
  for (;;) {
    const left = seconds * 1000 - (performance.now() - t);
    if (left <= 0) break;
    try {
      made.push(shudu.generate({ rating: [l.low, l.high], seed: seed++, timeoutMs: Math.max(1, Math.ceil(left)) }));
    } catch (e) {
      if (/within the budget/.test(e.message)) break;
      throw e;
    }
  }
  const spent = (performance.now() - t) / 1000;
  const inLevel = made.filter((g) => levelOf(g.rating) === l && shudu.count(g.puzzle, 2) === 1).length;
  result.levels.push({ name: levelName(l), band: l.band, weight: l.weight, perSecond: made.length / spent, puzzles: made.length, inLevel, seconds: spent });
}

for (const [peer, p] of Object.entries(peers)) {
  const row = { version: p.version, generate: {} };
  for (const level of Object.keys(p.generate)) {
    const seconds = quick ? 2 : 30;
    const r = await bounded({ task: 'generate', peer, dir: peersDir, level, seconds }, seconds + budget);
    // Every puzzle's class first (cheap): equivalent puzzles (relabelled, rotated, rows swapped
    // ...) are one class, and only a new class is checked for uniqueness and rated.
    let unique = 0;
    const ratings = [];
    const classes = new Set();
    const byBand = {};
    const byLevel = {};
    for (const puzzle of r.puzzles) {
      const form = shudu.canonical(puzzle).form;
      if (classes.has(form)) continue;
      classes.add(form);
      if (shudu.count(puzzle, 2) !== 1) continue;
      unique++;
      const g = shudu.rate(puzzle);
      ratings.push(g.er);
      byBand[g.band] = (byBand[g.band] ?? 0) + 1;
      const l = levelName(levelOf(g.er));
      byLevel[l] = (byLevel[l] ?? 0) + 1;
    }
    const spent = r.ms / 1000;
    row.generate[level] = {
      perSecond: r.puzzles.length / (r.ms / 1000),
      puzzles: r.puzzles.length,
      classes: classes.size,
      // Classes with one solution: the puzzles that are new and unique.
      unique,
      // New unique puzzles of each band a second, over the peer's whole run.
      newPerSecondByBand: Object.fromEntries(Object.entries(byBand).map(([b, n]) => [b, n / spent])),
      // And of each level, with the counts and the seconds they took.
      newByLevel: byLevel,
      seconds: spent,
      medianEr: ratings.length ? median(ratings) : null,
      maxEr: ratings.length ? Math.max(...ratings) : null,
    };
  }
  result.peers[peer] = row;
}

console.log(JSON.stringify(result, null, 1));
