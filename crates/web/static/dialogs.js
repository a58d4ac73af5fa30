// Messages, share and import, statistics and settings.

import { render } from './board.js';
import { api } from './engine.js';
import { inProgress, startGame } from './games.js';
import { entriesLine, formatTime, givenAt } from './notes.js';
import { $, BANDS, bit, game, isLine, LABEL, saveGame, settings, stats, ui } from './storage.js';

export let toastTimer = null;
export function toast(text, ms = 3200, { quiet = false } = {}) {
  const el = $('toast');
  // Quiet: shown, not read out, because the live region says it in full (a conflict).
  el.setAttribute('aria-live', quiet ? 'off' : 'polite');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('show'), ms);
}
export const announce = (text) => toast(text, 1800);

export function askConfirm(title, text, yes = 'Yes') {
  const dlg = $('dlg-confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = yes;
  return new Promise((resolve) => {
    const done = (answer) => {
      $('confirm-yes').onclick = null;
      $('confirm-no').onclick = null;
      dlg.onclose = null;
      if (dlg.open) dlg.close();
      resolve(answer);
    };
    $('confirm-yes').onclick = () => done(true);
    $('confirm-no').onclick = () => done(false);
    dlg.onclose = () => done(false);
    dlg.showModal();
    $('confirm-yes').focus();
  });
}

// Share and import

export function shareLink(progress) {
  const u = new URL(location.href);
  u.search = '';
  u.hash = `p=${game.puzzle}${progress && game.values.some((v) => v) ? `&e=${entriesLine()}` : ''}`;
  return u.toString();
}

export function updateShareLink() {
  $('share-link').value = shareLink($('share-progress').checked);
}

export async function importPuzzle(text, entries, { confirmFirst = true } = {}) {
  const info = await api('/api/import', { puzzle: text });
  if (game && game.puzzle === info.puzzle && !entries && !info.marks) return true; // already playing it
  if (confirmFirst && inProgress() &&
      !(await askConfirm('Play the new puzzle?', 'The game in progress will be lost.', 'Play it'))) {
    return false;
  }
  startGame({ ...info, band: info.band || 'imported' }, entries);
  if (info.marks) {
    // A pencil-mark (729-character) line: its candidates become the player's pencil marks,
    // meant to be complete (as after "fill notes"), so hints judge them.
    info.marks.forEach((m, i) => {
      if (!givenAt(i)) game.marks[i] = [...m].reduce((acc, d) => acc | bit(Number(d)), 0);
    });
    game.filled = true;
    saveGame();
    render();
  }
  announce(`Playing the entered puzzle: ${LABEL[info.band] || ''}, rating ${info.rating}.`);
  return true;
}

export async function openFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const p = params.get('p');
  if (!p) return false;
  const e = params.get('e');
  history.replaceState(null, '', location.pathname + location.search);
  try {
    return await importPuzzle(p, e && isLine(e) ? e : null);
  } catch (err) {
    toast(`The shared puzzle could not be opened: ${err.message}`, 8000);
    return false;
  }
}

// Statistics and settings

export function renderStats() {
  $('stats-body').innerHTML = [...BANDS, 'imported'].map((b) => {
    const s = stats[b] || { started: 0, solved: 0, best: null, total: 0 };
    const avg = s.solved ? formatTime(s.total / s.solved) : '—';
    return `<tr><th scope="row">${LABEL[b]}</th><td>${s.started}</td><td>${s.solved}</td>` +
      `<td>${s.best != null ? formatTime(s.best) : '—'}</td><td>${avg}</td></tr>`;
  }).join('');
}

export function applySettings() {
  const root = document.documentElement;
  if (settings.theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = settings.theme;
  $('set-theme').value = settings.theme;
  $('set-timer').checked = settings.timer;
  $('set-automarks').checked = settings.autoMarks;
  $('set-same').checked = settings.same;
  $('set-conflicts').checked = settings.conflicts;
  $('set-symmetry').value = settings.symmetry;
  $('set-digitfirst').checked = settings.digitFirst;
  $('set-coords').checked = settings.coords;
  $('set-toggleerase').checked = settings.toggleErase;
  document.body.classList.toggle('coords-on', settings.coords);
  if (!settings.digitFirst) ui.digit = 0;
  render();
}
