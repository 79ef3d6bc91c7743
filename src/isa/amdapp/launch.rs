//! The launch ABI of AMD's OpenCL runtime for Southern Islands kernels, as
//! ../shared/notes/amd_appsdk_binaries.md §3 gives it (Multi2Sim's driver, cross-checked against
//! the ISA of the binaries): what [`place`] writes in guest memory and which user SGPRs it
//! loads, before the GCN launch starts each wave.
//!
//! - **The UAV arena.** Every raw UAV id addresses one arena: guest memory from its base
//!   ([`wavejit_runtime::GuestMemory::base`]) on, through a V# with that base, stride 0 and
//!   NUM_RECORDS 2^32 - 1, so an access outside every buffer is a guest fault, not a dropped
//!   store. A global pointer argument is its buffer's byte offset in the arena, which is what
//!   the code adds to its addresses (§3.2: real code adds the CB1 value to the V# base).
//! - **CB0** (§3.1, at least 240 bytes, zero elsewhere; [`wavejit_amdil::launch::abi_data`],
//!   which the IL encoding's launch shares): dwords 0-2 global size, 3 work_dim
//!   (the number of components given to `--global`, as a host's clEnqueueNDRangeKernel
//!   gives it; with the library API, the highest dimension whose global or local size
//!   exceeds 1 unless the request says), 4-6 local size, 8-10
//!   number of groups, 20-23 = 0.0, 0.5, 1.0, 2.0, 24-26 global offset and 28-30 group-id
//!   offset, both 0 (a launch has no offset).
//! - **CB1**: each argument at its metadata offset: a value's bytes (a `struct:` argument's or
//!   a buffer's contents for a struct or vector), a global pointer's arena offset, a local
//!   pointer's LDS offset (`local:N`, or a buffer of N bytes), 0 for a constant pointer (its
//!   buffer is bound as its constant buffer instead, V# stride 0).
//! - **Program-scope constants** `__OpenCL_<N>_global` are constant buffer N, V# stride 16
//!   (§3.3; NUM_RECORDS is their byte size, as Multi2Sim sets it).
//! - **Tables** (§3.4): the UAV table has a 32-byte entry per UAV id up to the largest the
//!   kernel names, each the arena V# in its first 16 bytes; the constant-buffer table a 16-byte
//!   V# per buffer number up to the largest bound (empty entries zero).
//! - **User SGPRs**: each user element of the PROGINFO loads its SGPRs: IMM_CONST_BUFFER and
//!   IMM_UAV a V#, PTR_CONST_BUFFER_TABLE and PTR_UAV_TABLE a table's 64-bit address. The
//!   system SGPRs follow from USER_SGPR on: the group ids of the enabled dimensions only, then
//!   TG_SIZE (the GCN launch's rule).
//! - **LDS**: the kernel's static `hwlocal` bytes from offset 0, then each `__local` pointer
//!   argument in argument order, each at the next multiple of its element size (Multi2Sim
//!   packs them unaligned; the two agree whenever the sizes are multiples of their elements,
//!   as in every host program of the corpus). A work-group gets the larger of that end and
//!   COMPUTE_PGM_RSRC2.LDS_SIZE, at most 32 KiB.
//!
//! The Evergreen launch (`evergreen.rs`) shares CB0, CB1, the argument checks and the
//! buffer placement with this one.
//!
//! Kernels taking images, samplers or counters, and kernels that enable scratch, are refused
//! with one-line errors; so is a grid whose global size is not a multiple of its local size
//! (OpenCL 1.1) or whose work-groups exceed NUM_THREAD_PER_GROUP.

use crate::launch::{mem_err, PlacedArg};
use crate::{Error, Result};
use wavejit_amdil::appsdk::proginfo::SiProgramInfo;
use wavejit_amdil::appsdk::{AddressSpace, ArgKind, DataClass, GlobalBuffer, Kernel};
use wavejit_runtime::{Grid, GuestMemory};

