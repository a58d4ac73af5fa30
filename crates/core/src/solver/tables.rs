//! The lookup tables of the band representation, built at compile time: segments, row
//! permutations, shrinking and expansion of a band's candidates (see the module docs of
//! [`crate::solver`] and docs/ALGORITHM.md).

pub(super) const BAND: u32 = (1 << 27) - 1;

/// Bit `k` of `SHRINK[x]` is set if and only if the 9-bit row `x` has a candidate in box `k`
/// of the band (columns `3k..3k+3`).
pub(super) const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 0o7 != 0) as u8)
            | (((x & 0o70 != 0) as u8) << 1)
            | (((x & 0o700 != 0) as u8) << 2);
        x += 1;
    }
    t
};

/// For a 9-bit set of non-empty segments (bit `3r + k`: row `r` of the band, box `k`), the
/// segments that lie on some permutation all of whose segments are non-empty; `0` if there is
/// none, which is a contradiction.
pub(super) const SEG_ALLOWED: [u16; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if s & bits == bits {
                t[s] |= bits as u16;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// The six ways a digit can use the segments of a band (or a stack): permutation `p` puts it in
/// box `PERMS[p][r]` of row `r`, as a 9-bit set of segments (bit `3r + k`).
pub(super) const PERM_SEGS: [u16; 6] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 6];
    let mut p = 0;
    while p < 6 {
        t[p] = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
        p += 1;
    }
    t
};

/// For a 9-bit set of non-empty segments, the permutations (bit `p` for `PERM_SEGS[p]`) all of
/// whose segments are non-empty.
pub(super) const PERMS_OF: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            if s as u16 & PERM_SEGS[p] == PERM_SEGS[p] {
                t[s] |= 1 << p;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// For a 9-bit set of non-empty segments, the segments that every permutation all of whose
/// segments are non-empty uses (the segments the digit must fill); `0` if there is none.
pub(super) const SEG_MUST: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        let mut m = 0x1FFu16;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            if s as u16 & PERM_SEGS[p] == PERM_SEGS[p] {
                m &= PERM_SEGS[p];
                any = true;
            }
            p += 1;
        }
        t[s] = if any { m } else { 0 };
        s += 1;
    }
    t
};

/// The number of permutations in `PERMS_OF[s]`.
pub(super) const PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = PERMS_OF[s].count_ones() as u8;
        s += 1;
    }
    t
};

/// The 27-bit mask of the cells in a 9-bit set of segments.
pub(super) const SEG_EXPAND: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut seg = 0;
        while seg < 9 {
            if s & (1 << seg) != 0 {
                t[s] |= 0o7 << ((seg / 3) * 9 + (seg % 3) * 3);
            }
            seg += 1;
        }
        s += 1;
    }
    t
};

/// `SINGLE[x]` is the 9-bit row `x` if it holds exactly one candidate, else `0`.
pub(super) const SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        if (x as u32).count_ones() == 1 {
            t[x] = x as u16;
        }
        x += 1;
    }
    t
};

/// The nine cells of each row of a band.
pub(super) const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// For a digit's 9-bit set of columns in a band, the cells its words in the other two bands keep:
/// a box of the band where one column is left puts the digit in that column, so the other bands
/// lose it (locked candidates from a box to its column).
pub(super) const COL_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut keep = BAND;
        let mut s = 0;
        while s < 3 {
            let cols: usize = (x >> (3 * s)) & 7;
            if cols != 0 && cols & (cols - 1) == 0 {
                let c = 3 * s + (cols.trailing_zeros() as usize);
                keep &= !((1 << c) | (1 << (c + 9)) | (1 << (c + 18)));
            }
            s += 1;
        }
        t[x] = keep;
        x += 1;
    }
    t
};

/// The words of the same digit in the other two bands.
pub(super) const NEIGHBOURS: [(u8, u8); 27] = {
    let mut t = [(0u8, 0u8); 27];
    let mut w = 0;
    while w < 27 {
        let base = (w / 3) * 3;
        let b = w % 3;
        t[w] = ((base + (b + 1) % 3) as u8, (base + (b + 2) % 3) as u8);
        w += 1;
    }
    t
};

/// The band of each word, `w % 3`, from a table: in the root's rounds `w` is not a constant,
/// and the division was several instructions a band update (1.6% of the instructions of rot180
/// minimal generation).
pub(super) const BAND_OF: [u8; 27] = {
    let mut t = [0u8; 27];
    let mut w = 0;
    while w < 27 {
        t[w] = (w % 3) as u8;
        w += 1;
    }
    t
};

/// The three cells of column `c` inside one band.
pub(super) const COL: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
        c += 1;
    }
    t
};

/// The nine cells of box `k` of a band.
pub(super) const BOX: [u32; 3] = [0o7007007, 0o70070070, 0o700700700];
