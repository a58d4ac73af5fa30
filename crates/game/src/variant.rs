//! The variant game's requests and answers: a puzzle of any size and rules dealt, a position
//! checked by the rules, and a hint from the variant techniques
//! (`shudu_core::variant::logic`). A puzzle travels as a [`VariantSpec`]: its size, rule names,
//! jigsaw regions, killer cages and givens, which the page draws and sends back with each
//! position. Cells are numbered `row * size + column`; a digit is `1`-`9` then `A`-`G`.

use shudu_core::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use shudu_core::generate::Symmetry;
use shudu_core::variant::logic::{self, houses, next_step_of};
use shudu_core::variant::{
    count_solutions, digit_of, symbol, Cage, Rules, VariantPuzzle, Variants,
};

use crate::GameError;

/// The rule names the game offers (`x`, `windoku`, `anti-knight`, `anti-king`, `jigsaw`,
/// `killer`), as `shudu generate --variant` takes them.
pub const VARIANT_NAMES: [&str; 6] = [
    "x",
    "windoku",
    "anti-knight",
    "anti-king",
    "jigsaw",
    "killer",
];

/// The sizes the game offers.
pub const SIZES: [usize; 6] = [4, 6, 8, 9, 12, 16];

/// A killer cage: its cells and sum (none for a cage whose digits only differ).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CageInfo {
    /// Cells, `row * size + column`.
    pub cells: Vec<usize>,
    /// The sum of its digits.
    #[serde(default)]
    pub sum: Option<u32>,
}

/// A variant puzzle as the page holds it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// 4, 6, 8, 9, 12 or 16.
    pub size: usize,
    /// Rule names: `x`, `windoku`, `anti-knight`, `anti-king` (and `jigsaw`, `killer`, which
    /// `regions` and `cages` carry).
    #[serde(default)]
    pub variants: Vec<String>,
    /// Jigsaw regions: the region (0 to size-1) of every cell; none for boxes.
    #[serde(default)]
    pub regions: Option<Vec<u8>>,
    /// Killer cages.
    #[serde(default)]
    pub cages: Vec<CageInfo>,
    /// The givens: `size * size` characters, `.` for empty.
    pub givens: String,
}

impl VariantSpec {
    /// The rules it describes.
    ///
    /// # Errors
    /// A size, name, region or cage that does not fit, naming the field.
    pub fn rules(&self) -> Result<Rules, GameError> {
        let names: Vec<&str> = self
            .variants
            .iter()
            .map(String::as_str)
            .filter(|n| !matches!(*n, "jigsaw" | "killer"))
            .collect();
        let bad = |e: String| GameError::BadRequest(e);
        let v = Variants::parse(self.size, &names).map_err(|e| bad(format!("variants: {e}")))?;
        let mut rules = v.rules().clone();
        if let Some(r) = &self.regions {
            rules = rules
                .with_regions(r.clone())
                .map_err(|e| bad(format!("regions: {e}")))?;
        }
        if !self.cages.is_empty() {
            let cages = self
                .cages
                .iter()
                .map(|c| Cage {
                    cells: c.cells.clone(),
                    sum: c.sum,
                })
                .collect();
            rules = rules
                .with_cages(cages)
                .map_err(|e| bad(format!("cages: {e}")))?;
        }
        Ok(rules)
    }

    /// The rules and the givens, which must have exactly one solution (returned).
    ///
    /// # Errors
    /// As [`VariantSpec::rules`], givens that do not fit, or not one solution.
    pub fn puzzle(&self) -> Result<(VariantPuzzle, Vec<u8>), GameError> {
        let rules = self.rules()?;
        let p = VariantPuzzle::parse_line(rules, &self.givens)
            .map_err(|e| GameError::BadRequest(format!("givens: {e}")))?;
        let c = count_solutions(&p, 2);
        match (c.count, c.solution) {
            (1, Some(s)) => Ok((p, s)),
            (0, _) => Err(GameError::BadRequest(
                "givens: the puzzle has no solution".into(),
            )),
            _ => Err(GameError::BadRequest(
                "givens: the puzzle has more than one solution".into(),
            )),
        }
    }
}

