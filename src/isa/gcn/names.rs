//! GCN register names in a `wavejit wave` state: `v0`..`v255` (lane), `s0`..`s103`,
//! `vcc_lo`, `vcc_hi`, `exec_lo`, `exec_hi`, `m0`, `scc` (uniform), as LLVM spells them.

use crate::frontend::{RegRef, RegisterNames};
use wavejit_gcn::lift::state::{SGPRS, VGPRS};
use wavejit_gcn::lift::GcnLayout;
use wavejit_runtime::WaveState;

pub struct GcnNames {
    g: GcnLayout,
}

impl Default for GcnNames {
    fn default() -> Self {
        GcnNames::new()
    }
}

impl GcnNames {
    pub fn new() -> GcnNames {
        GcnNames {
            g: GcnLayout::new(),
        }
    }

    /// The named registers that are not SGPRs or VGPRs.
    fn specials(&self) -> [(&'static str, RegRef); 6] {
        let g = &self.g;
        [
            ("vcc_lo", RegRef::Uniform(g.vcc())),
            ("vcc_hi", RegRef::Uniform(g.vcc().offset(1))),
            ("exec_lo", RegRef::Uniform(g.exec())),
            ("exec_hi", RegRef::Uniform(g.exec().offset(1))),
            ("m0", RegRef::Uniform(g.m0())),
            ("scc", RegRef::Uniform(g.scc())),
        ]
    }
}

/// `n` of `prefix` followed by a decimal number without leading zeros below `limit`.
fn numbered(name: &str, prefix: &str, limit: u32) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?;
    let n: u32 = digits.parse().ok()?;
    (n < limit && digits == n.to_string()).then_some(n)
}

impl RegisterNames for GcnNames {
    fn lookup(&self, name: &str) -> Option<RegRef> {
        if let Some(n) = numbered(name, "v", VGPRS) {
            return Some(RegRef::Lane(self.g.vgpr(n)));
        }
        if let Some(n) = numbered(name, "s", SGPRS) {
            return Some(RegRef::Uniform(self.g.sgpr(n)));
        }
        self.specials()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| r)
    }

    fn all(&self) -> Vec<(String, RegRef)> {
        let mut out: Vec<(String, RegRef)> = (0..VGPRS)
            .map(|n| (format!("v{n}"), RegRef::Lane(self.g.vgpr(n))))
            .collect();
        out.extend((0..SGPRS).map(|n| (format!("s{n}"), RegRef::Uniform(self.g.sgpr(n)))));
        out.extend(
            self.specials()
                .into_iter()
                .filter(|(n, _)| !n.starts_with("exec"))
                .map(|(n, r)| (n.to_string(), r)),
        );
        out
    }

    fn exec(&self, state: &WaveState) -> u64 {
        let e = self.g.exec();
        u64::from(state.uniform(e)) | u64::from(state.uniform(e.offset(1))) << 32
    }

    fn set_exec(&self, state: &mut WaveState, mask: u64) {
        let e = self.g.exec();
        state.set_uniform(e, mask as u32);
        state.set_uniform(e.offset(1), (mask >> 32) as u32);
    }
}
