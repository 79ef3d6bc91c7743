//! CF_IDX0/1 and CLAUSE_GLOBAL through the lifter, on the interpreter and the JIT (lift/index.rs):
//! Cayman MOVA_INT with MOVA_DST 2/3 (nine lsbs, seed 000 L8862-L8892) and 4-7 (CLAUSE_GLOBAL
//! bytes, read by SRC_SEL 225), Evergreen SET_CF_IDX0/1 (AR.X clamped to 0..255), the value of
//! the first executing lane, 0 at wave start, and the uses: kcache bank index modes (locked at
//! clause start; banks 14/15 not indexed), VTX BUFFER_INDEX_MODE, TEX RESOURCE_INDEX_MODE,
//! RAT_INDEX_MODE and JUMPTABLE_SEL INDEX_0/1. Expected values are written out from those
//! rules: MOVA_INT's clamp (`v` in [-256, 255], else -256) and the masks are computed here on
//! the host.
mod lift_common;
use lift_common::*;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::{
    sel, AluExt, AluInst, CfAlu, CfInst, CfMem, FetchInst, KCache, RatFields,
};
use wavejit_terascale::tables::{CfMemOp, CfOp, FetchOp, RatInst};
use wavejit_terascale::{AluOp, ChipClass};

use ChipClass::{Cayman, Evergreen};

/// Lanes that run: the first is lane 5.
const ACTIVE: u64 = !0x1f & !(1 << 40);
const FIRST: u32 = 5;

/// Dword `i` of constant buffer `k`.
fn cb_word(k: u32, i: u32) -> u32 {
    1000 * k + i
}

fn start(gprs: Vec<GprInit>) -> Start {
    Start {
        gprs,
        active: ACTIVE,
        cb0: (0..64).map(|i| cb_word(0, i)).collect(),
        cbs: (1..16)
            .map(|k| (k, (0..64).map(|i| cb_word(k, i)).collect()))
            .collect(),
        ..Start::default()
    }
}

/// The host MOVA_INT result.
fn mova(v: u32) -> i32 {
    let v = v as i32;
    if (-256..=255).contains(&v) {
        v
    } else {
        -256
    }
}

/// Cayman `MOVA_INT` with MOVA_DST `dst` of R1.`chan`.
fn mova_to(class: ChipClass, dst: u8, chan: u8) -> AluInst {
    inst(class, AluOp::MOVA_INT, dst, 0, &[src(1, chan)])
}

/// Instructions that load CF_IDX`which` from R1.`chan` (Cayman: one MOVA_INT; Evergreen:
/// MOVA_INT to AR, then SET_CF_IDX in the next group).
fn load_idx(class: ChipClass, which: u8, chan: u8) -> Vec<Group> {
    match class {
        Cayman => vec![(vec![mova_to(class, 2 + which, chan)], vec![])],
        _ => {
            let op = [AluOp::SET_CF_IDX0, AluOp::SET_CF_IDX1][which as usize];
            let mut set = inst(class, op, 0, 0, &[]);
            set.write = false;
            vec![(vec![mova_to(class, 0, chan)], vec![]), (vec![set], vec![])]
        }
    }
}

/// The CF_IDX value `load_idx` leaves for first-lane value `v`.
fn idx_of(class: ChipClass, v: u32) -> u32 {
    match class {
        Cayman => mova(v) as u32 & 0x1ff,
        _ => mova(v).clamp(0, 255) as u32,
    }
}

/// `MOV Rdst.chan, KC<set>[0].x`.
fn kc_mov(class: ChipClass, dst: u8, chan: u8, set: u16) -> AluInst {
    let s = [sel::KCACHE0, sel::KCACHE1, sel::KCACHE2, sel::KCACHE3][set as usize];
    inst(class, AluOp::MOV, dst, chan, &[src(s, 0)])
}

/// Locks line 0 of `banks` in sets 0-3 (ALU_EXTENDED) with bank index modes `modes`.
fn lock(banks: [u8; 4], modes: [u8; 4]) -> impl FnOnce(&mut CfAlu) {
    move |a| {
        a.kcache = banks.map(|bank| KCache {
            bank,
            mode: 1,
            addr: 0,
        });
        a.ext = Some(AluExt {
            bank_index_mode: modes,
            barrier: true,
        });
    }
}

