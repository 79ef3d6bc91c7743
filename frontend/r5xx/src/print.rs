//! The assembler syntax, and the printer. One slot per line; [`crate::parse`] reads every
//! line this prints back to the same six words, for every slot (reserved values and unused
//! bits included).
//!
//! ```text
//! # a comment runs from '#' to the end of the line; blank lines are skipped
//! top:                                   # a label: the slot index of the next slot
//! alu  r1.rgb = mad src0.rgb, src1.rrr, src2.rrr ; r1.a = rcp src0.a {src0 = r2, src1 = c0, src2 = 0.5}
//! alu  (p.rrrr) r2.rg, p.b(ne) = mad.x2.sat -src0.rgb, |srcp.bgr|, src0.000 {src0.rgb = r2, src0.a = c3+aL, srcp = sub} [nop]
//! out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a, w = max.disable src0.a, src0.a {src0 = r1} [sem_wait, last]
//! tex  r0.rgba = ld t0, r0.rgrr [unscaled, acquire]
//! tex  _ = texkill t0, r3.rgba
//! fc   jump top [func=0x0f, b_op0=incr, b_op1=incr, ignore_uncovered, alu_wait]
//! ```
//!
//! **ALU and OUTPUT** (`alu`, `out`): the RGB half, then ` ; ` and the alpha half, then the
//! sources in braces, then the flags in brackets. A half is
//! `[(pred)] dests = op[.sat][.omod] inputs`:
//! - `(p.rrrr)` / `(!p.rrrr)`: PRED_SEL (`none rgba rrrr gggg bbbb aaaa sel6 sel7`) and
//!   PRED_INV of the unit.
//! - dests, comma-separated, or `_` for none: `r5.rg` (ADDRD 5, the unit's WMASK; `r5+aL.rg`
//!   with ADDRD_REL; `r5._` an address without writes); in an `out` slot `o2.rgb` (TARGET 2
//!   and the unit's OMASK); in an `alu` slot `p.rgb(ne)` (the predicate bits the unit's OMASK
//!   writes and the predicate op in TARGET: `eq lt ge ne`); `w` in the alpha half (W_OMASK).
//!   RGB masks are letters of `rgb` in order, the alpha mask is `a`; `_` is the empty mask.
//! - op: the RGB or alpha op (`mad dp3 dp4 d2a min max cnd cmp frc sop mdh mdv`; alpha
//!   `mad dp min max cnd cmp frc ex2 ln2 rcp rsq sin cos mdh mdv`; reserved values
//!   `op6 op13 op14 op15` / `op4`); `.sat` is the unit's CLAMP; `.x2 .x4 .x8 .d2 .d4 .d8
//!   .disable` its OMOD (`.x1` is the default).
//! - inputs A, B, C, comma-separated: `src0`-`src2` or `srcp` with a swizzle (three letters
//!   of `r g b a 0 h 1 _` for RGB, one for alpha; `h` is 0.5, `_` the unused code 7; the
//!   assembler also takes one letter for an RGB input and replicates it), and
//!   the modifier written around it: `-x` NEG, `|x|` ABS, `-|x|` NAB. The printer writes as
//!   many inputs as the op reads, and more when a later one is not all-zero bits.
//! - sources `{...}`: `srcK = X` sets source K of both units, `srcK.rgb = X` / `srcK.a = X`
//!   one unit; X is a temporary `r0`-`r127`, a constant `c0`-`c255`, an inline constant
//!   written as its value (`0.5`, `480`, `0.0078125`; or raw `lit(0x38)`), or `_` for the
//!   inline pattern 0 (2^-10), which Mesa uses for unused sources; `+aL` adds the loop
//!   register. `srcp = sub` (or `srcp.rgb = ..`, `srcp.a = ..`) sets SRCP_OP
//!   (`bias sub add inv`).
//! - registers as inputs (assembler only; the printer always writes the explicit form): an
//!   input may name a source address instead of a select, with or without a swizzle:
//!   `mad r2.rgb, c0.rrr, 0.5 ; rcp r3.a`, `-|r6+aL.g01|`, `1.0.rrr`. Without a swizzle an
//!   RGB input reads `.rgb` and an alpha input `.a`. The assembler puts each in a source
//!   slot: the letters r, g, b read the RGB source and a the alpha source of the slot, so a
//!   register takes the first slot K that already holds it in every unit it reads, else the
//!   first where each of those units holds it or is free (Mesa's unused pattern, not given in
//!   braces); inputs are placed in the order RGB A, B, C, alpha A, B, C, after the braces.
//!   `alu r1.rgb = mad r2.rgb, c0.rrr, 0.5 ; r1.a = rcp r3.a` is
//!   `alu r1.rgb = mad src0.rgb, src1.rrr, src2.rgb ; r1.a = rcp src0.a {src0.rgb = r2,
//!   src0.a = r3, src1.rgb = c0, src2.rgb = 0.5}`.
//!
//! **TEX** (`tex`): `dst = op tID[.swz], src[, dx, dy]`: dst `r1.rgba` (DST_ADDR and the
//! RGB and alpha WMASKs as letters of `rgba`) or `_`; op `nop ld texkill proj lodbias lod
//! dxdy op7`; `tID` the TEX_ID with the result swizzle (`t3.bgra`: fetched b, g, r, a go to R,
//! G, B, A; omitted when `rgba`); src `r0.rgrr` (SRC_ADDR and its S/T/R/Q swizzles); dx, dy
//! (TEX_ADDR_DXDY), written for `dxdy` and whenever not zero.
//!
//! **FC** (`fc`): `op target`: op `jump loop endloop rep endrep breakloop breakrep continue`,
//! target the JUMP_ADDR as a slot number or a label.
//!
//! **Flags** `[...]`, comma-separated: every field the slot's own syntax does not write, named
//! by [`crate::table::flags::FLAGS`]: `name` for a one-bit field, `name=value` otherwise
//! (numbers decimal or `0x` hex, enumerations by spelling): e.g. `sem_wait`, `alu_wait`,
//! `nop`, `last`, `write_inactive`, `alu_result` (ALU_WMASK), `result_sel=a`,
//! `result_op=ne`, `stat_we=0x3`; TEX `acquire`, `unscaled`, `ignore_uncovered`,
//! `rgb_pred=rrrr`; FC `func=0x0f` (JUMP_FUNC), `any`, `else`, `a_op=push`, `b_op0=incr`,
//! `b_op1=decr`, `pop_cnt=1`, `bool=3`, `int=0`, `global`, `ignore_uncovered`; and
//! `unused1`-`unused5`, the bits of a TEX or FC word no field covers.
//!
//! **Defaults** the assembler fills in for what a line leaves out: every field zero, except
//! that sources not given are the inline pattern 0 (`_`, Mesa's encoding of an unused
//! source: `1 << 7`), and a TEX result swizzle not given is `rgba`. So an omitted alpha half
//! is `_ = mad src0.r, src0.r, src0.r` with no writes (the printer omits exactly that half),
//! omitted inputs are `src0.rrr` / `src0.r` without modifier, and omitted flags are 0.

