//! Glue for TeraScale (r600-family) objects: loading with a target override, describing,
//! disassembling, lifting, and launching under the r600 convention.
//!
//! Launch convention (notes/amd_launch_abi.md §2.3, [`wavejit_terascale::launch`]): the
//! dispatch's global pool is the guest arena, counted from [`POOL_BASE`]; every buffer argument
//! is its own guest buffer and the kernel receives its 32-bit byte offset from the pool base
//! (so it must lie in the pool's first 4 GiB). Constant buffer 0 (the 36-byte header: ngroups,
//! global size, local size, then the arguments) is one more guest buffer whose address goes to
//! the layout's constant buffer 0 cell. Each wave starts with T0.xyz = local id, T1.xyz = group
//! id and the active mask of its work-items ([`launch::wave_state`]), which must be the lanes
//! the runtime gives the wave (checked at every wave start). Values go into constant buffer 0
//! at their natural alignment; `f64:` values travel as their 64-bit pattern.

use crate::launch::{mem_err, PlacedArg, Prepared, RunOutcome, RunRequest};
use crate::spec::ValueKind;
use crate::{Error, Result};
use std::fmt::Write;
use std::sync::Arc;
use wavejit_terascale::launch::{self, ArgValue, Dispatch};
use wavejit_terascale::lift::state::GDS_BYTES;
use wavejit_terascale::lift::TsLayout;
use wavejit_terascale::loader::{self, CodeObject, Kernel};
use wavejit_terascale::{Chip, Program};

/// The guest address pointer arguments count from: the first byte of the guest arena, so the
/// pool is every buffer the launcher allocates.
pub const POOL_BASE: u64 = wavejit_runtime::GUEST_BASE;

/// Bytes of the r600 global pool: pointer arguments are 32-bit offsets.
const POOL_BYTES: u64 = 1 << 32;

/// Guest address of the kernel's first code byte: pcs are byte offsets from the entry, as
/// `wavejit disasm` numbers the CF program.
const CODE_BASE: u64 = 0;

/// Whether `bytes` is an r600-family object: an ELF32 file for `EM_AMDGPU` (GCN code objects
/// are ELF64). The loader then names what else is wrong (such as an unknown `e_flags` chip).
pub fn is_r600_object(bytes: &[u8]) -> bool {
    const EM_AMDGPU: u16 = 224;
    bytes.len() >= 20
        && bytes[..4] == *b"\x7fELF"
        && bytes[4] == 1
        && u16::from_le_bytes([bytes[18], bytes[19]]) == EM_AMDGPU
}

/// A loaded object and the chip its code is decoded for.
pub struct Loaded {
    pub object: CodeObject,
    pub chip: Chip,
}

/// Loads an r600 object; `target` (an r600 chip name) overrides the chip of the file.
pub fn load(bytes: &[u8], target: Option<&str>) -> Result<Loaded> {
    let object = loader::load(bytes)?;
    let chip = match target {
        Some(t) => {
            Chip::from_name(t).ok_or_else(|| Error::Usage(format!("unknown r600 target '{t}'")))?
        }
        None => object.chip,
    };
    Ok(Loaded { object, chip })
}

fn kernels<'a>(l: &'a Loaded, kernel: Option<&str>) -> Result<Vec<&'a Kernel>> {
    Ok(match kernel {
        Some(name) => vec![l.object.kernel(name)?],
        None => l.object.kernels.iter().collect(),
    })
}

/// `wavejit info`: chip, kernels, resources, the argument convention.
pub fn describe(l: &Loaded) -> String {
    let mut s = String::new();
    let _ = write!(s, "target: {} ({}", l.chip.name(), class_name(l.chip));
    if l.chip != l.object.chip {
        let _ = write!(
            s,
            "; --target overrides the file's {}",
            l.object.chip.name()
        );
    }
    let _ = writeln!(
        s,
        "), r600-- (ELF32 relocatable, e_flags {:#x})",
        l.object.e_flags
    );
    for k in &l.object.kernels {
        let _ = writeln!(s, "kernel {}:", k.name);
        let place = format!("at .text+{:#x}", k.text_offset);
        describe_kernel(&mut s, l.chip, k, &place);
    }
    s
}

