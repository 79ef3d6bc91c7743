//! Operand codes: the 8/9-bit source and destination codes shared by SOP, SMEM and VALU
//! encodings (CLRX doc/GcnOperands.md; LLVM AMDGPU SIRegisterInfo/AMDGPUDisassembler), and
//! their LLVM text.
use crate::inst::{Gen, InlineFloat, Operand};
use crate::tables::Ty;

/// Decodes an 8/9-bit scalar/constant operand code (0-255). VGPR codes (256-511) are handled
/// by the caller. Returns `None` for codes that name nothing on `gen` (and for 255, the literal
/// marker, which the caller resolves).
pub fn scalar(gen: Gen, code: u16) -> Option<Operand> {
    let g9 = gen == Gen::Gfx9;
    let g8 = gen >= Gen::Gfx8;
    Some(match code {
        0..=101 => Operand::Sgpr(code as u8),
        102 | 103 if !g8 => Operand::Sgpr(code as u8),
        102 => Operand::FlatScratchLo,
        103 => Operand::FlatScratchHi,
        104 if gen == Gen::Gfx7 => Operand::FlatScratchLo,
        105 if gen == Gen::Gfx7 => Operand::FlatScratchHi,
        104 if g8 => Operand::XnackMaskLo,
        105 if g8 => Operand::XnackMaskHi,
        106 => Operand::VccLo,
        107 => Operand::VccHi,
        108..=123 if g9 => Operand::Ttmp((code - 108) as u8),
        108 => Operand::TbaLo,
        109 => Operand::TbaHi,
        110 => Operand::TmaLo,
        111 => Operand::TmaHi,
        112..=123 => Operand::Ttmp((code - 112) as u8),
        124 => Operand::M0,
        126 => Operand::ExecLo,
        127 => Operand::ExecHi,
        128..=192 => Operand::InlineInt((code - 128) as i8),
        193..=208 => Operand::InlineInt((192 - code as i16) as i8),
        235 if g9 => Operand::SrcSharedBase,
        236 if g9 => Operand::SrcSharedLimit,
        237 if g9 => Operand::SrcPrivateBase,
        238 if g9 => Operand::SrcPrivateLimit,
        239 if g9 => Operand::SrcPopsExitingWaveId,
        240 => Operand::InlineFloat(InlineFloat::Half),
        241 => Operand::InlineFloat(InlineFloat::MinusHalf),
        242 => Operand::InlineFloat(InlineFloat::One),
        243 => Operand::InlineFloat(InlineFloat::MinusOne),
        244 => Operand::InlineFloat(InlineFloat::Two),
        245 => Operand::InlineFloat(InlineFloat::MinusTwo),
        246 => Operand::InlineFloat(InlineFloat::Four),
        247 => Operand::InlineFloat(InlineFloat::MinusFour),
        248 if g8 => Operand::InlineFloat(InlineFloat::InvTwoPi),
        251 => Operand::Vccz,
        252 => Operand::Execz,
        253 => Operand::Scc,
        254 => Operand::LdsDirect,
        _ => return None,
    })
}

/// The operand code of a non-VGPR operand (inverse of [`scalar`]); literals give 255.
pub fn scalar_code(gen: Gen, op: Operand) -> Option<u16> {
    let g9 = gen == Gen::Gfx9;
    let g8 = gen >= Gen::Gfx8;
    Some(match op {
        Operand::Sgpr(n) if (n as u16) < if g8 { 102 } else { 104 } => n as u16,
        Operand::FlatScratchLo if g8 => 102,
        Operand::FlatScratchHi if g8 => 103,
        Operand::FlatScratchLo if gen == Gen::Gfx7 => 104,
        Operand::FlatScratchHi if gen == Gen::Gfx7 => 105,
        Operand::XnackMaskLo if g8 => 104,
        Operand::XnackMaskHi if g8 => 105,
        Operand::VccLo => 106,
        Operand::VccHi => 107,
        Operand::Ttmp(n) if g9 && n < 16 => 108 + n as u16,
        Operand::Ttmp(n) if !g9 && n < 12 => 112 + n as u16,
        Operand::TbaLo if !g9 => 108,
        Operand::TbaHi if !g9 => 109,
        Operand::TmaLo if !g9 => 110,
        Operand::TmaHi if !g9 => 111,
        Operand::M0 => 124,
        Operand::ExecLo => 126,
        Operand::ExecHi => 127,
        Operand::InlineInt(v) if (0..=64).contains(&v) => 128 + v as u16,
        Operand::InlineInt(v) if (-16..0).contains(&v) => (192 - v as i16) as u16,
        Operand::SrcSharedBase if g9 => 235,
        Operand::SrcSharedLimit if g9 => 236,
        Operand::SrcPrivateBase if g9 => 237,
        Operand::SrcPrivateLimit if g9 => 238,
        Operand::SrcPopsExitingWaveId if g9 => 239,
        Operand::InlineFloat(InlineFloat::InvTwoPi) if !g8 => return None,
        Operand::InlineFloat(f) => f.code(),
        Operand::Vccz => 251,
        Operand::Execz => 252,
        Operand::Scc => 253,
        Operand::LdsDirect => 254,
        Operand::Literal(_) => 255,
        _ => return None,
    })
}