/// `GET /api/variant/puzzle` query.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct VariantRequest {
    /// The size (9 if none).
    #[serde(default)]
    pub size: Option<usize>,
    /// Rule names, comma-separated (none: classic rules of the size).
    #[serde(default)]
    pub variant: Option<String>,
    /// A seed, for the same puzzle again (random if none).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A dealt variant puzzle: the spec and its rating.
#[derive(Serialize, Debug)]
pub struct VariantDeal {
    /// The puzzle.
    pub puzzle: VariantSpec,
    /// The rules in words: `"9x9 killer, X"`.
    pub name: String,
    /// SE-scale rating (`"3.0"`), none when not rated within the budget.
    pub rating: Option<String>,
    /// Its band, as the rating's.
    pub band: Option<&'static str>,
    /// The technique of the hardest step.
    pub hardest: String,
    /// The houses' names by number, as hints' `houses` count them.
    pub houses: Vec<String>,
}

/// Makes a unique puzzle of the rules asked for, rated by the variant techniques within
/// `budget` (the puzzle is dealt unrated past it).
///
/// # Errors
/// An unknown size or name (400); no puzzle within the deadline (503).
pub fn deal(
    q: &VariantRequest,
    seed: u64,
    deadline: Instant,
    budget: Duration,
) -> Result<VariantDeal, GameError> {
    let size = q.size.unwrap_or(9);
    let names: Vec<String> = q
        .variant
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    let v = Variants::parse(size, &names)
        .map_err(|e| GameError::BadRequest(format!("{}: {e}", e.argument())))?;
    // Killer: cages alone on 9x9 and smaller; 12x12 and 16x16 keep a few givens so that the
    // player has somewhere to start.
    let givens = if v.killer() && size > 9 {
        Some((size * size / 4, size * size / 3))
    } else {
        None
    };
    let config = v
        .config(givens, Symmetry::None, false, None)
        .map_err(GameError::BadRequest)?;
    let seed = q.seed.unwrap_or(seed);
    let p = v
        .generate(&config, seed, 0, deadline)
        .map_err(|e| GameError::Unavailable(format!("no puzzle in time: {e}")))?;
    let g = logic::grade_until(&p, Instant::now() + budget);
    let rules = p.rules();
    let spec = VariantSpec {
        size,
        variants: names.clone(),
        regions: rules.regions().map(<[u8]>::to_vec),
        cages: rules
            .cages()
            .iter()
            .map(|c| CageInfo {
                cells: c.cells.clone(),
                sum: c.sum,
            })
            .collect(),
        givens: p.to_line(),
    };
    Ok(VariantDeal {
        puzzle: spec,
        name: rules.describe(),
        rating: g.solved.then(|| g.er.to_string()),
        band: g.solved.then(|| g.band.name()),
        hardest: if g.solved {
            g.hardest().to_string()
        } else {
            String::new()
        },
        houses: houses(rules).iter().map(|h| h.name()).collect(),
    })
}

/// `POST /api/variant/check` and `/api/variant/hint` body.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct VariantPosition {
    /// The puzzle.
    pub puzzle: VariantSpec,
    /// The player's digits: `size * size` characters, `.` for empty (a given may be repeated,
    /// not changed).
    #[serde(default)]
    pub entries: Option<String>,
    /// Pencil marks: a string of digits per cell, `""` for none (hints only).
    #[serde(default)]
    pub marks: Option<Vec<String>>,
}

/// `POST /api/variant/check` answer: judged by the rules alone.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct VariantCheck {
    /// Cells breaking a rule: a digit repeated among cells that must differ, or a full cage
    /// whose digits do not make its sum.
    pub conflicts: Vec<usize>,
    /// Every cell has a digit.
    pub complete: bool,
    /// Complete with no conflict.
    pub solved: bool,
}

