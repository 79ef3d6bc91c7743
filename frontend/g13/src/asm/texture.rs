//! Texture, image, varying and fragment operands: texture and sampler states, coordinates,
//! levels of detail, compare and offset registers, interpolated varyings and their
//! coefficient registers, sample masks and depth/stencil registers. Encodings are the
//! inverse of applegpu's decodings (`TextureDesc`, `CoordsDesc`, `LodDesc`, `CFDesc`, ...).

use super::fields::Fields;
use super::memory::{half, plain};
use super::text::{int, numbered, regs, split_flags, File};
use crate::operand::tex_size;

/// An 8-bit immediate.
fn byte(text: &str) -> Result<u64, String> {
    let v = int(text).ok_or_else(|| format!("`{text}` is not a number or a register"))?;
    u8::try_from(v)
        .map(u64::from)
        .map_err(|_| format!("immediate {v} is out of range (0-255)"))
}

/// A 16-bit register or an 8-bit immediate, with the type bit each takes: `SampleMask`
/// (2-bit type field: 0 an immediate, 1 a register; 1-bit: the reverse), `DiscardMask`,
/// `UVSIndex` and `PBELod` (0 a register, 1 an immediate).
pub(super) fn half_or_byte(
    f: &mut Fields,
    kind: &str,
    name: &str,
    text: &str,
) -> Result<(), String> {
    let t_name = format!("{name}t");
    let register_t = if kind == "SampleMask" && f.width(&t_name) == Some(2) {
        1
    } else {
        0
    };
    let (value, t) = match regs(text)? {
        Some(_) => (u64::from(half(text)?), register_t),
        None => (byte(text)?, 1 - register_t),
    };
    f.put(name, value)?;
    f.put(&t_name, t)
}

/// Depth and/or stencil registers (`ZS`): 1 to 3 consecutive halves; `z` set for 2 or 3,
/// `s` for 1 or 3.
pub(super) fn zs(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    if r.file != File::R || !r.half || !(1..=3).contains(&r.count) {
        return Err(format!(
            "`{text}` is not 1 to 3 consecutive 16-bit registers"
        ));
    }
    f.put(name, u64::from(r.first))?;
    f.put("z", u64::from(r.count >= 2))?;
    f.put("s", u64::from(r.count % 2 == 1))
}

/// An iterated varying's destination (`VarRegister`, `VarTripleRegister`): consecutive
/// halves (`t` 0) or words (`t` 1); `count` 1 to 4 (4 as 0) registers, or triples of them.
pub(super) fn varying(f: &mut Fields, kind: &str, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    let unit = if kind == "VarTripleRegister" { 3 } else { 1 };
    let n = r.count / unit;
    if r.file != File::R || r.count % unit != 0 || !(1..=4).contains(&n) {
        return Err(format!(
            "`{text}` is not {} consecutive registers",
            if unit == 3 { "3, 6, 9 or 12" } else { "1 to 4" }
        ));
    }
    f.put(name, u64::from(r.value()))?;
    f.put(&format!("{name}t"), u64::from(!r.half))?;
    f.put("count", u64::from(n % 4))
}

/// A coefficient register (`CF`): `cfN` (`t` 0) or a 16-bit register (`t` 1);
/// `CFPerspective` is `cfN` only.
pub(super) fn coefficient(
    f: &mut Fields,
    kind: &str,
    name: &str,
    text: &str,
) -> Result<(), String> {
    if let Some(v) = numbered(text, "cf") {
        f.put(name, v)?;
        return if kind == "CF" {
            f.put(&format!("{name}t"), 0)
        } else {
            Ok(())
        };
    }
    if kind != "CF" {
        return Err(format!("`{text}` is not cfN"));
    }
    f.put(name, u64::from(half(text)?))?;
    f.put(&format!("{name}t"), 1)
}

