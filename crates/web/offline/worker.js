// The engine of the page `shudu play --export` writes: answers the game's requests (the same as
// `shudu play`'s /api/...) with the npm package, in a Web Worker so that the page never waits
// on it. A band's puzzle is made on the spot (medium in a few milliseconds); the extreme band,
// which takes seconds to make, is dealt from the bank the server has too (bank.json), never a
// puzzle of a class the page says it has seen, and made on the spot once those run out. The
// variants page's requests (`variant/...`) go to the variant engine, a module of its own that is
// loaded only when that page asks.
const engine = import('./shudu/index.js');
let variants = null;
let bank = null;

async function banked(body) {
  if (!bank) bank = await (await fetch('bank.json')).json();
  const seen = new Set(body.seen ?? []);
  const symmetry = body.symmetry || 'none';
  const fit = bank.filter((p) => p.band === body.band && p.symmetry === symmetry && !seen.has(p.key));
  if (fit.length === 0) return null;
  const p = fit[Math.floor(Math.random() * fit.length)];
  return { ...p, givens: [...p.puzzle].filter((c) => c !== '.').length, source: 'bank' };
}

self.onmessage = async (e) => {
  const { id, endpoint, body } = e.data;
  try {
    let data = null;
    if (endpoint.startsWith('variant/')) {
      variants ??= import('./shudu/variants.js');
      data = (await variants).request(endpoint, body, { budgetMs: 10000 });
    } else {
      const shudu = await engine;
      if (endpoint === 'puzzle' && body.band === 'extreme' && !body.needs && !body.practise) {
        data = await banked(body);
      }
      data ??= shudu.request(endpoint, body, { budgetMs: 10000 });
    }
    self.postMessage({ id, ok: true, data });
  } catch (err) {
    self.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
