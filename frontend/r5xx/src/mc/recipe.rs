//! Seed 003 tables 1 and 2 (§2.1.4) as data: one [`Recipe`] per bytes-per-element and
//! layout, copied row by row from the seed (lines 181-193).
//!
//! A recipe says: bits `[31:shift]` of the address are
//! `y[11:y_lo] * pitch[13:pitch_lo] + x[11:x_lo] + offset[31:shift]` (modulo 2^(32-shift)),
//! and bits `[shift-1:0]` are the listed [`Piece`]s (bits no piece names are 0).

/// A coordinate of the element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coord {
    X,
    Y,
}

/// Bits `coord[lo + width - 1 : lo]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src {
    pub coord: Coord,
    pub lo: u32,
}

/// Address bits `[dst + width - 1 : dst]` = `src`'s `width` bits, xor `xor`'s when given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub dst: u32,
    pub width: u32,
    pub src: Src,
    pub xor: Option<Src>,
}

/// One row of table 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub shift: u32,
    pub y_lo: u32,
    pub pitch_lo: u32,
    pub x_lo: u32,
    pub low: &'static [Piece],
}

const fn x(lo: u32) -> Src {
    Src {
        coord: Coord::X,
        lo,
    }
}

const fn y(lo: u32) -> Src {
    Src {
        coord: Coord::Y,
        lo,
    }
}

/// `width` bits of `src` at `dst`.
const fn run(dst: u32, width: u32, src: Src) -> Piece {
    Piece {
        dst,
        width,
        src,
        xor: None,
    }
}

/// One bit at `dst`: `a ^ b`, in the seed's order of operands.
const fn xor(dst: u32, a: Src, b: Src) -> Piece {
    Piece {
        dst,
        width: 1,
        src: a,
        xor: Some(b),
    }
}

/// Table 1: `[31:5] = y[11:0]*pitch[13:k] + x[11:k] + offset[31:5]`, `[4:0] = x[k-1:0]`
/// followed by log2(bpe) zeros, k = 5, 4, 3, 2, 1 for bpe 1, 2, 4, 8, 16.
const fn linear(k: u32, low: &'static [Piece]) -> Recipe {
    Recipe {
        shift: 5,
        y_lo: 0,
        pitch_lo: k,
        x_lo: k,
        low,
    }
}

const LINEAR: [Recipe; 5] = [
    linear(5, &[run(0, 5, x(0))]),
    linear(4, &[run(1, 4, x(0))]),
    linear(3, &[run(2, 3, x(0))]),
    linear(2, &[run(3, 2, x(0))]),
    linear(1, &[run(4, 1, x(0))]),
];

/// Table 2: `[31:11] = y[11:y_lo]*pitch[13:p_lo] + x[11:x_lo] + offset[31:11]`; columns
/// [10:9], [8:7], [6:5] are two bits each (high bit first), [4:0] lists fields high to low.
const fn tiled(y_lo: u32, pitch_lo: u32, x_lo: u32, low: &'static [Piece]) -> Recipe {
    Recipe {
        shift: 11,
        y_lo,
        pitch_lo,
        x_lo,
        low,
    }
}

const TILED: [Recipe; 5] = [
    // 1: y4^x6, x5^y5 | y3^x5, x4^y4 | y2, x3 | y[1:0], x[2:0]
    tiled(
        5,
        6,
        6,
        &[
            xor(10, y(4), x(6)),
            xor(9, x(5), y(5)),
            xor(8, y(3), x(5)),
            xor(7, x(4), y(4)),
            run(6, 1, y(2)),
            run(5, 1, x(3)),
            run(3, 2, y(0)),
            run(0, 3, x(0)),
        ],
    ),
    // 2: y4^x5, x4^y5 | y3^x4, x3^y4 | y2, x2 | y[1:0], x[1:0], 0
    tiled(
        5,
        5,
        5,
        &[
            xor(10, y(4), x(5)),
            xor(9, x(4), y(5)),
            xor(8, y(3), x(4)),
            xor(7, x(3), y(4)),
            run(6, 1, y(2)),
            run(5, 1, x(2)),
            run(3, 2, y(0)),
            run(1, 2, x(0)),
        ],
    ),
    // 4: y3^x5, x4^y4 | y2^x4, x3^y3 | y1, x2 | y0, x[1:0], 00
    tiled(
        4,
        5,
        5,
        &[
            xor(10, y(3), x(5)),
            xor(9, x(4), y(4)),
            xor(8, y(2), x(4)),
            xor(7, x(3), y(3)),
            run(6, 1, y(1)),
            run(5, 1, x(2)),
            run(4, 1, y(0)),
            run(2, 2, x(0)),
        ],
    ),
    // 8: y3^x4, x3^y4 | y2^x3, x2^y3 | y1, x1 | y0, x0, 000
    tiled(
        4,
        4,
        4,
        &[
            xor(10, y(3), x(4)),
            xor(9, x(3), y(4)),
            xor(8, y(2), x(3)),
            xor(7, x(2), y(3)),
            run(6, 1, y(1)),
            run(5, 1, x(1)),
            run(4, 1, y(0)),
            run(3, 1, x(0)),
        ],
    ),
    // 16: y2^x4, x3^y3 | y1^x3, x2^y2 | y0, x1 | x0, 0000
    tiled(
        3,
        4,
        4,
        &[
            xor(10, y(2), x(4)),
            xor(9, x(3), y(3)),
            xor(8, y(1), x(3)),
            xor(7, x(2), y(2)),
            run(6, 1, y(0)),
            run(5, 1, x(1)),
            run(4, 1, x(0)),
        ],
    ),
];

/// The row of table 1 (`tiled == false`) or table 2 for `bpe` bytes per element, `None`
/// unless bpe is 1, 2, 4, 8 or 16 (1 is in the tables though no data format has it).
pub fn recipe(bpe: u32, tiled: bool) -> Option<&'static Recipe> {
    let row = match bpe {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        16 => 4,
        _ => return None,
    };
    Some(if tiled { &TILED[row] } else { &LINEAR[row] })
}