/// LLVM text of a register operand of `dwords` registers starting at `op`.
pub fn reg_text(op: Operand, dwords: u8) -> String {
    let range = |p: &str, n: u8| {
        if dwords <= 1 {
            format!("{p}{n}")
        } else {
            format!("{p}[{}:{}]", n, n as u16 + dwords as u16 - 1)
        }
    };
    let pair = |lo: &str, base: &str| {
        if dwords >= 2 {
            base.to_string()
        } else {
            lo.to_string()
        }
    };
    match op {
        Operand::Sgpr(n) => range("s", n),
        Operand::Vgpr(n) => range("v", n),
        Operand::Ttmp(n) => range("ttmp", n),
        Operand::VccLo => pair("vcc_lo", "vcc"),
        Operand::VccHi => "vcc_hi".into(),
        Operand::ExecLo => pair("exec_lo", "exec"),
        Operand::ExecHi => "exec_hi".into(),
        Operand::FlatScratchLo => pair("flat_scratch_lo", "flat_scratch"),
        Operand::FlatScratchHi => "flat_scratch_hi".into(),
        Operand::XnackMaskLo => pair("xnack_mask_lo", "xnack_mask"),
        Operand::XnackMaskHi => "xnack_mask_hi".into(),
        Operand::TbaLo => pair("tba_lo", "tba"),
        Operand::TbaHi => "tba_hi".into(),
        Operand::TmaLo => pair("tma_lo", "tma"),
        Operand::TmaHi => "tma_hi".into(),
        Operand::M0 => "m0".into(),
        // LLVM 14 prints the derived sources with their `src_` names on every generation.
        Operand::Scc => "src_scc".into(),
        Operand::Vccz => "src_vccz".into(),
        Operand::Execz => "src_execz".into(),
        Operand::LdsDirect => "src_lds_direct".into(),
        Operand::SrcSharedBase => "src_shared_base".into(),
        Operand::SrcSharedLimit => "src_shared_limit".into(),
        Operand::SrcPrivateBase => "src_private_base".into(),
        Operand::SrcPrivateLimit => "src_private_limit".into(),
        Operand::SrcPopsExitingWaveId => "src_pops_exiting_wave_id".into(),
        Operand::InlineInt(v) => v.to_string(),
        Operand::InlineFloat(f) => float_text(f, 1, Ty::F32),
        Operand::Literal(v) | Operand::Imm(v) => format!("0x{v:x}"),
        Operand::Off => "off".into(),
    }
}

/// How LLVM 14 prints a source value: by the width and class of the operand it sits in
/// (AMDGPUInstPrinter `printImmediate{Int16,16,32,64}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int16,
    Fp16,
    Bits32,
    Bits64,
}

fn kind(dwords: u8, ty: Ty) -> Kind {
    match ty {
        _ if dwords >= 2 => Kind::Bits64,
        Ty::F16 => Kind::Fp16,
        Ty::I16 | Ty::U16 | Ty::B16 => Kind::Int16,
        _ => Kind::Bits32,
    }
}

/// The f16 bit pattern of an inline float constant.
fn f16_bits(f: InlineFloat) -> u16 {
    match f {
        InlineFloat::Half => 0x3800,
        InlineFloat::MinusHalf => 0xb800,
        InlineFloat::One => 0x3c00,
        InlineFloat::MinusOne => 0xbc00,
        InlineFloat::Two => 0x4000,
        InlineFloat::MinusTwo => 0xc000,
        InlineFloat::Four => 0x4400,
        InlineFloat::MinusFour => 0xc400,
        InlineFloat::InvTwoPi => 0x3118,
    }
}

/// The f32 bit pattern of an inline float constant.
fn f32_bits(f: InlineFloat) -> u32 {
    match f {
        InlineFloat::InvTwoPi => 0x3e22_f983,
        _ => (f.value() as f32).to_bits(),
    }
}

