//! Pixel-shader programs (`il_ps`) run as CAL ran them for computation: one invocation per
//! point of a two-dimensional domain, results written through UAVs or `g[]` ("Both pixel and
//! compute shaders can reference memory; DX11 calls this UAV memory", L3271).
//!
//! # The domain and `vWinCoord0`
//! The launch gives a pixel shader the cells of a compute launch ([`super::state`]'s "Pixel
//! shaders"): the domain is the grid, a tile of the domain is a work-group, so the domain
//! position of a lane is its absolute id `vThreadGrpId * size + vTidInGrp` (`regs`).
//! `vWinCoord0` (5.58, L2309-L2323; `IL_REGTYPE_WINCOORD`) reads:
//! - x, y: "the X and Y position of the pixel in the domain of execution" (L2319), as floats:
//!   the position converted to f32 (round to nearest even; exact below 2^24), plus 0.5
//!   ("pixel centers are offset by (0.5f,0.5f) from integer locations", `centered` = 0,
//!   L4649, L4651), rounded to nearest even (exact below 2^23). With `centered` = 1 "pixel
//!   centers are at integer locations" (L4650, L4652) and nothing is added. With `invert` "the
//!   compiler inverts (multiplies by -1) the y coordinate" (L4646): y is negated after the
//!   centre offset, which gives the seed's combined rule for bias (L4620: "when invert is set,
//!   add 0.5 to bias.x and -0.5 to bias.y").
//! - z: "the Z coordinate of the pixel in window space" and w: "W" (L2319; the seed also
//!   says the register has 2 components, L2315). A domain has no primitive, so the seed gives
//!   them no value; the lift's choice is z = 0.0 and w = 1.0 (a point at depth 0 with the
//!   w of an unprojected position). Components a declaration leaves out
//!   (`vWinCoord0.xy__`) read the same values: real CAL programs read `vWinCoord0` whole
//!   (CALDGEMM's `sample_resource(0) r0, vWinCoord0`, il_sources.md §2).
//!
//! The declaration is `dcl_input_pos... vWinCoord0` (the window coordinate's usage is
//! `IL_IMPORTUSAGE_POS`, L4159) or `dclpi ... vWinCoord0` (L4602); it must precede every use
//! (L2321), once (L4610: "at most one DCLPI per register"; L4626: not both). Its
//! interpolation mode and `center` bit choose among sample positions of a multisampled pixel
//! (L4637), which a domain does not have: they change nothing.
//!
//! # Refused in a pixel shader (a [`LiftError`] naming the instruction)
//! Invalid programs: the compute-only registers (`vTidInGrp` L2203, `vTidInGrpFlat` L2231,
//! `vAbsTid` L1373, `vAbsTidFlat` L1400, `vThreadGrpId` L2150, `vThreadGrpIdFlat` L2181) and
//! declarations (`dcl_num_thread_per_group` L4341, `dcl_max_thread_per_group` L4281); LDS
//! (L3270: "LDS references can be used only in compute shaders"); `fence_threads` (L5271);
//! `vWinCoord` other than `vWinCoord0`, indexed, written, declared twice or read before its
//! declaration. Unsupported: the pixel outputs (`dcl_output`, `o#`, `oC#`, `oDepth`, ...: a
//! domain launch binds no render target; results go through UAVs or `g[]`), the interpolated
//! inputs (`dcl_input`/`dclpi`/`dclpin` of anything but `vWinCoord0`, `v#`, `vT#`, `vFace`,
//! ...: a domain draws no primitive to interpolate), the viewport bias of `vWinCoord0`
//! (`bias`, L4642: constants a domain launch does not have), derivatives (`dsx`, `dsy`: the
//! lift has no pixel quads) and `discard_logicalz`/`discard_logicalnz`: the seed discards
//! the pixel's output writes and lets it run on (L5137-L5139); outputs are refused, and what
//! a discarded pixel's UAV writes do the seed does not say.

use super::regs::{fop, ONE};
use super::{refusal, LiftError, LiftErrorKind, Lifter, F32_MODE};
use crate::inst::{Dim2, Index, Inst, Program, Reg};
use crate::token::{RegType, Version};
use wavejit_ir::{Op, ScalarType, Value};

use ScalarType::{F32, I32};

use LiftErrorKind::{Invalid, Unsupported};

/// A pixel shader's declarations, read before lifting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Pixel {
    /// `vWinCoord0`'s declaration, if the program has one.
    pub win: Option<WinCoord>,
}

/// The declaration of `vWinCoord0`: its `centered` and `invert` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WinCoord {
    pub centered: bool,
    pub invert: bool,
}

/// `ILImportUsage` `pos`, the window coordinate's usage in `dcl_input` (L4159).
const USAGE_POS: u16 = 0;

/// What a register type is to a pixel shader.
enum Class {
    /// The compute-only registers and where the seed says so.
    Compute(u32),
    Output,
    Input,
    WinCoord,
    Other,
}