/// The digits of the position (givens and entries).
fn position(
    spec: &VariantSpec,
    rules: &Rules,
    entries: Option<&str>,
) -> Result<Vec<u8>, GameError> {
    let cells = rules.cells();
    let mut digits = VariantPuzzle::parse_line(rules.clone(), &spec.givens)
        .map_err(|e| GameError::BadRequest(format!("givens: {e}")))?
        .cells()
        .to_vec();
    let Some(entries) = entries else {
        return Ok(digits);
    };
    let chars: Vec<char> = entries.trim().chars().collect();
    if chars.len() != cells {
        return Err(GameError::BadRequest(format!(
            "entries: {} characters, expected {cells}",
            chars.len()
        )));
    }
    for (i, &ch) in chars.iter().enumerate() {
        let d = match digit_of(ch) {
            Some(d) if (d as usize) <= rules.size() => d,
            _ => {
                return Err(GameError::BadRequest(format!(
                    "entries: character {} ('{ch}') is not a digit of a {n}x{n} puzzle",
                    i + 1,
                    n = rules.size()
                )))
            }
        };
        if d == 0 {
            continue;
        }
        if digits[i] != 0 && digits[i] != d {
            return Err(GameError::BadRequest(format!(
                "entries: character {} changes the given {}",
                i + 1,
                symbol(digits[i])
            )));
        }
        digits[i] = d;
    }
    Ok(digits)
}

/// Judges a position by the rules.
///
/// # Errors
/// A spec or entries that do not fit (400).
pub fn check(body: &VariantPosition) -> Result<VariantCheck, GameError> {
    let rules = body.puzzle.rules()?;
    let digits = position(&body.puzzle, &rules, body.entries.as_deref())?;
    let peers = rules.peers();
    let mut bad = vec![false; digits.len()];
    for (c, &d) in digits.iter().enumerate() {
        if d != 0 && peers[c].iter().any(|&p| digits[p] == d) {
            bad[c] = true;
        }
    }
    for cage in rules.cages() {
        let full = cage.cells.iter().all(|&c| digits[c] != 0);
        let total: u32 = cage.cells.iter().map(|&c| u32::from(digits[c])).sum();
        if full && cage.sum.is_some_and(|s| s != total) {
            for &c in &cage.cells {
                bad[c] = true;
            }
        }
    }
    let conflicts: Vec<usize> = (0..digits.len()).filter(|&c| bad[c]).collect();
    let complete = digits.iter().all(|&d| d != 0);
    Ok(VariantCheck {
        solved: complete && conflicts.is_empty(),
        conflicts,
        complete,
    })
}

/// A cell and a digit.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct VariantCellDigit {
    /// The cell.
    pub cell: usize,
    /// The digit, 1 to 16.
    pub digit: u8,
}

/// `POST /api/variant/hint` answer.
#[derive(Serialize, Debug)]
pub struct VariantHint {
    /// `step` (a technique's step), `mistake` (entries to clear, marks to restore), `reveal`
    /// (no technique found in time: one cell's digit) or `solved`.
    pub kind: &'static str,
    /// The technique's name.
    pub technique: String,
    /// Its rating on SE's scale.
    pub rating: Option<String>,
    /// Stage 1 of the hint: which technique.
    pub technique_text: String,
    /// Stage 2: where (houses).
    pub where_text: String,
    /// Stage 3: the whole step.
    pub text: String,
    /// Cells to look at.
    pub cells: Vec<usize>,
    /// Houses involved, by number.
    pub houses: Vec<usize>,
    /// Digits the step places.
    pub placements: Vec<VariantCellDigit>,
    /// Candidates the step removes.
    pub eliminations: Vec<VariantCellDigit>,
    /// Entries that differ from the solution.
    pub clear: Vec<usize>,
    /// Candidates the player's marks left out and must have back.
    pub restore_marks: Vec<VariantCellDigit>,
}

fn cell_digits(v: &[(usize, u8)]) -> Vec<VariantCellDigit> {
    v.iter()
        .map(|&(cell, digit)| VariantCellDigit { cell, digit })
        .collect()
}

fn empty_hint(kind: &'static str, text: String) -> VariantHint {
    VariantHint {
        kind,
        technique: String::new(),
        rating: None,
        technique_text: text.clone(),
        where_text: text.clone(),
        text,
        cells: vec![],
        houses: vec![],
        placements: vec![],
        eliminations: vec![],
        clear: vec![],
        restore_marks: vec![],
    }
}