/// LLVM's spelling of an inline float constant in an operand of `dwords` registers and type
/// `ty`. A 16-bit integer operand shows the f16 bit pattern in hex (`0x3c00`), as LLVM does.
pub fn float_text(f: InlineFloat, dwords: u8, ty: Ty) -> String {
    match (kind(dwords, ty), f) {
        (Kind::Int16, _) => format!("0x{:x}", f16_bits(f)),
        (Kind::Bits64, InlineFloat::InvTwoPi) => "0.15915494309189532".into(),
        (_, InlineFloat::InvTwoPi) => "0.15915494".into(),
        _ => format!("{:.1}", f.value()),
    }
}

/// LLVM's spelling of a 32-bit literal in an operand of `dwords` registers and type `ty`.
///
/// LLVM prints the value, not the encoding: a literal that equals an inline constant prints
/// like that constant (`s_mov_b32 s0, 0` for a relocated zero literal). A 16-bit operand shows
/// only the low half; a 64-bit operand shows the zero-extended dword. 1/(2*pi) is a named value
/// only from gfx8 on.
fn literal_text(v: u32, dwords: u8, ty: Ty, gen: Gen) -> String {
    let inv2pi = gen >= Gen::Gfx8;
    let named = |bits: &dyn Fn(InlineFloat) -> u32| {
        InlineFloat::ALL
            .iter()
            .filter(|f| inv2pi || **f != InlineFloat::InvTwoPi)
            .find(|f| bits(**f) == v)
            .map(|f| float_text(*f, dwords, ty))
    };
    let inline_int = |x: i64| (-16..=64).contains(&x);
    match kind(dwords, ty) {
        Kind::Int16 | Kind::Fp16 if inline_int(v as u16 as i16 as i64) => {
            (v as u16 as i16).to_string()
        }
        Kind::Int16 => format!("0x{:x}", v & 0xffff),
        Kind::Fp16 => named(&|f| f16_bits(f) as u32).unwrap_or(format!("0x{:x}", v & 0xffff)),
        Kind::Bits32 if inline_int(v as i32 as i64) => (v as i32).to_string(),
        Kind::Bits32 => named(&f32_bits).unwrap_or(format!("0x{v:x}")),
        Kind::Bits64 if v <= 64 => v.to_string(),
        Kind::Bits64 => format!("0x{v:x}"),
    }
}

/// The operand that a constant written in assembly denotes in an operand of `dwords` registers
/// and type `ty` (the inverse of [`text`]); `literal_ok` tells whether the encoding has a
/// literal slot (VOP3, VOP3P, SDWA and DPP have none on gfx6-gfx9).
///
/// As llvm-mc 14 encodes it (AMDGPUAsmParser `isInlinableLiteral*`): a 32-bit operand of any
/// type takes a value whose bits are an inline integer or an inline float's f32 pattern inline
/// (`0xffffffff` is -1, `0x3f800000` is 1.0); a 16-bit operand looks at the low half, and only
/// a float one also takes the f16 patterns (`0xc400` is -4.0); a 64-bit operand takes only
/// the integers inline (`0x3ff00000` stays a 32-bit literal). On a 16-bit integer operand llvm-mc
/// makes `0xc400` (and `-4.0`) a literal, yet LLVM prints the inline constant -4.0 exactly
/// that way; where the encoding has no literal slot the text can only mean the inline
/// constant, so it is read as such (llvm-mc rejects it there: a deliberate extension that
/// lets LLVM's own output of such forms reassemble).
pub fn constant(op: Operand, dwords: u8, ty: Ty, gen: Gen, literal_ok: bool) -> Operand {
    let inv2pi = gen >= Gen::Gfx8;
    let float = |bits: &dyn Fn(InlineFloat) -> u32, v: u32| {
        InlineFloat::ALL
            .iter()
            .find(|f| (inv2pi || **f != InlineFloat::InvTwoPi) && bits(**f) == v)
            .map(|f| Operand::InlineFloat(*f))
    };
    let inline_int = |x: i32| {
        (-16..=64)
            .contains(&x)
            .then_some(Operand::InlineInt(x as i8))
    };
    match (kind(dwords, ty), op) {
        (Kind::Bits32, Operand::Literal(v)) => inline_int(v as i32)
            .or_else(|| float(&f32_bits, v))
            .unwrap_or(op),
        (Kind::Fp16 | Kind::Int16, Operand::Literal(v)) => {
            let lo = v as u16;
            let f16_inline = kind(dwords, ty) == Kind::Fp16 || !literal_ok;
            let half_float = float(&f16_bits_u32, lo as u32).filter(|_| f16_inline);
            inline_int(lo as i16 as i32)
                .or(half_float)
                .unwrap_or(Operand::Literal(lo as u32))
        }
        // 1/(2*pi) is inline only from gfx8 on; before, llvm-mc writes its f32 pattern.
        (Kind::Bits32, Operand::InlineFloat(InlineFloat::InvTwoPi)) if !inv2pi => {
            Operand::Literal(f32_bits(InlineFloat::InvTwoPi))
        }
        (Kind::Int16, Operand::InlineFloat(f)) if literal_ok => {
            Operand::Literal(f16_bits(f) as u32)
        }
        _ => op,
    }
}

