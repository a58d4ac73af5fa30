"""shudu (数独) for Python: an exact Sudoku solver, a generator of puzzles with exactly one
solution, and a grader on the Sudoku Explainer (SE) scale, in Rust.

Puzzles are passed as 81-character strings (``1-9`` for givens, ``.`` or ``0`` for empty; the
other formats of the ``shudu`` command line are read too), as sequences of 81 integers (0 for
empty), or, for batches, as NumPy ``(N, 81)`` ``uint8`` arrays. Bad input raises ``ValueError``
with the position of the fault (puzzle, line, column) and what was expected.

Batch calls (:func:`solve_many`, :func:`solve_array`, :func:`rate_many`, :func:`generate`,
:func:`grids`) release the GIL and run on all cores. The same seed gives the same puzzles and
grids as the command line (``shudu generate --seed S``, ``shudu grids --seed S``).

>>> import shudu
>>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
>>> shudu.solve(p)[:9]
'534678912'
>>> shudu.count_solutions(p)
1
>>> shudu.rate(p).band
'easy'
"""

from __future__ import annotations

import random as _random
import re as _re
import warnings as _warnings
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _shudu

__version__: str = _shudu.__version__
"""The version of shudu this package was built from."""

__all__ = [
    "PuzzleLike",
    "Rating",
    "Unrated",
    "Step",
    "Explanation",
    "Generated",
    "Solved",
    "solve",
    "count_solutions",
    "is_unique",
    "solve_many",
    "solve_array",
    "rate",
    "rate_many",
    "explain",
    "hint",
    "generate",
    "iter_generate",
    "GenerateIterator",
    "shard_items",
    "grids",
    "iter_grids",
    "Canonical",
    "canonical",
    "canonical_many",
    "count_grids",
    "to_array",
    "from_array",
    "DEFAULT_TIMEOUT",
    "traces",
    "dataset",
    "trace_schema",
    "VARIANTS",
    "VariantGenerated",
    "count_variant_solutions",
    "solve_variant",
    "rate_variant",
    "generate_variants",
]


def __dir__() -> List[str]:
    # The public names only: not the modules and typing helpers imported here (PEP 562).
    return sorted(__all__ + ["__version__"])


DEFAULT_TIMEOUT: Optional[float] = 600.0
"""The time budget, in seconds, of :func:`generate`, :func:`iter_generate` and :func:`dataset`
when no ``timeout`` is given: a request for a rare band cannot run unnoticed for hours. Set
``shudu.DEFAULT_TIMEOUT = None`` for no limit, or pass ``timeout=`` to one call; a batch cut short
by this default budget warns (``RuntimeWarning``) with the number of puzzles found."""

_DEFAULT = object()
"""The ``timeout`` argument's default: :data:`DEFAULT_TIMEOUT`, read at call time."""

PuzzleLike = Union[str, Sequence[int], np.ndarray]
"""A puzzle: an 81-character string (or any format ``shudu`` reads, such as the 729-character
pencil-mark line, whose marks ``solve``, ``count_solutions``, ``rate``, ``explain`` and ``hint``
keep to, as the CLI does), or 81 integers 0-9 (0 for empty)."""


def _cells(arr: np.ndarray, what: str = "puzzle") -> np.ndarray:
    """Checks an array of cell values: integers 0-9. Raises ``TypeError`` for floats (never
    truncated: 1.7 is not 1), booleans, strings or objects, and ``ValueError`` naming the first
    value out of range by its position, before any conversion to bytes."""
    kind = arr.dtype.kind
    if kind in "fc":
        raise TypeError(
            f"{what}: found an array of {arr.dtype} (floats are not truncated); expected "
            "integers 0 (empty) or 1-9"
        )
    if kind not in "iu":
        found = {"U": "str", "S": "bytes", "O": "Python objects", "b": "bool"}.get(
            kind, str(arr.dtype)
        )
        raise TypeError(
            f"{what}: found an array of {found}; expected integers 0 (empty) or 1-9 "
            "(give a puzzle as text as one string, not an array of characters)"
        )
    bad = (arr < 0) | (arr > 9)
    if bad.any():
        pos = np.unravel_index(int(np.argmax(bad)), arr.shape)
        v = arr[pos]
        if arr.ndim == 2:
            where = f"row {pos[0]}, column {pos[1]}"
        else:
            i = int(pos[-1])
            where = f"cell {i + 1} (r{i // 9 + 1}c{i % 9 + 1})"
        raise ValueError(f"{what}, {where}: found {v}; expected 0 (empty) or 1-9")
    return arr


