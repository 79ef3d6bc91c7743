//! AMD GCN (gfx6-gfx9) behind the one frontend interface: HSA v4 and legacy `amdgcn--` code
//! objects ([`wavejit_gcn::loader`]) and LLVM-syntax `.s` files ([`asm`]), launched under the
//! conventions of README.md ("Command line", "Assembly files").
//!
//! Every pc wavejit reports (faults, fuel, timeouts, `s_getpc_b64` results) is a byte offset
//! from the kernel's entry, as `wavejit disasm` prints it: the kernel is placed at guest
//! address `CODE_BASE` = 0 whatever its address in the file.

pub mod asm;
pub mod fuzz;
pub mod names;

use crate::frontend::{BenchKernel, Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::{mem_err, PlacedArg};
use crate::{Error, Result};
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;
use wavejit_gcn::launch::{self, ArgValue, GcnWaveInit, WaveAddresses};
use wavejit_gcn::lift::{lift, GcnLayout, LiftConfig};
use wavejit_gcn::loader::{self, Abi, ArgKind, CodeObject, Kernel};
use wavejit_gcn::Gen;
use wavejit_runtime::{Grid, GuestMemory};

/// Guest address of the kernel's first code byte.
const CODE_BASE: u64 = 0;

/// The GCN frontend.
pub struct Gcn;

/// The registry's GCN entry.
pub static GCN: Gcn = Gcn;

impl Frontend for Gcn {
    fn name(&self) -> &'static str {
        "gcn"
    }

    fn target_names(&self) -> &'static [&'static str] {
        &[
            "gfx900", "fiji", "tonga", "hawaii", "bonaire", "tahiti", "gfx6", "gfx7", "gfx8",
            "gfx9",
        ]
    }

    fn target(&self, name: &str) -> Option<Target> {
        Gen::from_chip(name).map(|_| Target {
            isa: "gcn",
            name: name.to_ascii_lowercase(),
            wave_size: launch::WAVE_SIZE,
        })
    }

    /// GCN code objects are ELF64 files for `EM_AMDGPU`.
    fn sniff(&self, bytes: &[u8]) -> bool {
        wavejit_isa::elf::is_elf_for(bytes, true, wavejit_isa::elf::EM_AMDGPU)
    }

    fn load(&self, bytes: &[u8], _name: &str, target: Option<&Target>) -> Result<Box<dyn Module>> {
        let object = loader::load(bytes)?;
        let chip = target.map_or(object.target.name, |t| t.name.as_str());
        let gen = Gen::from_chip(chip)
            .ok_or_else(|| Error::Other(format!("no GCN generation for processor {chip}")))?;
        let target = Target {
            isa: "gcn",
            name: chip.to_string(),
            wave_size: launch::WAVE_SIZE,
        };
        Ok(Box::new(GcnModule {
            target,
            gen,
            file: File::Object(object),
        }))
    }

    fn assemble(&self, path: &Path, text: &str, target: &Target) -> Result<Box<dyn Module>> {
        let gen = Gen::from_chip(&target.name)
            .ok_or_else(|| Error::Usage(format!("unknown target '{}'", target.name)))?;
        let file = asm::parse(path, text, gen)?;
        Ok(Box::new(GcnModule {
            target: target.clone(),
            gen,
            file: File::Asm(file),
        }))
    }

    fn fuzz(&self, isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>> {
        fuzz::campaign(isa)
    }

    fn fuzz_names(&self) -> &'static [&'static str] {
        fuzz::FUZZ_NAMES
    }

    fn bench_kernel(&self) -> Option<BenchKernel> {
        Some(BenchKernel {
            chip: "gfx900",
            object: include_bytes!("../../../benches/kernels/alu_heavy.gfx900.hsaco"),
        })
    }
}

/// Where a module's kernels come from.
enum File {
    Object(CodeObject),
    Asm(asm::GcnAsm),
}

/// A loaded GCN file and the generation its code is decoded for.
pub struct GcnModule {
    target: Target,
    gen: Gen,
    file: File,
}

impl GcnModule {
    /// Kernel `name`, launched with `args` (a `.s` kernel's kernarg layout follows them).
    fn kernel(&self, name: &str, args: &[PlacedArg]) -> Result<Kernel> {
        match &self.file {
            File::Object(o) => Ok(o.kernel(name)?.clone()),
            File::Asm(a) => a.kernel(name, args),
        }
    }

