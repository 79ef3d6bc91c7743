//! AMD APP SDK / Catalyst OpenCL kernel binaries ("OpenCL 1.1 AMD-APP (923.1)") behind the one
//! frontend interface: the outer ELF32 of a program, whose kernels each carry an AMD IL
//! encoding and an ISA encoding ([`wavejit_amdil::appsdk`]), run under the driver's launch ABI
//! ([`launch`]; ../shared/notes/amd_appsdk_binaries.md §3).
//!
//! `--kernel` takes the OpenCL name (`binarySearch`). What each encoding does today:
//! - Southern Islands ISA (tahiti, ... hainan; all GCN gfx6): `info`, `disasm` (the project's
//!   GCN syntax), `run` and `wave`; the ISA bytes are lifted by the GCN lifter for gfx6 and the
//!   waves start as [`launch`] says.
//! - Evergreen ISA (cypress): `info`, `disasm` (TeraScale syntax), `run` and `wave`; the ISA
//!   bytes are lifted by the TeraScale lifter under the bindings of AMD's driver
//!   (`evergreen.rs`).
//! - The IL encoding (`--encoding il`: [`Module::select_encoding`], or [`load_encoding`] with
//!   [`EncodingKind::Il`]): `disasm` prints IL text; `run` and `wave` run it through the IL
//!   lifter under the driver's convention for it ([`il`]).
//!
//! Kernels that take images or samplers stop with an error naming the argument: the GCN lifter
//! has no texture unit.
//!
//! Every pc wavejit reports is a byte offset from the kernel's ISA entry (guest address 0), as
//! `wavejit disasm` prints it.

mod evergreen;
mod il;
pub mod launch;

use crate::frontend::{Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use std::fmt::Write;
use std::path::Path;

use wavejit_amdil::appsdk::proginfo::SiProgramInfo;
use wavejit_amdil::appsdk::{
    self, ArgKind, Binary, Chip, EncodingKind, Family, Kernel, LoadError, ProgramInfo,
};
use wavejit_gcn::launch::{GcnWaveInit, WaveAddresses, WAVE_SIZE};
use wavejit_gcn::lift::GcnLayout;
use wavejit_gcn::loader::SystemSgprs;
use wavejit_gcn::Gen;
use wavejit_runtime::{Grid, GuestMemory};

/// Guest address of the kernel's first code byte.
const CODE_BASE: u64 = 0;

/// The AMD APP SDK frontend.
pub struct AmdApp;

/// The registry's AMD APP SDK entry.
pub static AMDAPP: AmdApp = AmdApp;

fn target_of(chip: Chip) -> Target {
    Target {
        isa: "amdapp",
        name: chip.name().to_string(),
        // Southern Islands and Evergreen (Cypress) both run 64-lane waves.
        wave_size: WAVE_SIZE,
    }
}

impl Frontend for AmdApp {
    fn name(&self) -> &'static str {
        "amdapp"
    }

    fn target_names(&self) -> &'static [&'static str] {
        &[
            "tahiti",
            "pitcairn",
            "capeverde",
            "oland",
            "hainan",
            "cypress",
        ]
    }

    fn target(&self, name: &str) -> Option<Target> {
        Chip::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
            .map(target_of)
    }

    /// An ELF32 whose `e_machine` is one of the chips of [`appsdk::target`].
    fn sniff(&self, bytes: &[u8]) -> bool {
        Chip::ALL
            .into_iter()
            .any(|c| wavejit_isa::elf::is_elf_for(bytes, false, c.e_machine()))
    }

    fn load(&self, bytes: &[u8], _name: &str, target: Option<&Target>) -> Result<Box<dyn Module>> {
        Ok(Box::new(load_encoding(bytes, EncodingKind::Isa, target)?))
    }

    /// These binaries have no text form.
    fn takes_text(&self, _path: &Path) -> bool {
        false
    }

    fn assemble(&self, path: &Path, _text: &str, _target: &Target) -> Result<Box<dyn Module>> {
        Err(Error::Usage(format!(
            "{}: AMD APP SDK binaries have no text form",
            path.display()
        )))
    }

    fn fuzz(&self, _isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>> {
        None
    }

    fn fuzz_names(&self) -> &'static [&'static str] {
        &[]
    }
}

