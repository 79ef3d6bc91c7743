//! Instruction slots for tests, built field by field (the decoded form, [`Inst`]): an ALU or
//! OUTPUT slot from [`alu`], a TEX slot from [`tex`], a flow-control slot from [`fc`].

use wavejit_r5xx::inst::{
    AlphaInput, Alu, Body, Cmn, Dest, Fc, Inst, Pred, RgbInput, Src, Tex, TexReg,
};
use wavejit_r5xx::table::{
    AOp, AlphaOp, AluResultSel, BOp, CmpOp, FcOp, Modifier, Omod, PredSel, Presub, RgbOp, SrcSel,
    Swizzle, TexOp, TexSwizzle,
};

pub fn t(n: u8) -> Src {
    Src::Temp {
        index: n,
        rel: false,
    }
}
pub fn t_rel(n: u8) -> Src {
    Src::Temp {
        index: n,
        rel: true,
    }
}
pub fn k(n: u8) -> Src {
    Src::Const {
        index: n,
        rel: false,
    }
}
pub fn k_rel(n: u8) -> Src {
    Src::Const {
        index: n,
        rel: true,
    }
}
pub fn inline(bits: u8) -> Src {
    Src::Inline { bits, rel: false }
}

fn swizzle(ch: char) -> Swizzle {
    match ch {
        'r' => Swizzle::R,
        'g' => Swizzle::G,
        'b' => Swizzle::B,
        'a' => Swizzle::A,
        '0' => Swizzle::Zero,
        'h' => Swizzle::Half,
        '1' => Swizzle::One,
        _ => Swizzle::Unused,
    }
}

pub fn sel(k: usize) -> SrcSel {
    [SrcSel::Src0, SrcSel::Src1, SrcSel::Src2, SrcSel::Srcp][k]
}

/// An ALU or OUTPUT slot under construction.
#[derive(Clone, Debug)]
pub struct AluB {
    pub cmn: Cmn,
    pub a: Alu,
    pub output: bool,
}

/// A slot computing `rgb` and `alpha`: every address the unused inline constant, inputs
/// A, B, C = src0, src1, src2 unswizzled, OMOD ×1, no writes.
pub fn alu(rgb: RgbOp, alpha: AlphaOp) -> AluB {
    let rgb_in = |k| RgbInput {
        sel: sel(k),
        swiz: [Swizzle::R, Swizzle::G, Swizzle::B],
        modifier: Modifier::Nop,
    };
    let alpha_in = |k| AlphaInput {
        sel: sel(k),
        swiz: Swizzle::A,
        modifier: Modifier::Nop,
    };
    AluB {
        cmn: Cmn::default(),
        a: Alu {
            rgb_src: [Src::UNUSED; 3],
            rgb_srcp: Presub::Bias,
            alpha_src: [Src::UNUSED; 3],
            alpha_srcp: Presub::Bias,
            rgb_op: rgb,
            alpha_op: alpha,
            rgb_in: [rgb_in(0), rgb_in(1), rgb_in(2)],
            alpha_in: [alpha_in(0), alpha_in(1), alpha_in(2)],
            rgb_omod: Omod::Mul1,
            alpha_omod: Omod::Mul1,
            rgb_target: 0,
            alpha_target: 0,
            rgb_dest: Dest::default(),
            alpha_dest: Dest::default(),
            alu_wmask: false,
            w_omask: false,
        },
        output: false,
    }
}