def _text(puzzle: PuzzleLike) -> str:
    """The puzzle as text for the core's reader. Raises ``TypeError`` for what is not a puzzle
    (``None``, a number, floats) and ``ValueError`` for a bad cell, naming it."""
    if isinstance(puzzle, str):
        return puzzle
    if isinstance(puzzle, (bytes, bytearray)):
        return puzzle.decode("ascii", errors="replace")
    if isinstance(puzzle, Generated):
        return puzzle.puzzle
    if not isinstance(puzzle, (Sequence, np.ndarray)):
        raise TypeError(
            f"found {type(puzzle).__name__}; expected a puzzle: a string of 81 characters, "
            "81 integers 0-9 or an array of them"
        )
    cells = _cells(np.asarray(puzzle)).reshape(-1)
    if len(cells) != 81:
        raise ValueError(f"found {len(cells)} cells; expected 81")
    return "".join("." if v == 0 else str(v) for v in cells.tolist())


def _record(i: int, message: str) -> str:
    """The core's message about a record read alone (``puzzle 1, ...``) with the record's index
    in the batch instead."""
    return _re.sub(r"^puzzle 1\b", f"record {i}", message)


def _count(name: str, value, low: int = 0, high: Optional[int] = None) -> int:
    """``value`` as an integer within ``low..=high``, or ``TypeError``/``ValueError`` naming
    ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} {value!r}: expected an integer")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} {value}: expected an integer {span}")
    return value


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty on the Sudoku Explainer scale.

    ``er`` is the hardest step of the solving path, ``ep`` the hardest up to the first placement,
    ``ed`` the first step's; ``band`` is ``easy``, ``medium``, ``hard``, ``fiendish``,
    ``diabolical`` or ``extreme``; ``techniques`` lists each technique used with its count, in
    order of first use.
    """

    er: float
    ep: float
    ed: float
    band: str
    solved: bool
    steps: int
    techniques: Tuple[Tuple[str, int], ...]

    @classmethod
    def _from(cls, r) -> "Rating":
        er, ep, ed, band, solved, steps, techniques = r
        return cls(er, ep, ed, band, solved, steps, tuple(tuple(t) for t in techniques))


@dataclass(frozen=True)
class Unrated:
    """A record of :func:`rate_many` that is not rated: ``status`` is ``"none"`` (no solution)
    or ``"multiple"`` (more than one), as ``shudu grade --format json`` says; ``error`` the
    message :func:`rate` raises for it."""

    status: str
    error: str


@dataclass(frozen=True)
class Step:
    """One deduction of the human-style solver.

    Cells are named ``r1c1`` to ``r9c9``; ``placements`` and ``eliminations`` are
    ``(cell, digit)`` pairs; ``houses`` are named ``row 1``, ``column 4``, ``box 9``.
    """

    technique: str
    rating: float
    placements: Tuple[Tuple[str, int], ...]
    eliminations: Tuple[Tuple[str, int], ...]
    cells: Tuple[str, ...]
    houses: Tuple[str, ...]
    text: str

    @classmethod
    def _from(cls, s) -> "Step":
        technique, rating, placements, eliminations, cells, houses, text = s
        return cls(
            technique,
            rating,
            tuple(tuple(p) for p in placements),
            tuple(tuple(e) for e in eliminations),
            tuple(cells),
            tuple(houses),
            text,
        )


