//! G13 register names in a `wavejit wave` state: `r0`..`r127` (32-bit lane registers; their
//! halves are their low and high 16 bits) and `u0`..`u255` (uniform); the exec mask is the
//! SIMD-group's. A state's lanes hold threads: the live mask, within which the exec-stack
//! instructions recompute exec, is the state's exec mask.

use crate::frontend::{RegRef, RegisterNames};
use wavejit_g13::lift::state::{G13Layout, GPRS, UNIFORMS};
use wavejit_runtime::WaveState;

pub struct G13Names {
    l: G13Layout,
    /// Threadgroup memory bytes a lone wave addresses.
    threadgroup_bytes: u32,
}

impl G13Names {
    pub fn new(threadgroup_bytes: u32) -> G13Names {
        G13Names {
            l: G13Layout::new(),
            threadgroup_bytes,
        }
    }
}

/// `n` of `prefix` followed by a decimal number without leading zeros below `limit`.
fn numbered(name: &str, prefix: &str, limit: u32) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?;
    let n: u32 = digits.parse().ok()?;
    (n < limit && digits == n.to_string()).then_some(n)
}

impl RegisterNames for G13Names {
    fn lookup(&self, name: &str) -> Option<RegRef> {
        if let Some(n) = numbered(name, "r", GPRS) {
            return Some(RegRef::Lane(self.l.gpr(n)));
        }
        numbered(name, "u", UNIFORMS).map(|n| RegRef::Uniform(self.l.uniform(n)))
    }

    fn all(&self) -> Vec<(String, RegRef)> {
        let r = (0..GPRS).map(|n| (format!("r{n}"), RegRef::Lane(self.l.gpr(n))));
        let u = (0..UNIFORMS).map(|n| (format!("u{n}"), RegRef::Uniform(self.l.uniform(n))));
        r.chain(u).collect()
    }

    fn exec(&self, state: &WaveState) -> u64 {
        let e = self.l.exec();
        u64::from(state.uniform(e)) | u64::from(state.uniform(e.offset(1))) << 32
    }

    fn set_exec(&self, state: &mut WaveState, mask: u64) {
        for reg in [self.l.exec(), self.l.live()] {
            state.set_uniform(reg, mask as u32);
            state.set_uniform(reg.offset(1), (mask >> 32) as u32);
        }
    }

    /// A lone wave is SIMD-group 0 of threadgroup (0, 0, 0), 32 threads along x, with the
    /// threadgroup memory of its program: `get_sr` sees that geometry.
    fn bind_memory(&self, state: &mut WaveState, _base: u64) {
        wavejit_g13::launch::lone_wave(&self.l, self.threadgroup_bytes, state);
    }
}
