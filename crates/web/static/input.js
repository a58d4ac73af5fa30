// Keys, pointer and touch, and the wiring of every button.

import { extend, focusCell, move, render, select, setMode } from './board.js';
import { announce, applySettings, askConfirm, importPuzzle, openFromHash, renderStats, toast, updateShareLink } from './dialogs.js';
import { newGame } from './games.js';
import { check, firstMistake, hideHint, hintPress } from './hints.js';
import { clearMarks, clockRunning, enterDigit, erase, fillCandidates, foldClock, redo, setPaused, showTime, syncClock, toggleComplete, undo } from './notes.js';
import { printBatch, printCurrent } from './print.js';
import { $, game, row, saveGame, setStats, settings, stats, STORE, store, ui } from './storage.js';

export function onKey(e) {
  if (document.querySelector('dialog[open]')) return;
  const t = e.target;
  if (t instanceof Element && t.closest('input, select, textarea')) return;
  const ctrl = e.ctrlKey || e.metaKey;
  const k = e.key;
  if (ctrl && (k === 'z' || k === 'Z')) {
    e.preventDefault();
    if (e.shiftKey) redo(); else undo();
    return;
  }
  if (ctrl && (k === 'y' || k === 'Y')) {
    e.preventDefault();
    redo();
    return;
  }
  if (ctrl || e.altKey) return;
  if (k === 'p' || k === 'P') {
    if (game && !game.solved) setPaused(!ui.paused);
    return;
  }
  if (ui.paused || !game) return;
  // Shift+digit gives '!' and friends in `key`; the physical key tells the digit.
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || '');
  const d = m ? Number(m[1]) : (/^[1-9]$/.test(k) ? Number(k) : 0);
  if (d) {
    e.preventDefault();
    enterDigit(d, e.shiftKey ? (ui.mode === 'corner' ? 'digit' : 'corner') : ui.mode);
    return;
  }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[k]) {
    e.preventDefault();
    if (e.shiftKey) extend(...arrows[k]);
    else move(...arrows[k]);
    return;
  }
  switch (k) {
    case 'Backspace': case 'Delete': case '0': case '.':
      e.preventDefault();
      erase();
      break;
    case 'n': case 'N':
      togglePencil();
      break;
    case 'm': case 'M':
      setMode('centre');
      break;
    case 'c': case 'C':
      setMode('colour');
      break;
    case 'k': case 'K':
      toggleComplete();
      break;
    case 'Escape':
      if (ui.selection.size || ui.digit) {
        ui.selection.clear();
        ui.digit = 0;
        render();
      }
      break;
    case 'u': case 'U':
      undo();
      break;
    case 'r': case 'R':
      redo();
      break;
    case 'h': case 'H':
      hintPress();
      break;
    case 'Home':
      e.preventDefault();
      select(row(ui.selected) * 9);
      break;
    case 'End':
      e.preventDefault();
      select(row(ui.selected) * 9 + 8);
      break;
    default:
  }
}

export function togglePencil() {
  ui.mode = ui.mode === 'corner' ? 'digit' : 'corner';
  render();
  announce(ui.mode === 'corner' ? 'Pencil mode on' : 'Pencil mode off');
}

