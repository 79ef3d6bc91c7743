//! Apple G13 (the M1's GPU) behind the one frontend interface: raw machine code (`.bin`, one
//! kernel named after the file stem, entered at offset 0) and applegpu-syntax listings (`.s`,
//! [`asm`]), launched under the convention of [`wavejit_g13::launch`] (README.md "Apple
//! G13"). `--target g13` is required for both: nothing in raw code names its chip.
//!
//! The code sits at guest address 0, so every pc wavejit reports is a byte offset from the
//! file's first instruction, as `wavejit disasm` prints it.

pub mod asm;
pub mod fuzz;
mod names;

use crate::frontend::{BenchKernel, Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;
use wavejit_g13::launch::{G13WaveInit, DEFAULT_THREADGROUP_BYTES, MAX_ARGS};
use wavejit_g13::lift::{self, state::G13Layout, WAVE_SIZE};
use wavejit_ir::MemSpace;
use wavejit_runtime::{Grid, GuestMemory};

/// Private (stack) bytes each thread gets when its code uses the stack.
const STACK_BYTES: u32 = 4096;

/// The G13 frontend.
pub struct G13;

/// The registry's G13 entry.
pub static G13_FRONTEND: G13 = G13;

fn target() -> Target {
    Target {
        isa: "g13",
        name: "g13".into(),
        wave_size: WAVE_SIZE,
    }
}

impl Frontend for G13 {
    fn name(&self) -> &'static str {
        "g13"
    }

    fn target_names(&self) -> &'static [&'static str] {
        &["g13", "m1"]
    }

    fn target(&self, name: &str) -> Option<Target> {
        matches!(name.to_ascii_lowercase().as_str(), "g13" | "m1").then(target)
    }

    /// Raw G13 code has no header: it is only ever loaded with `--target g13`.
    fn sniff(&self, _bytes: &[u8]) -> bool {
        false
    }

    fn takes_raw_code(&self) -> bool {
        true
    }

    fn load(&self, bytes: &[u8], name: &str, _target: Option<&Target>) -> Result<Box<dyn Module>> {
        if bytes.is_empty() {
            return Err(Error::Load("empty file: no G13 code".into()));
        }
        Ok(Box::new(G13Module {
            code: bytes.to_vec(),
            kernels: vec![(name.to_string(), 0)],
            threadgroup_bytes: DEFAULT_THREADGROUP_BYTES,
            text: false,
        }))
    }

    fn assemble(&self, path: &Path, text: &str, _target: &Target) -> Result<Box<dyn Module>> {
        let a = asm::parse(path, text)?;
        Ok(Box::new(G13Module {
            code: a.code,
            kernels: a.kernels,
            threadgroup_bytes: a.threadgroup_bytes,
            text: true,
        }))
    }

    fn fuzz(&self, isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>> {
        fuzz::campaign(isa)
    }

    /// `benches/kernels/alu_heavy.g13.s`, written by hand (no compiler targets G13 here),
    /// assembled once.
    fn bench_kernel(&self) -> Option<BenchKernel> {
        static CODE: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
        let code = CODE.get_or_init(|| {
            let text = include_str!("../../../benches/kernels/alu_heavy.g13.s");
            asm::parse(Path::new("alu_heavy.g13.s"), text)
                .ok()
                .map(|a| a.code)
        });
        code.as_deref().map(|object| BenchKernel {
            chip: "g13",
            object,
        })
    }

    fn fuzz_names(&self) -> &'static [&'static str] {
        fuzz::FUZZ_NAMES
    }
}

/// A loaded G13 file: its code and kernels (name, entry offset).
pub struct G13Module {
    code: Vec<u8>,
    kernels: Vec<(String, u64)>,
    threadgroup_bytes: u32,
    /// Assembled from a `.s` file.
    text: bool,
}

impl G13Module {
    fn entry(&self, kernel: &str) -> Result<u64> {
        self.kernels
            .iter()
            .find(|k| k.0 == kernel)
            .map(|k| k.1)
            .ok_or_else(|| {
                wavejit_isa::KernelNotFound::new(kernel, self.kernels.iter().map(|k| k.0.as_str()))
                    .into()
            })
    }

