//! AMD TeraScale (r600 family: Evergreen, Northern Islands, Cayman) behind the one frontend
//! interface: r600 objects ([`wavejit_terascale::loader`]) and r600 listings (`.s`, [`asm`]).
//!
//! Launch convention (notes/amd_launch_abi.md §2.3, [`wavejit_terascale::launch`]): the
//! dispatch's global pool is the guest arena, counted from [`POOL_BASE`]; every buffer argument
//! is its own guest buffer and the kernel receives its 32-bit byte offset from the pool base
//! (so it must lie in the pool's first 4 GiB). Constant buffer 0 (the 36-byte header: ngroups,
//! global size, local size, then the arguments) is one more guest buffer whose address goes to
//! the layout's constant buffer 0 cell. Each wave starts with T0.xyz = local id, T1.xyz = group
//! id and the active mask of its work-items ([`launch::TsWaveInit`]). Values go into constant
//! buffer 0 at their natural alignment; `f64:` values travel as their 64-bit pattern. Every pc
//! is a byte offset from the kernel's first CF word, as `wavejit disasm` numbers the program.

pub mod asm;
pub mod fuzz;
pub(crate) mod names;

use crate::frontend::{BenchKernel, Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::{mem_err, PlacedArg};
use crate::{Error, Result};
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;
use wavejit_runtime::{Grid, GuestMemory};
use wavejit_terascale::launch::{self, ArgValue, Bindings, TsWaveInit};
use wavejit_terascale::lift::state::GDS_BYTES;
use wavejit_terascale::lift::{lift_bound, scratch_lane_bytes, LiftConfig, TsLayout};
use wavejit_terascale::loader::{self, CodeObject, Kernel};
use wavejit_terascale::{Chip, ChipClass, Program};

/// The guest address pointer arguments count from: the first byte of the guest arena, so the
/// pool is every buffer the launcher allocates.
pub const POOL_BASE: u64 = wavejit_runtime::GUEST_BASE;

/// Bytes of the r600 global pool: pointer arguments are 32-bit offsets.
const POOL_BYTES: u64 = 1 << 32;

/// Guest address of the kernel's first code byte.
const CODE_BASE: u64 = 0;

/// The TeraScale frontend.
pub struct TeraScale;

/// The registry's TeraScale entry.
pub static TERASCALE: TeraScale = TeraScale;

fn target_of(chip: Chip) -> Target {
    Target {
        isa: "terascale",
        name: chip.name().to_string(),
        wave_size: launch::wave_size(chip),
    }
}

impl Frontend for TeraScale {
    fn name(&self) -> &'static str {
        "terascale"
    }

    fn target_names(&self) -> &'static [&'static str] {
        &[
            "cedar", "redwood", "sumo", "juniper", "cypress", "barts", "turks", "caicos", "cayman",
        ]
    }

    fn target(&self, name: &str) -> Option<Target> {
        Chip::from_name(name).map(target_of)
    }

    /// r600-family objects are ELF32 files for `EM_AMDGPU`; the loader names what else is
    /// wrong (such as an unknown `e_flags` chip).
    fn sniff(&self, bytes: &[u8]) -> bool {
        wavejit_isa::elf::is_elf_for(bytes, false, wavejit_isa::elf::EM_AMDGPU)
    }

    fn load(&self, bytes: &[u8], _name: &str, target: Option<&Target>) -> Result<Box<dyn Module>> {
        let object = loader::load(bytes)?;
        let chip = match target {
            Some(t) => Chip::from_name(&t.name)
                .ok_or_else(|| Error::Usage(format!("unknown r600 target '{}'", t.name)))?,
            None => object.chip,
        };
        Ok(Box::new(TsModule {
            target: target_of(chip),
            chip,
            object,
            text_bytes: None,
        }))
    }

    fn assemble(&self, path: &Path, text: &str, target: &Target) -> Result<Box<dyn Module>> {
        let chip = Chip::from_name(&target.name)
            .ok_or_else(|| Error::Usage(format!("unknown target '{}'", target.name)))?;
        let object = asm::parse(path, text, chip)?;
        let total = object.kernels.iter().map(|k| k.code.len()).sum();
        Ok(Box::new(TsModule {
            target: target.clone(),
            chip,
            object,
            text_bytes: Some(total),
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
            chip: "cayman",
            object: include_bytes!("../../../benches/kernels/alu_heavy.cayman.o"),
        })
    }
}

/// A loaded r600 object (or assembled listing) and the chip its code is decoded for.
pub struct TsModule {
    target: Target,
    chip: Chip,
    object: CodeObject,
    /// The assembled bytes of a `.s` file (`None` for an object).
    text_bytes: Option<usize>,
}

impl TsModule {
    fn kernel(&self, name: &str) -> Result<&Kernel> {
        Ok(self.object.kernel(name)?)
    }

    fn decode(&self, k: &Kernel) -> Result<Program> {
        wavejit_terascale::decode_program(self.chip.class(), &k.code)
            .map_err(|e| Error::Other(format!("kernel {}: {e}", k.name)))
    }

    /// Decodes and lifts `kernel`; also returns the decoded program.
    fn lift_kernel(&self, kernel: &Kernel) -> Result<(Lifted, Program)> {
        let program = self.decode(kernel)?;
        let lifted = lift_program(self.chip, &kernel.name, &program, &Bindings::mesa())?;
        Ok((lifted, program))
    }
}