@dataclass(frozen=True)
class Explanation:
    """A rating with the whole solving path."""

    rating: Rating
    steps: Tuple[Step, ...]


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with its unique solution (both as 81-character strings).

    ``item`` is its number in the batch (``shudu generate --format json`` calls it ``item``
    too): item ``i`` of seed ``s`` is the same puzzle whichever shard or call makes it.
    ``rating`` is there when the batch asked for a ``difficulty`` or ``rating`` (the search
    grades as it goes); otherwise ``None`` (call :func:`rate`).
    """

    puzzle: str
    solution: str
    item: Optional[int] = None
    rating: Optional[Rating] = None


@dataclass(frozen=True)
class Solved:
    """One record of :func:`solve_many`.

    ``status`` is ``"unique"``, ``"multiple"``, ``"none"`` or ``"invalid"`` (then ``error``
    says where and why the record could not be read); ``solution`` is the first solution found.
    With ``limit=1`` a solvable puzzle's status is ``"solved"`` (uniqueness not checked).
    """

    status: str
    count: Optional[int]
    solution: Optional[str]
    error: Optional[str]


def solve(puzzle: PuzzleLike) -> Optional[str]:
    """The first solution of ``puzzle`` as an 81-character string, or ``None`` if it has none.
    For a pencil-mark line, the first grid that keeps to its marks.

    Raises ``ValueError`` for a puzzle that cannot be read (with its position), ``TypeError``
    for what is not a puzzle (``None``, a number, an array of floats).
    """
    return _shudu.solve(_text(puzzle))


def count_solutions(puzzle: PuzzleLike, limit: int = 2) -> int:
    """How many solutions ``puzzle`` has, counting up to ``limit`` >= 1 (0, 1, or ``limit``
    meaning "at least that many"). ``puzzle`` may be a :class:`Generated` too."""
    limit = _count("limit", limit, 1)
    return _shudu.count_solutions(_text(puzzle), limit)[0]


def is_unique(puzzle: PuzzleLike) -> bool:
    """Whether ``puzzle`` has exactly one solution."""
    return count_solutions(puzzle, 2) == 1


def _status(count: int, limit: int) -> str:
    if count == 0:
        return "none"
    if limit == 1:
        return "solved"
    return "unique" if count == 1 else "multiple"


def solve_many(puzzles: Iterable[PuzzleLike], limit: int = 2) -> List[Solved]:
    """Solves every puzzle in parallel (GIL released). A record that cannot be read is reported
    in its place (status ``"invalid"``) and the rest are still solved."""
    limit = _count("limit", limit, 1)
    texts = []
    early = {}
    for i, p in enumerate(puzzles):
        try:
            texts.append(_text(p))
        except (TypeError, ValueError) as e:
            early[i] = f"record {i}: {e}"
            texts.append("")
    out = []
    for i, (count, solution, error) in enumerate(_shudu.solve_many(texts, limit)):
        if i in early:
            out.append(Solved("invalid", None, None, early[i]))
        elif error is not None:
            out.append(Solved("invalid", None, None, _record(i, error)))
        else:
            out.append(Solved(_status(count, limit), count, solution, None))
    return out


def solve_array(puzzles: np.ndarray, limit: int = 2) -> Tuple[np.ndarray, np.ndarray]:
    """Solves an ``(N, 81)`` ``uint8`` array (0 for empty) in parallel.

    Returns ``(solutions, counts)``: an ``(N, 81)`` ``uint8`` array of first solutions (a row of
    zeros where there is none) and an ``(N,)`` ``uint8`` array of solution counts up to ``limit``.
    Raises ``ValueError`` naming the row and column (from 0) of a value out of range,
    ``TypeError`` for an array of floats, strings or objects. Ctrl+C interrupts it within a
    fraction of a second (``KeyboardInterrupt``).
    """
    limit = _count("limit", limit, 1, 255)
    arr = np.ascontiguousarray(puzzles)
    if arr.ndim == 1 and arr.shape[0] == 81:
        arr = arr.reshape(1, 81)
    if arr.ndim != 2 or arr.shape[1] != 81:
        raise ValueError(f"expected an array of shape (N, 81), found {arr.shape}")
    if arr.dtype != np.uint8:
        arr = _cells(arr, "puzzles").astype(np.uint8)
    return _shudu.solve_array(arr, limit)


def to_array(puzzles: Iterable[PuzzleLike]) -> np.ndarray:
    """Puzzles (or grids) as an ``(N, 81)`` ``uint8`` array, 0 for empty.

    Raises ``ValueError`` with the position of a puzzle that cannot be read.
    """
    rows = [
        np.frombuffer(_shudu.parse_bytes(_text(p)), dtype=np.uint8) for p in puzzles
    ]
    if not rows:
        return np.zeros((0, 81), dtype=np.uint8)
    return np.stack(rows)


def from_array(arr: np.ndarray) -> List[str]:
    """Rows of an ``(N, 81)`` array of integers 0-9 as 81-character strings (``.`` for 0),
    converted by NumPy as a whole, not row by row in Python.

    Raises ``ValueError`` naming the row and column (from 0) of a value out of range,
    ``TypeError`` for an array of floats, strings or objects."""
    arr = np.asarray(arr)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != 81:
        raise ValueError(f"expected an array of shape (N, 81), found {arr.shape}")
    _cells(arr, "puzzles")
    # '.' for 0 and '1'..'9' for 1-9, as bytes; then each row of 81 bytes is one string.
    chars = np.where(arr == 0, ord("."), arr + ord("0")).astype(np.uint8)
    return np.ascontiguousarray(chars).view("S81").ravel().astype("U81").tolist()


def rate(puzzle: PuzzleLike) -> Rating:
    """Rates ``puzzle`` on the Sudoku Explainer scale (the same figures as ``shudu grade``); a
    pencil-mark line from its marks.

    Raises ``ValueError`` for a puzzle without exactly one solution (only those have a solving
    path; ``shudu grade`` refuses them too), or one that cannot be read."""
    return Rating._from(_shudu.rate(_text(puzzle)))


def rate_many(puzzles: Iterable[PuzzleLike]) -> List[Union[Rating, Unrated, ValueError]]:
    """Rates every puzzle in parallel (GIL released). In place of a record: its
    :class:`Rating`; :class:`Unrated` with ``status`` ``"none"`` or ``"multiple"`` for a puzzle
    without exactly one solution; or the ``ValueError`` saying why it cannot be read (naming
    the record by its index, from 0)."""
    texts: List[str] = []
    early = {}
    for i, p in enumerate(puzzles):
        try:
            texts.append(_text(p))
        except (TypeError, ValueError) as e:
            early[i] = ValueError(f"record {i}: {e}")
            texts.append("")
    out: List[Union[Rating, Unrated, ValueError]] = []
    for i, (status, rating, error) in enumerate(_shudu.rate_many(texts)):
        if i in early:
            out.append(early[i])
        elif status == "graded":
            out.append(Rating._from(rating))
        elif status == "invalid":
            out.append(ValueError(_record(i, error)))
        else:
            out.append(Unrated(status, error))
    return out


def explain(puzzle: PuzzleLike) -> Explanation:
    """The step-by-step human-style solution, as ``shudu explain`` gives it.

    Raises ``ValueError`` for a puzzle without exactly one solution, or one that cannot be
    read."""
    rating, steps = _shudu.explain(_text(puzzle))
    return Explanation(Rating._from(rating), tuple(Step._from(s) for s in steps))


def hint(
    puzzle: PuzzleLike,
    entries: Optional[PuzzleLike] = None,
    marks: Optional[Sequence[str]] = None,
) -> Optional[Step]:
    """The next step for a position: ``puzzle`` holds the givens, ``entries`` the player's digits,
    ``marks`` 81 strings of pencil-mark digits (``""``: no marks given for that cell). A
    pencil-mark line as ``puzzle`` brings its own marks (then not ``marks`` too: ``ValueError``).
    ``None`` when the grid is complete or nothing applies."""
    step = _shudu.hint(
        _text(puzzle),
        None if entries is None else _text(entries),
        None if marks is None else list(marks),
    )
    return None if step is None else Step._from(step)


def shard_items(count: int, index: int, of: int) -> range:
    """The items of shard ``index`` (from 0) of ``of`` in a batch of ``count``, as
    ``shudu generate --shard INDEX/OF`` makes them: ``count*index//of`` up to
    ``count*(index+1)//of``. The shards ``0..of`` of one seed, concatenated, are one run."""
    if count < 0:
        raise ValueError(f"count {count}: expected a count >= 0")
    if not 0 <= index < of:
        raise ValueError(f"shard {index}/{of}: expected 0 <= index < of")
    return range(count * index // of, count * (index + 1) // of)


class GenerateIterator:
    """The puzzles of :func:`iter_generate`, in item order, made a wave ahead in the background.

    After the last puzzle, :attr:`found`, :attr:`requested` and :attr:`timed_out` say how the
    batch went (``found < requested`` only when ``timeout`` ran out or the search gave up).
    """

    def __init__(self, waves, default_budget: Optional[float] = None) -> None:
        self._waves = waves
        self._default_budget = default_budget
        self._wave: Iterator[Generated] = iter(())
        self.found: Optional[int] = None
        self.requested: Optional[int] = None
        self.timed_out: Optional[bool] = None
        self.grids_tried: Optional[int] = None
        self.seconds: Optional[float] = None

    def __iter__(self) -> "GenerateIterator":
        return self

    def __next__(self) -> Generated:
        while True:
            for g in self._wave:
                return g
            try:
                wave = next(self._waves)
            except StopIteration:
                s = self._waves.summary()
                if s is not None:
                    self.found, self.requested, self.timed_out, self.grids_tried, self.seconds = s
                    if self.timed_out and self._default_budget is not None:
                        _warnings.warn(
                            f"found {self.found} of {self.requested} puzzles in the default time "
                            f"budget of {self._default_budget:g} s (shudu.DEFAULT_TIMEOUT); pass "
                            "timeout= (None for no limit) to search longer",
                            RuntimeWarning,
                            stacklevel=3,
                        )
                raise
            self._wave = iter(
                [
                    Generated(p, sol, item, None if r is None else Rating._from(r))
                    for item, p, sol, r in wave
                ]
            )


def iter_generate(
    n: int,
    givens: Union[None, int, Tuple[int, int]] = None,
    symmetry: str = "none",
    minimal: bool = False,
    difficulty: Optional[str] = None,
    rating: Union[None, float, Tuple[float, float]] = None,
    seed: Optional[int] = None,
    timeout: Optional[float] = _DEFAULT,  # type: ignore[assignment]
    unique: bool = True,
    shard: Optional[Tuple[int, int]] = None,
    wave: int = 256,
    needs: Union[None, str, Sequence[str]] = None,
    without: Union[None, str, Sequence[str]] = None,
    automorphic: bool = False,
) -> GenerateIterator:
    """Streams the puzzles of :func:`generate` in item order, with memory bounded by ``wave``
    and the thread count, not by ``n``: for batches too large to hold at once. Dropping the
    iterator stops the work. Ctrl+C raises ``KeyboardInterrupt`` while it waits for a puzzle."""
    n = _count("n", n)
    items = shard_items(n, *shard) if shard is not None else range(n)
    givens = _givens(givens, 81)
    if isinstance(rating, (int, float)):
        rating = (float(rating), float(rating))
    seed, timeout, default_budget = _seed_and_budget(seed, timeout)
    waves = _shudu.generate_waves(
        items.start,
        items.stop,
        seed,
        givens,
        symmetry,
        minimal,
        difficulty,
        rating,
        timeout,
        unique,
        wave,
        _names(needs),
        _names(without),
        automorphic,
    )
    return GenerateIterator(waves, default_budget)


def _givens(givens, cells: int) -> Optional[Tuple[int, int]]:
    """``givens`` (a number or an inclusive range) as a checked ``(a, b)``, or ``None``."""
    if givens is None:
        return None
    if isinstance(givens, (int, np.integer)):
        givens = (givens, givens)
    return tuple(_count("givens", g, 0, cells) for g in givens)


def _seed_and_budget(seed, timeout):
    """The seed (random when ``None``), the time budget, and the default budget when it is the
    one in force (a cut by it warns)."""
    if seed is None:
        seed = _random.getrandbits(64)
    seed = _count("seed", seed, 0, 2**64 - 1)
    if timeout is _DEFAULT:
        return seed, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT
    return seed, timeout, None


def _names(techniques: Union[None, str, Sequence[str]]) -> Optional[List[str]]:
    """``"x-wing,xy-wing"`` or ``["x-wing", "xy-wing"]`` as a list of names."""
    if techniques is None:
        return None
    if isinstance(techniques, str):
        return [techniques]
    return list(techniques)


def generate(
    n: int,
    givens: Union[None, int, Tuple[int, int]] = None,
    symmetry: str = "none",
    minimal: bool = False,
    difficulty: Optional[str] = None,
    rating: Union[None, float, Tuple[float, float]] = None,
    seed: Optional[int] = None,
    timeout: Optional[float] = _DEFAULT,  # type: ignore[assignment]
    unique: bool = True,
    shard: Optional[Tuple[int, int]] = None,
    needs: Union[None, str, Sequence[str]] = None,
    without: Union[None, str, Sequence[str]] = None,
    automorphic: bool = False,
) -> List[Generated]:
    """Makes ``n`` puzzles with exactly one solution, as ``shudu generate`` does.

    ``givens`` is a number or an inclusive ``(a, b)`` range; ``symmetry`` one of ``none``,
    ``rot180``, ``rot90``, ``mirror-h``, ``mirror-v``, ``mirror-both``, ``diagonal``,
    ``anti-diagonal``, ``both-diagonals``, ``dihedral``; ``difficulty`` a band (``easy`` ...
    ``extreme``) or ``rating`` an SE rating or ``(low, high)`` range (each puzzle then carries its
    :class:`Rating`). The same ``seed`` gives the same puzzles as ``shudu generate --seed``.
    ``shard=(i, k)`` makes only shard ``i`` of ``k`` of the batch, like ``--shard i/k``: the
    shards of one seed, concatenated, are exactly the whole batch (see :func:`shard_items`).
    With ``timeout`` (seconds; :data:`DEFAULT_TIMEOUT`, 600, when not given; ``None`` for no
    limit), the puzzles found in time are returned (fewer than asked: the list says how many
    were found, and a cut by the default budget warns). Ctrl+C raises ``KeyboardInterrupt``. Raises ``ValueError`` at once for requests no puzzle can
    satisfy. :func:`iter_generate` streams instead.

    ``needs`` names techniques that every puzzle's solving path must use (``"x-wing"``,
    ``["xy-wing", "skyscraper"]``, or a family such as ``"fish"``, met by any member) and
    ``without`` techniques or families it must not use (``"chains"``), as ``shudu generate
    --needs ... --without ...``; ``shudu generate --list-techniques`` lists the names. Such
    puzzles carry their :class:`Rating`.

    ``automorphic=True`` (only with ``symmetry="rot180"`` and ``minimal=True``, as ``shudu
    generate --automorphic``) starts from grids with a half-turn automorphism: about 3.5 times
    faster, but nearly every puzzle is then automorphic itself (a half turn plus a renaming of
    digits maps it to itself), a structure experienced solvers can exploit.
    """
    return list(
        iter_generate(
            n, givens, symmetry, minimal, difficulty, rating, seed, timeout, unique, shard,
            needs=needs, without=without, automorphic=automorphic,
        )
    )


def iter_grids(
    n: int,
    seed: Optional[int] = None,
    first_digit: Optional[int] = None,
    wave: int = 65536,
    shard: Optional[Tuple[int, int]] = None,
    uniform: bool = False,
) -> Iterator[str]:
    """Streams ``n`` distinct random complete grids, the same as ``shudu grids -n N --seed S``,
    with memory bounded by ``wave`` (the next wave is made while this one is consumed).
    ``shard=(i, k)`` streams only shard ``i`` of ``k``, as ``--shard i/k``: the shards of one
    seed concatenate to the whole batch and are distinct across shards. ``uniform=True`` draws
    every grid with equal probability, as ``--uniform`` (not with ``shard``)."""
    if n < 0:
        raise ValueError(f"n {n}: expected a count >= 0")
    if uniform and shard is not None:
        raise ValueError("uniform grids cannot be sharded")
    items = shard_items(n, *shard) if shard is not None else range(n)
    if seed is None:
        seed = _random.getrandbits(64)
    for w in _shudu.grid_waves(len(items), seed, first_digit, wave, items.start, uniform):
        yield from w


def grids(
    n: int,
    seed: Optional[int] = None,
    first_digit: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    uniform: bool = False,
) -> List[str]:
    """``n`` distinct random complete grids as 81-character strings (see :func:`iter_grids`)."""
    return list(iter_grids(n, seed, first_digit, shard=shard, uniform=uniform))


@dataclass(frozen=True)
class Canonical:
    """The canonical form of a board (``shudu canon``): equal forms if and only if the boards
    are the same up to transposing, permuting bands, rows within a band, stacks, columns within
    a stack, and renaming digits."""

    form: str
    """The least equivalent board, 81 characters (``.`` for empty); a grid's starts ``123456789``."""
    automorphisms: int
    """How many of those transformations map the board to itself (1 for almost every grid)."""


def canonical(board: PuzzleLike) -> Canonical:
    """The canonical form of a grid or puzzle. Raises ``ValueError`` for a board that cannot be
    read."""
    (result, error), = _shudu.canonical_many([_text(board)])
    if error is not None:
        raise ValueError(error)
    return Canonical(*result)


def canonical_many(boards: Iterable[PuzzleLike]) -> List[Union[Canonical, ValueError]]:
    """The canonical forms of many boards, in parallel without the GIL; a board that cannot be
    read gives its ``ValueError`` in its place."""
    return [
        Canonical(*result) if error is None else ValueError(error)
        for result, error in _shudu.canonical_many([_text(b) for b in boards])
    ]


def count_grids() -> int:
    """The number of complete 9x9 grids, computed by band counting (about a second):
    6,670,903,752,021,072,936,960."""
    return int(_shudu.count_grids())


# Variants: other sizes, X, Windoku, anti-knight, anti-king, jigsaw and killer (docs/variants.md).

VARIANTS: Tuple[str, ...] = ("x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer")
"""The names ``variant=`` takes; sizes are 4, 6, 8, 9, 12 and 16."""


@dataclass(frozen=True)
class VariantGenerated:
    """A variant puzzle from :func:`generate_variants`, with its unique solution.

    ``puzzle`` is the line format (one symbol a cell, ``1-9`` then ``A-G``, ``.`` for empty),
    ``None`` for jigsaw and killer puzzles, whose regions and cages it cannot hold; ``link`` is
    the puzzle as an f-puzzles link (``https://f-puzzles.com/?load=...``, which SudokuPad opens
    too, and :func:`solve_variant` reads back), rules included; ``solution`` is in the line
    format. Item ``i`` of seed ``s`` is the puzzle ``shudu generate --size --variant --seed s``
    writes on line ``i + 1``.
    """

    puzzle: Optional[str]
    link: str
    solution: str
    size: int
    item: int


def _variant_names(variant: Union[str, Sequence[str]]) -> List[str]:
    """``"x,killer"`` or ``["x", "killer"]`` as a list of names."""
    if isinstance(variant, str):
        return [v for v in variant.split(",") if v.strip()]
    if not isinstance(variant, (list, tuple)) or not all(isinstance(v, str) for v in variant):
        raise TypeError(f"variant {variant!r}: expected a name or a list of names from {VARIANTS}")
    return list(variant)


def _variant_text(puzzle) -> str:
    if isinstance(puzzle, VariantGenerated):
        return puzzle.link
    if not isinstance(puzzle, str):
        raise TypeError(
            f"found {type(puzzle).__name__}; expected a variant puzzle: a line of symbols, an "
            "f-puzzles document or link"
        )
    return puzzle


def count_variant_solutions(
    puzzle: Union[str, VariantGenerated],
    size: int = 9,
    variant: Union[str, Sequence[str]] = (),
    limit: int = 2,
) -> int:
    """How many solutions a variant puzzle has, counting up to ``limit`` (0, 1, or ``limit``
    meaning "at least that many").

    ``puzzle`` is a line of symbols under ``size`` and ``variant`` (e.g. ``size=6,
    variant="x"``), or an f-puzzles JSON document or link, which brings its own rules (jigsaw
    regions and killer cages included; then leave ``size`` and ``variant`` out). Raises
    ``ValueError`` saying where the puzzle or the rules are wrong.
    """
    size = _count("size", size, 1)
    limit = _count("limit", limit, 1)
    return _shudu.variant_count(_variant_text(puzzle), size, _variant_names(variant), limit)[0]


def solve_variant(
    puzzle: Union[str, VariantGenerated],
    size: int = 9,
    variant: Union[str, Sequence[str]] = (),
) -> Optional[str]:
    """The first solution of a variant puzzle in the line format, or ``None`` if it has none.
    ``puzzle``, ``size`` and ``variant`` as for :func:`count_variant_solutions`."""
    size = _count("size", size, 1)
    return _shudu.variant_count(_variant_text(puzzle), size, _variant_names(variant), 1)[1]


def rate_variant(
    puzzle: Union[str, VariantGenerated],
    size: int = 9,
    variant: Union[str, Sequence[str]] = (),
    timeout: float = 10.0,
) -> Rating:
    """Rates a variant puzzle on the Sudoku Explainer scale with the techniques that hold for
    every rule set (and, for killer, cage combinations and innies and outies), as ``shudu grade
    --size --variant`` does; a classic 9x9 gets SE's own rating. ``puzzle``, ``size`` and
    ``variant`` as for :func:`count_variant_solutions`.

    Raises ``ValueError`` for a puzzle without exactly one solution, or one not rated within
    ``timeout`` seconds (the hardest puzzles need nested chains, seconds each)."""
    size = _count("size", size, 1)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout {timeout!r}: expected a number of seconds")
    return Rating._from(
        _shudu.variant_rate(_variant_text(puzzle), size, _variant_names(variant), float(timeout))
    )


def generate_variants(
    n: int,
    size: int = 9,
    variant: Union[str, Sequence[str]] = (),
    givens: Union[None, int, Tuple[int, int]] = None,
    symmetry: str = "none",
    minimal: bool = False,
    cages: Optional[int] = None,
    seed: Optional[int] = None,
    timeout: Optional[float] = _DEFAULT,  # type: ignore[assignment]
) -> List[VariantGenerated]:
    """Makes ``n`` variant puzzles with exactly one solution, as ``shudu generate --size
    --variant`` does (the same ``seed``, the same puzzles), in parallel with the GIL released.

    ``size`` is 4, 6, 8, 9, 12 or 16; ``variant`` names from :data:`VARIANTS` (``"x,killer"``
    or a list); jigsaw gives each puzzle a random layout of its own, killer covers the grid
    with cages of at most ``cages`` cells (default 5) and no givens unless ``givens`` asks for
    some. ``givens`` is a number or an inclusive ``(a, b)`` range (default: as few as
    uniqueness allows); ``symmetry`` and ``minimal`` as for :func:`generate`. With ``timeout``
    (seconds; :data:`DEFAULT_TIMEOUT` when not given, ``None`` for no limit) the puzzles found
    in time are returned, and a cut by the default budget warns. :func:`rate_variant` rates them.
    """
    n = _count("n", n)
    size = _count("size", size, 1)
    givens = _givens(givens, size * size)
    if cages is not None:
        cages = _count("cages", cages, 2, size)
    seed, timeout, default_budget = _seed_and_budget(seed, timeout)
    made, timed_out = _shudu.variant_generate(
        0, n, seed, size, _variant_names(variant), givens, symmetry, minimal, cages, timeout
    )
    if timed_out and default_budget is not None:
        _warnings.warn(
            f"found {len(made)} of {n} variant puzzles in the default time budget of "
            f"{default_budget:g} s (shudu.DEFAULT_TIMEOUT); pass timeout= (None for no limit) to "
            "search longer",
            RuntimeWarning,
            stacklevel=2,
        )
    return [VariantGenerated(p, link, sol, size, item) for item, p, link, sol in made]


def trace_schema(item: bool = False):
    """The Arrow schema of :func:`traces` and :func:`dataset` (``item=True``: with the ``item``
    column first), the schema of ``shudu explain --format json`` too. Needs ``pyarrow``.

    One row a puzzle: ``puzzle`` and ``solution`` (81 characters; ``.`` for empty),
    ``givens``, the SE ratings ``er``, ``ep``, ``ed``, ``band``, ``hardest`` (the technique of
    the step rated ``er``), and ``steps``: SE's solving path in order, each step a struct of
    ``technique``, ``rating``, ``cells`` and ``houses`` it involves (``r1c1``, ``row 1``,
    ``column 4``, ``box 9``), ``placements`` and ``eliminations`` as ``{cell, digit}`` structs,
    and ``text``, the step as one line of plain text (``Hidden Single: ... => place r3c4=7``).
    """
    import pyarrow as pa

    pair = pa.struct([("cell", pa.string()), ("digit", pa.uint8())])
    step = pa.struct(
        [
            ("technique", pa.string()),
            ("rating", pa.float64()),
            ("cells", pa.list_(pa.string())),
            ("houses", pa.list_(pa.string())),
            ("placements", pa.list_(pair)),
            ("eliminations", pa.list_(pair)),
            ("text", pa.string()),
        ]
    )
    fields = [
        ("puzzle", pa.string()),
        ("solution", pa.string()),
        ("givens", pa.uint8()),
        ("er", pa.float64()),
        ("ep", pa.float64()),
        ("ed", pa.float64()),
        ("band", pa.string()),
        ("hardest", pa.string()),
        ("steps", pa.list_(step)),
    ]
    if item:
        fields.insert(0, ("item", pa.int64()))
    return pa.schema(fields)


def _trace_batch(puzzles: List[str], items: Optional[List[int]] = None):
    """The rows of :func:`traces` for ``puzzles`` as one ``pyarrow.RecordBatch``, built from the
    native columns without a Python object a step."""
    import pyarrow as pa

    cols = _shudu.trace_columns(puzzles)

    def strings(key: str):
        offsets, data = cols[key]
        return pa.StringArray.from_buffers(
            len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data)
        )

    def lists(key: str, values, kind):
        return pa.ListArray.from_arrays(pa.array(cols[key]), values, type=pa.list_(kind))

    schema = trace_schema(item=items is not None)
    step = schema.field("steps").type.value_type
    pair = step.field("placements").type.value_type

    def pairs(key: str, prefix: str):
        values = pa.StructArray.from_arrays(
            [strings(f"{prefix}_cell"), pa.array(cols[f"{prefix}_digit"])], fields=list(pair)
        )
        return lists(key, values, pair)

    steps = pa.StructArray.from_arrays(
        [
            strings("technique"),
            pa.array(cols["rating"]),
            lists("cell_lists", strings("cells"), pa.string()),
            lists("house_lists", strings("houses"), pa.string()),
            pairs("placed", "placed"),
            pairs("removed", "removed"),
            strings("text"),
        ],
        fields=list(step),
    )
    columns = [
        strings("puzzle"),
        strings("solution"),
        pa.array(cols["givens"]),
        pa.array(cols["er"]),
        pa.array(cols["ep"]),
        pa.array(cols["ed"]),
        strings("band"),
        strings("hardest"),
        lists("steps", steps, step),
    ]
    if items is not None:
        columns.insert(0, pa.array(items, type=pa.int64()))
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def traces(puzzles: Iterable[PuzzleLike]):
    """The solving paths of ``puzzles`` as a ``pyarrow.Table`` (schema: :func:`trace_schema`),
    in parallel without the GIL; each row is what ``shudu explain --format json`` prints for
    that puzzle. Raises ``ValueError`` naming the index of a puzzle that cannot be read or has
    not exactly one solution. Needs ``pyarrow``."""
    import pyarrow as pa

    texts = [_text(p) for p in puzzles]
    return pa.Table.from_batches([_trace_batch(texts)], schema=trace_schema())


