//! Formatted loads and stores (`load_format`/`store_format`): the JIT reaches them through its
//! wave-operation helper, so both engines must give identical register and memory bits for
//! every format code, static and dynamic formats, d16 components, masked lanes (which yield
//! the out-of-range value), uniform addresses and LDS elements. Hand-checked values pin a few
//! results so that agreement on a wrong answer cannot pass.

mod common;

use common::*;
use wavejit_ir::{
    DataFormat, ElemFormat, FormatSrc, Function, FunctionBuilder, MemSpace, NumFormat, Op,
    ScalarType as T, Sel, Terminator,
};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, GuestMemory};

/// Loads components 0..3 (i32) and 0..1 (i16) of the element at base + 16 * lane with the
/// dynamic format code in s4, under the mask bits in s6:s7, into v0..v5; stores v8..v11 with
/// the same format at base + 2048 + 16 * lane (all lanes) and v12..v13 as d16 components with
/// a static 16_16 UNORM format at base + 4096 + 4 * lane; loads x of a static 8_8_8_8 UNORM
/// element at uniform address base into s8 and x of a 32 FLOAT element in LDS at 4 * lane
/// into v6.
fn format_func() -> Function {
    let mut b = FunctionBuilder::new("fmt", layout(64, 16, 16));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x10);
    let base = b.use_reg(s(2), T::I64);
    let code = b.use_reg(s(4), T::I32);
    let bits = b.use_reg(s(6), T::I64);
    let mask = b.mask_from_bits(bits);
    let id = b.lane_id();
    let k16 = b.i32(16);
    let off = b.op(Op::Imul, T::I32, &[id, k16]);
    let off64 = b.op(Op::Zext, T::I64, &[off]);
    let addr = b.op(Op::Iadd, T::I64, &[base, off64]);
    let dynf = FormatSrc::Dynamic(code);
    for c in 0..4u8 {
        let x = b.load_format(MemSpace::Global, dynf, c, false, addr, Some(mask));
        b.def_reg(v(c as u32), x, None);
    }
    for c in 0..2u8 {
        let x = b.load_format(MemSpace::Global, dynf, c, true, addr, Some(mask));
        let x = b.op(Op::Zext, T::I32, &[x]);
        b.def_reg(v(4 + c as u32), x, None);
    }
    let k2048 = b.i64(2048);
    let a2 = b.op(Op::Iadd, T::I64, &[addr, k2048]);
    let data: Vec<_> = (8..12).map(|r| b.use_reg(v(r), T::I32)).collect();
    b.store_format(MemSpace::Global, dynf, a2, &data, None);
    let k4 = b.i32(4);
    let o4 = b.op(Op::Imul, T::I32, &[id, k4]);
    let o4_64 = b.op(Op::Zext, T::I64, &[o4]);
    let k4096 = b.i64(4096);
    let a3 = b.op(Op::Iadd, T::I64, &[base, k4096]);
    let a3 = b.op(Op::Iadd, T::I64, &[a3, o4_64]);
    let h: Vec<_> = (12..14)
        .map(|r| {
            let x = b.use_reg(v(r), T::I32);
            b.op(Op::Trunc, T::I16, &[x])
        })
        .collect();
    let unorm16 = FormatSrc::Static(ElemFormat::new(DataFormat::D16_16, NumFormat::Unorm));
    b.store_format(MemSpace::Global, unorm16, a3, &h, None);
    let rgba8 = FormatSrc::Static(ElemFormat::new(DataFormat::D8_8_8_8, NumFormat::Unorm));
    let u = b.load_format(MemSpace::Global, rgba8, 0, false, base, None);
    b.def_reg(s(8), u, None);
    let f32fmt = FormatSrc::Static(ElemFormat::new(DataFormat::D32, NumFormat::Float));
    let l = b.load_format(MemSpace::Lds, f32fmt, 0, false, o4, None);
    b.def_reg(v(6), l, None);
    b.terminate(Terminator::Return);
    b.finish()
}