/// Bytes of CB0 at least (the CONSTANT_BUFFERS note declares 15 vec4).
pub const CB0_MIN_BYTES: u32 = wavejit_amdil::launch::CB0_MIN_BYTES;
/// LDS bytes a Southern Islands work-group can have (LDS_SIZE_AVAIL).
pub const LDS_LIMIT: u32 = 32768;
/// Bytes of one UAV table entry; its V# is the first 16.
pub const UAV_ENTRY_BYTES: u32 = 32;
/// Bytes of one constant-buffer table entry (a V#).
pub const CB_ENTRY_BYTES: u32 = 16;
/// V# stride of a program-scope constant buffer (vec4-indexed).
pub const GLOBAL_CB_STRIDE: u32 = 16;

/// What the waves of a launch start with besides the GCN launch's own state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abi {
    /// (SGPR, value) of every user SGPR.
    pub user_sgprs: Vec<(u8, u32)>,
    /// LDS bytes per work-group.
    pub lds_bytes: u32,
}

/// A buffer resource (V#): BASE `[47:0]`, STRIDE `[61:48]`, NUM_RECORDS `[95:64]`, and word 3
/// with DST_SEL x, y, z, w, NUM_FORMAT float and DATA_FORMAT 32 (formatted accesses of the
/// corpus name their own format; the words only matter to `*_format_*` MUBUF opcodes).
pub fn buffer_rsrc(base: u64, stride: u32, num_records: u32) -> [u32; 4] {
    let word1 = (base >> 32) as u32 & 0xffff | (stride & 0x3fff) << 16;
    let word3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 7 << 12 | 4 << 15;
    [base as u32, word1, num_records, word3]
}

/// The ABI data of CB0 for `grid` in `bytes` bytes ([`wavejit_amdil::launch::abi_data`],
/// the definition both encodings share).
pub fn cb0(grid: &Grid, bytes: u32) -> Vec<u8> {
    words_bytes(&wavejit_amdil::launch::abi_data(
        grid,
        bytes.div_ceil(4) as usize,
    ))
}

/// LDS bytes of the kernel before any `__local` argument: its static `hwlocal` bytes, or
/// COMPUTE_PGM_RSRC2.LDS_SIZE if larger.
pub fn static_lds_bytes(kernel: &Kernel, info: &SiProgramInfo) -> u32 {
    kernel
        .metadata
        .memory
        .hw_local
        .max(info.pgm_rsrc2.lds_bytes())
        .min(LDS_LIMIT)
}

/// Checks the kernel and the grid against what this launch does (see the module doc).
fn check(kernel: &Kernel, info: &SiProgramInfo, grid: &Grid, args: &[PlacedArg]) -> Result<()> {
    check_args(kernel, grid, args)?;
    let usage = |what: String| Error::Usage(format!("kernel {}: {what}", kernel.name));
    if info.pgm_rsrc2.scratch_en() || info.scratch_size != 0 {
        return Err(usage(
            "the kernel uses scratch memory, which this launch does not provide".into(),
        ));
    }
    let items = grid.group_items();
    let limit = match (kernel.metadata.cws, info.threads_per_group) {
        (Some(_), _) => None,
        (None, Some(t)) => Some(t.iter().map(|&n| n.max(1)).product::<u32>()),
        (None, None) => None,
    };
    if let Some(limit) = limit.filter(|&l| items > l) {
        return Err(usage(format!(
            "invalid launch: {items} work-items a group; the kernel was built for at most {limit} (NUM_THREAD_PER_GROUP)"
        )));
    }
    Ok(())
}

