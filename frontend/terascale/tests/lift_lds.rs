//! LDS in ALU clauses through the lifter, on the interpreter and the JIT: every LDS_OP of
//! Table 8.11 (seed 000 L7818-L7876, ch9 L9177-L9240) with expected LDS contents and queue
//! values computed here from the table's formulas, the output-queue rules of 7.3.4
//! (L2322-L2336) and direct reads (7.3.1).
use std::sync::Arc;
use wavejit_ir::Function;
use wavejit_runtime::solo::{End, Solo};
use wavejit_runtime::WaveState;
use wavejit_terascale::inst::{
    sel, AluGroup, AluInst, AluSrc, CfAlu, CfEntry, CfInst, CfWord, Clause, ClauseBody, KCache,
    LdsIdx,
};
use wavejit_terascale::lift::{lift, LiftConfig, LiftError, LiftErrorKind, TsLayout};
use wavejit_terascale::tables::{CfAluOp, CfOp, LdsOp};
use wavejit_terascale::{AluOp, Chip, ChipClass, Program};

mod lift_common;
use lift_common::{both, src as gpr, LANES};
const LDS_BYTES: usize = 1024;

fn src(s: u16) -> AluSrc {
    gpr(s, 0)
}

/// An instruction writing `dst.chan` (the slot is the channel), Evergreen opcode.
fn inst(op: AluOp, dst: u8, chan: u8, s: [AluSrc; 3]) -> AluInst {
    lift_common::inst(ChipClass::Evergreen, op, dst, chan, &s)
}

/// `MOV Rdst.x, s`.
fn mov(dst: u8, s: AluSrc) -> AluInst {
    inst(
        AluOp::MOV,
        dst,
        0,
        [s, AluSrc::default(), AluSrc::default()],
    )
}

/// An LDS_IDX_OP: address R1.x, data R2.x and R3.x (as the op takes them).
fn lds(op: LdsOp, offset: u8) -> AluInst {
    lds_from(op, offset, [gpr(1, 0), gpr(2, 0), gpr(3, 0)])
}

fn lds_from(op: LdsOp, offset: u8, s: [AluSrc; 3]) -> AluInst {
    let mut i = inst(AluOp::LDS_IDX_OP, 0, 0, s);
    i.lds = Some(LdsIdx { op, offset });
    i.write = false;
    i
}

/// CF 0: one ALU clause of `groups` (with `lits`); CF 1: END.
fn program(groups: Vec<Vec<AluInst>>, lits: Vec<Vec<u32>>) -> Program {
    let mut at = 2;
    let mut gs = Vec::new();
    for (mut g, l) in groups.into_iter().zip(lits) {
        g.last_mut().unwrap().last = true;
        let grp = AluGroup {
            addr: at,
            insts: g,
            literals: l,
        };
        at += grp.slots();
        gs.push(grp);
    }
    let alu = CfInst::Alu(CfAlu {
        op: CfAluOp::ALU,
        addr: 2,
        kcache: [KCache::default(); 4],
        count: (at - 3) as u8,
        alt_const: false,
        whole_quad_mode: false,
        barrier: true,
        ext: None,
    });
    let end = CfInst::Word(CfWord {
        op: CfOp::END,
        addr: 0,
        jumptable_sel: 0,
        pop_count: 0,
        cf_const: 0,
        cond: 0,
        count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        whole_quad_mode: false,
        barrier: true,
    });
    Program {
        class: ChipClass::Evergreen,
        cf: vec![
            CfEntry { addr: 0, inst: alu },
            CfEntry { addr: 1, inst: end },
        ],
        clauses: vec![Clause {
            addr: 2,
            len: at - 2,
            body: ClauseBody::Alu(gs),
        }],
        pads: Vec::new(),
        len: at,
    }
}

fn plain(groups: Vec<Vec<AluInst>>) -> Program {
    let n = groups.len();
    program(groups, vec![Vec::new(); n])
}

