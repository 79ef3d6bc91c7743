//! RAT instructions through the lifter, on the interpreter and the JIT: MEM_RAT_CACHELESS
//! store bursts (ARRAY_SIZE[7:0] + 1 dword stride, seed 000 L8336), MSKOR
//! (`(old & ~mask) | data`, data in x, mask in w) and Evergreen's CMPXCHG_FDENORM (IEEE
//! equality with denormals kept); the other forms are in lift_rat_forms.rs. Expected memory is computed here from those rules with
//! host arithmetic (host f32 `==` is the IEEE equality).
mod lift_common;
use lift_common::*;
use wavejit_terascale::inst::{CfInst, CfMem, RatFields};
use wavejit_terascale::tables::{CfMemOp, RatInst};
use wavejit_terascale::ChipClass;

fn rat(op: CfMemOp, inst: RatInst, rw: u8, index: u8, burst_m1: u8, array_size: u16) -> CfInst {
    CfInst::Mem(CfMem {
        op,
        rat: Some(RatFields {
            id: 0,
            inst,
            index_mode: 0,
        }),
        array_base: 0,
        kind: 1,
        rw_gpr: rw,
        rw_rel: false,
        index_gpr: index,
        elem_size: 0,
        array_size,
        comp_mask: 0xf,
        burst_count: burst_m1,
        valid_pixel_mode: false,
        end_of_program: false,
        mark: false,
        barrier: true,
    })
}

fn words(o: &Out, n: usize) -> Vec<u32> {
    (0..n).map(|k| o.pool_u32(4 * k)).collect()
}

#[test]
fn cacheless_store_bursts_use_the_array_size_stride() {
    // Three steps of R4..R6 (x, y only), stride 5 + 1 dwords, lane l at dword 32 * l.
    let (steps, stride) = (3u32, 6u32);
    for (class, store) in [
        (ChipClass::Cayman, RatInst::STORE_DWORD),
        (ChipClass::Evergreen, RatInst::STORE_RAW),
    ] {
        let mut st = rat(CfMemOp::MEM_RAT_CACHELESS, store, 4, 0, 2, 0x0f05);
        if let CfInst::Mem(m) = &mut st {
            m.comp_mask = 0b0011;
        }
        let p = Prog::new(class).cf(st).build();
        let mut gprs: Vec<GprInit> = vec![(0, 0, Box::new(|l| 32 * l))];
        for n in 4..7 {
            for c in 0..4 {
                gprs.push((n, c, Box::new(move |l| n << 24 | c << 16 | l)));
            }
        }
        let start = Start {
            gprs,
            pool: vec![0xee; 4 * 32 * LANES as usize],
            ..Start::default()
        };
        let o = run(&p, &start);
        assert_eq!(o.result, Ok(()));
        let mut want = vec![0xeeee_eeeeu32; 32 * LANES as usize];
        for l in 0..LANES {
            for i in 0..steps {
                for c in 0..2 {
                    want[(32 * l + i * stride + c) as usize] = (4 + i) << 24 | c << 16 | l;
                }
            }
        }
        assert_eq!(words(&o, want.len()), want, "{class:?}");
    }
}

#[test]
fn mskor_merges_bytes_from_many_lanes() {
    // Lane l writes byte l % 4 of dword l / 4 (LLVM's i8 store lowering).
    let byte = |l: u32| (l * 7 + 1) & 0xff;
    for class in [ChipClass::Evergreen, ChipClass::Cayman] {
        let p = Prog::new(class)
            .cf(rat(CfMemOp::MEM_RAT, RatInst::MSKOR, 4, 0, 0, 0))
            .build();
        let start = Start {
            gprs: vec![
                (0, 0, Box::new(|l| l / 4)),
                (4, 0, Box::new(move |l| byte(l) << (8 * (l % 4)))),
                (4, 3, Box::new(|l| 0xff << (8 * (l % 4)))),
            ],
            pool: vec![0xaa; 4 * 32],
            // Lanes 60-63 are inactive: their bytes keep 0xaa.
            active: u64::MAX >> 4,
            ..Start::default()
        };
        let o = run(&p, &start);
        assert_eq!(o.result, Ok(()));
        let mut want = vec![0xaaaa_aaaau32; 32];
        for l in 0..LANES - 4 {
            let k = (l / 4) as usize;
            let sh = 8 * (l % 4);
            want[k] = want[k] & !(0xff << sh) | byte(l) << sh;
        }
        assert_eq!(words(&o, 32), want, "{class:?}");
    }
}

