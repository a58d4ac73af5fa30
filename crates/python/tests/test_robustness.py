"""What a data-science user runs into (issue 39): no input aborts the interpreter, Ctrl+C
interrupts long calls, puzzles without exactly one solution are not rated, and inputs of the
wrong type or range are refused with a clear message instead of being truncated.

The cases that could abort or hang the interpreter run in a subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

import shudu
from oracle import oracle_count

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(os.environ.get("SHUDU_DATA", ROOT.parent / "shared" / "data"))
CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# CLASSIC without its first two givens: two solutions.
TWO_SOLUTIONS = (
    "....7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
)
# CLASSIC with a 1 in r1c3, which no house forbids: no solution.
NO_SOLUTION = "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def run_python(code: str, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter (the tests' own), returning what it printed."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        **kw,
    )


# ---------------------------------------------------------------------------------------------
# 1. No input aborts the interpreter


def test_huge_timeouts_raise_value_error_instead_of_aborting():
    out = run_python(
        """
        import shudu
        for t in (1e300, 1e19, float("inf"), float("nan"), -1.0):
            try:
                shudu.generate(2, timeout=t, seed=1)
            except ValueError as e:
                print("refused", t, e)
        print("alive")
        """
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("refused") == 5 and "alive" in out.stdout, out.stdout
    assert "timeout 1e300: expected a number of seconds from 0 to 1e9" in out.stdout


def test_python_build_unwinds_while_the_command_line_keeps_abort():
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())
    maturin = tomllib.loads((ROOT / "crates/python/pyproject.toml").read_text())["tool"]["maturin"]
    profile = cargo["profile"][maturin["profile"]]
    assert profile["inherits"] == "release" and profile["panic"] == "unwind"
    assert cargo["profile"]["release"]["panic"] == "abort"


def test_a_large_timeout_within_the_limit_is_taken():
    assert len(shudu.generate(2, timeout=1e9, seed=1)) == 2


# ---------------------------------------------------------------------------------------------
# 2. Ctrl+C, impossible requests, the default time budget

INTERRUPT = """
import os, signal, threading, time
import numpy as np
import shudu
sent = []
def ctrl_c():
    time.sleep(1.0)
    sent.append(time.time())
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=ctrl_c, daemon=True).start()
try:
    CALL
    print("finished")
except KeyboardInterrupt:
    print("interrupted after", round(time.time() - sent[0], 2))
