"""Datasets of solving paths (`shudu.dataset`, `shudu.traces`, `shudu explain --format json`):
the rows are generate's puzzles with their unique solutions, each path replays to the solution,
and the files load with pyarrow, pandas and Hugging Face `datasets` (nothing from a hub)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

import shudu
from oracle import completes, is_valid_grid, oracle_count
from test_shudu import CLASSIC, shudu_bin

pa = pytest.importorskip("pyarrow")


def replay(puzzle: str, steps) -> str:
    """Applies the placements of ``steps`` to ``puzzle``; checks no elimination removes the
    digit the cell ends with."""
    cells = list(puzzle)
    removed = set()
    for s in steps:
        for e in s["eliminations"]:
            removed.add((e["cell"], e["digit"]))
        for p in s["placements"]:
            r, c = int(p["cell"][1]) - 1, int(p["cell"][3]) - 1
            assert cells[r * 9 + c] == ".", p
            cells[r * 9 + c] = str(p["digit"])
    grid = "".join(cells)
    for cell, digit in removed:
        r, c = int(cell[1]) - 1, int(cell[3]) - 1
        assert grid[r * 9 + c] != str(digit), (cell, digit)
    return grid


def test_dataset_rows_are_generated_puzzles_with_paths_that_replay_to_the_solution():
    t = shudu.dataset(30, difficulty="hard", seed=11)
    assert t.schema == shudu.trace_schema(item=True)
    rows = t.to_pylist()
    gen = shudu.generate(30, difficulty="hard", seed=11)
    assert [r["item"] for r in rows] == list(range(30))
    assert [(r["puzzle"], r["solution"]) for r in rows] == [(g.puzzle, g.solution) for g in gen]
    for r in rows:
        assert oracle_count(r["puzzle"]) == 1
        assert is_valid_grid(r["solution"]) and completes(r["puzzle"], r["solution"])
        assert r["givens"] == sum(ch != "." for ch in r["puzzle"])
        assert r["band"] == "hard" and 2.6 <= r["er"] <= 4.0
        assert r["er"] == max(s["rating"] for s in r["steps"])
        assert r["hardest"] == next(s["technique"] for s in r["steps"] if s["rating"] == r["er"])
        assert replay(r["puzzle"], r["steps"]) == r["solution"]
        for s in r["steps"]:
            assert s["text"].startswith(s["technique"] + ": ") and " => " in s["text"]


def test_shards_of_a_dataset_concatenate_to_the_whole():
    whole = shudu.dataset(12, seed=5)
    parts = [shudu.dataset(12, seed=5, shard=(i, 3)) for i in range(3)]
    assert pa.concat_tables(parts).equals(whole)


def test_explain_json_is_the_traces_row():
    out = subprocess.run(
        [shudu_bin(), "explain", "--format", "json", CLASSIC],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(out.stdout) == shudu.traces([CLASSIC]).to_pylist()[0]


def test_traces_name_a_puzzle_without_one_solution_by_index():
    with pytest.raises(ValueError, match="puzzle at index 1: the puzzle has more than one"):
        shudu.traces([CLASSIC, "." * 81])


def test_parquet_loads_with_pandas_and_hugging_face_datasets(tmp_path, monkeypatch):
    pd = pytest.importorskip("pandas")
    datasets = pytest.importorskip("datasets")
    # Everything stays on this machine: no hub, caches in the test's folder.
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    path = tmp_path / "sudoku.parquet"
    t = shudu.dataset(10, difficulty="fiendish", seed=2, path=path)
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    df = pd.read_parquet(path)
    assert list(df["puzzle"]) == t.column("puzzle").to_pylist()
    assert isinstance(df["solution"][0], str) and len(df["steps"][0]) == len(t["steps"][0])
    ds = datasets.Dataset.from_parquet(str(path), cache_dir=str(tmp_path / "cache"))
    assert ds.num_rows == 10 and ds[0]["puzzle"] == t["puzzle"][0].as_py()
    assert ds[0]["steps"][0]["text"] == t["steps"][0][0]["text"].as_py()
    loaded = datasets.load_dataset(
        "parquet", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache2")
    )
    assert loaded["solution"] == t.column("solution").to_pylist()
