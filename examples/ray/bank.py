"""Builds a bank of rated Sudoku puzzles with exactly one solution on a Ray cluster.

The batch ``--count N --seed S`` is cut into ``--shards K`` deterministic shards: shard ``i`` is
exactly ``shudu generate -n N --seed S --shard i/K`` (items ``N*i//K`` up to ``N*(i+1)//K``), so
the shards of one seed, concatenated, are the output of one single run, whichever machine made
each one and however often it was retried. Each Ray task makes one shard, rates every puzzle on
the Sudoku Explainer scale, and writes it as a JSON Lines or Parquet file (to a temporary name,
then renamed, so a killed task leaves no half-written shard). ``_manifest.json`` records the
request, shudu's version and each shard's item range, puzzle count and SHA-256; it is rewritten
as each shard finishes, so a run that fails part-way keeps what it made, and ``--only`` adds
the missing shards to it. (Its leading ``_`` makes pyarrow and pandas skip it:
``pd.read_parquet("bank/")`` reads the shards alone.)

    # on one machine (Ray starts a local cluster):
    python examples/ray/bank.py --count 100000 --shards 64 --seed 7 --difficulty hard --out bank/
    # on a cluster (from the head node, or with RAY_ADDRESS set):
    python examples/ray/bank.py --address auto --count 100000000 --shards 4096 --seed 7 ...
    # make the shards a failed run left out (the run names them), completing the manifest:
    python examples/ray/bank.py ... --only 17,42
    python examples/ray/bank.py --out bank/ --verify

Ray retries a task whose worker dies (``max_retries``) or raises (``retry_exceptions``); since a
shard depends only on the request, a retried or rerun shard is byte for byte the same.
See README.md beside this file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import shudu

MANIFEST = "_manifest.json"
# Banks made before the manifest was renamed: read, and replaced by MANIFEST when rewritten.
OLD_MANIFEST = "manifest.json"


def load_manifest(out: Path) -> Optional[dict]:
    """The bank's manifest, or ``None`` if the folder has none."""
    for name in (MANIFEST, OLD_MANIFEST):
        if (out / name).exists():
            return json.loads((out / name).read_text())
    return None


def write_manifest(out: Path, manifest: dict) -> None:
    """Replaces the manifest atomically (a temporary file renamed into place)."""
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    os.replace(tmp, out / MANIFEST)
    (out / OLD_MANIFEST).unlink(missing_ok=True)


@dataclass(frozen=True)
class BankSpec:
    """What the bank holds: the arguments of ``shudu generate`` plus how it is cut and stored."""

    count: int
    shards: int
    seed: int
    givens: Optional[Tuple[int, int]] = None
    symmetry: str = "none"
    minimal: bool = False
    difficulty: Optional[str] = None
    rating: Optional[Tuple[float, float]] = None
    format: str = "jsonl"
    timeout: Optional[float] = None
    cpus_per_task: int = 1
    # Seconds each task waits before writing its shard: lets the tests kill a worker mid-task.
    test_delay: float = 0.0
    # A shard whose task always raises (past every retry): lets the tests fail a shard for good.
    test_fail: int = -1

    def check(self) -> None:
        """Raises ``ValueError`` for a request no bank can satisfy, before any task starts."""
        if self.count < 0:
            raise ValueError(f"--count {self.count}: expected a count >= 0")
        if not 1 <= self.shards:
            raise ValueError(f"--shards {self.shards}: expected at least 1 shard")
        if self.format not in ("jsonl", "parquet"):
            raise ValueError(f"--format {self.format}: expected jsonl or parquet")
        # The core refuses impossible requests at once (no puzzle is made for an empty range).
        shudu.generate(0, **self.generate_args())

    def generate_args(self) -> dict:
        return dict(
            givens=self.givens,
            symmetry=self.symmetry,
            minimal=self.minimal,
            difficulty=self.difficulty,
            rating=self.rating,
            seed=self.seed,
            timeout=self.timeout,
        )

    def shard_name(self, index: int) -> str:
        ext = "jsonl" if self.format == "jsonl" else "parquet"
        return f"shard-{index:05d}-of-{self.shards:05d}.{ext}"

    def request(self) -> dict:
        """The fields that decide the bank's content (not how it was run)."""
        d = asdict(self)
        for k in ("cpus_per_task", "test_delay", "test_fail", "timeout"):
            d.pop(k)
        return d


