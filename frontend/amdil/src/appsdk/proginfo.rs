//! What the ISA encoding's PROGINFO note says about the program (amd_appsdk_binaries.md §2.6;
//! key names from Multi2Sim's `prog_info_entry_map`), typed per family; and the user elements
//! of SI (§3.4, data classes numbered as CLRX's `dataClassMap`, which matches these binaries;
//! Multi2Sim's enum is wrong from 16 up).
//!
//! Invariants: an SI [`SiProgramInfo`] has at most 16 user elements, each inside the
//! `USER_SGPR` user SGPRs of COMPUTE_PGM_RSRC2; an Evergreen [`EvergreenProgramInfo`] comes from
//! a PROGINFO with SQ_PGM_RESOURCES_LS and SPI_COMPUTE_INPUT_CNTL. Other keys stay readable
//! through [`super::CalNotes::prog_info`].

use super::notes::CalNotes;
use super::target::Family;

/// PROGINFO addresses (§2.6).
pub mod key {
    /// SI: the number of user elements used.
    pub const USER_ELEMENT_COUNT: u32 = 0x8000_1000;
    /// SI: element i is `{dataClass, apiSlot, startUserReg, userRegCount}` at `+4i … +4i+3`.
    pub const USER_ELEMENTS: u32 = 0x8000_1001;
    pub const SI_NUM_VGPRS: u32 = 0x8000_1041;
    pub const SI_NUM_SGPRS: u32 = 0x8000_1042;
    /// SI: MODE.FP_ROUND/FP_DENORM.
    pub const SI_FLOAT_MODE: u32 = 0x8000_1043;
    pub const SI_IEEE_MODE: u32 = 0x8000_1044;
    /// SI: scratch dwords.
    pub const SI_SCRATCH_SIZE: u32 = 0x8000_1045;
    pub const COMPUTE_PGM_RSRC2: u32 = 0x0000_2E13;
    /// X; Y and Z follow.
    pub const NUM_THREAD_PER_GROUP: u32 = 0x8000_001C;
    pub const RAT_OP_IS_USED: u32 = 0x8000_001F;
    /// SI: UAV_RESOURCE_MASK_0 … _31 follow.
    pub const UAV_RESOURCE_MASK: u32 = 0x8000_1843;
    pub const WAVEFRONT_SIZE: u32 = 0x8000_0078;
    pub const LDS_SIZE_AVAIL: u32 = 0x8000_0081;
    pub const LDS_SIZE_USED: u32 = 0x8000_0082;
    pub const SI_NUM_SGPRS_AVAIL: u32 = 0x8000_1863;
    pub const SI_NUM_VGPRS_AVAIL: u32 = 0x8000_1864;
    /// Evergreen (the register's dword index: byte address 0x288D4).
    pub const SQ_PGM_RESOURCES_LS: u32 = 0xA235;
    pub const SPI_COMPUTE_INPUT_CNTL: u32 = 0xA1BA;
    pub const SQ_LDS_ALLOC: u32 = 0xA23A;
    pub const NUM_GLOBAL_UAV: u32 = 0x8000_0022;
    pub const NUM_GPR_USED: u32 = 0x8000_0080;
    pub const STACK_SIZE_USED: u32 = 0x8000_0084;
    /// Evergreen: OFFSET_TO_UAV0 … 11.
    pub const OFFSET_TO_UAV: u32 = 0x8000_0030;
    /// Evergreen: UNCACHED_FETCH_CONST_UAV0 … 11.
    pub const UNCACHED_FETCH_CONST_UAV: u32 = 0x8000_0040;
    /// Evergreen: CACHED_FETCH_CONST_UAV0 … 11.
    pub const CACHED_FETCH_CONST_UAV: u32 = 0x8000_0050;
    /// Evergreen: GLOBAL_RETURN_FETCH_CONST0 … 7.
    pub const GLOBAL_RETURN_FETCH_CONST: u32 = 0x8000_0060;
    pub const CACHED_FETCH_CONST64_UAV11: u32 = 0x8000_009B;
    pub const CACHED_FETCH_CONST128_UAV11: u32 = 0x8000_00AB;
}

