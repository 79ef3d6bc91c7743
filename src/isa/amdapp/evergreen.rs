//! The Evergreen (Cypress) ISA encoding of AMD APP SDK kernels: lifted by the TeraScale
//! lifter under the resource bindings of AMD's driver and launched as
//! ../shared/notes/amd_appsdk_binaries.md §3.5 says (Multi2Sim's Evergreen driver,
//! cross-checked against the code of the corpus kernels).
//!
//! - **Waves** start with R0.xyz = local id and R1.xyz = group id: SPI_COMPUTE_INPUT_CNTL 7
//!   (TID_IN_GROUP_ENA, TGID_ENA, DISABLE_INDEX_PACK), the state the TeraScale launch
//!   ([`TsWaveInit`]) gives every wave. A kernel whose PROGINFO asks for another input
//!   layout is refused.
//! - **Constant buffers**: kcache bank 0 reads CB0, the ABI data ([`launch::cb0`], the same
//!   dwords SI reads: Evergreen's `KC0[v].c` is dword `4v + c`), bank 1 CB1, the arguments
//!   at their metadata offsets ([`launch::arguments`]: a global pointer is its buffer's byte
//!   offset in the UAV arena, a `__local` pointer its LDS offset). Both are padded with zeros
//!   to whole kcache lines of 16 constants, the unit an ALU clause locks.
//! - **Global memory**: every UAV id addresses one arena, guest memory from its base on, the
//!   pool of the TeraScale lift state. Loads are VFETCHes through the fetch constant the
//!   PROGINFO names for the UAV: CACHED_FETCH_CONST_UAVi (144-152; 153 for UAV 11) and
//!   UNCACHED_FETCH_CONST_UAVi (154-164; 173) read one dword and count their index in dwords,
//!   CACHED_FETCH_CONST64_UAV11 (174) and CACHED_FETCH_CONST128_UAV11 (175) read two and
//!   four dwords and count their index in those units, as Multi2Sim's Evergreen emulator
//!   reads them ([M2S-4.2] `src/arch/evergreen/emu/isa.c`, `evg_isa_FETCH_impl`: address =
//!   index × element bytes). The code takes the element format from the fetch constant
//!   (USE_CONST_FIELDS); the driver's fetch constants are not documented, and a raw UAV load
//!   (the IL's `uav_raw_load`) returns memory's dwords unchanged, which FMT_32, FMT_32_32 and
//!   FMT_32_32_32_32 with NUM_FORMAT_ALL INT give (seed 000 L9390-L9424).
//! - **Stores and atomics** go to the RAT of each of the kernel's UAVs (the UAV note and
//!   RAT_OP_IS_USED; every `__global` pointer is written through RAT 11), the arena indexed
//!   in dwords like the TeraScale launch's RAT 0.
//! - **Loop constants**: integer constant `i<k>` of `.data` (INT32CONSTS) is loop constant
//!   `k`: x the trip count, y the initial aL, z the step, the IL's `loop` rule (seed 001
//!   L3938), which is how Multi2Sim reads `int_consts[CF_CONST]`; a constant the note does not
//!   declare is 0. How the driver packs them into the hardware's loop constant is not
//!   documented: the words are taken whole. The corpus kernels use only DX10 loops, which
//!   read no trip count, and never read aL (matrix-mul's `i0` = (0xFFFFFFFF, 0, 0, 0)).
//! - **LDS**: the static `hwlocal` bytes, then the `__local` arguments
//!   ([`launch::arguments`]); a work-group gets at least LDS_SIZE_USED dwords (the unit the
//!   notes guess; it agrees with SQ_LDS_ALLOC's size field and with SI's full 32 KiB for
//!   kernels with `__local` arguments), at most 32 KiB.
//!
//! Refused with one-line errors, besides what [`launch::check_args`] refuses (image, sampler
//! and counter arguments, a wrong argument count, a global size that is not a multiple of the
//! local size): constant pointer arguments and program-scope constants (Multi2Sim reads them
//! through fetch constants 128 + N, a layout no other source confirms, and no corpus kernel
//! has one), and private memory (`hwprivate` or a SCRATCH note). GDS is not provided: a
//! MEM_GDS instruction ends the wave with a guest trap (the lift contract).

