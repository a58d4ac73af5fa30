//! Basic fish on one digit: `n` rows (or columns) whose places for the digit lie in `n` columns
//! (or rows) together; those cover lines lose the digit outside the base lines. X-Wing (n = 2,
//! 3.2), Swordfish (3, 3.8), Jellyfish (4, 5.2).

use super::chains::count9;
use super::subsets::{small_unions, Picked, Quiet, FISH};
use super::{bits, cell, digit, house, Board, Figure, Link, Places, Rating, Step};
use crate::bitset::{Cell, Digit};

/// The first fish of size `degree`: digits in increasing order, rows as base lines first.
pub fn fish(board: &Board, degree: usize) -> Option<Step> {
    fish_in(board, &board.places(), degree)
}

/// [`fish`] on a board with these places ([`Board::places`]; rows 0-8 and columns 9-17 are
/// used).
pub(crate) fn fish_in(board: &Board, places: &Places, degree: usize) -> Option<Step> {
    // The digits with no fish of this size on the last board where their places were the same
    // (see `Quiet`): a fish search on a digit reads only its places.
    let mut quiet = Quiet::known(board, FISH, degree);
    for d in 0..9 {
        if quiet >> d & 1 == 1 {
            continue;
        }
        for rows_base in [true, false] {
            // lines[k]: the cover indices where d is a candidate in base line k.
            let lines: [u16; 9] =
                std::array::from_fn(|k| places[if rows_base { k } else { 9 + k }][d]);
            let picked = Picked::new(|k| {
                let n = count9(lines[k]) as usize;
                (n >= 2 && n <= degree).then_some(lines[k])
            });
            let usable = picked.items();
            // The cover is built as the base lines are chosen, and a choice whose cover is
            // already too wide is dropped with all its extensions: most are not fish (this runs
            // at every step that reaches fish, `benches/logic.rs`).
            let found = small_unions(picked.masks(), degree, |pick, cover| {
                if count9(cover) as usize != degree {
                    return None;
                }
                let base: Vec<usize> = bits(pick).map(|k| usable[k]).collect();
                let at = |line: usize, other: usize| {
                    if rows_base {
                        line * 9 + other
                    } else {
                        other * 9 + line
                    }
                };
                let mut elims: Vec<(Cell, Digit)> = Vec::new();
                for x in bits(cover) {
                    for line in 0..9 {
                        let c = at(line, x);
                        if !base.contains(&line) && board.cands[c] >> d & 1 == 1 {
                            elims.push((cell(c), digit(d)));
                        }
                    }
                }
                if elims.is_empty() {
                    return None;
                }
                let cells: Vec<Cell> = base
                    .iter()
                    .flat_map(|&l| bits(lines[l]).map(move |x| cell(at(l, x))))
                    .collect();
                let (technique, rating) = match degree {
                    2 => ("X-Wing", 32),
                    3 => ("Swordfish", 38),
                    _ => ("Jellyfish", 52),
                };
                let base_h: Vec<_> = base
                    .iter()
                    .map(|&l| house(if rows_base { l } else { 9 + l }))
                    .collect();
                let cover_h: Vec<_> = bits(cover)
                    .map(|x| house(if rows_base { 9 + x } else { x }))
                    .collect();
                let text = board.say(|| {
                    let covers = super::house_list(&cover_h);
                    format!(
                        "{}: in {}, {} can only go in {covers}; so {covers} hold {} only there, \
                         and {}",
                        technique,
                        super::house_list(&base_h),
                        d + 1,
                        d + 1,
                        super::elim_list(&elims)
                    )
                });
                let figure = board.explain.then(|| {
                    Box::new(Figure {
                        base: base_h.clone(),
                        cover: cover_h.clone(),
                        fins: vec![],
                        links: base_links(&base, |l| bits(lines[l]).map(move |x| at(l, x))),
                    })
                });
                let mut houses = base_h;
                houses.extend(cover_h);
                Some(Step {
                    technique,
                    rating: Rating(rating),
                    placements: vec![],
                    shown_eliminations: vec![],
                    figure,
                    eliminations: elims,
                    cells,
                    houses,
                    text,
                })
            });
            if found.is_some() {
                Quiet::set(FISH, degree, quiet);
                return found;
            }
        }
        quiet |= 1 << d;
    }
    Quiet::set(FISH, degree, quiet);
    None
}

/// The links along a fish's base lines: each place of the digit to the next in its line; strong
/// where the line has two places, weak where it has more (at most one of them holds the digit).
pub(crate) fn base_links<I: Iterator<Item = usize>>(
    base: &[usize],
    places: impl Fn(usize) -> I,
) -> Vec<Link> {
    let mut links = Vec::new();
    for &l in base {
        let cells: Vec<usize> = places(l).collect();
        for w in cells.windows(2) {
            links.push(if cells.len() == 2 {
                Link::strong(w[0], w[1])
            } else {
                Link::weak(w[0], w[1])
            });
        }
    }
    links
}
