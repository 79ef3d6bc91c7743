//! Wave operations (memory, cross-lane, indexed registers), faults, terminators and the code
//! cache. Expected values are written out by hand or, for faults, compared field by field
//! with the reference interpreter.

mod common;

use common::*;
use std::sync::Arc;
use wavejit_ir::{
    Block, Function, FunctionBuilder, MemSpace, MemWidth, Op, ScalarType as T, Terminator, TrapKind,
};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, FaultKind};

/// v1 = load32(base + 4 * lane) under exec (s[30..32]); store v1 + lane to base + 256 + 4 * lane,
/// unmasked; then the same lanes' loads again, and a uniform load of base into s[0].
fn memory_func(wave: u32) -> Function {
    let mut b = FunctionBuilder::new("mem", layout(wave, 32, 8));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x20);
    let base = b.use_reg(s(2), T::I64);
    let id = b.lane_id();
    let four = b.i32(4);
    let off = b.op(Op::Imul, T::I32, &[id, four]);
    let off64 = b.op(Op::Zext, T::I64, &[off]);
    let addr = b.op(Op::Iadd, T::I64, &[base, off64]);
    let e = b.use_reg(s(30), T::I64);
    let exec = b.mask_from_bits(e);
    let x = b.load(
        MemSpace::Global,
        MemWidth::B32,
        false,
        T::I32,
        addr,
        Some(exec),
    );
    b.def_reg(v(1), x, None);
    b.begin_guest_inst(0x24);
    let k256 = b.i64(256);
    let a2 = b.op(Op::Iadd, T::I64, &[addr, k256]);
    let y = b.op(Op::Iadd, T::I32, &[x, id]);
    b.store(MemSpace::Global, MemWidth::B32, a2, y, None);
    let u = b.load(MemSpace::Global, MemWidth::B32, false, T::I32, base, None);
    b.def_reg(s(0), u, None);
    b.terminate(Terminator::Return);
    b.finish()
}

#[test]
fn global_loads_and_stores() {
    for wave in [64u32, 32] {
        let func = memory_func(wave);
        let mut mem = memory();
        let init: Vec<u8> = (0..1024u32)
            .flat_map(|i| (i * 3 + 1).to_le_bytes())
            .map(|b| b ^ 0x5a)
            .collect();
        let base = mem.alloc_bytes(&init[..1024], 256).expect("alloc");
        let word =
            |i: usize| u32::from_le_bytes(init[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        let prog = prepare(&jit(), &func);
        let mut w = Wave::new(&func.layout, 0, 0);
        let exec = 0xf0f0_1234_8765_ffffu64;
        w.state.set_uniform(s(2), base as u32);
        w.state.set_uniform(s(3), (base >> 32) as u32);
        w.state.set_uniform(s(30), exec as u32);
        w.state.set_uniform(s(31), (exec >> 32) as u32);
        assert_eq!(w.block(&*prog, 0, &mem), Ok(BlockExit::Return));
        let mut out = vec![0u8; 4 * wave as usize];
        mem.read_bytes(base + 256, &mut out).expect("read");
        for l in 0..wave as usize {
            let loaded = if exec >> l & 1 == 1 { word(l) } else { 0 };
            assert_eq!(w.state.lane(v(1), l as u32), loaded, "lane {l}");
            let stored = u32::from_le_bytes(out[4 * l..4 * l + 4].try_into().expect("4 bytes"));
            assert_eq!(stored, loaded.wrapping_add(l as u32), "stored lane {l}");
        }
        assert_eq!(w.state.uniform(s(0)), word(0));
    }
}

/// A load from an unmapped address faults; writes before it are kept, writes after it are not.
#[test]
fn faults_match_the_interpreter() {
    let mut b = FunctionBuilder::new("fault", layout(64, 32, 8));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x30);
    let id = b.lane_id();
    b.def_reg(v(0), id, None);
    let k = b.i32(5);
    b.def_reg(s(4), k, None);
    b.begin_guest_inst(0x34);
    let bad = b.i64(8);
    let x = b.load(MemSpace::Global, MemWidth::B32, false, T::I32, bad, None);
    b.begin_guest_inst(0x38);
    b.def_reg(s(5), x, None);
    b.def_reg(v(1), id, None);
    b.terminate(Terminator::Return);
    let func = b.finish();
    let mem = memory();
    let mut a = Wave::new(&func.layout, 0, 0);
    let mut j = Wave::new(&func.layout, 0, 0);
    let ra = a.block(&*prepare(&Interpreter, &func), 0, &mem);
    let rj = j.block(&*prepare(&jit(), &func), 0, &mem);
    let f = rj.clone().expect_err("faults");
    assert_eq!(f.pc, 0x34);
    assert!(matches!(
        f.kind,
        FaultKind::OutOfBounds {
            space: MemSpace::Global,
            write: false
        }
    ));
    assert_eq!(ra, rj);
    assert_eq!(a.state.bytes(), j.state.bytes());
    assert_eq!(j.state.lane(v(0), 63), 63);
    assert_eq!(j.state.uniform(s(4)), 5);
    assert_eq!(j.state.lane(v(1), 63), 0);
}

/// read_lane, shuffle, indexed register reads and writes, and an out-of-file index.
#[test]
fn cross_lane_and_indexed_registers() {
    let mut b = FunctionBuilder::new("xlane", layout(64, 32, 8));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x40);
    let x = b.use_reg(v(0), T::I32);
    let l5 = b.i32(69);
    let r = b.read_lane(x, l5);
    b.def_reg(s(0), r, None);
    let id = b.lane_id();
    let k63 = b.i32(63);
    let rev = b.op(Op::Isub, T::I32, &[k63, id]);
    let sh = b.shuffle(x, rev);
    b.def_reg(v(1), sh, None);
    let idx = b.use_reg(s(1), T::I32);
    let ri = b.read_reg_indexed(V, 0, idx, T::I32);
    b.write_reg_indexed(V, 2, idx, ri, None);
    b.begin_guest_inst(0x44);
    let big = b.i32(100);
    let _ = b.read_reg_indexed(V, 0, big, T::I32);
    b.terminate(Terminator::Return);
    let func = b.finish();
    let mut w = Wave::new(&func.layout, 0, 0);
    w.state.set_uniform(s(1), 1);
    for l in 0..64 {
        w.state.set_lane(v(0), l, 1000 + l);
        w.state.set_lane(v(1), l, 7 * l);
    }
    let f = w
        .block(&*prepare(&jit(), &func), 0, &memory())
        .expect_err("index 100 faults");
    assert_eq!((f.kind, f.pc), (FaultKind::RegisterIndex, 0x44));
    assert_eq!(
        w.state.uniform(s(0)),
        1005,
        "read_lane takes the lane modulo 64"
    );
    for l in 0..64 {
        assert_eq!(w.state.lane(v(1), l), 1000 + 63 - l, "shuffle");
        // v[2 + 1] = v[0 + 1], read after the shuffle wrote v1.
        assert_eq!(w.state.lane(v(3), l), 1000 + 63 - l, "indexed");
    }
}

