//! The Cranelift modules: ISA setup per tier, compiling blocks, owning their code.
//!
//! Both tiers run the same planner and emitter on the same block, so their code computes the
//! same bits; only Cranelift's flags differ. Cranelift's flags belong to the ISA and thus to
//! the module, so each tier has its own [`Compiler`] and its own code memory.
//!
//! A module's code memory ([`CodeMemory`]) is freed when the last thing holding it goes: its
//! compiler and every [`CompiledBlock`] compiled into it (the blocks of live programs and of
//! the JIT's cache). A JIT that has compiled enough replaces its compilers with fresh ones
//! (`crate::Shared`), so a long-running JIT does not keep every block it ever compiled.

use crate::ctx::JitCtx;
use crate::emit::{block_signature, Artifacts, Cfg, Emitter, TraceBlock};
use crate::host_float;
use crate::lower::LowerCfg;
use crate::plan::plan;
use crate::JitOptions;
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Module};
use std::sync::{Arc, Mutex};
use wavejit_ir::{Block, BlockData, InstKind, ScalarType, StateLayout};

/// A compiled block's entry point.
pub(crate) type BlockFn = unsafe extern "C" fn(*mut JitCtx) -> u32;

/// How hard Cranelift works on a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tier {
    /// `opt_level=none` and the single-pass register allocator: fast to compile.
    One,
    /// `opt_level=speed` and the backtracking register allocator: fast to run.
    Two,
}

impl Tier {
    /// Position in per-tier arrays.
    pub fn index(self) -> usize {
        match self {
            Tier::One => 0,
            Tier::Two => 1,
        }
    }
}

/// What one host function runs: the blocks of a trace ([`crate::trace`]), head first, with
/// their indices in the function; a single block with index `None` is code that never
/// continues in another block (tier 1's).
pub(crate) type Unit<'a> = Vec<(Option<Block>, &'a BlockData)>;

/// Compiled code of one block (or of a trace headed by it) and what it points at.
#[derive(Debug)]
pub(crate) struct CompiledBlock {
    pub entry: BlockFn,
    pub tier: Tier,
    /// Scratch slots the code uses.
    pub n_slots: u32,
    pub code_bytes: usize,
    /// The code runs with the host's denormals-are-zero mode ([`host_float`]).
    pub daz: bool,
    _arts: Artifacts,
    /// The module holding the code: alive as long as the block.
    _memory: Arc<CodeMemory>,
}

/// One Cranelift module, the owner of the code compiled into it.
pub(crate) struct CodeMemory {
    /// `None` only while being dropped.
    module: Mutex<Option<JITModule>>,
}

impl std::fmt::Debug for CodeMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeMemory")
    }
}

impl Drop for CodeMemory {
    fn drop(&mut self) {
        let module = self.module.get_mut().unwrap_or_else(|p| p.into_inner());
        if let Some(m) = module.take() {
            // SAFETY: every block compiled into this module holds this memory, so no code of
            // it can run any more.
            unsafe { m.free_memory() };
        }
    }
}

