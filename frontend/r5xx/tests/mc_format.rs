//! Surfaces decoded from command words, and the data formats' conversions (the documented
//! choices of `mc::format`), with expected values computed on the host independently.

use wavejit_r5xx::mc::{DataFormat, McError, Surface, Tiling};

fn f(v: f32) -> u32 {
    v.to_bits()
}

const ONE: u32 = 0x3f80_0000;

#[test]
fn decode_reads_the_seed_fields() {
    // pitch 100 (bits 12:2 = 25), TILED, FLOAT32_2; base low bits ignored.
    let s = Surface::decode(0x0001_27ff, 100 | 1 << 16 | 3 << 24, 77, true).unwrap();
    assert_eq!(
        s,
        Surface {
            base: 0x0001_2000,
            pitch: 100,
            tiling: Tiling::Tiled,
            format: DataFormat::Float32x2,
            height: 77
        }
    );
    assert_eq!(s.format_word(), 100 | 1 << 16 | 3 << 24);
    assert_eq!(s.bpe(), 8);
    let max = Surface::decode(0xffff_f800, 0x1ffc | 3 << 16 | 2 << 24, 8191, true).unwrap();
    assert_eq!(
        (max.pitch, max.tiling, max.format, max.height),
        (8188, Tiling::TiledInp2x2, DataFormat::Float32x1, 8191)
    );
    let names: Vec<_> = (0..5)
        .map(|v| DataFormat::from_bits(v).unwrap())
        .map(|d| (d.name(), d.bpe(), d.channel_count()))
        .collect();
    assert_eq!(
        names,
        [
            ("UINT16_1", 2, 1),
            ("UINT8_4", 4, 4),
            ("FLOAT32_1", 4, 1),
            ("FLOAT32_2", 8, 2),
            ("FLOAT32_4", 16, 4)
        ]
    );
}

#[test]
fn decode_rejects_what_the_seed_reserves() {
    for v in 5..8 {
        assert_eq!(
            Surface::decode(0, v << 24, 0, false),
            Err(McError::ReservedFormat(v))
        );
    }
    for low in 1..4 {
        assert_eq!(
            Surface::decode(0, 64 | low, 0, false),
            Err(McError::PitchLowBits(64 | low))
        );
    }
    for bit in [13, 15, 18, 23, 27, 31] {
        let e = Surface::decode(0, 1 << bit, 0, false).unwrap_err();
        assert!(
            matches!(e, McError::Reserved { word: "format", .. }),
            "bit {bit}: {e}"
        );
    }
    let e = Surface::decode(0, 0, 8192, false).unwrap_err();
    assert!(matches!(e, McError::Reserved { word: "height", .. }));
    let msg = Surface::decode(0, 6 << 24, 0, false)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("data format 6") && !msg.contains('\n'),
        "{msg}"
    );
}

#[test]
fn superfine_needs_one_channel_for_inputs_only() {
    for (fmt, ok) in [(0, true), (1, false), (2, true), (3, false), (4, false)] {
        for tiling in [2, 3] {
            let word = 64 | tiling << 16 | fmt << 24;
            assert_eq!(
                Surface::decode(0, word, 0, true).is_ok(),
                ok,
                "format {fmt} tiling {tiling}"
            );
            assert!(
                Surface::decode(0, word, 0, false).is_ok(),
                "non-inputs ignore superfine"
            );
        }
    }
}

fn linear(format: DataFormat, pitch: u32) -> Surface {
    Surface {
        base: 0x800,
        pitch,
        tiling: Tiling::Linear,
        format,
        height: 0,
    }
}

