//! MEM_GDS through the lifter, on the interpreter and the JIT (Cayman): the LDS op semantics
//! on the dispatch's 64 KiB GDS, lanes in ascending order, returns to DST_GPR.x/.y through
//! WORD2's DST_SEL, out-of-range lanes reading 0 and writing nothing, an unbound GDS
//! trapping. Expected GDS bytes and registers are computed here with host arithmetic.
mod lift_common;
use lift_common::*;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::FetchInst;
use wavejit_terascale::tables::{lds_info, FetchOp, LdsOp};
use wavejit_terascale::ChipClass;

const CM: ChipClass = ChipClass::Cayman;
const GDS: usize = 64 << 10;

/// MEM_GDS `op` with sources R`src` (x address, y, z data) and returns in R`dst` through
/// `dst_sel`.
fn gds(op: LdsOp, src: u32, dst: u32, dst_sel: [u32; 4]) -> FetchInst {
    let code = u32::from(lds_info(op).opcode[CM.index()]);
    let w0 = 2 | 4 << 8 | src << 11 | 1 << 23 | 2 << 26;
    let w1 = dst | code << 9;
    let w2 = dst_sel[0] | dst_sel[1] << 3 | dst_sel[2] << 6 | dst_sel[3] << 9;
    FetchInst {
        op: FetchOp::MEM_GDS,
        words: [w0, w1, w2],
    }
}

fn word(g: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(g[at..at + 4].try_into().unwrap())
}

fn start(gprs: Vec<GprInit>, gds: Vec<u8>, active: u64) -> Start {
    Start {
        gprs,
        gds: Some(gds),
        active,
        ..Start::default()
    }
}

#[test]
fn add_ret_on_one_counter_returns_the_running_sum_in_lane_order() {
    let active = 0xffff_0f0f_f0f0_fffeu64;
    let p = Prog::new(CM)
        .gds(vec![gds(LdsOp::ADD_RET, 1, 5, [0, 4, 5, 7])])
        .build();
    let mut g = vec![0u8; GDS];
    g[8..12].copy_from_slice(&1000u32.to_le_bytes());
    let st = start(
        vec![
            (1, 0, Box::new(|_| 8)),
            (1, 1, Box::new(|l| l * l + 1)),
            (5, 3, Box::new(|l| 0x5050_0000 | l)),
        ],
        g,
        active,
    );
    let o = run(&p, &st);
    assert_eq!(o.result, Ok(()));
    let mut sum = 1000u32;
    for l in 0..LANES {
        if active >> l & 1 == 0 {
            assert_eq!(o.r(5, 0, l), 0, "lane {l}: inactive lanes keep R5");
            continue;
        }
        assert_eq!(o.r(5, 0, l), sum, "lane {l}");
        assert_eq!(o.r(5, 1, l), 0);
        assert_eq!(o.r(5, 2, l), 1f32.to_bits());
        assert_eq!(o.r(5, 3, l), 0x5050_0000 | l, "lane {l}: masked channel");
        sum += l * l + 1;
    }
    assert_eq!(word(&o.gds, 8), sum);
}

#[test]
fn writes_then_reads_see_other_lanes_and_range_rules() {
    // WRITE R1.y to byte R1.x, then READ_RET R2.x into R6.y (DST_SEL y = first value).
    // Lane 62 writes at 65534 and lane 63 at 65536 (past GDS: dropped); lane 61 at 65532.
    fn waddr(l: u32) -> u32 {
        match l {
            61 => 65532,
            62 => 65534,
            63 => 65536,
            _ => 4 * l,
        }
    }
    fn raddr(l: u32) -> u32 {
        waddr(63 - l)
    }
    let p = Prog::new(CM)
        .gds(vec![
            gds(LdsOp::WRITE, 1, 0, [7, 7, 7, 7]),
            gds(LdsOp::READ_RET, 2, 6, [7, 0, 7, 7]),
        ])
        .build();
    let g: Vec<u8> = (0..GDS).map(|b| (b * 7) as u8).collect();
    let st = start(
        vec![
            (1, 0, Box::new(waddr)),
            (1, 1, Box::new(|l| 0xc0de_0000 | l)),
            (2, 0, Box::new(raddr)),
            (6, 1, Box::new(|_| 0xffff_ffff)),
        ],
        g.clone(),
        u64::MAX,
    );
    let o = run(&p, &st);
    assert_eq!(o.result, Ok(()));
    let mut want = g;
    for l in 0..LANES {
        let a = waddr(l) as usize;
        if a + 4 <= GDS {
            want[a..a + 4].copy_from_slice(&(0xc0de_0000 | l).to_le_bytes());
        }
    }
    assert!(o.gds == want, "GDS bytes");
    for l in 0..LANES {
        let a = raddr(l) as usize;
        let v = if a + 4 <= GDS { word(&want, a) } else { 0 };
        assert_eq!(o.r(6, 1, l), v, "lane {l}");
    }
}

