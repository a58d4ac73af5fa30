use super::*;
use crate::variant::Cage;

#[test]
fn fillings_of_a_cage_keep_to_its_sum() {
    let rules = Rules::classic(9).unwrap();
    let l = Layout::new(&rules);
    let all = vec![0x1FFu16; 81];
    // Two cells of a row adding up to 3: 1 and 2, in either order.
    let (allowed, sets) = killer::fillings(&l, &all, &[0, 1], 3, true).unwrap();
    assert_eq!(allowed, vec![0b11, 0b11]);
    assert_eq!(sets, vec![0b11]);
    // Three cells adding up to 24: 7+8+9 only.
    let (allowed, _) = killer::fillings(&l, &all, &[0, 1, 2], 24, true).unwrap();
    assert!(allowed.iter().all(|&a| a == 0b1_1100_0000));
    // Cells that do not see each other may repeat a digit: r1c1 and r2c4 adding up to 2.
    let (allowed, _) = killer::fillings(&l, &all, &[0, 12], 2, false).unwrap();
    assert_eq!(allowed, vec![1, 1]);
    assert!(killer::fillings(&l, &all, &[0, 1], 2, true).is_none());
}

#[test]
fn house_names_and_kinds() {
    let rules = Rules::classic(9)
        .unwrap()
        .with_diagonals()
        .with_windoku()
        .unwrap();
    let hs = houses(&rules);
    assert_eq!(hs.len(), 27 + 2 + 4);
    assert_eq!(hs[0].name(), "row 1");
    assert_eq!(hs[9].name(), "column 1");
    assert_eq!(hs[18].name(), "box 1");
    assert_eq!(hs[27].name(), "the diagonal");
    assert_eq!(hs[28].name(), "the anti-diagonal");
    assert_eq!(hs[29].name(), "window 1");
    assert!(hs[29].kind.is_box() && !hs[27].kind.is_box());
}

#[test]
fn a_cage_alone_gives_its_digits() {
    // 4x4 killer: r1c1 + r1c2 = 3 leaves them 1 and 2, the first step.
    let rules = Rules::classic(4)
        .unwrap()
        .with_cages(vec![Cage {
            cells: vec![0, 1],
            sum: Some(3),
        }])
        .unwrap();
    let p = VariantPuzzle::parse_line(rules.clone(), "................").unwrap();
    let step = next_step_of(&rules, p.cells(), None, Instant::now() + GRADE_BUDGET).unwrap();
    assert_eq!(step.technique, "Cage Combination");
    let mut e = step.eliminations.clone();
    e.sort_unstable();
    assert_eq!(e, vec![(0, 3), (0, 4), (1, 3), (1, 4)]);
    assert!(step.text.contains("1+2"), "{}", step.text);
}

#[test]
fn an_innie_is_placed() {
    // 4x4: row 1 adds up to 10; a cage r1c1-r1c3 of 6 leaves r1c4 = 4.
    let rules = Rules::classic(4)
        .unwrap()
        .with_cages(vec![Cage {
            cells: vec![0, 1, 2],
            sum: Some(6),
        }])
        .unwrap();
    let layout = Layout::new(&rules);
    let board = Board::new(&layout, &[0; 16]);
    let step = killer::innies_outies(&layout, &board, true).unwrap();
    assert_eq!(step.technique, "Innie");
    assert_eq!(step.placements, vec![(3, 4)]);
}

#[test]
fn classic_puzzles_take_se_s_rating() {
    let line = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9";
    let p = VariantPuzzle::parse_line(Rules::classic(9).unwrap(), line).unwrap();
    let g = grade(&p);
    assert!(g.solved);
    assert_eq!(g.er, Rating(15));
    assert_eq!(g.er, crate::logic::grade(&line.parse().unwrap()).er);
}
