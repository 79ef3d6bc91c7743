//! Random ALU, OUTPUT and TEX slots the lifter accepts (the refusals listed in
//! [`crate::lift`]'s module docs): defined values only (no reserved opcode, predicate select
//! 6-7, swizzle 7), no REL on an inline constant, OMOD_DISABLE only on MIN, MAX, CND and CMP,
//! RGB SOP only with an alpha transcendental, alpha DP only with an RGB dot product.
//!
//! Registers: r0 holds (i, j, 0, 1) at program start and is never written, so TEX
//! coordinates read from it stay inside the domain; random slots write r1-r15 and read
//! r0-r15 and c0-c15, either with `+aL` in loops (aL stays below [`super::MAX_AL`]).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::inst::{AlphaInput, Alu, Body, Cmn, Dest, Inst, Pred, RgbInput, Src, Tex, TexReg};
use crate::table::{
    AlphaOp, AluResultSel, CmpOp, Modifier, Omod, PredSel, Presub, RgbOp, SrcSel, Swizzle, TexOp,
    TexSwizzle, ALPHA_OPS, RGB_OPS,
};

/// The temporaries random slots write (r1-r15) and read (r0-r15).
pub const TEMPS: u8 = 16;
/// The float constants random slots read (c0-c15, plus aL).
pub const CONSTS: u8 = 16;
/// The inputs TEX slots read (TEX_ID 0-3).
pub const INPUTS: u8 = 4;

/// Where a slot is generated: inside how many loops (REL is drawn only there).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ctx {
    pub in_loop: bool,
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> T {
    items[rng.gen_range(0..items.len())]
}

fn rel(rng: &mut ChaCha8Rng, ctx: Ctx) -> bool {
    ctx.in_loop && rng.gen_bool(0.2)
}

/// A predicate: mostly none; a defined select (0-5) and random INV otherwise.
pub fn pred(rng: &mut ChaCha8Rng) -> Pred {
    if rng.gen_bool(0.75) {
        return Pred::default();
    }
    Pred {
        sel: PredSel::from_bits(rng.gen_range(0..6)),
        inv: rng.gen_bool(0.5),
    }
}

fn src(rng: &mut ChaCha8Rng, ctx: Ctx) -> Src {
    match rng.gen_range(0..10) {
        0..=4 => Src::Temp {
            index: rng.gen_range(0..TEMPS),
            rel: rel(rng, ctx),
        },
        5..=7 => Src::Const {
            index: rng.gen_range(0..CONSTS),
            rel: rel(rng, ctx),
        },
        _ => Src::Inline {
            bits: rng.gen_range(0..128),
            rel: false,
        },
    }
}

fn swizzle(rng: &mut ChaCha8Rng) -> Swizzle {
    // 0-6: R G B A 0 0.5 1 (7, "unused", is refused where read).
    Swizzle::from_bits(rng.gen_range(0..7))
}

fn modifier(rng: &mut ChaCha8Rng) -> Modifier {
    if rng.gen_bool(0.6) {
        Modifier::Nop
    } else {
        Modifier::from_bits(rng.gen_range(1..4))
    }
}

fn dest(rng: &mut ChaCha8Rng, ctx: Ctx) -> Dest {
    Dest {
        addr: rng.gen_range(1..TEMPS),
        rel: rel(rng, ctx),
    }
}

fn omod(rng: &mut ChaCha8Rng, selects: bool) -> Omod {
    match rng.gen_range(0..10) {
        0..=5 => Omod::Mul1,
        _ if selects && rng.gen_bool(0.4) => Omod::Disable,
        _ => Omod::from_bits(rng.gen_range(1..7)),
    }
}

const TRANSCENDENTAL: [AlphaOp; 6] = [
    AlphaOp::Ex2,
    AlphaOp::Ln2,
    AlphaOp::Rcp,
    AlphaOp::Rsq,
    AlphaOp::Sin,
    AlphaOp::Cos,
];

/// A defined RGB op and a defined alpha op that the lifter takes together.
fn ops(rng: &mut ChaCha8Rng) -> (RgbOp, AlphaOp) {
    let rgb: Vec<RgbOp> = RGB_OPS
        .iter()
        .filter(|r| r.defined)
        .map(|r| r.item)
        .collect();
    let alpha: Vec<AlphaOp> = ALPHA_OPS
        .iter()
        .filter(|r| r.defined)
        .map(|r| r.item)
        .collect();
    let r = pick(rng, &rgb);
    let mut a = pick(rng, &alpha);
    if r == RgbOp::Sop {
        a = pick(rng, &TRANSCENDENTAL);
    } else if a == AlphaOp::Dp && !matches!(r, RgbOp::Dp3 | RgbOp::Dp4 | RgbOp::D2a) {
        a = AlphaOp::Mad;
    }
    (r, a)
}

