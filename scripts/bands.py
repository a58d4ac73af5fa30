#!/usr/bin/env python3
"""Regenerates docs/bands.md: the difficulty bands, and the ER histogram of each band's output.

For each band, `shudu generate -n N --difficulty BAND --seed S --format json` makes N puzzles,
and `shudu grade --format json` rates them again (independently of the generator's own
rating); the histogram is of those ratings, with the givens and the CPU time.

    cargo build --release && python3 scripts/bands.py            # N = 200, seed 1
    python3 scripts/bands.py --n 50 --shudu target/release/shudu --out /tmp/bands.md
"""
import argparse
import collections
import json
import os
import resource
import subprocess
import sys

BANDS = [
    # band, SE range, what a player needs, anchors
    ("easy", "1.0-1.5", "full houses and hidden singles",
     "HoDoKu Easy (singles); Sudoku Exchange easy; QQWing simple/easy"),
    ("medium", "1.6-2.5", "naked singles, direct pointing and claiming, direct hidden pairs and triples",
     "Sudoku Exchange medium (1.5-2.3); QQWing intermediate (1.7-3.4, lower half); Good Sudoku's Standard"),
    ("hard", "2.6-4.0", "locked candidates, naked and hidden pairs and triples, X-Wing, Swordfish",
     "HoDoKu Medium and the fish of Hard; Sudoku Exchange hard (2.5-7.1, lower part); sudoku.coach's Medium/Hard"),
    ("fiendish", "4.1-6.1", "XY-Wing, XYZ-Wing, unique rectangles and loops, quads, Jellyfish, BUG",
     "HoDoKu Hard (wings, uniqueness); QQWing expert; sudoku.coach's Hard/Expert"),
    ("diabolical", "6.2-8.9", "aligned pair and triple exclusion, X-cycles and forcing X-chains, forcing chains, Nishio",
     "HoDoKu Unfair and Extreme; Sudoku Exchange diabolical; Good Sudoku's Expert and up"),
    ("extreme", "9.0-11.x", "dynamic forcing chains, with the basic techniques inside (9.3-10.1), nested forcing chains (9.5 and up)",
     "the players' forum's hardest lists (SE 10-11.x); HoDoKu beyond Extreme"),
]


def run(cmd, stdin=None):
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr}")
    return out.stdout


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shudu", default="target/release/shudu")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="docs/bands.md")
    args = ap.parse_args()

    lines = [
        "# The difficulty bands and what they hold",
        "",
        "Made by `python3 scripts/bands.py` (do not edit by hand): the bands of `shudu generate",
        "--difficulty` and of the game, and the Sudoku Explainer rating (ER) of "
        f"{args.n} puzzles of each, generated with `--seed {args.seed}` and rated again by `shudu grade`.",
        "Why the bands are cut where they are, and how the ratings are spread: docs/rated.md.",
        "",
        "| band | ER | what a player needs | anchors |",
        "|---|---|---|---|",
    ]
    for band, er, needs, anchors in BANDS:
        lines.append(f"| {band} | {er} | {needs} | {anchors} |")
    lines.append("")
    for band, er, _, _ in BANDS:
        before = cpu()
        gen = run([args.shudu, "generate", "-n", str(args.n), "--difficulty", band, "--timeout", "1h", "--seed",
                   str(args.seed), "--threads", str(args.threads), "--format", "json"])
        puzzles = [json.loads(l)["puzzle"] for l in gen.splitlines() if l.strip()]
        graded = run([args.shudu, "grade", "--format", "json", "--threads", str(args.threads)],
                     stdin="\n".join(puzzles) + "\n")
        spent = cpu() - before
        rows = [json.loads(l) for l in graded.splitlines() if l.strip()]
        ers = [r["er"] for r in rows]
        bands = collections.Counter(r["band"] for r in rows)
        givens = sorted(81 - p.count(".") - p.count("0") for p in puzzles)
        hist = collections.Counter(ers)
        top_er, top_n = hist.most_common(1)[0]
        lines += [
            f"## {band} (ER {er})",
            "",
            f"{len(rows)} puzzles of {args.n} asked; all rated {band} again: "
            f"{'yes' if bands == {band: len(rows)} else dict(bands)}; givens {givens[0]}-{givens[-1]} "
            f"(median {givens[len(givens) // 2]}); the commonest ER, {top_er}, holds {top_n} "
            f"({100 * top_n / len(rows):.0f}%); {len(hist)} distinct ratings; generated and rated "
            f"in {spent:.1f} CPU-s.",
            "",
            "| ER | puzzles | |",
            "|---:|---:|---|",
        ]
        for value in sorted(hist):
            n = hist[value]
            lines.append(f"| {value:.1f} | {n} | {'#' * max(1, round(40 * n / len(rows)))} |")
        lines.append("")
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines))
    os.replace(tmp, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
