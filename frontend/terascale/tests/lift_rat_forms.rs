//! The RAT forms beyond LLVM's: CMPXCHG_FLT (IEEE equality after reading denormal operands
//! as zero), STORE_RAW_FDENORM (a raw store), NOP_RTN (a read), Cayman's STORE_SHORT /
//! STORE_BYTE (element units), STORE_TYPED on the R32_UINT pool, bursts of the cached forms
//! (`ELEM_SIZE + 1` dwords per step) and out-of-range addresses (guest faults). Expected
//! memory and registers are computed here with host arithmetic from the rules in
//! `lift/mem.rs`'s module doc; `run` checks the interpreter and the JIT agree.
mod lift_common;
use lift_common::*;
use wavejit_ir::MemSpace;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::{CfInst, CfMem, RatFields};
use wavejit_terascale::tables::{CfMemOp, RatInst};
use wavejit_terascale::ChipClass;

const EG: ChipClass = ChipClass::Evergreen;
const CM: ChipClass = ChipClass::Cayman;

/// A RAT instruction on RAT 0: data at R4, index at R0.x, COMP_MASK `mask`.
fn rat(op: CfMemOp, inst: RatInst, mask: u8, burst_m1: u8, elem_size: u8) -> CfInst {
    CfInst::Mem(CfMem {
        op,
        rat: Some(RatFields {
            id: 0,
            inst,
            index_mode: 0,
        }),
        array_base: 0,
        kind: 1,
        rw_gpr: 4,
        rw_rel: false,
        index_gpr: 0,
        elem_size,
        array_size: 0,
        comp_mask: mask,
        burst_count: burst_m1,
        valid_pixel_mode: false,
        end_of_program: false,
        mark: false,
        barrier: true,
    })
}

fn prog(class: ChipClass, i: CfInst) -> wavejit_terascale::Program {
    Prog::new(class).cf(i).build()
}

