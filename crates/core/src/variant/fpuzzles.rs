//! The f-puzzles format: the JSON that f-puzzles.com saves and SudokuPad also reads, and its
//! compressed form in links (lz-string's Base64 of the JSON: `https://f-puzzles.com/?load=...`,
//! `https://sudokupad.app/fpuzzles...`).
//!
//! What shudu reads and writes of it: `size`; `grid` (rows of cells, each with `value` and
//! `given`, and `region` for a jigsaw layout); `diagonal+` and `diagonal-` (both: Sudoku X);
//! `antiknight`; `antiking`; `killercage` (`cells` as `R1C1` names, `value` the sum as a
//! string); `extraregion` holding exactly Windoku's four boxes. A constraint shudu does not
//! solve (a thermometer, a single diagonal, other extra regions, ...) is refused with its name:
//! solving without it would give the wrong puzzle. `title`, `author` and `ruleset` are kept out
//! of the way: read and ignored, written when given.

use serde_json::{json, Map, Value};
use thiserror::Error;

use super::{Cage, Rules, VariantPuzzle};

/// Why an f-puzzles document cannot be read: the JSON path at fault and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("f-puzzles {path}: {why}")]
pub struct FpuzzlesError {
    /// Where: `grid[2][5].value`, `killercage[3].cells[1]`, `size`, ...
    pub path: String,
    /// What was found and what was expected.
    pub why: String,
}

fn err(path: impl Into<String>, why: impl Into<String>) -> FpuzzlesError {
    FpuzzlesError {
        path: path.into(),
        why: why.into(),
    }
}

/// The keys shudu reads; every other key must be absent or empty.
const KNOWN: [&str; 10] = [
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "killercage",
    "extraregion",
    "title",
    "author",
];

/// Keys that carry no constraint (the rules' text, the solver's settings, the author's
/// solution, cosmetic cages, lines and shapes): ignored.
const NEUTRAL: [&str; 10] = [
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
    "cage",
    "text",
    "line",
    "rectangle",
    "circle",
    "metadata",
];

fn flag(doc: &Map<String, Value>, key: &str) -> Result<bool, FpuzzlesError> {
    match doc.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(err(key, format!("found {other}; expected true or false"))),
    }
}

/// The cell of a name like `R3C12` (1-based, either case) in a grid of `size`.
fn cell_of(name: &Value, size: usize, path: &str) -> Result<usize, FpuzzlesError> {
    let expected = format!("expected a cell name R1C1 to R{size}C{size}");
    let s = name
        .as_str()
        .ok_or_else(|| err(path, format!("found {name}; {expected}")))?;
    let upper = s.to_ascii_uppercase();
    let parsed = upper
        .strip_prefix('R')
        .and_then(|rest| rest.split_once('C'))
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    match parsed {
        Some((r, c)) if (1..=size).contains(&r) && (1..=size).contains(&c) => {
            Ok((r - 1) * size + c - 1)
        }
        _ => Err(err(path, format!("found '{s}'; {expected}"))),
    }
}

fn cell_name(cell: usize, size: usize) -> String {
    format!("R{}C{}", cell / size + 1, cell % size + 1)
}

/// Windoku's four extra boxes in a 9×9 grid, each as sorted cells.
fn windoku_boxes() -> Vec<Vec<usize>> {
    [(1, 1), (1, 5), (5, 1), (5, 5)]
        .iter()
        .map(|&(r0, c0)| {
            let mut b: Vec<usize> = (0..9).map(|k| (r0 + k / 3) * 9 + c0 + k % 3).collect();
            b.sort_unstable();
            b
        })
        .collect()
}

