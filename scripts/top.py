#!/usr/bin/env python3
"""Measures the top of the difficulty scale and rewrites its section of BENCHMARKS.md (`top`).

One thread (`--threads 1`), CPU time of each `shudu generate` (user + system, from the kernel's
accounting of the child), ten runs with seeds 1..10 each; every puzzle is rated again by
`shudu grade` (not counted):

* extreme: `generate -n 20 --difficulty extreme`: puzzles per CPU-second, and the run's median ER;
* `generate -n 3 --rating 10.0..10.9`: puzzles per CPU-minute;
* `generate -n 1 --rating 11.0.. --timeout 30m`: CPU seconds to the first puzzle.

    cargo build --release && scripts/bench --only top   (or python3 scripts/top.py)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import children_cpu as cpu, stamp, write_section  # noqa: E402




def generate(shudu, args, seed):
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as f:
        path = f.name
    before = cpu()
    out = subprocess.run([shudu, "generate", *args, "--threads", "1", "--seed", str(seed), "-o", path],
                         capture_output=True, text=True)
    spent = cpu() - before
    if out.returncode not in (0, 1):
        sys.exit(f"generate {args} failed: {out.stderr}")
    graded = subprocess.run([shudu, "grade", "--format", "json", path], capture_output=True, text=True)
    os.unlink(path)
    ers = [json.loads(l)["er"] for l in graded.stdout.splitlines() if l.strip()]
    return spent, ers


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shudu", default="target/release/shudu")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    seeds = range(1, args.runs + 1)
    rows = []

    rates, medians, all_ers = [], [], []
    for s in seeds:
        spent, ers = generate(args.shudu, ["-n", "20", "--difficulty", "extreme"], s)
        rates.append(len(ers) / spent)
        medians.append(round(statistics.median(ers), 2))
        all_ers += ers
        print(f"extreme seed {s}: {len(ers)} in {spent:.2f} CPU-s, median ER {statistics.median(ers)}", file=sys.stderr)
    rows.append(("`generate -n 20 --difficulty extreme --threads 1 --seed S`",
                 f"{statistics.median(rates):.2f} puzzles/s (runs {min(rates):.2f}-{max(rates):.2f}); "
                 f"median ER {round(statistics.median(medians), 2)} (runs {min(medians)}-{max(medians)}); "
                 f"ER {min(all_ers)}-{max(all_ers)}, {sum(e >= 10 for e in all_ers)} of {len(all_ers)} at 10.0+",
                 ">= 1 puzzle/s, median ER >= 9.3"))

    per_min, ten = [], []
    for s in seeds:
        spent, ers = generate(args.shudu, ["-n", "3", "--rating", "10.0..10.9"], s)
        per_min.append(60 * len(ers) / spent)
        ten += ers
        print(f"10.0..10.9 seed {s}: {len(ers)} in {spent:.2f} CPU-s", file=sys.stderr)
    rows.append(("`generate -n 3 --rating 10.0..10.9 --threads 1 --seed S`",
                 f"{statistics.median(per_min):.0f} puzzles/min (runs {min(per_min):.0f}-{max(per_min):.0f}); "
                 f"ER {min(ten)}-{max(ten)}", ">= 1 puzzle/min"))

    firsts, eleven = [], []
    for s in seeds:
        spent, ers = generate(args.shudu, ["-n", "1", "--rating", "11.0..", "--timeout", "30m"], s)
        if ers:
            firsts.append(spent)
            eleven += ers
        print(f"11.0.. seed {s}: {ers} in {spent:.2f} CPU-s", file=sys.stderr)
    rows.append(("`generate -n 1 --rating 11.0.. --timeout 30m --threads 1 --seed S`",
                 f"found in {len(firsts)} of {args.runs} runs, median {statistics.median(firsts):.1f} CPU-s "
                 f"(runs {min(firsts):.1f}-{max(firsts):.1f}); ER {min(eleven)}-{max(eleven)}"
                 if firsts else f"none in {args.runs} runs", "one puzzle >= 11.0 within 30 min"))

    section = [stamp("scripts/bench --only top") + " One thread, "
               f"{args.runs} runs with seeds 1-{args.runs}, CPU time of each command; every puzzle rated "
               "again by `shudu grade`.", "",
               "| command | measured (median of the runs) | asked |", "|---|---|---|"]
    section += [f"| {c} | {m} | {t} |" for c, m, t in rows]
    write_section("top", section)

if __name__ == "__main__":
    main()