/// Checks what every encoding's launch needs of the kernel's arguments and the grid: no image,
/// sampler or counter arguments, one argument per metadata entry, whole work-groups.
pub(super) fn check_args(kernel: &Kernel, grid: &Grid, args: &[PlacedArg]) -> Result<()> {
    let name = &kernel.name;
    let usage = |what: String| Error::Usage(format!("kernel {name}: {what}"));
    for (i, a) in kernel.metadata.args.iter().enumerate() {
        let what = match a.kind {
            ArgKind::Image(_) => "an image",
            ArgKind::Sampler { .. } => "a sampler",
            ArgKind::Counter { .. } => "a counter",
            _ => continue,
        };
        return Err(usage(format!(
            "argument {i} ({}, {}) is {what}; image, sampler and counter arguments are not supported (no texture unit)",
            a.name, a.cl_type
        )));
    }
    let want = kernel.metadata.args.len();
    if args.len() != want {
        let names: Vec<&str> = kernel
            .metadata
            .args
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        return Err(usage(format!(
            "takes {want} arguments ({}), got {}",
            names.join(", "),
            args.len()
        )));
    }
    if (0..3).any(|d| !grid.global[d].is_multiple_of(grid.local[d])) {
        return Err(usage(format!(
            "invalid launch: global size {:?} is not a multiple of local size {:?} (OpenCL 1.1)",
            grid.global, grid.local
        )));
    }
    Ok(())
}

/// The bytes of argument `index` for its CB1 slot of `size` bytes: a value's little-endian
/// bytes, or a `struct:` argument's or a buffer's contents (a struct or vector given as a
/// file).
fn value_bytes(
    kernel: &Kernel,
    index: usize,
    size: u32,
    given: PlacedArg,
    mem: &GuestMemory,
) -> Result<Vec<u8>> {
    let a = &kernel.metadata.args[index];
    let bytes = match given {
        PlacedArg::Value { kind, bits } => bits.to_le_bytes()[..kind.bytes()].to_vec(),
        PlacedArg::Buffer { addr, size } | PlacedArg::Struct { addr, size } => {
            let mut out = vec![0u8; size as usize];
            mem.read_bytes(addr, &mut out).map_err(mem_err)?;
            out
        }
        PlacedArg::Local { .. } => {
            return Err(Error::Usage(format!(
                "kernel {}: argument {index} ({}, {}) is a value of {size} bytes, not a __local pointer: local:N gives __local pointer arguments only",
                kernel.name, a.name, a.cl_type
            )))
        }
    };
    if bytes.len() != size as usize {
        return Err(Error::Usage(format!(
            "kernel {}: argument {index} ({}, {}) is {size} bytes; the value given is {} bytes",
            kernel.name,
            a.name,
            a.cl_type,
            bytes.len()
        )));
    }
    Ok(bytes)
}

/// Allocates `bytes` in guest memory (256-byte aligned, as the driver aligns buffers).
pub(crate) fn put(mem: &mut GuestMemory, bytes: &[u8]) -> Result<u64> {
    mem.alloc_bytes(bytes, 256).map_err(mem_err)
}

fn words_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// What the arguments give the launch: CB1's bytes, the end of LDS after the `__local`
/// arguments, the UAV ids of the global pointers and the buffers of the constant pointers.
pub(super) struct Arguments {
    pub cb1: Vec<u8>,
    pub lds_end: u32,
    pub uav_ids: Vec<u32>,
    /// (constant buffer number, guest address, bytes).
    pub constant: Vec<(u32, u64, u32)>,
}