    fn lift_kernel(&self, kernel: &str) -> Result<Lifted> {
        let entry = self.entry(kernel)?;
        let fail = |what: String| Error::Other(format!("kernel {kernel}: {what}"));
        let func = lift::lift(&self.code, entry, kernel).map_err(|e| fail(e.to_string()))?;
        wavejit_ir::verify::verify(&func)
            .map_err(|e| fail(format!("lifted IR is invalid: {e}")))?;
        if func.layout != G13Layout::new().layout {
            return Err(fail(
                "the lifted code's state layout is not the launch contract's".into(),
            ));
        }
        // Each reachable instruction is lifted into exactly one block.
        let machine_insts = func.blocks.iter().map(|b| b.guest_insts as usize).sum();
        Ok(Lifted {
            func: Arc::new(func),
            machine_insts,
        })
    }

    fn private_bytes(lifted: &Lifted) -> u32 {
        if lifted.func.uses_space(MemSpace::Private) {
            STACK_BYTES
        } else {
            0
        }
    }
}

impl Module for G13Module {
    fn target(&self) -> &Target {
        static TARGET: std::sync::OnceLock<Target> = std::sync::OnceLock::new();
        TARGET.get_or_init(target)
    }

    fn describe(&self) -> String {
        let mut s = String::new();
        let what = if self.text {
            "assembly file"
        } else {
            "raw code"
        };
        let _ = writeln!(
            s,
            "target: g13 (Apple M1 GPU, 32-thread SIMD-groups), {what}, {} bytes (launch convention: README.md \"Apple G13\")",
            self.code.len()
        );
        for (name, entry) in &self.kernels {
            let _ = writeln!(s, "kernel {name}:");
            match lift::discover(&self.code, *entry) {
                Ok((insts, _)) => {
                    let _ = writeln!(
                        s,
                        "  code: entry at offset {entry:#x}, {} reachable instructions",
                        insts.len()
                    );
                }
                Err(e) => {
                    let _ = writeln!(s, "  code: entry at offset {entry:#x}; {e}");
                }
            }
            let _ = writeln!(s, "  threadgroup memory: {} bytes", self.threadgroup_bytes);
            let _ = writeln!(
                s,
                "  arguments: argument i in u(2i) (low) and u(2i+1), at most {MAX_ARGS}; u248-u250 threads per grid"
            );
        }
        s
    }

    fn kernels(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.0.clone()).collect()
    }

    fn disassemble(&self, kernel: &str) -> Result<String> {
        let entry = self.entry(kernel)?;
        let listing = lift::listing(&self.code, entry)
            .map_err(|e| Error::Other(format!("kernel {kernel}: {e}")))?;
        let mut s = String::new();
        for (pc, text) in listing {
            let _ = writeln!(s, "{pc:6x}:  {text}");
        }
        Ok(s)
    }

    fn lift(&self, kernel: &str) -> Result<Lifted> {
        self.lift_kernel(kernel)
    }

    fn launch(
        &self,
        kernel: &str,
        grid: &Grid,
        args: &[PlacedArg],
        _mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        if args.len() > MAX_ARGS {
            return Err(Error::Usage(format!(
                "{} arguments; a G13 kernel takes at most {MAX_ARGS}",
                args.len()
            )));
        }
        let lifted = self.lift_kernel(kernel)?;
        let values = args.iter().map(|a| arg_value(*a)).collect();
        let _ = grid;
        Ok(LaunchPlan {
            private_lane_bytes: Self::private_bytes(&lifted),
            lifted,
            lds_bytes: self.threadgroup_bytes,
            init: Box::new(G13WaveInit {
                layout: G13Layout::new(),
                args: values,
                threadgroup_bytes: self.threadgroup_bytes,
            }),
            zero_before_dispatch: Vec::new(),
        })
    }

    fn wave(&self, kernel: &str) -> Result<WaveProgram> {
        let lifted = self.lift_kernel(kernel)?;
        let entry = self.entry(kernel)?;
        let listing = lift::listing(&self.code, entry)
            .map_err(|e| Error::Other(format!("kernel {kernel}: {e}")))?;
        Ok(WaveProgram {
            private_lane_bytes: Self::private_bytes(&lifted),
            lifted,
            names: Box::new(names::G13Names::new(self.threadgroup_bytes)),
            listing,
            lds_bytes: self.threadgroup_bytes,
        })
    }
}

/// An argument's 64-bit uniform pair value: a buffer's address, a value zero-extended.
fn arg_value(a: PlacedArg) -> u64 {
    match a {
        PlacedArg::Buffer { addr, .. } => addr,
        PlacedArg::Value { bits, kind } => {
            if kind.bytes() == 4 {
                bits & 0xffff_ffff
            } else {
                bits
            }
        }
        // The launcher gives G13 no OpenCL argument kinds (Module::takes_local_and_struct_args).
        PlacedArg::Local { .. } | PlacedArg::Struct { .. } => 0,
    }
}