/// User-element slots the SI PROGINFO has room for.
pub const MAX_USER_ELEMENTS: u32 = 16;

/// The typed program information of a kernel's ISA encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramInfo {
    Si(SiProgramInfo),
    Evergreen(EvergreenProgramInfo),
}

/// SI program information.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiProgramInfo {
    /// What each user SGPR range holds at wave start, in PROGINFO order.
    pub user_elements: Vec<UserElement>,
    pub num_vgprs: u32,
    pub num_sgprs: u32,
    /// SI_FLOAT_MODE: the MODE register's FP_ROUND/FP_DENORM byte (0xC0 in the corpus).
    pub float_mode: u32,
    pub ieee_mode: u32,
    /// SI_SCRATCH_SIZE: scratch dwords.
    pub scratch_size: u32,
    pub pgm_rsrc2: PgmRsrc2,
    /// NUM_THREAD_PER_GROUP_X/Y/Z (256, 0, 0 by default, or the `cws` values).
    pub threads_per_group: Option<[u32; 3]>,
    /// LDS_SIZE_USED: bytes.
    pub lds_size_used: Option<u32>,
}

/// One user element: `reg_count` SGPRs from `s[start_reg]` hold `data_class` for `api_slot`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserElement {
    pub data_class: DataClass,
    /// The CB number, UAV id or resource slot the element refers to (0 for tables).
    pub api_slot: u32,
    pub start_reg: u32,
    pub reg_count: u32,
}

/// COMPUTE_PGM_RSRC2 (bit layout §2.6, Multi2Sim `bin-file.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgmRsrc2(pub u32);

fn bits(v: u32, lo: u32, width: u32) -> u32 {
    (v >> lo) & ((1 << width) - 1)
}

impl PgmRsrc2 {
    /// SCRATCH_EN `[0]`.
    pub fn scratch_en(self) -> bool {
        bits(self.0, 0, 1) != 0
    }
    /// USER_SGPR `[5:1]`: user SGPRs loaded at wave start.
    pub fn user_sgpr(self) -> u32 {
        bits(self.0, 1, 5)
    }
    /// TRAP_PRESENT `[6]`.
    pub fn trap_present(self) -> bool {
        bits(self.0, 6, 1) != 0
    }
    /// TGID_X/Y/Z_EN `[7]`, `[8]`, `[9]`.
    pub fn tgid_en(self) -> [bool; 3] {
        [7, 8, 9].map(|b| bits(self.0, b, 1) != 0)
    }
    /// TG_SIZE_EN `[10]`.
    pub fn tg_size_en(self) -> bool {
        bits(self.0, 10, 1) != 0
    }
    /// TIDIG_COMP_CNT `[12:11]`.
    pub fn tidig_comp_cnt(self) -> u32 {
        bits(self.0, 11, 2)
    }
    /// EXCP_EN_MSB `[14:13]`.
    pub fn excp_en_msb(self) -> u32 {
        bits(self.0, 13, 2)
    }
    /// LDS_SIZE `[23:15]`, in 256-byte (64-dword) units.
    pub fn lds_size(self) -> u32 {
        bits(self.0, 15, 9)
    }
    /// LDS bytes per work-group.
    pub fn lds_bytes(self) -> u32 {
        self.lds_size() * 256
    }
    /// EXCP_EN `[30:24]`.
    pub fn excp_en(self) -> u32 {
        bits(self.0, 24, 7)
    }
}

