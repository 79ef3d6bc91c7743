//! Scratch through the lifter, on the interpreter and the JIT: MEM_WR_SCRATCH and
//! MEM_RD_SCRATCH (seed 000 3.4.2-3.4.3 L1003-L1063, 6.1 L2154, 6.3 L2175; MEM_RD_WORD0-2
//! L9685-L9811). Expected memory and registers are computed here from the documented
//! formula: element `ARRAY_BASE + clamp(index, 0, N - 1) + step` with `N = ARRAY_SIZE + 1`,
//! nothing at or past `ARRAY_BASE + N`, component `c` at byte `4 * (d * e + c)` of the lane's
//! private segment with `d = ELEM_SIZE + 1` dwords per element (1, 2 or 4).
mod lift_common;
use lift_common::*;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::{CfInst, CfMem, FetchInst};
use wavejit_terascale::lift::scratch_lane_bytes;
use wavejit_terascale::tables::{CfMemOp, FetchOp};
use wavejit_terascale::ChipClass;

const CLASSES: [ChipClass; 2] = [ChipClass::Evergreen, ChipClass::Cayman];

/// MEM_WR_SCRATCH of R`rw`.. (COMP_MASK `mask`), indexed by R`index`.x when `indexed`.
fn write(rw: u8, index: Option<u8>, base: u16, size_m1: u16, burst_m1: u8, mask: u8) -> CfInst {
    write_es(3, rw, index, base, size_m1, burst_m1, mask)
}

/// [`write`] with ELEM_SIZE `es`.
fn write_es(
    es: u8,
    rw: u8,
    index: Option<u8>,
    base: u16,
    size_m1: u16,
    burst_m1: u8,
    mask: u8,
) -> CfInst {
    CfInst::Mem(CfMem {
        op: CfMemOp::MEM_WR_SCRATCH,
        rat: None,
        array_base: base,
        kind: if index.is_some() { 3 } else { 2 },
        rw_gpr: rw,
        rw_rel: false,
        index_gpr: index.unwrap_or(0),
        elem_size: es,
        array_size: size_m1,
        comp_mask: mask,
        burst_count: burst_m1,
        valid_pixel_mode: false,
        end_of_program: false,
        mark: true,
        barrier: true,
    })
}

/// MEM_RD_SCRATCH into R`dst` with DST_SEL `sel`, indexed by R`index`.`chan` when given.
fn read(
    dst: u8,
    sel: [u32; 4],
    index: Option<(u8, u8)>,
    base: u32,
    size_m1: u32,
    burst_m1: u32,
) -> FetchInst {
    read_es(3, 34, dst, sel, index, base, size_m1, burst_m1)
}

/// [`read`] with ELEM_SIZE `es` and DATA_FORMAT `fmt` (NUM_FORMAT_ALL INT).
#[allow(clippy::too_many_arguments)]
fn read_es(
    es: u32,
    fmt: u32,
    dst: u8,
    sel: [u32; 4],
    index: Option<(u8, u8)>,
    base: u32,
    size_m1: u32,
    burst_m1: u32,
) -> FetchInst {
    let (src, chan) = index.unwrap_or((0, 0));
    let w0 = 2
        | es << 5
        | u32::from(index.is_some()) << 12
        | u32::from(src) << 16
        | u32::from(chan) << 24
        | burst_m1 << 26;
    let w1 = u32::from(dst)
        | sel[0] << 9
        | sel[1] << 12
        | sel[2] << 15
        | sel[3] << 18
        | fmt << 22
        | 1 << 28;
    let w2 = base | size_m1 << 20;
    FetchInst {
        op: FetchOp::MEM_RD_SCRATCH,
        words: [w0, w1, w2],
    }
}

fn value(n: u32, c: u32, lane: u32) -> u32 {
    0x1000_0000 * (n + 1) + 0x100 * lane + c
}

/// R`n`.c = value(n, c, lane) for R4..R7; R1.x holds the index `idx(lane)`.
fn start(idx: fn(u32) -> u32, lane_bytes: u32) -> Start {
    let mut gprs: Vec<GprInit> = vec![(1, 0, Box::new(idx))];
    for n in 4..8 {
        for c in 0..4 {
            gprs.push((n, c, Box::new(move |l| value(n, c, l))));
        }
    }
    Start {
        gprs,
        private_lane_bytes: lane_bytes,
        ..Start::default()
    }
}