fn f16_bits_u32(f: InlineFloat) -> u32 {
    f16_bits(f) as u32
}

/// LLVM text of a source/destination operand of `dwords` registers and type `ty`.
pub fn text(op: Operand, dwords: u8, ty: Ty, gen: Gen) -> String {
    match op {
        Operand::InlineFloat(f) => float_text(f, dwords, ty),
        Operand::Literal(v) => literal_text(v, dwords, ty, gen),
        _ => reg_text(op, dwords),
    }
}

/// Parses LLVM register text (`s4`, `v[4:5]`, `vcc`, `exec_lo`, `ttmp[4:5]`, `m0`, `off`...):
/// returns the first register and the dword count.
pub fn parse_reg(s: &str) -> Option<(Operand, u8)> {
    let fixed = match s {
        "vcc" => Some((Operand::VccLo, 2)),
        "vcc_lo" => Some((Operand::VccLo, 1)),
        "vcc_hi" => Some((Operand::VccHi, 1)),
        "exec" => Some((Operand::ExecLo, 2)),
        "exec_lo" => Some((Operand::ExecLo, 1)),
        "exec_hi" => Some((Operand::ExecHi, 1)),
        "flat_scratch" => Some((Operand::FlatScratchLo, 2)),
        "flat_scratch_lo" => Some((Operand::FlatScratchLo, 1)),
        "flat_scratch_hi" => Some((Operand::FlatScratchHi, 1)),
        "xnack_mask" => Some((Operand::XnackMaskLo, 2)),
        "xnack_mask_lo" => Some((Operand::XnackMaskLo, 1)),
        "xnack_mask_hi" => Some((Operand::XnackMaskHi, 1)),
        "tba" => Some((Operand::TbaLo, 2)),
        "tba_lo" => Some((Operand::TbaLo, 1)),
        "tba_hi" => Some((Operand::TbaHi, 1)),
        "tma" => Some((Operand::TmaLo, 2)),
        "tma_lo" => Some((Operand::TmaLo, 1)),
        "tma_hi" => Some((Operand::TmaHi, 1)),
        "m0" => Some((Operand::M0, 1)),
        "scc" | "src_scc" => Some((Operand::Scc, 1)),
        "vccz" | "src_vccz" => Some((Operand::Vccz, 1)),
        "execz" | "src_execz" => Some((Operand::Execz, 1)),
        "lds_direct" | "src_lds_direct" => Some((Operand::LdsDirect, 1)),
        "src_shared_base" => Some((Operand::SrcSharedBase, 1)),
        "src_shared_limit" => Some((Operand::SrcSharedLimit, 1)),
        "src_private_base" => Some((Operand::SrcPrivateBase, 1)),
        "src_private_limit" => Some((Operand::SrcPrivateLimit, 1)),
        "src_pops_exiting_wave_id" => Some((Operand::SrcPopsExitingWaveId, 1)),
        "off" => Some((Operand::Off, 1)),
        _ => None,
    };
    if fixed.is_some() {
        return fixed;
    }
    let (kind, rest) = if let Some(r) = s.strip_prefix("ttmp") {
        (2, r)
    } else if let Some(r) = s.strip_prefix('s') {
        (0, r)
    } else if let Some(r) = s.strip_prefix('v') {
        (1, r)
    } else {
        return None;
    };
    let (first, count) =
        if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let (a, b) = inner.split_once(':').unwrap_or((inner, inner));
            let a: u16 = a.trim().parse().ok()?;
            let b: u16 = b.trim().parse().ok()?;
            if b < a || b - a >= 16 {
                return None;
            }
            (a, (b - a + 1) as u8)
        } else {
            (rest.parse::<u16>().ok()?, 1)
        };
    if first > 255 {
        return None;
    }
    let f = first as u8;
    Some((
        match kind {
            0 => Operand::Sgpr(f),
            1 => Operand::Vgpr(f),
            _ => Operand::Ttmp(f),
        },
        count,
    ))
}
