//! What a user asks for by name: a size and a list of variant names (`x`, `windoku`,
//! `anti-knight`, `anti-king`, `jigsaw`, `killer`), the generation options that go with them,
//! and one puzzle of a batch by its item number. The CLI (`shudu generate --size --variant`)
//! and the Python package read the same names and make the same puzzles for the same seed.

use crate::generate::Symmetry;
use crate::time::Instant;

use super::generate::{generate, generate_jigsaw, VariantConfig, VariantGenerateError};
use super::puzzle::VariantPuzzle;
use super::rules::{Rules, RulesError};

/// The names [`Variants::parse`] takes.
pub const NAMES: &str = "x, windoku, anti-knight, anti-king, jigsaw, killer";

/// Why a size and variant names make no rules ([`Variants::parse`]); [`VariantsError::argument`]
/// says which of the two a caller names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantsError {
    /// A size without boxes, or a variant the size does not allow (Windoku off 9x9).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A name that is not a variant.
    #[error("unknown variant '{0}', expected one of {NAMES}")]
    Unknown(String),
}

impl VariantsError {
    /// The argument at fault: `"size"` or `"variant"`.
    pub fn argument(&self) -> &'static str {
        match self {
            VariantsError::Rules(RulesError::Size(_)) => "size",
            _ => "variant",
        }
    }
}

/// A size and its variant rules; jigsaw regions and killer cages are made anew for each puzzle.
#[derive(Clone, Debug)]
pub struct Variants {
    rules: Rules,
    jigsaw: bool,
    killer: bool,
}

impl Variants {
    /// Reads a size and variant names (case and spaces ignored; `classic` adds nothing).
    ///
    /// # Errors
    ///
    /// A size without boxes, an unknown name, or Windoku on a size other than 9; the caller
    /// adds which argument it was ([`VariantsError::argument`]).
    pub fn parse(size: usize, names: &[impl AsRef<str>]) -> Result<Variants, VariantsError> {
        let mut rules = Rules::classic(size)?;
        let (mut jigsaw, mut killer) = (false, false);
        for name in names {
            match name.as_ref().trim().to_ascii_lowercase().as_str() {
                "x" | "diagonal" | "diagonals" => rules = rules.with_diagonals(),
                "windoku" => rules = rules.with_windoku()?,
                "anti-knight" => rules = rules.with_anti_knight(),
                "anti-king" => rules = rules.with_anti_king(),
                "jigsaw" => jigsaw = true,
                "killer" => killer = true,
                "classic" | "" => {}
                other => return Err(VariantsError::Unknown(other.to_string())),
            }
        }
        Ok(Variants {
            rules,
            jigsaw,
            killer,
        })
    }

    /// The rules every puzzle shares (without the jigsaw regions or killer cages, which each
    /// puzzle gets its own of).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether each puzzle gets a random jigsaw layout.
    pub fn jigsaw(&self) -> bool {
        self.jigsaw
    }

    /// Whether each puzzle gets killer cages.
    pub fn killer(&self) -> bool {
        self.killer
    }

    /// Whether the line format holds these puzzles (no regions or cages of their own).
    pub fn fits_line(&self) -> bool {
        !self.jigsaw && !self.killer
    }

    /// The generation options: `givens` (default: as few as uniqueness allows, none for a
    /// killer), the symmetry, minimality, and `cages`, the largest killer cage (default 5, or
    /// the size when smaller).
    ///
    /// # Errors
    ///
    /// `cages` without killer, or more givens than cells, as a message naming the option.
    pub fn config(
        &self,
        givens: Option<(usize, usize)>,
        symmetry: Symmetry,
        minimal: bool,
        cages: Option<usize>,
    ) -> Result<VariantConfig, String> {
        let n = self.rules.size();
        let cells = n * n;
        if cages.is_some() && !self.killer {
            return Err("cages: only for killer puzzles (variant killer)".into());
        }
        let givens = match givens {
            Some((a, b)) if a > b => {
                return Err(format!("givens: the range {a}..{b} is empty"));
            }
            Some((_, b)) if b > cells => {
                return Err(format!(
                    "givens: a {n}x{n} puzzle has {cells} cells, so at most {cells} givens, not {b}"
                ));
            }
            Some(g) => g,
            None if self.killer => (0, 0),
            None => (0, cells),
        };
        Ok(VariantConfig {
            givens,
            symmetry,
            minimal,
            killer: self.killer.then(|| cages.unwrap_or(5.min(n))),
        })
    }

    /// Puzzle `item` of the batch of `seed`: its own seed mixed from the two, so a batch is
    /// the same whatever the order or the threads that make it; on a jigsaw layout of its own
    /// when asked.
    ///
    /// # Errors
    ///
    /// As [`generate`]: the deadline passed, rules with no solution, an impossible request.
    pub fn generate(
        &self,
        config: &VariantConfig,
        seed: u64,
        item: u64,
        deadline: Instant,
    ) -> Result<VariantPuzzle, VariantGenerateError> {
        let seed = item_seed(seed, item);
        if self.jigsaw {
            generate_jigsaw(&self.rules, config, seed, deadline)
        } else {
            generate(&self.rules, config, seed, deadline)
        }
    }
}

/// Reads a variant puzzle as the Python package and the npm package take one: the line format
/// under `size` and the variant `names`, or an f-puzzles document (`{...}`) or link, which
/// brings its own rules (then `size` must be 9 and `names` empty, their defaults).
///
/// # Errors
///
/// A message that starts with the argument at fault (`size:`, `variant:` or `puzzle:`) and says
/// what was expected.
pub fn read_puzzle(
    text: &str,
    size: usize,
    names: &[impl AsRef<str>],
) -> Result<VariantPuzzle, String> {
    let t = text.trim();
    if t.starts_with('{') || t.starts_with("https://") || t.starts_with("http://") {
        if size != 9 || names.iter().any(|n| !n.as_ref().trim().is_empty()) {
            return Err(
                "size and variant: an f-puzzles document or link brings its own rules; leave them out"
                    .into(),
            );
        }
        let read = if t.starts_with('{') {
            super::fpuzzles::from_json(t)
        } else {
            super::fpuzzles::from_link(t)
        };
        return read.map_err(|e| format!("puzzle: {e}"));
    }
    let v = Variants::parse(size, names).map_err(|e| format!("{}: {e}", e.argument()))?;
    if !v.fits_line() {
        return Err(
            "variant: jigsaw regions and killer cages do not fit in the line format; pass an \
             f-puzzles document or link, which holds them"
                .into(),
        );
    }
    VariantPuzzle::parse_line(v.rules().clone(), t).map_err(|e| format!("puzzle: {e}"))
}

/// The seed of item `item` of a batch (SplitMix64 of the two).
fn item_seed(seed: u64, item: u64) -> u64 {
    let mut z = seed ^ item.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
