//! Mesa's text of operands and enumerated modifiers (AGX2.xml's `enum` tables and its
//! printer's operand rules: `$` before a cached register, `^` before a discarded one, `dr`/`du`
//! for 64-bit pairs, `.abs`, `.neg`, `.sx` after the operand).
//!
//! Where applegpu names the same values (conditions, formats, masks, texture types, levels of
//! detail, atomic operations, rounding, interpolation), the names are applegpu's
//! ([`crate::operand::enums`]) respelled as Mesa spells them, so that both printers and the
//! assembler agree on what each value means; the tables here are the enums only Mesa names.

use crate::inst::Inst;
use crate::operand::enums;
use crate::operand::{minifloat, Reg, RegRange, Src, SrcValue, UReg, Value};

/// What Mesa prints for an enumerated value it has no name for.
pub(super) fn unknown_enum(value: u64) -> String {
    format!("XXX: Unknown enum value {value}")
}

/// The name of `value` in a Mesa enum given as `(value, name)` pairs; an empty name is the
/// enum's default, which Mesa leaves out.
pub(super) fn enum_name(table: &[(u64, &str)], value: u64) -> String {
    table
        .iter()
        .find(|(v, _)| *v == value)
        .map_or_else(|| unknown_enum(value), |(_, n)| n.to_string())
}

/// Mesa's name of integer condition `code`: applegpu's ([`enums::ICONDITIONS`]), but for
/// unsigned equality, which Mesa calls `ieq` and `ine`.
pub(super) fn icond(code: u64) -> String {
    match code {
        0 => "ieq".into(),
        8 => "ine".into(),
        c => enums::find(enums::ICONDITIONS, c).map_or_else(|| unknown_enum(c), String::from),
    }
}

/// Mesa's name of float condition `code`: applegpu's ([`enums::FCONDITIONS`]) after an `f`.
pub(super) fn fcond(code: u64) -> String {
    enums::find(enums::FCONDITIONS, code).map_or_else(|| unknown_enum(code), |n| format!("f{n}"))
}

/// Mesa's name of enumerated field `field` of `inst` (a memory format `F`, a `mask`, a
/// texture type `n`, a level-of-detail mode `lod`, an atomic `op`, `convert`'s `round`, an
/// `interpolation`): what [`enums::name`] says the value means in the form, in Mesa's
/// spelling.
pub(super) fn named(inst: &Inst, field: &str) -> String {
    spelled(inst.row.name, field, inst.field(field))
}

/// [`named`] of value `value` in form `row`: `_rtz` for applegpu's `.rtz`, texture types
/// without `tex_`, `none` for the empty mask, the default interpolation (`center`) left out,
/// and the levels of detail with a bias and a minimum (9, 13), which applegpu does not name,
/// as AGX2.xml names them.
fn spelled(row: &str, field: &str, value: u64) -> String {
    let name = match (field, value) {
        ("mask", 0) => Some("none"),
        ("lod", 9 | 13) => Some("auto_lod_bias_min"),
        _ => enums::name(row, field, value),
    };
    match (field, name) {
        (_, None) => unknown_enum(value),
        ("F", Some(n)) => n.replace('.', "_"),
        ("n", Some(n)) => n.strip_prefix("tex_").unwrap_or(n).to_string(),
        ("interpolation", Some("center")) => String::new(),
        (_, Some(n)) => n.to_string(),
    }
}

/// Special registers, by Mesa's names.
pub(super) const SR: &[(u64, &str)] = &[
    (0, "threadgroup_in_grid_x"),
    (1, "threadgroup_in_grid_y"),
    (2, "threadgroup_in_grid_z"),
    (4, "threads_per_threadgroup_x"),
    (5, "threads_per_threadgroup_y"),
    (6, "threads_per_threadgroup_z"),
    (8, "dispatch_threads_per_threadgroup_x"),
    (9, "dispatch_threads_per_threadgroup_y"),
    (10, "dispatch_threads_per_threadgroup_z"),
    (12, "threadgroup_width"),
    (13, "threadgroup_height"),
    (14, "samples_log2"),
    (20, "core_index"),
    (21, "vm_slot"),
    (48, "thread_in_threadgroup_x"),
    (49, "thread_in_threadgroup_y"),
    (50, "thread_in_threadgroup_z"),
    (51, "thread_index_in_threadgroup"),
    (52, "thread_index_in_simdgroup"),
    (53, "simdgroup_index_in_threadgroup"),
    (56, "active_thread_index_in_quadgroup"),
    (57, "total_active_threads_in_quadgroup"),
    (58, "active_thread_index_in_simdgroup"),
    (59, "total_active_threads_in_simdgroup"),
    (60, "internal_coverage_mask"),
    (62, "backfacing"),
    (63, "is_active_thread"),
    (80, "thread_in_grid_x"),
    (81, "thread_in_grid_y"),
    (82, "thread_in_grid_z"),
    (124, "input_sample_mask"),
    (144, "helper_op"),
    (146, "helper_arg_l"),
    (147, "helper_arg_h"),
];