#[test]
fn mskor_rtn_returns_the_old_dword() {
    let class = ChipClass::Evergreen;
    let p = Prog::new(class)
        .cf(rat(CfMemOp::MEM_RAT, RatInst::MSKOR_RTN, 4, 0, 0, 0))
        .build();
    let pool: Vec<u8> = (0..4 * LANES).map(|b| (b * 13 + 5) as u8).collect();
    let start = Start {
        gprs: vec![
            (0, 0, Box::new(|l| l)),
            (4, 0, Box::new(|l| l << 8)),
            (4, 3, Box::new(|_| 0xff00)),
        ],
        pool: pool.clone(),
        ..Start::default()
    };
    let o = run(&p, &start);
    for l in 0..LANES {
        let at = 4 * l as usize;
        let old = u32::from_le_bytes(pool[at..at + 4].try_into().unwrap());
        assert_eq!(o.r(4, 0, l), old, "lane {l}");
        assert_eq!(o.pool_u32(at), old & !0xff00 | l << 8, "lane {l}");
    }
}

#[test]
fn float_compare_exchange_uses_ieee_equality_with_denormals() {
    // (memory, compared value) per lane, cycling.
    let cases: [(f32, f32); 8] = [
        (0.0, -0.0),
        (-0.0, 0.0),
        (f32::NAN, f32::NAN),
        (f32::from_bits(5), f32::from_bits(5)),
        (f32::from_bits(5), 0.0),
        (1.5, 1.5),
        (1.5, -1.5),
        (f32::INFINITY, f32::INFINITY),
    ];
    let class = ChipClass::Evergreen;
    for (inst, rtn) in [
        (RatInst::CMPXCHG_FDENORM, false),
        (RatInst::CMPXCHG_FDENORM_RTN, true),
    ] {
        let p = Prog::new(class)
            .cf(rat(CfMemOp::MEM_RAT, inst, 4, 0, 0, 0))
            .build();
        let pool: Vec<u8> = (0..LANES)
            .flat_map(|l| cases[l as usize % 8].0.to_bits().to_le_bytes())
            .collect();
        let start = Start {
            gprs: vec![
                (0, 0, Box::new(|l| 4 * l)),
                (4, 0, Box::new(|l| 0x4000_0000 + l)),
                (4, 3, Box::new(move |l| cases[l as usize % 8].1.to_bits())),
            ],
            pool,
            ..Start::default()
        };
        let o = run(&p, &start);
        for l in 0..LANES {
            let (mem, cmp) = cases[l as usize % 8];
            let want = if mem == cmp {
                0x4000_0000 + l
            } else {
                mem.to_bits()
            };
            assert_eq!(o.pool_u32(4 * l as usize), want, "{inst:?} lane {l}");
            let r = if rtn { mem.to_bits() } else { 0x4000_0000 + l };
            assert_eq!(o.r(4, 0, l), r, "{inst:?} lane {l} return");
        }
    }
}

#[test]
fn unlifted_rat_forms_are_unsupported() {
    let one = |class, i: CfInst| Prog::new(class).cf(i).build();
    let cm = ChipClass::Cayman;
    let m = CfMemOp::MEM_RAT;
    lift_err(
        &one(cm, rat(m, RatInst::CMPXCHG_FDENORM, 4, 0, 0, 0)),
        "not lifted",
    );
    let mut other = rat(m, RatInst::STORE_TYPED, 4, 0, 0, 0);
    if let CfInst::Mem(CfMem { rat: Some(r), .. }) = &mut other {
        r.id = 1;
    }
    lift_err(&one(cm, other), "RAT other than RAT 0");
}