#[test]
fn compare_exchange_and_mask_or_take_two_data_sources() {
    // CMP_XCHG_RET (compare R1.y, new R1.z) on dword l; MSKOR (mask R1.y, bits R1.z) on
    // dword 64 + l.
    let p = Prog::new(CM)
        .gds(vec![
            gds(LdsOp::CMP_XCHG_RET, 1, 7, [0, 7, 7, 7]),
            gds(LdsOp::MSKOR, 2, 0, [7, 7, 7, 7]),
        ])
        .build();
    fn init(k: u32) -> u32 {
        k.wrapping_mul(0x0101_0101) ^ 0x00ff_00ff
    }
    fn cmp(l: u32) -> u32 {
        if l.is_multiple_of(3) {
            init(l)
        } else {
            !init(l)
        }
    }
    let g: Vec<u8> = (0..(GDS / 4) as u32)
        .flat_map(|k| init(k).to_le_bytes())
        .collect();
    let st = start(
        vec![
            (1, 0, Box::new(|l| 4 * l)),
            (1, 1, Box::new(cmp)),
            (1, 2, Box::new(|l| 0x1234_0000 | l)),
            (2, 0, Box::new(|l| 4 * (64 + l))),
            (2, 1, Box::new(|l| 0xff << (8 * (l % 4)))),
            (2, 2, Box::new(|l| 0xab << (8 * (l % 4)))),
        ],
        g,
        u64::MAX,
    );
    let o = run(&p, &st);
    assert_eq!(o.result, Ok(()));
    for l in 0..LANES {
        let old = init(l);
        assert_eq!(o.r(7, 0, l), old, "lane {l} return");
        let new = if cmp(l) == old { 0x1234_0000 | l } else { old };
        assert_eq!(word(&o.gds, 4 * l as usize), new, "lane {l} cmpxchg");
        let m = 0xff << (8 * (l % 4));
        let want = (init(64 + l) & !m) | (0xab << (8 * (l % 4)));
        assert_eq!(word(&o.gds, 4 * (64 + l) as usize), want, "lane {l} mskor");
    }
}

#[test]
fn an_unbound_gds_traps() {
    let p = Prog::new(CM)
        .gds(vec![gds(LdsOp::READ_RET, 1, 6, [0, 7, 7, 7])])
        .build();
    let o = run(&p, &Start::default());
    assert!(
        matches!(&o.result, Err(FaultKind::Trap(m)) if m.contains("no GDS memory")),
        "{:?}",
        o.result
    );
}

#[test]
fn unlifted_gds_forms_are_rejected() {
    let read = gds(LdsOp::READ_RET, 1, 6, [0, 7, 7, 7]);
    let eg = Prog::new(ChipClass::Evergreen).gds(vec![read]).build();
    lift_err(&eg, "Evergreen GDS addressing");
    let one = |f: FetchInst| Prog::new(CM).gds(vec![f]).build();
    let mut f = read;
    f.words[1] |= 3 << 26;
    lift_err(&one(f), "UAV_ID");
    let mut f = read;
    f.words[1] |= 5 << 16;
    lift_err(&one(f), "[22:16]");
    lift_err(&one(gds(LdsOp::WRITE_REL, 1, 0, [7; 4])), "REL/2 forms");
    lift_err(
        &one(gds(LdsOp::READ_RET, 1, 6, [1, 7, 7, 7])),
        "does not return",
    );
    lift_err(
        &one(gds(LdsOp::READ_RET, 1, 6, [2, 7, 7, 7])),
        "does not return",
    );
    // MEM_GDS belongs in GDS clauses only.
    let tc = Prog::new(CM).fetch(vec![read]).build();
    lift_err(&tc, "wrong clause type");
}
