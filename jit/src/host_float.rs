//! The host's denormals-are-zero mode (x86 MXCSR.DAZ) around compiled code.
//!
//! With DAZ set, the host's SSE/AVX float arithmetic and compares read every denormal operand
//! as a zero of the same sign before computing (Intel SDM vol. 1, 10.2.3.4 "Denormals-Are-Zeros";
//! AMD APM vol. 1, 4.2.3 MXCSR.DAZ). That is exactly the semantics' input flush
//! (`wavejit_ir::semantics`, "Flushing"), so code whose every float op flushes its inputs may
//! leave the flush of an operand that only feeds host arithmetic to the host. DAZ leaves
//! results alone (denormal results are written as computed; FTZ, which would flush them, stays
//! off), and moves, logic and shuffles never look at it.
//!
//! Invariants:
//! - DAZ is set only while code compiled with [`crate::lower::LowerCfg::daz`] runs
//!   ([`Scope::daz`] around the call), and that code is compiled only for blocks in which every
//!   op with a float mode flushes its inputs, so DAZ changes nothing but the flushes left to it.
//! - Rust code never runs with DAZ set: the helpers compiled code calls that compute anything
//!   (pure ops, wave operations) open a [`Scope::ieee`] first, which clears DAZ and restores the
//!   caller's mode when the helper returns or unwinds. The gather and scatter helpers only move
//!   bytes. The body of such a helper is a call made after the scope is open, so no float op of
//!   it can be scheduled before the mode changes.
//! - Hosts without DAZ (early x86-64 parts report it in MXCSR_MASK; other architectures) get
//!   no DAZ code: [`available`] is false and every flush is compiled.

#[cfg(target_arch = "x86_64")]
mod host {
    use std::arch::asm;
    use std::sync::OnceLock;

    /// MXCSR bit 6.
    const DAZ: u32 = 1 << 6;

    fn read() -> u32 {
        let mut v = 0u32;
        // SAFETY: stores the 32-bit MXCSR into `v`.
        unsafe { asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack, preserves_flags)) };
        v
    }

    fn write(v: u32) {
        // SAFETY: loads MXCSR from `v`, a value read from MXCSR with only the DAZ bit changed,
        // and DAZ is supported (`available`), so no reserved bit is set.
        unsafe { asm!("ldmxcsr [{}]", in(reg) &v, options(nostack, preserves_flags)) };
    }

    pub fn available() -> bool {
        static AVAILABLE: OnceLock<bool> = OnceLock::new();
        *AVAILABLE.get_or_init(|| {
            // FXSAVE stores MXCSR_MASK at byte 28; zero there means the default mask 0xffbf,
            // which lacks DAZ (Intel SDM vol. 1, 11.6.6).
            #[repr(C, align(16))]
            struct Area([u8; 512]);
            let mut area = Area([0; 512]);
            // SAFETY: FXSAVE writes the 512-byte, 16-byte-aligned area; every x86-64 CPU has
            // it.
            unsafe { asm!("fxsave64 [{}]", in(reg) area.0.as_mut_ptr(), options(nostack)) };
            let mask = u32::from_le_bytes([area.0[28], area.0[29], area.0[30], area.0[31]]);
            mask & DAZ != 0
        })
    }

    pub struct Saved(u32);

    pub fn set_daz() -> Saved {
        let v = read();
        write(v | DAZ);
        Saved(v)
    }

    pub fn clear_daz() -> Option<Saved> {
        let v = read();
        (v & DAZ != 0).then(|| {
            write(v & !DAZ);
            Saved(v)
        })
    }

    pub fn restore(s: &Saved) {
        write(s.0)
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod host {
    pub fn available() -> bool {
        false
    }

    pub struct Saved;

    pub fn set_daz() -> Saved {
        Saved
    }

    pub fn clear_daz() -> Option<Saved> {
        None
    }

    pub fn restore(_: &Saved) {}
}

/// Whether this host can run DAZ code.
pub(crate) fn available() -> bool {
    host::available()
}

/// A mode of the host's floats until dropped, then the mode before.
pub(crate) struct Scope(Option<host::Saved>);

impl Scope {
    /// DAZ set: only for code compiled with DAZ, which exists only where [`available`] is
    /// true.
    #[inline]
    pub fn daz() -> Scope {
        Scope(Some(host::set_daz()))
    }

    /// DAZ clear: Rust float code inside.
    #[inline]
    pub fn ieee() -> Scope {
        Scope(host::clear_daz())
    }
}

impl Drop for Scope {
    #[inline]
    fn drop(&mut self) {
        if let Some(s) = &self.0 {
            host::restore(s)
        }
    }
}