/// Evergreen program information.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvergreenProgramInfo {
    /// SQ_PGM_RESOURCES_LS as stored.
    pub sq_pgm_resources: u32,
    /// NUM_GPRS, `[7:0]` of SQ_PGM_RESOURCES_LS.
    pub num_gprs: u32,
    /// STACK_SIZE, `[15:8]`: control-flow stack entries.
    pub stack_size: u32,
    /// SPI_COMPUTE_INPUT_CNTL (7: local ids in R0, group ids in R1, §3.5).
    pub compute_input_cntl: u32,
    /// SQ_LDS_ALLOC.
    pub lds_alloc: Option<u32>,
    /// LDS_SIZE_USED.
    pub lds_size_used: Option<u32>,
    /// RAT_OP_IS_USED: a bitmask of RATs.
    pub rat_op_is_used: Option<u32>,
    /// NUM_GLOBAL_UAV.
    pub num_global_uav: Option<u32>,
    /// CACHED_FETCH_CONST_UAV0 … 11: the fetch-constant (buffer) id VFETCH reads UAV i
    /// through (153 for UAV 11).
    pub cached_fetch_const: [Option<u32>; 12],
    /// UNCACHED_FETCH_CONST_UAV0 … 11.
    pub uncached_fetch_const: [Option<u32>; 12],
}

/// A user element's data class (CLRX numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataClass {
    ImmResource,
    ImmSampler,
    ImmConstBuffer,
    ImmVertexBuffer,
    ImmUav,
    ImmAluFloatConst,
    ImmAluBool32Const,
    ImmGdsCounterRange,
    ImmGdsMemoryRange,
    ImmGwsBase,
    ImmWorkItemRange,
    ImmWorkGroupRange,
    ImmDispatchId,
    ImmScratchBuffer,
    ImmHeapBuffer,
    ImmKernelArg,
    SubPtrFetchShader,
    PtrResourceTable,
    PtrInternalResourceTable,
    PtrSamplerTable,
    PtrConstBufferTable,
    PtrVertexBufferTable,
    PtrSoBufferTable,
    PtrUavTable,
    PtrInternalGlobalTable,
    PtrExtendedUserData,
    PtrIndirectResource,
    PtrIndirectInternalResource,
    PtrIndirectUav,
    ImmContextBase,
    ImmLdsEsgsSize,
    ImmGlobalOffset,
    ImmGenericUserData,
}

/// Every class with CLRX's name in upper case, in number order: class `n` is row `n`.
const CLASSES: [(DataClass, &str); 33] = [
    (DataClass::ImmResource, "IMM_RESOURCE"),
    (DataClass::ImmSampler, "IMM_SAMPLER"),
    (DataClass::ImmConstBuffer, "IMM_CONST_BUFFER"),
    (DataClass::ImmVertexBuffer, "IMM_VERTEX_BUFFER"),
    (DataClass::ImmUav, "IMM_UAV"),
    (DataClass::ImmAluFloatConst, "IMM_ALU_FLOAT_CONST"),
    (DataClass::ImmAluBool32Const, "IMM_ALU_BOOL32_CONST"),
    (DataClass::ImmGdsCounterRange, "IMM_GDS_COUNTER_RANGE"),
    (DataClass::ImmGdsMemoryRange, "IMM_GDS_MEMORY_RANGE"),
    (DataClass::ImmGwsBase, "IMM_GWS_BASE"),
    (DataClass::ImmWorkItemRange, "IMM_WORK_ITEM_RANGE"),
    (DataClass::ImmWorkGroupRange, "IMM_WORK_GROUP_RANGE"),
    (DataClass::ImmDispatchId, "IMM_DISPATCH_ID"),
    (DataClass::ImmScratchBuffer, "IMM_SCRATCH_BUFFER"),
    (DataClass::ImmHeapBuffer, "IMM_HEAP_BUFFER"),
    (DataClass::ImmKernelArg, "IMM_KERNEL_ARG"),
    (DataClass::SubPtrFetchShader, "SUB_PTR_FETCH_SHADER"),
    (DataClass::PtrResourceTable, "PTR_RESOURCE_TABLE"),
    (
        DataClass::PtrInternalResourceTable,
        "PTR_INTERNAL_RESOURCE_TABLE",
    ),
    (DataClass::PtrSamplerTable, "PTR_SAMPLER_TABLE"),
    (DataClass::PtrConstBufferTable, "PTR_CONST_BUFFER_TABLE"),
    (DataClass::PtrVertexBufferTable, "PTR_VERTEX_BUFFER_TABLE"),
    (DataClass::PtrSoBufferTable, "PTR_SO_BUFFER_TABLE"),
    (DataClass::PtrUavTable, "PTR_UAV_TABLE"),
    (
        DataClass::PtrInternalGlobalTable,
        "PTR_INTERNAL_GLOBAL_TABLE",
    ),
    (DataClass::PtrExtendedUserData, "PTR_EXTENDED_USER_DATA"),
    (DataClass::PtrIndirectResource, "PTR_INDIRECT_RESOURCE"),
    (
        DataClass::PtrIndirectInternalResource,
        "PTR_INDIRECT_INTERNAL_RESOURCE",
    ),
    (DataClass::PtrIndirectUav, "PTR_INDIRECT_UAV"),
    (DataClass::ImmContextBase, "IMM_CONTEXT_BASE"),
    (DataClass::ImmLdsEsgsSize, "IMM_LDS_ESGS_SIZE"),
    (DataClass::ImmGlobalOffset, "IMM_GLOBAL_OFFSET"),
    (DataClass::ImmGenericUserData, "IMM_GENERIC_USER_DATA"),
];

