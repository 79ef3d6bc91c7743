//! MEM_RD_SCATTER through the lifter, on the interpreter and the JIT: step `i` reads the
//! element at pool dword `ARRAY_BASE + INDEXED * SRC_GPR.SRC_SEL_X + i * (ELEM_SIZE + 1)`
//! (seed 000 6.1 L2160-L2169) with the vertex-fetch formats, into `DST_GPR + i`. Expected
//! registers are decoded here from the pool bytes with host arithmetic.
mod lift_common;
use lift_common::*;
use wavejit_ir::MemSpace;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::FetchInst;
use wavejit_terascale::tables::FetchOp;
use wavejit_terascale::ChipClass;

/// The fields of a MEM_RD_SCATTER the tests vary.
struct Rd {
    es: u32,
    index: Option<(u32, u32)>,
    burst_m1: u32,
    dst: u32,
    sel: [u32; 4],
    fmt: u32,
    num: u32,
    signed: bool,
    base: u32,
}

fn scatter(r: &Rd) -> FetchInst {
    let (src, chan) = r.index.unwrap_or((0, 0));
    let w0 = 2
        | r.es << 5
        | 2 << 8
        | u32::from(r.index.is_some()) << 12
        | src << 16
        | chan << 24
        | r.burst_m1 << 26;
    let w1 = r.dst
        | r.sel[0] << 9
        | r.sel[1] << 12
        | r.sel[2] << 15
        | r.sel[3] << 18
        | r.fmt << 22
        | r.num << 28
        | u32::from(r.signed) << 30;
    FetchInst {
        op: FetchOp::MEM_RD_SCATTER,
        words: [w0, w1, r.base],
    }
}

fn pool(dwords: u32) -> Vec<u8> {
    (0..dwords)
        .flat_map(|k| (k.wrapping_mul(0x2545_f491) ^ 0x8000_00ff).to_le_bytes())
        .collect()
}

fn dword(p: &[u8], k: u32) -> u32 {
    let at = 4 * k as usize;
    u32::from_le_bytes(p[at..at + 4].try_into().unwrap())
}

#[test]
fn indexed_bursts_step_by_the_element_size() {
    // FMT_32_32 INT, ELEM_SIZE 1: step i at dword 3 + R1.y + 2i; DST_SEL (y, x, 0, 1).
    let r = Rd {
        es: 1,
        index: Some((1, 1)),
        burst_m1: 2,
        dst: 10,
        sel: [1, 0, 4, 5],
        fmt: 29,
        num: 1,
        signed: false,
        base: 3,
    };
    let mem = pool(512);
    for class in [ChipClass::Evergreen, ChipClass::Cayman] {
        let p = Prog::new(class).fetch(vec![scatter(&r)]).build();
        let start = Start {
            // R1.y holds 5 * lane.
            gprs: vec![(1, 1, Box::new(|l| 5 * l))],
            pool: mem.clone(),
            ..Start::default()
        };
        let o = run(&p, &start);
        assert_eq!(o.result, Ok(()));
        for l in 0..LANES {
            for i in 0..3 {
                let k = 3 + 5 * l + 2 * i;
                let want = [dword(&mem, k + 1), dword(&mem, k), 0, 1];
                let got: Vec<u32> = (0..4).map(|c| o.r(10 + i, c, l)).collect();
                assert_eq!(got, want, "{class:?} lane {l} step {i}");
            }
        }
    }
}

