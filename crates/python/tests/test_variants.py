"""Tests of the variant functions of the `shudu` Python package (other sizes, X, jigsaw, killer):
generated puzzles checked by an oracle written here (plain backtracking over rows, columns,
boxes and diagonals; no code shared with shudu's engine), the same puzzles as the command line
for the same seed, and bad arguments raising errors that name them."""

from __future__ import annotations

import subprocess
import warnings

import pytest

import shudu
from test_shudu import shudu_bin

BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3)}
SYMBOLS = "123456789ABCDEFG"


def houses(n: int, x: bool):
    br, bc = BOXES[n]
    out = [[r * n + c for c in range(n)] for r in range(n)]
    out += [[r * n + c for r in range(n)] for c in range(n)]
    out += [
        [(r0 + dr) * n + c0 + dc for dr in range(br) for dc in range(bc)]
        for r0 in range(0, n, br)
        for c0 in range(0, n, bc)
    ]
    if x:
        out += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    return out


def cells_of(line: str):
    return [0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1 for ch in line]


def valid(n: int, x: bool, line: str) -> bool:
    g = cells_of(line)
    return all(sorted(g[i] for i in h) == list(range(1, n + 1)) for h in houses(n, x))


def oracle_count(n: int, x: bool, line: str, limit: int = 2) -> int:
    g = cells_of(line)
    hs = houses(n, x)
    peers = [set() for _ in range(n * n)]
    for h in hs:
        for i in h:
            peers[i].update(j for j in h if j != i)
    count = 0

    def search():
        nonlocal count
        best, options = None, None
        for i in range(n * n):
            if g[i] == 0:
                fit = [d for d in range(1, n + 1) if all(g[j] != d for j in peers[i])]
                if options is None or len(fit) < len(options):
                    best, options = i, fit
        if best is None:
            count += 1
            return
        for d in options:
            g[best] = d
            search()
            g[best] = 0
            if count >= limit:
                return

    search()
    return count


@pytest.mark.parametrize("n,variant", [(4, ()), (6, ("x",)), (6, ()), (4, ("x",))])
def test_generated_variants_are_unique_for_the_oracle(n, variant):
    made = shudu.generate_variants(6, size=n, variant=variant, seed=5)
    assert [g.item for g in made] == list(range(6))
    for g in made:
        assert g.size == n and len(g.puzzle) == n * n
        assert valid(n, "x" in variant, g.solution), g
        assert all(p in ".0" or p == s for p, s in zip(g.puzzle, g.solution))
        assert oracle_count(n, "x" in variant, g.puzzle) == 1, g.puzzle
        assert shudu.count_variant_solutions(g.puzzle, n, variant) == 1
        assert shudu.solve_variant(g.puzzle, n, list(variant)) == g.solution
        # The link carries the rules: read back with no size or variant, the same answer.
        assert shudu.solve_variant(g.link) == g.solution


def test_counts_agree_with_the_oracle_on_puzzles_with_several_solutions():
    g = shudu.generate_variants(1, size=6, variant="x", seed=9)[0]
    for k in range(0, 36, 3):
        # Keep only the first k givens: mostly several solutions, then one.
        line = "".join(ch if i < k else "." for i, ch in enumerate(g.puzzle))
        want = oracle_count(6, True, line, limit=3)
        assert shudu.count_variant_solutions(line, 6, "x", limit=3) == want, line


def test_same_seed_same_puzzles_as_the_command_line():
    for args, kwargs in [
        (["--size", "6", "--variant", "x"], dict(size=6, variant="x")),
        (["--size", "6", "--variant", "jigsaw"], dict(size=6, variant="jigsaw")),
        (["--size", "6", "--variant", "killer", "--cages", "4"],
         dict(size=6, variant="killer", cages=4)),
        (["--size", "8", "--givens", "30", "--symmetry", "rot180"],
         dict(size=8, givens=30, symmetry="rot180")),
    ]:
        out = subprocess.run(
            [shudu_bin(), "generate", "-n", "4", "--seed", "21", *args],
            capture_output=True, text=True, check=True,
        ).stdout.split()
        made = shudu.generate_variants(4, seed=21, **kwargs)
        mine = [g.puzzle if g.puzzle is not None else g.link for g in made]
        assert mine == out, args


def test_jigsaw_and_killer_come_as_links_with_one_solution():
    for variant in ("jigsaw", "killer", ["killer", "x"]):
        for g in shudu.generate_variants(3, size=6, variant=variant, seed=2):
            assert g.puzzle is None
            assert g.link.startswith("https://f-puzzles.com/?load=")
            assert shudu.count_variant_solutions(g) == 1
            assert shudu.solve_variant(g.link) == g.solution