    /// Lifts `code` as `kernel`'s code.
    fn lift_code(&self, kernel: &Kernel, code: &[u8]) -> Result<Lifted> {
        lift_code(self.gen, kernel.rsrc1, &kernel.name, code)
    }
}

/// Lifts GCN `code` of generation `gen` (placed at guest address 0) as the kernel `name` with
/// COMPUTE_PGM_RSRC1 `rsrc1`, verified, with its count of machine instructions: for every
/// container of GCN code (code objects, `.s` files, AMD APP SDK binaries).
pub(crate) fn lift_code(gen: Gen, rsrc1: u32, name: &str, code: &[u8]) -> Result<Lifted> {
    let cfg = LiftConfig::from_rsrc1(gen, rsrc1, CODE_BASE, name);
    let fail = |what: String| Error::Other(format!("kernel {name}: {what}"));
    let func = lift(code, &cfg).map_err(|e| fail(e.to_string()))?;
    wavejit_ir::verify::verify(&func).map_err(|e| fail(format!("lifted IR is invalid: {e}")))?;
    let machine_insts = wavejit_gcn::decode_all(gen, code)
        .map(|d| d.len())
        .unwrap_or(0);
    Ok(Lifted {
        func: Arc::new(func),
        machine_insts,
    })
}

impl Module for GcnModule {
    fn target(&self) -> &Target {
        &self.target
    }

    fn describe(&self) -> String {
        match &self.file {
            File::Object(o) => describe_object(o, self.gen),
            File::Asm(a) => a.describe(&self.target.name),
        }
    }

    fn kernels(&self) -> Vec<String> {
        match &self.file {
            File::Object(o) => o.kernels.iter().map(|k| k.name.clone()).collect(),
            File::Asm(a) => a.entries.iter().map(|(n, _)| n.clone()).collect(),
        }
    }

    fn disassemble(&self, kernel: &str) -> Result<String> {
        let k = self.kernel(kernel, &[])?;
        wavejit_gcn::disassemble(self.gen, &k.code)
            .map_err(|e| Error::Other(format!("kernel {kernel}: {e}")))
    }

    fn lift(&self, kernel: &str) -> Result<Lifted> {
        let k = self.kernel(kernel, &[])?;
        self.lift_code(&k, &k.code)
    }

    fn launch(
        &self,
        kernel: &str,
        grid: &Grid,
        args: &[PlacedArg],
        mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        let kernel = self.kernel(kernel, args)?;
        let usage = |e: launch::LaunchError| match e {
            launch::LaunchError::InvalidLaunch(_) => {
                Error::Usage(format!("kernel {}: {e}", kernel.name))
            }
            e => Error::Usage(e.to_string()),
        };
        launch::validate(&kernel, grid).map_err(usage)?;
        let values: Vec<ArgValue> = args.iter().map(|a| a.value()).collect();
        let kernarg_bytes =
            launch::padded_kernarg(launch::build_kernarg(&kernel, grid, &values).map_err(usage)?);
        let kernarg = mem.alloc_bytes(&kernarg_bytes, 256).map_err(mem_err)?;
        let packet = mem
            .alloc(launch::DISPATCH_PACKET_BYTES as u64, 64)
            .map_err(mem_err)?;
        mem.write_bytes(packet, &launch::dispatch_packet(&kernel, grid, 0, kernarg))
            .map_err(mem_err)?;
        let lane_stride = launch::scratch_lane_stride(&kernel);
        let scratch_bytes = grid.wave_slots() * u64::from(grid.wave_size * lane_stride);
        let scratch_base = if scratch_bytes > 0 {
            mem.alloc(scratch_bytes, 256).map_err(mem_err)?
        } else {
            0
        };
        // Allocated last, so the buffers' and scratch's addresses do not depend on it.
        let gds = mem
            .alloc(u64::from(launch::GDS_BYTES), 256)
            .map_err(mem_err)?;
        let gfx = gfx_number(self.gen);
        let code = if kernel.scratch_relocs.is_empty() {
            kernel.code.clone()
        } else {
            launch::relocated_code(
                &kernel,
                launch::scratch_rsrc(gfx, scratch_base, lane_stride),
            )
        };
        let lifted = self.lift_code(&kernel, &code)?;
        let layout = GcnLayout::new();
        let zero_before_dispatch = if lifted.func.reads_file(layout.gds) {
            vec![(gds, u64::from(launch::GDS_BYTES))]
        } else {
            Vec::new()
        };
        Ok(LaunchPlan {
            lifted,
            lds_bytes: kernel.lds_size,
            private_lane_bytes: 0,
            zero_before_dispatch,
            init: Box::new(GcnWaveInit::new(
                kernel,
                layout,
                gfx,
                WaveAddresses {
                    kernarg,
                    dispatch_packet: packet,
                    queue: 0,
                    dispatch_id: 0,
                    scratch_base,
                    scratch_wave_offset: 0,
                    gds,
                },
            )),
        })
    }

