//! Mesa's lines of the ALU, conversion, bit, compare, exec-stack, branch and SIMD-group forms.

use super::text::{self, alu, dst, enum_name, fcond, icond, named};
use super::{bits, Line};
use crate::inst::Inst;
use crate::operand::{FCond, ICond, Value};

/// The condition code (`cc` with `ccn` as bit 3) of `inst`.
fn cond_code(inst: &Inst) -> u64 {
    match inst.operand("cc") {
        Some(Value::ICond(c)) => u64::from(ICond::code(c)),
        Some(Value::FCond(c)) => u64::from(FCond::code(c)),
        _ => 0,
    }
}

/// Whether all of `names` (fields of `inst`) are zero.
fn zero(inst: &Inst, names: &[&str]) -> bool {
    names.iter().all(|n| inst.field(n) == 0)
}

/// Mesa's name of a float unary operation.
fn funop(name: &str) -> Option<&'static str> {
    Some(match name {
        "floor" => "floor",
        "rsqrt_special" => "rsqrts",
        "rcp" => "rcp",
        "rsqrt" => "rsqrt",
        "sin_pt_1" => "sinr",
        "dfdx" => "dfdx",
        "dfdy" => "dfdy",
        "sin_pt_2" => "sinc",
        "log2" => "log2",
        "exp2" => "exp2",
        "ceil" => "ceil",
        "trunc" => "trunc",
        "rint" => "rint",
        _ => return None,
    })
}

/// Mesa's names of `bitop` by truth table (`tt0 | tt1 << 1 | tt2 << 2 | tt3 << 3`): the
/// one-source forms, when the second source is the immediate 0, then the two-source ones.
fn bitop(inst: &Inst) -> Option<Line> {
    let Some(Value::TruthTable(tt)) = inst.operand("tt") else {
        return None;
    };
    let code = tt
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &b)| acc | usize::from(b) << i);
    let unary = match code {
        12 => Some("not_a"),
        10 => Some("mov"),
        5 => Some("not"),
        3 => Some("mov_a"),
        _ => None,
    };
    let line = Line::new;
    if let Some(m) = unary.filter(|_| zero(inst, &["B", "Bt"])) {
        return Some(line(m).op(dst(inst)).op(alu(inst, "A")));
    }
    let name = [
        "zero", "nor", "andn2", "", "andn1", "", "xor", "nand", "and", "xnor", "", "orn2", "",
        "orn1", "or", "one",
    ][code];
    (!name.is_empty()).then(|| {
        line(name)
            .op(dst(inst))
            .op(alu(inst, "A"))
            .op(alu(inst, "B"))
    })
}