impl DataClass {
    pub fn from_number(n: u32) -> Option<DataClass> {
        CLASSES.get(n as usize).map(|r| r.0)
    }

    pub fn number(self) -> u32 {
        CLASSES
            .iter()
            .position(|r| r.0 == self)
            .map_or(u32::MAX, |i| i as u32)
    }

    /// CLRX's name in upper case (`PTR_UAV_TABLE`).
    pub fn name(self) -> &'static str {
        CLASSES.iter().find(|r| r.0 == self).map_or("", |r| r.1)
    }
}

/// The typed program information of an ISA encoding of `family`.
pub fn program_info(notes: &CalNotes, family: Family) -> Result<ProgramInfo, String> {
    let need = |k: u32, name: &str| {
        notes
            .prog_info(k)
            .ok_or_else(|| format!("PROGINFO has no {name} ({k:#x})"))
    };
    match family {
        Family::SouthernIslands => {
            let pgm_rsrc2 = PgmRsrc2(need(key::COMPUTE_PGM_RSRC2, "COMPUTE_PGM_RSRC2")?);
            let count = need(key::USER_ELEMENT_COUNT, "USER_ELEMENT_COUNT")?;
            if count > MAX_USER_ELEMENTS {
                return Err(format!(
                    "USER_ELEMENT_COUNT {count} exceeds the {MAX_USER_ELEMENTS} slots"
                ));
            }
            let mut user_elements = Vec::new();
            for i in 0..count {
                let at = key::USER_ELEMENTS + 4 * i;
                let name = format!("USER_ELEMENTS_{i}");
                let class = need(at, &name)?;
                let data_class = DataClass::from_number(class)
                    .ok_or_else(|| format!("{name}: unknown data class {class}"))?;
                let e = UserElement {
                    data_class,
                    api_slot: need(at + 1, &name)?,
                    start_reg: need(at + 2, &name)?,
                    reg_count: need(at + 3, &name)?,
                };
                let end = u64::from(e.start_reg) + u64::from(e.reg_count);
                if end > u64::from(pgm_rsrc2.user_sgpr()) {
                    return Err(format!(
                        "{name} ({}) loads s{}..s{} but COMPUTE_PGM_RSRC2 has {} user SGPRs",
                        data_class.name(),
                        e.start_reg,
                        end.saturating_sub(1),
                        pgm_rsrc2.user_sgpr()
                    ));
                }
                user_elements.push(e);
            }
            Ok(ProgramInfo::Si(SiProgramInfo {
                user_elements,
                num_vgprs: need(key::SI_NUM_VGPRS, "SI_NUM_VGPRS")?,
                num_sgprs: need(key::SI_NUM_SGPRS, "SI_NUM_SGPRS")?,
                float_mode: need(key::SI_FLOAT_MODE, "SI_FLOAT_MODE")?,
                ieee_mode: need(key::SI_IEEE_MODE, "SI_IEEE_MODE")?,
                scratch_size: need(key::SI_SCRATCH_SIZE, "SI_SCRATCH_SIZE")?,
                pgm_rsrc2,
                threads_per_group: threads_per_group(notes),
                lds_size_used: notes.prog_info(key::LDS_SIZE_USED),
            }))
        }
        Family::Evergreen => {
            let sq_pgm_resources = need(key::SQ_PGM_RESOURCES_LS, "SQ_PGM_RESOURCES_LS")?;
            let per_uav = |base: u32| std::array::from_fn(|i| notes.prog_info(base + i as u32));
            Ok(ProgramInfo::Evergreen(EvergreenProgramInfo {
                sq_pgm_resources,
                num_gprs: bits(sq_pgm_resources, 0, 8),
                stack_size: bits(sq_pgm_resources, 8, 8),
                compute_input_cntl: need(key::SPI_COMPUTE_INPUT_CNTL, "SPI_COMPUTE_INPUT_CNTL")?,
                lds_alloc: notes.prog_info(key::SQ_LDS_ALLOC),
                lds_size_used: notes.prog_info(key::LDS_SIZE_USED),
                rat_op_is_used: notes.prog_info(key::RAT_OP_IS_USED),
                num_global_uav: notes.prog_info(key::NUM_GLOBAL_UAV),
                cached_fetch_const: per_uav(key::CACHED_FETCH_CONST_UAV),
                uncached_fetch_const: per_uav(key::UNCACHED_FETCH_CONST_UAV),
            }))
        }
    }
}

