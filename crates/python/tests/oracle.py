"""An independent oracle for the tests of the `shudu` Python package and its Ray example:
plain backtracking over the rules, written for clarity, not speed (it shares no code with
shudu's solver)."""

from __future__ import annotations


def peers(i):
    """The 20 cells that share a row, column or box with cell ``i``."""
    r, c = divmod(i, 9)
    b = (r // 3) * 3 * 9 + (c // 3) * 3
    out = set(range(r * 9, r * 9 + 9)) | set(range(c, 81, 9))
    out |= {b + 9 * dr + dc for dr in range(3) for dc in range(3)}
    out.discard(i)
    return out


PEERS = [peers(i) for i in range(81)]
def oracle_count(puzzle: str, limit: int = 2) -> int:
    cells = [0 if ch in ".0" else int(ch) for ch in puzzle]
    for i, v in enumerate(cells):
        if v and any(cells[j] == v for j in PEERS[i]):
            return 0
    count = 0

    def search():
        nonlocal count
        best, best_options = None, None
        for i in range(81):
            if cells[i] == 0:
                options = {1, 2, 3, 4, 5, 6, 7, 8, 9} - {cells[j] for j in PEERS[i]}
                if best is None or len(options) < len(best_options):
                    best, best_options = i, options
                    if len(options) <= 1:
                        break
        if best is None:
            count += 1
            return count >= limit
        for v in sorted(best_options):
            cells[best] = v
            if search():
                return True
        cells[best] = 0
        return False

    search()
    return count


def is_valid_grid(grid: str) -> bool:
    if len(grid) != 81 or not grid.isdigit() or "0" in grid:
        return False
    return all(grid[i] != grid[j] for i in range(81) for j in PEERS[i])


def completes(puzzle: str, grid: str) -> bool:
    return all(p in ".0" or p == g for p, g in zip(puzzle, grid))