/// The next hint for a position: mistakes first (entries that differ from the solution,
/// marks that leave out a cell's digit), then the variant techniques' next step, within
/// `deadline`; past it, one cell's digit.
///
/// # Errors
/// A spec, entries or marks that do not fit, or givens without one solution (400).
pub fn hint(body: &VariantPosition, deadline: Instant) -> Result<VariantHint, GameError> {
    let (puzzle, solution) = body.puzzle.puzzle()?;
    let rules = puzzle.rules().clone();
    let digits = position(&body.puzzle, &rules, body.entries.as_deref())?;
    let cells = rules.cells();
    let clear: Vec<usize> = (0..cells)
        .filter(|&c| digits[c] != 0 && digits[c] != solution[c])
        .collect();
    if !clear.is_empty() {
        let mut h = empty_hint(
            "mistake",
            format!(
                "{} of your digits {} wrong: clear {} first",
                clear.len(),
                if clear.len() == 1 { "is" } else { "are" },
                if clear.len() == 1 { "it" } else { "them" }
            ),
        );
        h.clear = clear.clone();
        h.cells = clear;
        return Ok(h);
    }
    let marks: Option<Vec<u16>> = match &body.marks {
        None => None,
        Some(m) if m.len() != cells => {
            return Err(GameError::BadRequest(format!(
                "marks: {} cells, expected {cells}",
                m.len()
            )))
        }
        Some(m) => {
            let mut out = Vec::with_capacity(cells);
            for (i, s) in m.iter().enumerate() {
                let mut mask = 0u16;
                for ch in s.chars() {
                    match digit_of(ch) {
                        Some(d) if d >= 1 && (d as usize) <= rules.size() => mask |= 1 << (d - 1),
                        _ => {
                            return Err(GameError::BadRequest(format!(
                                "marks: cell {} holds '{ch}', not a digit of the puzzle",
                                i + 1
                            )))
                        }
                    }
                }
                out.push(mask);
            }
            Some(out)
        }
    };
    if let Some(m) = &marks {
        let restore: Vec<(usize, u8)> = (0..cells)
            .filter(|&c| digits[c] == 0 && m[c] != 0 && m[c] & 1 << (solution[c] - 1) == 0)
            .flat_map(|c| {
                // Every candidate the rules leave, so the hint does not tell which is the digit.
                let peers = rules.peers();
                let seen: u16 = peers[c]
                    .iter()
                    .filter(|&&p| digits[p] != 0)
                    .fold(0, |acc, &p| acc | 1 << (digits[p] - 1));
                (0..rules.size() as u8)
                    .filter(move |&d| m[c] & 1 << d == 0 && seen & 1 << d == 0)
                    .map(move |d| (c, d + 1))
                    .collect::<Vec<_>>()
            })
            .collect();
        if !restore.is_empty() {
            let mut h = empty_hint(
                "mistake",
                "Your pencil marks leave out a cell's digit: the marked candidates are back".into(),
            );
            h.cells = restore.iter().map(|r| r.0).collect();
            h.cells.dedup();
            h.restore_marks = cell_digits(&restore);
            return Ok(h);
        }
    }
    if digits.iter().all(|&d| d != 0) {
        return Ok(empty_hint("solved", "The puzzle is solved".into()));
    }
    let names: Vec<String> = houses(&rules).iter().map(|h| h.name()).collect();
    match next_step_of(&rules, &digits, marks.as_deref(), deadline) {
        Some(step) => {
            let where_text = if step.houses.is_empty() {
                format!("Look around {}", cell_name(rules.size(), step.cells[0]))
            } else {
                let hs: Vec<&str> = step.houses.iter().map(|&h| names[h].as_str()).collect();
                format!("Look at {}", hs.join(", "))
            };
            Ok(VariantHint {
                kind: "step",
                technique: step.technique.to_string(),
                rating: Some(step.rating.to_string()),
                technique_text: format!("Try a {}", step.technique),
                where_text,
                text: step.text.clone(),
                cells: step.cells.clone(),
                houses: step.houses.clone(),
                placements: cell_digits(&step.placements),
                eliminations: cell_digits(&step.eliminations),
                clear: vec![],
                restore_marks: vec![],
            })
        }
        None => {
            let c = (0..cells)
                .find(|&c| digits[c] == 0)
                .ok_or_else(|| GameError::Internal("no empty cell to reveal".into()))?;
            let mut h = empty_hint(
                "reveal",
                format!(
                    "No technique found in time: {} is {}",
                    cell_name(rules.size(), c),
                    symbol(solution[c])
                ),
            );
            h.cells = vec![c];
            h.placements = vec![VariantCellDigit {
                cell: c,
                digit: solution[c],
            }];
            Ok(h)
        }
    }
}

