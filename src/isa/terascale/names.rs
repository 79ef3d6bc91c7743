//! TeraScale register names in a `wavejit wave` state: `R0.x`..`R127.w`, GPR n and channel
//! (llc's listing spells the same register `T0.X`, also accepted), all lane registers; the
//! exec mask is the active mask of the CF stack's top; constant buffers `cb0`..`cb15`; the
//! global pool starts at the state's memory base (pool offset 0).

use crate::frontend::{RegRef, RegisterNames};
use wavejit_runtime::WaveState;
use wavejit_terascale::lift::state::{CONST_BUFFERS, GPRS};
use wavejit_terascale::lift::TsLayout;

pub struct TsNames {
    l: TsLayout,
}

impl TsNames {
    pub fn new(wave_size: u32) -> TsNames {
        TsNames {
            l: TsLayout::new(wave_size),
        }
    }
}

const CHANNELS: [char; 4] = ['x', 'y', 'z', 'w'];

impl RegisterNames for TsNames {
    fn lookup(&self, name: &str) -> Option<RegRef> {
        let rest = name.strip_prefix('R').or_else(|| name.strip_prefix('T'))?;
        let (n, chan) = rest.split_once('.')?;
        let gpr: u32 = n.parse().ok()?;
        let chan = match chan {
            "x" | "X" => 0,
            "y" | "Y" => 1,
            "z" | "Z" => 2,
            "w" | "W" => 3,
            _ => return None,
        };
        (gpr < GPRS && n == gpr.to_string()).then(|| RegRef::Lane(self.l.gpr(gpr, chan)))
    }

    fn all(&self) -> Vec<(String, RegRef)> {
        (0..GPRS)
            .flat_map(|n| (0..4).map(move |c| (n, c)))
            .map(|(n, c)| {
                let name = format!("R{n}.{}", CHANNELS[c as usize]);
                (name, RegRef::Lane(self.l.gpr(n, c)))
            })
            .collect()
    }

    fn exec(&self, state: &WaveState) -> u64 {
        let a = self.l.active();
        u64::from(state.uniform(a)) | u64::from(state.uniform(a.offset(1))) << 32
    }

    fn set_exec(&self, state: &mut WaveState, mask: u64) {
        let a = self.l.active();
        state.set_uniform(a, mask as u32);
        state.set_uniform(a.offset(1), (mask >> 32) as u32);
    }

    /// The global pool (fetch buffer 1, RAT 0) starts at `base`: pool offset `o` is guest
    /// address `base + o`.
    fn bind_memory(&self, state: &mut WaveState, base: u64) {
        let r = self.l.pool_base();
        state.set_uniform(r, base as u32);
        state.set_uniform(r.offset(1), (base >> 32) as u32);
    }

    fn bind_constants(&self, name: &str, addr: u64, state: &mut WaveState) -> Option<()> {
        let n: u32 = name.strip_prefix("cb")?.parse().ok()?;
        if n >= CONST_BUFFERS {
            return None;
        }
        let r = self.l.const_buffer(n);
        state.set_uniform(r, addr as u32);
        state.set_uniform(r.offset(1), (addr >> 32) as u32);
        Some(())
    }
}