fn threads_per_group(notes: &CalNotes) -> Option<[u32; 3]> {
    let at = |i| notes.prog_info(key::NUM_THREAD_PER_GROUP + i);
    Some([at(0)?, at(1)?, at(2)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_class_numbers_follow_clrx() {
        for n in 0..33 {
            assert_eq!(DataClass::from_number(n).map(DataClass::number), Some(n));
        }
        // CLRX dataClassMap: imm_const_buffer 0x02, imm_uav 0x04, ptr_resource_table 0x11,
        // ptr_const_buffer_table 0x14, ptr_uav_table 0x17, imm_generic_user_data 0x20.
        let named = [
            (0x02, "IMM_CONST_BUFFER"),
            (0x04, "IMM_UAV"),
            (0x11, "PTR_RESOURCE_TABLE"),
            (0x14, "PTR_CONST_BUFFER_TABLE"),
            (0x17, "PTR_UAV_TABLE"),
            (0x1e, "IMM_LDS_ESGS_SIZE"),
            (0x20, "IMM_GENERIC_USER_DATA"),
        ];
        for (n, name) in named {
            assert_eq!(DataClass::from_number(n).map(DataClass::name), Some(name));
        }
        assert_eq!(DataClass::from_number(0x21), None);
    }

    /// BinomialOption's RSRC2 0x400098: USER_SGPR 12, TGID_X_EN, TIDIG_COMP_CNT 0, LDS_SIZE 128
    /// (the full 32 KiB, §3.4); QuasiRandomSequence's 0x401298 enables X and Z and
    /// TIDIG_COMP_CNT 2 (bit 12).
    #[test]
    fn rsrc2_fields() {
        let r = PgmRsrc2(0x0040_0098);
        assert_eq!(r.user_sgpr(), 12);
        assert_eq!(r.tgid_en(), [true, false, false]);
        assert_eq!((r.lds_size(), r.lds_bytes()), (128, 32768));
        assert!(!r.scratch_en() && !r.tg_size_en() && !r.trap_present());
        assert_eq!(PgmRsrc2(0x0040_1298).tgid_en(), [true, false, true]);
        assert_eq!(PgmRsrc2(0x0040_1298).tidig_comp_cnt(), 2);
        assert_eq!(PgmRsrc2(0x7f00_6000).excp_en(), 0x7f);
        assert_eq!(PgmRsrc2(0x7f00_6000).excp_en_msb(), 3);
    }
}
