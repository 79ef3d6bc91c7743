//! What the lifter reads before lifting: the declarations (which must precede every use,
//! L4048, L4103, L4222) and the temps the program names.
//!
//! - `dcl_literal l#, x, y, z, w` defines literal `l#` once (L4220-L4251).
//! - `dcl_cb cb#[n]` declares constant buffer `#` (0-14) of `n` elements (L4048-L4080). Its
//!   immediate form (the primary modifier) gives the immediate constant buffer `icb` its `n`
//!   dwords (L4060); the form names no buffer number, so a program has one.
//! - `def c#|i#, x, y, z, w` and `defb b#, v` (L4883, L4933) give a float, integer or
//!   boolean constant the value it holds "when the shader is executed", once per register.
//! - `dcl_indexed_temp_array x#[n]` declares an array of `n` temps (L4103-L4120).
//! - The memory declarations (UAVs, SRVs, LDS, GDS) go to `mem::decl::Resources`.
//! - Temps: the highest `r#` any operand names, index sources included, sizes the `r` file;
//!   a program using more than 4096 temps and indexed temp elements is refused.

use super::mem::decl::{is_memory_declaration, Resources};
use super::{refusal, LiftError, LiftErrorKind};
use crate::inst::{Dim2, Index, Inst, Program, Reg, Src};
use crate::table::op;
use crate::token::RegType;
use std::collections::{BTreeMap, HashMap};

/// Temps a program may use, indexed ones included ("DX10 limits the total storage for temps
/// (indexed plus non-indexed) to be <= 4096 registers", L4107).
const MAX_TEMPS: u64 = 4096;

/// What the declarations say.
#[derive(Debug, Default)]
pub(super) struct Decls {
    /// Literal components by literal number.
    pub literals: HashMap<u32, [u32; 4]>,
    /// Declared elements of each constant buffer.
    pub const_buffers: BTreeMap<u32, u32>,
    /// Elements of each indexed temp array.
    pub arrays: BTreeMap<u32, u32>,
    /// The UAV, SRV, LDS and GDS ids.
    pub res: Resources,
    /// Temps `r0`..`r(temps - 1)`.
    pub temps: u32,
    /// The index of `endmain`, or of `end` when there is none: where main stops.
    pub main_end: usize,
    /// `def` values of the float constants `c#` and the integer constants `i#`.
    pub floats: HashMap<u32, [u32; 4]>,
    pub ints: HashMap<u32, [u32; 4]>,
    /// `defb` values of the boolean constants `b#`.
    pub bools: HashMap<u32, bool>,
    /// The immediate constant buffer's dwords.
    pub icb: Option<Vec<u32>>,
}

pub(super) fn declarations(program: &Program, pcs: &[u64]) -> Result<Decls, LiftError> {
    let mut d = Decls::default();
    let mut end = None;
    let mut temps = 0u64;
    for (i, inst) in program.code.iter().enumerate() {
        let bad = |why: String| refusal(LiftErrorKind::Invalid, pcs[i], inst, why);
        if let Some(n) = highest_temp_of(inst) {
            temps = temps.max(u64::from(n) + 1);
        }
        let Some(row) = inst.row() else { continue };
        match row.mnemonic {
            "dcl_literal" => {
                let (num, value) = match (&inst.src[..], &inst.extra[..]) {
                    ([s], &[x, y, z, w]) if s.reg.ty == RegType::LITERAL => {
                        (s.reg.num, [x, y, z, w])
                    }
                    _ => {
                        return Err(bad(
                            "a literal declaration names one l# and four values".into()
                        ))
                    }
                };
                if d.literals.insert(num, value).is_some() {
                    return Err(bad(format!(
                        "l{num} is declared twice (L4222: defined once)"
                    )));
                }
            }
            "dcl_cb" if inst.pri.is_some() => {
                if d.icb.is_some() {
                    return Err(bad(
                        "a second immediate constant buffer (dcl_cb's immediate form names no \
                         buffer, L4060)"
                            .into(),
                    ));
                }
                d.icb = Some(inst.extra.clone());
            }
            "def" | "defb" => constant(&mut d, inst).map_err(bad)?,
            "dcl_cb" => {
                let (num, n) = sized(inst, RegType::CONST_BUFF)
                    .ok_or_else(|| bad("dcl_cb declares one cb#[n]".into()))?;
                if num >= super::state::CONST_BUFFERS {
                    return Err(bad(format!(
                        "cb{num}: constant buffers are cb0-cb14 (L4054)"
                    )));
                }
                d.const_buffers.insert(num, n);
            }
            "dcl_indexed_temp_array" => {
                let (num, n) = sized(inst, RegType::ITEMP)
                    .ok_or_else(|| bad("dcl_indexed_temp_array declares one x#[n]".into()))?;
                if d.arrays.insert(num, n).is_some() {
                    return Err(bad(format!("x{num} is declared twice")));
                }
            }
            m if is_memory_declaration(m) => d
                .res
                .declare(row, inst)
                .map_err(|(kind, why)| refusal(kind, pcs[i], inst, why))?,
            _ => {}
        }
        if end.is_none() && (inst.op == op::END || row.mnemonic == "endmain") {
            end = Some(i);
        }
    }
    check_temps(&d, temps)?;
    d.temps = temps as u32;
    d.main_end = end.ok_or_else(|| {
        LiftError::invalid(
            pcs.last().copied().unwrap_or(0),
            "",
            "the program has no end (L3742: end must be its last instruction)",
        )
    })?;
    Ok(d)
}