fn trap_text(o: &Out) -> String {
    match &o.result {
        Err(FaultKind::Trap(why)) => why.clone(),
        other => panic!("expected a trap, got {other:?}"),
    }
}

fn active(lane: u32) -> bool {
    ACTIVE >> lane & 1 == 1
}

#[test]
fn cf_idx_selects_the_kcache_bank_from_the_first_active_lane() {
    for class in [Cayman, Evergreen] {
        // R1.x = 1, 2, 3, ... (lane 5: 3); R1.y = lane % 4 (lane 5: 1).
        let gprs: Vec<GprInit> = vec![(1, 0, Box::new(|l| l / 2 + 1)), (1, 1, Box::new(|l| l % 4))];
        let mut groups = load_idx(class, 0, 0);
        groups.extend(load_idx(class, 1, 1));
        let p = Prog::new(class)
            .alu(groups)
            .alu_with(
                vec![(
                    vec![
                        kc_mov(class, 2, 0, 0),
                        kc_mov(class, 2, 1, 1),
                        kc_mov(class, 2, 2, 2),
                        kc_mov(class, 2, 3, 3),
                    ],
                    vec![],
                )],
                lock([1, 2, 3, 14], [1, 2, 0, 1]),
            )
            .build();
        let o = run(&p, &start(gprs));
        assert_eq!(o.result, Ok(()), "{class:?}");
        let idx0 = idx_of(class, FIRST / 2 + 1);
        let idx1 = idx_of(class, FIRST % 4);
        for lane in 0..LANES {
            let want = if active(lane) {
                // Bank 14 is not indexed ("indexed locks of banks 14 and 15 are ignored").
                [
                    cb_word(1 + idx0, 0),
                    cb_word(2 + idx1, 0),
                    cb_word(3, 0),
                    cb_word(14, 0),
                ]
            } else {
                [0; 4]
            };
            for (c, w) in want.into_iter().enumerate() {
                assert_eq!(o.r(2, c as u32, lane), w, "{class:?} R2.{c} lane {lane}");
            }
        }
    }
}

#[test]
fn cf_idx_is_zero_at_wave_start_and_the_lock_reads_it_at_clause_start() {
    for class in [Cayman, Evergreen] {
        let gprs: Vec<GprInit> = vec![(1, 0, Box::new(|_| 4))];
        // One clause loads CF_IDX0 and then reads the indexed bank: the lock (clause start)
        // saw 0. The next clause sees 4.
        let mut groups = load_idx(class, 0, 0);
        groups.push((vec![kc_mov(class, 2, 0, 0)], vec![]));
        let p = Prog::new(class)
            .alu_with(groups, lock([2, 0, 0, 0], [1, 0, 0, 0]))
            .alu_with(
                vec![(vec![kc_mov(class, 2, 1, 0)], vec![])],
                lock([2, 0, 0, 0], [1, 0, 0, 0]),
            )
            .build();
        let o = run(&p, &start(gprs));
        assert_eq!(o.result, Ok(()), "{class:?}");
        for lane in (0..LANES).filter(|&l| active(l)) {
            assert_eq!(o.r(2, 0, lane), cb_word(2, 0), "{class:?} lane {lane}");
            assert_eq!(o.r(2, 1, lane), cb_word(6, 0), "{class:?} lane {lane}");
        }
    }
}

#[test]
fn predicated_off_lanes_do_not_supply_the_index() {
    // PRED_SEL_ONE with the clause's predicate = active: every active lane executes; with
    // PRED_SEL_ZERO no lane does and CF_IDX0 keeps its start value 0.
    let class = Cayman;
    for (pred_sel, want_idx) in [(3u8, FIRST % 8), (2, 0)] {
        let gprs: Vec<GprInit> = vec![(1, 0, Box::new(|l| l % 8))];
        let mut m = mova_to(class, 2, 0);
        m.pred_sel = pred_sel;
        let p = Prog::new(class)
            .alu(vec![(vec![m], vec![])])
            .alu_with(
                vec![(vec![kc_mov(class, 2, 0, 0)], vec![])],
                lock([1, 0, 0, 0], [1, 0, 0, 0]),
            )
            .build();
        let o = run(&p, &start(gprs));
        assert_eq!(o.result, Ok(()));
        assert_eq!(
            o.r(2, 0, FIRST),
            cb_word(1 + want_idx, 0),
            "PRED_SEL {pred_sel}"
        );
    }
}

