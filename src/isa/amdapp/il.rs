//! The IL encoding of AMD APP SDK binaries (`--encoding il`), run through the IL module's
//! lifter and launch ([`crate::isa::amdil::code`]) under the driver's convention for it: the
//! ABI data and the arguments are the ones [`launch`] gives the ISA encoding, and the IL
//! reaches them as AMD's compiler wrote it to (../shared/notes/il_sources.md §2).
//!
//! - **CB0**: the ABI data, the same definition as the ISA encoding's ([`launch::cb0`]).
//! - **CB1**: the arguments at their metadata offsets, as [`launch`] lays them out: a global
//!   pointer is its buffer's byte offset in the arena, a `__local` pointer its LDS offset
//!   (after the static `hwlocal` bytes), a value its bytes.
//! - **The arena**: guest memory from its base, which every raw UAV id (`dcl_raw_uav_id(11)`,
//!   `dcl_typeless_uav_id(10|11|12)`) and the arena UAV (`dcl_arena_uav_id(8)`) address.
//! - **Constant buffers** 2 and up: the program-scope `__constant` data `__OpenCL_<N>_global`
//!   is cb N; a `__constant` pointer argument's buffer is cb `resource_id` (its CB1 slot holds
//!   0, so the IL's `cb#[slot + k]` indexes count from the buffer's start).
//! - **LDS**: the larger of the end of the `__local` arguments and the IL's `dcl_lds` size
//!   (AMD's compiler declares the whole 32 KiB).
//!
//! - **Private memory**: Southern Islands IL keeps a work-item's private arrays in a typeless
//!   UAV declared `_access(private)` (UAV 8, `;memory:uavprivate` bytes per work-item, e.g.
//!   MonteCarloAsian): each lane's own private memory of the declared length
//!   ([`IlCode::plan`]).
//!
//! Kernels with image, sampler or counter arguments are refused as for the ISA encoding; the
//! ISA encoding's scratch and NUM_THREAD_PER_GROUP checks do not apply (the IL's own
//! `dcl_max_thread_per_group` bounds the work-group instead).

use super::launch;
use crate::frontend::LaunchPlan;
use crate::isa::amdil::code::{place_const_buffers, IlCode};
use crate::launch::{mem_err, PlacedArg};
use crate::{Error, Result};
use wavejit_amdil::appsdk::{Binary, Kernel};
use wavejit_amdil::inst::Program;
use wavejit_amdil::launch::LDS_LIMIT;
use wavejit_runtime::{Grid, GuestMemory};

/// The kernel's IL program, decoded from its IL encoding.
pub(super) fn program(kernel: &Kernel) -> Result<Program> {
    let fail = |e: String| Error::Other(format!("kernel {}: {e}", kernel.name));
    let il = kernel
        .il()
        .ok_or_else(|| fail("the binary has no IL encoding of it".into()))?;
    wavejit_amdil::decode::decode(&il.text).map_err(|e| fail(format!("IL encoding: {e}")))
}

/// The kernel's IL as the IL module runs it, for waves of `wave_size` lanes.
pub(super) fn code<'a>(kernel: &'a Kernel, program: &'a Program, wave_size: u32) -> IlCode<'a> {
    IlCode {
        program,
        name: &kernel.name,
        wave_size,
    }
}

/// Places the driver's data for `args` (already in `mem`) and plans the launch of the IL.
pub(super) fn launch(
    binary: &Binary,
    kernel: &Kernel,
    code: &IlCode<'_>,
    grid: &Grid,
    args: &[PlacedArg],
    mem: &mut GuestMemory,
) -> Result<LaunchPlan> {
    launch::check_args(kernel, grid, args)?;
    let usage = |what: String| Error::Usage(format!("kernel {}: {what}", kernel.name));
    let declared = code.declared()?;
    declared.check_grid(grid).map_err(usage)?;
    let arena = mem.base();
    let a = launch::arguments(kernel, args, arena, mem)?;
    let mut given = vec![(0, launch::cb0(grid, launch::CB0_MIN_BYTES)), (1, a.cb1)];
    given.extend(binary.globals.iter().map(|g| (g.cb, g.bytes.clone())));
    for (cb, addr, size) in a.constant {
        let mut bytes = vec![0u8; size as usize];
        mem.read_bytes(addr, &mut bytes).map_err(mem_err)?;
        given.push((cb, bytes));
    }
    given.sort_by_key(|g| g.0);
    if let Some(w) = given.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(usage(format!(
            "constant buffer {} is bound twice (a constant pointer argument and the driver's)",
            w[0].0
        )));
    }
    if declared.lds_bytes > LDS_LIMIT {
        return Err(usage(format!(
            "the IL declares {} bytes of LDS; a work-group has {LDS_LIMIT}",
            declared.lds_bytes
        )));
    }
    let const_buffers = place_const_buffers(&kernel.name, &declared, &given, mem)?;
    code.plan(const_buffers, arena, a.lds_end.max(declared.lds_bytes))
}
