//! Code whose float ops all flush their inputs runs with the host's denormals-are-zero mode;
//! the Rust helpers it calls must not. A block with such an op and a float atomic (always
//! through the wave-operation helper, IEEE with denormals kept) is checked against the
//! arithmetic of denormals, which is integer addition of their bit patterns while the sum
//! stays below the smallest normal: at both tiers, and the mode is the caller's afterwards.

mod common;

use common::*;
use wavejit_ir::{
    AtomicOp, FloatMode, FunctionBuilder, MemSpace, MemWidth, Op, ScalarType as T, Terminator,
};
use wavejit_jit::JitOptions;

const WAVE: u32 = 64;

/// v1 = fadd.flush(v0, v0); v4 = atomic fadd (s0:s1 + 4 * lane) += v3.
fn func() -> wavejit_ir::Function {
    let mut b = FunctionBuilder::new("daz", layout(WAVE, 4, 8));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x10);
    let x = b.use_reg(v(0), T::F32);
    let y = b.op_mode(Op::Fadd, FloatMode::FLUSH, T::F32, &[x, x]);
    b.def_reg(v(1), y, None);
    let base = b.use_reg(s(0), T::I64);
    let lane = b.lane_id();
    let four = b.i32(4);
    let off = b.op(Op::Imul, T::I32, &[lane, four]);
    let off = b.op(Op::Zext, T::I64, &[off]);
    let addr = b.op(Op::Iadd, T::I64, &[base, off]);
    let d = b.use_reg(v(3), T::F32);
    let old = b.atomic(
        AtomicOp::Fadd,
        MemSpace::Global,
        MemWidth::B32,
        addr,
        d,
        None,
        None,
    );
    b.def_reg(v(4), old, None);
    b.terminate(Terminator::Return);
    b.finish()
}

#[test]
fn helpers_keep_denormals_inside_host_denormals_are_zero_code() {
    let f = func();
    for opts in [
        JitOptions::default(),
        JitOptions {
            tier_up_after: Some(0),
            ..JitOptions::default()
        },
    ] {
        let jit = jit_with(opts);
        let prog = prepare(&jit, &f);
        let mut mem = memory();
        let words: Vec<u32> = (0..WAVE).map(|l| 1 + l).collect();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let a = mem.alloc_bytes(&bytes, 256).unwrap();
        let mut w = Wave::new(&f.layout, 0, 0);
        w.state.set_uniform(s(0), a as u32);
        w.state.set_uniform(s(1), (a >> 32) as u32);
        for l in 0..WAVE {
            // Odd lanes a denormal (flushed to +0 by the block's add), even lanes 1.5.
            let x = if l % 2 == 1 {
                0x0040_0000
            } else {
                1.5f32.to_bits()
            };
            w.state.set_lane(v(0), l, x);
            w.state.set_lane(v(3), l, 0x100 + l);
        }
        let before = mxcsr_daz();
        w.block(&*prog, 0, &mem).expect("the block runs");
        assert_eq!(mxcsr_daz(), before, "the caller's float mode is restored");
        let mut out = vec![0u8; bytes.len()];
        mem.read_bytes(a, &mut out).unwrap();
        for l in 0..WAVE {
            let want_sum = (1 + l) + (0x100 + l);
            let got = u32::from_le_bytes(out[4 * l as usize..][..4].try_into().unwrap());
            assert_eq!(got, want_sum, "lane {l}: denormal atomic sum");
            assert_eq!(w.state.lane(v(4), l), 1 + l, "lane {l}: old value");
            let want_add = if l % 2 == 1 { 0 } else { 3.0f32.to_bits() };
            assert_eq!(w.state.lane(v(1), l), want_add, "lane {l}: flushed add");
        }
    }
}

/// MXCSR's DAZ bit on this thread (x86-64; elsewhere there is no such mode: false).
fn mxcsr_daz() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let mut v = 0u32;
        // SAFETY: stores MXCSR into `v`.
        unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack)) };
        v & (1 << 6) != 0
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}
