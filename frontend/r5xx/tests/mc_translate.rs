//! The MC's address translation against an independent statement of seed 003 tables 1 and 2:
//! the tables' cells are copied here as text (seed lines 181-193) and interpreted by a small
//! evaluator of the seed's notation (`y[11:5]*pitch[13:6]+x[11:6]+offset[31:11]`,
//! `y[4]^x[6],x[5]^y[5]`, `x[0], 0000`), which shares nothing with the crate's recipes.

use wavejit_r5xx::mc::recipe::recipe;
use wavejit_r5xx::mc::{address, translate_with, DataFormat, Host, Surface, Tiling};

/// Table 1: bytes, bits [31:5], bits [4:0].
const TABLE1: [(u32, &str, &str); 5] = [
    (1, "y[11:0]*pitch[13:5]+x[11:5]+offset[31:5]", "x[4:0]"),
    (2, "y[11:0]*pitch[13:4]+x[11:4]+offset[31:5]", "x[3:0],0"),
    (4, "y[11:0]*pitch[13:3]+x[11:3]+offset[31:5]", "x[2:0],00"),
    (8, "y[11:0]*pitch[13:2]+x[11:2]+offset[31:5]", "x[1:0],000"),
    (16, "y[11:0]*pitch[13:1]+x[11:1]+offset[31:5]", "x[0],0000"),
];

/// Table 2: bytes, bits [31:11], [10:9], [8:7], [6:5], [4:0].
const TABLE2: [(u32, &str, [&str; 4]); 5] = [
    (
        1,
        "y[11:5]*pitch[13:6]+x[11:6]+ offset[31:11]",
        [
            "y[4]^x[6],x[5]^y[5]",
            "y[3]^x[5],x[4]^y[4]",
            "y[2],x[3]",
            "y[1:0],x[2:0]",
        ],
    ),
    (
        2,
        "y[11:5]*pitch[13:5]+x[11:5]+ offset[31:11]",
        [
            "y[4]^x[5],x[4]^y[5]",
            "y[3]^x[4],x[3]^y[4]",
            "y[2],x[2]",
            "y[1:0],x[1:0],0",
        ],
    ),
    (
        4,
        "y[11:4]*pitch[13:5]+x[11:5]+ offset[31:11]",
        [
            "y[3]^x[5],x[4]^y[4]",
            "y[2]^x[4],x[3]^y[3]",
            "y[1],x[2]",
            "y[0],x[1:0],00",
        ],
    ),
    (
        8,
        "y[11:4]*pitch[13:4]+x[11:4]+ offset[31:11]",
        [
            "y[3]^x[4],x[3]^y[4]",
            "y[2]^x[3],x[2]^y[3]",
            "y[1],x[1]",
            "y[0],x[0],000",
        ],
    ),
    (
        16,
        "y[11:3]*pitch[13:4]+x[11:4]+ offset[31:11]",
        [
            "y[2]^x[4],x[3]^y[3]",
            "y[1]^x[3],x[2]^y[2]",
            "y[0],x[1]",
            "x[0], 0000",
        ],
    ),
];

struct Vars {
    x: u64,
    y: u64,
    pitch: u64,
    offset: u64,
}

/// A field `name[hi:lo]` or `name[b]`: (value, width).
fn field(text: &str, v: &Vars) -> (u64, u32) {
    let text = text.trim();
    let open = text.find('[').unwrap();
    let value = match &text[..open] {
        "x" => v.x,
        "y" => v.y,
        "pitch" => v.pitch,
        "offset" => v.offset,
        other => panic!("unknown variable {other}"),
    };
    let range = text[open + 1..text.len() - 1]
        .split(':')
        .map(|n| n.parse::<u32>().unwrap())
        .collect::<Vec<_>>();
    let (hi, lo) = (range[0], *range.last().unwrap());
    let width = hi - lo + 1;
    ((value >> lo) & ((1u64 << width) - 1), width)
}

/// A sum of products of fields.
fn sum(text: &str, v: &Vars) -> u64 {
    text.split('+')
        .map(|term| term.split('*').map(|f| field(f, v).0).product::<u64>())
        .sum()
}

/// A comma-separated concatenation, high to low, of xors of fields and zero strings:
/// (value, width).
fn concat(text: &str, v: &Vars) -> (u64, u32) {
    let mut acc = 0u64;
    let mut width = 0;
    for item in text.split(',') {
        let item = item.trim();
        let (bits, w) = if item.chars().all(|c| c == '0') {
            (0, item.len() as u32)
        } else {
            let parts = item.split('^').map(|f| field(f, v)).collect::<Vec<_>>();
            (parts.iter().fold(0, |a, p| a ^ p.0), parts[0].1)
        };
        acc = acc << w | bits;
        width += w;
    }
    (acc, width)
}

fn expected(bpe: u32, tiled: bool, base: u32, pitch: u32, x: u32, y: u32) -> u32 {
    let v = Vars {
        x: x as u64,
        y: y as u64,
        pitch: pitch as u64,
        offset: base as u64,
    };
    if !tiled {
        let (_, hi, lo) = TABLE1.iter().find(|r| r.0 == bpe).unwrap();
        let (low, w) = concat(lo, &v);
        assert_eq!(w, 5, "table 1 row {bpe}: bits [4:0]");
        (((sum(hi, &v) % (1 << 27)) << 5) | low) as u32
    } else {
        let (_, hi, cols) = TABLE2.iter().find(|r| r.0 == bpe).unwrap();
        let mut low = 0;
        for (col, want) in cols.iter().zip([2, 2, 2, 5]) {
            let (bits, w) = concat(col, &v);
            assert_eq!(w, want, "table 2 row {bpe}: column {col}");
            low = low << w | bits;
        }
        (((sum(hi, &v) % (1 << 21)) << 11) | low) as u32
    }
}

