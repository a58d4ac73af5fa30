// Hints (three stages, practising a technique), check and first mistake.

import { focusCell, render } from './board.js';
import { announce, toast } from './dialogs.js';
import { api } from './engine.js';
import { afterChange, boardValues, candidatesOf, commit, entriesLine, judgedMarks, placement, positionKey, undoChange } from './notes.js';
import { $, bit, cellName, game, saveGame, ui } from './storage.js';

// What each technique is: a short explanation a hint links to, for every technique the grader
// can name. Matched on the start of the technique's name, most specific first.

export const LEARN = [
  ['Full House', 'A house (row, column or box) with one empty cell: that cell takes the one digit the house is missing.'],
  ['Naked Single', 'A cell whose row, column and box together already hold eight different digits: only the ninth can go there.'],
  ['Hidden Single', 'A digit that has only one place left in a row, column or box: it goes there, whatever else that cell could hold.'],
  ['Direct Pointing', 'Pointing (a digit confined to one line inside a box) that leaves a hidden single: the step places that digit.'],
  ['Direct Claiming', 'Claiming (a digit confined to one box inside a line) that leaves a hidden single: the step places that digit.'],
  ['Pointing', 'Inside a box, a digit can only go in cells of one row or column. Whichever of them holds it, that line gets it from this box, so the rest of the line cannot hold it.'],
  ['Claiming', 'Inside a row or column, a digit can only go in cells of one box. Whichever holds it, the box gets it from this line, so the rest of the box cannot hold it.'],
  ['Direct Hidden', 'A hidden pair or triplet whose clean-up leaves a digit with a single place in the house: the step places that digit.'],
  ['Naked Pair', 'Two cells of a house that can only hold the same two digits: those digits go in those cells, so no other cell of the house can hold them.'],
  ['Naked Triplet', 'Three cells of a house whose candidates together are just three digits: the three digits go in those cells, so the rest of the house loses them.'],
  ['Naked Quad', 'Four cells of a house whose candidates together are just four digits: the rest of the house loses those digits.'],
  ['Hidden Pair', 'Two digits that, in some house, can only go in the same two cells: those cells must hold those digits, so every other candidate leaves them.'],
  ['Hidden Triplet', 'Three digits confined to the same three cells of a house: those cells hold them, so their other candidates go.'],
  ['Hidden Quad', 'Four digits confined to the same four cells of a house: those cells lose every other candidate.'],
  ['Finned', 'A fish (X-Wing, Swordfish, Jellyfish) with an extra candidate, the fin. Either the fish holds, or the fin is the digit; only cells that see the fin and lie on the fish\'s cover lines lose the digit.'],
  ['Sashimi', 'A finned fish whose base lacks one corner: the fin stands in for it. Cells that see the fin and lie on the cover lines lose the digit.'],
  ['X-Wing', 'A digit with exactly two places in each of two rows, in the same two columns. It fills opposite corners of that rectangle, so the rest of both columns loses it (and the same with rows and columns swapped).'],
  ['Swordfish', 'An X-Wing with three lines: a digit whose places in three rows lie in the same three columns. The rest of those columns loses it.'],
  ['Jellyfish', 'The same with four lines: a digit whose places in four rows lie in four columns; the rest of those columns loses it.'],
  ['Skyscraper', 'A digit with two places in each of two lines, one end of each aligned. One of the two loose ends holds the digit, so any cell seeing both loose ends loses it.'],
  ['2-String Kite', 'A digit with two places in a row and two in a column, one of each in the same box. One of the two far ends holds the digit, so a cell seeing both loses it.'],
  ['Turbot Fish', 'A short chain of strong links on one digit (two places in a house): one of its ends holds the digit, so a cell seeing both ends loses it.'],
  ['Empty Rectangle', 'In a box, a digit\'s places form an L along one row and one column. Together with a strong link outside the box, it shows one cell that cannot hold the digit.'],
  ['Simple Colouring', 'Follow one digit through houses where it has exactly two places, colouring them alternately. One colour is the truth: a cell seeing both colours loses the digit.'],
  ['W-Wing', 'Two cells with the same two candidates, joined by a strong link on one of them: the other digit goes in one of the two cells, so a cell seeing both loses it.'],
  ['XY-Wing', 'A pivot cell with two candidates and two pincers, each sharing one candidate with the pivot and the third digit with each other. Whatever the pivot is, one pincer is that third digit, so cells seeing both pincers lose it.'],
  ['XYZ-Wing', 'An XY-Wing whose pivot also holds the third digit: cells seeing the pivot and both pincers lose it.'],
  ['ALS-XZ', 'Two almost locked sets (n cells with n+1 digits) joined by a digit X they cannot both hold: then a digit Z they share goes in one of them, and cells seeing every Z of both lose it.'],
  ['Aligned', 'Two (or three) cells that see each other cannot take a pair of digits that would empty a cell they both see: combinations are ruled out until a candidate goes.'],
  ['Unique Rectangle', 'Four cells in two rows, two columns and two boxes cannot end with the same two digits: the puzzle would have two solutions. So a candidate that would complete that deadly pattern goes.'],
  ['Unique Loop', 'Like a unique rectangle, with a longer loop of cells that cannot all end with the same two digits.'],
  ['BUG', 'Bivalue universal grave: if every empty cell had two candidates, the puzzle would have two solutions. The one cell with three must take the digit that breaks that pattern.'],
  ['Bidirectional', 'A closed loop of links, alternately strong and weak: every weak link in it is in fact strong, which removes the digit from cells outside the loop that see both ends of a link.'],
  ['Forcing X-Chain', 'A chain of links on one digit: if one end is false the other end is true. A cell seeing both ends loses the digit (or a contradiction places it).'],
  ['Forcing Chain', 'A chain of alternating "if not this, then that" links: assuming a candidate leads to a contradiction, or both ends agree, so the step follows.'],
  ['Cell Forcing', 'Every candidate of one cell, followed through chains, leads to the same conclusion: so it is true whichever digit the cell holds.'],
  ['Region Forcing', 'Every place of a digit in a house, followed through chains, leads to the same conclusion: so it is true wherever the digit goes.'],
  ['Dynamic', 'Forcing chains that also use what earlier steps of the chain have placed: longer reasoning, found by trial and contradiction.'],
  ['Nishio', 'Assume one candidate and follow only that digit: if it leads to a contradiction, the candidate is false.'],
  ['Nested', 'Forcing chains that call on other forcing chains: the deepest reasoning the solver knows.'],
];

