//! Singles: the full house (last empty cell of a house, 1.0), the hidden single (the only place
//! for a digit in a house: 1.2 in a box, 1.5 in a row or column) and the naked single (the only
//! candidate of a cell, 2.3).

use super::{bits, cell, digit, house, Board, Rating, Step, HOUSE_CELLS, SE_BRC};

/// Full houses first, then hidden singles; houses in SE's order (boxes, rows, columns), digits
/// in increasing order.
pub fn full_house_or_hidden_single(board: &Board) -> Option<Step> {
    for alone_pass in [true, false] {
        for &h in &SE_BRC {
            let h = h as usize;
            let empty = board.empty_count(h);
            if empty == 0 || (empty == 1) != alone_pass {
                continue;
            }
            // Digits seen once and at least once among the house's candidates.
            let (mut once, mut more) = (0u16, 0u16);
            for &c in &HOUSE_CELLS[h] {
                let m = board.cands[c as usize];
                more |= once & m;
                once |= m;
            }
            let singles = once & !more;
            if let Some(d) = bits(singles).next() {
                let pos = board.positions(h, d);
                let c = HOUSE_CELLS[h][pos.trailing_zeros() as usize] as usize;
                return Some(hidden_single_step(h, c, d, alone_pass));
            }
        }
    }
    None
}

fn hidden_single_step(h: usize, c: usize, d: usize, alone: bool) -> Step {
    let (rating, technique, text) = if alone {
        (
            10,
            "Full House",
            format!(
                "{} is the last empty cell of {}: it takes {}",
                cell(c),
                house(h),
                d + 1
            ),
        )
    } else {
        (
            if h >= 18 { 12 } else { 15 },
            "Hidden Single",
            format!(
                "In {}, {} can only go in {}: hidden single",
                house(h),
                d + 1,
                cell(c)
            ),
        )
    };
    Step {
        technique,
        rating: Rating(rating),
        placements: vec![(cell(c), digit(d))],
        eliminations: vec![],
        cells: vec![cell(c)],
        houses: vec![house(h)],
        text,
    }
}

/// The first cell (row-major) with a single candidate.
pub fn naked_single(board: &Board) -> Option<Step> {
    (0..81)
        .find(|&i| board.values[i] == 0 && board.cands[i].count_ones() == 1)
        .map(|i| {
            let d = board.cands[i].trailing_zeros() as usize;
            Step {
                technique: "Naked Single",
                rating: Rating(23),
                placements: vec![(cell(i), digit(d))],
                eliminations: vec![],
                cells: vec![cell(i)],
                houses: vec![],
                text: format!(
                    "{} has only one candidate left, {}: naked single",
                    cell(i),
                    d + 1
                ),
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    #[test]
    fn finds_full_house_before_hidden_single() {
        let p: Puzzle =
            "12345678........................................................................."
                .parse()
                .unwrap();
        let s = full_house_or_hidden_single(&Board::new(&p)).unwrap();
        assert_eq!(s.technique, "Full House");
        assert_eq!(s.rating, Rating(10));
        assert_eq!(s.placements[0].0.to_string(), "r1c9");
        assert_eq!(s.placements[0].1.get(), 9);
    }
}
