//! The exact solver's band updates, all 27 words of a state at once, in AVX-512 vectors.
//!
//! This crate holds shudu's only `unsafe` code, in one module (`avx512`: its intrinsics need it to
//! load and store the words and to be called from code compiled without AVX-512); every other
//! crate of the workspace forbids `unsafe`. What the round computes is explained in
//! docs/ALGORITHM.md ("Band rounds in AVX-512 vectors"); `shudu-core`'s solver calls it at the
//! root of each search when at least six words changed, and runs its scalar band updates
//! everywhere else, on CPUs without AVX-512, and when `SHUDU_SIMD=off` is set.
//!
//! # The words
//!
//! A solver state keeps, for each digit `d` and band `b`, a 27-bit word (index `3d + b`) of the
//! cells of the band where `d` is still a candidate: bit `9r + c` for row `r` of the band and
//! column `c`. A *band update* of a word (the scalar one is `State::update` in `shudu-core`):
//!
//! 1. keeps only the cells of the *segments* (a row's three cells inside a box) that lie on some
//!    way of placing the digit once in each row and once in each box of the band, using only
//!    segments that still hold a candidate; none left is a contradiction;
//! 2. takes from the digit's words in the other two bands each column that is the only one left to
//!    the digit in a box of this band;
//! 3. marks solved the cells that are the only candidate left in their row, and takes them from
//!    the other eight digits' words of the band.
//!
//! A round here updates every word from the words as the round found them (where the scalar
//! updates, one after another, see each other's eliminations at once). Every elimination is one a
//! scalar update makes, and a word whose value has not changed since its last update eliminates
//! nothing new, so rounds repeated until nothing changes reach the scalar updates' fixed point:
//! the same candidates, solved cells and segment sets, hence the same searches.

#![deny(unsafe_code)]

/// An AVX-512 unit, found on this CPU by [`Avx512::detect`]; the only way to run
/// [`Avx512::band_round`].
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl Avx512 {
    /// The unit, if this CPU has AVX-512 with its byte-and-word and vector-length extensions
    /// (`avx512f`, `avx512bw`, `avx512vl`).
    pub fn detect() -> Option<Avx512> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                return Some(Avx512(()));
            }
        }
        None
    }

    /// One round of band updates over all 27 words (see the crate docs): `cand` the words, `prev`
    /// each word's value at its last update, `seg` each word's segment set at its last update
    /// (bit `3r + k` for row `r` inside box `k`), `unsolved` each band's cells not yet solved.
    /// Sets `prev` and `seg` of every word as its update left them. Returns the words (bit `w`)
    /// whose segment set changed, or `None` on a contradiction (a word with no way through its
    /// band's segments, or a cell two digits of a band hold alone in their rows), leaving the
    /// words in an unspecified state, as a scalar update does.
    pub fn band_round(
        self,
        cand: &mut [u32; 27],
        prev: &mut [u32; 27],
        seg: &mut [u16; 27],
        unsolved: &mut [u32; 3],
    ) -> Option<u32> {
        #[cfg(target_arch = "x86_64")]
        {
            avx512::run(self, cand, prev, seg, unsolved)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (cand, prev, seg, unsolved);
            unreachable!("an Avx512 is only made on x86_64")
        }
    }
}