impl From<LoadError> for Error {
    fn from(e: LoadError) -> Error {
        Error::Load(e.to_string())
    }
}

/// Loads a program binary whose kernels `disasm`, `lift`, `launch` and `wave` through their
/// `encoding`; `target` (an AMD APP SDK chip of the file's family) overrides the file's chip.
pub fn load_encoding(
    bytes: &[u8],
    encoding: EncodingKind,
    target: Option<&Target>,
) -> Result<AppSdkModule> {
    let binary = appsdk::load(bytes)?;
    let chip = match target {
        None => binary.chip,
        Some(t) => {
            let chip = Chip::ALL
                .into_iter()
                .find(|c| c.name() == t.name)
                .ok_or_else(|| Error::Usage(format!("unknown target '{}'", t.name)))?;
            if chip.family() != binary.chip.family() {
                return Err(Error::Usage(format!(
                    "target '{}' cannot run the {} code of this file",
                    t.name,
                    binary.chip.name()
                )));
            }
            chip
        }
    };
    Ok(AppSdkModule {
        target: target_of(chip),
        binary,
        encoding,
    })
}

/// A loaded program binary and the encoding its kernels run as.
pub struct AppSdkModule {
    target: Target,
    binary: Binary,
    encoding: EncodingKind,
}

/// The ISA encoding of a kernel a launch runs.
enum Runnable<'a> {
    Si(SiCode<'a>),
    Evergreen(evergreen::EvergreenCode<'a>),
}

/// The SI ISA encoding of a kernel, with its program information.
struct SiCode<'a> {
    kernel: &'a Kernel,
    info: &'a SiProgramInfo,
}

impl SiCode<'_> {
    fn code(&self) -> &[u8] {
        &self.kernel.isa().text
    }

    /// The kernel as a GCN launch sees it: user SGPRs are given as values
    /// ([`GcnWaveInit::with_user_sgprs`]), so it has no HSA user SGPR slots; the system SGPRs
    /// and work-item id VGPRs are COMPUTE_PGM_RSRC2's.
    fn gcn_kernel(&self, lds_size: u32) -> wavejit_gcn::loader::Kernel {
        let k = self.kernel;
        let r = self.info.pgm_rsrc2;
        wavejit_gcn::loader::Kernel {
            name: k.name.clone(),
            code: self.code().to_vec(),
            code_address: CODE_BASE,
            sgpr_count: self.info.num_sgprs,
            vgpr_count: self.info.num_vgprs,
            lds_size,
            private_segment_size: 0,
            kernarg_size: 0,
            kernarg_align: 16,
            implicit_kernarg_bytes: 0,
            rsrc1: self.rsrc1(),
            rsrc2: r.0,
            float_mode: self.info.float_mode as u8,
            ieee_mode: self.info.ieee_mode != 0,
            dx10_clamp: true,
            user_sgprs: Vec::new(),
            user_sgpr_count: r.user_sgpr() as u8,
            system_sgprs: SystemSgprs {
                workgroup_id: r.tgid_en(),
                workgroup_info: r.tg_size_en(),
                private_segment_wave_offset: r.scratch_en(),
            },
            tidig_comp_cnt: r.tidig_comp_cnt() as u8,
            wavefront_size: WAVE_SIZE,
            args: Vec::new(),
            scratch_relocs: Vec::new(),
            reqd_workgroup_size: k.metadata.cws,
        }
    }

    /// The COMPUTE_PGM_RSRC1 mode fields the PROGINFO gives: FLOAT_MODE `[19:12]`
    /// (SI_FLOAT_MODE), IEEE_MODE `[23]` (SI_IEEE_MODE). The binaries carry no DX10_CLAMP;
    /// `[21]` is set, as every GCN compute driver sets it.
    fn rsrc1(&self) -> u32 {
        (self.info.float_mode & 0xff) << 12 | 1 << 21 | u32::from(self.info.ieee_mode != 0) << 23
    }

    fn lift(&self) -> Result<Lifted> {
        crate::isa::gcn::lift_code(Gen::Gfx6, self.rsrc1(), &self.kernel.name, self.code())
    }
}

