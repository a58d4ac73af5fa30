"""Per-call overhead of the Python package against batch calls (not a test: a measurement).

    python crates/python/bench/overhead.py [DATA_DIR]

Prints, for the first 10,000 puzzles of two data sets, single `solve`/`count_solutions` calls a
second from a Python loop, and puzzles a second through `solve_many` and `solve_array` (one call
for the whole batch, on every core unless RAYON_NUM_THREADS is set). Compare with the Rust
figure of `cargo bench -p shudu-core --bench solver` (BENCHMARKS.md).
"""

import os
import statistics
import sys
import time
from pathlib import Path

import shudu

DATA = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3].parent / "shared" / "data"


def load(name, count=10_000):
    out = []
    with (DATA / name).open() as f:
        for line in f:
            if not line.startswith("#") and len(line.strip()) >= 81:
                out.append(line.strip()[:81])
                if len(out) == count:
                    break
    return out


def rate(fn, n, repeat=5):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return n / statistics.median(times)


def main():
    threads = os.environ.get("RAYON_NUM_THREADS", "all")
    for name in ("puzzles2_17_clue", "puzzles3_magictour_top1465"):
        puzzles = load(name)
        arr = shudu.to_array(puzzles)
        n = len(puzzles)
        loop_count = rate(lambda: [shudu.count_solutions(p) for p in puzzles], n)
        loop_solve = rate(lambda: [shudu.solve(p) for p in puzzles], n)
        many = rate(lambda: shudu.solve_many(puzzles), n)
        array = rate(lambda: shudu.solve_array(arr), n)
        print(f"{name} ({n} puzzles, rayon threads: {threads})")
        print(f"  count_solutions in a Python loop: {loop_count:12,.0f} puzzles/s")
        print(f"  solve in a Python loop:           {loop_solve:12,.0f} puzzles/s")
        print(f"  solve_many (one call):            {many:12,.0f} puzzles/s")
        print(f"  solve_array (one call, NumPy):    {array:12,.0f} puzzles/s")
    # The bare cost of a call: a solved grid, which the solver finishes at once.
    grid = shudu.solve(load("puzzles2_17_clue", 1)[0])
    n = 100_000
    per_call = rate(lambda: [shudu.count_solutions(grid) for _ in range(n)], n)
    print(f"count_solutions on a full grid (call overhead bound): {per_call:,.0f} calls/s")


if __name__ == "__main__":
    main()