#[test]
fn formats_convert_like_vertex_fetches_for_active_lanes_only() {
    // FMT_8_8_8_8 UNORM and FMT_16_16 SINT at dword 7 + R2.x, ELEM_SIZE 0, no burst.
    let mem = pool(128);
    let unorm = Rd {
        es: 0,
        index: Some((2, 0)),
        burst_m1: 0,
        dst: 5,
        sel: [0, 1, 2, 3],
        fmt: 26,
        num: 0,
        signed: false,
        base: 7,
    };
    let sint = Rd {
        dst: 6,
        sel: [1, 0, 7, 5],
        fmt: 15,
        num: 1,
        signed: true,
        ..unorm
    };
    let active = 0xf0f0_ffff_0000_fff1u64;
    let p = Prog::new(ChipClass::Evergreen)
        .fetch(vec![scatter(&unorm), scatter(&sint)])
        .build();
    let start = Start {
        gprs: vec![
            (2, 0, Box::new(|l| l)),
            (5, 0, Box::new(|l| 0xaaaa_0000 | l)),
            (6, 2, Box::new(|l| 0xbbbb_0000 | l)),
        ],
        pool: mem.clone(),
        active,
        ..Start::default()
    };
    let o = run(&p, &start);
    assert_eq!(o.result, Ok(()));
    for l in 0..LANES {
        let on = active >> l & 1 == 1;
        let d = dword(&mem, 7 + l);
        let b = d.to_le_bytes();
        let want_x = if on {
            (f32::from(b[0]) / 255.0).to_bits()
        } else {
            0xaaaa_0000 | l
        };
        assert_eq!(o.r(5, 0, l), want_x, "lane {l} unorm x");
        if on {
            for c in 0..4 {
                assert_eq!(o.r(5, c, l), (f32::from(b[c as usize]) / 255.0).to_bits());
            }
            let lo = i32::from(d as u16 as i16) as u32;
            let hi = i32::from((d >> 16) as u16 as i16) as u32;
            assert_eq!(o.r(6, 0, l), hi, "lane {l} sint y");
            assert_eq!(o.r(6, 1, l), lo, "lane {l} sint x");
            assert_eq!(o.r(6, 3, l), 1, "lane {l} integer one");
        }
        assert_eq!(o.r(6, 2, l), 0xbbbb_0000 | l, "lane {l}: masked channel");
    }
}

#[test]
fn addresses_past_the_pool_are_guest_faults() {
    let r = Rd {
        es: 3,
        index: Some((1, 0)),
        burst_m1: 0,
        dst: 4,
        sel: [0, 1, 2, 3],
        fmt: 34,
        num: 1,
        signed: false,
        base: 0,
    };
    let p = Prog::new(ChipClass::Cayman)
        .fetch(vec![scatter(&r)])
        .build();
    let start = Start {
        gprs: vec![(1, 0, Box::new(|l| if l == 9 { 0xffff_fff0 } else { 0 }))],
        ..Start::default()
    };
    let o = run(&p, &start);
    assert!(
        matches!(
            o.result,
            Err(FaultKind::OutOfBounds {
                space: MemSpace::Global,
                write: false
            })
        ),
        "{:?}",
        o.result
    );
    // A burst running off the end of the mapped memory faults at the step that leaves it:
    // the 256-byte pool and the 64-byte constant buffer after it hold 80 dwords.
    let burst = Rd {
        index: None,
        burst_m1: 15,
        base: 24,
        ..r
    };
    let p = Prog::new(ChipClass::Cayman)
        .fetch(vec![scatter(&burst)])
        .build();
    let o = run(&p, &Start::default());
    assert!(
        matches!(o.result, Err(FaultKind::OutOfBounds { .. })),
        "{:?}",
        o.result
    );
}

#[test]
fn unlifted_scatter_fields_are_rejected() {
    let r = Rd {
        es: 2,
        index: None,
        burst_m1: 0,
        dst: 4,
        sel: [0, 1, 2, 3],
        fmt: 34,
        num: 1,
        signed: false,
        base: 0,
    };
    let one = |f: FetchInst| Prog::new(ChipClass::Evergreen).fetch(vec![f]).build();
    lift_err(&one(scatter(&r)), "invalid: ELEM_SIZE 2");
    let mut f = scatter(&Rd { es: 0, ..r });
    f.words[2] |= 2 << 16;
    lift_err(&one(f), "endian swap");
    let mut f = scatter(&Rd { es: 0, ..r });
    f.words[0] |= 1 << 30;
    lift_err(&one(f), "LDS_REQ");
    let burst = Rd {
        es: 0,
        dst: 120,
        burst_m1: 8,
        ..r
    };
    lift_err(&one(scatter(&burst)), "burst past R127");
}