fn class(ty: RegType) -> Class {
    match ty.value() {
        41 => Class::Compute(2203),
        42 => Class::Compute(2231),
        43 => Class::Compute(1373),
        44 => Class::Compute(1400),
        45 => Class::Compute(2150),
        46 => Class::Compute(2181),
        22 => Class::WinCoord,
        // OUTPUT, PCOLOR, DEPTH, STENCIL, CLIP, OMASK, PS_OUT_FOG, DEPTH_LE, DEPTH_GE
        // (ILRegType, L14031-L14110).
        34 | 25..=28 | 36 | 39 | 56 | 57 => Class::Output,
        // INPUT, PINPUT, INTERP, FOG, TEXCOORD, PRICOLOR, SECCOLOR, SPRITECOORD, FACE,
        // PRIMCOORD, INPUT_COVERAGE_MASK.
        33 | 12 | 15..=21 | 23 | 58 => Class::Input,
        _ => Class::Other,
    }
}

/// Reads a pixel shader's declarations and refuses what it cannot run (see the module doc);
/// `None` for a compute program.
pub(super) fn scan(
    program: &Program,
    pcs: &[u64],
    macro_pcs: &[u64],
) -> Result<Option<Pixel>, LiftError> {
    if program.version.shader != Version::PIXEL {
        return Ok(None);
    }
    let mut pixel = Pixel::default();
    for (inst, &pc) in program.code.iter().zip(pcs) {
        let e = |kind, why: String| refusal(kind, pc, inst, why);
        if let Some(win) = declaration(inst).map_err(|(k, why)| e(k, why))? {
            if pixel.win.is_some() {
                return Err(e(
                    Invalid,
                    "vWinCoord0 is declared twice (L4610: at most one DCLPI per register)".into(),
                ));
            }
            pixel.win = Some(win);
            continue;
        }
        check(inst, pixel.win.is_some()).map_err(|(k, why)| e(k, why))?;
    }
    // A macro's body precedes the code (L13195): it may read what main declares.
    for (inst, &pc) in program.macros.iter().zip(macro_pcs) {
        check(inst, pixel.win.is_some()).map_err(|(k, why)| refusal(k, pc, inst, why))?;
    }
    Ok(Some(pixel))
}

type Refusal = (LiftErrorKind, String);

/// `vWinCoord0`'s declaration if `inst` is one; an input declaration of anything else is
/// refused.
fn declaration(inst: &Inst) -> Result<Option<WinCoord>, Refusal> {
    let Some(row) = inst.row() else {
        return Ok(None);
    };
    if !matches!(
        row.mnemonic,
        "dcl_input" | "dclpi" | "dclpin" | "dclpp" | "dclpt"
    ) {
        return Ok(None);
    }
    let reg = inst.dst.first().map(|d| &d.reg);
    let Some(reg) = reg.filter(|r| matches!(class(r.ty), Class::WinCoord)) else {
        return Err((
            Unsupported,
            format!(
                "{}: interpolated pixel inputs are not modelled (a domain launch draws no \
                 primitive to interpolate; a pixel shader's position is vWinCoord0)",
                row.name
            ),
        ));
    };
    win_register(reg)?;
    let flag = |name| row.field(name).is_some_and(|f| f.get(inst.control) != 0);
    match row.mnemonic {
        "dcl_input" => {
            let usage = row.field("").map_or(0, |f| f.get(inst.control));
            if usage != USAGE_POS {
                let name = crate::table::enums::USAGE
                    .get(usize::from(usage))
                    .unwrap_or(&"?");
                return Err((
                    Unsupported,
                    format!(
                        "vWinCoord0 declared with usage {name}: the window coordinate's is pos \
                         (L4159)"
                    ),
                ));
            }
        }
        "dclpi" => {}
        _ => {
            return Err((
                Invalid,
                format!(
                    "{} does not declare vWinCoord (L4602: dclpi does)",
                    row.name
                ),
            ))
        }
    }
    if flag("bias") {
        return Err((
            Unsupported,
            "vWinCoord0 with bias: the viewport bias constants SC_CONS_SRC_VIEWPORT_BIAS_{X,Y} \
             (L4642) are not part of a domain launch"
                .into(),
        ));
    }
    Ok(Some(WinCoord {
        centered: flag("centered"),
        invert: flag("invert"),
    }))
}

/// Refuses `reg` as a window coordinate register unless it is the plain `vWinCoord0`.
fn win_register(reg: &Reg) -> Result<(), Refusal> {
    if reg.num != 0 {
        return Err((
            Invalid,
            format!(
                "vWinCoord{}: a shader has one window coordinate register, vWinCoord0 (5.58)",
                reg.num
            ),
        ));
    }
    if reg.index != Index::None || reg.dim2.is_some() {
        return Err((
            Invalid,
            "vWinCoord0 \"cannot be used with relative addressing\" (L2323)".into(),
        ));
    }
    Ok(())
}