def dataset(
    n: int,
    givens: Union[None, int, Tuple[int, int]] = None,
    symmetry: str = "none",
    minimal: bool = False,
    difficulty: Optional[str] = None,
    rating: Union[None, float, Tuple[float, float]] = None,
    seed: Optional[int] = None,
    timeout: Optional[float] = _DEFAULT,  # type: ignore[assignment]
    shard: Optional[Tuple[int, int]] = None,
    needs: Union[None, str, Sequence[str]] = None,
    without: Union[None, str, Sequence[str]] = None,
    automorphic: bool = False,
    path=None,
    batch: int = 4096,
):
    """A dataset of ``n`` puzzles with their solutions, SE ratings and step-by-step solving
    paths, as a ``pyarrow.Table`` with the ``item`` column first (schema:
    :func:`trace_schema`). The puzzles are :func:`generate`'s for the same arguments (so the
    same ``seed`` gives the same rows, and ``shard=(i, k)`` makes shard ``i`` of ``k``); the
    paths are ``shudu explain``'s. With ``path``, the table is also written there as Parquet
    (zstd; through a temporary file renamed into place). Needs ``pyarrow``.

    Reads back with ``pyarrow.parquet.read_table(path)``, ``pandas.read_parquet(path)`` or
    Hugging Face's ``datasets.Dataset.from_parquet(path)``."""
    import pyarrow as pa

    batch = _count("batch", batch, 1)
    it = iter_generate(
        n, givens, symmetry, minimal, difficulty, rating, seed, timeout, True, shard,
        needs=needs, without=without, automorphic=automorphic,
    )
    batches = []
    chunk: List[Generated] = []
    for g in it:
        chunk.append(g)
        if len(chunk) == batch:
            batches.append(_trace_batch([c.puzzle for c in chunk], [c.item for c in chunk]))
            chunk = []
    if chunk:
        batches.append(_trace_batch([c.puzzle for c in chunk], [c.item for c in chunk]))
    table = pa.Table.from_batches(batches, schema=trace_schema(item=True))
    if path is not None:
        _write_parquet(table, path)
    return table


def _write_parquet(table, path) -> None:
    """Writes ``table`` to ``path`` through a temporary file in the same folder, renamed into
    place: a failure never leaves a half-written file."""
    import os
    import pyarrow.parquet as pq

    path = os.fspath(path)
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