/// An iteration's sample (`IterSampleID`): with `interpolation` 3 a 16-bit register, with
/// 1 an immediate, otherwise nothing (value 0). Both 1 and 3 print as `sample`: a register
/// here makes the name 3.
pub(super) fn sample_id(f: &mut Fields, name: &str, text: Option<&str>) -> Result<(), String> {
    let mode = f.get("interpolation");
    let v = match (mode, text) {
        (0 | 2, None) => 0,
        (0 | 2, Some(_)) => return Err("no sample operand with this interpolation".into()),
        (_, None) => return Err("this interpolation takes a sample operand".into()),
        (_, Some(t)) if regs(t)?.is_some() => {
            f.put("interpolation", 3)?;
            u64::from(half(t)?)
        }
        (3, Some(_)) => return Err("interpolation 3 takes a register".into()),
        (_, Some(t)) => byte(t)?,
    };
    f.put(name, v)
}

/// A texture (`Texture`): `tsN` (`t` 00), a 16-bit register (`t` 01), the immediate 0
/// (`t` 10) or a 32-bit register (`t` 11, value `2n`).
pub(super) fn texture(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (value, t) = if let Some(v) = numbered(text, "ts") {
        (v, 0b00)
    } else if text == "0" {
        (0, 0b10)
    } else {
        let r = plain(text)?;
        match (r.file, r.half, r.count) {
            (File::R, true, 1) => (u64::from(r.first), 0b01),
            (File::R, false, 1) => (u64::from(r.first << 1), 0b11),
            _ => return Err(format!("`{text}` is not a texture (tsN, rN, rNl/h or 0)")),
        }
    };
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)
}

/// A sampler (`Sampler`): `ssN` (`t` 0) or a 16-bit register (`t` 1).
pub(super) fn sampler(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (value, t) = match numbered(text, "ss") {
        Some(v) => (v, 0),
        None => (u64::from(half(text)?), 1),
    };
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)
}

/// The texture type's sizes, from field `n`.
fn sizes(f: &Fields) -> Result<(u32, u32), String> {
    let n = f.get("n");
    tex_size(n)
        .map(|(c, e)| (u32::from(c), u32::from(e)))
        .ok_or_else(|| format!("texture type {n} has no known coordinates"))
}

/// Coordinates (`Coords`), sized by the texture type `n` (c coordinates, e extra): `s` 1
/// gives c + e halves; `s` 0 gives 2c + 1 halves when e > 0, else c words (value `2n`).
/// `.discard` sets `t`.
pub(super) fn coords(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (c, e) = sizes(f)?;
    let (base, flags) = split_flags(text);
    flags.only(&["discard"])?;
    let r = plain(base)?;
    let s = match (r.file, r.half, r.count) {
        (File::R, true, k) if k == c + e => 1,
        (File::R, true, k) if e > 0 && k == 2 * c + 1 => 0,
        (File::R, false, k) if e == 0 && k == c => 0,
        _ => {
            return Err(format!(
                "`{text}` does not fit this texture type ({} halves{})",
                c + e,
                if e > 0 {
                    format!(" or {}", 2 * c + 1)
                } else {
                    format!(" or {c} words")
                }
            ))
        }
    };
    f.put(name, u64::from(r.value()))?;
    f.put(&format!("{name}t"), u64::from(flags.discard))?;
    f.put(&format!("{name}s"), s)
}