#[test]
fn unorm_reads_divide_by_the_maximum() {
    let mut mem = vec![0u8; 0x1000];
    let s = linear(DataFormat::Uint8x4, 32);
    mem[0x800 + 4 * 3..0x800 + 4 * 4].copy_from_slice(&[0, 255, 128, 1]);
    let want = [
        0,
        ONE,
        f((128.0f64 / 255.0) as f32),
        f((1.0f64 / 255.0) as f32),
    ];
    assert_eq!(s.read(&mem, 3, 0, true).unwrap(), want);
    let s = linear(DataFormat::Uint16x1, 32);
    for (v, want) in [
        (0u16, 0),
        (0xffff, ONE),
        (0x8000, f((32768.0f64 / 65535.0) as f32)),
        (1, f((1.0f64 / 65535.0) as f32)),
    ] {
        mem[0x800 + 2 * 5..0x800 + 2 * 6].copy_from_slice(&v.to_le_bytes());
        assert_eq!(
            s.read(&mem, 5, 0, false).unwrap(),
            [want, 0, 0, ONE],
            "{v:#x}"
        );
    }
}

#[test]
fn float_reads_are_raw_bits_and_missing_channels_are_0_0_1() {
    let mut mem = vec![0u8; 0x1000];
    let raw = [0x7fc0_0001u32, 0x0000_0001, 0x8000_0000, 0xff80_0000];
    for (i, w) in raw.iter().enumerate() {
        mem[0x800 + 4 * i..0x800 + 4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    assert_eq!(
        linear(DataFormat::Float32x4, 32)
            .read(&mem, 0, 0, true)
            .unwrap(),
        raw
    );
    assert_eq!(
        linear(DataFormat::Float32x2, 32)
            .read(&mem, 0, 0, true)
            .unwrap(),
        [raw[0], raw[1], 0, ONE]
    );
    assert_eq!(
        linear(DataFormat::Float32x1, 32)
            .read(&mem, 3, 0, true)
            .unwrap(),
        [raw[3], 0, 0, ONE]
    );
}

#[test]
fn unorm_writes_clamp_and_round_to_nearest_even() {
    let s = linear(DataFormat::Uint8x4, 32);
    let mut mem = vec![0xaau8; 0x1000];
    let cases = [
        ([-1.0, 2.0, f32::NAN, 0.5], [0, 255, 0, 128]),
        (
            [0.25, f32::INFINITY, f32::NEG_INFINITY, -0.0],
            [64, 255, 0, 0],
        ),
        ([1.0 / 255.0, 1e-40, 254.5 / 255.0, 0.999], [1, 0, 254, 255]),
    ];
    for (v, want) in cases {
        s.write(&mut mem, 1, 0, 0xf, v.map(f)).unwrap();
        // 254.5 / 255 * 255 is exactly 254.5 in f32: a tie, which goes to the even 254.
        assert_eq!(&mem[0x804..0x808], &want, "{v:?}");
    }
    let s = linear(DataFormat::Uint16x1, 32);
    for (v, want) in [
        (0.5f32, 32768u16),
        (1.5, 65535),
        (-3.0, 0),
        (f32::NAN, 0),
        (1.0 / 65535.0, 1),
    ] {
        s.write(&mut mem, 2, 0, 1, [f(v), 0, 0, 0]).unwrap();
        assert_eq!(u16::from_le_bytes([mem[0x804], mem[0x805]]), want, "{v}");
    }
}

#[test]
fn unorm_round_trips_every_value() {
    let mut mem = vec![0u8; 0x20000 + 0x800];
    let s8 = linear(DataFormat::Uint8x4, 64);
    for v in 0..=255u8 {
        mem[0x800..0x804].copy_from_slice(&[v, 255 - v, v / 2, 7]);
        let c = s8.read(&mem, 0, 0, true).unwrap();
        s8.write(&mut mem, 1, 0, 0xf, c).unwrap();
        assert_eq!(mem[0x804..0x808], mem[0x800..0x804]);
    }
    let s16 = linear(DataFormat::Uint16x1, 0x1_0000 - 4);
    for v in 0..=0xffffu32 {
        mem[0x800..0x802].copy_from_slice(&(v as u16).to_le_bytes());
        let c = s16.read(&mem, 0, 0, true).unwrap();
        assert_eq!(c[1..], [0, 0, ONE]);
        s16.write(&mut mem, 1, 0, 1, c).unwrap();
        assert_eq!(u16::from_le_bytes([mem[0x802], mem[0x803]]) as u32, v);
    }
}

#[test]
fn masked_channels_keep_their_bytes() {
    let mut mem = vec![0xaau8; 0x1000];
    linear(DataFormat::Uint8x4, 32)
        .write(&mut mem, 0, 0, 0b0101, [f(1.0), f(1.0), 0, 0])
        .unwrap();
    assert_eq!(&mem[0x800..0x804], &[255, 0xaa, 0, 0xaa]);
    let mut mem = vec![0xaau8; 0x1000];
    let v = [f(1.5), f(-2.0), f(3.0), f(4.0)];
    linear(DataFormat::Float32x4, 32)
        .write(&mut mem, 0, 0, 0b1010, v)
        .unwrap();
    let words: Vec<u32> = mem[0x800..0x810]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, [0xaaaa_aaaa, f(-2.0), 0xaaaa_aaaa, f(4.0)]);
    let mut mem = vec![0xaau8; 0x1000];
    linear(DataFormat::Float32x2, 32)
        .write(&mut mem, 0, 0, 0xf, v)
        .unwrap();
    assert_eq!(
        &mem[0x808..0x810],
        &[0xaa; 8],
        "FLOAT32_2 writes two channels only"
    );
    // A float write stores raw bits: NaN payloads and denormals survive.
    linear(DataFormat::Float32x1, 32)
        .write(&mut mem, 4, 0, 1, [0x7fc0_1234, 0, 0, 0])
        .unwrap();
    assert_eq!(&mem[0x810..0x814], &0x7fc0_1234u32.to_le_bytes());
}

/// A FLOAT32_1 surface whose element (x, y) holds x + 1000 * y.
fn grid(tiling: Tiling, pitch: u32) -> (Surface, Vec<u8>) {
    let s = Surface {
        base: 0x800,
        pitch,
        tiling,
        format: DataFormat::Float32x1,
        height: 0,
    };
    let mut mem = vec![0u8; 0x800 + 4 * 4096 * 48];
    for y in 0..34 {
        for x in (0..40).chain(4090..4096) {
            s.write(&mut mem, x, y, 1, [f((x + 1000 * y) as f32), 0, 0, 0])
                .unwrap();
        }
    }
    (s, mem)
}

#[test]
fn superfine_reads_fetch_the_2x2_neighbourhood() {
    let v = |x: u32, y: u32| f((x + 1000 * y) as f32);
    for tiling in [Tiling::LinearInp2x2, Tiling::TiledInp2x2] {
        let (s, mem) = grid(tiling, 4096);
        for (x, y) in [(0, 0), (5, 7), (31, 31), (38, 32)] {
            let want = [v(x + 1, y), v(x, y + 1), v(x + 1, y + 1), v(x, y)];
            assert_eq!(
                s.read(&mem, x, y, true).unwrap(),
                want,
                "{tiling:?} ({x}, {y})"
            );
            assert_eq!(
                s.read(&mem, x, y, false).unwrap(),
                [v(x, y), 0, 0, ONE],
                "non-inputs ignore superfine"
            );
        }
        // x + 1 wraps at 12 bits like any coordinate.
        assert_eq!(
            s.read(&mem, 4095, 3, true).unwrap(),
            [v(0, 3), v(4095, 4), v(0, 4), v(4095, 3)]
        );
    }
    let (s, mem) = grid(Tiling::Linear, 4096);
    assert_eq!(s.read(&mem, 5, 7, true).unwrap(), [v(5, 7), 0, 0, ONE]);
}

#[test]
fn accesses_outside_memory_are_errors() {
    let mut mem = vec![0u8; 0x1000];
    let s = linear(DataFormat::Float32x4, 32);
    assert!(s.read(&mem, 127, 0, true).is_ok());
    assert_eq!(
        s.read(&mem, 128, 0, true),
        Err(McError::OutOfMemory(0x1000))
    );
    assert_eq!(
        s.write(&mut mem, 128, 0, 0xf, [0; 4]),
        Err(McError::OutOfMemory(0x1000))
    );
    // A partly outside element writes nothing.
    let s = linear(DataFormat::Float32x4, 32);
    let mut small = vec![0u8; 0x808];
    assert!(s.write(&mut small, 0, 0, 0xf, [ONE; 4]).is_err());
    assert!(small.iter().all(|&b| b == 0));
}