/// `VLIW5` (Evergreen, Northern Islands) or `VLIW4` (Cayman).
pub fn class_name(chip: Chip) -> &'static str {
    match chip.class() {
        wavejit_terascale::ChipClass::Evergreen => "VLIW5",
        wavejit_terascale::ChipClass::Cayman => "VLIW4",
    }
}

/// The resource and argument lines `info` prints for kernel `k` (whose code lies `place`).
pub fn describe_kernel(s: &mut String, chip: Chip, k: &Kernel, place: &str) {
    let _ = writeln!(
        s,
        "  code: {} bytes {place}; gprs {}, stack {}, wave{}",
        k.code.len(),
        k.num_gprs,
        k.stack_size,
        launch::wave_size(chip)
    );
    let _ = writeln!(s, "  lds: {} bytes", k.lds_size);
    let _ = writeln!(
        s,
        "  arguments: constant buffer 0 after its {}-byte header, each at its natural alignment (no metadata)",
        launch::IMPLICIT_HEADER_BYTES
    );
}

fn decode(l: &Loaded, k: &Kernel) -> Result<Program> {
    wavejit_terascale::decode_program(l.chip.class(), &k.code)
        .map_err(|e| Error::Other(format!("kernel {}: {e}", k.name)))
}

/// `wavejit disasm`: every kernel (or the named one) as LLVM's r600 listing prints it.
pub fn disassemble(l: &Loaded, kernel: Option<&str>) -> Result<String> {
    let mut s = String::new();
    for k in kernels(l, kernel)? {
        let program = decode(l, k)?;
        let _ = writeln!(s, "{}:", k.name);
        for line in wavejit_terascale::print_program(&program) {
            let _ = writeln!(s, "\t{line}");
        }
    }
    Ok(s)
}

/// `wavejit disasm --ir`: every kernel (or the named one) lifted to wavejit IR.
pub fn lifted_ir(l: &Loaded, kernel: Option<&str>) -> Result<String> {
    let mut s = String::new();
    for k in kernels(l, kernel)? {
        s.push_str(&wavejit_ir::text::print(&lift_kernel(l, k)?.func));
    }
    Ok(s)
}

/// A kernel lifted to IR, with what launching it needs.
pub struct Lifted {
    pub kernel: Kernel,
    pub chip: Chip,
    pub layout: TsLayout,
    pub func: Arc<wavejit_ir::Function>,
    /// Machine instructions of the program: CF instructions, ALU slot instructions and
    /// fetches (one per line of the listing that is not a header, a literal pair or `PAD`).
    pub machine_insts: usize,
    /// Private (scratch) bytes per lane the code addresses.
    pub scratch_lane_bytes: u32,
}

fn machine_insts(p: &Program) -> usize {
    use wavejit_terascale::inst::ClauseBody;
    let clauses: usize = p
        .clauses
        .iter()
        .map(|c| match &c.body {
            ClauseBody::Alu(groups) => groups.iter().map(|g| g.insts.len()).sum(),
            ClauseBody::Fetch(insts) => insts.len(),
        })
        .sum();
    p.cf.len() + clauses
}

/// Decodes and lifts `kernel` for the loaded chip.
pub fn lift_kernel(l: &Loaded, kernel: &Kernel) -> Result<Lifted> {
    use wavejit_terascale::lift::{lift, scratch_lane_bytes, LiftConfig};
    let program = decode(l, kernel)?;
    let cfg = LiftConfig {
        chip: l.chip,
        name: kernel.name.clone(),
        base: CODE_BASE,
        fetch_subroutine: None,
    };
    let fail = |what: String| Error::Other(format!("kernel {}: {what}", kernel.name));
    let func = lift(&program, &cfg).map_err(|e| fail(e.to_string()))?;
    wavejit_ir::verify::verify(&func).map_err(|e| fail(format!("lifted IR is invalid: {e}")))?;
    let layout = TsLayout::new(launch::wave_size(l.chip));
    if func.layout != layout.layout {
        return Err(fail(
            "the lifted code's state layout is not the launch contract's".into(),
        ));
    }
    Ok(Lifted {
        kernel: kernel.clone(),
        chip: l.chip,
        layout,
        func: Arc::new(func),
        machine_insts: machine_insts(&program),
        scratch_lane_bytes: scratch_lane_bytes(&program),
    })
}