pub(super) fn line(inst: &Inst) -> Option<Line> {
    let name = inst.row.name;
    let l = Line::new;
    let sat = |l: Line| l.flag(inst.field("S") != 0, "sat");
    let shift = |l: Line| l.op(enum_name(text::SHIFT, inst.field("s")));
    Some(match name {
        "mov_imm" => l("ldimm")
            .op(dst(inst))
            .op(text::operand(inst, name_of_imm(inst))),
        "get_sr" => l("mov")
            .op(dst(inst))
            .op(enum_name(text::SR, inst.field("SR"))),
        "iadd" => {
            let m = if inst.negate() { "isub" } else { "iadd" };
            sat(shift(
                l(m).op(dst(inst)).op(alu(inst, "A")).op(alu(inst, "B")),
            ))
        }
        "imadd" => {
            let c_zero = zero(inst, &["C", "Ct", "Cs", "N", "s"]);
            let base = |m| l(m).op(dst(inst)).op(alu(inst, "A")).op(alu(inst, "B"));
            if c_zero {
                sat(base("imul"))
            } else {
                let m = if inst.negate() { "imsub" } else { "imadd" };
                sat(shift(base(m).op(alu(inst, "C"))))
            }
        }
        "convert" => {
            let Some(Value::Enum(mode)) = inst.operand("mode") else {
                return None;
            };
            l(mode.name?)
                .op(dst(inst))
                .op(alu(inst, "src"))
                .op(named(inst, "round"))
        }
        "bfi" | "bfeil" if zero(inst, &["A", "At", "m"]) => {
            let m = if name == "bfi" { "shl" } else { "shr" };
            l(m).op(dst(inst)).op(alu(inst, "B")).op(alu(inst, "C"))
        }
        "bfi" | "bfeil" | "extr" | "shlhi" | "shrhi" => l(name)
            .op(dst(inst))
            .op(alu(inst, "A"))
            .op(alu(inst, "B"))
            .op(alu(inst, "C"))
            .op(inst.field("m").to_string()),
        "asr" | "asrh" => {
            // The third source and the mask lie where the bitfield forms have them; applegpu
            // leaves them unnamed here.
            let bfi = crate::table::rows().iter().find(|r| r.name == "bfi")?;
            let c = crate::operand::decode(bfi, inst.word, 3);
            let m = bits(inst, 38, 2) | bits(inst, 50, 2) << 2 | bits(inst, 63, 1) << 4;
            let c = match c {
                Value::Src(s) => text::src(&s, false),
                _ => "XXX".into(),
            };
            l(name)
                .op(dst(inst))
                .op(alu(inst, "A"))
                .op(alu(inst, "B"))
                .op(c)
                .op(m.to_string())
        }
        "fmadd32" | "fmadd16" => {
            let m = if name == "fmadd32" { "ffma" } else { "hfma" };
            sat(l(m)
                .op(dst(inst))
                .op(alu(inst, "A"))
                .op(alu(inst, "B"))
                .op(alu(inst, "C")))
        }
        "fadd32" | "fmul32" | "fadd16" | "fmul16" => {
            let m = match name {
                "fadd32" => "fadd",
                "fmul32" => "fmul",
                "fadd16" => "hadd",
                _ => "hmul",
            };
            sat(l(m).op(dst(inst)).op(alu(inst, "A")).op(alu(inst, "B")))
        }
        "bitop" => return bitop(inst),
        "bitrev" | "popcount" | "ffs" => {
            let m = if name == "popcount" { "popcnt" } else { name };
            l(m).op(dst(inst)).op(alu(inst, "A"))
        }
        "intl" => l(name).op(dst(inst)).op(alu(inst, "A")).op(alu(inst, "B")),
        "ret" | "call" if inst.len == 2 => l(name).op(text::operand(inst, "reg32")),
        "stop" | "trap" => Line::trivial(name),
        "jmp_incomplete" | "jmp_if_skipping_doorbell" => l(name).op(inst.field("off").to_string()),
        "jmp_exec_any" | "jmp_exec_none" | "call" => {
            let m = match name {
                "jmp_exec_any" => "jmp_any",
                "jmp_exec_none" => "jmp_none",
                _ => "call",
            };
            let Some(Value::Offset(off)) = inst.operand("off") else {
                return None;
            };
            l(m).op(off.to_string())
        }
        "pop_exec" => l(name)
            .op(inst.field("n").to_string())
            .flag(inst.field("Dt") != 0, "cache"),
        "if_fcmp" if bits(inst, 8, 38) == 0 => {
            l("update_exec").flag(inst.field("Dt") != 0, "cache")
        }
        "if_icmp" | "else_icmp" | "while_icmp" | "if_fcmp" | "else_fcmp" | "while_fcmp" => {
            let (m, kind) = name.split_once('_')?;
            let cond = if kind == "fcmp" { fcond } else { icond };
            l(m).op(alu(inst, "A"))
                .op(alu(inst, "B"))
                .op(inst.field("n").to_string())
                .flag(inst.field("Dt") != 0, "cache")
                .op(cond(cond_code(inst)))
        }
        "icmpsel" | "fcmpsel" => {
            let cond = if name == "icmpsel" { icond } else { fcond };
            l("csel")
                .op(dst(inst))
                .op(alu(inst, "A"))
                .op(alu(inst, "B"))
                .op(text::operand(inst, "X"))
                .op(text::operand(inst, "Y"))
                .op(cond(cond_code(inst)))
        }
        "icmp_ballot" if alias_ballot(inst) => l("ballot").op(dst(inst)),
        "icmp_ballot" | "icmp_quad_ballot" | "fcmp_ballot" | "fcmp_quad_ballot" => l("ballot")
            .op(dst(inst))
            .op(alu(inst, "A"))
            .op(alu(inst, "B"))
            .op(enum_name(text::QUAD, bits(inst, 48, 1)))
            // Mesa names the float ballots' conditions with the integer names too.
            .op(icond(cond_code(inst))),
        _ if name.contains("shuffle") || name == "simd_shuf_op" => {
            if bits(inst, 27, 1) != 0 {
                return None;
            }
            l("shuffle")
                .op(dst(inst))
                .op(alu(inst, "A"))
                .op(alu(inst, "B"))
                .op(enum_name(text::QUAD, bits(inst, 26, 1)))
                .flag(bits(inst, 47, 1) != 0, "rotate")
                .op(enum_name(text::SHUFFLE_OP, bits(inst, 38, 2)))
        }
        _ if name.starts_with("quad_") || name.starts_with("simd_") || name == "simd_op" => {
            if bits(inst, 15, 1) == 0
                || bits(inst, 26, 2) != 0
                || bits(inst, 31, 7) != 0
                || bits(inst, 41, 1) != 0
            {
                return None;
            }
            let op = bits(inst, 28, 1) | bits(inst, 38, 3) << 1 | bits(inst, 47, 1) << 4;
            let m = if bits(inst, 29, 1) != 0 {
                "simd"
            } else {
                "quad"
            };
            l(m).op(dst(inst))
                .op(alu(inst, "A"))
                .flag(bits(inst, 30, 1) != 0, "prefix")
                .op(enum_name(text::SUBGROUP_OP, op))
        }
        _ => match funop(name) {
            Some(m) => sat(l(m).op(dst(inst)).op(alu(inst, "A"))),
            None => return None,
        },
    })
}

/// `mov_imm`'s immediate: 16 or 32 bits.
fn name_of_imm(inst: &Inst) -> &'static str {
    if inst.try_field("imm32").is_some() {
        "imm32"
    } else {
        "imm16"
    }
}

/// Mesa's `ballot D`: an `icmp_ballot` of `1 nueq 0` over the SIMD-group (bits 16, 47, 48
/// set, the rest of both sources and the condition zero).
fn alias_ballot(inst: &Inst) -> bool {
    bits(inst, 16, 1) == 1
        && bits(inst, 47, 2) == 3
        && bits(inst, 17, 9) == 0
        && bits(inst, 28, 10) == 0
        && bits(inst, 49, 15) == 0
}