/// Reads an f-puzzles JSON document.
///
/// # Errors
/// Malformed JSON, a field of the wrong type or out of range (named by its path), a layout the
/// rules refuse (regions not connected, a cage's impossible sum), or a constraint shudu does
/// not solve.
pub fn from_json(text: &str) -> Result<VariantPuzzle, FpuzzlesError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| err("(document)", e.to_string()))?;
    let doc = doc
        .as_object()
        .ok_or_else(|| err("(document)", "expected a JSON object"))?;
    for (key, value) in doc {
        let empty = match value {
            Value::Null | Value::Bool(false) => true,
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            _ => false,
        };
        if !KNOWN.contains(&key.as_str()) && !NEUTRAL.contains(&key.as_str()) && !empty {
            return Err(err(
                key.as_str(),
                "a constraint shudu does not solve; expected only the grid, regions, \
                 diagonal+ with diagonal-, antiknight, antiking, killercage and Windoku's \
                 extraregion",
            ));
        }
    }
    let size = match doc.get("size") {
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0) as usize,
        Some(other) => return Err(err("size", format!("found {other}; expected a number"))),
        None => return Err(err("size", "missing; expected 4, 6, 8, 9, 12 or 16")),
    };
    let mut rules = Rules::classic(size).map_err(|e| err("size", e.to_string()))?;

    let grid = doc.get("grid").and_then(Value::as_array).ok_or_else(|| {
        err(
            "grid",
            format!("missing or not a list; expected {size} rows"),
        )
    })?;
    if grid.len() != size {
        return Err(err(
            "grid",
            format!("found {} rows; expected {size}", grid.len()),
        ));
    }
    let mut cells = vec![0u8; size * size];
    let mut regions = vec![None::<u8>; size * size];
    for (r, row) in grid.iter().enumerate() {
        let row = row
            .as_array()
            .ok_or_else(|| err(format!("grid[{r}]"), "expected a list of cells"))?;
        if row.len() != size {
            return Err(err(
                format!("grid[{r}]"),
                format!("found {} cells; expected {size}", row.len()),
            ));
        }
        for (c, cell) in row.iter().enumerate() {
            let path = format!("grid[{r}][{c}]");
            let cell = cell
                .as_object()
                .ok_or_else(|| err(&path, "expected an object"))?;
            let given = matches!(cell.get("given"), Some(Value::Bool(true)));
            if let Some(v) = cell.get("value").filter(|v| !v.is_null()) {
                let d = v
                    .as_u64()
                    .filter(|d| (1..=size as u64).contains(d))
                    .ok_or_else(|| {
                        err(
                            format!("{path}.value"),
                            format!("found {v}; expected 1 to {size}"),
                        )
                    })?;
                // A player's digit (not given) is not part of the puzzle.
                if given {
                    cells[r * size + c] = d as u8;
                }
            }
            if matches!(cell.get("region"), Some(Value::Null)) {
                return Err(err(
                    format!("{path}.region"),
                    "a cell outside every region is a constraint shudu does not solve; \
                     expected a region number",
                ));
            }
            if let Some(v) = cell.get("region") {
                let k = v.as_u64().filter(|k| (*k as usize) < size).ok_or_else(|| {
                    err(
                        format!("{path}.region"),
                        format!("found {v}; expected 0 to {}", size - 1),
                    )
                })?;
                regions[r * size + c] = Some(k as u8);
            }
        }
    }
    // Regions: all cells carry one (a jigsaw), or none do (the boxes); a cell whose region is
    // its box's may leave it out when the others are boxes too.
    if regions.iter().any(Option::is_some) {
        let boxes = Rules::classic(size).expect("a valid size");
        let full: Vec<u8> = regions
            .iter()
            .enumerate()
            .map(|(i, r)| r.unwrap_or(boxes.region(i) as u8))
            .collect();
        let is_boxes = full
            .iter()
            .enumerate()
            .all(|(i, &r)| r as usize == boxes.region(i));
        if !is_boxes {
            rules = rules
                .with_regions(full)
                .map_err(|e| err("grid[..][..].region", e.to_string()))?;
        }
    }
    match (flag(doc, "diagonal+")?, flag(doc, "diagonal-")?) {
        (true, true) => rules = rules.with_diagonals(),
        (false, false) => {}
        (plus, _) => {
            return Err(err(
                if plus { "diagonal+" } else { "diagonal-" },
                "one diagonal alone is a constraint shudu does not solve; expected both \
                 (Sudoku X) or neither",
            ))
        }
    }
    if flag(doc, "antiknight")? {
        rules = rules.with_anti_knight();
    }
    if flag(doc, "antiking")? {
        rules = rules.with_anti_king();
    }
    if let Some(extra) = doc.get("extraregion").filter(|v| !v.is_null()) {
        let list = extra
            .as_array()
            .ok_or_else(|| err("extraregion", "expected a list of regions"))?;
        if !list.is_empty() {
            let mut found = Vec::new();
            for (i, region) in list.iter().enumerate() {
                let names = region
                    .get("cells")
                    .and_then(Value::as_array)
                    .ok_or_else(|| err(format!("extraregion[{i}].cells"), "expected a list"))?;
                let mut cells = names
                    .iter()
                    .enumerate()
                    .map(|(k, n)| cell_of(n, size, &format!("extraregion[{i}].cells[{k}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                cells.sort_unstable();
                found.push(cells);
            }
            found.sort();
            let mut windoku = windoku_boxes();
            windoku.sort();
            if size != 9 || found != windoku {
                return Err(err(
                    "extraregion",
                    "extra regions other than Windoku's four boxes (9×9, corners r2c2, r2c6, \
                     r6c2, r6c6) are a constraint shudu does not solve",
                ));
            }
            rules = rules
                .with_windoku()
                .map_err(|e| err("extraregion", e.to_string()))?;
        }
    }
    if let Some(cages) = doc.get("killercage").filter(|v| !v.is_null()) {
        let list = cages
            .as_array()
            .ok_or_else(|| err("killercage", "expected a list of cages"))?;
        let mut out = Vec::with_capacity(list.len());
        for (i, cage) in list.iter().enumerate() {
            let names = cage
                .get("cells")
                .and_then(Value::as_array)
                .ok_or_else(|| err(format!("killercage[{i}].cells"), "expected a list"))?;
            let cells = names
                .iter()
                .enumerate()
                .map(|(k, n)| cell_of(n, size, &format!("killercage[{i}].cells[{k}]")))
                .collect::<Result<Vec<_>, _>>()?;
            let sum = match cage.get("value") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if s.trim().is_empty() => None,
                Some(Value::String(s)) => Some(s.trim().parse::<u32>().map_err(|_| {
                    err(
                        format!("killercage[{i}].value"),
                        format!("found '{s}'; expected a whole number"),
                    )
                })?),
                Some(Value::Number(n)) => n.as_u64().map(|v| v as u32),
                Some(other) => {
                    return Err(err(
                        format!("killercage[{i}].value"),
                        format!("found {other}; expected the sum as a number"),
                    ))
                }
            };
            out.push(Cage { cells, sum });
        }
        rules = rules
            .with_cages(out)
            .map_err(|e| err("killercage", e.to_string()))?;
    }
    VariantPuzzle::new(rules, cells).map_err(|e| err("grid", e.to_string()))
}

/// Writes a puzzle as f-puzzles JSON (with `title` if given).
pub fn to_json(p: &VariantPuzzle, title: Option<&str>) -> String {
    let rules = p.rules();
    let size = rules.size();
    let grid: Vec<Value> = (0..size)
        .map(|r| {
            Value::Array(
                (0..size)
                    .map(|c| {
                        let i = r * size + c;
                        let mut cell = Map::new();
                        let d = p.cells()[i];
                        if d != 0 {
                            cell.insert("value".into(), json!(d));
                            cell.insert("given".into(), json!(true));
                        }
                        if let Some(regions) = rules.regions() {
                            cell.insert("region".into(), json!(regions[i]));
                        }
                        Value::Object(cell)
                    })
                    .collect(),
            )
        })
        .collect();
    let mut doc = Map::new();
    doc.insert("size".into(), json!(size));
    if let Some(t) = title {
        doc.insert("title".into(), json!(t));
    }
    doc.insert("grid".into(), Value::Array(grid));
    if rules.has_diagonals() {
        doc.insert("diagonal+".into(), json!(true));
        doc.insert("diagonal-".into(), json!(true));
    }
    if rules.has_anti_knight() {
        doc.insert("antiknight".into(), json!(true));
    }
    if rules.has_anti_king() {
        doc.insert("antiking".into(), json!(true));
    }
    if rules.has_windoku() {
        let boxes: Vec<Value> = windoku_boxes()
            .into_iter()
            .map(|b| json!({ "cells": b.iter().map(|&c| cell_name(c, size)).collect::<Vec<_>>() }))
            .collect();
        doc.insert("extraregion".into(), Value::Array(boxes));
    }
    if !rules.cages().is_empty() {
        let cages: Vec<Value> = rules
            .cages()
            .iter()
            .map(|cage| {
                let mut o = Map::new();
                o.insert(
                    "cells".into(),
                    json!(cage
                        .cells
                        .iter()
                        .map(|&c| cell_name(c, size))
                        .collect::<Vec<_>>()),
                );
                if let Some(s) = cage.sum {
                    o.insert("value".into(), json!(s.to_string()));
                }
                Value::Object(o)
            })
            .collect();
        doc.insert("killercage".into(), Value::Array(cages));
    }
    Value::Object(doc).to_string()
}

/// The prefixes of the links that carry a compressed f-puzzles document.
const LINKS: [&str; 4] = [
    "https://f-puzzles.com/?load=",
    "https://www.f-puzzles.com/?load=",
    "https://sudokupad.app/fpuzzles",
    "https://app.crackingthecryptic.com/sudoku/fpuzzles",
];

/// Reads a link (f-puzzles' `?load=`, SudokuPad's `fpuzzles...`) or its bare compressed code.
///
/// # Errors
/// A code that does not decompress (lz-string Base64), then as [`from_json`].
pub fn from_link(link: &str) -> Result<VariantPuzzle, FpuzzlesError> {
    let link = link.trim();
    let code = LINKS
        .iter()
        .find_map(|p| link.strip_prefix(p))
        .unwrap_or(link);
    // Links may carry the code URL-encoded (`%2B` for `+`, `%3D` for `=`) or with `+` as a space.
    let code = code
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=")
        .replace(' ', "+");
    let text = lz_str::decompress_from_base64(&code)
        .and_then(|utf16| String::from_utf16(&utf16).ok())
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            err(
                "(link)",
                "the code does not decompress; expected an f-puzzles or SudokuPad link, or its \
                 lz-string Base64 code",
            )
        })?;
    from_json(&text)
}