use crate::encode::encode;
use crate::inst::{
    inline_value, AlphaInput, Alu, Body, Dest, Fc, Inst, Pred, RgbInput, Src, Tex, TexReg,
};
use crate::table::flags::{flags_of, FlagKind};
use crate::table::{InstType, Modifier, Presub, SrcSel, Swizzle, TexSwizzle, PRED_OPS};

/// The identity result swizzle of a TEX slot (what an omitted one means).
pub const TEX_IDENTITY: [TexSwizzle; 4] =
    [TexSwizzle::R, TexSwizzle::G, TexSwizzle::B, TexSwizzle::A];

/// One slot as a line (no newline).
pub fn print_inst(inst: &Inst) -> String {
    let ty = inst.kind();
    let mut s = format!("{:<4} ", ty.asm());
    match &inst.body {
        Body::Alu(a) | Body::Output(a) => alu(&mut s, inst, a),
        Body::Tex(t) => tex(&mut s, inst, t),
        Body::Fc(c) => fc(&mut s, c),
    }
    let words = encode(inst);
    let items: Vec<String> = flags_of(ty)
        .filter_map(|fl| {
            let v = fl.get(ty, &words);
            (v != 0).then(|| match fl.kind {
                FlagKind::Bool => fl.asm.to_string(),
                FlagKind::Num => format!("{}={v}", fl.asm),
                FlagKind::Hex | FlagKind::Unused => format!("{}={v:#x}", fl.asm),
                FlagKind::Enum(name, _) => format!("{}={}", fl.asm, name(v)),
            })
        })
        .collect();
    if !items.is_empty() {
        s.push_str(&format!(" [{}]", items.join(", ")));
    }
    s
}

/// A program, one slot per line.
pub fn print_program(insts: &[Inst]) -> String {
    insts.iter().map(|i| print_inst(i) + "\n").collect()
}

/// A write mask as letters of `letters` (bit k = letter k), `_` when empty.
pub fn mask(bits: u8, letters: &str) -> String {
    let s: String = letters
        .chars()
        .enumerate()
        .filter(|(k, _)| bits >> k & 1 != 0)
        .map(|(_, c)| c)
        .collect();
    if s.is_empty() {
        "_".into()
    } else {
        s
    }
}

/// A temporary register: `r5`, `r5+aL`.
fn reg(addr: u8, rel: bool) -> String {
    format!("r{addr}{}", if rel { "+aL" } else { "" })
}

