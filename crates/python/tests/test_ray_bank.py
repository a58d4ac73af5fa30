"""The Ray recipe (`examples/ray/bank.py`) on a real local Ray cluster: sharded banks equal one
single-process run, every puzzle is unique by the independent oracle and rated in its band, a
rerun shard is byte for byte the same, and a worker killed mid-task is retried to completion.

Skipped when Ray is not installed (`pip install ray pyarrow`; `.ci/run` installs both).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("pyarrow")

import bank  # noqa: E402  (examples/ray, put on the path by conftest.py)
import shudu  # noqa: E402
from oracle import completes, is_valid_grid, oracle_count  # noqa: E402

BANK = Path(bank.__file__)
# The SE ratings of the band `hard` (Band::range in crates/core/src/logic/mod.rs).
HARD = (2.6, 4.0)


@pytest.fixture(scope="module")
def cluster():
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # Two worker processes on loopback, no dashboard: a real cluster of one node.
    ray.init(num_cpus=2, include_dashboard=False, logging_level="error")
    yield
    ray.shutdown()


def spec(**kw) -> bank.BankSpec:
    base = dict(count=24, shards=3, seed=4242, difficulty="hard", givens=(26, 30))
    base.update(kw)
    return bank.BankSpec(**base)


def test_shards_together_are_one_single_process_run(cluster, tmp_path):
    s = spec()
    manifest = bank.run(s, tmp_path)
    assert manifest["complete"] and manifest["puzzles"] == 24
    assert [sh["items"] for sh in manifest["shards"]] == [[0, 8], [8, 16], [16, 24]]
    rows = bank.read_bank(tmp_path)
    single = shudu.generate(24, **s.generate_args())
    assert [r["item"] for r in rows] == list(range(24))
    assert [(r["puzzle"], r["solution"]) for r in rows] == [(g.puzzle, g.solution) for g in single]
    for r in rows:
        assert oracle_count(r["puzzle"]) == 1, r["puzzle"]
        assert is_valid_grid(r["solution"]) and completes(r["puzzle"], r["solution"])
        assert r["band"] == "hard" and HARD[0] <= r["er"] <= HARD[1], r
        assert 26 <= r["givens"] <= 30
    assert bank.verify(tmp_path) == []


def test_parquet_bank_reruns_identically_and_verify_finds_tampering(cluster, tmp_path):
    s = spec(format="parquet", count=12, shards=4, difficulty=None, givens=None, symmetry="rot180")
    first = bank.run(s, tmp_path)
    rows = bank.read_bank(tmp_path)
    assert len(rows) == 12 and all(oracle_count(r["puzzle"]) == 1 for r in rows)
    # Unrated requests are rated by the task: every record carries its SE rating.
    assert all(r["er"] == pytest.approx(shudu.rate(r["puzzle"]).er) for r in rows)
    # A rerun shard (as after a failure) is byte for byte the one the manifest recorded.
    shard = tmp_path / first["shards"][2]["file"]
    shard.unlink()
    again = bank.run(s, tmp_path, only=[2])
    assert again["shards"][2]["sha256"] == first["shards"][2]["sha256"]
    assert bank.verify(tmp_path) == []
    shard.write_bytes(shard.read_bytes()[:-1] + b"\0")
    assert bank.verify(tmp_path) == [f"{shard.name}: SHA-256 differs from the manifest's"]
    # Another request into the same folder is refused rather than mixed in.
    with pytest.raises(RuntimeError, match="another request"):
        bank.run(spec(count=12, shards=4), tmp_path)


def test_a_killed_worker_is_retried_and_the_bank_completes(cluster, tmp_path):
    s = spec(count=8, shards=2, test_delay=4.0)
    killed = []

    def killer():
        deadline = time.time() + 60
        while time.time() < deadline and not killed:
            for marker in tmp_path.glob(".running-*"):
                pid = int(marker.name.rsplit("-", 1)[1])
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)

    t = threading.Thread(target=killer)
    t.start()
    manifest = bank.run(s, tmp_path)
    t.join()
    assert killed, "no task was seen running: nothing was killed"
    assert manifest["complete"]
    rows = bank.read_bank(tmp_path)
    assert [r["puzzle"] for r in rows] == [g.puzzle for g in shudu.generate(8, **s.generate_args())]
    assert not list(tmp_path.glob(".*.tmp")), "a killed task left a temporary file"


def test_a_shard_failed_for_good_is_left_out_and_only_completes_the_manifest(cluster, tmp_path):
    # Shard 2's task raises on every try: the others still finish and are recorded.
    first = bank.run(spec(count=16, shards=4, test_fail=2), tmp_path)
    assert [sh["index"] for sh in first["shards"]] == [0, 1, 3] and not first["complete"]
    assert list(first["failed"]) == ["2"] and "on purpose" in first["failed"]["2"]
    assert bank.verify(tmp_path) == ["shard 2 is missing from the manifest"]
    # --only 2 adds the missing shard to the existing manifest: the bank is whole.
    again = bank.run(spec(count=16, shards=4), tmp_path, only=[2])
    assert [sh["index"] for sh in again["shards"]] == [0, 1, 2, 3]
    assert again["complete"] and again["failed"] == {} and again["puzzles"] == 16
    assert bank.verify(tmp_path) == []
    assert [r["item"] for r in bank.read_bank(tmp_path)] == list(range(16))


def test_pandas_reads_the_bank_folder_and_the_jsonl_solutions_as_strings(cluster, tmp_path):
    pd = pytest.importorskip("pandas")
    s = spec(format="parquet", count=8, shards=2, difficulty=None, givens=None)
    bank.run(s, tmp_path / "pq")
    # The manifest's leading `_` makes pyarrow skip it: the folder reads as the shards alone.
    df = pd.read_parquet(tmp_path / "pq")
    assert sorted(df["item"]) == list(range(8))
    assert all(isinstance(x, str) and len(x) == 81 for x in df["solution"])
    bank.run(spec(count=4, shards=1, difficulty=None, givens=None), tmp_path / "jsonl")
    (shard,) = (tmp_path / "jsonl").glob("shard-*.jsonl")
    # Read as a user would write it: the solutions come back whole (a list of 81 digits; a
    # string of digits would have become a float), equal to the bank's.
    df = pd.read_json(shard, lines=True)
    records = bank.read_bank(tmp_path / "jsonl")
    assert ["".join(map(str, x)) for x in df["solution"]] == [r["solution"] for r in records]
    assert all(len(r["solution"]) == 81 and r["solution"].isdigit() for r in records)
    assert all(isinstance(x, str) and len(x) == 81 for x in df["puzzle"])
    assert df["er"].dtype == float and df["givens"].dtype == int
    datasets = pytest.importorskip("datasets")
    ds = datasets.Dataset.from_json(str(shard))
    assert ["".join(map(str, x)) for x in ds["solution"]] == [r["solution"] for r in records]


def test_command_line_refuses_impossible_requests_at_once(tmp_path):
    out = subprocess.run(
        [sys.executable, str(BANK), "--out", str(tmp_path), "--count", "4", "--shards", "2",
         "--seed", "1", "--givens", "16"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 2 and "too few" in out.stderr, out.stderr
    assert not (tmp_path / "_manifest.json").exists()
