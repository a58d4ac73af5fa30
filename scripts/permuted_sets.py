#!/usr/bin/env python3
"""Writes the solver comparison sets of BENCHMARKS.md: for each data set, N puzzles drawn with
replacement, each under a random symmetry of the grid (digits relabelled, bands, stacks, rows
within a band and columns within a stack permuted, and transposed half the time), one 81-character
puzzle a line with '.' for empty cells. Every solver in a side-by-side run reads the same files,
so the order in which cells and digits are seen does not favour any of them.

    python3 scripts/permuted_sets.py OUT_DIR [N] [SEED]

N defaults to 50000, SEED to 2026. Sets are read from ../shared/data (SHUDU_DATA overrides).
"""

import os
import random
import sys

SETS = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "generated_tdoku_minimal_100k",
]


def read_puzzles(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cells = line[:81]
            if len(cells) == 81:
                out.append(cells)
    return out


def line_order(rng):
    """A permutation of 0..9 that keeps the three groups of three together."""
    groups = [0, 1, 2]
    rng.shuffle(groups)
    order = []
    for g in groups:
        inner = [0, 1, 2]
        rng.shuffle(inner)
        order += [3 * g + i for i in inner]
    return order


def permute(puzzle, rng):
    digits = list("123456789")
    rng.shuffle(digits)
    relabel = {str(i + 1): digits[i] for i in range(9)}
    rows, cols = line_order(rng), line_order(rng)
    transpose = rng.random() < 0.5
    out = []
    for r in range(9):
        for c in range(9):
            rr, cc = rows[r], cols[c]
            if transpose:
                rr, cc = cc, rr
            v = puzzle[9 * rr + cc]
            out.append(relabel.get(v, "."))
    return "".join(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out_dir = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2026
    data = os.environ.get(
        "SHUDU_DATA", os.path.join(os.path.dirname(__file__), "../../shared/data")
    )
    os.makedirs(out_dir, exist_ok=True)
    for name in SETS:
        rng = random.Random(f"{seed}/{name}")
        puzzles = read_puzzles(os.path.join(data, name))
        with open(os.path.join(out_dir, name), "w") as f:
            for _ in range(n):
                f.write(permute(rng.choice(puzzles), rng) + "\n")


if __name__ == "__main__":
    main()