/// Signed indices around the clamp range [0, 5] (N = 6).
fn idx(lane: u32) -> u32 {
    match lane {
        _ if lane.is_multiple_of(7) => 0x8000_0005,
        _ if lane.is_multiple_of(13) => 0x7fff_ffff,
        _ => ((lane % 11) as i32 - 3) as u32,
    }
}

fn clamp(i: u32, n: u32) -> u32 {
    (i as i32).clamp(0, n as i32 - 1) as u32
}

#[test]
fn indexed_burst_write_clamps_the_index_and_the_burst() {
    // Base 2, N = 6, three steps of R4..R6, components x, z, w.
    let (base, n, steps, mask) = (2u32, 6u32, 3u32, 0b1101u8);
    for class in CLASSES {
        let p = Prog::new(class)
            .cf(write(
                4,
                Some(1),
                base as u16,
                (n - 1) as u16,
                (steps - 1) as u8,
                mask,
            ))
            .build();
        let lane_bytes = scratch_lane_bytes(&p);
        assert_eq!(lane_bytes, 16 * (base + n));
        let o = run(&p, &start(idx, lane_bytes));
        assert_eq!(o.result, Ok(()));
        for lane in 0..LANES {
            let mut want = vec![0u32; (lane_bytes / 4) as usize];
            let i = clamp(idx(lane), n);
            for s in 0..steps {
                if i + s >= n {
                    continue;
                }
                for c in 0..4 {
                    if mask >> c & 1 == 1 {
                        want[(4 * (base + i + s) + c) as usize] = value(4 + s, c, lane);
                    }
                }
            }
            for (k, &w) in want.iter().enumerate() {
                let got = o.private_u32((lane * lane_bytes) as usize + 4 * k);
                assert_eq!(got, w, "{class:?} lane {lane} dword {k}");
            }
        }
    }
}

#[test]
fn reads_return_what_was_written_with_swizzle_and_burst() {
    // Write R4..R7 (all components) at elements 1..4 without an index, then read them back
    // with an index: R10.. = elements 1 + clamp(idx, 0, 3) + step, DST_SEL (w, 0, x, 1).
    let (base, n) = (1u32, 4u32);
    for class in CLASSES {
        let p = Prog::new(class)
            .cf(write(4, None, base as u16, (n - 1) as u16, 3, 0xf))
            .fetch(vec![read(10, [3, 4, 0, 5], Some((1, 0)), base, n - 1, 1)])
            .build();
        let lane_bytes = scratch_lane_bytes(&p);
        let o = run(&p, &start(idx, lane_bytes));
        assert_eq!(o.result, Ok(()));
        for lane in 0..LANES {
            let i = clamp(idx(lane), n);
            for s in 0..2 {
                let r = 10 + s;
                let got: Vec<u32> = (0..4).map(|c| o.r(r, c, lane)).collect();
                let want = if i + s < n {
                    let src = 4 + i + s;
                    vec![value(src, 3, lane), 0, value(src, 0, lane), 1]
                } else {
                    vec![0; 4]
                };
                assert_eq!(got, want, "{class:?} lane {lane} step {s}");
            }
        }
    }
}

#[test]
fn only_active_lanes_access_scratch() {
    let class = ChipClass::Cayman;
    let p = Prog::new(class).cf(write(4, None, 0, 0, 0, 1)).build();
    let mut st = start(idx, scratch_lane_bytes(&p));
    st.active = 0x5555_0000_ffff_0001;
    let o = run(&p, &st);
    for lane in 0..LANES {
        let want = if st.active >> lane & 1 == 1 {
            value(4, 0, lane)
        } else {
            0
        };
        assert_eq!(o.private_u32((lane * 16) as usize), want, "lane {lane}");
    }
}

#[test]
fn a_segment_too_small_is_a_guest_fault() {
    let class = ChipClass::Evergreen;
    let p = Prog::new(class).cf(write(4, None, 3, 0, 0, 1)).build();
    let o = run(&p, &start(idx, 16 * 3));
    assert!(
        matches!(o.result, Err(FaultKind::OutOfBounds { write: true, .. })),
        "{:?}",
        o.result
    );
}