/// Refuses an instruction of a pixel shader that is not a declaration of `vWinCoord0` (see
/// the module doc); `declared`: `vWinCoord0`'s declaration precedes it.
fn check(inst: &Inst, declared: bool) -> Result<(), Refusal> {
    let Some(row) = inst.row() else {
        return Ok(());
    };
    let why = match row.mnemonic {
        _ if row.category == "memory_lds" => Some((
            Invalid,
            "LDS in a pixel shader (L3270: LDS references can be used only in compute shaders)",
        )),
        "dcl_num_thread_per_group" | "dcl_max_thread_per_group" => Some((
            Invalid,
            "a work-group declaration in a pixel shader (L4341, L4281: used only in a compute \
             shader)",
        )),
        "fence"
            if row
                .field("threads")
                .is_some_and(|f| f.get(inst.control) != 0) =>
        {
            Some((
                Invalid,
                "fence_threads in a pixel shader (L5271: used only in a compute shader)",
            ))
        }
        "dcl_output" => Some((
            Unsupported,
            "pixel outputs are not modelled: a domain launch binds no render target (write \
             results through a UAV or g[])",
        )),
        "dsx" | "dsy" => Some((
            Unsupported,
            "derivatives across a pixel quad are not modelled (the lift has no quads)",
        )),
        "discard_logicalz" | "discard_logicalnz" => Some((
            Unsupported,
            "discard: the seed discards the pixel's output writes and lets it run on \
             (L5137-L5139); outputs are not modelled, and what a discarded pixel's UAV writes \
             do the seed does not say",
        )),
        _ => None,
    };
    if let Some((kind, why)) = why {
        return Err((kind, format!("{}: {why}", row.name)));
    }
    let dsts = inst.dst.iter().map(|d| (&d.reg, true));
    for (reg, written) in dsts.chain(inst.src.iter().map(|s| (&s.reg, false))) {
        check_reg(reg, written, declared)?;
    }
    Ok(())
}

/// Refuses a register of a pixel shader's operand (and its index sources) that it cannot use.
fn check_reg(reg: &Reg, written: bool, declared: bool) -> Result<(), Refusal> {
    let name = if reg.ty.numbered() {
        format!("{}{}", reg.ty.name(written), reg.num)
    } else {
        reg.ty.name(written).to_string()
    };
    match class(reg.ty) {
        Class::Compute(line) => {
            return Err((
                Invalid,
                format!(
                    "{name} in a pixel shader (L{line}: used only in a compute shader); a pixel \
                     shader's position is vWinCoord0"
                ),
            ))
        }
        Class::Output => {
            return Err((
                Unsupported,
                format!(
                    "{name}: pixel outputs are not modelled, a domain launch binds no render \
                     target (write results through a UAV or g[])"
                ),
            ))
        }
        Class::Input => {
            return Err((
                Unsupported,
                format!(
                    "{name}: interpolated pixel inputs are not modelled (a domain launch draws \
                     no primitive to interpolate)"
                ),
            ))
        }
        Class::WinCoord => {
            win_register(reg)?;
            if written {
                return Err((
                    Invalid,
                    "vWinCoord0 is read-only (L2323: it cannot be a destination)".into(),
                ));
            }
            if !declared {
                return Err((
                    Invalid,
                    "vWinCoord0 is used before its declaration (L2321: dclpi or dcl_input)".into(),
                ));
            }
        }
        Class::Other => {}
    }
    if let Index::Rel(x, _) = &reg.index {
        check_reg(&x.reg, false, declared)?;
    }
    if let Some(Dim2::Rel(x, _)) = &reg.dim2 {
        check_reg(&x.reg, false, declared)?;
    }
    Ok(())
}

impl Lifter<'_> {
    /// Whether `m` is a pixel shader's declaration of `vWinCoord0`, which lifts to nothing
    /// (the scan has read it).
    pub(super) fn is_pixel_declaration(&self, m: &str) -> bool {
        self.plan.pixel.is_some() && matches!(m, "dcl_input" | "dclpi")
    }

    /// Component `comp` of `vWinCoord0` (see the module doc).
    pub(super) fn win_coord(&mut self, comp: u32) -> Result<Value, LiftError> {
        let Some(pixel) = self.plan.pixel else {
            return Err(self.unsupported(
                "vWinCoord: a pixel shader's window position (5.58, L2319); a compute program \
                 has none",
            ));
        };
        let Some(win) = pixel.win else {
            return Err(self.invalid("vWinCoord0 is used without its declaration (L2321)"));
        };
        if comp >= 2 {
            return Ok(self.b.i32(if comp == 2 { 0 } else { ONE }));
        }
        let at = self.thread_id(RegType::ABSOLUTE_THREAD_ID, comp);
        let b = &mut self.b;
        let f = b.op_mode(Op::UtoF, F32_MODE, F32, &[at]);
        let mut v = b.op(Op::Bitcast, I32, &[f]);
        if !win.centered {
            let half = b.i32(0.5f32.to_bits());
            v = fop(b, Op::Fadd, &[v, half]);
        }
        if comp == 1 && win.invert {
            v = fop(b, Op::Fneg, &[v]);
        }
        Ok(v)
    }
}