fn cell_name(n: usize, c: usize) -> String {
    format!("r{}c{}", c / n + 1, c % n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealt(size: usize, variant: &str) -> VariantDeal {
        let q = VariantRequest {
            size: Some(size),
            variant: Some(variant.into()),
            seed: Some(3),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        deal(&q, 0, deadline, Duration::from_secs(2)).unwrap()
    }

    #[test]
    fn a_dealt_puzzle_round_trips_and_has_one_solution() {
        for (size, v) in [(6, "x"), (9, "killer"), (9, "jigsaw,anti-king"), (4, "")] {
            let d = dealt(size, v);
            let (p, solution) = d.puzzle.puzzle().unwrap();
            assert_eq!(p.rules().size(), size);
            // The solution passes the check; a swapped pair of its digits does not.
            let line: String = solution.iter().map(|&d| symbol(d)).collect();
            let body = VariantPosition {
                puzzle: d.puzzle.clone(),
                entries: Some(line.clone()),
                marks: None,
            };
            let c = check(&body).unwrap();
            assert!(c.solved && c.conflicts.is_empty(), "{size} {v}");
            let free: Vec<usize> = (0..size * size)
                .filter(|&i| p.cells()[i] == 0)
                .take(2)
                .collect();
            if free.len() == 2 && solution[free[0]] != solution[free[1]] {
                let mut wrong: Vec<char> = line.chars().collect();
                wrong.swap(free[0], free[1]);
                let body = VariantPosition {
                    puzzle: d.puzzle.clone(),
                    entries: Some(wrong.into_iter().collect()),
                    marks: None,
                };
                assert!(!check(&body).unwrap().solved, "{size} {v}");
            }
        }
    }

    #[test]
    fn a_hint_is_a_sound_step_or_names_the_mistake() {
        let d = dealt(9, "killer");
        let (p, solution) = d.puzzle.puzzle().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        let body = VariantPosition {
            puzzle: d.puzzle.clone(),
            entries: None,
            marks: None,
        };
        let h = hint(&body, deadline).unwrap();
        assert_eq!(h.kind, "step");
        for e in &h.eliminations {
            assert_ne!(solution[e.cell], e.digit);
        }
        for e in &h.placements {
            assert_eq!(solution[e.cell], e.digit);
        }
        // A wrong entry is named first.
        let c = (0..81).find(|&c| p.cells()[c] == 0).unwrap();
        let wrong = solution[c] % 9 + 1;
        let mut entries = vec!['.'; 81];
        entries[c] = symbol(wrong);
        let body = VariantPosition {
            puzzle: d.puzzle.clone(),
            entries: Some(entries.into_iter().collect()),
            marks: None,
        };
        let h = hint(&body, deadline).unwrap();
        assert_eq!((h.kind, h.clear), ("mistake", vec![c]));
    }

    #[test]
    fn bad_requests_name_the_field() {
        let q = VariantRequest {
            size: Some(7),
            variant: None,
            seed: None,
        };
        let e = deal(&q, 1, Instant::now(), Duration::ZERO).unwrap_err();
        assert!(e.message().starts_with("size"), "{e}");
        let q = VariantRequest {
            size: Some(9),
            variant: Some("x,spiral".into()),
            seed: None,
        };
        let e = deal(&q, 1, Instant::now(), Duration::ZERO).unwrap_err();
        assert!(
            e.message().starts_with("variant") && e.message().contains("spiral"),
            "{e}"
        );
        let d = dealt(6, "");
        let body = VariantPosition {
            puzzle: d.puzzle.clone(),
            entries: Some("12".into()),
            marks: None,
        };
        let e = check(&body).unwrap_err();
        assert!(
            e.message()
                .starts_with("entries: 2 characters, expected 36"),
            "{e}"
        );
    }
}
