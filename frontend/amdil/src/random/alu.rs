//! The ALU forms random programs draw from: one row per form (a mnemonic with its control
//! fields fixed), with the types of its sources and its result, which decide the modifiers
//! each operand may carry ([`Ty`]). The rows are what `lift/alu.rs` lifts; a form the lifter
//! gains is one more row here, and a row the lifter refuses is a fuzz failure.

use super::operand::{dst, source, Pools, Ty};
use crate::inst::Inst;
use crate::table;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use Ty::{Bits as B, Float as F, Int as I};

/// One ALU form.
#[derive(Debug)]
pub struct AluForm {
    /// The table row's mnemonic.
    pub mnemonic: &'static str,
    /// Control fields by name and value (`ieee` 1 is `mul_ieee`).
    pub fields: &'static [(&'static str, u16)],
    /// The sources' types, in order.
    pub srcs: &'static [Ty],
    /// The result's type.
    pub dst: Ty,
}

const fn form(mnemonic: &'static str, srcs: &'static [Ty], dst: Ty) -> AluForm {
    AluForm {
        mnemonic,
        fields: &[],
        srcs,
        dst,
    }
}

const fn with(
    mnemonic: &'static str,
    fields: &'static [(&'static str, u16)],
    srcs: &'static [Ty],
    dst: Ty,
) -> AluForm {
    AluForm {
        mnemonic,
        fields,
        srcs,
        dst,
    }
}

/// Every ALU form, in `lift/alu.rs`'s order.
pub static ALU_FORMS: &[AluForm] = &[
    form("mov", &[F], F),
    form("abs", &[F], F),
    form("add", &[F, F], F),
    form("sub", &[F, F], F),
    form("mul", &[F, F], F),
    with("mul", &[("ieee", 1)], &[F, F], F),
    form("mad", &[F, F, F], F),
    with("mad", &[("ieee", 1)], &[F, F, F], F),
    form("fma", &[F, F, F], F),
    form("max", &[F, F], F),
    with("max", &[("ieee", 1)], &[F, F], F),
    form("min", &[F, F], F),
    with("min", &[("ieee", 1)], &[F, F], F),
    form("flr", &[F], F),
    form("round_neginf", &[F], F),
    form("round_plusinf", &[F], F),
    form("round_z", &[F], F),
    form("round_nearest", &[F], F),
    form("rnd", &[F], F),
    form("frc", &[F], F),
    with("div", &[("zeroop", 0)], &[F, F], F),
    with("div", &[("zeroop", 1)], &[F, F], F),
    with("div", &[("zeroop", 2)], &[F, F], F),
    with("div", &[("zeroop", 3)], &[F, F], F),
    form("eq", &[F, F], I),
    form("ge", &[F, F], I),
    form("lt", &[F, F], I),
    form("ne", &[F, F], I),
    form("cmov", &[F, F], F),
    form("cmov_logical", &[I, F, F], F),
    form("iadd", &[I, I], I),
    form("inegate", &[I], I),
    form("imul", &[I, I], I),
    form("umul", &[I, I], I),
    form("imul_high", &[I, I], I),
    form("umul_high", &[I, I], I),
    form("imad", &[I, I, I], I),
    form("umad", &[I, I, I], I),
    form("imul24", &[I, I], I),
    form("umul24", &[I, I], I),
    form("imad24", &[I, I, I], I),
    form("umad24", &[I, I, I], I),
    form("imul24_high", &[I, I], I),
    form("umul24_high", &[I, I], I),
    form("imax", &[I, I], I),
    form("imin", &[I, I], I),
    form("umax", &[I, I], I),
    form("umin", &[I, I], I),
    form("ieq", &[I, I], I),
    form("ige", &[I, I], I),
    form("ilt", &[I, I], I),
    form("ine", &[I, I], I),
    form("uge", &[I, I], I),
    form("ult", &[I, I], I),
    form("ishl", &[I, I], I),
    form("ishr", &[I, I], I),
    form("ushr", &[I, I], I),
    form("udiv", &[I, I], I),
    form("umod", &[I, I], I),
    form("icarry", &[I, I], I),
    form("iborrow", &[I, I], I),
    form("iand", &[B, B], I),
    form("ior", &[B, B], I),
    form("ixor", &[B, B], I),
    form("inot", &[B], I),
    form("ibit_extract", &[I, I, I], I),
    form("ubit_extract", &[I, I, I], I),
    form("ubit_insert", &[I, I, I, I], I),
    form("icbits", &[I], I),
    form("ubit_reverse", &[I], I),
    with("ffb", &[("", 0)], &[I], I),
    with("ffb", &[("", 1)], &[I], I),
    with("ffb", &[("", 2)], &[I], I),
    form("ftoi", &[F], I),
    form("ftou", &[F], I),
    form("itof", &[I], F),
    form("utof", &[I], F),
    form("exp_vec", &[F], F),
    form("log_vec", &[F], F),
    form("rcp_vec", &[F], F),
    form("rsq_vec", &[F], F),
    form("sqrt_vec", &[F], F),
    form("sin_vec", &[F], F),
    form("cos_vec", &[F], F),
    form("clamp", &[F, F, F], F),
    form("lrp", &[F, F, F], F),
    form("imin3", &[I, I, I], I),
    form("imed3", &[I, I, I], I),
    form("imax3", &[I, I, I], I),
    form("umin3", &[I, I, I], I),
    form("umed3", &[I, I, I], I),
    form("umax3", &[I, I, I], I),
    form("bitalign", &[B, B, B], I),
    form("bytealign", &[B, B, B], I),
];

impl AluForm {
    /// Its table row.
    pub fn row(&self) -> Option<&'static table::Row> {
        table::by_mnemonic(self.mnemonic)
    }

    /// Its control bits, or why the row does not take its fields.
    pub fn control(&self) -> Result<u16, String> {
        let row = self
            .row()
            .ok_or_else(|| format!("{}: no such mnemonic", self.mnemonic))?;
        self.fields.iter().try_fold(0, |c, &(name, v)| {
            let field = row
                .fields
                .iter()
                .find(|f| f.name == name && f.valid(v) && u32::from(v) < 1 << f.width)
                .ok_or_else(|| format!("{}: no field {name:?} holding {v}", self.mnemonic))?;
            Ok(field.set(c, v))
        })
    }

    /// A random instance of the form.
    pub(super) fn random(&self, rng: &mut ChaCha8Rng, pools: &Pools) -> Option<Inst> {
        let mut inst = Inst::new(self.row()?.value);
        inst.control = self.control().ok()?;
        inst.dst.push(dst(rng, self.dst));
        inst.src = self.srcs.iter().map(|&t| source(rng, t, pools)).collect();
        Some(inst)
    }
}

/// The form an instruction is an instance of.
pub fn form_of(inst: &Inst) -> Option<&'static AluForm> {
    ALU_FORMS
        .iter()
        .find(|f| f.row().is_some_and(|r| r.value == inst.op) && f.control() == Ok(inst.control))
}

/// A random form.
pub(super) fn pick(rng: &mut ChaCha8Rng) -> &'static AluForm {
    &ALU_FORMS[rng.gen_range(0..ALU_FORMS.len())]
}