    fn wave(&self, kernel: &str) -> Result<WaveProgram> {
        let k = self.kernel(kernel, &[])?;
        let lifted = self.lift_code(&k, &k.code)?;
        let listing = wavejit_gcn::decode_all(self.gen, &k.code)
            .map_err(|e| Error::Other(format!("kernel {kernel}: {e}")))?
            .into_iter()
            .map(|d| (d.offset as u64, wavejit_gcn::print(&d.inst)))
            .collect();
        Ok(WaveProgram {
            lifted,
            names: Box::new(names::GcnNames::new()),
            listing,
            private_lane_bytes: 0,
            lds_bytes: k.lds_size,
        })
    }
}

/// The generation number (6-9) the launch ABI's per-generation words are built for: that of
/// the code's decoding, so a `--target` override changes both together.
fn gfx_number(gen: Gen) -> u8 {
    match gen {
        Gen::Gfx6 => 6,
        Gen::Gfx7 => 7,
        Gen::Gfx8 => 8,
        Gen::Gfx9 => 9,
    }
}

/// `wavejit info` of a code object: kernels, target, resources, argument layout.
fn describe_object(co: &CodeObject, gen: Gen) -> String {
    let mut s = String::new();
    let abi = match co.abi {
        Abi::Hsa => "amdgcn-amd-amdhsa (code object v4)",
        Abi::Legacy => "amdgcn-- (legacy relocatable)",
    };
    let _ = writeln!(s, "target: {} ({}), {abi}", co.target.name, gen.name());
    for k in &co.kernels {
        let _ = writeln!(s, "kernel {}:", k.name);
        let _ = writeln!(
            s,
            "  code: {} bytes at {:#x}; sgprs {}, vgprs {}, wave{}",
            k.code.len(),
            k.code_address,
            k.sgpr_count,
            k.vgpr_count,
            k.wavefront_size
        );
        let _ = writeln!(
            s,
            "  lds: {} bytes; scratch: {} bytes per lane; float mode {:#04x}, ieee {}, dx10_clamp {}",
            k.lds_size, k.private_segment_size, k.float_mode, k.ieee_mode, k.dx10_clamp
        );
        if let Some([x, y, z]) = k.reqd_workgroup_size {
            let _ = writeln!(s, "  required workgroup size: {x},{y},{z}");
        }
        if co.abi == Abi::Legacy {
            let _ = writeln!(
                s,
                "  kernarg: {}-byte implicit header, then the arguments at natural offsets (no metadata)",
                k.implicit_kernarg_bytes
            );
        } else {
            let _ = writeln!(
                s,
                "  kernarg: {} bytes, align {}",
                k.kernarg_size, k.kernarg_align
            );
        }
        for (i, a) in k.args.iter().enumerate() {
            let kind = match &a.kind {
                ArgKind::GlobalBuffer => "global buffer".to_string(),
                ArgKind::ByValue => "by value".to_string(),
                ArgKind::DynamicSharedPointer => "local pointer".to_string(),
                ArgKind::HiddenGlobalOffset(d) => format!("hidden global offset {d}"),
                ArgKind::HiddenNone => "hidden (zero)".to_string(),
                ArgKind::Other(o) => o.clone(),
            };
            let _ = writeln!(
                s,
                "  arg {i}: offset {:>3}, size {}, {kind}{}{}",
                a.offset,
                a.size,
                a.type_name
                    .as_deref()
                    .map(|t| format!(", {t}"))
                    .unwrap_or_default(),
                a.name
                    .as_deref()
                    .map(|n| format!(" {n}"))
                    .unwrap_or_default(),
            );
        }
    }
    s
}

impl From<loader::LoadError> for Error {
    fn from(e: loader::LoadError) -> Error {
        Error::Load(e.to_string())
    }
}