/// A kernel made ready to dispatch: buffers and constant buffer 0 in guest memory, code lifted
/// and prepared by the engine.
pub struct Launcher {
    pub mem: wavejit_runtime::GuestMemory,
    /// Every argument as placed in guest memory.
    pub args: Vec<PlacedArg>,
    pub lifted: Lifted,
    pub program: Arc<dyn wavejit_runtime::Program>,
    dispatch: Dispatch,
    /// Guest address of constant buffer 0.
    cb0: u64,
    /// The dispatch's GDS memory ([`GDS_BYTES`]), 0 when the code has no MEM_GDS.
    gds: u64,
    threads: usize,
    fuel: u64,
    timeout: std::time::Duration,
}

fn set_pair(state: &mut wavejit_runtime::WaveState, reg: wavejit_ir::Reg, v: u64) {
    state.set_uniform(reg, v as u32);
    state.set_uniform(reg.offset(1), (v >> 32) as u32);
}

impl Launcher {
    /// The bytes of buffer argument `i`.
    pub fn buffer(&self, i: usize) -> Result<Vec<u8>> {
        crate::launch::read_buffer(&self.mem, &self.args, i)
    }

    /// Runs the kernel once over the whole grid (GDS starts zeroed every time).
    pub fn dispatch(&self) -> Result<wavejit_runtime::DispatchStats> {
        use wavejit_runtime::ExecError;
        if self.gds != 0 {
            self.mem
                .write_bytes(self.gds, &[0; GDS_BYTES as usize])
                .map_err(mem_err)?;
        }
        let Lifted {
            kernel,
            chip,
            layout: g,
            ..
        } = &self.lifted;
        let init = |state: &mut wavejit_runtime::WaveState, info: &wavejit_runtime::WaveInfo| {
            let setup = |m: String| ExecError::Setup(format!("kernel {}: {m}", kernel.name));
            let ws = launch::wave_state(*chip, &self.dispatch, info.group, info.wave)
                .map_err(|e| setup(e.to_string()))?;
            if ws.exec != info.exec_mask() {
                return Err(setup(format!(
                    "wave {} of group {:?}: the r600 lanes {:#x} are not the runtime's {:#x}",
                    info.wave,
                    info.group,
                    ws.exec,
                    info.exec_mask()
                )));
            }
            for (lane, t0) in ws.t0.iter().enumerate() {
                for chan in 0..4 {
                    let c = chan as usize;
                    state.set_lane(g.gpr(launch::LOCAL_ID_GPR, chan), lane as u32, t0[c]);
                    state.set_lane(g.gpr(launch::GROUP_ID_GPR, chan), lane as u32, ws.t1[c]);
                }
            }
            set_pair(state, g.active(), ws.exec);
            set_pair(state, g.pool_base(), POOL_BASE);
            set_pair(state, g.const_buffer(0), self.cb0);
            set_pair(state, g.gds(), self.gds);
            Ok(())
        };
        let launch = wavejit_runtime::Launch {
            kernel: kernel.name.clone(),
            func: self.lifted.func.clone(),
            program: self.program.clone(),
            grid: self.dispatch.global,
            local: self.dispatch.local,
            lds_bytes: kernel.lds_size,
            private_lane_bytes: self.lifted.scratch_lane_bytes,
            threads: self.threads.max(1),
            fuel: self.fuel,
            time_limit: self.timeout,
            init: &init,
        };
        Ok(wavejit_runtime::dispatch(&launch, &self.mem)?)
    }
}

impl Prepared for Launcher {
    fn dispatch(&self) -> Result<wavejit_runtime::DispatchStats> {
        Launcher::dispatch(self)
    }

    fn buffer(&self, i: usize) -> Result<Vec<u8>> {
        Launcher::buffer(self, i)
    }
}

