// Types of the shudu package (index.js).

/** An error the engine reports: the message says where the input is wrong and what was expected. */
export class ShuduError extends Error {
  name: 'ShuduError';
}

/** The engine's version. */
export const version: string;

/** A puzzle: 81 characters, `1`-`9` for a given, `.` or `0` for an empty cell. */
export type Line = string;

export type Band = 'easy' | 'medium' | 'hard' | 'fiendish' | 'diabolical' | 'extreme';

export type Symmetry =
  | 'none' | 'rot180' | 'rot90' | 'mirror-h' | 'mirror-v' | 'mirror-both'
  | 'diagonal' | 'anti-diagonal' | 'both-diagonals' | 'dihedral';

export interface Solved {
  status: 'unique' | 'multiple' | 'none';
  /** The solution (`unique`), or one of them (`multiple`). */
  solution?: Line;
}

export function solve(puzzle: Line): Solved;
/** Solutions counted up to `limit` (default 2). */
export function count(puzzle: Line, limit?: number): number;
export function isUnique(puzzle: Line): boolean;
/** One answer a record of the text, in order. */
export function solveAll(input: string): Array<Solved | { status: 'error'; error: string }>;

export interface GenerateOptions {
  /** The same seed and options give the same puzzles as `shudu generate --seed`. Random if absent. */
  seed?: number;
  /** Exactly K givens, or [A, B]. */
  givens?: number | [number, number];
  symmetry?: Symmetry;
  /** No given can be removed without losing uniqueness. */
  minimal?: boolean;
  band?: Band;
  /** A rating on Sudoku Explainer's scale, or [low, high]; not with `band`. */
  rating?: number | [number, number];
  /** Techniques the solving path must use, comma-separated: `"x-wing,xy-wing"`. */
  needs?: string;
  /** Techniques the solving path must not use. */
  without?: string;
  /** The time budget (default 60000). */
  timeoutMs?: number;
}

export interface Generated {
  puzzle: Line;
  solution: Line;
  givens: number;
  /** With a band, rating or techniques asked for. */
  rating?: number;
  band?: Band;
  hardest?: string;
}

export function generate(options?: GenerateOptions): Generated & { seed: number };
export function generateMany(options?: GenerateOptions & { count?: number }): {
  puzzles: Array<Generated & { item: number }>;
  requested: number;
  timedOut: boolean;
  seed: number;
  elapsedMs: number;
};

export interface Rating {
  er: number;
  ep: number;
  ed: number;
  band: Band;
  hardest: string;
  steps: number;
  solved: boolean;
  techniques: Array<[string, number]>;
}
export function rate(puzzle: Line): Rating;

/** A band's level: the ratings of one technique or of a few alike. */
export interface Level {
  band: Band;
  low: number;
  /** 20 (the top of the scale) for the last level. */
  high: number;
  /** How many of the band's puzzles head for it against the band's other levels. */
  weight: number;
}
/** The levels each band's puzzles are spread over, lowest first. */
export function levels(): Level[];

export interface TraceStep {
  technique: string;
  rating: number;
  cells: string[];
  houses: string[];
  placements: Array<{ cell: string; digit: number }>;
  eliminations: Array<{ cell: string; digit: number }>;
  text: string;
}
export function explain(puzzle: Line, options?: { named?: boolean }): {
  puzzle: Line;
  solution: Line;
  givens: number;
  er: number;
  ep: number;
  ed: number;
  band: Band;
  hardest: string;
  steps: TraceStep[];
};

export interface Position {
  /** The player's digits: 81 characters, `.` for empty. */
  entries?: string;
  /** Pencil marks: 81 strings of digits, `""` for none. */
  marks?: string[];
  /** A technique to practise: the hint is a step of it where the position holds one. */
  practise?: string;
}

export interface House { kind: 'row' | 'col' | 'box'; index: number; name: string }
export interface CellDigit { cell: number; digit: number }

export interface Hint {
  kind: 'step' | 'mistake' | 'solved' | 'reveal';
  technique: string;
  rating?: string;
  /** Stage 1: which technique. */
  technique_text: string;
  /** Stage 2: where to look. */
  where_text: string;
  /** Stage 3: the whole step. */
  text: string;
  result_text?: string;
  cells: number[];
  houses: House[];
  placements: CellDigit[];
  eliminations: CellDigit[];
  clear: number[];
  restore_marks: CellDigit[];
  figure: { base: House[]; cover: House[]; fins: number[]; links: Array<{ from: number; to: number; strong: boolean }> };
  practise?: { technique: string; found: boolean };
}
export function hint(givens: Line, position?: Position): Hint;
export function check(givens: Line, position?: Position): {
  wrong: number[];
  conflicts: number[];
  complete: boolean;
  solved: boolean;
};

export function canonical(puzzle: Line): { form: Line; automorphisms: number };

/** A request of `shudu play`'s JSON API answered without a server. */
export function request(
  endpoint: 'bands' | 'puzzle' | 'import' | 'check' | 'hint' | 'solve',
  body?: object,
  options?: { seed?: number; budgetMs?: number },
): any;