impl AppSdkModule {
    fn kernel(&self, name: &str) -> Result<&Kernel> {
        Ok(self.binary.kernel(name)?)
    }

    /// The kernel's code to run under `--encoding isa`: its ISA encoding, or the reason it
    /// cannot run.
    fn runnable(&self, name: &str) -> Result<Runnable<'_>> {
        let kernel = self.kernel(name)?;
        match &kernel.program {
            ProgramInfo::Si(info) => Ok(Runnable::Si(SiCode { kernel, info })),
            ProgramInfo::Evergreen(info) => {
                let chip =
                    wavejit_terascale::Chip::from_name(&self.target.name).ok_or_else(|| {
                        Error::Usage(format!(
                            "kernel {name}: the TeraScale lifter has no chip {}",
                            self.target.name
                        ))
                    })?;
                Ok(Runnable::Evergreen(evergreen::EvergreenCode {
                    kernel,
                    info,
                    chip,
                }))
            }
        }
    }
}

impl Module for AppSdkModule {
    fn target(&self) -> &Target {
        &self.target
    }

    fn describe(&self) -> String {
        describe(&self.binary, &self.target)
    }

    fn kernels(&self) -> Vec<String> {
        self.binary.kernels.iter().map(|k| k.name.clone()).collect()
    }

    fn disassemble(&self, name: &str) -> Result<String> {
        let kernel = self.kernel(name)?;
        let fail = |e: String| Error::Other(format!("kernel {name}: {e}"));
        if self.encoding == EncodingKind::Il {
            return Ok(wavejit_amdil::print::print(&il::program(kernel)?));
        }
        let code = &kernel.isa().text;
        match self.binary.chip.family() {
            Family::SouthernIslands => {
                wavejit_gcn::disassemble(Gen::Gfx6, code).map_err(|e| fail(e.to_string()))
            }
            Family::Evergreen => {
                let class = wavejit_terascale::Chip::Cypress.class();
                let program = wavejit_terascale::decode_program(class, code)
                    .map_err(|e| fail(e.to_string()))?;
                let mut s = String::new();
                for line in wavejit_terascale::print_program(&program) {
                    let _ = writeln!(s, "\t{line}");
                }
                Ok(s)
            }
        }
    }

    fn lift(&self, kernel: &str) -> Result<Lifted> {
        if self.encoding == EncodingKind::Il {
            let k = self.kernel(kernel)?;
            let program = il::program(k)?;
            return Ok(il::code(k, &program, self.target.wave_size).lift()?.0);
        }
        match self.runnable(kernel)? {
            Runnable::Si(si) => si.lift(),
            Runnable::Evergreen(eg) => eg.lift(),
        }
    }

    fn launch(
        &self,
        kernel: &str,
        grid: &Grid,
        args: &[PlacedArg],
        mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        if self.encoding == EncodingKind::Il {
            let k = self.kernel(kernel)?;
            let program = il::program(k)?;
            let code = il::code(k, &program, self.target.wave_size);
            return il::launch(&self.binary, k, &code, grid, args, mem);
        }
        let si = match self.runnable(kernel)? {
            Runnable::Si(si) => si,
            Runnable::Evergreen(eg) => return eg.launch(&self.binary.globals, grid, args, mem),
        };
        let abi = launch::place(si.kernel, si.info, &self.binary.globals, grid, args, mem)?;
        let lifted = si.lift()?;
        let init = GcnWaveInit::new(
            si.gcn_kernel(abi.lds_bytes),
            GcnLayout::new(),
            6,
            WaveAddresses::default(),
        )
        .with_user_sgprs(&abi.user_sgprs);
        Ok(LaunchPlan {
            lifted,
            lds_bytes: abi.lds_bytes,
            private_lane_bytes: 0,
            init: Box::new(init),
            zero_before_dispatch: Vec::new(),
        })
    }

