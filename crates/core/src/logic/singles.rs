//! Singles: the full house (last empty cell of a house, 1.0), the hidden single (the only place
//! for a digit in a house: 1.2 in a box, 1.5 in a row or column) and the naked single (the only
//! candidate of a cell, 2.3).

use super::{cell, digit, house, Board, Rating, Step, HOUSE_CELLS, SE_BRC};

/// Full houses first, then hidden singles; houses in SE's order (boxes, rows, columns), digits
/// in increasing order.
///
/// # Complexity
/// One pass over the 27 houses (the hot path of easy puzzles: `benches/logic.rs`, band easy).
pub fn full_house_or_hidden_single(board: &Board) -> Option<Step> {
    // An early return rather than `or_else`, which moves the step once more (see `basic_step`).
    if let Some(step) = full_house(board) {
        return Some(step);
    }
    hidden_single(board)
}

/// The first full house: the one empty cell of a house, when it has one candidate left; houses
/// in SE's order (boxes, rows, columns).
pub fn full_house(board: &Board) -> Option<Step> {
    for &h in SE_BRC.iter() {
        let h = h as usize;
        if board.house_empty[h] == 1 {
            for &c in &HOUSE_CELLS[h] {
                let m = board.cands[c as usize];
                if board.values[c as usize] == 0 && m.count_ones() == 1 {
                    return Some(hidden_single_step(
                        board,
                        h,
                        c as usize,
                        m.trailing_zeros() as usize,
                        true,
                    ));
                }
            }
        }
    }
    None
}

/// The first hidden single: a digit with one place left in a house (of two empty cells or
/// more); houses in SE's order (boxes, rows, columns), digits in increasing order.
pub fn hidden_single(board: &Board) -> Option<Step> {
    for &h in SE_BRC.iter() {
        let h = h as usize;
        if board.house_empty[h] < 2 {
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
        if singles != 0 {
            return Some(single_step(
                board,
                h,
                singles.trailing_zeros() as usize,
                false,
            ));
        }
    }
    None
}

fn single_step(board: &Board, h: usize, d: usize, alone: bool) -> Step {
    let pos = board.positions(h, d);
    let c = HOUSE_CELLS[h][pos.trailing_zeros() as usize] as usize;
    hidden_single_step(board, h, c, d, alone)
}

/// Appends "r3c7" (cheaper than `format!`, which matters on the easy path).
pub(crate) fn push_cell(s: &mut String, c: usize) {
    s.push('r');
    s.push((b'1' + (c / 9) as u8) as char);
    s.push('c');
    s.push((b'1' + (c % 9) as u8) as char);
}

/// Appends "row 3", "column 7" or "box 5".
pub(crate) fn push_house(s: &mut String, h: usize) {
    let (word, i) = match h {
        0..=8 => ("row ", h),
        9..=17 => ("column ", h - 9),
        _ => ("box ", h - 18),
    };
    s.push_str(word);
    s.push((b'1' + i as u8) as char);
}

fn hidden_single_step(board: &Board, h: usize, c: usize, d: usize, alone: bool) -> Step {
    let digit_char = (b'1' + d as u8) as char;
    let (rating, technique) = if alone {
        (10, "Full House")
    } else {
        (if h >= 18 { 12 } else { 15 }, "Hidden Single")
    };
    let text = board.say(|| {
        let mut text = String::with_capacity(64);
        if alone {
            push_cell(&mut text, c);
            text.push_str(" is the last empty cell of ");
            push_house(&mut text, h);
            text.push_str(": it takes ");
            text.push(digit_char);
        } else {
            text.push_str("In ");
            push_house(&mut text, h);
            text.push_str(", ");
            text.push(digit_char);
            text.push_str(" can only go in ");
            push_cell(&mut text, c);
            text.push_str(": hidden single");
        }
        text
    });
    Step {
        technique,
        rating: Rating(rating),
        placements: vec![(cell(c), digit(d))],
        shown_eliminations: vec![],
        figure: Default::default(),
        eliminations: vec![],
        cells: board.show(|| vec![cell(c)]),
        houses: board.show(|| vec![house(h)]),
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
                shown_eliminations: vec![],
                figure: Default::default(),
                eliminations: vec![],
                cells: board.show(|| vec![cell(i)]),
                houses: vec![],
                text: board.say(|| {
                    let mut t = String::with_capacity(48);
                    push_cell(&mut t, i);
                    t.push_str(" has only one candidate left, ");
                    t.push((b'1' + d as u8) as char);
                    t.push_str(": naked single");
                    t
                }),
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
