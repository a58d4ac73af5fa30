// New games, the end of a game, and each band's statistics.

import { focusCell, render, say } from './board.js';
import { announce, askConfirm, toast } from './dialogs.js';
import { hideHint } from './hints.js';
import { boardValues, conflictsOf, elapsed, formatTime, givenAt, setPaused, syncClock } from './notes.js';
import { $, dealPuzzle, game, LABEL, saveGame, setGame, settings, stats, STORE, store, ui } from './storage.js';

export function inProgress() {
  return game && !game.solved && game.history.length > 0;
}

export function bandStats(band) {
  if (!stats[band]) stats[band] = { started: 0, solved: 0, best: null, total: 0 };
  return stats[band];
}

export function startGame(info, entries) {
  setGame({
    v: 1,
    puzzle: info.puzzle,
    band: info.band || 'imported',
    rating: info.rating || null,
    hardest: info.hardest || null, // the technique of the hardest step the puzzle needs
    // "Practise a technique": the technique the puzzle was dealt for (its slug). Hints show a
    // step of it wherever the position holds one, until it has been used: `practiseShown` is
    // the last such step shown (its placements and eliminations), `practiseDone` set once the
    // player applied it, made it, or the position no longer holds one after one was shown.
    practise: info.needs && info.needs.length === 1 ? info.needs[0] : null,
    practiseName: null,
    practiseShown: null,
    practiseDone: false,
    symmetry: info.symmetry && info.symmetry !== 'none' ? info.symmetry : null,
    values: Array(81).fill(0),
    marks: Array(81).fill(0),
    centre: Array(81).fill(0),
    colours: Array(81).fill(0),
    complete: Array(81).fill(0), // cells whose notes the player marked complete: hints judge them
    history: [],
    future: [],
    elapsed: 0,
    solved: false,
    hints: 0,
    applied: 0, // hints applied: a game finished with one sets no best time
    filled: false, // whether the notes were filled with every candidate (hints judge them then)
    counted: false, // counted as started: on the first move
    created: Date.now(),
  });
  if (entries) {
    for (let i = 0; i < 81; i++) {
      const d = Number(entries[i]) || 0;
      if (d && !givenAt(i)) game.values[i] = d;
    }
  }
  ui.hint = null;
  ui.wrong.clear();
  ui.flash = null;
  ui.solution = null;
  ui.since = null;
  hideHint();
  ui.selected = [...Array(81).keys()].find((i) => !givenAt(i)) ?? 40;
  ui.selection.clear();
  ui.digit = 0;
  saveGame();
  setPaused(false);
  render();
  focusCell();
  checkWin();
}

export function setLoading(on, text = 'Making a puzzle…') {
  ui.loading = on;
  $('loading').hidden = !on;
  $('loading-text').textContent = text;
  $('new-game').disabled = on;
  syncClock();
  render();
}

export async function newGame(confirmFirst = true) {
  const band = $('band').value;
  if (confirmFirst && inProgress() &&
      !(await askConfirm('Start a new game?', 'The game in progress will be lost.', 'New game'))) {
    return;
  }
  settings.band = band;
  store(STORE.settings, settings);
  setLoading(true, `Making ${/^[aeiou]/.test(band) ? 'an' : 'a'} ${LABEL[band].toLowerCase()} puzzle…`);
  try {
    const practise = $('practise') ? $('practise').value : '';
    const info = await dealPuzzle(band, practise);
    if (practise && info.band !== band) {
      toast(`This technique is never ${LABEL[band].toLowerCase()}: here is a ${LABEL[info.band].toLowerCase()} puzzle whose hardest step it is.`, 6000);
    }
    startGame(info);
    announce(`New ${LABEL[info.band].toLowerCase()} puzzle, rating ${info.rating}.`);
  } catch (e) {
    toast(e.message, 6000);
  } finally {
    setLoading(false);
    if (game) render();
  }
}

export function checkWin() {
  if (!game || game.solved) return;
  const vals = boardValues();
  if (vals.some((v) => !v) || conflictsOf(vals).size > 0) return;
  // Complete and no house repeats a digit: solved, whatever the stored puzzle's solution.
  syncClock();
  game.elapsed = elapsed();
  ui.since = null;
  game.solved = true;
  hideHint();
  const s = bandStats(game.band);
  s.solved++;
  s.total += game.elapsed;
  // A best time is one the player earned: a game finished with an applied hint sets none.
  const eligible = !game.applied;
  const record = eligible && (s.best == null || game.elapsed < s.best);
  if (record) s.best = game.elapsed;
  store(STORE.stats, stats);
  saveGame();
  render();
  $('win-text').textContent = `You solved this ${LABEL[game.band].toLowerCase()} puzzle` +
    (settings.timer ? ` in ${formatTime(game.elapsed)}.` : '.') + (record && s.solved > 1 ? ' A new best time!' : '') +
    (eligible ? '' : ' Games finished with an applied hint set no best time.');
  $('win-stats').innerHTML = [
    ['Rating', game.rating ?? '—'],
    ['Hints', String(game.hints)],
    ['Moves', String(game.history.length)],
    [`${LABEL[game.band]} solved`, String(s.solved)],
    ['Best time', s.best != null ? formatTime(s.best) : '—'],
  ].map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('');
  say(`Solved: ${$('win-text').textContent}`);
  $('dlg-win').showModal();
  $('win-new').focus();
}