/// Indexed accesses of a uniform file with a uniform index (compiled inline): s[4 + s1] as
/// i32 and as i64 (two cells), a write of their sum to s[10 + s1], v0 = lane, then a read at
/// `bad` followed by v1 = lane; the read must fault like the interpreter's, after v0 and
/// before v1 are written (the i64 read at the file's last cell, an index of
/// 0xffff_ffff, which is not -1, and a base + index past u32).
fn uniform_indexed_func(bad_base: u32, bad: u32, bad_ty: T) -> Function {
    let mut b = FunctionBuilder::new("uidx", layout(64, 32, 8));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x50);
    let idx = b.use_reg(s(1), T::I32);
    let a = b.read_reg_indexed(S, 4, idx, T::I32);
    let w = b.read_reg_indexed(S, 4, idx, T::I64);
    let a64 = b.op(Op::Zext, T::I64, &[a]);
    let sum = b.op(Op::Iadd, T::I64, &[a64, w]);
    b.write_reg_indexed(S, 10, idx, sum, None);
    let id = b.lane_id();
    b.def_reg(v(0), id, None);
    b.begin_guest_inst(0x54);
    let k = b.i32(bad);
    let x = b.read_reg_indexed(S, bad_base, k, bad_ty);
    b.def_reg(s(0), x, None);
    b.def_reg(v(1), id, None);
    b.terminate(Terminator::Return);
    b.finish()
}

#[test]
fn uniform_indexed_registers_inline_and_fault_like_the_interpreter() {
    let tier2 = jit_with(wavejit_jit::JitOptions {
        tier_up_after: Some(0),
        ..Default::default()
    });
    let engines: [(&str, &dyn Engine); 3] = [
        ("interp", &Interpreter),
        ("jit tier 1", &jit()),
        ("jit tier 2", &tier2),
    ];
    // In range: the bad read is s[31] as i32, the last cell.
    let cases = [
        (0, 31, T::I32, None),
        (0, 31, T::I64, Some(31u64)),
        (0, u32::MAX, T::I32, Some(0xffff_ffff)),
        (2, u32::MAX, T::I32, Some(0x1_0000_0001)),
    ];
    for (bad_base, bad, ty, fault_addr) in cases {
        let func = uniform_indexed_func(bad_base, bad, ty);
        let mut states = Vec::new();
        for (name, e) in engines {
            let mut w = Wave::new(&func.layout, 0, 0);
            for i in 0..32 {
                w.state.set_uniform(s(i), 100 + i);
            }
            w.state.set_uniform(s(1), 3);
            let r = w.block(&*prepare(e, &func), 0, &memory());
            // s[7] + (s[8]:s[7]) into s[13]:s[14], written before the faulting read.
            let want = (100 + 7) + ((108u64 << 32) | 107);
            let got = u64::from(w.state.uniform(s(13))) | u64::from(w.state.uniform(s(14))) << 32;
            assert_eq!(got, want, "{name}: indexed write");
            assert_eq!(w.state.lane(v(0), 63), 63, "{name}: the lane write before");
            let after = if fault_addr.is_some() { 0 } else { 63 };
            assert_eq!(
                w.state.lane(v(1), 63),
                after,
                "{name}: the lane write after"
            );
            match fault_addr {
                None => {
                    assert!(r.is_ok(), "{name}: {r:?}");
                    assert_eq!(w.state.uniform(s(0)), 131, "{name}");
                }
                Some(addr) => {
                    let f = r.clone().expect_err("faults");
                    assert_eq!(f.kind, FaultKind::RegisterIndex, "{name}");
                    assert_eq!((f.pc, f.addr), (0x54, Some(addr)), "{name}");
                    assert_eq!(
                        w.state.uniform(s(0)),
                        100,
                        "{name}: no write after the fault"
                    );
                }
            }
            states.push((r, w.state.bytes().to_vec()));
        }
        assert!(states.windows(2).all(|p| p[0] == p[1]), "engines agree");
    }
}

