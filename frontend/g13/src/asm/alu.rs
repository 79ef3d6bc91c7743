//! The ALU operands: destinations, integer and float sources, compare-select sources, the
//! implicit `r0l` of the exec-stack forms. Each encoding is the one whose decoding
//! (applegpu's `ALUDstDesc`, `ALUSrcDesc`, `CmpselSrcDesc` and their variants, read the same
//! way by [`crate::operand`]) prints the text back.

use super::fields::Fields;
use super::text::{regs, split_flags, File, Regs};
use crate::operand::minifloat;

fn registers(text: &str) -> Result<Regs, String> {
    regs(text)?.ok_or_else(|| format!("`{text}` is not a register"))
}

/// A destination: `ALUDst` (16 or 32 bits), `ALUDst64` (also a pair), `FloatDst`,
/// `FloatDst16` (16 only), `PairedALUDst` (two consecutive halves or words). The 8-bit value
/// is `2n + h` for a half, `2n` for a word, `2n + 1` for a pair; the flags field `t` holds
/// the cache hint (bit 0) and 32 bits (bit 1).
pub(super) fn dst(f: &mut Fields, kind: &str, name: &str, text: &str) -> Result<(), String> {
    let r = registers(text)?;
    r.flags.only(&["cache"])?;
    if r.file != File::R {
        return Err("a destination is a general register".into());
    }
    let (allow32, allow64, paired) = match kind {
        "ALUDst" | "FloatDst" => (true, false, false),
        "ALUDst64" => (true, true, false),
        "FloatDst16" => (false, false, false),
        _ => (true, false, true),
    };
    let count = if paired { 2 } else { 1 };
    let (value, wide) = match (r.half, r.count) {
        (true, c) if c == count => (r.first, false),
        (false, c) if c == count && allow32 => (r.first << 1, true),
        (false, 2) if allow64 => (r.first << 1 | 1, true),
        (false, _) if !allow32 => return Err("this destination is 16-bit".into()),
        _ if paired => return Err("this destination is a pair of registers".into()),
        _ => return Err("this destination takes one register".into()),
    };
    f.put(name, u64::from(value))?;
    f.put(
        &format!("{name}t"),
        u64::from(r.flags.cache) | u64::from(wide) << 1,
    )
}

/// `r0l` (or `r0l.cache`): the exec-stack forms' implicit destination, its hint in `t`.
pub(super) fn implicit_r0l(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = registers(text)?;
    r.flags.only(&["cache"])?;
    if !r.is(File::R, true, 1) || r.first != 0 {
        return Err("this operand is always r0l".into());
    }
    f.put(&format!("{name}t"), u64::from(r.flags.cache))
}

/// What a source kind allows.
struct SrcKind {
    allow32: bool,
    allow64: bool,
    /// A sign-extension bit `s` (`.sx`).
    signed: bool,
    /// A minifloat immediate and the modifier bits `m` (`.abs` bit 0, `.neg` bit 1).
    float: bool,
    /// Two consecutive registers, read as one operand (the matrix forms).
    paired: bool,
}

fn src_kind(kind: &str) -> SrcKind {
    let k = |allow32, allow64, signed, float, paired| SrcKind {
        allow32,
        allow64,
        signed,
        float,
        paired,
    };
    match kind {
        "ALUSrc64" => k(true, true, false, false, false),
        "ALUSrc16" => k(false, false, false, false, false),
        "MulSrc" => k(true, false, true, false, false),
        "AddSrc" => k(true, true, true, false, false),
        "FloatSrc" => k(true, false, false, true, false),
        "FloatSrc16" => k(false, false, false, true, false),
        "PairedFloatSrc" => k(true, false, false, true, true),
        _ => k(true, false, false, false, false),
    }
}

/// A register's 2-bit read hint: `01` none, `10` cache, `11` discard.
fn hint(r: &Regs) -> u64 {
    if r.flags.discard {
        0b11
    } else if r.flags.cache {
        0b10
    } else {
        0b01
    }
}