pub(super) const GATHER: &[(u64, &str)] = &[
    (0, ""),
    (1, "gather_r"),
    (3, "gather_g"),
    (5, "gather_b"),
    (7, "gather_a"),
];

pub(super) const SUBGROUP_OP: &[(u64, &str)] = &[
    (0, "and"),
    (1, "fadd"),
    (2, "or"),
    (3, "fmul"),
    (4, "xor"),
    (5, "fmin"),
    (7, "fmax"),
    (16, "iadd"),
    (20, "smin"),
    (22, "smax"),
    (28, "umin"),
    (30, "umax"),
];

pub(super) const SHIFT: &[(u64, &str)] = &[
    (0, ""),
    (1, "lsl 1"),
    (2, "lsl 2"),
    (3, "lsl 3"),
    (4, "lsl 4"),
];

pub(super) const GROUP: &[(u64, &str)] = &[(0, "a"), (1, "b")];
pub(super) const COHERENT: &[(u64, &str)] =
    &[(0, ""), (1, "coherent1"), (2, "coherent2"), (3, "coherent")];
pub(super) const QUAD: &[(u64, &str)] = &[(0, "quad"), (1, "")];
pub(super) const SHUFFLE_OP: &[(u64, &str)] = &[(0, ""), (1, "xor"), (2, "up"), (3, "down")];

/// A general register without hints: `r5l`, `r6`, `dr6`.
pub(super) fn reg(r: &Reg) -> String {
    Reg { cache: false, ..*r }.mesa()
}

/// A register with its cache hint (`$r2`).
pub(super) fn hinted(r: &Reg) -> String {
    r.mesa()
}

/// A uniform register: `u5`, `u5l`.
pub(super) fn uniform(u: &UReg) -> String {
    u.to_string()
}

/// Python-style float text, as Mesa prints minifloats (`%g`, with `.0` on integers).
pub(super) fn float(bits: u8) -> String {
    format!("{:?}", f64::from(minifloat(bits)))
}

/// An ALU source: its value, then `.abs`, `.neg`, `.sx`. Mesa prints the sign-extension bit
/// of an add or multiply source even on an immediate (`sx_bit`), where it has no effect.
pub(super) fn src(s: &Src, sx_bit: bool) -> String {
    let mut text = match s.value {
        SrcValue::Imm(n) => n.to_string(),
        SrcValue::FloatImm(b) => float(b),
        SrcValue::Reg(r) => hinted(&r),
        SrcValue::Discarded(r) => format!("^{}", reg(&r)),
        SrcValue::Uniform(u) => uniform(&u),
    };
    let sx = s.sx || (sx_bit && matches!(s.value, SrcValue::Imm(_)));
    for (on, m) in [(s.abs, ".abs"), (s.neg, ".neg"), (sx, ".sx")] {
        if on {
            text.push_str(m);
        }
    }
    text
}

/// Registers of a range as Mesa names them, at least one (Mesa prints the first register of
/// an empty mask); `^` before discarded ones.
pub(super) fn range(r: &RegRange) -> String {
    let file = if r.uniform { "u" } else { "r" };
    let names: Vec<String> = (0..r.count.max(1))
        .map(|i| {
            let at = r.first + i;
            if r.halves {
                let h = if at & 1 != 0 { 'h' } else { 'l' };
                format!("{file}{}{h}", at >> 1)
            } else {
                format!("{file}{at}")
            }
        })
        .collect();
    let lu = if r.discard { "^" } else { "" };
    let cache = if r.cache { "$" } else { "" };
    format!("{lu}{cache}{}", names.join("_"))
}

/// A value operand that is a register, a range, a uniform, an immediate or a state register
/// (the memory, varying and texture operands).
pub(super) fn value(v: &Value) -> String {
    match v {
        Value::Reg(r) => hinted(r),
        Value::Src(s) => src(s, false),
        Value::Regs(r) => range(r),
        Value::Uniform(u) => uniform(u),
        Value::UniformPair(n) => format!("du{n}"),
        Value::Imm(n) => n.to_string(),
        Value::TextureState(n) => format!("ts{n}"),
        Value::SamplerState(n) => format!("ss{n}"),
        Value::Cf(n) => format!("cf{n}"),
        Value::Absent => String::new(),
        _ => "XXX".into(),
    }
}

/// Operand `name` of `inst` as [`value`] prints it.
pub(super) fn operand(inst: &Inst, name: &str) -> String {
    inst.operand(name).map_or_else(String::new, value)
}

/// Operand `name` of `inst`, an ALU source.
pub(super) fn alu(inst: &Inst, name: &str) -> String {
    let sx_bit = inst.row.suffixed_field(inst.word, name, "s") == Some(1);
    match inst.operand(name) {
        Some(Value::Src(s)) => src(s, sx_bit),
        _ => "XXX".into(),
    }
}

/// The destination `D` of `inst`.
pub(super) fn dst(inst: &Inst) -> String {
    operand(inst, "D")
}
