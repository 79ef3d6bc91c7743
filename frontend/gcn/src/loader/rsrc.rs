//! Fields of COMPUTE_PGM_RSRC1/RSRC2 (bit layouts: notes/amd_launch_abi.md §3.1, which
//! follows LLVM's SIDefines.h / AMDGPUUsage).

/// Extracts `width` bits starting at `lo`.
fn bits(v: u32, lo: u32, width: u32) -> u32 {
    (v >> lo) & ((1 << width) - 1)
}

/// RSRC1 fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rsrc1(pub u32);

impl Rsrc1 {
    /// GRANULATED_WORKITEM_VGPR_COUNT `[5:0]`: VGPRs in blocks of 4, minus one (gfx6-9 wave64).
    pub fn vgprs(self) -> u32 {
        (bits(self.0, 0, 6) + 1) * 4
    }
    /// GRANULATED_WAVEFRONT_SGPR_COUNT `[9:6]`: SGPRs in blocks of 8, minus one.
    pub fn sgprs(self) -> u32 {
        (bits(self.0, 6, 4) + 1) * 8
    }
    /// FLOAT_MODE `[19:12]`.
    pub fn float_mode(self) -> u8 {
        bits(self.0, 12, 8) as u8
    }
    /// ENABLE_DX10_CLAMP `[21]`.
    pub fn dx10_clamp(self) -> bool {
        bits(self.0, 21, 1) != 0
    }
    /// ENABLE_IEEE_MODE `[23]`.
    pub fn ieee_mode(self) -> bool {
        bits(self.0, 23, 1) != 0
    }
}

/// RSRC2 fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rsrc2(pub u32);

impl Rsrc2 {
    /// ENABLE_SGPR_PRIVATE_SEGMENT_WAVE_BYTE_OFFSET (SCRATCH_EN) `[0]`.
    pub fn scratch_en(self) -> bool {
        bits(self.0, 0, 1) != 0
    }
    /// USER_SGPR_COUNT `[5:1]`.
    pub fn user_sgpr(self) -> u8 {
        bits(self.0, 1, 5) as u8
    }
    /// ENABLE_SGPR_WORKGROUP_ID_{X,Y,Z} `[7]`, `[8]`, `[9]`.
    pub fn tgid_en(self) -> [bool; 3] {
        [
            bits(self.0, 7, 1) != 0,
            bits(self.0, 8, 1) != 0,
            bits(self.0, 9, 1) != 0,
        ]
    }
    /// ENABLE_SGPR_WORKGROUP_INFO (TG_SIZE_EN) `[10]`.
    pub fn tg_size_en(self) -> bool {
        bits(self.0, 10, 1) != 0
    }
    /// ENABLE_VGPR_WORKITEM_ID (TIDIG_COMP_CNT) `[12:11]`.
    pub fn tidig_comp_cnt(self) -> u8 {
        bits(self.0, 11, 2) as u8
    }
    /// LDS_SIZE `[23:15]`, in granules (only set in legacy objects).
    pub fn lds_size(self) -> u32 {
        bits(self.0, 15, 9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// legacy-tahiti private_array: `.AMDGPU.config` 0xB848 = 0x00af0081, 0xB84C = 0x85 and the
    /// listing's comments: SGPRBlocks 2, VGPRBlocks 1, FloatMode 240, IeeeMode 1, SCRATCH_EN 1,
    /// USER_SGPR 2, TGID_X_EN 1, TIDIG_COMP_CNT 0.
    #[test]
    fn decodes_llc_values() {
        let r1 = Rsrc1(0x00af_0081);
        assert_eq!((r1.vgprs(), r1.sgprs()), (8, 24));
        assert_eq!(r1.float_mode(), 240);
        assert!(r1.ieee_mode() && r1.dx10_clamp());
        let r2 = Rsrc2(0x85);
        assert!(r2.scratch_en());
        assert_eq!(r2.user_sgpr(), 2);
        assert_eq!(r2.tgid_en(), [true, false, false]);
        assert!(!r2.tg_size_en());
        assert_eq!(r2.tidig_comp_cnt(), 0);
        assert_eq!(r2.lds_size(), 0);
    }
}
