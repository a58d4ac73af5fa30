"""Lets the tests import the shared oracle (`oracle.py` beside them) and the Ray example
(`examples/ray/bank.py` of the repository)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2] / "examples" / "ray"))