/// A random ALU (`output` false) or OUTPUT slot. An ALU slot may write predicates; an
/// OUTPUT slot writes render targets 0-3. With `result`, an ALU slot sets the ALU result
/// bit (ALU_WMASK) from a random channel and comparison.
pub fn alu(rng: &mut ChaCha8Rng, ctx: Ctx, output: bool, result: bool) -> Inst {
    let (rgb_op, alpha_op) = ops(rng);
    let selects = |rgb: bool| {
        if rgb {
            matches!(rgb_op, RgbOp::Min | RgbOp::Max | RgbOp::Cnd | RgbOp::Cmp)
        } else {
            matches!(
                alpha_op,
                AlphaOp::Min | AlphaOp::Max | AlphaOp::Cnd | AlphaOp::Cmp
            )
        }
    };
    let alu = Alu {
        rgb_src: [src(rng, ctx), src(rng, ctx), src(rng, ctx)],
        rgb_srcp: Presub::from_bits(rng.gen_range(0..4)),
        alpha_src: [src(rng, ctx), src(rng, ctx), src(rng, ctx)],
        alpha_srcp: Presub::from_bits(rng.gen_range(0..4)),
        rgb_op,
        alpha_op,
        rgb_in: std::array::from_fn(|_| RgbInput {
            sel: SrcSel::from_bits(rng.gen_range(0..4)),
            swiz: [swizzle(rng), swizzle(rng), swizzle(rng)],
            modifier: modifier(rng),
        }),
        alpha_in: std::array::from_fn(|_| AlphaInput {
            sel: SrcSel::from_bits(rng.gen_range(0..4)),
            swiz: swizzle(rng),
            modifier: modifier(rng),
        }),
        rgb_omod: omod(rng, selects(true)),
        alpha_omod: omod(rng, selects(false)),
        rgb_target: rng.gen_range(0..4),
        alpha_target: rng.gen_range(0..4),
        rgb_dest: dest(rng, ctx),
        alpha_dest: dest(rng, ctx),
        alu_wmask: result,
        w_omask: false,
    };
    let target_writes = if output { 0.5 } else { 0.25 };
    let cmn = Cmn {
        rgb_pred: pred(rng),
        alpha_pred: pred(rng),
        write_inactive: rng.gen_bool(0.1),
        nop: rng.gen_bool(0.1),
        alu_wait: rng.gen_bool(0.1),
        rgb_wmask: rng.gen_range(0..8),
        alpha_wmask: rng.gen_bool(0.6),
        rgb_omask: if rng.gen_bool(target_writes) {
            rng.gen_range(1..8)
        } else {
            0
        },
        alpha_omask: rng.gen_bool(target_writes),
        rgb_clamp: rng.gen_bool(0.2),
        alpha_clamp: rng.gen_bool(0.2),
        alu_result_sel: if result && rng.gen_bool(0.5) {
            AluResultSel::Alpha
        } else {
            AluResultSel::Red
        },
        alu_result_op: if result {
            CmpOp::from_bits(rng.gen_range(0..4))
        } else {
            CmpOp::Eq
        },
        ..Cmn::default()
    };
    Inst {
        cmn,
        body: if output {
            Body::Output(alu)
        } else {
            Body::Alu(alu)
        },
    }
}

fn tex_swizzles(rng: &mut ChaCha8Rng) -> [TexSwizzle; 4] {
    std::array::from_fn(|_| TexSwizzle::from_bits(rng.gen_range(0..4)))
}

fn tex_reg(rng: &mut ChaCha8Rng, ctx: Ctx) -> TexReg {
    TexReg {
        addr: rng.gen_range(0..TEMPS),
        rel: rel(rng, ctx),
        swiz: tex_swizzles(rng),
    }
}

/// A random TEX slot: a lookup (LD, PROJ, LODBIAS, LOD, DXDY) of input 0-3 at r0's (i, j)
/// or (j, i) with Q = r0.a = 1 (so PROJ divides by 1), UNSCALED; or TEXKILL of a random
/// temporary.
pub fn tex(rng: &mut ChaCha8Rng, ctx: Ctx) -> Inst {
    use TexSwizzle::{A, B, G, R};
    let op = pick(
        rng,
        &[
            TexOp::Ld,
            TexOp::Ld,
            TexOp::Ld,
            TexOp::Texkill,
            TexOp::Proj,
            TexOp::Lodbias,
            TexOp::Lod,
            TexOp::Dxdy,
        ],
    );
    let src = if op == TexOp::Texkill {
        tex_reg(rng, ctx)
    } else {
        TexReg {
            addr: 0,
            rel: false,
            swiz: if rng.gen_bool(0.5) {
                [R, G, B, A]
            } else {
                [G, R, B, A]
            },
        }
    };
    let acquire = rng.gen_bool(0.3);
    Inst {
        cmn: Cmn {
            rgb_pred: pred(rng),
            alpha_pred: pred(rng),
            write_inactive: rng.gen_bool(0.1),
            rgb_wmask: rng.gen_range(0..8),
            alpha_wmask: rng.gen_bool(0.6),
            // TEX_SEM_ACQUIRE requires TEX_SEM_WAIT on the same slot (seed 003 §3.2.1).
            tex_sem_wait: acquire,
            ..Cmn::default()
        },
        body: Body::Tex(Tex {
            id: rng.gen_range(0..INPUTS),
            op,
            sem_acquire: acquire,
            ignore_uncovered: rng.gen_bool(0.3),
            unscaled: true,
            src,
            dst: TexReg {
                addr: rng.gen_range(1..TEMPS),
                rel: rel(rng, ctx),
                swiz: tex_swizzles(rng),
            },
            dx: tex_reg(rng, ctx),
            dy: tex_reg(rng, ctx),
            unused: [0; 6],
        }),
    }
}