/// The constant buffer 0 value of a placed argument: a buffer's offset from [`POOL_BASE`].
fn arg_value(i: usize, a: PlacedArg) -> Result<ArgValue> {
    Ok(match a {
        PlacedArg::Buffer { addr, size } => {
            let offset = addr - POOL_BASE;
            if offset + size > POOL_BYTES {
                return Err(Error::Usage(format!(
                    "argument {i}: buffer ends beyond the 4 GiB r600 global pool"
                )));
            }
            ArgValue::Pointer(offset as u32)
        }
        PlacedArg::Value { kind, bits } => match kind {
            ValueKind::U32 => ArgValue::U32(bits as u32),
            ValueKind::I32 => ArgValue::I32(bits as u32 as i32),
            ValueKind::F32 => ArgValue::F32(f32::from_bits(bits as u32)),
            ValueKind::U64 | ValueKind::F64 => ArgValue::U64(bits),
            ValueKind::I64 => ArgValue::I64(bits as i64),
        },
    })
}

/// Places the arguments and constant buffer 0 in guest memory, lifts kernel `req.kernel` and
/// prepares it on the requested engine.
pub fn prepare(l: &Loaded, req: &RunRequest<'_>) -> Result<Launcher> {
    let kernel = l.object.kernel(req.kernel)?;
    let dispatch = Dispatch {
        global: req.global,
        local: req.local,
    };
    dispatch
        .validate()
        .map_err(|e| Error::Usage(format!("kernel {}: {e}", kernel.name)))?;
    let mut mem = wavejit_runtime::GuestMemory::new().map_err(mem_err)?;
    let args = crate::launch::place_args(&mut mem, req.args)?;
    let values = args
        .iter()
        .enumerate()
        .map(|(i, a)| arg_value(i, *a))
        .collect::<Result<Vec<_>>>()?;
    let cb0 = mem
        .alloc_bytes(&launch::constant_buffer0(&dispatch, &values), 256)
        .map_err(mem_err)?;
    let lifted = lift_kernel(l, kernel)?;
    let gds = if crate::gcn::reads_file(&lifted.func, lifted.layout.gds) {
        mem.alloc(u64::from(GDS_BYTES), 256).map_err(mem_err)?
    } else {
        0
    };
    let program = req.engine.engine()?.prepare(lifted.func.clone())?;
    Ok(Launcher {
        mem,
        args,
        lifted,
        program,
        dispatch,
        cb0,
        gds,
        threads: req.threads,
        fuel: req.fuel,
        timeout: req.timeout,
    })
}

/// [`prepare`], then one dispatch over the grid.
pub fn run(l: &Loaded, req: &RunRequest<'_>) -> Result<RunOutcome> {
    RunOutcome::run(Box::new(prepare(l, req)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_offsets_from_the_pool_base_within_4_gib() {
        let buffer = |offset: u64, size| PlacedArg::Buffer {
            addr: POOL_BASE + offset,
            size,
        };
        assert_eq!(
            arg_value(0, buffer(0x100, 16)).unwrap(),
            ArgValue::Pointer(0x100)
        );
        let last = (1 << 32) - 16;
        assert_eq!(
            arg_value(0, buffer(last, 16)).unwrap(),
            ArgValue::Pointer(0xffff_fff0)
        );
        assert!(arg_value(0, buffer(last, 17)).is_err());
    }

    #[test]
    fn values_keep_their_bits_and_width() {
        let v = |kind, bits| arg_value(0, PlacedArg::Value { kind, bits }).unwrap();
        let pi = std::f64::consts::PI.to_bits();
        assert_eq!(v(ValueKind::F64, pi).bytes(), pi.to_le_bytes());
        assert_eq!(
            v(ValueKind::I32, 0xffff_fffe).bytes(),
            (-2i32).to_le_bytes()
        );
        assert_eq!(v(ValueKind::F32, 0x3f80_0000).bytes(), 1f32.to_le_bytes());
        assert_eq!(v(ValueKind::I64, u64::MAX).bytes(), (-1i64).to_le_bytes());
    }
}
