//! An IL program as wavejit runs it, whichever file it came from (an IL file, or the IL
//! encoding of an AMD OpenCL binary): lifted for the target's waves, listed, described, run
//! as one wave, and launched once a launch convention has bound its constant buffers.

use crate::frontend::{LaunchPlan, Lifted, WaveProgram};
use crate::launch::mem_err;
use crate::{Error, Result};
use std::fmt::Write;
use std::sync::Arc;
use wavejit_amdil::inst::Program;
use wavejit_amdil::launch::{Declared, IlWaveInit, LDS_LIMIT};
use wavejit_amdil::lift::state::IlLayout;
use wavejit_amdil::table::enums;
use wavejit_runtime::GuestMemory;

/// One kernel's IL program, lifted for waves of `wave_size` lanes.
pub struct IlCode<'a> {
    pub program: &'a Program,
    /// The kernel's name (messages, the lifted function).
    pub name: &'a str,
    pub wave_size: u32,
}

impl IlCode<'_> {
    fn fail(&self, what: impl std::fmt::Display) -> Error {
        Error::Other(format!("kernel {}: {what}", self.name))
    }

    /// The kernel lifted: the function and its state layout (the launch contract's map).
    pub fn lift(&self) -> Result<(Lifted, IlLayout)> {
        let (func, layout) =
            wavejit_amdil::lift::lift_laid_out(self.program, self.name, self.wave_size)
                .map_err(|e| self.fail(e))?;
        wavejit_ir::verify::verify(&func)
            .map_err(|e| self.fail(format!("lifted IR is invalid: {e}")))?;
        // Every instruction that counts is counted in exactly one block.
        let machine_insts = func.blocks.iter().map(|b| b.guest_insts as usize).sum();
        Ok((
            Lifted {
                func: Arc::new(func),
                machine_insts,
            },
            layout,
        ))
    }

    /// The declarations a launch reads.
    pub fn declared(&self) -> Result<Declared> {
        wavejit_amdil::launch::declared(self.program).map_err(|e| self.fail(e))
    }

    /// (pc, IL text) of every instruction, the macro bodies' included: pcs are byte offsets
    /// in the token stream.
    pub fn listing(&self) -> Result<Vec<(u64, String)>> {
        let (code, macros) =
            wavejit_amdil::lift::offsets(self.program).map_err(|e| self.fail(e))?;
        let p = self.program;
        Ok(macros
            .into_iter()
            .zip(&p.macros)
            .chain(code.into_iter().zip(&p.code))
            .map(|(pc, inst)| (pc, wavejit_amdil::print::print_inst(inst)))
            .collect())
    }

    /// The kernel as one wave run alone (`wavejit wave`).
    pub fn wave(&self) -> Result<WaveProgram> {
        let (lifted, layout) = self.lift()?;
        let declared = self.declared()?;
        Ok(WaveProgram {
            lifted,
            private_lane_bytes: layout.bindings.private_lane_bytes,
            names: Box::new(super::names::IlNames::new(layout)),
            listing: self.listing()?,
            lds_bytes: declared.lds_bytes.min(LDS_LIMIT),
        })
    }

    /// The launch plan once the convention has placed its data: the constant buffers it binds
    /// ((number, guest address), each already checked by [`place_const_buffers`]), the arena's
    /// address and the work-group's LDS bytes. Private UAVs get the lanes' private memory;
    /// typed and structured UAVs, SRVs and the GDS are refused: OpenCL's convention binds raw
    /// UAVs, the arena and the LDS only, so nothing would give them their place.
    pub fn plan(
        &self,
        const_buffers: Vec<(u32, u64)>,
        arena: u64,
        lds_bytes: u32,
    ) -> Result<LaunchPlan> {
        let (lifted, layout) = self.lift()?;
        if let Some(view) = layout.bindings.views.first() {
            return Err(self.fail(format!(
                "the program declares {view}, which the OpenCL convention does not bind (it \
                 binds raw UAVs, the arena and the LDS)"
            )));
        }
        Ok(LaunchPlan {
            lifted,
            lds_bytes,
            private_lane_bytes: layout.bindings.private_lane_bytes,
            init: Box::new(IlWaveInit {
                layout,
                const_buffers,
                arena,
            }),
            zero_before_dispatch: Vec::new(),
        })
    }

    /// `wavejit info`'s lines about the program, each indented by `indent`.
    pub fn describe(&self, s: &mut String, indent: &str) {
        let v = &self.program.version;
        let shader = enums::SHADER.get(usize::from(v.shader)).unwrap_or(&"?");
        let _ = writeln!(
            s,
            "{indent}IL: il_{shader}_{}_{}, {} instructions, {} macro instructions",
            v.major,
            v.minor,
            self.program.code.len(),
            self.program.macros.len()
        );
        match self.declared() {
            Ok(d) => {
                let cbs: Vec<String> = d
                    .const_buffers
                    .iter()
                    .map(|(cb, n)| format!("cb{cb}[{n}]"))
                    .collect();
                let _ = writeln!(
                    s,
                    "{indent}IL declares: constant buffers {}; LDS {} bytes; {}",
                    if cbs.is_empty() {
                        "none".into()
                    } else {
                        cbs.join(", ")
                    },
                    d.lds_bytes,
                    match (d.group_size, d.max_group_items) {
                        (Some([x, y, z]), _) => format!("work-groups of {x},{y},{z}"),
                        (None, Some(n)) => format!("work-groups of at most {n} work-items"),
                        (None, None) => "any work-group size".into(),
                    }
                );
            }
            Err(e) => {
                let _ = writeln!(s, "{indent}IL declarations: {e}");
            }
        }
        match self.lift() {
            Ok((lifted, layout)) => {
                let _ = writeln!(
                    s,
                    "{indent}IL lifts: {} temps, {} guest instructions",
                    layout.temps, lifted.machine_insts
                );
            }
            Err(e) => {
                let e = e.to_string();
                let prefix = format!("kernel {}: ", self.name);
                let why = e.strip_prefix(&prefix).unwrap_or(&e);
                let _ = writeln!(s, "{indent}IL does not lift: {why}");
            }
        }
    }
}

/// Places the constant buffers the program declares in guest memory and returns their
/// (number, address): `given` holds the launch's buffers by number (bytes); each declared
/// buffer must be given, and gets at least its declared `16 * n` bytes (zero beyond what is
/// given), as the lift's launch contract asks. Buffers the program does not declare are not
/// placed: no instruction can read them.
pub fn place_const_buffers(
    kernel: &str,
    declared: &Declared,
    given: &[(u32, Vec<u8>)],
    mem: &mut GuestMemory,
) -> Result<Vec<(u32, u64)>> {
    let mut out = Vec::new();
    for (&cb, &elements) in &declared.const_buffers {
        let Some((_, bytes)) = given.iter().find(|(n, _)| *n == cb) else {
            let bound: Vec<String> = given.iter().map(|(n, _)| format!("cb{n}")).collect();
            return Err(Error::Usage(format!(
                "kernel {kernel}: the program declares cb{cb}, which the launch does not bind (it binds {})",
                if bound.is_empty() { "none".into() } else { bound.join(", ") }
            )));
        };
        let mut data = bytes.clone();
        let want = 16 * elements as usize;
        if data.len() < want {
            data.resize(want, 0);
        }
        // A buffer of no bytes still gets an address of its own.
        if data.is_empty() {
            data.resize(16, 0);
        }
        let addr = mem
            .alloc_bytes(&data, crate::launch::BUFFER_ALIGN)
            .map_err(mem_err)?;
        out.push((cb, addr));
    }
    Ok(out)
}
