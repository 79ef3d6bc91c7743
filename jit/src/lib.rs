//! wavejit-jit: compiles IR blocks with Cranelift into host SIMD code.
//!
//! Each IR block becomes one host function `extern "C" fn(*mut JitCtx) -> u32` that runs the
//! block (at tier 2 with the rest of its trace) for a whole wave and returns where the wave
//! goes next. Inside, lane-parallel work runs
//! as loops over 4-lane chunks (`plan` decides the loops, `emit` builds them, `lower`
//! inlines ops). Global and LDS loads and stores are compiled inline with a range check and
//! [`wavejit_runtime::effects::run_effect`] as their exact slow path (`emit::memory`); other
//! memory, cross-lane and lane-indexed register instructions call `run_effect`, and ops not
//! inlined call [`wavejit_ir::semantics::eval`], so results are bit-identical to the
//! interpreter.
//!
//! Code whose float ops all flush their inputs (TeraScale's) runs with the host's
//! denormals-are-zero mode set and leaves those flushes to it ([`host_float`]); the helpers it
//! calls clear the mode while they compute.
//!
//! Blocks are compiled when a function is prepared (a Cranelift error is an
//! [`ExecError::Emulator`] then, never a panic later) and cached by their contents and state
//! layout, so preparing the same function again reuses the code. A JIT that has compiled
//! [`JitOptions::code_limit`] bytes starts fresh modules and an empty cache; the old code lives
//! until the last program using it is dropped.
//!
//! Compilation is tiered. `prepare` compiles at tier 1 (Cranelift `opt_level=none`,
//! single-pass register allocation): quick to compile, slower to run. Each block of a prepared
//! program counts its executions; the execution that reaches [`JitOptions::tier_up_after`]
//! recompiles the block at tier 2 (`opt_level=speed`, backtracking allocation) on the thread
//! that reached it, while other threads keep running tier 1, and publishes the new code for
//! every later execution. Both tiers come from the same emitter, so they compute the same bits.
//! A tier-2 function holds the block's trace ([`trace`]): the blocks of the loops through it,
//! which jump to each other inside the host function and charge the dispatcher's budget
//! themselves. Tier-2 code is cached by its trace's blocks and their indices, tier-1 code by
//! the block alone.
//!
//! Profiling: each compiled block is named `wavejit_t{tier}_pc{guest pc}_{n}` (what perf shows
//! through the map Cranelift writes); `WAVEJIT_JIT_DISASM=1` prints each block's host code and
//! `WAVEJIT_JIT_DUMP=DIR` writes it to `DIR/NAME.bin` for `scripts/jit_annotate.py`.

mod compile;
mod ctx;
mod emit;
mod gather;
mod host_float;
mod lower;
mod offset_gather;
mod plan;
mod program;
mod row_address;
mod scatter;
#[cfg(test)]
mod testutil;
mod trace;
mod vals;

use compile::{CompiledBlock, Compiler, Tier, Unit};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use wavejit_ir::{Block, BlockData, Function, StateLayout};
use wavejit_runtime::{Engine, ExecError, Program};

/// Code generation options. The defaults are the fast, exact configuration; the switches
/// exist to measure and to test each mechanism against the others.
#[derive(Clone, Debug)]
pub struct JitOptions {
    /// Executions of a block after which it is recompiled at tier 2. `Some(0)` compiles at
    /// tier 2 already when a function is prepared; `None` keeps every block at tier 1.
    pub tier_up_after: Option<u32>,
    /// Run Cranelift's IR verifier (on in debug builds), at both tiers.
    pub verifier: bool,
    /// Inline the ops the JIT knows; off sends every pure op through the semantics helper.
    pub inline: bool,
    /// Compile global and LDS loads and stores inline, with the helper as their exact slow
    /// path; off sends every memory access through the helper.
    pub inline_memory: bool,
    /// Specialise chunk loops on all-ones write masks.
    pub fast_path: bool,
    /// Blend masked register writes once per row (see the `emit` module).
    pub lazy_blend: bool,
    /// At tier 2, run chunk loops first in a copy whose float ops assume operands without
    /// NaNs, falling back to the exact copy for the rest of a loop when one occurs (see the
    /// `emit` module).
    pub nan_speculation: bool,
    /// Leave the input flushes of host float arithmetic to the host's denormals-are-zero mode
    /// in code whose float ops all flush their inputs (see the `host_float` module).
    pub host_daz: bool,
    /// Code bytes compiled into a JIT's modules before it starts fresh ones (and empties its
    /// cache): the old code is freed once no program uses it, so a JIT that compiles
    /// program after program (a fuzz campaign, a server) stays within about this much code.
    pub code_limit: u64,
}

