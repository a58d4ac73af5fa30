// shudu: the Sudoku engine in WebAssembly. An ES module for Node (18 and up), browsers and Web
// Workers; no build step. The engine loads when this module is imported (top-level await), so
// every function below is synchronous. README.md shows each in use.
import init, * as engine from './engine.js';
import { ShuduError, call, text, randomSeed, load, onePuzzle } from './errors.js';

export { ShuduError };

await load(init, engine.initSync, 'engine_bg.wasm');

/** The engine's version. */
export const version = engine.version();

/**
 * Solves a puzzle (81 characters, `.` or `0` for an empty cell).
 * @returns {{status: 'unique'|'multiple'|'none', solution?: string}}
 */
export function solve(puzzle) {
  const r = call(engine.solveLine, text(puzzle, 'puzzle'));
  if (r === 'n') return { status: 'none' };
  return { status: r[0] === 'u' ? 'unique' : 'multiple', solution: r.slice(1) };
}

/** Counts the solutions of a puzzle, stopping at `limit` (default 2: 0, 1, or "more than one"). */
export function count(puzzle, limit = 2) {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ShuduError(`limit: found ${limit}; expected a whole number from 1`);
  }
  return call(engine.countLine, text(puzzle, 'puzzle'), limit);
}

/** Whether the puzzle has exactly one solution. */
export function isUnique(puzzle) {
  return count(puzzle, 2) === 1;
}

/**
 * Solves every puzzle of a text (one a line, or any format `shudu solve` reads): one answer
 * a record, in order, each the solution or `{error}` in its place.
 */
export function solveAll(input) {
  const lines = call(engine.solveText, text(input, 'input')).split('\n');
  lines.pop();
  return lines.map((l) => {
    if (l.startsWith('error: ')) return { status: 'error', error: l.slice(7) };
    if (l === 'none' || l === 'multiple') return { status: l };
    return { status: 'unique', solution: l };
  });
}

/**
 * Generates puzzles with exactly one solution, as `shudu generate` does: the same options and
 * seed give the same puzzles.
 * @param {object} [options] count, seed, givens (K or [A, B]), symmetry, minimal, band, rating
 *   (R or [A, B]), needs, without (comma-separated technique names), timeoutMs.
 * @returns {{puzzles: object[], requested: number, timedOut: boolean, seed: number, elapsedMs: number}}
 */
export function generateMany(options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ShuduError('options: expected an object');
  }
  const o = { ...options };
  if (o.seed === undefined) o.seed = randomSeed();
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) {
    throw new ShuduError(`seed: found ${o.seed}; expected a whole number from 0 to 2^53 - 1`);
  }
  return JSON.parse(call(engine.generateJson, JSON.stringify(o)));
}

/**
 * One puzzle (see `generateMany` for the options).
 * @returns {{puzzle: string, solution: string, givens: number, rating?: number, band?: string, hardest?: string, seed: number}}
 */
export function generate(options = {}) {
  return onePuzzle(generateMany, options ?? {});
}

/**
 * Rates a puzzle on Sudoku Explainer's scale.
 * @returns {{er: number, ep: number, ed: number, band: string, hardest: string, steps: number, solved: boolean, techniques: [string, number][]}}
 */
export function rate(puzzle) {
  return JSON.parse(call(engine.rateJson, text(puzzle, 'puzzle')));
}

/**
 * The levels each band's puzzles are spread over, lowest first: `{band, low, high, weight}`,
 * each the ratings of one technique or of a few alike. `generate({rating: [low, high]})` asks
 * for a puzzle of one level.
 */
export function levels() {
  return JSON.parse(engine.levelsJson());
}

/**
 * The solving path a human would take, step by step (as `shudu explain --format json`).
 * @param {{named?: boolean}} [options] named: the hints' path (named techniques where SE has chains).
 */
export function explain(puzzle, options = {}) {
  return JSON.parse(call(engine.explainJson, text(puzzle, 'puzzle'), Boolean(options.named)));
}

/**
 * The next hint from a position: `hint(givens, {entries, marks, practise})`, answered as
 * `shudu play`'s `/api/hint` (technique, where to look, the step, what it places and removes).
 */
export function hint(givens, position = {}) {
  return request('hint', { givens: text(givens, 'givens'), ...position });
}

/** Wrong entries and rule conflicts of a position, as `/api/check`. */
export function check(givens, position = {}) {
  return request('check', { givens: text(givens, 'givens'), ...position });
}

/**
 * The canonical form of a puzzle or grid (the least of its 3,359,232 × 9! equivalents) and how
 * many transformations map it to itself.
 * @returns {{form: string, automorphisms: number}}
 */
export function canonical(puzzle) {
  const [form, n] = call(engine.canonicalLine, text(puzzle, 'puzzle')).split(' ');
  return { form, automorphisms: Number(n) };
}

/**
 * Answers a request of `shudu play`'s JSON API without a server (`bands`, `puzzle`, `import`,
 * `check`, `hint`, `solve`): what the offline game's worker calls.
 */
export function request(endpoint, body = {}, { seed = randomSeed(), budgetMs = 10000 } = {}) {
  const answer = call(engine.gameRequest, text(endpoint, 'endpoint'), JSON.stringify(body), BigInt(seed), budgetMs);
  return JSON.parse(answer);
}