fn pool_words(o: &Out, n: usize) -> Vec<u32> {
    (0..n).map(|k| o.pool_u32(4 * k)).collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A denormal read as zero of its sign.
fn daz(b: u32) -> u32 {
    if b & 0x7f80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

#[test]
fn cmpxchg_flt_compares_with_denormals_read_as_zero() {
    const CASES: [(u32, u32); 8] = [
        (0x0000_0005, 0x0000_0000),
        (0x8000_0003, 0x0000_0000),
        (0x0000_0005, 0x0000_0007),
        (0x0000_0000, 0x8000_0000),
        (0x7fc0_0000, 0x7fc0_0000),
        (0x3fc0_0000, 0x3fc0_0000),
        (0x3fc0_0000, 0x0000_0005),
        (0x0080_0000, 0x0000_0005),
    ];
    for (inst, rtn) in [
        (RatInst::CMPXCHG_FLT, false),
        (RatInst::CMPXCHG_FLT_RTN, true),
    ] {
        let p = prog(EG, rat(CfMemOp::MEM_RAT, inst, 0xf, 0, 0));
        let mem: Vec<u32> = (0..LANES).map(|l| CASES[l as usize % 8].0).collect();
        let data = |l: u32| 0x0000_0001 + l; // denormal data is stored unchanged
        let start = Start {
            gprs: vec![
                (0, 0, Box::new(|l| 4 * l)),
                (4, 0, Box::new(data)),
                (4, 3, Box::new(|l| CASES[l as usize % 8].1)),
            ],
            pool: bytes_of(&mem),
            ..Start::default()
        };
        let o = run(&p, &start);
        assert_eq!(o.result, Ok(()));
        for l in 0..LANES {
            let (m, c) = CASES[l as usize % 8];
            let eq = f32::from_bits(daz(m)) == f32::from_bits(daz(c));
            let want = if eq { data(l) } else { m };
            assert_eq!(o.pool_u32(4 * l as usize), want, "{inst:?} lane {l}");
            let r = if rtn { m } else { data(l) };
            assert_eq!(o.r(4, 0, l), r, "{inst:?} lane {l} return");
        }
    }
    // Three lanes would differ under CMPXCHG_FDENORM: the rules are not the same.
    let differ = CASES
        .iter()
        .filter(|(m, c)| {
            (f32::from_bits(*m) == f32::from_bits(*c))
                != (f32::from_bits(daz(*m)) == f32::from_bits(daz(*c)))
        })
        .count();
    assert_eq!(differ, 3);
}

#[test]
fn store_raw_fdenorm_stores_the_register_bits() {
    let p = prog(
        EG,
        rat(
            CfMemOp::MEM_RAT_CACHELESS,
            RatInst::STORE_RAW_FDENORM,
            0b1011,
            0,
            0,
        ),
    );
    let v = |l: u32, c: u32| {
        if c == 0 {
            1 + l
        } else {
            0x8000_0000 | (c << 20) | l
        }
    };
    let mut gprs: Vec<GprInit> = vec![(0, 0, Box::new(|l| 4 * l))];
    for c in 0..4 {
        gprs.push((4, c, Box::new(move |l| v(l, c))));
    }
    let start = Start {
        gprs,
        pool: vec![0x55; 4 * 4 * LANES as usize],
        ..Start::default()
    };
    let o = run(&p, &start);
    let mut want = vec![0x5555_5555u32; 4 * LANES as usize];
    for l in 0..LANES {
        for c in [0u32, 1, 3] {
            want[(4 * l + c) as usize] = v(l, c);
        }
    }
    assert_eq!(pool_words(&o, want.len()), want);
}

#[test]
fn nop_rtn_returns_memory_and_leaves_it() {
    for class in [EG, CM] {
        let p = prog(class, rat(CfMemOp::MEM_RAT, RatInst::NOP_RTN, 0xf, 0, 0));
        let mem: Vec<u32> = (0..LANES + 1)
            .map(|k| k.wrapping_mul(0x9e37_79b9))
            .collect();
        let start = Start {
            // Byte addresses, lane l one dword after lane l - 1, lane 3 inactive.
            gprs: vec![
                (0, 0, Box::new(|l| 4 * (l + 1))),
                (4, 0, Box::new(|l| 0xdead_0000 | l)),
            ],
            pool: bytes_of(&mem),
            active: !(1u64 << 3),
            ..Start::default()
        };
        let o = run(&p, &start);
        assert_eq!(o.result, Ok(()));
        assert_eq!(
            pool_words(&o, mem.len()),
            mem,
            "{class:?}: memory unchanged"
        );
        for l in 0..LANES {
            let want = if l == 3 {
                0xdead_0003
            } else {
                mem[l as usize + 1]
            };
            assert_eq!(o.r(4, 0, l), want, "{class:?} lane {l}");
        }
    }
}

#[test]
fn cayman_short_and_byte_stores_use_element_units() {
    for (inst, size) in [(RatInst::STORE_SHORT, 2usize), (RatInst::STORE_BYTE, 1)] {
        // Channels x and z: element index + 0 and index + 2 take their low bits.
        let p = prog(CM, rat(CfMemOp::MEM_RAT_CACHELESS, inst, 0b0101, 0, 0));
        let n = 4 * size * LANES as usize;
        let v = |l: u32, c: u32| 0xabcd_0000 | (c << 12) | (l * 3);
        let mut gprs: Vec<GprInit> = vec![(0, 0, Box::new(|l| 4 * l))];
        for c in 0..4 {
            gprs.push((4, c, Box::new(move |l| v(l, c))));
        }
        let start = Start {
            gprs,
            pool: vec![0x77; n],
            ..Start::default()
        };
        let o = run(&p, &start);
        let mut want = vec![0x77u8; n];
        for l in 0..LANES {
            for c in [0u32, 2] {
                let at = size * (4 * l + c) as usize;
                want[at..at + size].copy_from_slice(&v(l, c).to_le_bytes()[..size]);
            }
        }
        assert!(o.pool == want, "{inst:?}");
    }
}

#[test]
fn store_typed_writes_x_as_one_uint_dword() {
    for class in [EG, CM] {
        for (op, mask) in [
            (CfMemOp::MEM_RAT, 0xf),
            (CfMemOp::MEM_RAT_CACHELESS, 0b1110),
        ] {
            let p = prog(class, rat(op, RatInst::STORE_TYPED, mask, 0, 0));
            let mut gprs: Vec<GprInit> = vec![(0, 0, Box::new(|l| 2 * l))];
            for c in 0..4 {
                gprs.push((4, c, Box::new(move |l| (c + 1) << 28 | l)));
            }
            let start = Start {
                gprs,
                pool: vec![0x11; 4 * 2 * LANES as usize],
                ..Start::default()
            };
            let o = run(&p, &start);
            let mut want = vec![0x1111_1111u32; 2 * LANES as usize];
            if mask & 1 != 0 {
                for l in 0..LANES {
                    want[2 * l as usize] = 1 << 28 | l;
                }
            }
            assert_eq!(
                pool_words(&o, want.len()),
                want,
                "{class:?} {op:?} {mask:#x}"
            );
        }
    }
}

#[test]
fn cached_store_bursts_step_by_the_element_size() {
    // ELEM_SIZE 1 (two dwords): step i at dword index + 2i, channels x, y.
    for (class, store) in [(CM, RatInst::STORE_DWORD), (EG, RatInst::STORE_RAW)] {
        let p = prog(class, rat(CfMemOp::MEM_RAT, store, 0b0011, 2, 1));
        let mut gprs: Vec<GprInit> = vec![(0, 0, Box::new(|l| 8 * l))];
        for n in 4..7 {
            for c in 0..4 {
                gprs.push((n, c, Box::new(move |l| n << 24 | c << 16 | l)));
            }
        }
        let start = Start {
            gprs,
            pool: vec![0xee; 4 * 8 * LANES as usize],
            ..Start::default()
        };
        let o = run(&p, &start);
        let mut want = vec![0xeeee_eeeeu32; 8 * LANES as usize];
        for l in 0..LANES {
            for i in 0..3 {
                for c in 0..2 {
                    want[(8 * l + 2 * i + c) as usize] = (4 + i) << 24 | c << 16 | l;
                }
            }
        }
        assert_eq!(pool_words(&o, want.len()), want, "{class:?}");
    }
}

#[test]
fn cached_atomic_bursts_return_each_steps_old_value() {
    // ADD_RTN, ELEM_SIZE 3: step i adds R(4+i).x to the dword at byte 64 * l + 16 * i.
    for class in [EG, CM] {
        let p = prog(class, rat(CfMemOp::MEM_RAT, RatInst::ADD_RTN, 0xf, 3, 3));
        let mem: Vec<u32> = (0..16 * LANES).map(|k| k * 7 + 1).collect();
        let mut gprs: Vec<GprInit> = vec![(0, 0, Box::new(|l| 64 * l))];
        for n in 4..8 {
            gprs.push((n, 0, Box::new(move |l| n * 1000 + l)));
        }
        let start = Start {
            gprs,
            pool: bytes_of(&mem),
            ..Start::default()
        };
        let o = run(&p, &start);
        let mut want = mem.clone();
        for l in 0..LANES {
            for i in 0..4 {
                let k = (16 * l + 4 * i) as usize;
                assert_eq!(o.r(4 + i, 0, l), mem[k], "{class:?} lane {l} step {i}");
                want[k] = mem[k] + (4 + i) * 1000 + l;
            }
        }
        assert_eq!(pool_words(&o, want.len()), want, "{class:?}");
    }
}

#[test]
fn out_of_range_rat_addresses_are_guest_faults() {
    let far = |_| 0xffff_fff0;
    let cases = [
        (CM, RatInst::STORE_SHORT, CfMemOp::MEM_RAT_CACHELESS),
        (EG, RatInst::STORE_RAW_FDENORM, CfMemOp::MEM_RAT_CACHELESS),
        (EG, RatInst::STORE_TYPED, CfMemOp::MEM_RAT),
        (CM, RatInst::NOP_RTN, CfMemOp::MEM_RAT),
        (EG, RatInst::CMPXCHG_FLT_RTN, CfMemOp::MEM_RAT),
    ];
    for (class, inst, op) in cases {
        let p = prog(class, rat(op, inst, 0xf, 0, 0));
        let start = Start {
            gprs: vec![(0, 0, Box::new(far))],
            ..Start::default()
        };
        let o = run(&p, &start);
        assert!(
            matches!(
                o.result,
                Err(FaultKind::OutOfBounds {
                    space: MemSpace::Global,
                    ..
                })
            ),
            "{inst:?}: {:?}",
            o.result
        );
    }
    // A burst whose first step is in range and a later one is not faults too: the 256-byte
    // pool is followed by the 64-byte constant buffer, steps are 16 bytes from byte 240.
    let p = prog(CM, rat(CfMemOp::MEM_RAT, RatInst::STORE_DWORD, 1, 15, 3));
    let start = Start {
        gprs: vec![(0, 0, Box::new(|_| 60))],
        ..Start::default()
    };
    let o = run(&p, &start);
    assert!(
        matches!(o.result, Err(FaultKind::OutOfBounds { write: true, .. })),
        "{:?}",
        o.result
    );
}

#[test]
fn rat_forms_of_the_other_class_and_bad_bursts_are_rejected() {
    let m = CfMemOp::MEM_RAT;
    lift_err(
        &prog(CM, rat(m, RatInst::CMPXCHG_FLT, 0xf, 0, 0)),
        "not lifted",
    );
    lift_err(
        &prog(CM, rat(m, RatInst::STORE_RAW_FDENORM, 1, 0, 0)),
        "not lifted",
    );
    lift_err(
        &prog(EG, rat(m, RatInst::STORE_BYTE, 1, 0, 0)),
        "not lifted",
    );
    lift_err(
        &prog(EG, rat(m, RatInst::STORE_RAW, 1, 1, 2)),
        "ELEM_SIZE 2",
    );
}