#[test]
fn an_indexed_bank_beyond_15_is_a_guest_fault() {
    // Bank 13: + 2 = 15 reads, + 3 is beyond the last constant buffer, and so are the Cayman
    // nine-bit values of 300 (-256 -> 0x100) and -1 (0x1ff). Evergreen: AR -256 -> 0.
    for (class, v, ok) in [
        (Cayman, 2u32, true),
        (Cayman, 3, false),
        (Cayman, 300, false),
        (Cayman, u32::MAX, false),
        (Evergreen, 2, true),
        (Evergreen, 3, false),
        (Evergreen, 300, true),
        (Evergreen, u32::MAX, true),
    ] {
        let gprs: Vec<GprInit> = vec![(1, 0, Box::new(move |_| v))];
        let p = Prog::new(class)
            .alu(load_idx(class, 0, 0))
            .alu_with(
                vec![(vec![kc_mov(class, 2, 0, 0)], vec![])],
                lock([13, 0, 0, 0], [1, 0, 0, 0]),
            )
            .build();
        let o = run(&p, &start(gprs));
        let idx = idx_of(class, v);
        if ok {
            assert_eq!(o.result, Ok(()), "{class:?} {v}");
            assert_eq!(o.r(2, 0, FIRST), cb_word(13 + idx, 0), "{class:?} {v}");
        } else {
            assert!(13 + idx > 15);
            let why = trap_text(&o);
            assert!(why.contains("beyond constant buffer 15"), "{why}");
        }
    }
    // A set that locks no line (mode NOP) is not indexed, whatever its bank.
    let gprs: Vec<GprInit> = vec![(1, 0, Box::new(|_| 200))];
    let p = Prog::new(Cayman)
        .alu(load_idx(Cayman, 0, 0))
        .alu_with(vec![(vec![kc_mov(Cayman, 2, 0, 0)], vec![])], |a| {
            lock([2, 13, 0, 0], [0, 1, 0, 0])(a);
            a.kcache[1].mode = 0;
        })
        .build();
    let o = run(&p, &start(gprs));
    assert_eq!(o.result, Ok(()));
    assert_eq!(o.r(2, 0, FIRST), cb_word(2, 0));
}

#[test]
fn clause_global_bytes_from_mova_int() {
    let class = Cayman;
    // Byte 0 from 300 (MOVA_INT clamps to -256: low byte 0), byte 1 from lane + 0x40, byte 3
    // from -1; byte 2 keeps its start value 0.
    let gprs: Vec<GprInit> = vec![
        (1, 0, Box::new(|_| 300)),
        (1, 1, Box::new(|l| l + 0x40)),
        (1, 2, Box::new(|_| u32::MAX)),
    ];
    let p = Prog::new(class)
        .alu(vec![
            (vec![mova_to(class, 4, 0)], vec![]),
            (vec![mova_to(class, 5, 1)], vec![]),
            (vec![mova_to(class, 7, 2)], vec![]),
        ])
        .alu(vec![(
            vec![inst(class, AluOp::MOV, 3, 0, &[src(225, 0)])],
            vec![],
        )])
        .build();
    let o = run(&p, &start(gprs));
    assert_eq!(o.result, Ok(()));
    let b = |v: u32| mova(v) as u32 & 0xff;
    let want = b(300) | b(FIRST + 0x40) << 8 | b(u32::MAX) << 24;
    for lane in (0..LANES).filter(|&l| active(l)) {
        assert_eq!(o.r(3, 0, lane), want, "lane {lane}");
    }
}

/// `VFETCH R2.x, R0.x, #id` of a dword with BUFFER_INDEX_MODE `mode`.
fn vfetch(id: u32, mode: u32) -> FetchInst {
    FetchInst {
        op: FetchOp::VTX_FETCH,
        words: [
            id << 8,
            2 | 7 << 12 | 7 << 15 | 7 << 18 | 13 << 22 | 1 << 28,
            mode << 21,
        ],
    }
}