impl JitOptions {
    /// Tier-up threshold of the default options.
    pub const DEFAULT_TIER_UP_AFTER: u32 = 256;

    /// The tier `prepare` compiles at.
    fn prepare_tier(&self) -> Tier {
        match self.tier_up_after {
            Some(0) => Tier::Two,
            _ => Tier::One,
        }
    }
}

impl Default for JitOptions {
    fn default() -> Self {
        JitOptions {
            tier_up_after: Some(Self::DEFAULT_TIER_UP_AFTER),
            verifier: cfg!(debug_assertions),
            inline: true,
            inline_memory: true,
            fast_path: true,
            lazy_blend: true,
            nan_speculation: true,
            host_daz: true,
            code_limit: 64 << 20,
        }
    }
}

/// Counters of a [`Jit`] since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JitStats {
    /// Blocks compiled by `prepare` (at tier 1, or tier 2 when `tier_up_after` is `Some(0)`).
    pub blocks_compiled: u64,
    /// Blocks whose code `prepare` or a tier-up found in the cache.
    pub cache_hits: u64,
    /// IR instructions in blocks compiled by `prepare`.
    pub insts_compiled: u64,
    /// Code of blocks compiled by `prepare`.
    pub code_bytes: u64,
    /// Time `prepare` spent compiling.
    pub compile_nanos: u64,
    /// Blocks recompiled at tier 2 after `tier_up_after` executions.
    pub tier_ups: u64,
    /// Time spent in those recompiles.
    pub tier_up_nanos: u64,
    /// Code of those recompiles.
    pub tier_up_code_bytes: u64,
    /// Recompiles Cranelift rejected; those blocks keep running their tier-1 code.
    pub tier_up_failures: u64,
    /// Blocks compiled into tier-2 functions besides their head: the other blocks of the
    /// traces ([`trace`]).
    pub trace_blocks: u64,
    /// Times the JIT started fresh modules after [`JitOptions::code_limit`] bytes of code.
    pub fresh_modules: u64,
}

struct CacheEntry {
    layout: StateLayout,
    tier: Tier,
    /// The unit's blocks, as compiled.
    unit: Vec<(Option<Block>, BlockData)>,
    code: Arc<CompiledBlock>,
}

struct Inner {
    /// Per tier ([`Tier::index`]); `None` for a tier these options never compile at.
    compilers: [Option<Compiler>; 2],
    cache: HashMap<u64, Vec<CacheEntry>>,
    stats: JitStats,
    /// Code bytes compiled into the current compilers' modules.
    module_bytes: u64,
}

/// Owns the code memory; programs keep it alive.
pub(crate) struct Shared {
    inner: Mutex<Inner>,
    opts: JitOptions,
    fma: bool,
}

/// The Cranelift engine.
pub struct Jit {
    shared: Arc<Shared>,
}

fn hash_of(x: &impl std::fmt::Debug) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{x:?}").hash(&mut h);
    h.finish()
}

/// The hashes the cache is keyed by: the layout's and each block's, computed once.
struct Keys {
    layout: u64,
    blocks: Vec<u64>,
}

impl Keys {
    fn of(func: &Function) -> Keys {
        Keys {
            layout: hash_of(&func.layout),
            blocks: func.blocks.iter().map(hash_of).collect(),
        }
    }

