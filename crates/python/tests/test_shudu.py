"""Tests of the `shudu` Python package against an independent oracle and the command line.

Run with `pytest crates/python/tests` after `pip install ./crates/python` (or `maturin develop`).
The comparisons with the command line use the `shudu` binary: `$SHUDU_BIN`, else
the newer of `target/release/shudu` and `target/debug/shudu` of this repository (`cargo build -p shudu`).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import shudu
from oracle import PEERS, completes, is_valid_grid, oracle_count  # noqa: F401

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(os.environ.get("SHUDU_DATA", ROOT.parent / "shared" / "data"))
CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def read_set(name: str, count: int):
    path = DATA / name
    assert path.exists(), f"data set {path} is missing (../shared/data beside the repository)"
    out = []
    with path.open() as f:
        for line in f:
            if line.startswith("#") or len(line.strip()) < 81:
                continue
            out.append(line.strip()[:81])
            if len(out) == count:
                break
    return out


def shudu_bin() -> str:
    env = os.environ.get("SHUDU_BIN")
    if env:
        return env
    # The newer of the two builds: an old release binary must not stand in for today's code.
    built = [p for p in (ROOT / "target" / profile / "shudu" for profile in ("release", "debug"))
             if p.exists()]
    if built:
        return str(max(built, key=lambda p: p.stat().st_mtime))
    pytest.fail("no shudu binary: run `cargo build -p shudu` or set SHUDU_BIN")


# ---------------------------------------------------------------------------------------------
# Solving

def test_solves_the_classic_to_a_valid_completion():
    grid = shudu.solve(CLASSIC)
    assert is_valid_grid(grid) and completes(CLASSIC, grid)
    assert shudu.count_solutions(CLASSIC) == 1
    assert shudu.is_unique(CLASSIC)


@pytest.mark.parametrize(
    "name, count", [("puzzles2_17_clue", 5), ("puzzles3_magictour_top1465", 12)]
)
def test_counts_agree_with_the_oracle_on_data_sets(name, count):
    # The oracle is plain Python backtracking: a few puzzles a set keep this test short.
    for p in read_set(name, count):
        assert shudu.count_solutions(p) == oracle_count(p) == 1
        grid = shudu.solve(p)
        assert is_valid_grid(grid) and completes(p, grid)


def test_counts_several_and_none():
    serg = read_set("puzzles7_serg_benchmark", 10)
    for p in serg:
        assert shudu.count_solutions(p) == oracle_count(p) == 2
    assert shudu.count_solutions("." * 81, limit=5) == 5
    # Two 5s in row 1: no solution, and no exception either (a count is a value).
    bad = "55" + "." * 79
    with pytest.raises(ValueError, match="row 1"):
        shudu.solve(bad)
    assert shudu.solve_array(np.array([[5, 5] + [0] * 79], dtype=np.uint8))[1][0] == 0
    unsolvable = "12345678." + "........9" + "." * 63
    assert shudu.solve(unsolvable) is None
    assert shudu.count_solutions(unsolvable) == oracle_count(unsolvable) == 0


def test_accepts_sequences_of_ints():
    cells = [0 if ch == "." else int(ch) for ch in CLASSIC]
    assert shudu.solve(cells) == shudu.solve(CLASSIC)
    assert shudu.solve(np.array(cells, dtype=np.uint8)) == shudu.solve(CLASSIC)


def test_bad_puzzles_raise_value_error_with_their_position():
    with pytest.raises(ValueError, match=r"column 3: found 'x'"):
        shudu.solve("12x" + "." * 78)
    with pytest.raises(ValueError, match="found 80 cells; expected 81"):
        shudu.count_solutions("." * 80)
    with pytest.raises(ValueError, match=r"cell 2 \(r1c2\): found 12"):
        shudu.solve([0, 12] + [0] * 79)


def test_solve_many_reports_a_bad_record_in_its_place():
    out = shudu.solve_many([CLASSIC, "x" * 81, "." * 81, [0] * 80])
    assert [r.status for r in out] == ["unique", "invalid", "multiple", "invalid"]
    assert "column 1" in out[1].error
    assert out[0].solution == shudu.solve(CLASSIC)
    assert out[3].error is not None and "81" in out[3].error
    first = shudu.solve_many([CLASSIC], limit=1)[0]
    assert first.status == "solved" and first.count == 1


def test_batch_calls_release_the_gil():
    puzzles = read_set("puzzles3_magictour_top1465", 1465) * 6
    ticks = 0
    done = threading.Event()

    def ticker():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    start = time.perf_counter()
    out = shudu.solve_many(puzzles)
    elapsed = time.perf_counter() - start
    done.set()
    t.join()
    assert all(r.status == "unique" for r in out)
    # While the batch ran, the Python thread kept running: with the GIL held it could not.
    if elapsed > 0.05:
        assert ticks >= 5, f"{ticks} ticks in {elapsed:.3f} s"


# ---------------------------------------------------------------------------------------------
# NumPy

def test_numpy_round_trip():
    puzzles = read_set("puzzles2_17_clue", 200)
    arr = shudu.to_array(puzzles)
    assert arr.shape == (200, 81) and arr.dtype == np.uint8
    assert shudu.from_array(arr) == puzzles
    solutions, counts = shudu.solve_array(arr)
    assert solutions.shape == (200, 81) and solutions.dtype == np.uint8
    assert counts.shape == (200,) and (counts == 1).all()
    for p, row in zip(puzzles, shudu.from_array(solutions)):
        assert is_valid_grid(row) and completes(p, row)
        assert row == shudu.solve(p)
    # Givens kept, every row a permutation of 1..9.
    mask = arr > 0
    assert (solutions[mask] == arr[mask]).all()
    assert (np.sort(solutions.reshape(-1, 9, 9), axis=2) == np.arange(1, 10)).all()


def test_numpy_bad_arrays_name_row_and_column():
    arr = np.zeros((3, 81), dtype=np.uint8)
    arr[2, 40] = 11
    with pytest.raises(ValueError, match="row 2, column 40: found 11"):
        shudu.solve_array(arr)
    with pytest.raises(ValueError, match=r"shape \(N, 81\)"):
        shudu.solve_array(np.zeros((2, 80), dtype=np.uint8))
    solutions, counts = shudu.solve_array(np.zeros((0, 81), dtype=np.uint8))
    assert solutions.shape == (0, 81) and counts.shape == (0,)


def test_unsolvable_rows_give_zero_rows_and_count():
    arr = shudu.to_array(["12345678." + "........9" + "." * 63, CLASSIC])
    solutions, counts = shudu.solve_array(arr)
    assert list(counts) == [0, 1]
    assert not solutions[0].any()


# ---------------------------------------------------------------------------------------------
# Grading, explaining, hints

def test_rate_matches_explain_and_the_cli():
    p = read_set("puzzles3_magictour_top1465", 1)[0]
    r = shudu.rate(p)
    e = shudu.explain(p)
    assert r == e.rating
    assert r.steps == len(e.steps)
    assert r.er == max(s.rating for s in e.steps)
    out = subprocess.run(
        [shudu_bin(), "grade", "--format", "json", "-"],
        input=p + "\n", capture_output=True, text=True, check=True,
    ).stdout
    record = json.loads(out.splitlines()[0])
    assert (record["er"], record["ep"], record["ed"], record["band"]) == (r.er, r.ep, r.ed, r.band)
    assert record["steps"] == r.steps


def test_explain_path_solves_the_puzzle():
    e = shudu.explain(CLASSIC)
    cells = list(CLASSIC)
    for step in e.steps:
        for cell, digit in step.placements:
            r, c = int(cell[1]) - 1, int(cell[3]) - 1
            cells[r * 9 + c] = str(digit)
    assert "".join(cells) == shudu.solve(CLASSIC)
    assert e.rating.band == "easy" and e.rating.solved


def test_rate_many_reports_bad_records_in_place():
    out = shudu.rate_many([CLASSIC, "bad"])
    assert isinstance(out[0], shudu.Rating) and isinstance(out[1], ValueError)


def test_hint_is_a_true_step():
    step = shudu.hint(CLASSIC)
    solution = shudu.solve(CLASSIC)
    assert step is not None and step.placements
    for cell, digit in step.placements:
        r, c = int(cell[1]) - 1, int(cell[3]) - 1
        assert solution[r * 9 + c] == str(digit)
    assert shudu.hint(CLASSIC, entries=solution) is None


def test_hint_marks_errors_name_the_cell():
    marks = [""] * 81
    marks[2] = "12x"
    with pytest.raises(ValueError, match=r"marks: cell r1c3 \(field 3\), character 3: found 'x'"):
        shudu.hint(CLASSIC, marks=marks)
    with pytest.raises(ValueError, match="found 2 cells; expected 81"):
        shudu.hint(CLASSIC, marks=["1", "2"])


def marks_line(fields) -> str:
    """The pencil-mark (729-character) line whose cell ``i`` has the candidates ``fields[i]``."""
    return "".join("".join(d if d in f else "." for d in "123456789") for f in fields)


def two_candidate_line() -> str:
    """No givens; every cell holds its digit of the classic's solution and its right-hand
    neighbour's (wrapping round the row): one grid keeps to these marks, while the empty grid's
    givens have every grid as a solution."""
    sol = shudu.solve(CLASSIC)
    return marks_line([sol[i] + sol[i - 8 if i % 9 == 8 else i + 1] for i in range(81)])


def test_pencil_mark_lines_are_solved_and_counted_under_their_marks():
    line = two_candidate_line()
    assert len(line) == 729
    assert shudu.solve(line) == shudu.solve(CLASSIC)
    assert shudu.count_solutions(line) == 1 and shudu.is_unique(line)
    assert shudu.count_solutions("." * 81) == 2  # the givens alone: many
    [solved] = shudu.solve_many([line])
    assert solved.count == 1 and solved.solution == shudu.solve(CLASSIC)
    # The classic's givens, every candidate elsewhere but in r1c3, whose marks leave out its
    # digit 4: no grid keeps to them.
    sol = shudu.solve(CLASSIC)
    fields = [c if c != "." else "123456789" for c in CLASSIC]
    fields[2] = "12"
    broken = marks_line(fields)
    assert shudu.solve(broken) is None and shudu.count_solutions(broken) == 0
    # The CLI agrees.
    out = subprocess.run(
        [shudu_bin(), "solve", "-"], input=line + "\n", capture_output=True, text=True, check=True,
    ).stdout
    assert out.split()[0] == sol


def test_pencil_mark_lines_are_rated_explained_and_hinted_from_their_marks():
    line = two_candidate_line()
    r = shudu.rate(line)
    e = shudu.explain(line)
    assert r == e.rating and r.solved and r.steps == len(e.steps)
    assert shudu.rate_many([line]) == [r]
    # From the marks, the path is short and easy; from no givens there would be no path at all.
    assert r.er < shudu.rate(CLASSIC).er + 5
    with pytest.raises(ValueError, match="more than one solution"):
        shudu.rate("." * 81)
    out = subprocess.run(
        [shudu_bin(), "grade", "--format", "json", "-"],
        input=line + "\n", capture_output=True, text=True, check=True,
    ).stdout
    record = json.loads(out.splitlines()[0])
    assert (record["er"], record["ep"], record["ed"], record["band"]) == (r.er, r.ep, r.ed, r.band)
    assert record["steps"] == r.steps
    sol = shudu.solve(CLASSIC)
    step = shudu.hint(line)
    assert step is not None and step.placements
    for cell, digit in step.placements:
        assert sol[(int(cell[1]) - 1) * 9 + int(cell[3]) - 1] == str(digit)
    with pytest.raises(ValueError, match="give them once"):
        shudu.hint(line, marks=[""] * 81)


# ---------------------------------------------------------------------------------------------
# Generation

def test_generated_puzzles_are_unique_by_the_oracle():
    out = shudu.generate(8, givens=30, symmetry="rot180", seed=11)
    assert len(out) == 8
    for g in out:
        assert sum(ch != "." for ch in g.puzzle) == 30
        assert oracle_count(g.puzzle) == 1
        assert is_valid_grid(g.solution) and completes(g.puzzle, g.solution)
        assert all(
            (g.puzzle[i] == ".") == (g.puzzle[80 - i] == ".") for i in range(81)
        ), "rot180 symmetry"


def test_minimal_puzzles_lose_uniqueness_without_any_given():
    for g in shudu.generate(3, minimal=True, seed=5):
        assert oracle_count(g.puzzle) == 1
        for i, ch in enumerate(g.puzzle):
            if ch != ".":
                assert shudu.count_solutions(g.puzzle[:i] + "." + g.puzzle[i + 1:]) == 2


def _half_turn_automorphic(puzzle: str) -> bool:
    """Whether a half turn plus one renaming of the digits maps the puzzle to itself."""
    sigma = {}
    for i in range(81):
        a, b = puzzle[i], puzzle[80 - i]
        if (a == ".") != (b == "."):
            return False
        if a != "." and sigma.setdefault(a, b) != b:
            return False
    return len(set(sigma.values())) == len(sigma)


def test_automorphic_is_opt_in_and_keeps_strict_minimality():
    plain = shudu.generate(12, symmetry="rot180", minimal=True, seed=17)
    assert sum(_half_turn_automorphic(g.puzzle) for g in plain) <= 1
    auto = shudu.generate(12, symmetry="rot180", minimal=True, seed=17, automorphic=True)
    assert sum(_half_turn_automorphic(g.puzzle) for g in auto) >= 9
    for g in auto[:4]:
        assert oracle_count(g.puzzle) == 1
        assert completes(g.puzzle, g.solution)
        for i, ch in enumerate(g.puzzle):
            if ch != ".":
                assert shudu.count_solutions(g.puzzle[:i] + "." + g.puzzle[i + 1:]) == 2
    with pytest.raises(ValueError, match="rot180"):
        shudu.generate(1, minimal=True, automorphic=True, seed=1)


def test_same_seed_same_puzzles_as_the_cli():
    ours = shudu.generate(5, givens=(28, 32), seed=2024)
    assert ours == shudu.generate(5, givens=(28, 32), seed=2024)
    assert ours != shudu.generate(5, givens=(28, 32), seed=2025)
    cli = subprocess.run(
        [shudu_bin(), "generate", "-n", "5", "--givens", "28..32", "--seed", "2024"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert [g.puzzle for g in ours] == cli


def test_difficulty_puts_ratings_in_the_band():
    for g in shudu.generate(3, difficulty="fiendish", seed=3):
        r = shudu.rate(g.puzzle)
        assert r.band == "fiendish" and 4.1 <= r.er <= 6.1
        assert oracle_count(g.puzzle) == 1
    for g in shudu.generate(2, rating=(2.0, 4.0), seed=4):
        assert 2.0 <= shudu.rate(g.puzzle).er <= 4.0


def test_impossible_requests_raise_value_error():
    with pytest.raises(ValueError, match="too few"):
        shudu.generate(1, givens=16, seed=1)
    with pytest.raises(ValueError, match="symmetry"):
        shudu.generate(1, symmetry="spiral", seed=1)
    with pytest.raises(ValueError, match="band|difficulty"):
        shudu.generate(1, difficulty="impossible", seed=1)


def test_shards_concatenate_to_one_run_and_are_the_cli_s_shards():
    whole = shudu.generate(7, givens=(27, 31), seed=99)
    assert [g.item for g in whole] == list(range(7))
    parts = [shudu.generate(7, givens=(27, 31), seed=99, shard=(i, 3)) for i in range(3)]
    assert [len(p) for p in parts] == [len(shudu.shard_items(7, i, 3)) for i in range(3)] == [2, 2, 3]
    assert sum(parts, []) == whole
    for i in range(3):
        cli = subprocess.run(
            [shudu_bin(), "generate", "-n", "7", "--givens", "27..31", "--seed", "99",
             "--shard", f"{i}/3"],
            capture_output=True, text=True, check=True,
        ).stdout.split()
        assert [g.puzzle for g in parts[i]] == cli
    with pytest.raises(ValueError, match="shard"):
        shudu.generate(7, seed=99, shard=(3, 3))


def test_iter_generate_streams_in_item_order_and_says_how_it_went():
    it = shudu.iter_generate(9, givens=30, seed=5, wave=2)
    assert it.found is None
    got = list(it)
    assert got == shudu.generate(9, givens=30, seed=5)
    assert (it.found, it.requested, it.timed_out) == (9, 9, False)
    assert it.grids_tried >= 9 and it.seconds >= 0
    # Dropping a stream early stops it without error.
    first = next(iter(shudu.iter_generate(10**9, seed=1, wave=1)))
    assert first.item == 0 and oracle_count(first.puzzle) == 1


def test_rated_generation_carries_each_puzzle_s_rating():
    for g in shudu.generate(3, difficulty="hard", seed=8):
        assert g.rating is not None and g.rating.band == "hard"
        assert g.rating == shudu.rate(g.puzzle)
    assert all(g.rating is None for g in shudu.generate(2, seed=8))


def test_needs_gives_puzzles_whose_path_uses_the_technique():
    out = shudu.generate(3, needs="xy-wing", without=["chains"], seed=21, timeout=60)
    assert len(out) == 3
    for g in out:
        assert oracle_count(g.puzzle) == 1
        techniques = [s.technique for s in shudu.explain(g.puzzle).steps]
        assert "XY-Wing" in techniques
        assert not any("Chain" in t or "Cycle" in t or t == "Turbot Fish" for t in techniques)
        assert g.rating == shudu.rate(g.puzzle)
    # The same seed gives the same puzzles, as the CLI's.
    assert [g.puzzle for g in out] == [
        g.puzzle for g in shudu.generate(3, needs=["xy-wing"], without="chains", seed=21)
    ]
    cli = subprocess.run(
        [shudu_bin(), "generate", "-n", "3", "--needs", "xy-wing", "--without", "chains",
         "--seed", "21"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert cli == [g.puzzle for g in out]


def test_needs_refuses_unknown_and_contradictory_names():
    with pytest.raises(ValueError, match="unknown technique 'x-wingz'.*x-wing"):
        shudu.generate(1, needs="x-wingz")
    with pytest.raises(ValueError, match="exclude each other"):
        shudu.generate(1, needs="x-wing", without="fish")


def test_version_is_the_crate_s():
    assert shudu.__version__.count(".") == 2


# ---------------------------------------------------------------------------------------------
# Grids

def test_grids_are_valid_distinct_and_the_cli_s():
    out = shudu.grids(2000, seed=9, first_digit=1)
    assert len(out) == len(set(out)) == 2000
    assert all(g[0] == "1" for g in out)
    assert all(is_valid_grid(g) for g in out[:50])
    cli = subprocess.run(
        [shudu_bin(), "grids", "-n", "2000", "--seed", "9", "--first-digit", "1"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert out == cli


def test_iter_grids_streams_the_same_grids_in_small_waves():
    streamed = shudu.iter_grids(3000, seed=4, wave=256)
    first = next(streamed)
    rest = list(streamed)
    assert [first] + rest == shudu.grids(3000, seed=4)
    with pytest.raises(ValueError, match="first_digit 0"):
        shudu.grids(1, seed=1, first_digit=0)


def test_grid_shards_concatenate_to_the_cli_s_batch():
    whole = shudu.grids(30, seed=4)
    parts = [shudu.grids(30, seed=4, shard=(i, 4)) for i in range(4)]
    assert sum(parts, []) == whole and len(set(whole)) == 30
    cli = subprocess.run(
        [shudu_bin(), "grids", "-n", "30", "--seed", "4", "--shard", "2/4"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert cli == parts[2]


def test_uniform_grids_are_the_cli_s_and_refuse_shards():
    out = shudu.grids(500, seed=12, uniform=True)
    assert len(set(out)) == 500
    assert all(is_valid_grid(g) for g in out[:50])
    cli = subprocess.run(
        [shudu_bin(), "grids", "-n", "500", "--seed", "12", "--uniform"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert out == cli
    with pytest.raises(ValueError, match="sharded"):
        shudu.grids(10, seed=1, uniform=True, shard=(0, 2))


# ---------------------------------------------------------------------------------------------
# Equivalence classes

MOST_SYMMETRIC = (
    "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
)


def disguise(board: str) -> str:
    """The board transposed, digits 1 and 2 swapped, the first two bands swapped."""
    out = []
    for i in range(81):
        r, c = divmod(i, 9)
        r = r + 3 if r < 3 else r - 3 if r < 6 else r
        v = board[c * 9 + r]
        out.append({"1": "2", "2": "1"}.get(v, v))
    return "".join(out)


def test_canonical_forms_tell_disguises_and_match_the_cli():
    grid = shudu.solve(CLASSIC)
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    for board in (grid, puzzle):
        c = shudu.canonical(board)
        assert c == shudu.canonical(disguise(board))
        assert c.form == shudu.canonical(c.form).form
    assert shudu.canonical(grid).form.startswith("123456789")
    assert shudu.canonical(MOST_SYMMETRIC).automorphisms == 648
    boards = [grid, disguise(grid), puzzle, "12x"]
    many = shudu.canonical_many(boards)
    assert many[0] == many[1] == shudu.canonical(grid)
    assert isinstance(many[3], ValueError)
    cli = subprocess.run(
        [shudu_bin(), "canon", "--automorphisms"],
        input="\n".join(boards[:3]) + "\n", capture_output=True, text=True, check=True,
    ).stdout.split("\n")
    assert [line.split()[0] for line in cli if line] == [m.form for m in many[:3]]
    with pytest.raises(ValueError):
        shudu.canonical("1" * 80)


def test_count_grids_is_computed():
    assert shudu.count_grids() == 6_670_903_752_021_072_936_960