use super::launch::{self, CB0_MIN_BYTES, LDS_LIMIT};
use crate::frontend::{LaunchPlan, Lifted, WaveProgram};
use crate::isa::terascale::{lift_program, names::TsNames};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use wavejit_amdil::appsdk::notes::ConstKind;
use wavejit_amdil::appsdk::proginfo::{key, EvergreenProgramInfo};
use wavejit_amdil::appsdk::{AddressSpace, ArgKind, GlobalBuffer, Kernel};
use wavejit_isa::{RegSink, WaveCoord, WaveInit};
use wavejit_runtime::{Grid, GuestMemory};
use wavejit_terascale::launch::{
    wave_size, Bindings, ConstFormat, FetchConstant, LoopConst, Resource, TsWaveInit, LOOP_CONSTS,
};
use wavejit_terascale::lift::{scratch_lane_bytes, TsLayout};
use wavejit_terascale::{Chip, Program};

/// SPI_COMPUTE_INPUT_CNTL of the launch this module gives: local ids in R0, group ids in R1.
const COMPUTE_INPUT_CNTL: u32 = 7;
/// Bytes of a kcache line: 16 constants of 16 bytes.
const KCACHE_LINE_BYTES: usize = 256;
/// DATA_FORMAT codes (seed 000 L9390-L9424) of the raw fetches.
const FMT_32: u8 = 13;
const FMT_32_32: u8 = 29;
const FMT_32_32_32_32: u8 = 34;
/// NUM_FORMAT_ALL INT: the fields as integers, unconverted.
const NUM_FORMAT_INT: u8 = 1;

/// The Evergreen ISA encoding of a kernel, with its program information.
pub(super) struct EvergreenCode<'a> {
    pub kernel: &'a Kernel,
    pub info: &'a EvergreenProgramInfo,
    /// The chip whose lifter runs it.
    pub chip: Chip,
}

/// A fetch constant over the arena reading `dwords` raw dwords per index unit.
fn raw_fetch(dwords: u32) -> FetchConstant {
    let data_format = match dwords {
        1 => FMT_32,
        2 => FMT_32_32,
        _ => FMT_32_32_32_32,
    };
    FetchConstant {
        resource: Resource::GlobalPool,
        stride: 4 * dwords,
        format: Some(ConstFormat {
            data_format,
            num_format_all: NUM_FORMAT_INT,
            format_comp_all: false,
            srf_mode_all: false,
        }),
    }
}

