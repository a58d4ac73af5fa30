// shudu: the game page. Plain JavaScript in ES modules, no build step; served from the binary
// (`shudu play`) or written as a static folder (`shudu play --export`). This module starts the
// page; the others hold one concern each:
//   storage.js  the game's state, the settings and statistics, and what localStorage keeps
//   engine.js   the requests to the engine: the server's API, or a Web Worker without a server
//   notes.js    positions, moves, undo and redo, digits and pencil marks, the clock
//   board.js    drawing the grid, the keypad and the hint's figure; the live region
//   hints.js    hints, check and first mistake, and what each technique is
//   games.js    new games, the end of a game, per-band statistics
//   dialogs.js  messages, share and import, statistics and settings
//   print.js    the print page, laid out as `shudu print` lays out its PDF
//   input.js    keys, pointer and touch, and the buttons' wiring

import { buildBoard, focusCell, render } from './board.js';
import { applySettings, openFromHash } from './dialogs.js';
import { newGame } from './games.js';
import { wire } from './input.js';
import { positionKey, setPaused } from './notes.js';
import { $, BANDS, game, load, setGame, settings, STORE, ui, upgradeGame, validGame } from './storage.js';

async function main() {
  buildBoard();
  wire();
  $('band').value = BANDS.includes(settings.band) ? settings.band : 'medium';
  // The technique picked to practise, if the picker still offers it.
  if ([...$('practise').options].some((o) => o.value === settings.practise)) $('practise').value = settings.practise;
  const saved = load(STORE.game, null);
  if (validGame(saved)) {
    setGame(upgradeGame(saved));
    if (game.counted === undefined) game.counted = true; // saved before games counted on the first move
    if (game.hint && game.hint.key === positionKey()) ui.hint = game.hint;
    // Time runs from now (unless the game was paused); what ran before the reload was saved in
    // `elapsed`.
    applySettings();
    render();
    if (game.paused && !game.solved) setPaused(true);
    else focusCell();
  } else {
    applySettings();
  }
  const opened = await openFromHash();
  if (!game && !opened) await newGame(false);
  document.body.classList.add('ready');
}

main();