/// The level of detail (`Lod`), by field `lod`: 0 the immediate 0; 4 (or 12) 2c (or 2c + 1)
/// consecutive words; 1 and 2 a uniform half; 5 and 6 a 16-bit register; 9 and 13 (bias
/// and minimum, which applegpu cannot print; AGX2.xml's reading) two uniform or general
/// halves. 1 and 5 print alike, so do 2 and 6: a general register here makes the name 5
/// or 6.
pub(super) fn lod(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let mut mode = f.get("lod");
    if matches!(mode, 1 | 2) && matches!(regs(text)?, Some(r) if r.file == File::R) {
        mode += 4;
        f.put("lod", mode)?;
    }
    let value = match mode {
        0 if text == "0" => 0,
        0 => return Err("auto_lod takes the level 0".into()),
        4 | 12 => {
            let count = sizes(f)?.0 * 2 + u32::from(mode == 12);
            let r = plain(text)?;
            if !r.is(File::R, false, count) {
                return Err(format!(
                    "`{text}` is not {count} consecutive 32-bit registers"
                ));
            }
            r.first << 1
        }
        1 | 2 => {
            let r = plain(text)?;
            if !r.is(File::U, true, 1) || r.first > 0xff {
                return Err(format!("`{text}` is not a uniform half u0l-u127h"));
            }
            r.first
        }
        5 | 6 => half(text)?,
        9 | 13 => {
            let file = if mode == 9 { File::U } else { File::R };
            let r = plain(text)?;
            if !r.is(file, true, 2) || r.first > 0xff {
                return Err(format!(
                    "`{text}` is not two consecutive {} halves",
                    if mode == 9 {
                        "uniform"
                    } else {
                        "16-bit register"
                    }
                ));
            }
            r.first
        }
        _ => return Err(format!("level-of-detail mode {mode} has no known operand")),
    };
    f.put(name, u64::from(value))
}

/// The compare value and offset (`SampleCompareOff`): a word when `compare` is set (value
/// `2n`), then a half at value + 2 when `t` (an offset) is set; nothing when neither.
pub(super) fn compare_offset(f: &mut Fields, name: &str, text: Option<&str>) -> Result<(), String> {
    let compare = f.get("compare") != 0;
    let pieces: Vec<&str> = text.map(|t| t.split('_').collect()).unwrap_or_default();
    let (value, offset) = match (compare, pieces.as_slice()) {
        (false, []) => (0, false),
        (false, [h]) => (half(h)?, true),
        (true, [w]) => (word2(w)?, false),
        (true, [w, h]) => {
            let v = half(h)?
                .checked_sub(2)
                .ok_or("the offset register follows the compare register")?;
            if v >> 1 != word2(w)? >> 1 {
                return Err("the offset register follows the compare register".into());
            }
            (v, true)
        }
        _ => {
            return Err(if compare {
                "this takes a compare register, then maybe an offset register".into()
            } else {
                "this takes at most an offset register (compare is 0)".into()
            })
        }
    };
    f.put(name, u64::from(value))?;
    f.put(&format!("{name}t"), u64::from(offset))
}

/// A 32-bit register's value `2n`.
fn word2(text: &str) -> Result<u32, String> {
    let r = plain(text)?;
    if !r.is(File::R, false, 1) {
        return Err(format!("`{text}` is not a 32-bit register"));
    }
    Ok(r.first << 1)
}

/// A texture's uniform (`SampleUReg`): the pair `u2v_u2v+1` (value v) when the texture's
/// type field `Tt` has bit 1, else `None`. A 16-bit texture register prints alike with `Tt`
/// 01 and 10: a uniform pair here makes it 10.
pub(super) fn sample_uniform(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let tt = f.get("Tt");
    if text == "None" {
        return if tt & 2 == 0 {
            Ok(())
        } else {
            Err("a bindless texture (rN or 0) takes a uniform pair here, not None".into())
        };
    }
    match tt {
        0b00 => return Err("with a texture state (tsN) this operand is None".into()),
        0b01 if f.get("T") == 0 => {
            return Err("r0l as the texture prints as 0 with a uniform pair".into())
        }
        0b01 => f.put("Tt", 0b10)?,
        _ => {}
    }
    let r = plain(text)?;
    if !r.is(File::U, false, 2) || r.first % 2 != 0 {
        return Err(format!("`{text}` is not a uniform pair from an even uN"));
    }
    f.put(name, u64::from(r.first / 2))
}

/// The colour an image write stores (`PBESourceReg`): four halves (`t` 0) or words (`t` 1).
pub(super) fn pbe_source(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    if r.file != File::R || r.count != 4 {
        return Err(format!("`{text}` is not 4 consecutive registers"));
    }
    f.put(name, u64::from(r.value()))?;
    f.put(&format!("{name}t"), u64::from(!r.half))
}