def records(spec: BankSpec, index: int) -> Tuple[List[dict], bool]:
    """Makes shard ``index``: its puzzles in item order, each with its rating; and whether the
    time budget ran out before the shard was complete."""
    it = shudu.iter_generate(spec.count, shard=(index, spec.shards), **spec.generate_args())
    out = []
    for g in it:
        r = g.rating if g.rating is not None else shudu.rate(g.puzzle)
        out.append(
            {
                "item": g.item,
                "puzzle": g.puzzle,
                "solution": g.solution,
                "givens": sum(ch != "." for ch in g.puzzle),
                "er": r.er,
                "ep": r.ep,
                "ed": r.ed,
                "band": r.band,
                "techniques": [t for t, _ in r.techniques],
            }
        )
    return out, bool(it.timed_out)


def jsonl_row(row: dict) -> dict:
    """A record as a JSON Lines shard holds it: the solution as its 81 digits (a list), since
    pandas' ``read_json`` makes a number of any string of digits (an 81-digit one becomes a
    float that has lost the grid); the puzzle keeps its ``.`` and stays a string."""
    return {**row, "solution": [int(ch) for ch in row["solution"]]}


def from_jsonl_row(row: dict) -> dict:
    """The record of a JSON Lines line, its solution a string again (as Parquet holds it)."""
    return {**row, "solution": "".join(map(str, row["solution"]))}


