// The requests to the engine: `shudu play`'s JSON API, or without a server the same requests
// answered by the engine in a Web Worker.

// The page `shudu play --export` writes has no server: `<html data-engine="worker">`, and the
// engine (the npm package, WebAssembly) answers the same requests in a Web Worker (worker.js);
// a service worker (sw.js) keeps every file for offline play.
export const OFFLINE = document.documentElement.dataset.engine === 'worker';
export const engine = { worker: null, calls: 0, pending: new Map() };

export function engineWorker() {
  if (engine.worker) return engine.worker;
  const w = new Worker('worker.js', { type: 'module' });
  w.onmessage = (e) => {
    const { id, ok, data, error } = e.data;
    const p = engine.pending.get(id);
    if (!p) return;
    engine.pending.delete(id);
    if (ok) p.resolve(data);
    else p.reject(new Error(error));
  };
  w.onerror = (e) => {
    e.preventDefault();
    for (const p of engine.pending.values()) p.reject(new Error(`The engine did not start: ${e.message || 'unknown error'}`));
    engine.pending.clear();
    engine.worker = null;
  };
  engine.worker = w;
  return w;
}

export function workerApi(path, body) {
  return new Promise((resolve, reject) => {
    const id = ++engine.calls;
    engine.pending.set(id, { resolve, reject });
    engineWorker().postMessage({ id, endpoint: path.replace(/^\/api\//, ''), body: body ?? {} });
  });
}

if (OFFLINE && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}

export async function api(path, body) {
  if (OFFLINE) return workerApi(path, body);
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new Error('The shudu server is not answering. Is `shudu play` still running?');
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}