"""


def interrupted_after(call: str, timeout: float = 300) -> float:
    out = run_python(INTERRUPT.replace("CALL", call), timeout=timeout)
    assert "interrupted after" in out.stdout, (out.stdout, out.stderr)
    return float(out.stdout.split()[-1])


def test_ctrl_c_interrupts_solve_array_between_chunks():
    # About 30 s of solving on two cores: an interrupt honoured only at the end comes late.
    top95 = DATA / "norvig_top95.txt"
    call = (
        f"ps = [l.strip() for l in open({str(top95)!r}) if len(l.strip()) == 81]\n"
        "    a = np.tile(shudu.to_array(ps), (3000, 1))\n"
        "    shudu.solve_array(a)"
    )
    assert interrupted_after(call) < 5


def test_ctrl_c_interrupts_a_rare_band():
    assert interrupted_after('shudu.generate(50, difficulty="extreme", timeout=None, seed=1)') < 5


def test_a_rating_no_path_reaches_is_refused_at_once():
    out = run_python(
        """
        import shudu
        try:
            shudu.generate(2, rating=20)
        except ValueError as e:
            print(e)
        """,
        timeout=60,
    )
    assert "rating 20.0 is above 12.0" in out.stdout, (out.stdout, out.stderr)


def test_default_time_budget_applies_and_can_be_changed(monkeypatch):
    monkeypatch.setattr(shudu, "DEFAULT_TIMEOUT", 0.5)
    with pytest.warns(RuntimeWarning, match="default time budget of 0.5 s"):
        found = shudu.generate(50, difficulty="extreme", seed=1)
    assert len(found) < 50
    # An explicit budget wins over the default, and is not warned about.
    monkeypatch.setattr(shudu, "DEFAULT_TIMEOUT", 1e-9)
    assert len(shudu.generate(3, seed=1, timeout=None)) == 3


# ---------------------------------------------------------------------------------------------
# 3. Only puzzles with exactly one solution are rated


@pytest.mark.parametrize("call", [shudu.rate, shudu.explain])
def test_single_calls_refuse_puzzles_without_one_solution(call):
    assert oracle_count(TWO_SOLUTIONS, 2) == 2 and oracle_count(NO_SOLUTION, 1) == 0
    with pytest.raises(ValueError, match="more than one solution"):
        call(TWO_SOLUTIONS)
    with pytest.raises(ValueError, match="no solution"):
        call(NO_SOLUTION)


def test_rate_many_marks_each_record_with_its_status():
    out = shudu.rate_many([CLASSIC, TWO_SOLUTIONS, NO_SOLUTION, "12x"])
    assert isinstance(out[0], shudu.Rating) and out[0].band == "easy"
    assert out[1].status == "multiple" and out[2].status == "none"
    assert isinstance(out[3], ValueError) and str(out[3]).startswith("record 3, line 1")


# ---------------------------------------------------------------------------------------------
# 6. from_array is vectorised


def test_from_array_makes_no_python_call_a_row():
    arr = np.tile(shudu.to_array([CLASSIC]), (5000, 1))
    events = []
    sys.setprofile(lambda frame, event, arg: events.append(event))
    try:
        rows = shudu.from_array(arr)
    finally:
        sys.setprofile(None)
    assert rows == [CLASSIC] * 5000
    # A loop over rows in Python makes thousands of calls (str, int, join, a generator a row).
    assert len(events) < 200, len(events)


# ---------------------------------------------------------------------------------------------
# 7. Types and ranges


def test_float_arrays_are_refused_not_truncated():
    arr = shudu.to_array([CLASSIC]).astype(float)
    arr[0, 0] = 1.7
    for call in (shudu.solve_array, shudu.from_array, lambda a: shudu.solve(a[0])):
        with pytest.raises(TypeError, match="floats are not truncated"):
            call(arr)
    arr[0, 0] = np.nan
    with pytest.raises(TypeError, match="float"):
        shudu.solve_array(arr)


def test_str_and_object_arrays_get_clear_errors():
    with pytest.raises(TypeError, match="found an array of str"):
        shudu.solve_array(np.array([list(CLASSIC)]))
    with pytest.raises(TypeError, match="found an array of Python objects"):
        shudu.from_array(np.array([[None] * 81]))


def test_values_out_of_range_keep_their_position():
    arr = shudu.to_array([CLASSIC, CLASSIC]).astype(np.int64)
    arr[1, 40] = 300
    for call in (shudu.solve_array, shudu.from_array):
        with pytest.raises(ValueError, match="row 1, column 40: found 300"):
            call(arr)
    arr[1, 40] = -1
    with pytest.raises(ValueError, match="row 1, column 40: found -1"):
        shudu.solve_array(arr)
    cells = [0] * 81
    cells[80] = 12
    with pytest.raises(ValueError, match=r"cell 81 \(r9c9\): found 12"):
        shudu.solve(cells)


@pytest.mark.parametrize("bad", [None, 123, 1.5, object()])
def test_what_is_not_a_puzzle_raises_type_error(bad):
    with pytest.raises(TypeError, match="expected a puzzle"):
        shudu.solve(bad)


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(givens=-1), "givens -1: expected an integer from 0 to 81"),
        (dict(givens=(20, -3)), "givens -3"),
        (dict(seed=-5), "seed -5: expected an integer from 0 to"),
        (dict(seed=2**64), "seed"),
    ],
)
def test_negative_givens_and_seeds_raise_value_error(kw, message):
    with pytest.raises(ValueError, match=message):
        shudu.generate(1, **kw)


def test_count_solutions_refuses_limit_zero():
    with pytest.raises(ValueError, match="limit 0: expected an integer >= 1"):
        shudu.count_solutions(CLASSIC, limit=0)


def test_solve_many_names_a_bad_record_by_its_index():
    out = shudu.solve_many([CLASSIC, "bad", CLASSIC, [1.5] * 81])
    assert out[0].status == out[2].status == "unique"
    assert out[1].status == "invalid" and out[1].error.startswith("record 1, line 1"), out[1]
    assert out[3].status == "invalid" and out[3].error.startswith("record 3: "), out[3]


def test_a_generated_puzzle_is_accepted_where_a_puzzle_is():
    (g,) = shudu.generate(1, seed=3)
    assert shudu.count_solutions(g) == 1 and shudu.solve(g) == g.solution


def test_the_module_shows_only_its_public_names():
    public = {n for n in dir(shudu) if not n.startswith("_")}
    assert public == set(shudu.__all__)
    assert "np" not in public and "List" not in public and "dataclass" not in public
    assert all(hasattr(shudu, n) for n in shudu.__all__)