/// An ALU source: an 8-bit value (6 bits and 2 extension bits) and a type field `t` (4 bits,
/// 3 for `FloatSrc16`): 0 an immediate (an integer 0-255, or a float source's minifloat);
/// `01xy` a uniform register, `y` the value's ninth bit, 32-bit if `x`; otherwise bits 3:2
/// the size (`00` half, `10` word, `11` pair) and bits 1:0 the hint. `None` is the type
/// `1000` with no hint (and no float modifiers), which applegpu cannot name.
pub(super) fn src(f: &mut Fields, kind: &str, name: &str, text: &str) -> Result<(), String> {
    let k = src_kind(kind);
    let mut allowed = vec!["cache", "discard"];
    if k.signed {
        allowed.push("sx");
    }
    if k.float {
        allowed.extend(["abs", "neg"]);
    }
    let ((value, t), flags) = match regs(text)? {
        Some(r) => {
            r.flags.only(&allowed)?;
            (src_register(&k, &r)?, r.flags)
        }
        None if text == "None" => ((0, 0b1000), Default::default()),
        None => {
            let (number, flags) = split_flags(text);
            flags.only(if k.float { &["abs", "neg"] } else { &[] })?;
            let v = if k.float {
                float_imm(number)?
            } else {
                byte_imm(number)?
            };
            ((u64::from(v), 0), flags)
        }
    };
    let (value, t) = value_t(value, t);
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)?;
    if k.signed {
        f.put(&format!("{name}s"), u64::from(flags.sx))?;
    }
    if k.float {
        f.put(
            &format!("{name}m"),
            u64::from(flags.abs) | u64::from(flags.neg) << 1,
        )?;
    }
    Ok(())
}

/// A 9-bit uniform value's ninth bit moves into the type field.
fn value_t(value: u64, t: u64) -> (u64, u64) {
    (value & 0xff, t | (value >> 8))
}

/// The value and type of a register source (the hint included).
fn src_register(k: &SrcKind, r: &Regs) -> Result<(u64, u64), String> {
    let v = u64::from(r.value());
    if r.file == File::U {
        if r.count != 1 || r.flags.cache || r.flags.discard {
            return Err("a uniform source is one register, without hints".into());
        }
        // A 32-bit uniform prints in every size of source (applegpu's decoding).
        return Ok((v, if r.half { 0b0100 } else { 0b0110 }));
    }
    let h = hint(r);
    match (r.half, r.count) {
        (true, 1) if !k.paired => Ok((v, h)),
        (true, 2) if k.paired => Ok((v, h)),
        (false, 1) if k.allow32 && !k.paired => Ok((v, 0b1000 | h)),
        (false, 2) if k.paired => Ok((v, 0b1000 | h)),
        (false, 2) if k.allow64 => Ok((v, 0b1100 | h)),
        (false, _) if !k.allow32 => Err("this source is 16-bit".into()),
        _ if k.paired => Err("this source is a pair of registers".into()),
        (false, 2) => Err("this source is at most 32-bit".into()),
        _ => Err("this source takes one register".into()),
    }
}

/// An integer immediate of an ALU source: 0-255.
fn byte_imm(text: &str) -> Result<u8, String> {
    let v = super::text::int(text).ok_or_else(|| format!("`{text}` is not a number"))?;
    u8::try_from(v).map_err(|_| format!("immediate {v} is out of range (0-255)"))
}

/// The minifloat ([`minifloat`]) whose value `text` is (`-0.0` has the sign bit).
pub(super) fn float_imm(text: &str) -> Result<u8, String> {
    let x: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    (0..=255u8)
        .find(|&b| {
            let m = f64::from(minifloat(b));
            m == x && m.is_sign_negative() == x.is_sign_negative()
        })
        .ok_or_else(|| format!("{text} is not an 8-bit float immediate"))
}

/// A compare-select's select operand: a 3-bit type, `100` an 8-bit immediate, `0xy` a
/// register with hint `xy`, `11y` a uniform (`y` the ninth bit). Registers and uniforms
/// have the destination's size (`Dt` bit 1), so the destination is encoded first.
pub(super) fn cmpsel_src(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let wide = f.get("Dt") & 2 != 0;
    let size_err = || {
        Err(format!(
            "a select operand has the destination's size ({})",
            if wide { "32-bit" } else { "16-bit" }
        ))
    };
    let (value, t) = match regs(text)? {
        Some(r) => {
            r.flags.only(&["cache", "discard"])?;
            if r.count != 1 {
                return Err("a select operand is one register".into());
            }
            if r.half == wide {
                return size_err();
            }
            let v = u64::from(r.value());
            if r.file == File::U {
                if r.flags.cache || r.flags.discard {
                    return Err("a uniform source takes no hint".into());
                }
                value_t(v, 0b110)
            } else {
                (v, hint(&r))
            }
        }
        None if text == "None" => (0, 0),
        None => (u64::from(byte_imm(text)?), 0b100),
    };
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)
}