    fn wave(&self, kernel: &str) -> Result<WaveProgram> {
        if self.encoding == EncodingKind::Il {
            let k = self.kernel(kernel)?;
            let program = il::program(k)?;
            return il::code(k, &program, self.target.wave_size).wave();
        }
        let si = match self.runnable(kernel)? {
            Runnable::Si(si) => si,
            Runnable::Evergreen(eg) => return eg.wave(),
        };
        let lifted = si.lift()?;
        let listing = wavejit_gcn::decode_all(Gen::Gfx6, si.code())
            .map_err(|e| Error::Other(format!("kernel {kernel}: {e}")))?
            .into_iter()
            .map(|d| (d.offset as u64, wavejit_gcn::print(&d.inst)))
            .collect();
        Ok(WaveProgram {
            lifted,
            // `wavejit wave` names SI registers as the GCN frontend does: SI code is GCN.
            names: Box::new(crate::isa::gcn::names::GcnNames::new()),
            listing,
            private_lane_bytes: 0,
            lds_bytes: launch::static_lds_bytes(si.kernel, si.info),
        })
    }

    /// `isa` (the default) or `il`, which the binary must carry for some kernel.
    fn select_encoding(&mut self, encoding: &str) -> Result<()> {
        self.encoding = match encoding {
            "isa" => EncodingKind::Isa,
            crate::isa::amdil::ENCODING if self.binary.kernels.iter().any(|k| k.il().is_some()) => {
                EncodingKind::Il
            }
            _ => {
                let mut have = vec!["isa"];
                if self.binary.kernels.iter().any(|k| k.il().is_some()) {
                    have.push(crate::isa::amdil::ENCODING);
                }
                return Err(crate::frontend::no_encoding(encoding, &have));
            }
        };
        Ok(())
    }

    fn takes_local_and_struct_args(&self) -> bool {
        true
    }
}

/// `wavejit info`: the program, then each kernel's encodings, resources, user elements and
/// arguments with where the launch puts them.
fn describe(b: &Binary, target: &Target) -> String {
    let mut s = String::new();
    let family = match b.chip.family() {
        Family::SouthernIslands => "Southern Islands, GCN gfx6",
        Family::Evergreen => "Evergreen, TeraScale 2",
    };
    let _ = writeln!(
        s,
        "target: {} ({family}), AMD APP SDK OpenCL binary{}",
        target.name,
        if target.name == b.chip.name() {
            String::new()
        } else {
            format!(" built for {}", b.chip.name())
        }
    );
    let driver = b
        .comment
        .strip_prefix(&b.compile_options)
        .unwrap_or(&b.comment);
    if !driver.trim().is_empty() {
        let _ = writeln!(s, "compiler: {}", driver.trim());
    }
    if !b.compile_options.trim().is_empty() {
        let _ = writeln!(s, "compile options: {}", b.compile_options.trim());
    }
    for g in &b.globals {
        let _ = writeln!(
            s,
            "program constant buffer cb{}: {} bytes",
            g.cb,
            g.bytes.len()
        );
    }
    for k in &b.kernels {
        describe_kernel(&mut s, k, target.wave_size);
    }
    s
}