/// Lays out `args` (the kernel's, checked to be as many) as the module doc says.
pub(super) fn arguments(
    kernel: &Kernel,
    args: &[PlacedArg],
    arena: u64,
    mem: &GuestMemory,
) -> Result<Arguments> {
    let usage = |what: String| Error::Usage(format!("kernel {}: {what}", kernel.name));
    let cb1_bytes = kernel.isa().notes.constant_buffer(1).unwrap_or(0) * 16;
    let mut out = Arguments {
        cb1: vec![0; cb1_bytes as usize],
        lds_end: kernel.metadata.memory.hw_local,
        uav_ids: Vec::new(),
        constant: Vec::new(),
    };
    for (i, (a, &given)) in kernel.metadata.args.iter().zip(args).enumerate() {
        let bytes = match &a.kind {
            ArgKind::Pointer(p) => {
                let (addr, size) = match (given, p.space) {
                    (PlacedArg::Buffer { addr, size }, _) => (addr, size),
                    (PlacedArg::Local { size }, AddressSpace::Local) => (0, size),
                    _ => {
                        let hint = if p.space == AddressSpace::Local {
                            "its size as local:N"
                        } else {
                            "a buffer"
                        };
                        return Err(usage(format!(
                            "argument {i} ({}, {}) is a {} pointer: give {hint}",
                            a.name,
                            a.cl_type,
                            space_name(p.space)
                        )));
                    }
                };
                let value = match p.space {
                    AddressSpace::Global => {
                        out.uav_ids.push(p.resource_id);
                        let offset = addr - arena;
                        u32::try_from(offset).map_err(|_| {
                            usage(format!(
                                "argument {i} ({}) lies {offset:#x} bytes into guest memory, past the 4 GiB a 32-bit UAV offset reaches",
                                a.name
                            ))
                        })?
                    }
                    AddressSpace::Constant => {
                        let size = u32::try_from(size).map_err(|_| {
                            usage(format!("argument {i} ({}) is larger than 4 GiB", a.name))
                        })?;
                        out.constant.push((p.resource_id, addr, size));
                        0
                    }
                    AddressSpace::Local => {
                        let start = out.lds_end.next_multiple_of(p.elem_size.max(1));
                        out.lds_end = u32::try_from(size)
                            .ok()
                            .and_then(|n| start.checked_add(n))
                            .filter(|&end| end <= LDS_LIMIT)
                            .ok_or_else(|| {
                                usage(format!(
                                    "argument {i} ({}): {size} bytes of __local memory at LDS offset {start} exceed the {LDS_LIMIT} bytes of a work-group",
                                    a.name
                                ))
                            })?;
                        start
                    }
                };
                let mut b = u64::from(value).to_le_bytes().to_vec();
                b.truncate(a.size as usize);
                b
            }
            _ => value_bytes(kernel, i, a.size, given, mem)?,
        };
        if a.slot.cb != 1 {
            return Err(usage(format!(
                "argument {i} ({}) is in constant buffer {}, not 1",
                a.name, a.slot.cb
            )));
        }
        let at = a.slot.offset as usize;
        if out.cb1.len() < at + bytes.len() {
            out.cb1.resize((at + bytes.len()).next_multiple_of(16), 0);
        }
        out.cb1[at..at + bytes.len()].copy_from_slice(&bytes);
    }
    Ok(out)
}

/// OpenCL's name of an address space.
fn space_name(space: AddressSpace) -> &'static str {
    match space {
        AddressSpace::Global => "__global",
        AddressSpace::Constant => "__constant",
        AddressSpace::Local => "__local",
    }
}

/// The 2 dwords of a table's 64-bit address.
fn address_words(addr: u64) -> Vec<u32> {
    vec![addr as u32, (addr >> 32) as u32]
}