/// A source address: `r5`, `c200`, `0.5`, `_` (inline pattern 0), each with `+aL` if REL.
pub fn src(s: Src) -> String {
    let (base, rel) = match s {
        Src::Temp { index, rel } => (format!("r{index}"), rel),
        Src::Const { index, rel } => (format!("c{index}"), rel),
        Src::Inline { bits: 0, rel } => ("_".into(), rel),
        Src::Inline { bits, rel } => (format!("{}", inline_value(bits)), rel),
    };
    format!("{base}{}", if rel { "+aL" } else { "" })
}

fn modified(m: Modifier, x: String) -> String {
    match m {
        Modifier::Nop => x,
        Modifier::Neg => format!("-{x}"),
        Modifier::Abs => format!("|{x}|"),
        Modifier::Nab => format!("-|{x}|"),
    }
}

fn rgb_input(i: &RgbInput) -> String {
    let swz: String = i.swiz.iter().map(|s| s.asm()).collect();
    modified(i.modifier, format!("{}.{swz}", i.sel.asm()))
}

fn alpha_input(i: &AlphaInput) -> String {
    modified(i.modifier, format!("{}.{}", i.sel.asm(), i.swiz.asm()))
}

const ZERO_RGB: RgbInput = RgbInput {
    sel: SrcSel::Src0,
    swiz: [Swizzle::R; 3],
    modifier: Modifier::Nop,
};
const ZERO_ALPHA: AlphaInput = AlphaInput {
    sel: SrcSel::Src0,
    swiz: Swizzle::R,
    modifier: Modifier::Nop,
};

/// How many inputs to print: those the op reads, and up to the last that is not zero bits.
fn shown<T: PartialEq>(inputs: &[T; 3], zero: &T, reads: usize) -> usize {
    let last = inputs.iter().rposition(|i| i != zero).map_or(0, |k| k + 1);
    reads.max(last)
}

fn pred(p: Pred) -> String {
    if p == Pred::default() {
        String::new()
    } else {
        format!("({}p.{}) ", if p.inv { "!" } else { "" }, p.sel.asm())
    }
}

/// What one ALU half writes and computes, gathered from the common and ALU words.
struct Half {
    out: bool,
    pred: Pred,
    dest: Dest,
    wmask: u8,
    omask: u8,
    target: u8,
    /// The mask letters: `rgb` or `a`.
    letters: &'static str,
    w: bool,
    op: &'static str,
    clamp: bool,
    omod: crate::table::Omod,
    inputs: Vec<String>,
}

impl Half {
    /// `(pred) dests = op.suffixes inputs`.
    fn text(&self) -> String {
        let mut dests = Vec::new();
        if self.wmask != 0 || self.dest != Dest::default() {
            let r = reg(self.dest.addr, self.dest.rel);
            dests.push(format!("{r}.{}", mask(self.wmask, self.letters)));
        }
        if self.omask != 0 || self.target != 0 {
            let m = mask(self.omask, self.letters);
            dests.push(if self.out {
                format!("o{}.{m}", self.target)
            } else {
                format!("p.{m}({})", PRED_OPS[self.target as usize & 3].asm)
            });
        }
        if self.w {
            dests.push("w".into());
        }
        let dests = if dests.is_empty() {
            "_".into()
        } else {
            dests.join(", ")
        };
        let mut op = self.op.to_string();
        if self.clamp {
            op.push_str(".sat");
        }
        if self.omod.bits() != 0 {
            op.push('.');
            op.push_str(self.omod.asm());
        }
        let mut s = format!("{}{dests} = {op}", pred(self.pred));
        if !self.inputs.is_empty() {
            s.push(' ');
            s.push_str(&self.inputs.join(", "));
        }
        s
    }

    /// Whether the half is all zero bits but for Mesa's unused sources (what the printer
    /// omits for the alpha half).
    fn is_blank(&self) -> bool {
        self.pred == Pred::default()
            && self.dest == Dest::default()
            && self.wmask == 0
            && self.omask == 0
            && self.target == 0
            && !self.w
            && self.op == "mad"
            && !self.clamp
            && self.omod.bits() == 0
            && self.inputs.is_empty()
    }
}

