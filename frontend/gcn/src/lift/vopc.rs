//! VOPC: per-lane compares and class tests written to VCC (or an SGPR pair in VOP3 / gfx9
//! SDWA) as `ballot(result & exec)`; the `cmpx` forms also write that value to EXEC.
//!
//! The condition and type come from the mnemonic (`v_cmp[s][x]_<cond>_<type>`; CLRX
//! doc/GcnInstrsVopc.md). Float conditions: f, lt, eq, le, gt, lg (ordered !=), ge, o, u,
//! nge, nlg, ngt, nle, neq, nlt (unordered or ...), tru. Integer: f, lt, eq, le, gt, ne/lg,
//! ge, t. The gfx6/7 signalling `v_cmps*` forms differ only in exceptions.
use super::{LiftError, Lifter};
use crate::inst::Inst;
use crate::tables::Field;
use wavejit_ir::{FloatCC, IntCC, Op, ScalarType, Value};
use ScalarType::*;

enum Cond {
    Const(bool),
    Float(FloatCC),
    Int(IntCC),
    Class,
}

fn parse(name: &str) -> Option<(bool, Cond, ScalarType)> {
    let rest = name
        .strip_prefix("v_cmpsx_")
        .map(|r| (true, r))
        .or_else(|| name.strip_prefix("v_cmpx_").map(|r| (true, r)))
        .or_else(|| name.strip_prefix("v_cmps_").map(|r| (false, r)))
        .or_else(|| name.strip_prefix("v_cmp_").map(|r| (false, r)))?;
    let (x, rest) = rest;
    let (cond, ty) = rest.rsplit_once('_')?;
    let (t, signed) = match ty {
        "f16" => (F16, false),
        "f32" => (F32, false),
        "f64" => (F64, false),
        "i16" => (I16, true),
        "u16" => (I16, false),
        "i32" => (I32, true),
        "u32" => (I32, false),
        "i64" => (I64, true),
        "u64" => (I64, false),
        _ => return None,
    };
    let c = if cond == "class" {
        Cond::Class
    } else if t.is_float() {
        match cond {
            "f" => Cond::Const(false),
            "tru" => Cond::Const(true),
            "lt" => Cond::Float(FloatCC::Lt),
            "eq" => Cond::Float(FloatCC::Eq),
            "le" => Cond::Float(FloatCC::Le),
            "gt" => Cond::Float(FloatCC::Gt),
            "lg" => Cond::Float(FloatCC::One),
            "ge" => Cond::Float(FloatCC::Ge),
            "o" => Cond::Float(FloatCC::Ord),
            "u" => Cond::Float(FloatCC::Uno),
            "nge" => Cond::Float(FloatCC::Ult),
            "nlg" => Cond::Float(FloatCC::Ueq),
            "ngt" => Cond::Float(FloatCC::Ule),
            "nle" => Cond::Float(FloatCC::Ugt),
            "neq" => Cond::Float(FloatCC::Une),
            "nlt" => Cond::Float(FloatCC::Uge),
            _ => return None,
        }
    } else {
        let s = |a: IntCC, b: IntCC| Cond::Int(if signed { a } else { b });
        match cond {
            "f" => Cond::Const(false),
            "t" => Cond::Const(true),
            "lt" => s(IntCC::Slt, IntCC::Ult),
            "eq" => Cond::Int(IntCC::Eq),
            "le" => s(IntCC::Sle, IntCC::Ule),
            "gt" => s(IntCC::Sgt, IntCC::Ugt),
            "ne" | "lg" => Cond::Int(IntCC::Ne),
            "ge" => s(IntCC::Sge, IntCC::Uge),
            _ => return None,
        }
    };
    Some((x, c, t))
}

impl Lifter<'_> {
    pub(crate) fn vopc(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let name = inst.opcode.name();
        let Some((cmpx, cond, t)) = parse(name) else {
            return Err(self.unsupported(inst, "VOPC opcode without semantics"));
        };
        let r: Value = match cond {
            Cond::Const(c) => {
                // Sources are still read (they may be invalid operands); the result is constant.
                self.vsrc(inst, 0, t)?;
                self.vsrc(inst, 1, t)?;
                self.b.bool(c)
            }
            Cond::Float(cc) => {
                let a = self.vsrc(inst, 0, t)?;
                let b = self.vsrc(inst, 1, t)?;
                self.b.op_mode(Op::Fcmp(cc), self.fm(t), I1, &[a, b])
            }
            Cond::Int(cc) => {
                let a = self.vsrc(inst, 0, t)?;
                let b = self.vsrc(inst, 1, t)?;
                self.b.op(Op::Icmp(cc), I1, &[a, b])
            }
            Cond::Class => {
                let a = self.vsrc(inst, 0, t)?;
                let m = self.vsrc(inst, 1, I32)?;
                self.b.op(Op::Fclass, I1, &[a, m])
            }
        };
        let bits = self.lane_bits(r);
        let dst = inst
            .operand(Field::VccOut)
            .or_else(|| inst.operand(Field::Vdst))
            .map(|o| o.value)
            .ok_or_else(|| self.invalid(inst, "missing compare destination"))?;
        self.write_scalar(inst, dst, bits)?;
        if cmpx {
            let e = self.g.exec();
            self.b.def_reg(e, bits, None);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics_parse() {
        assert!(matches!(
            parse("v_cmpx_nlg_f32"),
            Some((true, Cond::Float(FloatCC::Ueq), F32))
        ));
        assert!(matches!(
            parse("v_cmp_lt_u64"),
            Some((false, Cond::Int(IntCC::Ult), I64))
        ));
        assert!(matches!(
            parse("v_cmps_tru_f64"),
            Some((false, Cond::Const(true), F64))
        ));
        assert!(matches!(
            parse("v_cmp_class_f16"),
            Some((false, Cond::Class, F16))
        ));
        assert!(parse("v_add_f32").is_none());
    }
}