def test_bad_arguments_name_what_is_wrong():
    cases = [
        (lambda: shudu.count_variant_solutions("." * 36, 6, "hexagon"), "unknown variant 'hexagon'"),
        (lambda: shudu.solve_variant("." * 35, 6), "35 cells, expected 36"),
        (lambda: shudu.solve_variant("1" * 16 + "X", 4), "column 17: 'X' is not a digit of a 4×4"),
        (lambda: shudu.generate_variants(1, size=7), "size: size 7 has no boxes"),
        (lambda: shudu.generate_variants(1, size=6, givens=40), "givens 40"),
        (lambda: shudu.generate_variants(1, size=6, variant="x", cages=3), "cages: only for killer"),
        (lambda: shudu.generate_variants(1, size=6, variant="killer", cages=9), "cages 9"),
        (lambda: shudu.generate_variants(1, variant="windoku", size=6), "windoku needs size 9"),
        (lambda: shudu.generate_variants(1, size=6, symmetry="spiral"), "unknown symmetry"),
        (lambda: shudu.solve_variant("." * 36, 6, "jigsaw"), "do not fit in the line format"),
        (lambda: shudu.solve_variant("https://f-puzzles.com/?load=zzz"), "f-puzzles"),
        (lambda: shudu.solve_variant("{}", size=6), "brings its own rules"),
        (lambda: shudu.generate_variants(1, size=4, timeout=-1), "timeout"),
    ]
    for call, expected in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert expected in str(e.value), (expected, str(e.value))
    with pytest.raises(TypeError):
        shudu.solve_variant(None)
    with pytest.raises(TypeError):
        shudu.generate_variants(1, variant=3)


def test_a_budget_returns_what_was_found():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an explicit timeout never warns
        assert shudu.generate_variants(5, size=16, seed=1, timeout=0) == []
    old = shudu.DEFAULT_TIMEOUT
    shudu.DEFAULT_TIMEOUT = 0.0
    try:
        with pytest.warns(RuntimeWarning, match="default time budget"):
            assert shudu.generate_variants(3, size=16, seed=1) == []
    finally:
        shudu.DEFAULT_TIMEOUT = old


def test_junk_raises_value_error_never_anything_else():
    import random

    rng = random.Random(4)
    alphabet = "0123456789ABCDEFGHabcdefg.-_{}[]\":,xyz/+= "
    for _ in range(400):
        size = rng.choice([4, 6, 8, 9, 12, 16])
        length = rng.choice([size * size, size * size - 1, rng.randrange(0, 300)])
        text = "".join(rng.choice(alphabet) for _ in range(length))
        text = rng.choice(["", "{", "https://f-puzzles.com/?load="]) + text
        try:
            shudu.count_variant_solutions(text, **({} if text[:1] in "{h" else {"size": size}))
        except ValueError:
            pass


def test_rate_variant_gives_se_scale_ratings_and_refuses_what_it_cannot_rate():
    made = shudu.generate_variants(3, size=6, variant="x", seed=4)
    for p in made:
        r = shudu.rate_variant(p.puzzle, size=6, variant="x")
        assert r.solved and 1.0 <= r.er <= 12.0 and r.ed <= r.ep <= r.er
        assert r.band in ("easy", "medium", "hard", "fiendish", "diabolical", "extreme")
        assert r.steps > 0 and r.techniques
    # A killer from its f-puzzles link: cage combinations on its path.
    killer = shudu.generate_variants(1, size=6, variant="killer", seed=2)[0]
    r = shudu.rate_variant(killer)
    assert any(t == "Cage Combination" for t, _ in r.techniques)
    # A classic 9x9 takes SE's rating, as shudu.rate gives it.
    line = "...9....3..1....78..7.3.21.......75...25....1.........7..8.5..4.59....8.32..1...9"
    assert shudu.rate_variant(line).er == shudu.rate(line).er == 1.5
    with pytest.raises(ValueError, match="more than one solution"):
        shudu.rate_variant("." * 16, size=4)
    with pytest.raises(ValueError, match="timeout"):
        shudu.rate_variant(made[0].puzzle, size=6, variant="x", timeout=0)
    with pytest.raises(TypeError):
        shudu.rate_variant(made[0].puzzle, size=6, variant="x", timeout="1")