/// The f-puzzles link of a puzzle (`https://f-puzzles.com/?load=...`); SudokuPad opens the
/// same code after `https://sudokupad.app/fpuzzles`.
pub fn to_link(p: &VariantPuzzle, title: Option<&str>) -> String {
    format!(
        "{}{}",
        LINKS[0],
        lz_str::compress_to_base64(&to_json(p, title))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_survives_a_round_trip_through_json_and_a_link() {
        let mut rng = crate::grids::rng_for(3, 0);
        let jigsaw = super::super::random_regions(9, &mut rng);
        let puzzles = [
            Rules::classic(9).unwrap().with_diagonals(),
            Rules::classic(9).unwrap().with_windoku().unwrap(),
            Rules::classic(6)
                .unwrap()
                .with_anti_knight()
                .with_anti_king(),
            Rules::classic(9).unwrap().with_regions(jigsaw).unwrap(),
            Rules::classic(4)
                .unwrap()
                .with_cages(vec![
                    Cage {
                        cells: vec![0, 1],
                        sum: Some(3),
                    },
                    Cage {
                        cells: vec![5, 9],
                        sum: None,
                    },
                ])
                .unwrap(),
            Rules::classic(16).unwrap(),
        ];
        for rules in puzzles {
            let n = rules.size();
            let mut cells = vec![0u8; n * n];
            cells[0] = 1;
            cells[n * n - 1] = 2;
            let p = VariantPuzzle::new(rules, cells).unwrap();
            let json = to_json(&p, Some("t"));
            assert_eq!(from_json(&json).unwrap(), p, "{json}");
            let link = to_link(&p, None);
            assert!(link.starts_with("https://f-puzzles.com/?load="));
            assert_eq!(from_link(&link).unwrap(), p);
            let code = link.trim_start_matches(LINKS[0]);
            assert_eq!(
                from_link(&format!("https://sudokupad.app/fpuzzles{code}")).unwrap(),
                p
            );
        }
    }

    #[test]
    fn a_document_as_f_puzzles_writes_it_is_read() {
        // Cells carry pencil marks and a player's (not given) digit, which are not the puzzle.
        let mut rows = Vec::new();
        for r in 0..4 {
            let row: Vec<Value> = (0..4)
                .map(|c| match (r, c) {
                    (0, 0) => json!({"value": 1, "given": true, "centerPencilMarks": [], "cornerPencilMarks": []}),
                    (1, 1) => json!({"value": 3, "cornerPencilMarks": [3, 4]}),
                    _ => json!({}),
                })
                .collect();
            rows.push(Value::Array(row));
        }
        let doc = json!({
            "size": 4, "title": "A", "author": "B", "ruleset": "Normal sudoku rules apply.",
            "grid": rows, "killercage": [{"cells": ["R1C2", "r1c3"], "value": "5"}],
            "thermometer": [], "arrow": null,
        });
        let p = from_json(&doc.to_string()).unwrap();
        assert_eq!(p.to_line(), "1...............");
        assert_eq!(
            p.rules().cages(),
            &[Cage {
                cells: vec![1, 2],
                sum: Some(5)
            }]
        );
    }

    #[test]
    fn what_cannot_be_read_is_named_by_its_path() {
        let grid = |v: Value| {
            let mut rows = vec![vec![json!({}); 4]; 4];
            rows[2][1] = v;
            json!(rows)
        };
        let cases = [
            (
                json!({"size": 7, "grid": []}),
                "f-puzzles size: size 7 has no boxes",
            ),
            (json!({"grid": []}), "f-puzzles size: missing"),
            (
                json!({"size": 4, "grid": grid(json!({"value": 5, "given": true}))}),
                "f-puzzles grid[2][1].value: found 5; expected 1 to 4",
            ),
            (
                json!({"size": 4, "grid": grid(json!({})), "killercage": [{"cells": ["R1C1", "R5C1"], "value": "3"}]}),
                "f-puzzles killercage[0].cells[1]: found 'R5C1'; expected a cell name R1C1 to R4C4",
            ),
            (
                json!({"size": 4, "grid": grid(json!({})), "thermometer": [{"lines": [["R1C1", "R1C2"]]}]}),
                "f-puzzles thermometer: a constraint shudu does not solve",
            ),
            (
                json!({"size": 4, "grid": grid(json!({})), "diagonal+": true}),
                "f-puzzles diagonal+: one diagonal alone",
            ),
            (
                json!({"size": 4, "grid": grid(json!({})), "killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]}),
                "f-puzzles killercage: cage 1: sum 9 with 2 distinct digits: expected 3 to 7",
            ),
        ];
        for (doc, want) in cases {
            let e = from_json(&doc.to_string()).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}\nexpected it to start with {want}");
        }
        let e = from_link("https://f-puzzles.com/?load=%%%").unwrap_err();
        assert!(e.to_string().contains("does not decompress"), "{e}");
    }
}