fn lift_p(p: &Program) -> Result<Function, LiftError> {
    let cfg = LiftConfig {
        chip: Chip::Cypress,
        name: "lds".into(),
        base: 0x1000,
        fetch_subroutine: None,
    };
    lift(p, &cfg)
}

/// The start: R1.x = `addr(lane)`, R2.x/R3.x = `data(lane, 0/1)`, LDS dword i = `init(i)`.
struct Start {
    addr: fn(u32) -> u32,
    data: fn(u32, u32) -> u32,
    active: u64,
}

fn init(i: u32) -> u32 {
    (i + 1).wrapping_mul(0x9e37_79b9) ^ (i << 7)
}

fn data(lane: u32, k: u32) -> u32 {
    (lane + 3 * k)
        .wrapping_mul(0x85eb_ca6b)
        .rotate_left(lane + k)
}

fn own_dword(lane: u32) -> u32 {
    4 * lane
}

const START: Start = Start {
    addr: own_dword,
    data,
    active: u64::MAX,
};

struct Out {
    l: TsLayout,
    state: WaveState,
    lds: Vec<u8>,
}

impl Out {
    fn r(&self, n: u32, lane: u32) -> u32 {
        self.state.lane(self.l.gpr(n, 0), lane)
    }
    fn dword(&self, i: u32) -> u32 {
        let b = &self.lds[4 * i as usize..4 * i as usize + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// Runs `f` from `state` and `lds` on the interpreter and the JIT (the shared runner: they
/// must agree on every register cell and the LDS); returns the interpreter's final wave.
fn run_wave(f: &Arc<Function>, l: TsLayout, state: WaveState, lds: Vec<u8>) -> Out {
    let mut start = Solo::new(&l.layout, 1 << 20).unwrap();
    start.state = state;
    start.lds = lds;
    start.private = vec![0u8; 4];
    let (a, _) = both::run_both(f, start, 10_000);
    assert_eq!(a.end, End::Done, "no fault");
    let lds = both::memory(&a, "lds");
    Out {
        l,
        state: a.state.expect("a final state"),
        lds,
    }
}

/// The wave `st` describes, with the LDS holding `init`.
fn start_of(st: &Start) -> (TsLayout, WaveState, Vec<u8>) {
    let l = TsLayout::new(LANES);
    let mut state = WaveState::new(Arc::new(l.layout.clone()));
    for lane in 0..LANES {
        state.set_lane(l.gpr(0, 0), lane, lane);
        state.set_lane(l.gpr(1, 0), lane, (st.addr)(lane));
        state.set_lane(l.gpr(2, 0), lane, (st.data)(lane, 0));
        state.set_lane(l.gpr(3, 0), lane, (st.data)(lane, 1));
    }
    state.set_uniform(l.active(), st.active as u32);
    state.set_uniform(l.active().offset(1), (st.active >> 32) as u32);
    let lds: Vec<u8> = (0..LDS_BYTES as u32 / 4)
        .flat_map(|i| init(i).to_le_bytes())
        .collect();
    (l, state, lds)
}

/// Runs on both engines; they must agree on every GPR cell and the LDS.
fn run(p: &Program, st: &Start) -> Out {
    let f = Arc::new(lift_p(p).unwrap_or_else(|e| panic!("{e}")));
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("verify: {e}"));
    let (l, state, lds) = start_of(st);
    run_wave(&f, l, state, lds)
}

/// Table 8.11's formula of a 1A1D/1A2D op on one dword: (new LDS value, whether it writes).
fn rmw(op: LdsOp, old: u32, d0: u32, d1: u32) -> u32 {
    use LdsOp::*;
    match op {
        ADD | ADD_RET => old.wrapping_add(d0),
        SUB | SUB_RET => old.wrapping_sub(d0),
        RSUB | RSUB_RET => d0.wrapping_sub(old),
        INC | INC_RET => {
            if old >= d0 {
                0
            } else {
                old + 1
            }
        }
        DEC | DEC_RET => {
            if old == 0 || old > d0 {
                d0
            } else {
                old - 1
            }
        }
        MIN_INT | MIN_INT_RET => (old as i32).min(d0 as i32) as u32,
        MAX_INT | MAX_INT_RET => (old as i32).max(d0 as i32) as u32,
        MIN_UINT | MIN_UINT_RET => old.min(d0),
        MAX_UINT | MAX_UINT_RET => old.max(d0),
        AND | AND_RET => old & d0,
        OR | OR_RET => old | d0,
        XOR | XOR_RET => old ^ d0,
        MSKOR | MSKOR_RET => (old & !d0) | d1,
        WRITE | XCHG_RET => d0,
        CMP_STORE | CMP_XCHG_RET => {
            if old == d0 {
                d1
            } else {
                old
            }
        }
        _ => unreachable!("not a one-dword op"),
    }
}

const RMW: [(LdsOp, LdsOp); 13] = [
    (LdsOp::ADD, LdsOp::ADD_RET),
    (LdsOp::SUB, LdsOp::SUB_RET),
    (LdsOp::RSUB, LdsOp::RSUB_RET),
    (LdsOp::INC, LdsOp::INC_RET),
    (LdsOp::DEC, LdsOp::DEC_RET),
    (LdsOp::MIN_INT, LdsOp::MIN_INT_RET),
    (LdsOp::MAX_INT, LdsOp::MAX_INT_RET),
    (LdsOp::MIN_UINT, LdsOp::MIN_UINT_RET),
    (LdsOp::MAX_UINT, LdsOp::MAX_UINT_RET),
    (LdsOp::AND, LdsOp::AND_RET),
    (LdsOp::OR, LdsOp::OR_RET),
    (LdsOp::XOR, LdsOp::XOR_RET),
    (LdsOp::MSKOR, LdsOp::MSKOR_RET),
];

/// INC/DEC need data near the old values to take both branches: lanes alternate between a
/// limit above and below the old value.
fn data_near(lane: u32, k: u32) -> u32 {
    let old = init(lane);
    match (lane + k) % 3 {
        0 => old,
        1 => old.wrapping_add(lane),
        _ => data(lane, k),
    }
}

#[test]
fn every_read_modify_write_op_with_and_without_return() {
    for (noret, ret) in RMW {
        for st in [
            START,
            Start {
                data: data_near,
                ..START
            },
        ] {
            for op in [noret, ret] {
                let mut groups = vec![vec![lds(op, 0)]];
                if op == ret {
                    groups.push(vec![mov(5, src(sel::LDS_OQ_A_POP))]);
                }
                let out = run(&plain(groups), &st);
                for lane in 0..LANES {
                    let old = init(lane);
                    let (d0, d1) = ((st.data)(lane, 0), (st.data)(lane, 1));
                    assert_eq!(
                        out.dword(lane),
                        rmw(op, old, d0, d1),
                        "{op:?} lane {lane}: LDS"
                    );
                    if op == ret {
                        assert_eq!(out.r(5, lane), old, "{op:?} lane {lane}: returned");
                    }
                }
                for i in LANES..LDS_BYTES as u32 / 4 {
                    assert_eq!(out.dword(i), init(i), "{op:?}: dword {i} untouched");
                }
            }
        }
    }
}

/// Even lanes compare equal (R2.x = the old value), odd lanes do not.
fn data_cmp(lane: u32, k: u32) -> u32 {
    match (k, lane % 2) {
        (0, 0) => init(lane),
        _ => data(lane, k),
    }
}

#[test]
fn compare_exchange_store_write_and_exchange() {
    let st = Start {
        data: data_cmp,
        ..START
    };
    for op in [
        LdsOp::CMP_STORE,
        LdsOp::CMP_XCHG_RET,
        LdsOp::WRITE,
        LdsOp::XCHG_RET,
    ] {
        let ret = matches!(op, LdsOp::CMP_XCHG_RET | LdsOp::XCHG_RET);
        let mut groups = vec![vec![lds(op, 0)]];
        if ret {
            groups.push(vec![mov(5, src(sel::LDS_OQ_A_POP))]);
        }
        let out = run(&plain(groups), &st);
        for lane in 0..LANES {
            let (d0, d1) = (data_cmp(lane, 0), data_cmp(lane, 1));
            assert_eq!(
                out.dword(lane),
                rmw(op, init(lane), d0, d1),
                "{op:?} {lane}"
            );
            if ret {
                assert_eq!(out.r(5, lane), init(lane), "{op:?} {lane}: returned");
            }
        }
    }
}

/// The SPF forms compare as IEEE floats: -0 equals +0 and NaN equals nothing (note 1).
#[test]
fn float_compare_forms_use_ieee_equality() {
    fn old_f(lane: u32) -> u32 {
        [0x8000_0000u32, 0x7fc0_0000, 0x3f80_0000, 0x4000_0000][lane as usize % 4]
    }
    fn cmp_f(lane: u32, k: u32) -> u32 {
        if k == 1 {
            return 0x1234_5678 + lane;
        }
        [0u32, 0x7fc0_0000, 0x3f80_0000, 0x4040_0000][lane as usize % 4]
    }
    for op in [LdsOp::CMP_STORE_SPF, LdsOp::CMP_XCHG_SPF_RET] {
        let ret = op == LdsOp::CMP_XCHG_SPF_RET;
        // Seed each lane's dword with old_f through a WRITE of R4.x first.
        let mut groups = vec![
            vec![lds_from(
                LdsOp::WRITE,
                0,
                [gpr(1, 0), gpr(4, 0), AluSrc::default()],
            )],
            vec![lds(op, 0)],
        ];
        if ret {
            groups.push(vec![mov(5, src(sel::LDS_OQ_A_POP))]);
        }
        let p = plain(groups);
        let f = Arc::new(lift_p(&p).unwrap());
        let st = Start {
            data: cmp_f,
            ..START
        };
        // R4.x is not part of `Start`: set by hand (the runner compares both engines).
        let l = TsLayout::new(LANES);
        let mut state = WaveState::new(Arc::new(l.layout.clone()));
        for lane in 0..LANES {
            state.set_lane(l.gpr(1, 0), lane, own_dword(lane));
            state.set_lane(l.gpr(2, 0), lane, cmp_f(lane, 0));
            state.set_lane(l.gpr(3, 0), lane, cmp_f(lane, 1));
            state.set_lane(l.gpr(4, 0), lane, old_f(lane));
        }
        state.set_uniform(l.active(), st.active as u32);
        state.set_uniform(l.active().offset(1), (st.active >> 32) as u32);
        let out = run_wave(&f, l, state, vec![0u8; LDS_BYTES]);
        for lane in 0..LANES {
            let (old, cmp) = (old_f(lane), cmp_f(lane, 0));
            let equal = f32::from_bits(old) == f32::from_bits(cmp);
            let want = if equal { cmp_f(lane, 1) } else { old };
            assert_eq!(out.dword(lane), want, "{op:?} lane {lane}");
            if ret {
                assert_eq!(out.r(5, lane), old, "{op:?} lane {lane}: returned");
            }
        }
    }
}

#[test]
fn byte_and_short_reads_and_writes() {
    // Lane l addresses byte 4l + l % 3: every access stays inside the lane's own dword.
    fn addr(lane: u32) -> u32 {
        4 * lane + lane % 3
    }
    let st = Start { addr, ..START };
    for (op, width) in [(LdsOp::BYTE_WRITE, 1u32), (LdsOp::SHORT_WRITE, 2)] {
        let out = run(&plain(vec![vec![lds(op, 0)]]), &st);
        for lane in 0..LANES {
            let shift = 8 * (lane % 3);
            let mask = ((1u64 << (8 * width)) - 1) as u32;
            let want = (init(lane) & !(mask << shift)) | ((data(lane, 0) & mask) << shift);
            assert_eq!(out.dword(lane), want, "{op:?} lane {lane}");
        }
    }
    for op in [
        LdsOp::BYTE_READ_RET,
        LdsOp::UBYTE_READ_RET,
        LdsOp::SHORT_READ_RET,
        LdsOp::USHORT_READ_RET,
    ] {
        let p = plain(vec![vec![lds(op, 0)], vec![mov(5, src(sel::LDS_OQ_A_POP))]]);
        let out = run(&p, &st);
        for lane in 0..LANES {
            let v = init(lane) >> (8 * (lane % 3));
            let want = match op {
                LdsOp::BYTE_READ_RET => v as u8 as i8 as i32 as u32,
                LdsOp::UBYTE_READ_RET => v & 0xff,
                LdsOp::SHORT_READ_RET => v as u16 as i16 as i32 as u32,
                _ => v & 0xffff,
            };
            assert_eq!(out.r(5, lane), want, "{op:?} lane {lane}");
        }
    }
}

#[test]
fn two_address_and_offset_forms() {
    // Lanes 0-31 only, so that the second accesses (up to 256 bytes on) stay inside 1 KiB
    // and never meet a first access.
    let st = Start {
        active: 0xffff_ffff,
        ..START
    };
    let half = 32;
    // READ2_RET: OQA = LDS(src0), OQB = LDS(src1); R2.x as an address: use R0-based data.
    let read2 = lds_from(
        LdsOp::READ2_RET,
        0,
        [gpr(1, 0), gpr(6, 0), AluSrc::default()],
    );
    let add = |dst: u8, k: u32| {
        let mut i = inst(
            AluOp::ADD_INT,
            dst,
            0,
            [gpr(1, 0), src(sel::LITERAL), AluSrc::default()],
        );
        i.src[1].chan = 0;
        (i, k)
    };
    let (a6, k6) = add(6, 512);
    let p = program(
        vec![
            vec![a6],
            vec![read2],
            vec![
                mov(5, src(sel::LDS_OQ_A_POP)),
                inst(
                    AluOp::MOV,
                    7,
                    1,
                    [src(sel::LDS_OQ_B_POP), AluSrc::default(), AluSrc::default()],
                ),
            ],
        ],
        vec![vec![k6, 0], vec![], vec![]],
    );
    let out = run(&p, &st);
    for lane in 0..half {
        assert_eq!(out.r(5, lane), init(lane), "READ2 A lane {lane}");
        assert_eq!(
            out.state.lane(out.l.gpr(7, 1), lane),
            init(lane + 128),
            "READ2 B lane {lane}"
        );
    }
    // READ_REL_RET with IDX_OFFSET 5: B reads 5 dwords on.
    let p = plain(vec![
        vec![lds(LdsOp::READ_REL_RET, 5)],
        vec![
            mov(5, src(sel::LDS_OQ_B)),
            inst(
                AluOp::MOV,
                5,
                1,
                [src(sel::LDS_OQ_A), AluSrc::default(), AluSrc::default()],
            ),
        ],
        vec![mov(6, src(sel::LDS_OQ_A_POP))],
    ]);
    let out = run(&p, &st);
    for lane in 0..half {
        assert_eq!(out.r(5, lane), init(lane + 5), "READ_REL B lane {lane}");
        assert_eq!(out.state.lane(out.l.gpr(5, 1), lane), init(lane), "peek A");
        assert_eq!(
            out.r(6, lane),
            init(lane),
            "READ_REL A (peeked, then popped)"
        );
    }
    // WRITE_REL (offset 33 dwords) and WRITE2 (offset 1 = 64 dwords).
    for (op, step) in [(LdsOp::WRITE_REL, 33u32), (LdsOp::WRITE2, 64)] {
        let off = if op == LdsOp::WRITE2 { 1 } else { 33 };
        let out = run(&plain(vec![vec![lds(op, off)]]), &st);
        for lane in 0..half {
            assert_eq!(out.dword(lane), data(lane, 0), "{op:?} first, lane {lane}");
            assert_eq!(out.dword(lane + step), data(lane, 1), "{op:?} second");
        }
    }
    // XCHG_REL_RET / XCHG2_RET: both old values come back, both new ones are stored.
    for (op, off, step) in [
        (LdsOp::XCHG_REL_RET, 40u8, 40u32),
        (LdsOp::XCHG2_RET, 2, 128),
    ] {
        let p = plain(vec![
            vec![lds(op, off)],
            vec![
                mov(5, src(sel::LDS_OQ_A_POP)),
                inst(
                    AluOp::MOV,
                    5,
                    1,
                    [src(sel::LDS_OQ_B_POP), AluSrc::default(), AluSrc::default()],
                ),
            ],
        ]);
        let out = run(&p, &st);
        for lane in 0..half {
            assert_eq!(out.dword(lane), data(lane, 0), "{op:?} first");
            assert_eq!(out.dword(lane + step), data(lane, 1), "{op:?} second");
            assert_eq!(out.r(5, lane), init(lane), "{op:?} A");
            assert_eq!(
                out.state.lane(out.l.gpr(5, 1), lane),
                init(lane + step),
                "{op:?} B"
            );
        }
    }
    // READWRITE_RET: OQA = LDS(src0), LDS(src1) = src2.
    let rw = lds_from(LdsOp::READWRITE_RET, 0, [gpr(1, 0), gpr(6, 0), gpr(3, 0)]);
    let (a6, k6) = add(6, 256);
    let p = program(
        vec![vec![a6], vec![rw], vec![mov(5, src(sel::LDS_OQ_A_POP))]],
        vec![vec![k6, 0], vec![], vec![]],
    );
    let out = run(&p, &st);
    for lane in 0..half {
        assert_eq!(out.r(5, lane), init(lane), "READWRITE A");
        assert_eq!(out.dword(lane), init(lane), "READWRITE keeps src0's dword");
        assert_eq!(out.dword(lane + 64), data(lane, 1), "READWRITE writes src1");
    }
}

#[test]
fn the_queue_is_a_fifo_popped_at_group_end() {
    // Two reads queue two entries; the first pop group sees the first, the second the second;
    // a peek in between sees the head without removing it.
    fn addr(lane: u32) -> u32 {
        4 * lane
    }
    let read_at = |reg: u16| lds_from(LdsOp::READ_RET, 0, [gpr(reg, 0), gpr(2, 0), gpr(3, 0)]);
    let mut a6 = inst(
        AluOp::ADD_INT,
        6,
        0,
        [gpr(1, 0), src(sel::LITERAL), AluSrc::default()],
    );
    a6.src[1].chan = 0;
    let p = program(
        vec![
            vec![a6],
            vec![read_at(1)],
            vec![read_at(6)],
            vec![mov(7, src(sel::LDS_OQ_A))],
            vec![mov(8, src(sel::LDS_OQ_A_POP))],
            vec![mov(9, src(sel::LDS_OQ_A_POP))],
        ],
        vec![vec![4 * 100, 0], vec![], vec![], vec![], vec![], vec![]],
    );
    let out = run(&p, &Start { addr, ..START });
    for lane in 0..LANES {
        assert_eq!(out.r(7, lane), init(lane));
        assert_eq!(out.r(8, lane), init(lane));
        assert_eq!(out.r(9, lane), init(lane + 100));
    }
}

#[test]
fn a_return_is_not_visible_in_its_own_group_and_pops_precede_pushes() {
    // Group 2 pops entry 1 and pushes entry 2 in the same group: its MOV sees entry 1.
    let mut a6 = inst(
        AluOp::ADD_INT,
        6,
        0,
        [gpr(1, 0), src(sel::LITERAL), AluSrc::default()],
    );
    a6.src[1].chan = 0;
    let read6 = lds_from(LdsOp::READ_RET, 0, [gpr(6, 0), gpr(2, 0), gpr(3, 0)]);
    let p = program(
        vec![
            vec![a6],
            vec![lds(LdsOp::READ_RET, 0)],
            vec![
                read6,
                inst(
                    AluOp::MOV,
                    7,
                    1,
                    [src(sel::LDS_OQ_A_POP), AluSrc::default(), AluSrc::default()],
                ),
            ],
            vec![mov(8, src(sel::LDS_OQ_A_POP))],
        ],
        vec![vec![4 * 64, 0], vec![], vec![], vec![]],
    );
    let out = run(&p, &START);
    for lane in 0..LANES {
        assert_eq!(out.state.lane(out.l.gpr(7, 1), lane), init(lane));
        assert_eq!(out.r(8, lane), init(lane + 64));
    }
}

#[test]
fn predicated_and_inactive_lanes_do_not_access_the_lds() {
    // PRED_SEL_ZERO with the clause's initial predicate (= the active mask) runs no lane;
    // PRED_SEL_ONE runs the active lanes; lanes outside the active mask never run.
    let active = 0x0f0f_f0f0_1234_5678u64;
    let st = Start { active, ..START };
    for (pred_sel, runs) in [(2u8, 0u64), (3, active), (0, active)] {
        let mut w = lds(LdsOp::WRITE, 0);
        w.pred_sel = pred_sel;
        let out = run(&plain(vec![vec![w]]), &st);
        for lane in 0..LANES {
            let want = if runs >> lane & 1 == 1 {
                data(lane, 0)
            } else {
                init(lane)
            };
            assert_eq!(out.dword(lane), want, "PRED_SEL {pred_sel} lane {lane}");
        }
    }
}

#[test]
fn direct_reads_use_the_literal_offset_and_stride() {
    // A: offset 3, stride 5; B: offset 200, stride 0 (every lane the same dword).
    let lo = 3 | 5 << 13;
    let hi = 200;
    let mut i = inst(
        AluOp::ADD_INT,
        5,
        0,
        [
            src(sel::LDS_DIRECT_A),
            src(sel::LDS_DIRECT_B),
            AluSrc::default(),
        ],
    );
    i.src[1].chan = 1;
    let p = program(vec![vec![i]], vec![vec![lo, hi]]);
    let out = run(&p, &START);
    for lane in 0..LANES {
        let a = 3 + 5 * lane;
        let av = if a < LDS_BYTES as u32 / 4 { init(a) } else { 0 };
        assert_eq!(out.r(5, lane), av.wrapping_add(init(200)), "lane {lane}");
    }
}

fn invalid(p: &Program, needle: &str) {
    match lift_p(p) {
        Err(
            e @ LiftError {
                kind: LiftErrorKind::Invalid,
                ..
            },
        ) => {
            assert!(e.to_string().contains(needle), "{e}");
        }
        Err(e) => panic!("expected invalid ({needle}), got {e}"),
        Ok(_) => panic!("expected invalid ({needle}), lifted"),
    }
}

#[test]
fn queue_misuse_is_a_lift_error() {
    invalid(
        &plain(vec![vec![lds(LdsOp::READ_RET, 0)]]),
        "left in the LDS output queue",
    );
    invalid(
        &plain(vec![vec![mov(5, src(sel::LDS_OQ_A_POP))]]),
        "queue is empty",
    );
    invalid(
        &plain(vec![
            vec![lds(LdsOp::READ_RET, 0)],
            vec![mov(5, src(sel::LDS_OQ_B_POP))],
        ]),
        "no B value",
    );
    invalid(
        &plain(vec![
            vec![lds(LdsOp::READ_RET, 0)],
            vec![
                mov(5, src(sel::LDS_OQ_A_POP)),
                inst(
                    AluOp::MOV,
                    5,
                    1,
                    [src(sel::LDS_OQ_A), AluSrc::default(), AluSrc::default()],
                ),
            ],
        ]),
        "mixes popping and peeking",
    );
    invalid(
        &plain(vec![vec![lds(LdsOp::ATOMIC_ORDERED_ALLOC_RET, 0)]]),
        "GDS-only",
    );
    // A peek never pops: the entry is still there at clause end.
    invalid(
        &plain(vec![
            vec![lds(LdsOp::READ_RET, 0)],
            vec![mov(5, src(sel::LDS_OQ_A))],
        ]),
        "left in the LDS output queue",
    );
}