def write_atomically(path: Path, rows: List[dict], fmt: str) -> str:
    """Writes ``rows`` to ``path`` through a temporary file in the same folder and returns the
    file's SHA-256. Parquet is written without timestamps, so the same rows give the same bytes."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if fmt == "jsonl":
            with tmp.open("w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps(jsonl_row(row), separators=(",", ":")) + "\n")
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            schema = pa.schema(
                [
                    ("item", pa.int64()),
                    ("puzzle", pa.string()),
                    ("solution", pa.string()),
                    ("givens", pa.int8()),
                    ("er", pa.float32()),
                    ("ep", pa.float32()),
                    ("ed", pa.float32()),
                    ("band", pa.string()),
                    ("techniques", pa.list_(pa.string())),
                ]
            )
            table = pa.Table.from_pylist(rows, schema=schema)
            pq.write_table(table, tmp, compression="zstd", write_statistics=True)
        with tmp.open("rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return sha256(path)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def node_id() -> str:
    """The Ray node this task runs on (its id), or the host name outside Ray."""
    try:
        import ray

        return ray.get_runtime_context().get_node_id()
    except Exception:  # not in a Ray worker
        return os.uname().nodename


def make_shard(spec: BankSpec, index: int, out: str) -> dict:
    """The body of one Ray task: makes, writes and describes shard ``index``."""
    start = time.time()
    if index == spec.test_fail:
        raise RuntimeError(f"shard {index} fails on purpose (test_fail)")
    rows, timed_out = records(spec, index)
    if spec.test_delay:
        marker = Path(out) / f".running-{index}-{os.getpid()}"
        marker.touch()
        time.sleep(spec.test_delay)
        marker.unlink(missing_ok=True)
    path = Path(out) / spec.shard_name(index)
    digest = write_atomically(path, rows, spec.format)
    items = shudu.shard_items(spec.count, index, spec.shards)
    return {
        "index": index,
        "file": path.name,
        "items": [items.start, items.stop],
        "puzzles": len(rows),
        "complete": len(rows) == len(items),
        "timed_out": timed_out,
        "sha256": digest,
        "seconds": round(time.time() - start, 3),
        "node": node_id(),
    }


def run(spec: BankSpec, out: Path, only: Optional[Sequence[int]] = None) -> dict:
    """Makes the bank's shards (all, or the ``only`` ones) as Ray tasks on the cluster that
    ``ray.init`` connected to. The manifest is rewritten as each shard finishes, so it holds
    every shard made so far, those of earlier runs of the same request included (``only``
    completes it). A shard whose task fails for good (past Ray's retries) is left out and
    named in the manifest's ``failed``; the other shards still finish.

    Raises ``RuntimeError`` if a rerun shard differs from the one the manifest recorded."""
    import ray

    spec.check()
    out.mkdir(parents=True, exist_ok=True)
    old = load_manifest(out)
    # Compared as JSON holds it (tuples such as givens=(26, 30) come back as lists).
    if old is not None and old["request"] != json.loads(json.dumps(spec.request())):
        raise RuntimeError(
            f"{out / MANIFEST} describes another request ({old['request']}); use another --out"
        )
    indices = list(range(spec.shards)) if only is None else sorted(set(only))
    for i in indices:
        if not 0 <= i < spec.shards:
            raise ValueError(f"--only {i}: expected a shard from 0 to {spec.shards - 1}")
    # Ship this module's code to the workers by value: they need not have it on their path.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    task = ray.remote(
        num_cpus=spec.cpus_per_task,
        max_retries=3,
        retry_exceptions=True,
        runtime_env={"env_vars": {"RAYON_NUM_THREADS": str(spec.cpus_per_task)}},
    )(make_shard)
    shards = {s["index"]: s for s in (old or {}).get("shards", [])}
    failed = {i: why for i, why in (old or {}).get("failed", {}).items() if int(i) not in indices}
    start = time.time()

    def manifest() -> dict:
        return {
            "request": spec.request(),
            "shudu_version": shudu.__version__,
            "shards": [shards[i] for i in sorted(shards)],
            "puzzles": sum(s["puzzles"] for s in shards.values()),
            "complete": len(shards) == spec.shards
            and all(s["complete"] for s in shards.values()),
            "failed": failed,
            "seconds": round(time.time() - start, 3),
        }

    pending = {task.remote(spec, i, str(out)): i for i in indices}
    finished = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            i = pending.pop(ref)
            finished += 1
            try:
                s = ray.get(ref)
            except ray.exceptions.RayError as e:
                # A task's own exception is its `cause`; a dead worker has none.
                cause = getattr(e, "cause", None) or e
                lines = str(cause).strip().splitlines() or [""]
                failed[str(i)] = f"{type(cause).__name__}: {lines[-1]}"
                print(f"shard {i}: failed ({failed[str(i)]})", file=sys.stderr)
                write_manifest(out, manifest())
                continue
            before = shards.get(i)
            if before is not None and before["sha256"] != s["sha256"] and before["complete"]:
                raise RuntimeError(
                    f"shard {i} came out different from the manifest's "
                    f"({s['sha256']} != {before['sha256']}): not the same request or shudu version"
                )
            shards[i] = s
            failed.pop(str(i), None)
            write_manifest(out, manifest())
            print(
                f"shard {i}: {s['puzzles']} puzzles in {s['seconds']} s "
                f"({finished}/{len(indices)})",
                file=sys.stderr,
            )
    final = manifest()
    write_manifest(out, final)
    return final


def verify(out: Path) -> List[str]:
    """The faults of a bank: missing shards, files whose SHA-256 is not the manifest's."""
    manifest = load_manifest(out)
    if manifest is None:
        return [f"{out / MANIFEST}: missing"]
    faults = []
    spec_shards = manifest["request"]["shards"]
    seen = {s["index"] for s in manifest["shards"]}
    faults += [f"shard {i} is missing from the manifest" for i in range(spec_shards) if i not in seen]
    for s in manifest["shards"]:
        path = out / s["file"]
        if not path.exists():
            faults.append(f"{s['file']}: missing")
        elif sha256(path) != s["sha256"]:
            faults.append(f"{s['file']}: SHA-256 differs from the manifest's")
        elif not s["complete"]:
            faults.append(f"{s['file']}: incomplete ({s['puzzles']} puzzles; the budget ran out)")
    return faults


def read_bank(out: Path) -> List[dict]:
    """Every record of a bank, in item order."""
    manifest = load_manifest(out)
    if manifest is None:
        raise FileNotFoundError(out / MANIFEST)
    rows: List[dict] = []
    for s in manifest["shards"]:
        path = out / s["file"]
        if path.suffix == ".jsonl":
            rows += [from_jsonl_row(json.loads(line)) for line in path.read_text().splitlines()]
        else:
            import pyarrow.parquet as pq

            rows += pq.read_table(path).to_pylist()
    return rows


def pair(kind, text: str):
    a, sep, b = text.replace("..", ",").partition(",")
    return (kind(a), kind(b)) if sep else (kind(a), kind(a))


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder of the bank")
    ap.add_argument("--count", type=int, help="puzzles in the whole bank")
    ap.add_argument("--shards", type=int, help="Ray tasks (shards) to cut the bank into")
    ap.add_argument("--seed", type=int, help="seed of the batch (as shudu generate --seed)")
    ap.add_argument("--givens", type=lambda s: pair(int, s), help="N or A..B")
    ap.add_argument("--symmetry", default="none")
    ap.add_argument("--minimal", action="store_true")
    ap.add_argument("--difficulty", help="easy, medium, hard, fiendish, diabolical, extreme")
    ap.add_argument("--rating", type=lambda s: pair(float, s), help="SE rating or A..B")
    ap.add_argument("--format", default="jsonl", choices=["jsonl", "parquet"])
    ap.add_argument("--timeout", type=float, help="time budget of each shard, in seconds")
    ap.add_argument("--cpus-per-task", type=int, default=1)
    ap.add_argument("--only", help="make only these shards (comma-separated) and check them")
    ap.add_argument("--verify", action="store_true", help="check the bank against its manifest")
    ap.add_argument("--address", help="Ray cluster to join (auto, or ray://host:10001)")
    ap.add_argument("--test-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.verify:
        faults = verify(args.out)
        for f in faults:
            print(f"bank.py: {f}", file=sys.stderr)
        print(f"{args.out}: {'OK' if not faults else f'{len(faults)} faults'}")
        return 1 if faults else 0
    for name in ("count", "shards", "seed"):
        if getattr(args, name) is None:
            ap.error(f"--{name} is required to build a bank")
    spec = BankSpec(
        count=args.count,
        shards=args.shards,
        seed=args.seed,
        givens=args.givens,
        symmetry=args.symmetry,
        minimal=args.minimal,
        difficulty=args.difficulty,
        rating=args.rating,
        format=args.format,
        timeout=args.timeout,
        cpus_per_task=args.cpus_per_task,
        test_delay=args.test_delay,
    )
    try:
        spec.check()
    except ValueError as e:
        print(f"bank.py: {e}", file=sys.stderr)
        return 2
    only = [int(x) for x in args.only.split(",")] if args.only else None

    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address=args.address, include_dashboard=False, logging_level="warning")
    manifest = run(spec, args.out, only)
    print(
        f"{args.out}: {manifest['puzzles']} puzzles in {len(manifest['shards'])} shards"
        f"{'' if manifest['complete'] else f' (incomplete: see {MANIFEST})'}"
    )
    missing = [i for i in range(spec.shards) if i not in {s["index"] for s in manifest["shards"]}]
    if missing:
        print(
            f"bank.py: shards {','.join(map(str, missing))} are missing; make them with "
            f"--only {','.join(map(str, missing))}",
            file=sys.stderr,
        )
    return 0 if manifest["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())