impl AluB {
    /// Addresses src0-src2 of both units.
    pub fn srcs(mut self, s: [Src; 3]) -> Self {
        self.a.rgb_src = s;
        self.a.alpha_src = s;
        self
    }
    pub fn rgb_srcs(mut self, s: [Src; 3]) -> Self {
        self.a.rgb_src = s;
        self
    }
    pub fn alpha_srcs(mut self, s: [Src; 3]) -> Self {
        self.a.alpha_src = s;
        self
    }
    /// RGB input `k` (0 A, 1 B, 2 C): select `s` (0-3, 3 = srcp), swizzle of three of
    /// `rgba0h1`, modifier.
    pub fn rgb_in(mut self, k: usize, s: usize, swz: &str, m: Modifier) -> Self {
        let c: Vec<char> = swz.chars().collect();
        self.a.rgb_in[k] = RgbInput {
            sel: sel(s),
            swiz: [swizzle(c[0]), swizzle(c[1]), swizzle(c[2])],
            modifier: m,
        };
        self
    }
    pub fn alpha_in(mut self, k: usize, s: usize, swz: char, m: Modifier) -> Self {
        self.a.alpha_in[k] = AlphaInput {
            sel: sel(s),
            swiz: swizzle(swz),
            modifier: m,
        };
        self
    }
    /// Writes temporary `n`: the RGB channels of `rgb` (bit c) and, with `alpha`, a.
    pub fn dst(mut self, n: u8, rgb: u8, alpha: bool) -> Self {
        self.a.rgb_dest = Dest {
            addr: n,
            rel: false,
        };
        self.a.alpha_dest = Dest {
            addr: n,
            rel: false,
        };
        self.cmn.rgb_wmask = rgb;
        self.cmn.alpha_wmask = alpha;
        self
    }
    pub fn dst_rel(mut self, n: u8, rgb: u8, alpha: bool) -> Self {
        self = self.dst(n, rgb, alpha);
        self.a.rgb_dest.rel = true;
        self.a.alpha_dest.rel = true;
        self
    }
    pub fn omod(mut self, rgb: Omod, alpha: Omod) -> Self {
        self.a.rgb_omod = rgb;
        self.a.alpha_omod = alpha;
        self
    }
    pub fn clamp(mut self, rgb: bool, alpha: bool) -> Self {
        self.cmn.rgb_clamp = rgb;
        self.cmn.alpha_clamp = alpha;
        self
    }
    pub fn presub(mut self, rgb: Presub, alpha: Presub) -> Self {
        self.a.rgb_srcp = rgb;
        self.a.alpha_srcp = alpha;
        self
    }
    /// An OUTPUT slot writing `rgb` channels to target `rt` and, with `alpha`, a to `at`.
    pub fn out(mut self, rt: u8, rgb: u8, at: u8, alpha: bool) -> Self {
        self.output = true;
        self.a.rgb_target = rt;
        self.a.alpha_target = at;
        self.cmn.rgb_omask = rgb;
        self.cmn.alpha_omask = alpha;
        self
    }
    /// Writes alpha to W (an OUTPUT slot).
    pub fn w(mut self) -> Self {
        self.output = true;
        self.a.w_omask = true;
        self
    }
    /// Sets predicate bits: RGB channels `rgb` by `rop`, alpha by `aop`.
    pub fn set_pred(mut self, rop: CmpOp, rgb: u8, aop: CmpOp, alpha: bool) -> Self {
        self.a.rgb_target = rop.bits() as u8;
        self.a.alpha_target = aop.bits() as u8;
        self.cmn.rgb_omask = rgb;
        self.cmn.alpha_omask = alpha;
        self
    }
    pub fn alu_result(mut self, sel: AluResultSel, op: CmpOp) -> Self {
        self.a.alu_wmask = true;
        self.cmn.alu_result_sel = sel;
        self.cmn.alu_result_op = op;
        self
    }
    pub fn pred(mut self, rgb: (PredSel, bool), alpha: (PredSel, bool)) -> Self {
        self.cmn.rgb_pred = Pred {
            sel: rgb.0,
            inv: rgb.1,
        };
        self.cmn.alpha_pred = Pred {
            sel: alpha.0,
            inv: alpha.1,
        };
        self
    }
    pub fn write_inactive(mut self) -> Self {
        self.cmn.write_inactive = true;
        self
    }
    pub fn last(mut self) -> Self {
        self.cmn.last = true;
        self
    }
    pub fn inst(self) -> Inst {
        Inst {
            cmn: self.cmn,
            body: if self.output {
                Body::Output(self.a)
            } else {
                Body::Alu(self.a)
            },
        }
    }
}

/// `r[dst] = src` in the channels `rgb`/`alpha`, bit-exact: MAX(src, src) with OMOD_DISABLED.
pub fn mov(dst: u8, src: Src, rgb: u8, alpha: bool) -> AluB {
    alu(RgbOp::Max, AlphaOp::Max)
        .srcs([src, Src::UNUSED, Src::UNUSED])
        .rgb_in(1, 0, "rgb", Modifier::Nop)
        .alpha_in(1, 0, 'a', Modifier::Nop)
        .omod(Omod::Disable, Omod::Disable)
        .dst(dst, rgb, alpha)
}

fn tex_swizzle(s: &str) -> [TexSwizzle; 4] {
    let c: Vec<char> = s.chars().collect();
    std::array::from_fn(|i| match c[i] {
        'r' => TexSwizzle::R,
        'g' => TexSwizzle::G,
        'b' => TexSwizzle::B,
        _ => TexSwizzle::A,
    })
}

pub fn treg(addr: u8, swz: &str) -> TexReg {
    TexReg {
        addr,
        rel: false,
        swiz: tex_swizzle(swz),
    }
}

/// A TEX slot: `op` on input `id`, coordinates from temporary `src` (S, T, R, Q swizzles
/// `sswz`), result to `dst` (R, G, B, A swizzles `dswz`), all four channels written.
pub fn tex(op: TexOp, id: u8, src: u8, sswz: &str, dst: u8, dswz: &str) -> TexB {
    let cmn = Cmn {
        rgb_wmask: 7,
        alpha_wmask: true,
        ..Cmn::default()
    };
    TexB {
        cmn,
        t: Tex {
            id,
            op,
            sem_acquire: false,
            ignore_uncovered: false,
            unscaled: true,
            src: treg(src, sswz),
            dst: treg(dst, dswz),
            dx: treg(0, "rgba"),
            dy: treg(0, "rgba"),
            unused: [0; 6],
        },
    }
}