pub(crate) struct Compiler {
    memory: Arc<CodeMemory>,
    cfg: Cfg,
    call_conv: CallConv,
    tier: Tier,
    /// The options ask for DAZ code and the host has the mode.
    host_daz: bool,
    /// Functions declared so far in the module (their names must be unique).
    declared: u64,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl Compiler {
    pub fn new(opts: &JitOptions, tier: Tier) -> Result<Compiler, String> {
        let (opt_level, regalloc) = match tier {
            Tier::One => ("none", "single_pass"),
            Tier::Two => ("speed", "backtracking"),
        };
        let mut flags = settings::builder();
        flags.set("opt_level", opt_level).map_err(err)?;
        flags.set("regalloc_algorithm", regalloc).map_err(err)?;
        flags
            .set(
                "enable_verifier",
                if opts.verifier { "true" } else { "false" },
            )
            .map_err(err)?;
        flags.set("use_colocated_libcalls", "false").map_err(err)?;
        flags.set("is_pic", "false").map_err(err)?;
        let isa = cranelift_native::builder()
            .map_err(|e| format!("host ISA not supported by Cranelift: {e}"))?
            .finish(settings::Flags::new(flags))
            .map_err(err)?;
        let fma = isa.has_native_fma();
        let round = isa.has_round();
        let call_conv = isa.default_call_conv();
        let module = JITModule::new(JITBuilder::with_isa(
            isa,
            cranelift_module::default_libcall_names(),
        ));
        let cfg = Cfg {
            lower: LowerCfg {
                fma,
                round,
                daz: false,
            },
            inline: opts.inline,
            inline_memory: opts.inline_memory,
            // Tier 1 runs a block at most `tier_up_after` times, so the all-ones copy of each
            // chunk loop would cost more compile time than it saves; tier 2 gets it.
            fast_path: opts.fast_path && tier == Tier::Two,
            lazy_blend: opts.lazy_blend,
            // Like the fast path, a second copy of the loop body: worth it at tier 2 only.
            nan_spec: opts.nan_speculation && tier == Tier::Two,
        };
        Ok(Compiler {
            memory: Arc::new(CodeMemory {
                module: Mutex::new(Some(module)),
            }),
            cfg,
            call_conv,
            tier,
            host_daz: opts.host_daz && host_float::available(),
            declared: 0,
        })
    }

    pub fn has_fma(&self) -> bool {
        self.cfg.lower.fma
    }

    /// Compiles `units` (all of one layout) and makes their code executable.
    pub fn compile(
        &mut self,
        layout: &StateLayout,
        units: &[Unit<'_>],
    ) -> Result<Vec<CompiledBlock>, String> {
        let mut fctx = FunctionBuilderContext::new();
        let mut pending: Vec<(FuncId, u32, usize, bool, Artifacts)> = Vec::new();
        let memory = self.memory.clone();
        let mut guard = memory.module.lock().unwrap_or_else(|p| p.into_inner());
        let module = guard.as_mut().ok_or("the code memory was freed")?;
        let call_conv = self.call_conv;
        // A debugging aid: print the host code of every block compiled.
        let disasm = std::env::var_os("WAVEJIT_JIT_DISASM").is_some();
        let dump = std::env::var_os("WAVEJIT_JIT_DUMP").map(std::path::PathBuf::from);
        for (bi, unit) in units.iter().enumerate() {
            let Some(&(_, blk)) = unit.first() else {
                return Err(format!("unit {bi} has no block"));
            };
            let plans = unit
                .iter()
                .map(|(_, data)| plan(layout, data))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("block {bi}: {e}"))?;
            let trace: Vec<TraceBlock> = unit
                .iter()
                .zip(&plans)
                .map(|(&(index, data), plan)| TraceBlock { index, data, plan })
                .collect();
            let n_slots = plans.iter().map(|p| p.n_slots).max().unwrap_or(0);
            let mut ctx = module.make_context();
            ctx.func.signature = block_signature(call_conv);
            let mut arts = Artifacts::default();
            let mut cfg = self.cfg;
            cfg.lower.daz = self.host_daz && daz_pays(unit);
            let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let built = Emitter::build(b, &trace, layout, cfg, &mut arts, call_conv);
            let b = match built {
                Ok(b) => b,
                Err(e) => {
                    module.clear_context(&mut ctx);
                    return Err(format!("block {bi}: {e}"));
                }
            };
            b.finalize(module.target_config());
            // Named after the block's guest pc and tier, so that profiles (the perf map
            // Cranelift writes under `perf`) attribute time to guest code.
            let pc = blk.guest_pc.or(blk.insts.first().map(|i| u64::from(i.pc)));
            let name = format!(
                "wavejit_t{}_pc{:x}_{}",
                self.tier.index() + 1,
                pc.unwrap_or(0),
                self.declared
            );
            self.declared += 1;
            let id = module
                .declare_function(&name, cranelift_module::Linkage::Local, &ctx.func.signature)
                .map_err(err)?;
            ctx.set_disasm(disasm);
            let defined = module.define_function(id, &mut ctx);
            if disasm {
                if let Some(vcode) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
                    eprintln!(
                        "; wavejit block {bi} {name} ({} blocks, {} IR instructions)\n{vcode}",
                        unit.len(),
                        unit.iter().map(|(_, d)| d.insts.len()).sum::<usize>()
                    );
                }
            }
            let code_bytes = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
            // A profiling aid: the machine code of every block, for `objdump -D -b binary`
            // against the addresses of perf's samples (its map names the functions).
            if let (Some(dir), Some(c)) = (&dump, ctx.compiled_code()) {
                let _ = std::fs::write(dir.join(format!("{name}.bin")), c.code_buffer());
            }
            module.clear_context(&mut ctx);
            defined.map_err(|e| format!("block {bi}: cranelift: {e:?}"))?;
            pending.push((id, n_slots, code_bytes, cfg.lower.daz, arts));
        }
        let tier = self.tier;
        module.finalize_definitions().map_err(err)?;
        Ok(pending
            .into_iter()
            .map(|(id, n_slots, code_bytes, daz, arts)| {
                let p = module.get_finalized_function(id);
                // SAFETY: `id` was defined with `block_signature`, which is this type under the
                // ISA's default (System V / C) calling convention.
                let entry = unsafe { std::mem::transmute::<*const u8, BlockFn>(p) };
                CompiledBlock {
                    entry,
                    tier,
                    n_slots,
                    code_bytes,
                    daz,
                    _arts: arts,
                    _memory: self.memory.clone(),
                }
            })
            .collect())
    }
}

/// Whether `unit` can run with the host's denormals-are-zero mode and gains from it: every op
/// with a float mode and f32 or f64 operands flushes its inputs (so the mode changes no result
/// the semantics define), and there is at least one.
fn daz_pays(unit: &Unit<'_>) -> bool {
    let mut some = false;
    for (_, data) in unit {
        for inst in &data.insts {
            let InstKind::Pure { op, mode, args } = inst.kind else {
                continue;
            };
            let host_float = args[..op.arity().min(4)].iter().any(|&a| {
                data.value_type(a)
                    .is_some_and(|t| matches!(t.scalar, ScalarType::F32 | ScalarType::F64))
            });
            if op.uses_float_mode() && host_float {
                if !mode.flush_in {
                    return false;
                }
                some = true;
            }
        }
    }
    some
}