const PITCHES: [u32; 9] = [0, 4, 12, 28, 36, 100, 1024, 4092, 8188];
const BASES: [u32; 4] = [0, 0x800, 0x0123_4800, 0xffff_f800];

fn coords() -> Vec<(u32, u32)> {
    let mut c = vec![
        (0, 0),
        (1, 0),
        (0, 1),
        (4095, 4095),
        (4095, 0),
        (0, 4095),
        (2047, 2048),
        (31, 17),
    ];
    let mut s = 0x1234_5678u32;
    for _ in 0..200 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        c.push((s & 0xfff, (s >> 12) & 0xfff));
    }
    c
}

#[test]
fn every_row_matches_the_seed_tables() {
    let mut checked = 0;
    for bpe in [1, 2, 4, 8, 16] {
        for tiled in [false, true] {
            let r = recipe(bpe, tiled).unwrap();
            for pitch in PITCHES {
                for base in BASES {
                    for (x, y) in coords() {
                        let got = translate_with(&mut Host, r, base, pitch, x, y);
                        let want = expected(bpe, tiled, base, pitch, x, y);
                        assert_eq!(
                            got, want,
                            "bpe {bpe} tiled {tiled} base {base:#x} pitch {pitch} ({x}, {y})"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 10 * 9 * 4 * 208);
}

fn surface(format: DataFormat, tiling: Tiling, base: u32, pitch: u32) -> Surface {
    Surface {
        base,
        pitch,
        tiling,
        format,
        height: 0,
    }
}

const FORMATS: [DataFormat; 5] = [
    DataFormat::Uint16x1,
    DataFormat::Uint8x4,
    DataFormat::Float32x1,
    DataFormat::Float32x2,
    DataFormat::Float32x4,
];

#[test]
fn surfaces_use_their_formats_row_and_superfine_does_not_move_elements() {
    for format in FORMATS {
        let bpe = format.bpe();
        for (tiling, tiled) in [
            (Tiling::Linear, false),
            (Tiling::Tiled, true),
            (Tiling::LinearInp2x2, false),
            (Tiling::TiledInp2x2, true),
        ] {
            for (x, y) in coords().into_iter().take(40) {
                let s = surface(format, tiling, 0x4_0000, 100);
                assert_eq!(
                    address(&s, x, y),
                    expected(bpe, tiled, 0x4_0000, 100, x, y),
                    "{format:?} {tiling:?}"
                );
            }
        }
    }
}

#[test]
fn coordinates_wrap_at_12_bits() {
    for format in FORMATS {
        for tiling in [Tiling::Linear, Tiling::Tiled] {
            let s = surface(format, tiling, 0x800, 64);
            assert_eq!(address(&s, 4096, 0), address(&s, 0, 0));
            assert_eq!(address(&s, 4096 + 5, 4096 + 3), address(&s, 5, 3));
            assert_eq!(address(&s, 0xffff_ffff, 7), address(&s, 4095, 7));
        }
    }
}

#[test]
fn linear_equals_the_compact_formula_only_for_pitches_multiple_of_32_over_bpe() {
    for format in FORMATS {
        let bpe = format.bpe();
        let unit = 32 / bpe;
        let good = surface(format, Tiling::Linear, 0x10_0000, unit * 12);
        let bad = surface(format, Tiling::Linear, 0x10_0000, unit * 12 + 4);
        for (x, y) in coords() {
            let compact = |p: u32| 0x10_0000 + bpe * (y * p + x);
            assert_eq!(
                address(&good, x, y),
                compact(good.pitch),
                "{format:?} ({x}, {y})"
            );
            // Table 1 drops the pitch bits below 32 / bpe: rows are pitch rounded down apart.
            assert_eq!(
                address(&bad, x, y),
                compact(bad.pitch / unit * unit),
                "{format:?} ({x}, {y})"
            );
        }
        if unit > 4 {
            assert_ne!(address(&bad, 0, 1), 0x10_0000 + bpe * bad.pitch);
        }
    }
}

#[test]
fn tiles_are_2k_and_each_element_has_its_own_address() {
    // A 4x4-tile tiled surface whose pitch is a whole number of tiles: every element's address
    // is distinct, inside base .. base + 16 tiles, and the elements of one tile fill one 2 KiB.
    for format in FORMATS {
        let bpe = format.bpe();
        let r = recipe(bpe, true).unwrap();
        let (tw, th) = (1u32 << r.x_lo, 1u32 << r.y_lo);
        assert_eq!(tw * th * bpe, 2048, "{format:?}");
        let s = surface(format, Tiling::Tiled, 0x8_0000, tw * 4);
        let mut seen = std::collections::HashSet::new();
        for y in 0..th * 4 {
            for x in 0..tw * 4 {
                let a = address(&s, x, y);
                assert!(
                    (0x8_0000..0x8_0000 + 16 * 2048).contains(&a)
                        && (a - 0x8_0000).is_multiple_of(bpe)
                );
                let tile = (y / th) * 4 + x / tw;
                assert_eq!((a - 0x8_0000) / 2048, tile, "{format:?} ({x}, {y})");
                assert!(seen.insert(a), "{format:?} ({x}, {y}) aliases");
            }
        }
    }
}