impl EvergreenCode<'_> {
    fn name(&self) -> &str {
        &self.kernel.name
    }

    fn usage(&self, what: String) -> Error {
        Error::Usage(format!("kernel {}: {what}", self.name()))
    }

    /// The kernel's ISA, decoded.
    fn program(&self) -> Result<Program> {
        wavejit_terascale::decode_program(self.chip.class(), &self.kernel.isa().text)
            .map_err(|e| Error::Other(format!("kernel {}: {e}", self.name())))
    }

    /// What AMD's driver binds to the code's fetch buffer ids, RAT ids and loop constants
    /// (see the module doc).
    fn bindings(&self) -> Bindings {
        let notes = &self.kernel.isa().notes;
        let mut fetch = Vec::new();
        let per_uav = self.info.cached_fetch_const.iter();
        for id in per_uav.chain(&self.info.uncached_fetch_const).flatten() {
            // 0 marks a UAV without a fetch constant (CACHED_FETCH_CONST_UAV8..10).
            if *id != 0 {
                fetch.push((*id, raw_fetch(1)));
            }
        }
        for (k, dwords) in [
            (key::CACHED_FETCH_CONST64_UAV11, 2),
            (key::CACHED_FETCH_CONST128_UAV11, 4),
        ] {
            if let Some(id) = notes.prog_info(k).filter(|&id| id != 0) {
                fetch.push((id, raw_fetch(dwords)));
            }
        }
        let mut rats: Vec<u32> = notes.uavs.iter().map(|u| u.id).collect();
        let used = self.info.rat_op_is_used.unwrap_or(0);
        rats.extend((0..32).filter(|r| used & (1 << r) != 0));
        rats.sort_unstable();
        rats.dedup();
        let zero = LoopConst {
            count: 0,
            init: 0,
            step: 0,
        };
        let mut loop_consts = [zero; LOOP_CONSTS];
        for c in &self.kernel.isa().constants {
            let Some(slot) = loop_consts.get_mut(c.index as usize) else {
                continue;
            };
            if c.kind != ConstKind::Int {
                continue;
            }
            let word = |i: usize| {
                c.bytes
                    .get(4 * i..4 * i + 4)
                    .map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
            };
            *slot = LoopConst {
                count: word(0),
                init: word(1),
                step: word(2),
            };
        }
        Bindings {
            fetch,
            rats,
            loop_consts,
        }
    }

    /// Decodes and lifts the kernel; also returns the decoded program.
    fn lift_program(&self) -> Result<(Lifted, Program)> {
        let program = self.program()?;
        let lifted = lift_program(self.chip, self.name(), &program, &self.bindings())?;
        Ok((lifted, program))
    }

    pub fn lift(&self) -> Result<Lifted> {
        Ok(self.lift_program()?.0)
    }

    /// LDS bytes of a work-group whose `__local` data ends at `lds_end`.
    fn lds_bytes(&self, lds_end: u32) -> u32 {
        let used = self.info.lds_size_used.unwrap_or(0).saturating_mul(4);
        lds_end.max(used).min(LDS_LIMIT)
    }

    /// Checks what this launch does not provide (see the module doc).
    fn check(&self, globals: &[GlobalBuffer], grid: &Grid, args: &[PlacedArg]) -> Result<()> {
        launch::check_args(self.kernel, grid, args)?;
        if self.info.compute_input_cntl != COMPUTE_INPUT_CNTL {
            return Err(self.usage(format!(
                "SPI_COMPUTE_INPUT_CNTL is {:#x}; this launch gives local ids in R0 and group ids in R1 ({COMPUTE_INPUT_CNTL:#x}) only",
                self.info.compute_input_cntl
            )));
        }
        for (i, a) in self.kernel.metadata.args.iter().enumerate() {
            if matches!(&a.kind, ArgKind::Pointer(p) if p.space == AddressSpace::Constant) {
                return Err(self.usage(format!(
                    "argument {i} ({}, {}) is a constant pointer; Evergreen constant buffers are not supported",
                    a.name, a.cl_type
                )));
            }
        }
        if let Some(g) = globals.first() {
            return Err(self.usage(format!(
                "the program has constant buffer {} (program-scope constants); Evergreen constant buffers are not supported",
                g.cb
            )));
        }
        let private = self.kernel.metadata.memory.hw_private.unwrap_or(0);
        let scratch = self.kernel.isa().notes.scratch_dwords.unwrap_or(0);
        if private != 0 || scratch != 0 {
            return Err(self.usage(format!(
                "the kernel uses private memory ({private} bytes per work-item, {scratch} scratch dwords), which this launch does not provide"
            )));
        }
        Ok(())
    }

    /// Places CB0 and CB1 for `grid` and `args` (already in `mem`) and says how the waves
    /// start (see the module doc).
    pub fn launch(
        &self,
        globals: &[GlobalBuffer],
        grid: &Grid,
        args: &[PlacedArg],
        mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        self.check(globals, grid, args)?;
        let arena = mem.base();
        let a = launch::arguments(self.kernel, args, arena, mem)?;
        let notes = &self.kernel.isa().notes;
        let cb0_bytes = CB0_MIN_BYTES.max(notes.constant_buffer(0).unwrap_or(0) * 16);
        let cb0_bytes = (cb0_bytes as usize).next_multiple_of(KCACHE_LINE_BYTES);
        let cb0 = launch::put(mem, &launch::cb0(grid, cb0_bytes as u32))?;
        let mut cb1 = a.cb1;
        cb1.resize(cb1.len().max(1).next_multiple_of(KCACHE_LINE_BYTES), 0);
        let cb1 = launch::put(mem, &cb1)?;
        let (lifted, program) = self.lift_program()?;
        let ts = TsWaveInit {
            chip: self.chip,
            layout: TsLayout::new(wave_size(self.chip)),
            pool_base: arena,
            cb0,
            gds: 0,
        };
        Ok(LaunchPlan {
            lifted,
            lds_bytes: self.lds_bytes(a.lds_end),
            private_lane_bytes: scratch_lane_bytes(&program),
            init: Box::new(EvergreenWaveInit { ts, cb1 }),
            zero_before_dispatch: Vec::new(),
        })
    }

    /// `wavejit wave`: the kernel as lifted for a launch, with TeraScale register names.
    pub fn wave(&self) -> Result<WaveProgram> {
        let (lifted, program) = self.lift_program()?;
        Ok(WaveProgram {
            lifted,
            names: Box::new(TsNames::new(wave_size(self.chip))),
            listing: wavejit_terascale::listing(&program),
            private_lane_bytes: scratch_lane_bytes(&program),
            lds_bytes: self.lds_bytes(self.kernel.metadata.memory.hw_local),
        })
    }
}

/// The TeraScale launch's wave state plus the address of CB1 (kcache bank 1).
struct EvergreenWaveInit {
    ts: TsWaveInit,
    cb1: u64,
}

impl WaveInit for EvergreenWaveInit {
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> std::result::Result<(), String> {
        self.ts.init(wave, regs)?;
        regs.set_uniform64(self.ts.layout.const_buffer(1), self.cb1);
        Ok(())
    }
}
