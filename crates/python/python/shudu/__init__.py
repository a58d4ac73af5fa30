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
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _shudu

__version__: str = _shudu.__version__
"""The version of shudu this package was built from."""

__all__ = [
    "PuzzleLike",
    "Rating",
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
]

PuzzleLike = Union[str, Sequence[int], np.ndarray]
"""A puzzle: an 81-character string (or any format ``shudu`` reads, such as the 729-character
pencil-mark line, whose marks ``solve``, ``count_solutions``, ``rate``, ``explain`` and ``hint``
keep to, as the CLI does), or 81 integers 0-9 (0 for empty)."""


def _text(puzzle: PuzzleLike) -> str:
    """The puzzle as text for the core's reader."""
    if isinstance(puzzle, str):
        return puzzle
    if isinstance(puzzle, (bytes, bytearray)):
        return puzzle.decode("ascii", errors="replace")
    cells = list(np.asarray(puzzle).reshape(-1))
    if len(cells) != 81:
        raise ValueError(f"found {len(cells)} cells; expected 81")
    out = []
    for i, v in enumerate(cells):
        v = int(v)
        if not 0 <= v <= 9:
            raise ValueError(
                f"cell {i + 1} (r{i // 9 + 1}c{i % 9 + 1}): found {v}; expected 0 (empty) or 1-9"
            )
        out.append(str(v) if v else ".")
    return "".join(out)


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

    Raises ``ValueError`` for a puzzle that cannot be read (with its position).
    """
    return _shudu.solve(_text(puzzle))


def count_solutions(puzzle: PuzzleLike, limit: int = 2) -> int:
    """How many solutions ``puzzle`` has, counting up to ``limit`` (0, 1, or ``limit`` meaning
    "at least that many")."""
    if limit < 0:
        raise ValueError(f"limit {limit}: expected a count >= 0")
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
    if limit < 1:
        raise ValueError(f"limit {limit}: expected a count >= 1")
    texts = []
    early = {}
    for i, p in enumerate(puzzles):
        try:
            texts.append(_text(p))
        except ValueError as e:
            early[i] = str(e)
            texts.append("")
    out = []
    for i, (count, solution, error) in enumerate(_shudu.solve_many(texts, limit)):
        if i in early:
            out.append(Solved("invalid", None, None, early[i]))
        elif error is not None:
            out.append(Solved("invalid", None, None, error))
        else:
            out.append(Solved(_status(count, limit), count, solution, None))
    return out


def solve_array(puzzles: np.ndarray, limit: int = 2) -> Tuple[np.ndarray, np.ndarray]:
    """Solves an ``(N, 81)`` ``uint8`` array (0 for empty) in parallel.

    Returns ``(solutions, counts)``: an ``(N, 81)`` ``uint8`` array of first solutions (a row of
    zeros where there is none) and an ``(N,)`` ``uint8`` array of solution counts up to ``limit``.
    Raises ``ValueError`` naming the row and column of a value above 9.
    """
    if limit < 1 or limit > 255:
        raise ValueError(f"limit {limit}: expected 1 to 255")
    arr = np.ascontiguousarray(puzzles)
    if arr.ndim == 1 and arr.shape[0] == 81:
        arr = arr.reshape(1, 81)
    if arr.ndim != 2 or arr.shape[1] != 81:
        raise ValueError(f"expected an array of shape (N, 81), found {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 255):
            raise ValueError("values must be 0 (empty) or 1-9")
        arr = arr.astype(np.uint8)
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
    """Rows of an ``(N, 81)`` array as 81-character strings (``.`` for 0)."""
    arr = np.asarray(arr)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != 81:
        raise ValueError(f"expected an array of shape (N, 81), found {arr.shape}")
    out = []
    for i, row in enumerate(arr):
        if row.min(initial=0) < 0 or row.max(initial=0) > 9:
            col = int(np.argmax((row < 0) | (row > 9)))
            raise ValueError(f"row {i}, column {col}: found {row[col]}; expected 0 (empty) or 1-9")
        out.append("".join(str(int(v)) if v else "." for v in row))
    return out


def rate(puzzle: PuzzleLike) -> Rating:
    """Rates ``puzzle`` on the Sudoku Explainer scale (the same figures as ``shudu grade``); a
    pencil-mark line from its marks."""
    return Rating._from(_shudu.rate(_text(puzzle)))


def rate_many(puzzles: Iterable[PuzzleLike]) -> List[Union[Rating, ValueError]]:
    """Rates every puzzle in parallel (GIL released); a record that cannot be read gets the
    ``ValueError`` saying why in its place."""
    out: List[Union[Rating, ValueError]] = []
    for rating, error in _shudu.rate_many([_text(p) for p in puzzles]):
        out.append(ValueError(error) if error is not None else Rating._from(rating))
    return out


def explain(puzzle: PuzzleLike) -> Explanation:
    """The step-by-step human-style solution, as ``shudu explain`` gives it."""
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

    def __init__(self, waves) -> None:
        self._waves = waves
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
    timeout: Optional[float] = None,
    unique: bool = True,
    shard: Optional[Tuple[int, int]] = None,
    wave: int = 256,
    needs: Union[None, str, Sequence[str]] = None,
    without: Union[None, str, Sequence[str]] = None,
    automorphic: bool = False,
) -> GenerateIterator:
    """Streams the puzzles of :func:`generate` in item order, with memory bounded by ``wave``
    and the thread count, not by ``n``: for batches too large to hold at once. Dropping the
    iterator stops the work."""
    if n < 0:
        raise ValueError(f"n {n}: expected a count >= 0")
    items = shard_items(n, *shard) if shard is not None else range(n)
    if isinstance(givens, int):
        givens = (givens, givens)
    if isinstance(rating, (int, float)):
        rating = (float(rating), float(rating))
    if seed is None:
        seed = _random.getrandbits(64)
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
    return GenerateIterator(waves)


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
    timeout: Optional[float] = None,
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
    With ``timeout`` (seconds), the puzzles found in time are returned (fewer than asked: the
    list says how many were found). Raises ``ValueError`` at once for requests no puzzle can
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