    /// The key of the unit headed by block `head` at `tier`: tier 1 compiles the block
    /// alone, tier 2 its trace.
    fn unit<'f>(&self, func: &'f Function, head: Block, tier: Tier) -> (u64, Unit<'f>) {
        let unit: Unit<'f> = match tier {
            Tier::One => vec![(None, &func.blocks[head.index()])],
            Tier::Two => trace::trace(func, head)
                .into_iter()
                .map(|b| (Some(b), &func.blocks[b.index()]))
                .collect(),
        };
        let mut h = DefaultHasher::new();
        (self.layout, tier.index()).hash(&mut h);
        for &(b, _) in &unit {
            let at = b.unwrap_or(head).index();
            (b.map(|b| b.0), self.blocks[at]).hash(&mut h);
        }
        (h.finish(), unit)
    }
}

/// The cached code of `unit` at `tier`.
fn find(
    cache: &HashMap<u64, Vec<CacheEntry>>,
    key: u64,
    layout: &StateLayout,
    unit: &Unit<'_>,
    tier: Tier,
) -> Option<Arc<CompiledBlock>> {
    let same = |e: &CacheEntry| {
        e.tier == tier
            && e.layout == *layout
            && e.unit.len() == unit.len()
            && e.unit
                .iter()
                .zip(unit)
                .all(|(a, b)| a.0 == b.0 && a.1 == *b.1)
    };
    cache
        .get(&key)
        .and_then(|es| es.iter().find(|e| same(e)).map(|e| e.code.clone()))
}

fn insert(
    cache: &mut HashMap<u64, Vec<CacheEntry>>,
    key: u64,
    layout: &StateLayout,
    unit: &Unit<'_>,
    code: Arc<CompiledBlock>,
) {
    cache.entry(key).or_default().push(CacheEntry {
        layout: layout.clone(),
        tier: code.tier,
        unit: unit.iter().map(|&(b, d)| (b, d.clone())).collect(),
        code,
    });
}

/// The compilers `opts` use, per tier.
fn compilers(opts: &JitOptions) -> Result<[Option<Compiler>; 2], String> {
    let tier1 = match opts.tier_up_after {
        Some(0) => None,
        _ => Some(Compiler::new(opts, Tier::One)?),
    };
    let tier2 = match opts.tier_up_after {
        Some(_) => Some(Compiler::new(opts, Tier::Two)?),
        None => None,
    };
    Ok([tier1, tier2])
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves only counters and a cache of finished code.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts fresh modules when the current ones hold [`JitOptions::code_limit`] bytes of
    /// code. The cache forgets the old code; programs using it keep it alive.
    fn make_room(&self, inner: &mut Inner) {
        if inner.module_bytes < self.opts.code_limit {
            return;
        }
        // If Cranelift cannot start a module now, the old ones keep serving.
        if let Ok(fresh) = compilers(&self.opts) {
            inner.compilers = fresh;
            inner.cache.clear();
            inner.module_bytes = 0;
            inner.stats.fresh_modules += 1;
        }
    }

    /// Tier-2 code for block `head` of `func` (the code of its trace), from the cache or
    /// compiled now; `None` if Cranelift rejects it (counted in
    /// [`JitStats::tier_up_failures`]; the caller keeps its tier-1 code).
    pub(crate) fn tier_up(
        &self,
        func: &Function,
        keys: &Keys,
        head: Block,
    ) -> Option<Arc<CompiledBlock>> {
        let (k, unit) = keys.unit(func, head, Tier::Two);
        let layout = &func.layout;
        let mut inner = self.lock();
        let inner = &mut *inner;
        if let Some(code) = find(&inner.cache, k, layout, &unit, Tier::Two) {
            inner.stats.cache_hits += 1;
            return Some(code);
        }
        self.make_room(inner);
        let t = Instant::now();
        let compiled = match inner.compilers[Tier::Two.index()].as_mut() {
            Some(c) => c.compile(layout, std::slice::from_ref(&unit)),
            None => Err("no tier-2 compiler".into()),
        };
        let Some(code) = compiled.ok().and_then(|mut v| v.pop()) else {
            inner.stats.tier_up_failures += 1;
            return None;
        };
        inner.stats.tier_ups += 1;
        inner.stats.trace_blocks += unit.len().saturating_sub(1) as u64;
        inner.stats.tier_up_nanos += t.elapsed().as_nanos() as u64;
        inner.stats.tier_up_code_bytes += code.code_bytes as u64;
        inner.module_bytes += code.code_bytes as u64;
        let code = Arc::new(code);
        insert(&mut inner.cache, k, layout, &unit, code.clone());
        Some(code)
    }
}