#[test]
fn vtx_buffer_index_mode_adds_cf_idx_to_the_buffer_id() {
    for class in [Cayman, Evergreen] {
        for (v, ok) in [(1u32, true), (3, true), (2, false)] {
            let gprs: Vec<GprInit> =
                vec![(0, 0, Box::new(|l| 4 * l)), (1, 1, Box::new(move |_| v))];
            let p = Prog::new(class)
                .alu(load_idx(class, 1, 1))
                .fetch(vec![vfetch(0, 2)])
                .build();
            let mut st = start(gprs);
            st.pool = (0..256u32).map(|b| (b * 7 + 1) as u8).collect();
            let o = run(&p, &st);
            if !ok {
                let why = trap_text(&o);
                assert!(why.contains("names no bound buffer"), "{why}");
                continue;
            }
            assert_eq!(o.result, Ok(()), "{class:?} {v}");
            for lane in (0..LANES).filter(|&l| active(l)) {
                let want = if v == 1 {
                    let at = 4 * lane as usize;
                    u32::from_le_bytes(st.pool[at..at + 4].try_into().unwrap())
                } else {
                    cb_word(0, lane)
                };
                assert_eq!(o.r(2, 0, lane), want, "{class:?} id {v} lane {lane}");
            }
        }
    }
}

fn rat_store(mode: u8) -> CfInst {
    CfInst::Mem(CfMem {
        op: CfMemOp::MEM_RAT_CACHELESS,
        rat: Some(RatFields {
            id: 0,
            inst: RatInst::STORE_DWORD,
            index_mode: mode,
        }),
        array_base: 0,
        kind: 1,
        rw_gpr: 3,
        rw_rel: false,
        index_gpr: 0,
        elem_size: 0,
        array_size: 0,
        comp_mask: 1,
        burst_count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        mark: false,
        barrier: true,
    })
}

#[test]
fn rat_index_mode_reaches_rat_0_only() {
    let class = Cayman;
    for v in [0u32, 1] {
        let gprs: Vec<GprInit> = vec![
            (0, 0, Box::new(|l| l)),
            (1, 0, Box::new(move |_| v)),
            (3, 0, Box::new(|l| 0x100 + l)),
        ];
        let p = Prog::new(class)
            .alu(load_idx(class, 0, 0))
            .cf(rat_store(1))
            .build();
        let o = run(&p, &start(gprs));
        for lane in 0..LANES {
            let want = if v == 0 && active(lane) {
                0x100 + lane
            } else {
                0
            };
            assert_eq!(
                o.pool_u32(4 * lane as usize),
                want,
                "CF_IDX0 {v} lane {lane}"
            );
        }
        if v == 1 {
            let why = trap_text(&o);
            assert!(why.contains("RAT id + CF_IDX"), "{why}");
        } else {
            assert_eq!(o.result, Ok(()));
        }
    }
}

/// A 2D texture resource slot of `w` x `h` texels (FMT_32, valid texture).
fn resource(w: u32, h: u32) -> [u32; 8] {
    [1 | (w - 1) << 18, h - 1, 0, 0, 0, 0, 0, 13 | 2 << 30]
}

/// `GET_TEXTURE_RESINFO R<dst>, R5, t<id>` with RESOURCE_INDEX_MODE `mode`.
fn resinfo(dst: u32, id: u32, mode: u32) -> FetchInst {
    FetchInst {
        op: FetchOp::TEX_GET_TEXTURE_RESINFO,
        words: [
            4 | id << 8 | 5 << 16 | mode << 25,
            dst | 1 << 12 | 2 << 15 | 3 << 18,
            0,
        ],
    }
}

