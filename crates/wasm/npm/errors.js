// What both engines of the package share: the error they throw and how they call the engine.

/** An error the engine reports: the message says where the input is wrong and what was expected. */
export class ShuduError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ShuduError';
  }
}

/** Calls an export of an engine, turning what it throws into a ShuduError. */
export function call(f, ...args) {
  try {
    return f(...args);
  } catch (e) {
    throw new ShuduError(e instanceof Error ? e.message : String(e));
  }
}

/** `value` if it is a string; otherwise a ShuduError naming the argument. */
export function text(value, name) {
  if (typeof value !== 'string') {
    throw new ShuduError(`${name}: found ${value === null ? 'null' : typeof value}; expected a string`);
  }
  return value;
}

/** A random seed of 53 bits: it survives a round trip through JSON and JavaScript numbers. */
export function randomSeed() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

/**
 * The one puzzle of `generateMany(rest)` with the seed used: what both engines' `generate`
 * answer. `count`, if given, must be 1.
 */
export function onePuzzle(generateMany, { count, ...rest }) {
  if (count !== undefined && count !== 1) throw new ShuduError('count: generate makes one puzzle; use generateMany');
  const r = generateMany(rest);
  if (r.puzzles.length === 0) {
    throw new ShuduError(`no puzzle was found within the budget of ${rest.timeoutMs ?? 60000} ms`);
  }
  const { item, ...p } = r.puzzles[0];
  return { ...p, seed: r.seed };
}

/** Loads an engine's .wasm beside this file: read from disk under Node, fetched in a page. */
export async function load(init, initSync, name) {
  const url = new URL(`./${name}`, import.meta.url);
  if (url.protocol === 'file:') {
    // Node (or Deno, Bun): read the file; fetch() cannot load file: URLs there.
    const { readFile } = await import('node:fs/promises');
    initSync({ module: await readFile(url) });
  } else {
    await init({ module_or_path: url });
  }
}