fn describe_kernel(s: &mut String, k: &Kernel, wave_size: u32) {
    let _ = writeln!(s, "kernel {}:", k.name);
    let isa = k.isa();
    let _ = write!(
        s,
        "  encodings: ISA {} bytes (machine {})",
        isa.text.len(),
        isa.entry.machine
    );
    match k.il() {
        Some(il) => {
            let _ = writeln!(
                s,
                ", IL {} bytes (machine {})",
                il.text.len(),
                il.entry.machine
            );
        }
        None => s.push('\n'),
    }
    if k.il().is_some() {
        match il::program(k) {
            Ok(program) => il::code(k, &program, wave_size).describe(s, "  "),
            Err(e) => {
                let _ = writeln!(s, "  {e}");
            }
        }
    }
    let m = &k.metadata.memory;
    let private = m.uav_private.or(m.hw_private).unwrap_or(0);
    let _ = writeln!(
        s,
        "  memory: {} bytes static __local (hwlocal), {private} private bytes per work-item",
        m.hw_local
    );
    if let Some([x, y, z]) = k.metadata.cws {
        let _ = writeln!(s, "  required work-group size: {x},{y},{z}");
    }
    match &k.program {
        ProgramInfo::Si(info) => {
            let r = info.pgm_rsrc2;
            let tgid: Vec<&str> = ["x", "y", "z"]
                .into_iter()
                .zip(r.tgid_en())
                .filter(|(_, on)| *on)
                .map(|(d, _)| d)
                .collect();
            let _ = writeln!(
                s,
                "  registers: {} sgprs, {} vgprs; float mode {:#04x}, ieee {}",
                info.num_sgprs, info.num_vgprs, info.float_mode, info.ieee_mode
            );
            let _ = writeln!(
                s,
                "  COMPUTE_PGM_RSRC2 {:#x}: {} user sgprs, group ids {}{}, work-item ids v0..v{}, LDS {} bytes",
                r.0,
                r.user_sgpr(),
                if tgid.is_empty() { "none".to_string() } else { tgid.join(",") },
                if r.tg_size_en() { ", TG_SIZE" } else { "" },
                r.tidig_comp_cnt(),
                r.lds_bytes()
            );
            for e in &info.user_elements {
                let _ = writeln!(
                    s,
                    "  user element {}[{}] -> s[{}:{}]",
                    e.data_class.name(),
                    e.api_slot,
                    e.start_reg,
                    e.start_reg + e.reg_count.max(1) - 1
                );
            }
        }
        ProgramInfo::Evergreen(info) => {
            let _ = writeln!(
                s,
                "  registers: {} gprs, stack {}; SPI_COMPUTE_INPUT_CNTL {:#x}",
                info.num_gprs, info.stack_size, info.compute_input_cntl
            );
        }
    }
    let notes = &k.isa().notes;
    let cbs: Vec<String> = notes
        .constant_buffers
        .iter()
        .map(|c| format!("cb{} {} bytes", c.cb, c.vec4s * 16))
        .collect();
    if !cbs.is_empty() {
        let _ = writeln!(s, "  constant buffers: {}", cbs.join(", "));
    }
    let uavs: Vec<String> = notes.uavs.iter().map(|u| u.id.to_string()).collect();
    if !uavs.is_empty() {
        let _ = writeln!(s, "  uavs: {}", uavs.join(", "));
    }
    for (i, a) in k.metadata.args.iter().enumerate() {
        let what = match &a.kind {
            ArgKind::Value { ty, width } if *width > 1 => format!("value {}x{width}", ty.name()),
            ArgKind::Value { ty, .. } => format!("value {}", ty.name()),
            ArgKind::Struct { size } => format!("struct of {size} bytes"),
            ArgKind::Pointer(p) => match p.space {
                appsdk::AddressSpace::Global => format!(
                    "global pointer, uav {}: byte offset in the UAV arena",
                    p.resource_id
                ),
                appsdk::AddressSpace::Constant => {
                    format!("constant pointer, cb{}", p.resource_id)
                }
                appsdk::AddressSpace::Local => {
                    "local pointer: LDS byte offset (give local:N)".to_string()
                }
            },
            ArgKind::Image(im) => format!("image {} (not supported)", im.dim),
            ArgKind::Sampler { id } => format!("sampler {id} (not supported)"),
            ArgKind::Counter { bits, .. } => format!("counter{bits} (not supported)"),
        };
        let _ = writeln!(
            s,
            "  arg {i}: cb{}+{:<3} {} bytes, {} {}: {what}",
            a.slot.cb, a.slot.offset, a.size, a.cl_type, a.name
        );
    }
}