fn alu(s: &mut String, inst: &Inst, a: &Alu) {
    let c = &inst.cmn;
    let out = inst.kind() == InstType::Output;
    let n = shown(&a.rgb_in, &ZERO_RGB, a.rgb_op.inputs());
    let rgb = Half {
        out,
        pred: c.rgb_pred,
        dest: a.rgb_dest,
        wmask: c.rgb_wmask,
        omask: c.rgb_omask,
        target: a.rgb_target,
        letters: "rgb",
        w: false,
        op: a.rgb_op.asm(),
        clamp: c.rgb_clamp,
        omod: a.rgb_omod,
        inputs: a.rgb_in[..n].iter().map(rgb_input).collect(),
    };
    s.push_str(&rgb.text());
    // First the inputs that are not zero bits (none in a blank half); a half that is printed
    // shows as many as its op reads.
    let n = shown(&a.alpha_in, &ZERO_ALPHA, 0);
    let mut alpha = Half {
        out,
        pred: c.alpha_pred,
        dest: a.alpha_dest,
        wmask: u8::from(c.alpha_wmask),
        omask: u8::from(c.alpha_omask),
        target: a.alpha_target,
        letters: "a",
        w: a.w_omask,
        op: a.alpha_op.asm(),
        clamp: c.alpha_clamp,
        omod: a.alpha_omod,
        inputs: a.alpha_in[..n].iter().map(alpha_input).collect(),
    };
    if !alpha.is_blank() {
        let n = shown(&a.alpha_in, &ZERO_ALPHA, a.alpha_op.inputs());
        alpha.inputs = a.alpha_in[..n].iter().map(alpha_input).collect();
        s.push_str(" ; ");
        s.push_str(&alpha.text());
    }
    let mut items = Vec::new();
    for k in 0..3 {
        let (r, al) = (a.rgb_src[k], a.alpha_src[k]);
        if r == al {
            if r != Src::UNUSED {
                items.push(format!("src{k} = {}", src(r)));
            }
        } else {
            if r != Src::UNUSED {
                items.push(format!("src{k}.rgb = {}", src(r)));
            }
            if al != Src::UNUSED {
                items.push(format!("src{k}.a = {}", src(al)));
            }
        }
    }
    let uses_srcp = a.rgb_in.iter().any(|i| i.sel == SrcSel::Srcp)
        || a.alpha_in.iter().any(|i| i.sel == SrcSel::Srcp);
    let (rp, ap) = (a.rgb_srcp, a.alpha_srcp);
    if rp == ap {
        if rp != Presub::Bias || uses_srcp {
            items.push(format!("srcp = {}", rp.asm()));
        }
    } else {
        items.push(format!("srcp.rgb = {}", rp.asm()));
        items.push(format!("srcp.a = {}", ap.asm()));
    }
    if !items.is_empty() {
        s.push_str(&format!(" {{{}}}", items.join(", ")));
    }
}

fn tex_reg(r: &TexReg) -> String {
    let swz: String = r.swiz.iter().map(|s| s.asm()).collect();
    format!("{}.{swz}", reg(r.addr, r.rel))
}

fn tex(s: &mut String, inst: &Inst, t: &Tex) {
    let c = &inst.cmn;
    let wmask = c.rgb_wmask | u8::from(c.alpha_wmask) << 3;
    if wmask != 0 || t.dst.addr != 0 || t.dst.rel {
        s.push_str(&format!(
            "{}.{}",
            reg(t.dst.addr, t.dst.rel),
            mask(wmask, "rgba")
        ));
    } else {
        s.push('_');
    }
    s.push_str(&format!(" = {} t{}", t.op.asm(), t.id));
    if t.dst.swiz != TEX_IDENTITY {
        let swz: String = t.dst.swiz.iter().map(|s| s.asm()).collect();
        s.push_str(&format!(".{swz}"));
    }
    s.push_str(&format!(", {}", tex_reg(&t.src)));
    let zero = TexReg {
        addr: 0,
        rel: false,
        swiz: [TexSwizzle::R; 4],
    };
    if t.op == crate::table::TexOp::Dxdy || t.dx != zero || t.dy != zero {
        s.push_str(&format!(", {}, {}", tex_reg(&t.dx), tex_reg(&t.dy)));
    }
}

fn fc(s: &mut String, c: &Fc) {
    s.push_str(&format!("{} {}", c.op.asm(), c.jump_addr));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_spell_letters_in_order() {
        assert_eq!(mask(0b101, "rgb"), "rb");
        assert_eq!(mask(0, "a"), "_");
        assert_eq!(mask(0xf, "rgba"), "rgba");
    }

    #[test]
    fn sources_spell_their_kind() {
        assert_eq!(
            src(Src::Temp {
                index: 3,
                rel: true
            }),
            "r3+aL"
        );
        assert_eq!(
            src(Src::Const {
                index: 255,
                rel: false
            }),
            "c255"
        );
        assert_eq!(
            src(Src::Inline {
                bits: 0x38,
                rel: false
            }),
            "1"
        );
        assert_eq!(
            src(Src::Inline {
                bits: 0x30,
                rel: false
            }),
            "0.5"
        );
        assert_eq!(src(Src::UNUSED), "_");
    }
}
