//! Human-style logic: a step-by-step solver with Sudoku Explainer ratings (in progress).
