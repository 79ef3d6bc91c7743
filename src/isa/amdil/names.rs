//! IL register names in a `wavejit wave` state: the temps `r0.x`..`rN.w` (temp n, component;
//! as many temps as the program names) and the elements of its indexed temp arrays,
//! `x0[3].y`, all lane registers; the exec mask is the lift's active mask; constant buffers
//! `cb0`..`cb14`; the arena (every raw UAV's byte 0) is the state's memory base, and the wave
//! is wave 0 of work-group (0, 0, 0) of a grid of one wave along x
//! ([`wavejit_amdil::launch::lone_wave`]; a pixel shader's lane l is the domain point (l, 0),
//! `vWinCoord0` = (l + 0.5, 0.5, 0.0, 1.0)).

use crate::frontend::{RegRef, RegisterNames};
use wavejit_amdil::lift::state::{IlLayout, CONST_BUFFERS};
use wavejit_ir::Reg;
use wavejit_runtime::WaveState;

pub struct IlNames {
    l: IlLayout,
}

impl IlNames {
    pub fn new(l: IlLayout) -> IlNames {
        IlNames { l }
    }
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// A decimal number without leading zeros.
fn number(s: &str) -> Option<u32> {
    let n: u32 = s.parse().ok()?;
    (s == n.to_string()).then_some(n)
}

fn component(c: &str) -> Option<u32> {
    let mut chars = c.chars();
    let first = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    COMPONENTS
        .iter()
        .position(|&x| x == first)
        .map(|i| i as u32)
}

impl RegisterNames for IlNames {
    fn lookup(&self, name: &str) -> Option<RegRef> {
        let (reg, comp) = name.rsplit_once('.')?;
        let c = component(comp)?;
        if let Some(n) = reg.strip_prefix('r').and_then(number) {
            return (n < self.l.temps).then(|| RegRef::Lane(self.l.temp(n, c)));
        }
        let (array, element) = reg.strip_prefix('x')?.strip_suffix(']')?.split_once('[')?;
        let (file, len) = *self.l.arrays.get(&number(array)?)?;
        let e = number(element)?;
        (e < len).then(|| RegRef::Lane(Reg::new(file, 4 * e + c)))
    }

    fn all(&self) -> Vec<(String, RegRef)> {
        let mut out: Vec<(String, RegRef)> = (0..self.l.temps)
            .flat_map(|n| (0..4).map(move |c| (n, c)))
            .map(|(n, c)| {
                let name = format!("r{n}.{}", COMPONENTS[c as usize]);
                (name, RegRef::Lane(self.l.temp(n, c)))
            })
            .collect();
        for (num, &(file, len)) in &self.l.arrays {
            for e in 0..len {
                for c in 0..4 {
                    let name = format!("x{num}[{e}].{}", COMPONENTS[c as usize]);
                    out.push((name, RegRef::Lane(Reg::new(file, 4 * e + c))));
                }
            }
        }
        out
    }

    fn exec(&self, state: &WaveState) -> u64 {
        let e = self.l.exec();
        u64::from(state.uniform(e)) | u64::from(state.uniform(e.offset(1))) << 32
    }

    fn set_exec(&self, state: &mut WaveState, mask: u64) {
        let e = self.l.exec();
        state.set_uniform(e, mask as u32);
        state.set_uniform(e.offset(1), (mask >> 32) as u32);
    }

    /// The arena starts at `base`, and the wave is alone in its grid.
    fn bind_memory(&self, state: &mut WaveState, base: u64) {
        let a = self.l.arena();
        state.set_uniform(a, base as u32);
        state.set_uniform(a.offset(1), (base >> 32) as u32);
        wavejit_amdil::launch::lone_wave(&self.l, state);
    }

    fn bind_constants(&self, name: &str, addr: u64, state: &mut WaveState) -> Option<()> {
        let n = number(name.strip_prefix("cb")?)?;
        if n >= CONST_BUFFERS {
            return None;
        }
        let r = self.l.const_buffer(n);
        state.set_uniform(r, addr as u32);
        state.set_uniform(r.offset(1), (addr >> 32) as u32);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn temps_and_array_elements_by_their_il_names() {
        let names = IlNames::new(IlLayout::new(
            3,
            &BTreeMap::from([(2, 5)]),
            1,
            Default::default(),
            64,
        ));
        let l = &names.l;
        assert_eq!(names.lookup("r2.w"), Some(RegRef::Lane(l.temp(2, 3))));
        assert_eq!(names.lookup("r0.x"), Some(RegRef::Lane(l.temp(0, 0))));
        let (file, _) = l.arrays[&2];
        assert_eq!(
            names.lookup("x2[4].y"),
            Some(RegRef::Lane(Reg::new(file, 17)))
        );
        for bad in [
            "r3.x", "r01.x", "r1.q", "r1", "r1.xy", "x2[5].x", "x1[0].x", "v0", "x2[04].x",
        ] {
            assert_eq!(names.lookup(bad), None, "{bad}");
        }
        let all = names.all();
        assert_eq!(all.len(), 4 * 3 + 4 * 5);
        for (name, reg) in &all {
            assert_eq!(names.lookup(name), Some(*reg), "{name}");
        }
    }
}