export function wire() {
  document.addEventListener('keydown', onKey);
  $('new-game').addEventListener('click', () => newGame(true));
  $('band').addEventListener('change', () => { settings.band = $('band').value; store(STORE.settings, settings); });
  $('practise').addEventListener('change', () => { settings.practise = $('practise').value; store(STORE.settings, settings); });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('erase').addEventListener('click', erase);
  $('pencil').addEventListener('click', togglePencil);
  $('centre-mode').addEventListener('click', () => setMode('centre'));
  $('colour-mode').addEventListener('click', () => setMode('colour'));
  document.addEventListener('pointerup', () => { ui.dragging = false; });
  document.addEventListener('pointercancel', () => { ui.dragging = false; });
  $('fill-marks').addEventListener('click', fillCandidates);
  $('clear-marks').addEventListener('click', clearMarks);
  $('notes-complete').addEventListener('click', toggleComplete);
  $('hint').addEventListener('click', hintPress);
  $('hint-next').addEventListener('click', hintPress);
  // Closing keeps the hint: reopening it at the same position shows the same stage.
  $('hint-close').addEventListener('click', () => { hideHint(); render(); focusCell(); });
  $('check').addEventListener('click', check);
  $('first-mistake').addEventListener('click', firstMistake);
  $('pause').addEventListener('click', () => setPaused(!ui.paused));
  $('resume').addEventListener('click', () => setPaused(false));

  for (const dlg of document.querySelectorAll('dialog')) {
    dlg.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('[data-close]')) dlg.close();
      if (e.target === dlg) dlg.close(); // a click on the backdrop
    });
  }
  $('dlg-win').addEventListener('close', () => focusCell());
  // The clock stops while a dialog is open (help, settings, statistics, print...).
  const dialogs = new MutationObserver(() => { syncClock(); showTime(); });
  for (const dlg of document.querySelectorAll('dialog')) dialogs.observe(dlg, { attributes: true, attributeFilter: ['open'] });
  $('win-new').addEventListener('click', () => { $('dlg-win').close(); newGame(false); });

  $('open-import').addEventListener('click', () => {
    $('import-error').textContent = '';
    $('dlg-import').showModal();
    $('import-text').focus();
  });
  $('import-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('import-error').textContent = '';
    $('import-go').disabled = true;
    try {
      $('dlg-import').close();
      const ok = await importPuzzle($('import-text').value, null);
      if (ok) $('import-text').value = '';
    } catch (err) {
      $('import-error').textContent = err.message;
      $('dlg-import').showModal();
    } finally {
      $('import-go').disabled = false;
    }
  });

  $('open-share').addEventListener('click', () => {
    if (!game) return;
    updateShareLink();
    $('dlg-share').showModal();
    $('share-link').select();
  });
  $('share-progress').addEventListener('change', updateShareLink);
  $('share-copy').addEventListener('click', async () => {
    const link = $('share-link');
    try {
      await navigator.clipboard.writeText(link.value);
      toast('Link copied.');
    } catch {
      link.select();
      toast('Press Ctrl+C to copy the selected link.');
    }
  });

  $('open-print').addEventListener('click', () => {
    $('print-band').value = $('band').value;
    $('print-status').textContent = '';
    $('dlg-print').showModal();
  });
  // US Letter where it is the usual paper (the United States and Canada), A4 elsewhere.
  $('print-paper').value = /^en-(US|CA)$/i.test(navigator.language || '') ? 'letter' : 'a4';
  $('print-current').addEventListener('click', printCurrent);
  $('print-batch').addEventListener('click', printBatch);
  window.addEventListener('afterprint', () => {
    $('print-area').innerHTML = '';
    document.body.classList.remove('print-ready');
  });

  $('open-stats').addEventListener('click', () => { renderStats(); $('dlg-stats').showModal(); });
  $('stats-reset').addEventListener('click', async () => {
    $('dlg-stats').close();
    if (await askConfirm('Reset statistics?', 'Solved counts and best times for every difficulty will be cleared.', 'Reset')) {
      setStats({});
      store(STORE.stats, stats);
    }
  });
  $('open-settings').addEventListener('click', () => $('dlg-settings').showModal());
  const bindSetting = (id, key, prop = 'checked') => $(id).addEventListener('change', () => {
    settings[key] = $(id)[prop];
    store(STORE.settings, settings);
    applySettings();
  });
  bindSetting('set-theme', 'theme', 'value');
  bindSetting('set-timer', 'timer');
  bindSetting('set-automarks', 'autoMarks');
  bindSetting('set-same', 'same');
  bindSetting('set-conflicts', 'conflicts');
  bindSetting('set-symmetry', 'symmetry', 'value');
  bindSetting('set-digitfirst', 'digitFirst');
  bindSetting('set-coords', 'coords');
  bindSetting('set-toggleerase', 'toggleErase');
  $('open-help').addEventListener('click', () => $('dlg-help').showModal());

  document.addEventListener('visibilitychange', () => { syncClock(); saveGame(); });
  window.addEventListener('pagehide', () => foldClock());
  window.addEventListener('hashchange', () => openFromHash());
  setInterval(() => { syncClock(); showTime(); }, 500);
  setInterval(() => { if (clockRunning()) foldClock(); }, 5000);
}
