#!/usr/bin/env python3
"""Measures grading against Sudoku Explainer and rewrites its section of BENCHMARKS.md (`se`).

`shudu grade --threads 1` on the puzzles of the forum's hardest lists in
`crates/core/tests/data/se_hardest.tsv` (their `source` starts with `forum`), whose `se_cpu_s`
column is Sudoku Explainer's CPU time for each (serate, measured when the file was made). CPU
time of each run (user + system, from the kernel's accounting of the child), median of
`--runs`; every run's ratings must equal SE's (ER/EP/ED), or the script fails.

    cargo build --release && scripts/bench --only se   (or python3 scripts/grade_se.py)
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import children_cpu as cpu, stamp, write_section  # noqa: E402

TSV = "crates/core/tests/data/se_hardest.tsv"



def rows(path):
    header, out = None, []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        if header is None:
            header = fields
            continue
        row = dict(zip(header, fields))
        if row["source"].startswith("forum"):
            out.append(row)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shudu", default="target/release/shudu")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    data = rows(TSV)
    se_cpu = sum(float(r["se_cpu_s"]) for r in data)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(r["puzzle"] + "\n" for r in data))
        puzzles = f.name
    times = []
    for run in range(args.runs):
        before = cpu()
        out = subprocess.run([args.shudu, "grade", "--threads", "1", puzzles],
                             capture_output=True, text=True)
        spent = cpu() - before
        if out.returncode != 0:
            sys.exit(f"shudu grade failed: {out.stderr}")
        got = [line.split()[1] for line in out.stdout.splitlines()]
        want = [f"{r['er']}/{r['ep']}/{r['ed']}" for r in data]
        wrong = [(r["puzzle"], g, w) for r, g, w in zip(data, got, want) if g != w]
        if len(got) != len(want) or wrong:
            sys.exit(f"ratings differ from SE's: {wrong[:5]} ({len(got)} of {len(want)} lines)")
        times.append(spent)
        print(f"run {run + 1}: {spent:.2f} CPU-s, {se_cpu / spent:.0f}x SE", file=sys.stderr)
    os.unlink(puzzles)

    median = statistics.median(times)
    write_section("se", [
        stamp("scripts/bench --only se") + f" The {len(data)} forum puzzles of `{TSV}`;",
        "Sudoku Explainer's CPU time is that file's `se_cpu_s` column (serate 1.2.1, measured when the file",
        f"was made, as its header says: the 74 take SE 3.6 hours). CPU time of each run, median of {args.runs}; every run's",
        "ER/EP/ED equal SE's.",
        "",
        "| command | shudu (median CPU-s) | Sudoku Explainer serate (CPU-s) | ratio | asked |",
        "|---|---|---|---|---|",
        f"| `shudu grade --threads 1 forum{len(data)}.txt` | {median:.2f} (runs {min(times):.2f}-{max(times):.2f}) "
        f"| {se_cpu:,.1f} | **{se_cpu / median:.0f}x** | >= 300x |",
    ])

if __name__ == "__main__":
    main()
