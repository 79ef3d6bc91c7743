//! wavejit-jit: compiles IR blocks with Cranelift into host SIMD code.
//!
//! Each IR block becomes one host function `extern "C" fn(*mut JitCtx) -> u32` that runs the
//! block for a whole wave and returns where the wave goes next. Inside, lane-parallel work runs
//! as loops over 4-lane chunks ([`plan`] decides the loops, [`emit`] builds them, [`lower`]
//! inlines ops); memory, cross-lane and indexed-register instructions call
//! [`wavejit_runtime::effects::run_effect`], and ops not inlined call
//! [`wavejit_ir::semantics::eval`], so results are bit-identical to the interpreter.
//!
//! Blocks are compiled when a function is prepared (a Cranelift error is an
//! [`ExecError::Emulator`] then, never a panic later) and cached by their contents and state
//! layout, so preparing the same function again reuses the code.

mod compile;
mod ctx;
mod emit;
mod lower;
mod plan;
mod program;
mod vals;

use compile::{CompiledBlock, Compiler};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use wavejit_ir::{BlockData, Function, StateLayout};
use wavejit_runtime::{Engine, ExecError, Program};

/// Code generation options. The defaults are the fast, exact configuration; the switches
/// exist to measure and to test each mechanism against the others.
#[derive(Clone, Debug)]
pub struct JitOptions {
    /// Cranelift `opt_level=speed` (else `none`).
    pub optimize: bool,
    /// Run Cranelift's IR verifier (on in debug builds).
    pub verifier: bool,
    /// Inline the ops the JIT knows; off sends every pure op through the semantics helper.
    pub inline: bool,
    /// Specialise chunk loops on all-ones write masks.
    pub fast_path: bool,
    /// Blend masked register writes once per row (see the `emit` module).
    pub lazy_blend: bool,
}

impl Default for JitOptions {
    fn default() -> Self {
        JitOptions {
            optimize: true,
            verifier: cfg!(debug_assertions),
            inline: true,
            fast_path: true,
            lazy_blend: true,
        }
    }
}

/// Counters of a [`Jit`] since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JitStats {
    pub blocks_compiled: u64,
    pub cache_hits: u64,
    /// IR instructions in compiled blocks.
    pub insts_compiled: u64,
    pub code_bytes: u64,
    pub compile_nanos: u64,
}

struct CacheEntry {
    layout: StateLayout,
    block: BlockData,
    code: Arc<CompiledBlock>,
}

struct Inner {
    compiler: Compiler,
    cache: HashMap<u64, Vec<CacheEntry>>,
    stats: JitStats,
}

/// Owns the code memory; programs keep it alive.
pub(crate) struct Shared {
    inner: Mutex<Inner>,
}

/// The Cranelift engine.
pub struct Jit {
    shared: Arc<Shared>,
}

fn key(layout: &StateLayout, block: &BlockData) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{layout:?}{block:?}").hash(&mut h);
    h.finish()
}

impl Jit {
    /// A JIT for the host with the default options.
    pub fn new() -> Result<Jit, ExecError> {
        Jit::with_options(JitOptions::default())
    }

    pub fn with_options(opts: JitOptions) -> Result<Jit, ExecError> {
        let compiler = Compiler::new(&opts).map_err(ExecError::Emulator)?;
        Ok(Jit {
            shared: Arc::new(Shared {
                inner: Mutex::new(Inner {
                    compiler,
                    cache: HashMap::new(),
                    stats: JitStats::default(),
                }),
            }),
        })
    }

    /// Whether the host has fused multiply-add (without it, `fma` runs in a helper).
    pub fn has_native_fma(&self) -> bool {
        self.lock().compiler.has_fma()
    }

    pub fn stats(&self) -> JitStats {
        self.lock().stats
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves only counters and a cache of finished code.
        self.shared.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn compile_function(&self, func: &Function) -> Result<Vec<Arc<CompiledBlock>>, ExecError> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let keys: Vec<u64> = func.blocks.iter().map(|b| key(&func.layout, b)).collect();
        let find = |cache: &HashMap<u64, Vec<CacheEntry>>, i: usize| {
            cache.get(&keys[i]).and_then(|es| {
                es.iter()
                    .find(|e| e.layout == func.layout && e.block == func.blocks[i])
                    .map(|e| e.code.clone())
            })
        };
        let missing: Vec<usize> = (0..func.blocks.len())
            .filter(|&i| find(&inner.cache, i).is_none())
            .collect();
        inner.stats.cache_hits += (func.blocks.len() - missing.len()) as u64;
        if !missing.is_empty() {
            let t = Instant::now();
            let blocks: Vec<&BlockData> = missing.iter().map(|&i| &func.blocks[i]).collect();
            let compiled = inner
                .compiler
                .compile(&func.layout, &blocks)
                .map_err(|e| ExecError::Emulator(format!("JIT compile of {}: {e}", func.name)))?;
            inner.stats.compile_nanos += t.elapsed().as_nanos() as u64;
            for (&i, code) in missing.iter().zip(compiled) {
                inner.stats.blocks_compiled += 1;
                inner.stats.insts_compiled += func.blocks[i].insts.len() as u64;
                inner.stats.code_bytes += code.code_bytes as u64;
                inner.cache.entry(keys[i]).or_default().push(CacheEntry {
                    layout: func.layout.clone(),
                    block: func.blocks[i].clone(),
                    code: Arc::new(code),
                });
            }
        }
        (0..func.blocks.len())
            .map(|i| {
                find(&inner.cache, i)
                    .ok_or_else(|| ExecError::Emulator("JIT cache lost a block".into()))
            })
            .collect()
    }
}

impl Engine for Jit {
    fn name(&self) -> &'static str {
        "jit"
    }

    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError> {
        // The code generator relies on what the verifier guarantees (typed, earlier operands,
        // registers inside their files), as the interpreter does.
        wavejit_ir::verify::verify(&func)
            .map_err(|e| ExecError::Setup(format!("{}: invalid IR: {e}", func.name)))?;
        let blocks = self.compile_function(&func)?;
        Ok(Arc::new(program::JitProgram::new(
            func,
            blocks,
            self.shared.clone(),
        )))
    }
}
