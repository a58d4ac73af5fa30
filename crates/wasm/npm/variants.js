// shudu/variants: the variant engine in WebAssembly (every size from 4x4 to 16x16, X, Windoku,
// jigsaw, killer, anti-knight, anti-king). A module of its own, beside the classic engine
// (`shudu`), so that a page that plays classic Sudoku alone never loads it. The engine loads
// when this module is imported (top-level await), so every function below is synchronous.
import init, * as engine from './variants_engine.js';
import { ShuduError, call, text, randomSeed, load, onePuzzle } from './errors.js';

export { ShuduError };

await load(init, engine.initSync, 'variants_engine_bg.wasm');

/** The engine's version. */
export const version = engine.version();

/** The sizes: 4x4 (2x2 boxes), 6x6 (2x3), 8x8 (2x4), 9x9, 12x12 (3x4), 16x16 (4x4). */
export const SIZES = Object.freeze([4, 6, 8, 9, 12, 16]);

/** The rule names `variant` takes (any combination, comma-separated or as an array). */
export const VARIANTS = Object.freeze(['x', 'windoku', 'anti-knight', 'anti-king', 'jigsaw', 'killer']);

function names(variant, name = 'variant') {
  if (variant === undefined || variant === null) return undefined;
  if (Array.isArray(variant)) return variant.map((v) => text(v, name)).join(',');
  return text(variant, name);
}

function kind({ size, variant } = {}) {
  if (size !== undefined && (!Number.isInteger(size) || size < 1)) {
    throw new ShuduError(`size: found ${size}; expected one of ${SIZES.join(', ')}`);
  }
  return JSON.stringify({ size, variant: names(variant) });
}

function options(o, name = 'options') {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new ShuduError(`${name}: expected an object`);
  return o;
}

/**
 * Counts the solutions of a variant puzzle up to `limit` (default 2). The puzzle is the line
 * format under `size` and `variant` (digits, then letters from 10: `A` is 10; `.` or `0` empty),
 * or an f-puzzles document or link (which brings its own rules: leave `size` and `variant` out).
 * @returns {{count: number, solution?: string}}
 */
export function countSolutions(puzzle, { size, variant, limit = 2 } = {}) {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ShuduError(`limit: found ${limit}; expected a whole number from 1`);
  }
  return JSON.parse(call(engine.countJson, text(puzzle, 'puzzle'), kind({ size, variant }), limit));
}

/** Solutions counted up to `limit` (default 2: 0, 1, or "more than one"). */
export function count(puzzle, o = {}) {
  return countSolutions(puzzle, options(o)).count;
}

/**
 * Solves a variant puzzle (see `countSolutions` for what it takes).
 * @returns {{status: 'unique'|'multiple'|'none', solution?: string}}
 */
export function solve(puzzle, o = {}) {
  const { size, variant } = options(o);
  const c = countSolutions(puzzle, { size, variant, limit: 2 });
  if (c.count === 0) return { status: 'none' };
  return { status: c.count === 1 ? 'unique' : 'multiple', solution: c.solution };
}

/** Whether the puzzle has exactly one solution. */
export function isUnique(puzzle, o = {}) {
  return count(puzzle, { ...options(o), limit: 2 }) === 1;
}

/**
 * Rates a variant puzzle with the variant techniques, on Sudoku Explainer's scale (a classic
 * 9x9 gets SE's own ratings), within `budgetMs` (default 10000).
 * @returns {{er: number, ep: number, ed: number, band: string, hardest: string, steps: number, techniques: [string, number][]}}
 */
export function rate(puzzle, o = {}) {
  const { size, variant, budgetMs = 10000 } = options(o);
  if (!Number.isInteger(budgetMs) || budgetMs < 1) {
    throw new ShuduError(`budgetMs: found ${budgetMs}; expected a whole number of milliseconds from 1`);
  }
  return JSON.parse(call(engine.rateJson, text(puzzle, 'puzzle'), kind({ size, variant }), budgetMs));
}

/**
 * Generates variant puzzles with exactly one solution, as `shudu generate --size --variant`
 * does: the same options and seed give the same puzzles.
 * @param {object} [o] size, variant, count, seed, givens (K or [A, B]), symmetry, minimal,
 *   cages (killer: the largest cage), band or rating (R or [A, B]), timeoutMs.
 * @returns {{puzzles: object[], requested: number, timedOut: boolean, made: number, seed: number, elapsedMs: number}}
 */
export function generateMany(o = {}) {
  const opts = { ...options(o) };
  if (opts.seed === undefined) opts.seed = randomSeed();
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0) {
    throw new ShuduError(`seed: found ${opts.seed}; expected a whole number from 0 to 2^53 - 1`);
  }
  if (opts.variant !== undefined) opts.variant = names(opts.variant);
  return JSON.parse(call(engine.generateJson, JSON.stringify(opts)));
}

/**
 * One variant puzzle (see `generateMany` for the options).
 * @returns {{line?: string, link: string, solution: string, givens: number, rating?: number, band?: string, seed: number}}
 */
export function generate(o = {}) {
  return onePuzzle(generateMany, options(o));
}

/**
 * Answers a request of `shudu play`'s variant API without a server: `variant/puzzle`
 * ({size, variant, seed}), `variant/check` and `variant/hint` ({puzzle, entries, marks}). What
 * the offline variants page's worker calls.
 */
export function request(endpoint, body = {}, { seed = randomSeed(), budgetMs = 10000 } = {}) {
  const answer = call(engine.gameRequest, text(endpoint, 'endpoint'), JSON.stringify(body), BigInt(seed), budgetMs);
  return JSON.parse(answer);
}