fn terminators_func() -> Arc<Function> {
    let mut b = FunctionBuilder::new("term", layout(64, 32, 8));
    let blocks: Vec<Block> = (0..6).map(|_| b.create_block()).collect();
    for (i, &blk) in blocks.iter().enumerate() {
        b.set_guest_pc(blk, 0x100 * i as u64);
    }
    b.switch_to(blocks[0]);
    b.begin_guest_inst(0x0);
    let c = b.use_reg(s(0), T::I32);
    let one = b.i32(1);
    let cond = b.op(Op::Icmp(wavejit_ir::IntCC::Eq), T::I1, &[c, one]);
    b.terminate(Terminator::Branch {
        cond,
        then_to: blocks[1],
        else_to: blocks[2],
    });
    b.switch_to(blocks[1]);
    b.begin_guest_inst(0x100);
    let t = b.use_reg(s(2), T::I64);
    b.terminate(Terminator::JumpIndirect(t));
    b.switch_to(blocks[2]);
    b.terminate(Terminator::Barrier(blocks[3]));
    b.switch_to(blocks[3]);
    b.terminate(Terminator::Trap(TrapKind::Explicit("s_trap 2".into())));
    b.switch_to(blocks[4]);
    b.terminate(Terminator::Return);
    b.switch_to(blocks[5]);
    b.terminate(Terminator::Jump(blocks[4]));
    Arc::new(b.finish())
}

#[test]
fn terminators() {
    let func = terminators_func();
    let jit = jit();
    let jp = jit.prepare(func.clone()).expect("prepares");
    let ip = Interpreter.prepare(func.clone()).expect("prepares");
    let mem = memory();
    let mut w = Wave::new(&func.layout, 0, 0);
    let mut run = |b: u32, s0: u32, target: u64| {
        w.state.set_uniform(s(0), s0);
        w.state.set_uniform(s(2), target as u32);
        w.state.set_uniform(s(3), (target >> 32) as u32);
        let r = w.block(&*jp, b, &mem);
        assert_eq!(r, w.block(&*ip, b, &mem), "block {b}");
        r
    };
    assert_eq!(run(0, 1, 0), Ok(BlockExit::Jump(Block(1))));
    assert_eq!(run(0, 0, 0), Ok(BlockExit::Jump(Block(2))));
    assert_eq!(run(1, 0, 0x500), Ok(BlockExit::Jump(Block(5))));
    let bad = run(1, 0, 0x501).expect_err("no block at 0x501");
    assert_eq!((bad.kind, bad.addr), (FaultKind::BadJump, Some(0x501)));
    assert_eq!(run(2, 0, 0), Ok(BlockExit::Barrier(Block(3))));
    let trap = run(3, 0, 0).expect_err("traps");
    assert_eq!(trap.kind, FaultKind::Trap("s_trap 2".into()));
    assert_eq!(run(4, 0, 0), Ok(BlockExit::Return));
    assert_eq!(run(5, 0, 0), Ok(BlockExit::Jump(Block(4))));
    assert!(run(9, 0, 0).is_err(), "no block 9");
}

#[test]
fn preparing_again_reuses_code() {
    let jit = jit();
    let func = terminators_func();
    jit.prepare(func.clone()).expect("prepares");
    let first = jit.stats();
    assert_eq!(first.blocks_compiled, 6);
    assert_eq!(first.cache_hits, 0);
    let mut renamed = (*func).clone();
    renamed.name = "other".into();
    jit.prepare(Arc::new(renamed)).expect("prepares");
    let second = jit.stats();
    assert_eq!(second.blocks_compiled, 6);
    assert_eq!(second.cache_hits, 6);
}

#[test]
fn invalid_ir_is_an_error_not_a_panic() {
    let mut func = (*terminators_func()).clone();
    func.blocks[0].term = Terminator::Branch {
        cond: wavejit_ir::Value(99),
        then_to: Block(1),
        else_to: Block(2),
    };
    let r = jit().prepare(Arc::new(func));
    assert!(r.is_err());
}
