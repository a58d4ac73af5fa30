//! The values of command-line options, parsed and checked: givens and rating ranges, the
//! assignment's blanks, shards, durations, thread counts, digits. Each parser returns the
//! message clap prints (what was found and what was expected). They live in the library half of
//! the crate so that the fuzz targets (`fuzz/`) can reach them.

use std::time::Duration;

use shudu_core::logic::Rating;
use shudu_core::rated::MAX_RATING;

/// Parses `K` or `A..B` (also `A..=B`).
pub fn parse_givens(s: &str) -> std::result::Result<(usize, usize), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected a number of givens K or a range A..B, found '{s}'"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let k = num(s)?;
            (k, k)
        }
    };
    if a > b {
        return Err(format!("the range '{s}' is empty: {a} is more than {b}"));
    }
    if b > 256 {
        return Err(format!("'{s}': a puzzle has at most 256 givens (16x16)"));
    }
    Ok((a, b))
}

/// Parses a rating range `A..B`, `A..`, `..B` or `A` (one decimal, as SE prints ratings).
pub fn parse_rating(s: &str) -> std::result::Result<(Rating, Rating), String> {
    let value = |t: &str, default: u16| -> std::result::Result<Rating, String> {
        let t = t.trim().trim_start_matches('=');
        if t.is_empty() {
            return Ok(Rating(default));
        }
        match t.parse::<f64>() {
            Ok(v) if (0.0..=20.0).contains(&v) => Ok(Rating((v * 10.0).round() as u16)),
            _ => Err(format!(
                "expected a rating range such as 6.2..8.0 (ratings from 0.0 to 20.0), found '{s}'"
            )),
        }
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (value(a, 0)?, value(b, MAX_RATING.0)?),
        None => {
            let r = value(s, 0)?;
            (r, r)
        }
    };
    if a > b {
        return Err(format!(
            "the rating range '{s}' is empty: {a} is more than {b}"
        ));
    }
    Ok((a, b))
}

/// A time budget: `None` for no limit (`--timeout none`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeout(pub Option<Duration>);

/// Parses `--timeout`: a duration (see [`parse_duration`]) or `none`.
pub fn parse_timeout(s: &str) -> std::result::Result<Timeout, String> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(Timeout(None));
    }
    parse_duration(s)
        .map(|d| Timeout(Some(d)))
        .map_err(|e| format!("{e}, or 'none' for no limit"))
}

/// Parses a duration: a number followed by `ms`, `s`, `m` or `h`; a bare number is seconds.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || format!("expected a duration such as 30s, 500ms, 2m or 1h, found '{s}'");
    let value: f64 = num.parse().map_err(|_| bad())?;
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(bad()),
    };
    Duration::try_from_secs_f64(value * scale).map_err(|_| bad())
}

/// Parses `--shard I/N`: shard `I` (from 0) of `N`.
pub fn parse_shard(s: &str) -> std::result::Result<Shard, String> {
    let bad = || format!("expected a shard I/N with 0 <= I < N, such as 0/4, found '{s}'");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok(Shard { index: i, of: n })
}

/// Shard `index` of `of`: a consecutive part of a batch's items, so that shards `0..of` of one
/// seed, concatenated in order, are exactly the output of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: usize,
    /// How many shards.
    pub of: usize,
}

impl Shard {
    /// The whole batch.
    pub const ALL: Shard = Shard { index: 0, of: 1 };

    /// The items of a batch of `count` that this shard makes: `count * index / of` up to
    /// `count * (index + 1) / of`.
    pub fn items(self, count: u64) -> std::ops::Range<usize> {
        let at = |k: usize| (count as u128 * k as u128 / self.of as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

/// Parses the blanks range `A~B` (or `A`), each from 20 to 55.
pub fn parse_blanks(s: &str) -> std::result::Result<(usize, usize), String> {
    let bad = || format!("expected a number of blanks A~B with 20 <= A <= B <= 55, found '{s}'");
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let (a, b) = match s.split_once('~') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if !(20..=55).contains(&a) || !(20..=55).contains(&b) || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// The most worker threads `--threads` accepts. Each thread costs memory and start-up time, and
/// some of the batch drivers' costs grow with the square of the thread count (`--threads 4000`
/// took 38 s for three grids); no machine shudu runs on gains from more.
pub const MAX_THREADS: usize = 256;

/// Parses `--threads`: 1 to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        _ => Err(format!(
            "expected a number of threads from 1 to {MAX_THREADS} (this machine has {} cores), found '{s}'",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        )),
    }
}

/// Parses a digit argument 1-9.
pub fn parse_digit(s: &str) -> std::result::Result<shudu_core::Digit, String> {
    s.parse::<u8>()
        .ok()
        .and_then(shudu_core::Digit::new)
        .ok_or_else(|| format!("expected a digit from 1 to 9, found '{s}'"))
}