#[test]
fn smaller_elements_use_the_same_formula_in_their_own_units() {
    // ELEM_SIZE 0 and 1: base 2, N = 6, three indexed steps of R4..R6, COMP_MASK x, y, w
    // (only the element's d channels are written).
    let (base, n, steps, mask) = (2u32, 6u32, 3u32, 0b1011u8);
    for (es, d) in [(0u8, 1u32), (1, 2)] {
        let class = CLASSES[usize::from(es)];
        let w = write_es(
            es,
            4,
            Some(1),
            base as u16,
            (n - 1) as u16,
            (steps - 1) as u8,
            mask,
        );
        let p = Prog::new(class).cf(w).build();
        let lane_bytes = scratch_lane_bytes(&p);
        assert_eq!(lane_bytes, 4 * d * (base + n));
        let o = run(&p, &start(idx, lane_bytes));
        assert_eq!(o.result, Ok(()));
        for lane in 0..LANES {
            let mut want = vec![0u32; (lane_bytes / 4) as usize];
            let i = clamp(idx(lane), n);
            for s in 0..steps {
                for c in 0..d {
                    if i + s < n && mask >> c & 1 == 1 {
                        want[(d * (base + i + s) + c) as usize] = value(4 + s, c, lane);
                    }
                }
            }
            for (k, &w) in want.iter().enumerate() {
                let got = o.private_u32((lane * lane_bytes) as usize + 4 * k);
                assert_eq!(got, w, "ELEM_SIZE {es} lane {lane} dword {k}");
            }
        }
    }
}

#[test]
fn small_element_reads_fill_missing_components_like_vertex_fetches() {
    // Write R4..R7 at elements 1..4, read two steps back with an index and DST_SEL
    // (w, y, x, 1): a component past the element's d reads 0 (y, z) or one (w).
    let (base, n) = (1u32, 4u32);
    for (es, fmt, one) in [
        (0u32, 13u32, 1u32),
        (0, 14, 1f32.to_bits()),
        (1, 29, 1),
        (1, 30, 1f32.to_bits()),
        (3, 35, 1f32.to_bits()),
    ] {
        let d = es + 1;
        let class = CLASSES[(fmt % 2) as usize];
        let sel = [3, 1, 0, 5];
        let p = Prog::new(class)
            .cf(write_es(
                es as u8,
                4,
                None,
                base as u16,
                (n - 1) as u16,
                3,
                0xf,
            ))
            .fetch(vec![read_es(
                es,
                fmt,
                10,
                sel,
                Some((1, 0)),
                base,
                n - 1,
                1,
            )])
            .build();
        let o = run(&p, &start(idx, scratch_lane_bytes(&p)));
        assert_eq!(o.result, Ok(()));
        for lane in 0..LANES {
            let i = clamp(idx(lane), n);
            for s in 0..2 {
                let got: Vec<u32> = (0..4).map(|c| o.r(10 + s, c, lane)).collect();
                let want: Vec<u32> = if i + s < n {
                    let src = 4 + i + s;
                    sel.iter()
                        .map(|&c| match c {
                            c if c < d => value(src, c, lane),
                            3 | 5 => one,
                            _ => 0,
                        })
                        .collect()
                } else {
                    vec![0; 4]
                };
                assert_eq!(got, want, "ELEM_SIZE {es} FMT {fmt} lane {lane} step {s}");
            }
        }
    }
}

#[test]
fn mixed_and_unsupported_element_sizes_are_rejected() {
    let class = ChipClass::Cayman;
    // ELEM_SIZE 2 (three dwords) is not a size.
    let w = write_es(2, 4, None, 0, 0, 0, 1);
    lift_err(
        &Prog::new(class).cf(w).build(),
        "invalid: scratch ELEM_SIZE 2",
    );
    let r = read_es(2, 34, 10, [0, 1, 2, 3], None, 0, 0, 0);
    lift_err(&Prog::new(class).fetch(vec![r]).build(), "ELEM_SIZE 2");
    // Two sizes in one program.
    let p = Prog::new(class)
        .cf(write_es(0, 4, None, 0, 0, 0, 1))
        .fetch(vec![read(10, [0, 1, 2, 3], None, 0, 0, 0)])
        .build();
    lift_err(&p, "different ELEM_SIZEs");
    // A data format of another element size.
    let r = read_es(1, 34, 10, [0, 1, 2, 3], None, 0, 0, 0);
    lift_err(&Prog::new(class).fetch(vec![r]).build(), "data format");
}
