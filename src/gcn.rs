//! Glue for GCN code objects: loading with a target override, describing, disassembling.

pub use crate::launch::RunRequest;
use crate::launch::{mem_err, PlacedArg, Prepared, RunOutcome};
use crate::{Error, Result};
use std::fmt::Write;
use wavejit_gcn::loader::{self, Abi, ArgKind, CodeObject};
use wavejit_gcn::Gen;

/// A loaded code object and the generation its code is decoded for.
pub struct Loaded {
    pub object: CodeObject,
    pub gen: Gen,
}

/// Loads a code object; `target` (a chip or generation name) overrides the one in the file.
pub fn load(bytes: &[u8], target: Option<&str>) -> Result<Loaded> {
    let object = loader::load(bytes)?;
    let gen = match target {
        Some(t) => {
            Gen::from_chip(t).ok_or_else(|| Error::Usage(format!("unknown target '{t}'")))?
        }
        None => Gen::from_chip(object.target.name).ok_or_else(|| {
            Error::Other(format!(
                "no GCN generation for processor {}",
                object.target.name
            ))
        })?,
    };
    Ok(Loaded { object, gen })
}

/// `wavejit info`: kernels, target, resources, argument layout.
pub fn describe(l: &Loaded) -> String {
    let co = &l.object;
    let mut s = String::new();
    let abi = match co.abi {
        Abi::Hsa => "amdgcn-amd-amdhsa (code object v4)",
        Abi::Legacy => "amdgcn-- (legacy relocatable)",
    };
    let _ = writeln!(s, "target: {} ({}), {abi}", co.target.name, l.gen.name());
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

/// `wavejit disasm`: every kernel (or the named one) in LLVM's syntax.
pub fn disassemble(l: &Loaded, kernel: Option<&str>) -> Result<String> {
    let kernels: Vec<_> = match kernel {
        Some(name) => vec![l.object.kernel(name)?],
        None => l.object.kernels.iter().collect(),
    };
    let mut s = String::new();
    for k in kernels {
        let text = wavejit_gcn::disassemble(l.gen, &k.code)
            .map_err(|e| Error::Other(format!("kernel {}: {e}", k.name)))?;
        let _ = writeln!(s, "{}:", k.name);
        s.push_str(&text);
    }
    Ok(s)
}

/// `wavejit disasm --ir`: every kernel (or the named one) lifted to wavejit IR, in its text form.
pub fn lifted_ir(l: &Loaded, kernel: Option<&str>) -> Result<String> {
    let kernels: Vec<_> = match kernel {
        Some(name) => vec![l.object.kernel(name)?],
        None => l.object.kernels.iter().collect(),
    };
    let mut s = String::new();
    for k in kernels {
        s.push_str(&wavejit_ir::text::print(&lift_kernel(l, k, &k.code)?.func));
    }
    Ok(s)
}

/// A kernel lifted to IR, with what launching it needs.
pub struct Lifted {
    pub kernel: loader::Kernel,
    pub gen: Gen,
    pub layout: wavejit_gcn::lift::GcnLayout,
    pub func: std::sync::Arc<wavejit_ir::Function>,
}

/// Guest address of the kernel's first code byte. Every pc wavejit reports (faults, fuel,
/// timeouts, `s_getpc_b64` results) is a byte offset from the kernel's entry, as `wavejit disasm`
/// prints it, so the kernel is placed at address 0 whatever its address in the file.
const CODE_BASE: u64 = 0;

/// Lifts a kernel whose code may have been relocated (legacy scratch relocations).
pub fn lift_kernel(l: &Loaded, kernel: &loader::Kernel, code: &[u8]) -> Result<Lifted> {
    lift_for(l.gen, kernel, code)
}

/// Lifts `code` as `kernel`'s code for generation `gen` (also for kernels that come from no
/// code object, such as those of `.s` files).
pub fn lift_for(gen: Gen, kernel: &loader::Kernel, code: &[u8]) -> Result<Lifted> {
    use wavejit_gcn::lift::{lift, GcnLayout, LiftConfig};
    let cfg = LiftConfig::from_rsrc1(gen, kernel.rsrc1, CODE_BASE, &kernel.name);
    let func =
        lift(code, &cfg).map_err(|e| Error::Other(format!("kernel {}: {e}", kernel.name)))?;
    wavejit_ir::verify::verify(&func)
        .map_err(|e| Error::Other(format!("kernel {}: lifted IR is invalid: {e}", kernel.name)))?;
    Ok(Lifted {
        kernel: kernel.clone(),
        gen,
        layout: GcnLayout::new(),
        func: std::sync::Arc::new(func),
    })
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

/// A kernel made ready to dispatch: buffers in guest memory, code lifted and prepared by the
/// engine. [`Launcher::dispatch`] may run it any number of times (benchmarks do).
pub struct Launcher {
    pub mem: wavejit_runtime::GuestMemory,
    /// Every argument as placed in guest memory.
    pub args: Vec<PlacedArg>,
    pub lifted: Lifted,
    pub program: std::sync::Arc<dyn wavejit_runtime::Program>,
    gfx: u8,
    dispatch: wavejit_gcn::launch::Dispatch,
    kernarg: u64,
    packet: u64,
    scratch_base: u64,
    /// The dispatch's GDS memory ([`wavejit_gcn::launch::GDS_BYTES`]).
    gds: u64,
    /// Whether the lifted code reads the GDS address (only then must a dispatch re-zero it).
    uses_gds: bool,
    threads: usize,
    fuel: u64,
    timeout: std::time::Duration,
}

impl Launcher {
    /// The bytes of buffer argument `i`.
    pub fn buffer(&self, i: usize) -> Result<Vec<u8>> {
        crate::launch::read_buffer(&self.mem, &self.args, i)
    }

    /// Runs the kernel once over the whole grid (GDS starts zeroed every time).
    pub fn dispatch(&self) -> Result<wavejit_runtime::DispatchStats> {
        use wavejit_gcn::launch::{self, WaveAddresses};
        let kernel = &self.lifted.kernel;
        let g = &self.lifted.layout;
        if self.uses_gds {
            self.mem
                .write_bytes(self.gds, &[0; launch::GDS_BYTES as usize])
                .map_err(mem_err)?;
        }
        let init = |state: &mut wavejit_runtime::WaveState, info: &wavejit_runtime::WaveInfo| {
            let wave_index = launch::dispatch_wave_index(
                info.groups,
                info.group,
                info.waves_per_group,
                info.wave,
            );
            let addrs = WaveAddresses {
                kernarg: self.kernarg,
                dispatch_packet: self.packet,
                queue: 0,
                dispatch_id: 0,
                scratch_base: self.scratch_base,
                scratch_wave_offset: launch::scratch_wave_offset(kernel, wave_index) as u32,
                gds: self.gds,
            };
            let ws = launch::wave_state(
                kernel,
                &self.dispatch,
                &addrs,
                self.gfx,
                info.group,
                info.wave,
            )
            .map_err(|e| {
                wavejit_runtime::ExecError::Setup(format!("kernel {}: {e}", kernel.name))
            })?;
            ws.apply(g, |reg, lane, v| match lane {
                None => state.set_uniform(reg, v),
                Some(l) => state.set_lane(reg, l, v),
            });
            Ok(())
        };
        let launch = wavejit_runtime::Launch {
            kernel: kernel.name.clone(),
            func: self.lifted.func.clone(),
            program: self.program.clone(),
            grid: self.dispatch.global,
            local: self.dispatch.local,
            lds_bytes: kernel.lds_size,
            private_lane_bytes: 0,
            threads: self.threads.max(1),
            fuel: self.fuel,
            time_limit: self.timeout,
            init: &init,
        };
        Ok(wavejit_runtime::dispatch(&launch, &self.mem)?)
    }
}

/// Whether `func` reads any cell of register file `file`.
pub(crate) fn reads_file(func: &wavejit_ir::Function, file: wavejit_ir::FileId) -> bool {
    func.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(i.kind, wavejit_ir::InstKind::ReadReg(r) if r.file == file))
}

impl Prepared for Launcher {
    fn dispatch(&self) -> Result<wavejit_runtime::DispatchStats> {
        Launcher::dispatch(self)
    }

    fn buffer(&self, i: usize) -> Result<Vec<u8>> {
        Launcher::buffer(self, i)
    }
}

/// Loads buffers and arguments into guest memory, lifts the kernel and runs it once.
pub fn run(l: &Loaded, req: &RunRequest<'_>) -> Result<RunOutcome> {
    RunOutcome::run(Box::new(prepare(l, req)?))
}

/// Loads buffers and arguments into guest memory, lifts the kernel and prepares it on the
/// requested engine.
pub fn prepare(l: &Loaded, req: &RunRequest<'_>) -> Result<Launcher> {
    prepare_kernel(l.object.kernel(req.kernel)?, l.gen, req)
}

/// [`prepare`] for a kernel given directly (`req.kernel` is not looked up), decoded as `gen`.
pub fn prepare_kernel(kernel: &loader::Kernel, gen: Gen, req: &RunRequest<'_>) -> Result<Launcher> {
    use crate::spec::ValueKind;
    use wavejit_gcn::launch::{self, ArgValue, Dispatch};
    // Most launch errors name the kernel already; `InvalidLaunch` does not.
    let fail = |e: launch::LaunchError| match e {
        launch::LaunchError::InvalidLaunch(_) => {
            Error::Usage(format!("kernel {}: {e}", kernel.name))
        }
        e => Error::Usage(e.to_string()),
    };
    let dispatch = Dispatch {
        global: req.global,
        local: req.local,
    };
    dispatch.validate(kernel).map_err(fail)?;

    let mut mem = wavejit_runtime::GuestMemory::new().map_err(mem_err)?;
    let args = crate::launch::place_args(&mut mem, req.args)?;
    let values: Vec<ArgValue> = args
        .iter()
        .map(|a| match *a {
            PlacedArg::Buffer { addr, .. } => ArgValue::Pointer(addr),
            PlacedArg::Value { kind, bits } => match kind {
                ValueKind::U32 => ArgValue::U32(bits as u32),
                ValueKind::I32 => ArgValue::I32(bits as u32 as i32),
                ValueKind::U64 => ArgValue::U64(bits),
                ValueKind::I64 => ArgValue::I64(bits as i64),
                ValueKind::F32 => ArgValue::F32(f32::from_bits(bits as u32)),
                ValueKind::F64 => ArgValue::F64(f64::from_bits(bits)),
            },
        })
        .collect();
    let kernarg_bytes =
        launch::padded_kernarg(launch::build_kernarg(kernel, &dispatch, &values).map_err(fail)?);
    let kernarg = mem.alloc_bytes(&kernarg_bytes, 256).map_err(mem_err)?;
    let packet = mem
        .alloc(launch::DISPATCH_PACKET_BYTES as u64, 64)
        .map_err(mem_err)?;
    mem.write_bytes(
        packet,
        &launch::dispatch_packet(kernel, &dispatch, 0, kernarg),
    )
    .map_err(mem_err)?;

    let groups = dispatch.groups();
    let waves_per_group = (req.local.iter().product::<u32>()).div_ceil(64);
    let total_waves = groups.iter().map(|&g| g as u64).product::<u64>() * waves_per_group as u64;
    let lane_stride = launch::scratch_lane_stride(kernel);
    let scratch_bytes = total_waves * 64 * lane_stride as u64;
    let scratch_base = if scratch_bytes > 0 {
        mem.alloc(scratch_bytes, 256).map_err(mem_err)?
    } else {
        0
    };
    // Allocated last, so the buffers' and scratch's addresses do not depend on it.
    let gds = mem
        .alloc(u64::from(launch::GDS_BYTES), 256)
        .map_err(mem_err)?;
    let gfx = gfx_number(gen);
    let code = if kernel.scratch_relocs.is_empty() {
        kernel.code.clone()
    } else {
        launch::relocated_code(kernel, launch::scratch_rsrc(gfx, scratch_base, lane_stride))
    };
    let lifted = lift_for(gen, kernel, &code)?;
    let program = req.engine.engine()?.prepare(lifted.func.clone())?;
    let uses_gds = reads_file(&lifted.func, lifted.layout.gds);
    Ok(Launcher {
        mem,
        args,
        lifted,
        program,
        gfx,
        dispatch,
        kernarg,
        packet,
        scratch_base,
        gds,
        uses_gds,
        threads: req.threads,
        fuel: req.fuel,
        timeout: req.timeout,
    })
}