#[test]
fn tex_resource_index_mode_adds_cf_idx_to_the_resource_id() {
    for class in [Cayman, Evergreen] {
        let gprs: Vec<GprInit> = vec![(1, 0, Box::new(|_| 2))];
        let p = Prog::new(class)
            .alu(load_idx(class, 0, 0))
            .fetch(vec![resinfo(2, 1, 1), resinfo(3, 1, 0)])
            .build();
        let mut st = start(gprs);
        let slots = [
            resource(4, 2),
            resource(8, 16),
            resource(32, 64),
            resource(16, 4),
        ];
        st.tex_resources = slots.iter().flatten().copied().collect();
        let o = run(&p, &st);
        assert_eq!(o.result, Ok(()), "{class:?}");
        // Resource 1 + CF_IDX0 (2) is slot 3; resource 1 unindexed is slot 1.
        for lane in (0..LANES).filter(|&l| active(l)) {
            let size = |r| [0, 1, 2, 3].map(|c| o.r(r, c, lane));
            assert_eq!(size(2), [16, 4, 1, 1], "{class:?} lane {lane}");
            assert_eq!(size(3), [8, 16, 1, 1], "{class:?} lane {lane}");
        }
    }
}

/// `JUMP @addr` with COND FALSE (every lane fails: always jumps).
fn jump_always(addr: u32) -> CfInst {
    let mut j = word(CfOp::JUMP, addr);
    if let CfInst::Word(w) = &mut j {
        w.cond = 1;
    }
    j
}

#[test]
fn jumptable_jumps_to_the_entry_cf_idx_selects() {
    // 0: load CF_IDX1; 1: JUMPTABLE @5 (INDEX_1); 2-4: JUMP @6, @7, @8; 5: R2.w = 1;
    // 6: R2.x = 1; 7: R2.y = 1; 8: R2.z = 1.
    let one = |class, chan| {
        (
            vec![inst(class, AluOp::MOV, 2, chan, &[src(sel::ONE_INT, 0)])],
            vec![],
        )
    };
    for class in [Cayman, Evergreen] {
        for (v, c, want) in [
            (0u32, 0u8, Some([1, 1, 1, 0])),
            (1, 0, Some([0, 1, 1, 0])),
            (2, 0, Some([0, 0, 1, 0])),
            (3, 0, None),
            // COND FALSE: no lane passes, execution continues at ADDR.
            (0, 1, Some([1, 1, 1, 1])),
        ] {
            let mut table = word(CfOp::JUMPTABLE, 5);
            if let CfInst::Word(w) = &mut table {
                w.jumptable_sel = 5;
                w.cond = c;
            }
            let p = Prog::new(class)
                .alu(load_idx(class, 1, 0))
                .cf(table)
                .cf(jump_always(6))
                .cf(jump_always(7))
                .cf(jump_always(8))
                .alu(vec![one(class, 3)])
                .alu(vec![one(class, 0)])
                .alu(vec![one(class, 1)])
                .alu(vec![one(class, 2)])
                .build();
            let gprs: Vec<GprInit> = vec![(1, 0, Box::new(move |_| v))];
            let o = run(&p, &start(gprs));
            match want {
                Some(w) => {
                    assert_eq!(o.result, Ok(()), "{class:?} {v}");
                    assert_eq!([0, 1, 2, 3].map(|k| o.r(2, k, FIRST)), w, "{class:?} {v}");
                }
                None => {
                    let why = trap_text(&o);
                    assert!(why.contains("past the table's 3 entries"), "{why}");
                }
            }
        }
    }
    // JUMPTABLE_SEL CONST_A reads host state no launch programs.
    let p = Prog::new(Cayman).cf(word(CfOp::JUMPTABLE, 1)).build();
    lift_err(&p, "JUMPTABLE_SEL CONST_A-D");
}

#[test]
fn index_mode_3_is_invalid() {
    for (f, what) in [
        (vfetch(1, 3), "BUFFER_INDEX_MODE 3"),
        (resinfo(2, 1, 3), "index mode 3"),
        (
            FetchInst {
                op: FetchOp::TEX_GET_TEXTURE_RESINFO,
                words: [4 | 1 << 8 | 5 << 16 | 3 << 27, 2, 0],
            },
            "index mode 3",
        ),
    ] {
        let p = Prog::new(Cayman).fetch(vec![f]).build();
        let e = lift_err(&p, what);
        assert!(e.to_string().contains("invalid"), "{e}");
    }
    let p = Prog::new(Cayman)
        .alu_with(
            vec![(vec![kc_mov(Cayman, 2, 0, 0)], vec![])],
            lock([1, 0, 0, 0], [3, 0, 0, 0]),
        )
        .build();
    lift_err(&p, "KCACHE_BANK_INDEX_MODE 3");
}