/// The intrinsics, and every `unsafe` block of the workspace. Words `0..16` are one vector
/// (`lo`), words `16..27` the first 11 lanes of another (`hi`, its last five lanes zero and
/// ignored).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx512 {
    use std::arch::x86_64::*;

    /// The 27 cells of a band.
    const BAND: i32 = (1 << 27) - 1;
    /// The lanes of `hi` that hold words (16 to 26).
    const HI: __mmask16 = (1 << 11) - 1;

    /// A 9-bit row pattern repeated on the band's three rows.
    const fn rows(x: i32) -> i32 {
        x | x << 9 | x << 18
    }

    /// For word `16 * half + lane`, the index (0-31, `lo` then `hi`) of a word of the same digit
    /// in band `b + step` (`step` 1 or 2); lanes past the last word read lane 0.
    const fn neighbours(half: usize, step: usize) -> [i32; 16] {
        let mut t = [0i32; 16];
        let mut lane = 0;
        while lane < 16 {
            let w = 16 * half + lane;
            if w < 27 {
                t[lane] = (3 * (w / 3) + (w % 3 + step) % 3) as i32;
            }
            lane += 1;
        }
        t
    }

    /// For word `16 * half + lane`, its band (lanes past the last word: 0).
    const fn bands(half: usize) -> [i32; 16] {
        let mut t = [0i32; 16];
        let mut lane = 0;
        while lane < 16 {
            t[lane] = ((16 * half + lane) % 3) as i32;
            lane += 1;
        }
        t
    }

    /// What a word's band update finds: the word restricted to its allowed segments, those
    /// segments (bit `9r + 3k` for row `r`, box `k`), the cells its words in the other bands keep,
    /// and its solved cells.
    struct Update {
        word: __m512i,
        allowed: __m512i,
        keep: __m512i,
        solved: __m512i,
    }

    /// Steps 1-3 of the crate docs, lane by lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    fn update(a: __m512i) -> Update {
        let set = _mm512_set1_epi32;
        // The occupied segments: bit 9r + 3k when one of the segment's three cells is set.
        let any = _mm512_or_si512(
            a,
            _mm512_or_si512(_mm512_srli_epi32::<1>(a), _mm512_srli_epi32::<2>(a)),
        );
        let occ = _mm512_and_si512(any, set(rows(0o111)));
        // The same segments, box k + 1 (mod 3) and box k + 2 moved to box k inside each row.
        let box1 = _mm512_or_si512(
            _mm512_and_si512(_mm512_srli_epi32::<3>(occ), set(rows(0o011))),
            _mm512_and_si512(_mm512_slli_epi32::<6>(occ), set(rows(0o100))),
        );
        let box2 = _mm512_or_si512(
            _mm512_and_si512(_mm512_srli_epi32::<6>(occ), set(rows(0o001))),
            _mm512_and_si512(_mm512_slli_epi32::<3>(occ), set(rows(0o110))),
        );
        // Row r + 1 (mod 3) and row r + 2 moved to row r.
        let row1 = |x: __m512i| {
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi32::<9>(x), _mm512_slli_epi32::<18>(x)),
                set(BAND),
            )
        };
        let row2 = |x: __m512i| {
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi32::<18>(x), _mm512_slli_epi32::<9>(x)),
                set(BAND),
            )
        };
        // Segment (r, k) lies on a way through the band when the other two rows can take the
        // other two boxes, one each, on occupied segments.
        let through = _mm512_or_si512(
            _mm512_and_si512(row1(box1), row2(box2)),
            _mm512_and_si512(row1(box2), row2(box1)),
        );
        let allowed = _mm512_and_si512(occ, through);
        let cells = _mm512_or_si512(
            allowed,
            _mm512_or_si512(
                _mm512_slli_epi32::<1>(allowed),
                _mm512_slli_epi32::<2>(allowed),
            ),
        );
        let word = _mm512_and_si512(a, cells);
        // The columns left to the digit in the band, and in each box the column left alone.
        let cols = _mm512_and_si512(
            _mm512_or_si512(
                word,
                _mm512_or_si512(_mm512_srli_epi32::<9>(word), _mm512_srli_epi32::<18>(word)),
            ),
            set(0o777),
        );
        let next1 = _mm512_or_si512(
            _mm512_and_si512(_mm512_srli_epi32::<1>(cols), set(0o333)),
            _mm512_and_si512(_mm512_slli_epi32::<2>(cols), set(0o444)),
        );
        let next2 = _mm512_or_si512(
            _mm512_and_si512(_mm512_srli_epi32::<2>(cols), set(0o111)),
            _mm512_and_si512(_mm512_slli_epi32::<1>(cols), set(0o666)),
        );
        let lone = _mm512_andnot_si512(_mm512_or_si512(next1, next2), cols);
        let lone_cells = _mm512_or_si512(
            lone,
            _mm512_or_si512(_mm512_slli_epi32::<9>(lone), _mm512_slli_epi32::<18>(lone)),
        );
        let keep = _mm512_andnot_si512(lone_cells, set(BAND));
        // The rows with one cell left: that cell is solved.
        let single = |row: __m512i| {
            let low = _mm512_sub_epi32(row, set(1));
            _mm512_maskz_mov_epi32(_mm512_testn_epi32_mask(row, low), row)
        };
        let r0 = single(_mm512_and_si512(word, set(0o777)));
        let r1 = single(_mm512_and_si512(word, set(0o777 << 9)));
        let r2 = single(_mm512_and_si512(word, set(0o777 << 18)));
        let solved = _mm512_or_si512(r0, _mm512_or_si512(r1, r2));
        Update {
            word,
            allowed,
            keep,
            solved,
        }
    }

    /// The segment set `allowed` (bit `9r + 3k`) as the scalar updates keep it (bit `3r + k`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    fn compact(allowed: __m512i) -> __m512i {
        let set = _mm512_set1_epi32;
        // Inside each row, bit 3k moves to bit k.
        let x = _mm512_or_si512(
            _mm512_and_si512(allowed, set(rows(0o001))),
            _mm512_or_si512(
                _mm512_and_si512(_mm512_srli_epi32::<2>(allowed), set(rows(0o002))),
                _mm512_and_si512(_mm512_srli_epi32::<4>(allowed), set(rows(0o004))),
            ),
        );
        // Row r's three bits move from bit 9r to bit 3r.
        _mm512_or_si512(
            _mm512_and_si512(x, set(0o7)),
            _mm512_or_si512(
                _mm512_and_si512(_mm512_srli_epi32::<6>(x), set(0o70)),
                _mm512_and_si512(_mm512_srli_epi32::<12>(x), set(0o700)),
            ),
        )
    }

    /// [`super::Avx512::band_round`]; `_unit` is the proof that this CPU runs AVX-512.
    pub(super) fn run(
        _unit: super::Avx512,
        cand: &mut [u32; 27],
        prev: &mut [u32; 27],
        seg: &mut [u16; 27],
        unsolved: &mut [u32; 3],
    ) -> Option<u32> {
        // SAFETY: `round` needs avx512f, avx512bw and avx512vl; an `Avx512` is made only by
        // `Avx512::detect`, after this CPU reported all three.
        unsafe { round(cand, prev, seg, unsolved) }
    }

    /// One round, in the intrinsics.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    fn round(
        cand: &mut [u32; 27],
        prev: &mut [u32; 27],
        seg: &mut [u16; 27],
        unsolved: &mut [u32; 3],
    ) -> Option<u32> {
        let p = cand.as_mut_ptr().cast::<i32>();
        // SAFETY: `cand` has 27 words: the first load reads words 0-15, the second, masked to
        // its first 11 lanes, words 16-26 only (masked-off lanes are not read).
        let (lo, hi) = unsafe {
            (
                _mm512_loadu_epi32(p),
                _mm512_maskz_loadu_epi32(HI, p.add(16)),
            )
        };
        let ulo = update(lo);
        let uhi = update(hi);
        // A word with no way through its band: a contradiction.
        let none = _mm512_testn_epi32_mask(ulo.allowed, ulo.allowed)
            | (_mm512_testn_epi32_mask(uhi.allowed, uhi.allowed) & HI);
        if none != 0 {
            return None;
        }
        // Each band's solved cells, over its nine words: `hi`'s lanes moved up one (word 16 + j
        // to lane j + 1, the same band modulo 3) and folded onto `lo`, then lanes three apart
        // ORed together, leaving band b's cells in lane b.
        // `twice`: the cells that two words of a band solved, two digits each alone in its row
        // there: a contradiction (the scalar updates find it an update later, when the second
        // takes the cell from the first).
        let zero = _mm512_setzero_si512();
        let up = _mm512_alignr_epi32::<15>(uhi.solved, zero);
        let mut s = _mm512_or_si512(ulo.solved, up);
        let mut twice = _mm512_and_si512(ulo.solved, up);
        let (s3, t3) = (
            _mm512_alignr_epi32::<3>(zero, s),
            _mm512_alignr_epi32::<3>(zero, twice),
        );
        twice = _mm512_or_si512(_mm512_or_si512(twice, t3), _mm512_and_si512(s, s3));
        s = _mm512_or_si512(s, s3);
        let (s6, t6) = (
            _mm512_alignr_epi32::<6>(zero, s),
            _mm512_alignr_epi32::<6>(zero, twice),
        );
        twice = _mm512_or_si512(_mm512_or_si512(twice, t6), _mm512_and_si512(s, s6));
        s = _mm512_or_si512(s, s6);
        let (s12, t12) = (
            _mm512_alignr_epi32::<12>(zero, s),
            _mm512_alignr_epi32::<12>(zero, twice),
        );
        twice = _mm512_or_si512(_mm512_or_si512(twice, t12), _mm512_and_si512(s, s12));
        s = _mm512_or_si512(s, s12);
        if _mm512_test_epi32_mask(twice, twice) & 0b111 != 0 {
            return None;
        }
        let lo_band = _mm512_permutexvar_epi32(constants(&bands(0)), s);
        let hi_band = _mm512_permutexvar_epi32(constants(&bands(1)), s);
        let mut solved_bands = [0i32; 4];
        // SAFETY: `solved_bands` is 16 bytes, the size of the 128-bit store.
        unsafe {
            _mm_storeu_si128(solved_bands.as_mut_ptr().cast(), _mm512_castsi512_si128(s));
        }
        for (u, &b) in unsolved.iter_mut().zip(&solved_bands) {
            *u &= !(b as u32);
        }
        // The other bands' kept columns, and the solved cells of the band's other digits.
        let keep = |u: &Update, half: usize| {
            let k1 = _mm512_permutex2var_epi32(ulo.keep, constants(&neighbours(half, 1)), uhi.keep);
            let k2 = _mm512_permutex2var_epi32(ulo.keep, constants(&neighbours(half, 2)), uhi.keep);
            _mm512_and_si512(u.word, _mm512_and_si512(k1, k2))
        };
        let new_lo = _mm512_andnot_si512(_mm512_andnot_si512(ulo.solved, lo_band), keep(&ulo, 0));
        let new_hi = _mm512_andnot_si512(_mm512_andnot_si512(uhi.solved, hi_band), keep(&uhi, 1));
        let (seg_lo, seg_hi) = (compact(ulo.allowed), compact(uhi.allowed));
        let q = prev.as_mut_ptr().cast::<i32>();
        let g = seg.as_mut_ptr().cast::<i16>();
        // SAFETY: `seg` has 27 entries of 16 bits: the first load reads entries 0-15, the
        // second, masked to its first 11 lanes, entries 16-26 only.
        let (old_lo, old_hi) = unsafe {
            (
                _mm512_cvtepu16_epi32(_mm256_loadu_si256(g.cast())),
                _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(HI, g.add(16))),
            )
        };
        let moved = _mm512_cmpneq_epi32_mask(seg_lo, old_lo) as u32
            | ((_mm512_cmpneq_epi32_mask(seg_hi, old_hi) & HI) as u32) << 16;
        // SAFETY: `cand` and `prev` have 27 words and `seg` 27 entries: the unmasked stores write
        // entries 0-15, the masked ones entries 16-26 only (masked-off lanes are not written).
        unsafe {
            _mm512_storeu_epi32(p, new_lo);
            _mm512_mask_storeu_epi32(p.add(16), HI, new_hi);
            _mm512_storeu_epi32(q, ulo.word);
            _mm512_mask_storeu_epi32(q.add(16), HI, uhi.word);
            _mm512_mask_cvtepi32_storeu_epi16(g, 0xFFFF, seg_lo);
            _mm512_mask_cvtepi32_storeu_epi16(g.add(16), HI, seg_hi);
        }
        Some(moved)
    }

    /// A vector of constants (from a `const` table: the compiler keeps it in read-only data).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    fn constants(t: &[i32; 16]) -> __m512i {
        // SAFETY: `t` is 16 `i32`s, the 64 bytes the load reads.
        unsafe { _mm512_loadu_epi32(t.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::Avx512;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The six ways through a band: way `p` puts the digit in box `WAYS[p][r]` of row `r`.
    const WAYS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];

    /// One round as the crate docs state it, cell by cell: `None` on a contradiction.
    #[allow(clippy::type_complexity)]
    fn reference(
        cand: &[u32; 27],
        unsolved: &[u32; 3],
    ) -> Option<([u32; 27], [u32; 27], [u16; 27], [u32; 3])> {
        let (mut word, mut seg, mut keep, mut solved) =
            ([0u32; 27], [0u16; 27], [0u32; 27], [0u32; 27]);
        for w in 0..27 {
            let a = cand[w];
            let occupied = |r: usize, k: usize| a >> (9 * r + 3 * k) & 7 != 0;
            for way in WAYS {
                if (0..3).all(|r| occupied(r, way[r])) {
                    for (r, &k) in way.iter().enumerate() {
                        seg[w] |= 1 << (3 * r + k);
                        word[w] |= 7 << (9 * r + 3 * k);
                    }
                }
            }
            if seg[w] == 0 {
                return None;
            }
            word[w] &= a;
            keep[w] = (1 << 27) - 1;
            for k in 0..3 {
                let cols: Vec<usize> = (3 * k..3 * k + 3)
                    .filter(|&c| (0..3).any(|r| word[w] >> (9 * r + c) & 1 != 0))
                    .collect();
                if let [c] = cols[..] {
                    keep[w] &= !(1 << c | 1 << (c + 9) | 1 << (c + 18));
                }
            }
            for r in 0..3 {
                let row = word[w] & 0o777 << (9 * r);
                if row.count_ones() == 1 {
                    solved[w] |= row;
                }
            }
        }
        let mut band = [0u32; 3];
        for w in 0..27 {
            if band[w % 3] & solved[w] != 0 {
                return None;
            }
            band[w % 3] |= solved[w];
        }
        let mut next = [0u32; 27];
        for w in 0..27 {
            let (d, b) = (w / 3, w % 3);
            let others = band[b] & !solved[w];
            next[w] = word[w] & keep[3 * d + (b + 1) % 3] & keep[3 * d + (b + 2) % 3] & !others;
        }
        let left = [0, 1, 2].map(|b| unsolved[b] & !band[b]);
        Some((next, word, seg, left))
    }

    /// The vector round against [`reference`] on random words, dense and sparse, with and
    /// without contradictions.
    #[test]
    fn the_vector_round_is_the_reference_round() {
        let Some(unit) = Avx512::detect() else {
            eprintln!("no AVX-512 on this CPU: the vector round is not tested here");
            return;
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
        let (mut ok, mut dead) = (0, 0);
        for i in 0..20_000 {
            // Each cell a candidate with a probability from 1/8 to 7/8.
            let density = 1 + i % 7;
            let mut cand = [0u32; 27];
            for w in cand.iter_mut() {
                for bit in 0..27 {
                    if rng.random_range(0..8) < density {
                        *w |= 1 << bit;
                    }
                }
            }
            let unsolved = [0, 1, 2].map(|_| rng.random::<u32>() & ((1 << 27) - 1));
            let expected = reference(&cand, &unsolved);
            // The segment sets of the last updates: all open for some words, a band's random
            // set for the others.
            let old = [0, 1, 2].map(|_| rng.random::<u16>() & 0x1FF);
            let before: [u16; 27] =
                std::array::from_fn(|w| if w % 4 == 0 { 0x1FF } else { old[w % 3] });
            let (mut c, mut p, mut s, mut u) = (cand, [0u32; 27], before, unsolved);
            let got = unit.band_round(&mut c, &mut p, &mut s, &mut u);
            assert_eq!(got.is_some(), expected.is_some(), "{cand:?}");
            if let Some((next, prev, seg, left)) = expected {
                assert_eq!((c, p, s, u), (next, prev, seg, left), "{cand:?}");
                let moved = (0..27)
                    .filter(|&w| seg[w] != before[w])
                    .fold(0, |m, w| m | 1 << w);
                assert_eq!(got, Some(moved), "{cand:?}");
                ok += 1;
            } else {
                dead += 1;
            }
        }
        assert!(ok > 2_000 && dead > 2_000, "{ok} {dead}");
    }
}
