// Types of shudu/variants (variants.js).

export { ShuduError } from './index.js';

/** The engine's version. */
export const version: string;

export type Size = 4 | 6 | 8 | 9 | 12 | 16;
export type Variant = 'x' | 'windoku' | 'anti-knight' | 'anti-king' | 'jigsaw' | 'killer';
export const SIZES: readonly Size[];
export const VARIANTS: readonly Variant[];

/**
 * How to read a puzzle: the line format under `size` (default 9) and `variant` (comma-separated
 * or an array). Leave both out for an f-puzzles document or link, which brings its own rules.
 */
export interface Kind {
  size?: Size;
  variant?: string | Variant[];
}

export interface Solved {
  status: 'unique' | 'multiple' | 'none';
  /** The solution (`unique`), or one of them (`multiple`), in the line format. */
  solution?: string;
}

export function countSolutions(puzzle: string, options?: Kind & { limit?: number }): { count: number; solution?: string };
export function count(puzzle: string, options?: Kind & { limit?: number }): number;
export function solve(puzzle: string, options?: Kind): Solved;
export function isUnique(puzzle: string, options?: Kind): boolean;

export interface Rating {
  er: number;
  ep: number;
  ed: number;
  band: 'easy' | 'medium' | 'hard' | 'fiendish' | 'diabolical' | 'extreme';
  hardest: string;
  steps: number;
  techniques: [string, number][];
}

export function rate(puzzle: string, options?: Kind & { budgetMs?: number }): Rating;

export interface GenerateOptions extends Kind {
  /** The same seed and options give the same puzzles as the CLI. Random if absent. */
  seed?: number;
  /** Exactly K givens, or [A, B] (killer: none unless asked). */
  givens?: number | [number, number];
  symmetry?: string;
  minimal?: boolean;
  /** Killer: the largest cage. */
  cages?: number;
  band?: Rating['band'];
  rating?: number | [number, number];
  /** The time budget (default 60000). */
  timeoutMs?: number;
}

export interface VariantPuzzle {
  /** The line format; absent for jigsaw and killer, whose regions and cages need the link. */
  line?: string;
  /** The f-puzzles link (SudokuPad reads it too). */
  link: string;
  solution: string;
  givens: number;
  rating?: number;
  band?: Rating['band'];
}

export function generate(options?: GenerateOptions): VariantPuzzle & { seed: number };
export function generateMany(options?: GenerateOptions & { count?: number }): {
  puzzles: Array<VariantPuzzle & { item: number }>;
  requested: number;
  timedOut: boolean;
  made: number;
  seed: number;
  elapsedMs: number;
};

/** `shudu play`'s variant API without a server: `variant/puzzle`, `variant/check`, `variant/hint`. */
export function request(endpoint: string, body?: object, options?: { seed?: number; budgetMs?: number }): any;
