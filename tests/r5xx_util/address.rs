//! Seed 003's address tables 1 and 2 (§2.1.4) restated for the CLI tests, independently of
//! `frontend/r5xx/src/mc`: the linear bit slicing and the tiled layouts, row by row. Only
//! x[11:0] and y[11:0] take part, and the address wraps at 32 bits.

/// Bits `hi..=lo` of `v`.
pub fn bits(v: u32, hi: u32, lo: u32) -> u32 {
    (v >> lo) & ((1 << (hi - lo + 1)) - 1)
}

/// Bit `n` of `v`.
pub fn bit(v: u32, n: u32) -> u32 {
    (v >> n) & 1
}

/// Seed 003 table 1: bits 31:5 = y * pitch[13:k] + x[11:k] + offset[31:5]; bits 4:0 =
/// x[k-1:0] followed by log2(bpe) zeros, with k = 5 - log2(bpe).
pub fn linear(base: u32, pitch: u32, bpe: u32, x: u32, y: u32) -> u32 {
    let (x, y) = (x & 0xfff, y & 0xfff);
    let s = bpe.trailing_zeros();
    let k = 5 - s;
    let hi = y
        .wrapping_mul(bits(pitch, 13, k))
        .wrapping_add(bits(x, 11, k))
        .wrapping_add(base >> 5);
    hi << 5 | bits(x, k - 1, 0) << s
}

/// Seed 003 table 2, row by row: bits 31:11, the bit pairs 10:9, 8:7, 6:5 and bits 4:0.
pub fn tiled(base: u32, pitch: u32, bpe: u32, x: u32, y: u32) -> u32 {
    let (x, y) = (x & 0xfff, y & 0xfff);
    let (x_, y_) = (|n| bit(x, n), |n| bit(y, n));
    let (top, p10, p8, p6, low) = match bpe {
        2 => (
            bits(y, 11, 5) * bits(pitch, 13, 5) + bits(x, 11, 5),
            [y_(4) ^ x_(5), x_(4) ^ y_(5)],
            [y_(3) ^ x_(4), x_(3) ^ y_(4)],
            [y_(2), x_(2)],
            (bits(y, 1, 0) << 2 | bits(x, 1, 0)) << 1,
        ),
        4 => (
            bits(y, 11, 4) * bits(pitch, 13, 5) + bits(x, 11, 5),
            [y_(3) ^ x_(5), x_(4) ^ y_(4)],
            [y_(2) ^ x_(4), x_(3) ^ y_(3)],
            [y_(1), x_(2)],
            (y_(0) << 2 | bits(x, 1, 0)) << 2,
        ),
        8 => (
            bits(y, 11, 4) * bits(pitch, 13, 4) + bits(x, 11, 4),
            [y_(3) ^ x_(4), x_(3) ^ y_(4)],
            [y_(2) ^ x_(3), x_(2) ^ y_(3)],
            [y_(1), x_(1)],
            (y_(0) << 1 | x_(0)) << 3,
        ),
        16 => (
            bits(y, 11, 3) * bits(pitch, 13, 4) + bits(x, 11, 4),
            [y_(2) ^ x_(4), x_(3) ^ y_(3)],
            [y_(1) ^ x_(3), x_(2) ^ y_(2)],
            [y_(0), x_(1)],
            x_(0) << 4,
        ),
        _ => unreachable!("no format has {bpe} bytes"),
    };
    let pair = |p: [u32; 2]| p[0] << 1 | p[1];
    top.wrapping_add(base >> 11) << 11 | pair(p10) << 9 | pair(p8) << 7 | pair(p6) << 5 | low
}