export function learnAbout(technique) {
  const found = LEARN.find(([name]) => technique.startsWith(name)) ||
    LEARN.find(([name]) => technique.includes(name));
  return found ? found[1] : null;
}

// ---------------------------------------------------------------------------------------------
// Hints, check, first mistake

export const STAGE_BUTTON = { 1: 'Show where', 2: 'Show the step', 3: 'Apply' };

// The practised technique's name: as the server last said it, else as the picker shows it.
export function practiseName() {
  if (game.practiseName) return game.practiseName;
  const option = document.querySelector(`#practise option[value="${game.practise}"]`);
  return option ? option.textContent : game.practise;
}

// Whether the player's own moves made the practised step last shown: its digits placed, its
// candidates struck out of their notes.
export function practisedStepMade() {
  const s = game.practiseShown;
  if (!s) return false;
  const vals = boardValues();
  return s.placements.every(({ cell, digit }) => vals[cell] === digit) &&
    s.eliminations.every(({ cell, digit }) => vals[cell] || (game.marks[cell] && !(game.marks[cell] & bit(digit))));
}

// Whether a hint is asked for the practised technique: until it has been used.
export function practising() {
  if (!game.practise || game.practiseDone) return false;
  if (practisedStepMade()) game.practiseDone = true;
  return !game.practiseDone;
}