#[derive(Clone, Debug)]
pub struct TexB {
    pub cmn: Cmn,
    pub t: Tex,
}

impl TexB {
    pub fn scaled(mut self) -> Self {
        self.t.unscaled = false;
        self
    }
    pub fn wmask(mut self, rgb: u8, alpha: bool) -> Self {
        self.cmn.rgb_wmask = rgb;
        self.cmn.alpha_wmask = alpha;
        self
    }
    pub fn ignore_uncovered(mut self) -> Self {
        self.t.ignore_uncovered = true;
        self
    }
    pub fn pred(mut self, rgb: (PredSel, bool), alpha: (PredSel, bool)) -> Self {
        self.cmn.rgb_pred = Pred {
            sel: rgb.0,
            inv: rgb.1,
        };
        self.cmn.alpha_pred = Pred {
            sel: alpha.0,
            inv: alpha.1,
        };
        self
    }
    pub fn write_inactive(mut self) -> Self {
        self.cmn.write_inactive = true;
        self
    }
    pub fn rel(mut self, src: bool, dst: bool) -> Self {
        self.t.src.rel = src;
        self.t.dst.rel = dst;
        self
    }
    pub fn inst(self) -> Inst {
        Inst {
            cmn: self.cmn,
            body: Body::Tex(self.t),
        }
    }
}

/// A flow-control slot: `op`, JUMP_FUNC, JUMP_ANY, JUMP_ADDR (no stack operations).
pub fn fc(op: FcOp, jump_func: u8, jump_any: bool, jump_addr: u16) -> FcB {
    FcB {
        cmn: Cmn::default(),
        f: Fc {
            op,
            b_else: false,
            jump_any,
            a_op: AOp::None,
            jump_func,
            b_pop_cnt: 0,
            b_op0: BOp::None,
            b_op1: BOp::None,
            ignore_uncovered: false,
            bool_addr: 0,
            int_addr: 0,
            jump_addr,
            jump_global: true,
            unused: [0; 6],
        },
    }
}

#[derive(Clone, Debug)]
pub struct FcB {
    pub cmn: Cmn,
    pub f: Fc,
}

impl FcB {
    /// A_OP, B_OP0 (stay), B_OP1 (jump), B_POP_CNT, B_ELSE: a row of seed 003 §3.5.4.
    pub fn stacks(mut self, a: AOp, b0: BOp, b1: BOp, pop: u8, b_else: bool) -> Self {
        self.f.a_op = a;
        self.f.b_op0 = b0;
        self.f.b_op1 = b1;
        self.f.b_pop_cnt = pop;
        self.f.b_else = b_else;
        self
    }
    pub fn boolean(mut self, n: u8) -> Self {
        self.f.bool_addr = n;
        self
    }
    pub fn int(mut self, n: u8) -> Self {
        self.f.int_addr = n;
        self
    }
    /// The predicate: a replicate select, maybe inverted.
    pub fn pred(mut self, s: PredSel, inv: bool) -> Self {
        self.cmn.rgb_pred = Pred { sel: s, inv };
        self
    }
    pub fn ignore_uncovered(mut self) -> Self {
        self.f.ignore_uncovered = true;
        self
    }
    pub fn inst(self) -> Inst {
        Inst {
            cmn: self.cmn,
            body: Body::Fc(self.f),
        }
    }
}

/// Inline-constant bits of small values: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0.
pub fn inline_of(v: f32) -> u8 {
    (0u8..128)
        .find(|&b| wavejit_r5xx::inst::inline_value(b) == v)
        .expect("an inline constant")
}

/// `r[n].xyzw = v` (an inline constant), all lanes flow control leaves active.
pub fn set(n: u8, v: f32) -> AluB {
    mov(n, inline(inline_of(v)), 7, true)
}

/// `r[n] = r[n] + v` (MAD r[n] * 1 + inline v).
pub fn add(n: u8, v: f32) -> AluB {
    alu(RgbOp::Mad, AlphaOp::Mad)
        .srcs([t(n), inline(inline_of(v)), Src::UNUSED])
        .rgb_in(1, 0, "111", Modifier::Nop)
        .alpha_in(1, 0, '1', Modifier::Nop)
        .rgb_in(2, 1, "rrr", Modifier::Nop)
        .alpha_in(2, 1, 'a', Modifier::Nop)
        .dst(n, 7, true)
}

/// Sets the ALU result from `r[a].x - r[b].x` under `op` (writes no register).
pub fn test_sub(a: u8, b: u8, op: CmpOp) -> AluB {
    alu(RgbOp::Mad, AlphaOp::Mad)
        .srcs([t(a), t(b), Src::UNUSED])
        .rgb_in(1, 0, "111", Modifier::Nop)
        .rgb_in(2, 1, "rrr", Modifier::Neg)
        .alu_result(AluResultSel::Red, op)
}