impl Jit {
    /// A JIT for the host with the default options.
    pub fn new() -> Result<Jit, ExecError> {
        Jit::with_options(JitOptions::default())
    }

    pub fn with_options(opts: JitOptions) -> Result<Jit, ExecError> {
        let compilers = compilers(&opts).map_err(ExecError::Emulator)?;
        let fma = compilers
            .iter()
            .flatten()
            .next()
            .is_some_and(|c| c.has_fma());
        Ok(Jit {
            shared: Arc::new(Shared {
                inner: Mutex::new(Inner {
                    compilers,
                    cache: HashMap::new(),
                    stats: JitStats::default(),
                    module_bytes: 0,
                }),
                opts,
                fma,
            }),
        })
    }

    /// Whether the host has fused multiply-add (without it, `fma` runs in a helper).
    pub fn has_native_fma(&self) -> bool {
        self.shared.fma
    }

    pub fn stats(&self) -> JitStats {
        self.shared.lock().stats
    }

    /// Code for every block of `func`: cached tier-2 code where there is some, else code at
    /// the prepare tier, compiled now if not cached.
    fn compile_function(
        &self,
        func: &Function,
        keys: &Keys,
    ) -> Result<Vec<Arc<CompiledBlock>>, ExecError> {
        let tier = self.shared.opts.prepare_tier();
        let mut inner = self.shared.lock();
        let inner = &mut *inner;
        self.shared.make_room(inner);
        let layout = &func.layout;
        let units: Vec<_> = (0..func.blocks.len())
            .map(|i| keys.unit(func, Block(i as u32), tier))
            .collect();
        // Each block's trace, to look for its tier-2 code (formed once: the lookup runs twice).
        let hot: Vec<_> = match tier {
            Tier::Two => Vec::new(),
            Tier::One => (0..func.blocks.len())
                .map(|i| keys.unit(func, Block(i as u32), Tier::Two))
                .collect(),
        };
        let cached = |cache: &HashMap<u64, Vec<CacheEntry>>, i: usize| {
            hot.get(i)
                .and_then(|(k, unit)| find(cache, *k, layout, unit, Tier::Two))
                .or_else(|| find(cache, units[i].0, layout, &units[i].1, tier))
        };
        let missing: Vec<usize> = (0..func.blocks.len())
            .filter(|&i| cached(&inner.cache, i).is_none())
            .collect();
        inner.stats.cache_hits += (func.blocks.len() - missing.len()) as u64;
        if !missing.is_empty() {
            let t = Instant::now();
            let todo: Vec<Unit<'_>> = missing.iter().map(|&i| units[i].1.clone()).collect();
            let compiler = inner.compilers[tier.index()]
                .as_mut()
                .ok_or_else(|| ExecError::Emulator(format!("no compiler for {tier:?}")))?;
            let compiled = compiler
                .compile(layout, &todo)
                .map_err(|e| ExecError::Emulator(format!("JIT compile of {}: {e}", func.name)))?;
            inner.stats.compile_nanos += t.elapsed().as_nanos() as u64;
            for (&i, code) in missing.iter().zip(compiled) {
                inner.stats.blocks_compiled += 1;
                if tier == Tier::Two {
                    inner.stats.trace_blocks += units[i].1.len().saturating_sub(1) as u64;
                }
                inner.stats.insts_compiled += func.blocks[i].insts.len() as u64;
                inner.stats.code_bytes += code.code_bytes as u64;
                inner.module_bytes += code.code_bytes as u64;
                insert(
                    &mut inner.cache,
                    units[i].0,
                    layout,
                    &units[i].1,
                    Arc::new(code),
                );
            }
        }
        (0..func.blocks.len())
            .map(|i| {
                cached(&inner.cache, i)
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
        let keys = Keys::of(&func);
        let blocks = self.compile_function(&func, &keys)?;
        Ok(Arc::new(program::JitProgram::new(
            func,
            keys,
            blocks,
            self.shared.clone(),
        )))
    }
}