/// Refuses a program whose `temps` temps and indexed temp arrays pass [`MAX_TEMPS`].
pub(super) fn check_temps(d: &Decls, temps: u64) -> Result<(), LiftError> {
    let total = d.arrays.values().fold(temps, |n, &len| n + u64::from(len));
    if total > MAX_TEMPS {
        return Err(LiftError::unsupported(
            0,
            "",
            format!(
                "{total} temps, indexed ones included: more than DX10's {MAX_TEMPS} (L4107), \
                 the most the lift takes"
            ),
        )
        .at("program"));
    }
    Ok(())
}

/// Records a `def` or `defb` (L4883-L4960): one plain destination of the constant type the
/// instruction defines, once per register.
fn constant(d: &mut Decls, inst: &Inst) -> Result<(), String> {
    let [dst] = &inst.dst[..] else {
        return Err("a definition names one register".into());
    };
    let reg = &dst.reg;
    if dst.modifier.is_some() || reg.index != Index::None || reg.dim2.is_some() {
        return Err("a definition's register takes no modifier or index (L4893)".into());
    }
    let num = reg.num;
    let fresh = match (&inst.extra[..], reg.ty) {
        (&[x, y, z, w], RegType::CONST_FLOAT) => d.floats.insert(num, [x, y, z, w]).is_none(),
        (&[x, y, z, w], RegType::CONST_INT) => d.ints.insert(num, [x, y, z, w]).is_none(),
        (&[v], RegType::CONST_BOOL) => d.bools.insert(num, v != 0).is_none(),
        _ => {
            return Err(
                "def defines a c# or i# with four values, defb a b# with one (L4883, L4933)".into(),
            )
        }
    };
    if fresh {
        Ok(())
    } else {
        Err(format!(
            "{}{num} is defined twice (L4887: once per register)",
            reg.ty.name(true)
        ))
    }
}

/// The register number and size of a declaration's `x#[n]` or `cb#[n]` source.
fn sized(inst: &Inst, ty: RegType) -> Option<(u32, u32)> {
    match &inst.src[..] {
        [Src { reg, .. }] if reg.ty == ty && reg.dim2.is_none() => match reg.index {
            Index::Imm(n) => Some((reg.num, n)),
            _ => None,
        },
        _ => None,
    }
}

/// The highest temp `inst` names: its operands', their index sources', and the rows past
/// its matrix operand of a matrix macro (`alu::matrix`: `det` and `transpose` read src0 to
/// src0+3, `mmul` src1 to src1+3, `transpose` writes dst to dst+3).
pub(super) fn highest_temp_of(inst: &Inst) -> Option<u32> {
    let mut max = None;
    for r in inst
        .dst
        .iter()
        .map(|d| &d.reg)
        .chain(inst.src.iter().map(|s| &s.reg))
    {
        highest_temp(r, &mut max);
    }
    let matrix = match inst.row().map(|r| r.mnemonic) {
        Some("det") => [inst.src.first().map(|s| &s.reg), None],
        Some("mmul") => [inst.src.get(1).map(|s| &s.reg), None],
        Some("transpose") => [
            inst.src.first().map(|s| &s.reg),
            inst.dst.first().map(|d| &d.reg),
        ],
        _ => [None, None],
    };
    for r in matrix.into_iter().flatten() {
        if r.ty == RegType::TEMP {
            let last = r.num.saturating_add(3);
            max = Some(max.map_or(last, |m: u32| m.max(last)));
        }
    }
    max
}

/// Raises `max` to the highest temp `r` and its index sources name.
pub(super) fn highest_temp(r: &Reg, max: &mut Option<u32>) {
    if r.ty == RegType::TEMP {
        *max = Some(max.map_or(r.num, |m| m.max(r.num)));
    }
    if let Index::Rel(x, _) = &r.index {
        highest_temp(&x.reg, max);
    }
    if let Some(Dim2::Rel(x, _)) = &r.dim2 {
        highest_temp(&x.reg, max);
    }
}
