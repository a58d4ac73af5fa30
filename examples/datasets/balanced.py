"""Builds a balanced Sudoku dataset for training or evaluating reasoning models: equal counts
of puzzles per band, each with its solution, SE ratings and step-by-step solving path, written
as one Parquet file (schema: ``shudu.trace_schema``; see crates/python/README.md).

    python examples/datasets/balanced.py --count 100000 --seed 7 --out sudoku.parquet

The default bands are easy to diabolical: puzzles of the extreme band (SE 9.0 and up) take
about half a second each on one core (BENCHMARKS.md), so ``--bands ...,extreme`` adds hours.
Load it back with:

    import pandas as pd; df = pd.read_parquet("sudoku.parquet")
    import datasets; ds = datasets.Dataset.from_parquet("sudoku.parquet")
"""

from __future__ import annotations

import argparse
import time

import pyarrow as pa
import pyarrow.parquet as pq

import shudu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100_000, help="puzzles in all")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bands", default="easy,medium,hard,fiendish,diabolical")
    ap.add_argument("--out", default="sudoku.parquet")
    args = ap.parse_args()

    bands = args.bands.split(",")
    start = time.time()
    tables = []
    for k, band in enumerate(bands):
        # Each band its own batch (seed + k), so the count per band is exact.
        n = args.count // len(bands) + (k < args.count % len(bands))
        t = shudu.dataset(n, difficulty=band, seed=args.seed + k, timeout=None)
        tables.append(t.append_column("batch", pa.array([k] * t.num_rows, pa.int16())))
        print(f"{band}: {t.num_rows} puzzles, {time.time() - start:.1f} s")
    table = pa.concat_tables(tables)
    pq.write_table(table, args.out, compression="zstd")
    print(f"{args.out}: {table.num_rows} puzzles in {time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