/// Places the launch ABI's data for `kernel` over `grid` with `args` (already in `mem`) and
/// returns the user SGPRs and LDS size its waves start with.
pub fn place(
    kernel: &Kernel,
    info: &SiProgramInfo,
    globals: &[GlobalBuffer],
    grid: &Grid,
    args: &[PlacedArg],
    mem: &mut GuestMemory,
) -> Result<Abi> {
    check(kernel, info, grid, args)?;
    let usage = |what: String| Error::Usage(format!("kernel {}: {what}", kernel.name));
    let arena_rsrc = buffer_rsrc(mem.base(), 0, u32::MAX);
    let notes = &kernel.isa().notes;
    let Arguments {
        cb1,
        lds_end,
        mut uav_ids,
        constant,
    } = arguments(kernel, args, mem.base(), mem)?;
    let mut cbs: Vec<(u32, [u32; 4])> = constant
        .into_iter()
        .map(|(cb, addr, size)| (cb, buffer_rsrc(addr, 0, size)))
        .collect();

    let cb0_bytes = CB0_MIN_BYTES.max(notes.constant_buffer(0).unwrap_or(0) * 16);
    let cb0_addr = put(mem, &cb0(grid, cb0_bytes))?;
    cbs.push((0, buffer_rsrc(cb0_addr, 0, cb0_bytes)));
    let cb1_addr = put(mem, &cb1)?;
    cbs.push((1, buffer_rsrc(cb1_addr, 0, cb1.len() as u32)));
    for g in globals {
        let addr = put(mem, &g.bytes)?;
        let rsrc = buffer_rsrc(addr, GLOBAL_CB_STRIDE, g.bytes.len() as u32);
        cbs.push((g.cb, rsrc));
    }
    cbs.sort_by_key(|c| c.0);
    if let Some(w) = cbs.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(usage(format!(
            "constant buffer {} is bound twice (a constant pointer argument and the driver's)",
            w[0].0
        )));
    }

    let elements = &info.user_elements;
    let wants = |class: DataClass| elements.iter().any(|e| e.data_class == class);
    uav_ids.extend(notes.uavs.iter().map(|u| u.id));
    uav_ids.extend(
        elements
            .iter()
            .filter(|e| e.data_class == DataClass::ImmUav)
            .map(|e| e.api_slot),
    );
    let uav_table_addr = if wants(DataClass::PtrUavTable) {
        let entries = uav_ids.iter().max().map_or(0, |m| m + 1);
        let mut table = vec![0u32; (entries * UAV_ENTRY_BYTES / 4) as usize];
        for entry in table.chunks_exact_mut((UAV_ENTRY_BYTES / 4) as usize) {
            entry[..4].copy_from_slice(&arena_rsrc);
        }
        put(mem, &words_bytes(&table))?
    } else {
        0
    };
    let cb_table_addr = if wants(DataClass::PtrConstBufferTable) {
        let entries = cbs.last().map_or(0, |c| c.0 + 1);
        let mut table = vec![0u32; (entries * CB_ENTRY_BYTES / 4) as usize];
        for (cb, rsrc) in &cbs {
            let at = (cb * CB_ENTRY_BYTES / 4) as usize;
            table[at..at + 4].copy_from_slice(rsrc);
        }
        put(mem, &words_bytes(&table))?
    } else {
        0
    };

    let mut user_sgprs = Vec::new();
    for e in elements {
        let what = format!("user element {}[{}]", e.data_class.name(), e.api_slot);
        let words: Vec<u32> = match e.data_class {
            DataClass::ImmConstBuffer => cbs
                .iter()
                .find(|c| c.0 == e.api_slot)
                .map(|c| c.1.to_vec())
                .ok_or_else(|| {
                    usage(format!(
                        "{what}: the binary has no constant buffer {}",
                        e.api_slot
                    ))
                })?,
            DataClass::ImmUav => arena_rsrc.to_vec(),
            DataClass::PtrUavTable => address_words(uav_table_addr),
            DataClass::PtrConstBufferTable => address_words(cb_table_addr),
            _ => {
                return Err(usage(format!(
                    "{what} -> s{} is not supported",
                    e.start_reg
                )))
            }
        };
        if words.len() != e.reg_count as usize {
            return Err(usage(format!(
                "{what} has {} registers; its value is {} dwords",
                e.reg_count,
                words.len()
            )));
        }
        let user = info.pgm_rsrc2.user_sgpr();
        for (j, w) in words.into_iter().enumerate() {
            let reg = e.start_reg + j as u32;
            let reg = u8::try_from(reg)
                .ok()
                .filter(|&r| u32::from(r) < user)
                .ok_or_else(|| usage(format!("{what} loads s{reg}, past the {user} user SGPRs")))?;
            user_sgprs.push((reg, w));
        }
    }
    Ok(Abi {
        user_sgprs,
        lds_bytes: lds_end.max(static_lds_bytes(kernel, info)),
    })
}