// What the practise line of the hint panel says, if anything.
export function practiseLine(d) {
  if (!game.practise) return '';
  const name = practiseName();
  // As the engine's hints say it: no article before a plural or a mass noun.
  const an = (t) => (/(Chains|Cycles|Pointing|Claiming)(\s\(|$)/.test(t) ? ''
    : /^[AEIOX]/.test(t) || /^U(?!ni)/.test(t) ? 'an ' : 'a ');
  if (!d.practise) return game.practiseDone ? `${name} practised: ordinary hints from here.` : '';
  if (d.practise.found) return `Practising ${name}: here it is.`;
  if (d.kind === 'step') return `No ${name} yet: first ${an(d.technique)}${d.technique}.`;
  if (d.kind === 'mistake') return `No ${name} yet: first, this mistake.`;
  return `No ${name} here.`;
}

export async function hintPress({ refresh = false } = {}) {
  // One request at a time: a second press (H twice) while the first is answered is ignored,
  // so it neither sends a second request nor counts a second hint.
  if (!game || game.solved || ui.paused || ui.hintPending) return;
  const key = positionKey();
  if (ui.hint && ui.hint.key === key && $('hint-panel').hidden) {
    // Reopening the hint of this position: the same stage, not a second hint.
    showHint();
    return;
  }
  if (!ui.hint || ui.hint.key !== key) {
    try {
      ui.hintPending = true;
      $('hint').disabled = true;
      $('hint-panel').hidden = false;
      $('hint-stage').textContent = 'Hint';
      $('hint-text').textContent = 'Looking for the next step…';
      $('hint-next').hidden = true;
      // Notes are judged only once the player has filled every candidate: partial notes are
      // reminders, not claims, and never a mistake.
      const body = { givens: game.puzzle, entries: entriesLine() };
      const marks = judgedMarks();
      if (marks) body.marks = marks;
      if (practising()) body.practise = game.practise;
      const data = await api('/api/hint', body);
      if (data.practise) {
        game.practiseName = data.practise.technique;
        if (data.practise.found) {
          game.practiseShown = { placements: data.placements, eliminations: data.eliminations };
        } else if (game.practiseShown) {
          // One was shown and the position holds none any more: it has been used.
          game.practiseDone = true;
        }
      }
      ui.hint = { key, data, stage: 1 };
      // Saved with the game: a reload reopens the hint at its stage without counting it again.
      game.hint = ui.hint;
      if (!refresh) game.hints++;
      saveGame();
    } catch (e) {
      hideHint();
      toast(e.message, 6000);
      return;
    } finally {
      ui.hintPending = false;
      $('hint').disabled = false;
    }
  } else if (ui.hint.stage < 3) {
    ui.hint.stage++;
    saveGame();
  } else {
    applyHint();
    return;
  }
  showHint();
}

export function showHint() {
  const h = ui.hint;
  if (!h) return hideHint();
  const d = h.data;
  const panel = $('hint-panel');
  panel.hidden = false;
  panel.dataset.kind = d.kind;
  const title = d.kind === 'step' ? (h.stage >= 2 ? `${d.technique}${d.rating ? ` · ${d.rating}` : ''}` : 'Technique')
    : d.kind === 'mistake' ? 'A mistake' : d.kind === 'reveal' ? 'No known technique' : 'Solved';
  $('hint-stage').textContent = `Hint ${h.stage} of 3 · ${title}`;
  const line = practiseLine(d);
  $('hint-practise').hidden = !line;
  $('hint-practise').textContent = line;
  $('hint-practise').classList.toggle('found', !!d.practise?.found);
  $('hint-text').textContent = h.stage === 1 ? d.technique_text : h.stage === 2 ? (d.where_text || d.technique_text) : d.text;
  $('hint-result').hidden = !(h.stage >= 3 && d.result_text);
  $('hint-result').textContent = d.result_text || '';
  // A key to the drawing of a fish or pattern: which tint and line means what.
  const key = h.stage >= 3 && d.kind === 'step' && d.figure ? figureKey(d.figure) : '';
  $('hint-key').hidden = !key;
  $('hint-key').innerHTML = key;
  // What the technique is: open to read at any stage, as it says nothing of where the step is.
  const about = d.kind === 'step' ? learnAbout(d.technique) : null;
  $('hint-learn').hidden = !about;
  if (about) {
    const name = d.technique.replace(/ \(\+\)$/, '');
    if ($('hint-learn-title').textContent !== `What is ${/^[AEIOUX]/.test(name) ? 'an' : 'a'} ${name}?`) {
      $('hint-learn').open = false;
      $('hint-learn-title').textContent = `What is ${/^[AEIOUX]/.test(name) ? 'an' : 'a'} ${name}?`;
    }
    $('hint-learn-text').textContent = about;
  }
  const next = $('hint-next');
  next.hidden = d.kind === 'solved';
  next.textContent = STAGE_BUTTON[h.stage];
  render();
}

export function figureKey(f) {
  const names = (hs) => hs.map((h) => h.name).join(', ');
  const parts = [];
  if (f.base.length) parts.push(`<span class="k-base"></span>base: ${names(f.base)}`);
  if (f.cover.length) parts.push(`<span class="k-cover"></span>cover: ${names(f.cover)}`);
  if (f.fins.length) parts.push(`<span class="k-fin"></span>fin${f.fins.length > 1 ? 's' : ''}`);
  if (f.links.some((l) => l.strong)) parts.push('<span class="k-strong"></span>strong link (one is it)');
  if (f.links.some((l) => !l.strong)) parts.push('<span class="k-weak"></span>weak link (at most one)');
  return parts.map((p) => `<span class="k">${p}</span>`).join('');
}

export function hideHint() {
  $('hint-panel').hidden = true;
}

export function applyHint() {
  const d = ui.hint?.data;
  if (!d || ui.hint.key !== positionKey()) return;
  const vals = boardValues();
  const changes = new Map();
  // Cells whose notes the hint writes from scratch (every candidate but the removed ones): they
  // are complete, so the next hint judges them and does not offer the same removal again.
  const derived = [];
  for (const { cell, digit } of d.placements) placement(cell, digit, changes);
  for (const { cell, digit } of d.eliminations) {
    let m = changes.get(cell)?.m ?? game.marks[cell];
    if (!m) {
      m = candidatesOf(cell, vals); // show what is left once the digit goes
      if (!game.filled && !game.complete[cell]) derived.push(cell);
    }
    changes.set(cell, { ...changes.get(cell), m: m & ~bit(digit) });
  }
  for (const cell of derived) changes.set(cell, { ...changes.get(cell), x: 1 });
  for (const cell of d.clear) changes.set(cell, { v: 0 });
  for (const { cell, digit } of d.restore_marks) {
    changes.set(cell, { m: (changes.get(cell)?.m ?? game.marks[cell]) | bit(digit) });
  }
  ui.hint = null;
  game.hint = null;
  hideHint();
  // The practised technique applied: ordinary hints from now on.
  if (d.practise?.found) game.practiseDone = true;
  // Counted before the move, which may finish the game.
  game.applied = (game.applied || 0) + 1;
  if (commit(changes, 'hint')) {
    announce('Applied the hint.');
  } else {
    game.applied--;
    render();
  }
}

export async function check() {
  if (!game || game.solved) return;
  try {
    const r = await api('/api/check', { givens: game.puzzle, entries: entriesLine() });
    ui.wrong = new Set(r.wrong);
    render();
    const n = r.wrong.length;
    toast(n === 0 ? 'No wrong digits so far.' : `${n} wrong digit${n > 1 ? 's' : ''}, marked with a slash.`);
  } catch (e) {
    toast(e.message, 6000);
  }
}

export async function firstMistake() {
  if (!game || game.solved || ui.paused) return;
  try {
    if (!ui.solution || ui.solution.puzzle !== game.puzzle) {
      const r = await api('/api/solve', { puzzle: game.puzzle });
      ui.solution = { puzzle: game.puzzle, line: r.solution };
    }
  } catch (e) {
    toast(e.message, 6000);
    return;
  }
  const sol = ui.solution.line;
  const wrongIn = (vals) => vals.flatMap((v, i) => (v && v !== Number(sol[i]) ? [i] : []));
  const vals = game.values.slice();
  if (wrongIn(vals).length === 0) {
    toast('No wrong digits so far.');
    return;
  }
  // The position before the first move: a shared or imported position may hold wrong digits
  // already, which no walk back through the player's moves can take away. Those are shown, not
  // undone; the walk stops at the last position with no wrong digit of the player's own.
  const start = game.values.slice();
  for (let j = game.history.length - 1; j >= 0; j--) for (const [i, v] of game.history[j].c) start[i] = v;
  const inherited = new Set(wrongIn(start).map((i) => `${i}:${start[i]}`));
  const own = (vs) => wrongIn(vs).some((i) => !inherited.has(`${i}:${vs[i]}`));
  let k = game.history.length;
  while (k > 0 && own(vals)) {
    k--;
    for (const [i, v] of game.history[k].c) vals[i] = v;
  }
  const culprit = k < game.history.length
    ? game.history[k].c.find(([i, , , v]) => v && v !== Number(sol[i]))
    : undefined;
  const steps = game.history.length - k;
  while (game.history.length > k) {
    const m = game.history.pop();
    for (const ch of m.c) undoChange(ch);
    game.future.push(m);
  }
  afterChange();
  // Wrong digits the position came with (still on the board): marked as Check marks them.
  const given = wrongIn(game.values).filter((i) => inherited.has(`${i}:${game.values[i]}`));
  const inheritedText = given.length
    ? `The position you were given has ${given.length} wrong digit${given.length > 1 ? 's' : ''}, marked with a slash: ${given.map((i) => `${game.values[i]} in ${cellName(i)}`).join(', ')}.`
    : '';
  ui.wrong = new Set(given);
  if (culprit) {
    ui.selected = culprit[0];
    ui.flash = culprit[0];
    render();
    focusCell();
    toast(`Went back ${steps} move${steps > 1 ? 's' : ''}: ${culprit[3]} in ${cellName(culprit[0])} was the first wrong digit. Redo brings the moves back. ${inheritedText}`.trim(), 8000);
  } else if (steps > 0) {
    render();
    toast(`Went back ${steps} move${steps > 1 ? 's' : ''} to the last position with no wrong digit of yours. ${inheritedText}`.trim(), 8000);
  } else {
    ui.selected = given[0];
    ui.flash = given[0];
    render();
    focusCell();
    toast(`No wrong move of yours. ${inheritedText}`, 8000);
  }
}
