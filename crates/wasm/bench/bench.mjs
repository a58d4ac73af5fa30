// The npm package side by side with the JavaScript Sudoku packages, in Node, one thread.
//
//   node crates/wasm/bench/bench.mjs PACKAGE_DIR DATA_DIR [PEERS_DIR] [--quick]
//
// PACKAGE_DIR: the built package (crates/wasm/build.sh; target/npm/shudu). DATA_DIR: ../shared/data.
// PEERS_DIR: a folder with node_modules holding the peers (`scripts/peers OUT` installs them into
// OUT/npm); without it only shudu is measured. Prints one JSON object: per-puzzle microseconds
// (median of 5 runs) for solve + uniqueness on the 17-clue and top1465 sets, puzzles a second per
// band for generation, and for each peer's generator whether its puzzles are unique and how they
// rate on Sudoku Explainer's scale (checked by shudu). scripts/bench writes it into BENCHMARKS.md.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quick = process.argv.includes('--quick');
if (args.length < 2) {
  console.error('usage: bench.mjs PACKAGE_DIR DATA_DIR [PEERS_DIR] [--quick]');
  process.exit(2);
}
const [pkgDir, dataDir, peersDir] = args;
const shudu = await import(pathToFileURL(join(resolve(pkgDir), 'index.js')).href);

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

// The peers: each an object with what it offers.
const peers = {};
if (peersDir) {
  const req = createRequire(join(resolve(peersDir), 'package.json'));
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
      unique: null,
      generate: { any: () => fromBoard(dachev.makepuzzle(), true) },
    };
  }
  const core = load('sudoku-core');
  if (core) {
    peers['sudoku-core'] = {
      version: req('sudoku-core/package.json').version,
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
}

const sets = {
  '17-clue': lines('puzzles2_17_clue', quick ? 2000 : 49158),
  top1465: lines('puzzles3_magictour_top1465', 1465),
};
const result = { node: process.version, shudu: shudu.version, quick, solve: {}, generate: {}, peers: {} };

for (const [name, set] of Object.entries(sets)) {
  // Solve + uniqueness: count to 2, and the solution.
  const row = { puzzles: set.length, shudu: perPuzzle(set, (p) => shudu.solve(p)) };
  for (const [peer, p] of Object.entries(peers)) {
    if (!p.solve) continue;
    // The slow peers get a sample of the set (the first puzzles), said in the figure.
    const sample = set.slice(0, quick ? 50 : 500);
    row[peer] = { usPerPuzzle: perPuzzle(sample, p.solve, 1), sample: sample.length };
  }
  result.solve[name] = row;
}

const bands = ['easy', 'medium', 'hard', 'fiendish', 'diabolical', 'extreme'];
let seed = 1;
for (const band of bands) {
  const seconds = quick ? 1 : band === 'extreme' ? 20 : 5;
  const r = rate(() => shudu.generate({ band, seed: seed++ }), seconds, quick ? 1 : 3);
  result.generate[band] = { perSecond: r.perSecond, puzzles: r.made.length };
}

for (const [peer, p] of Object.entries(peers)) {
  const row = { version: p.version, generate: {} };
  for (const [level, make] of Object.entries(p.generate)) {
    const r = rate(make, quick ? 1 : 5, quick ? 3 : 20);
    let unique = 0;
    const ratings = [];
    for (const puzzle of r.made) {
      if (shudu.count(puzzle, 2) === 1) {
        unique++;
        ratings.push(shudu.rate(puzzle).er);
      }
    }
    row.generate[level] = {
      perSecond: r.perSecond,
      puzzles: r.made.length,
      unique,
      medianEr: ratings.length ? median(ratings) : null,
      maxEr: ratings.length ? Math.max(...ratings) : null,
    };
  }
  result.peers[peer] = row;
}

console.log(JSON.stringify(result, null, 1));
if (!existsSync(join(dataDir, 'puzzles2_17_clue'))) process.exitCode = 1;
