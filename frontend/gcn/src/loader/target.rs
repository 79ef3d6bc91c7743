//! The processor a code object was compiled for, from `e_flags`.
//!
//! `EF_AMDGPU_MACH` values are those of LLVM's `llvm/BinaryFormat/ELF.h`; only the GCN
//! processors this crate executes are accepted, and every accepted name is one
//! [`crate::Gen::from_chip`] knows (a test checks it). Rejected on purpose: gfx908 (0x30),
//! whose code may use the AccVGPR file and MFMA/dot instructions (`v_accvgpr_read_b32`,
//! `v_mfma_*`; llvm-mc-14 -mcpu=gfx908 accepts them, gfx900/gfx909/gfx90c do not) that the
//! crate neither decodes nor models, and gfx90a (0x3f), whose work-item ids are packed into v0.
//! gfx90c (0x32, Renoir) is kept: llvm-mc-14 accepts the same instruction set for it as for
//! gfx909 (plain gfx9 plus mad-mix).

use super::LoadError;

/// `e_flags & EF_AMDGPU_MACH`.
const EF_AMDGPU_MACH: u32 = 0xff;

/// (EF_AMDGPU_MACH value, LLVM processor name, GCN generation).
const MACHS: &[(u32, &str, u8)] = &[
    (0x020, "gfx600", 6),
    (0x021, "gfx601", 6),
    (0x03a, "gfx602", 6),
    (0x022, "gfx700", 7),
    (0x023, "gfx701", 7),
    (0x024, "gfx702", 7),
    (0x025, "gfx703", 7),
    (0x026, "gfx704", 7),
    (0x03b, "gfx705", 7),
    (0x028, "gfx801", 8),
    (0x029, "gfx802", 8),
    (0x02a, "gfx803", 8),
    (0x03c, "gfx805", 8),
    (0x02b, "gfx810", 8),
    (0x02c, "gfx900", 9),
    (0x02d, "gfx902", 9),
    (0x02e, "gfx904", 9),
    (0x02f, "gfx906", 9),
    (0x031, "gfx909", 9),
    (0x032, "gfx90c", 9),
];

/// A GCN processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The `EF_AMDGPU_MACH` value.
    pub mach: u32,
    /// LLVM's processor name, e.g. `gfx600` for tahiti, `gfx803` for fiji.
    pub name: &'static str,
    /// GCN generation: 6, 7, 8 or 9.
    pub gfx: u8,
}

impl Target {
    pub fn from_e_flags(e_flags: u32) -> Result<Target, LoadError> {
        let mach = e_flags & EF_AMDGPU_MACH;
        MACHS
            .iter()
            .find(|&&(m, _, _)| m == mach)
            .map(|&(mach, name, gfx)| Target { mach, name, gfx })
            .ok_or(LoadError::UnsupportedChip(mach))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// e_flags observed on LLVM 14 output (notes/amd_launch_abi.md §3.1).
    #[test]
    fn observed_e_flags() {
        for (flags, name, gfx) in [
            (0x20, "gfx600", 6),
            (0x23, "gfx701", 7),
            (0x26, "gfx704", 7),
            (0x29, "gfx802", 8),
            (0x2a, "gfx803", 8),
            (0x12c, "gfx900", 9),
        ] {
            let t = Target::from_e_flags(flags).unwrap();
            assert_eq!((t.name, t.gfx), (name, gfx), "e_flags {flags:#x}");
        }
    }

    /// The rest of the crate (and the CLI) maps a loaded object to a [`crate::Gen`] by name.
    #[test]
    fn every_accepted_processor_has_a_generation() {
        for &(_, name, gfx) in MACHS {
            let gen = crate::Gen::from_chip(name);
            assert_eq!(gen.map(|g| g.index() + 6), Some(gfx as usize), "{name}");
        }
    }

    #[test]
    fn r600_and_later_gfx_are_rejected() {
        // cayman (r600 family), gfx908 (MFMA, AccVGPRs), gfx90a, gfx1010
        for mach in [0x0f, 0x30, 0x3f, 0x33, 0x00] {
            assert_eq!(
                Target::from_e_flags(mach),
                Err(LoadError::UnsupportedChip(mach))
            );
        }
    }
}