struct Outcome {
    regs: Vec<u32>,
    /// v0..v6 by lane.
    v: Vec<Vec<u32>>,
    mem: Vec<u8>,
}

fn run(engine: &dyn Engine, func: &Function, code: u32, seed: u32) -> Outcome {
    let mut mem: GuestMemory = memory();
    let init: Vec<u8> = (0..8192u32)
        .map(|i| (i ^ seed).wrapping_mul(0x9e37_79b9).rotate_left(13) as u8)
        .collect();
    let base = mem.alloc_bytes(&init, 256).expect("alloc");
    let prog = prepare(engine, func);
    let mut w = Wave::new(&func.layout, 256, 0);
    w.lds.iter_mut().enumerate().for_each(|(i, b)| *b = init[i]);
    let m = 0xffff_0f0f_7fff_fffeu64 ^ seed as u64;
    w.state.set_uniform(s(2), base as u32);
    w.state.set_uniform(s(3), (base >> 32) as u32);
    w.state.set_uniform(s(4), code);
    w.state.set_uniform(s(6), m as u32);
    w.state.set_uniform(s(7), (m >> 32) as u32);
    for r in 8..14u32 {
        for l in 0..64u32 {
            let x = l
                .wrapping_mul(0x0101_0101)
                .wrapping_add(r.wrapping_mul(0x3f7f_0003))
                .wrapping_mul(0x2545_f491)
                ^ seed;
            w.state.set_lane(v(r), l, x);
        }
    }
    assert_eq!(w.block(&*prog, 0, &mem), Ok(BlockExit::Return));
    let mut out = vec![0u8; 8192];
    mem.read_bytes(base, &mut out).expect("read");
    Outcome {
        regs: w.state.cells().to_vec(),
        v: (0..7)
            .map(|r| (0..64).map(|l| w.state.lane(v(r), l)).collect())
            .collect(),
        mem: out,
    }
}

#[test]
fn interpreter_and_jit_agree_on_every_format() {
    let func = format_func();
    let jit = jit();
    let sels = [
        [Sel::X, Sel::Y, Sel::Z, Sel::W],
        [Sel::W, Sel::One, Sel::Zero, Sel::X],
    ];
    let mut n = 0;
    for data in DataFormat::ALL {
        for num in NumFormat::ALL {
            for (k, swizzle) in sels.iter().enumerate() {
                let code = ElemFormat {
                    data,
                    num,
                    swizzle: *swizzle,
                }
                .code();
                let seed = (n * 0x10001) as u32;
                let a = run(&Interpreter, &func, code, seed);
                let b = run(&jit, &func, code, seed);
                assert!(
                    a.regs == b.regs,
                    "registers differ: {data:?} {num:?} sel {k}"
                );
                assert!(a.mem == b.mem, "memory differs: {data:?} {num:?} sel {k}");
                n += 1;
            }
        }
    }
}

#[test]
fn hand_checked_results() {
    let func = format_func();
    // 8_8 UINT, select (Y, X, 1, W): the masked-off lane 0 gets (0, 0, 1, 0); W is missing.
    let f = ElemFormat {
        data: DataFormat::D8_8,
        num: NumFormat::Uint,
        swizzle: [Sel::Y, Sel::X, Sel::One, Sel::W],
    };
    for engine in [&Interpreter as &dyn Engine, &jit()] {
        let o = run(engine, &func, f.code(), 0);
        let cell = |r: usize, l: usize| o.v[r][l];
        let lane1 = 16;
        assert_eq!(
            [0, 1, 2, 3].map(|r| cell(r, 1)),
            [o.mem[lane1 + 1] as u32, o.mem[lane1] as u32, 1, 1],
            "{}",
            engine.name()
        );
        assert_eq!(
            [0, 1, 2, 3].map(|r| cell(r, 0)),
            [0, 0, 1, 0],
            "{}",
            engine.name()
        );
    }
}
