//! The launch convention of IL files (`.il`, `.ilb`; README.md "AMD IL files"): OpenCL's, as
//! AMD's runtime gives it to the IL it compiles, without the metadata a binary carries, so
//! the `--arg` list is the argument list.
//!
//! - **CB0**: the ABI data ([`wavejit_amdil::launch::abi_data`]: global size, work_dim, local
//!   size, number of groups, the constants 0.0, 0.5, 1.0, 2.0, zero global and group
//!   offsets), at least [`CB0_MIN_BYTES`] and the declared size.
//! - **CB1**: the arguments in order, one 16-byte slot each: a buffer's byte offset in the
//!   arena (32 bits, in the slot's x), a value's little-endian bytes (64-bit values fill x and
//!   y), a `local:N` argument's LDS byte offset, a `struct:PATH` argument's bytes; the rest of
//!   the slot is 0. A struct of more than 16 bytes takes the slots its bytes fill, as AMD's
//!   compiler lays structs out in CB1 (the size rounded up to 16).
//! - **The arena**: guest memory from its base, which every raw UAV id and the arena UAV
//!   address. Each buffer argument is its own guest buffer, so an access outside all of them
//!   is a guest fault; a buffer must lie within the arena's first 4 GiB.
//! - **LDS**: the declared LDS (the largest `dcl_lds`; every id addresses it from byte 0),
//!   then each `local:N` argument in order, each at the next multiple of 16 bytes (the
//!   alignment of the widest OpenCL element, float4); at most [`LDS_LIMIT`] bytes.
//! - A program that declares constant buffers other than cb0 and cb1 is refused (nothing
//!   binds them), and so is a launch whose work-group size the program's
//!   `dcl_num_thread_per_group` or `dcl_max_thread_per_group` excludes. Partial work-groups at
//!   the grid's edge run (the lanes without a work-item stay off).
//! - **Pixel shaders** (`il_ps`): the same convention over a two-dimensional domain, `--global
//!   X[,Y]`, one invocation (lane) per point. `--local` tiles the domain: each tile is a
//!   work-group, its points fill its waves x fastest (a 64-lane wave holds 64 / width rows of
//!   a tile), partial tiles at the edges run with the lanes outside the domain off. CB0 holds
//!   the same ABI data, the domain as the global size and the tile as the local size (so a
//!   program reads the domain's width in `cb0[0].x`; a CAL host chose its own cb0, this launch
//!   gives every IL file the one convention). `vWinCoord0` = (x + 0.5, y + 0.5, 0.0, 1.0) at
//!   point (x, y) (`wavejit_amdil::lift` module `pixel`). A third dimension is refused.

use crate::launch::{mem_err, PlacedArg};
use crate::{Error, Result};
use wavejit_amdil::launch::{abi_data, Declared, CB0_MIN_BYTES, LDS_LIMIT};
use wavejit_runtime::{Grid, GuestMemory};

/// Bytes of one CB1 argument slot.
pub const SLOT_BYTES: usize = 16;
/// Alignment of each `local:N` argument in the LDS.
pub const LOCAL_ALIGN: u32 = 16;

/// What the launch placed: the constant buffers it binds, the arena and the LDS size.
pub struct Placed {
    pub const_buffers: Vec<(u32, u64)>,
    pub arena: u64,
    pub lds_bytes: u32,
}

/// Places CB0 and CB1 for `args` (already in `mem`) over `grid` (see the module doc).
pub fn place(
    kernel: &str,
    declared: &Declared,
    grid: &Grid,
    args: &[PlacedArg],
    mem: &mut GuestMemory,
) -> Result<Placed> {
    let usage = |what: String| Error::Usage(format!("kernel {kernel}: {what}"));
    declared.check_grid(grid).map_err(usage)?;
    let arena = mem.base();
    let mut cb1 = Vec::new();
    let mut lds_end = declared.lds_bytes;
    for (i, &a) in args.iter().enumerate() {
        let bytes = match a {
            PlacedArg::Buffer { addr, .. } => {
                let offset = addr - arena;
                let offset = u32::try_from(offset).map_err(|_| {
                    usage(format!(
                        "argument {i} lies {offset:#x} bytes into the arena, past the 4 GiB a 32-bit offset reaches"
                    ))
                })?;
                offset.to_le_bytes().to_vec()
            }
            PlacedArg::Value { kind, bits } => bits.to_le_bytes()[..kind.bytes()].to_vec(),
            PlacedArg::Struct { addr, size } => {
                let mut out = vec![0u8; size as usize];
                mem.read_bytes(addr, &mut out).map_err(mem_err)?;
                out
            }
            PlacedArg::Local { size } => {
                let start = lds_end.next_multiple_of(LOCAL_ALIGN);
                lds_end = u32::try_from(size)
                    .ok()
                    .and_then(|n| start.checked_add(n))
                    .filter(|&end| end <= LDS_LIMIT)
                    .ok_or_else(|| {
                        usage(format!(
                            "argument {i}: {size} bytes of LDS at offset {start} exceed the {LDS_LIMIT} bytes of a work-group"
                        ))
                    })?;
                start.to_le_bytes().to_vec()
            }
        };
        let slots = bytes.len().div_ceil(SLOT_BYTES).max(1);
        let at = cb1.len();
        cb1.resize(at + slots * SLOT_BYTES, 0);
        cb1[at..at + bytes.len()].copy_from_slice(&bytes);
    }
    if declared.lds_bytes > LDS_LIMIT {
        return Err(usage(format!(
            "the program declares {} bytes of LDS; a work-group has {LDS_LIMIT}",
            declared.lds_bytes
        )));
    }
    let cb0_dwords = (CB0_MIN_BYTES / 4) as usize;
    let cb0: Vec<u8> = abi_data(grid, cb0_dwords)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let const_buffers =
        super::code::place_const_buffers(kernel, declared, &[(0, cb0), (1, cb1)], mem)?;
    Ok(Placed {
        const_buffers,
        arena,
        lds_bytes: lds_end,
    })
}