/// Lifts the decoded `program` of kernel `name` for `chip` under the launch's bindings
/// `bind`, its code at guest address 0, and checks the IR and that its state layout is the
/// launch contract's ([`TsWaveInit`] fills it): the one lift of every container of TeraScale
/// code.
pub(crate) fn lift_program(
    chip: Chip,
    name: &str,
    program: &Program,
    bind: &Bindings,
) -> Result<Lifted> {
    let cfg = LiftConfig {
        chip,
        name: name.to_string(),
        base: CODE_BASE,
        fetch_subroutine: None,
    };
    let fail = |what: String| Error::Other(format!("kernel {name}: {what}"));
    let func = lift_bound(program, &cfg, bind).map_err(|e| fail(e.to_string()))?;
    wavejit_ir::verify::verify(&func).map_err(|e| fail(format!("lifted IR is invalid: {e}")))?;
    if func.layout != TsLayout::new(launch::wave_size(chip)).layout {
        return Err(fail(
            "the lifted code's state layout is not the launch contract's".into(),
        ));
    }
    Ok(Lifted {
        func: Arc::new(func),
        machine_insts: wavejit_terascale::listing(program).len(),
    })
}

impl Module for TsModule {
    fn target(&self) -> &Target {
        &self.target
    }

    fn describe(&self) -> String {
        let mut s = String::new();
        match self.text_bytes {
            None => {
                let _ = write!(s, "target: {} ({}", self.chip.name(), class_name(self.chip));
                if self.chip != self.object.chip {
                    let file = self.object.chip.name();
                    let _ = write!(s, "; --target overrides the file's {file}");
                }
                let _ = writeln!(
                    s,
                    "), r600-- (ELF32 relocatable, e_flags {:#x})",
                    self.object.e_flags
                );
            }
            Some(_) => {
                let _ = writeln!(
                    s,
                    "target: {} ({}), assembly file (launch convention: README.md \"Assembly files\")",
                    self.target.name,
                    class_name(self.chip)
                );
            }
        }
        for k in &self.object.kernels {
            let _ = writeln!(s, "kernel {}:", k.name);
            let place = match self.text_bytes {
                None => format!("at .text+{:#x}", k.text_offset),
                Some(total) => format!("at offset {:#x} of {total} assembled bytes", k.text_offset),
            };
            describe_kernel(&mut s, self.chip, k, &place);
            if self.text_bytes.is_some() {
                let _ = writeln!(
                    s,
                    "  initial state: T0.xyz local id, T1.xyz group id, other GPRs 0; buffers are 32-bit pool offsets"
                );
            }
        }
        s
    }

    fn kernels(&self) -> Vec<String> {
        self.object.kernels.iter().map(|k| k.name.clone()).collect()
    }

    fn disassemble(&self, kernel: &str) -> Result<String> {
        let program = self.decode(self.kernel(kernel)?)?;
        let mut s = String::new();
        for line in wavejit_terascale::print_program(&program) {
            let _ = writeln!(s, "\t{line}");
        }
        Ok(s)
    }

    fn lift(&self, kernel: &str) -> Result<Lifted> {
        Ok(self.lift_kernel(self.kernel(kernel)?)?.0)
    }

    fn launch(
        &self,
        kernel: &str,
        grid: &Grid,
        args: &[PlacedArg],
        mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        let kernel = self.kernel(kernel)?;
        let values = args
            .iter()
            .enumerate()
            .map(|(i, a)| arg_value(i, *a))
            .collect::<Result<Vec<_>>>()?;
        let cb0 = mem
            .alloc_bytes(&launch::constant_buffer0(grid, &values), 256)
            .map_err(mem_err)?;
        let (lifted, program) = self.lift_kernel(kernel)?;
        let layout = TsLayout::new(grid.wave_size);
        let gds = if lifted.func.reads_file(layout.gds) {
            mem.alloc(u64::from(GDS_BYTES), 256).map_err(mem_err)?
        } else {
            0
        };
        Ok(LaunchPlan {
            lifted,
            lds_bytes: kernel.lds_size,
            private_lane_bytes: scratch_lane_bytes(&program),
            zero_before_dispatch: if gds != 0 {
                vec![(gds, u64::from(GDS_BYTES))]
            } else {
                Vec::new()
            },
            init: Box::new(TsWaveInit {
                chip: self.chip,
                layout,
                pool_base: POOL_BASE,
                cb0,
                gds,
            }),
        })
    }

    fn wave(&self, kernel: &str) -> Result<WaveProgram> {
        let k = self.kernel(kernel)?;
        let (lifted, program) = self.lift_kernel(k)?;
        Ok(WaveProgram {
            lifted,
            names: Box::new(names::TsNames::new(launch::wave_size(self.chip))),
            listing: wavejit_terascale::listing(&program),
            private_lane_bytes: scratch_lane_bytes(&program),
            lds_bytes: k.lds_size,
        })
    }
}

/// `VLIW5` (Evergreen, Northern Islands) or `VLIW4` (Cayman).
fn class_name(chip: Chip) -> &'static str {
    match chip.class() {
        ChipClass::Evergreen => "VLIW5",
        ChipClass::Cayman => "VLIW4",
    }
}

/// The resource and argument lines `info` prints for kernel `k` (whose code lies `place`).
fn describe_kernel(s: &mut String, chip: Chip, k: &Kernel, place: &str) {
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
            ArgValue::Offset(offset as u32)
        }
        value => value.value(),
    })
}

impl From<loader::LoadError> for Error {
    fn from(e: loader::LoadError) -> Error {
        Error::Load(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::ValueKind;

    #[test]
    fn pointers_are_offsets_from_the_pool_base_within_4_gib() {
        let buffer = |offset: u64, size| PlacedArg::Buffer {
            addr: POOL_BASE + offset,
            size,
        };
        assert_eq!(
            arg_value(0, buffer(0x100, 16)).unwrap(),
            ArgValue::Offset(0x100)
        );
        let last = (1 << 32) - 16;
        assert_eq!(
            arg_value(0, buffer(last, 16)).unwrap(),
            ArgValue::Offset(0xffff_fff0)
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
