//! Random memory instructions and fences.

use super::operand::{self, temp_comp, Ty};
use super::{
    inst, literal, temp_dst, Ctx, Gen, Item, ADDRESS_TEMP, ARENA_UAV, CONTROL_LITERAL, LDS_ID,
    PATTERN_TEMP, RAW_UAV, WIDE_LITERAL,
};
use crate::inst::{Dst, Inst, Reg};
use crate::token::{DstComp, DstMod, RegType, Sel};
use rand::Rng;

impl Gen<'_> {
    /// A fence: with `_threads` only outside every block.
    pub(super) fn fence(&mut self, ctx: Ctx) -> Inst {
        const OPTIONS: [&[&str]; 7] = [
            &["lds"],
            &["memory"],
            &["lds", "memory"],
            &["mem_read_only"],
            &["mem_write_only"],
            &["gds"],
            &["sr"],
        ];
        let mut fields = vec![];
        if ctx.depth == 0 && self.chance(60) {
            fields.push(("threads", 1));
        }
        if fields.is_empty() || self.chance(70) {
            let options = OPTIONS[self.rng.gen_range(0..OPTIONS.len())];
            fields.extend(options.iter().map(|&o| (o, 1)));
        }
        inst("fence", &fields)
    }

    /// A raw UAV or LDS access, usually after masking its address into `r10`.
    pub(super) fn memory(&mut self) -> Vec<Item> {
        let lds = self.chance(40);
        let comp = usize::from(lds);
        let mut items = Vec::new();
        if self.chance(80) {
            let wide = self.opts.memory_focus && self.chance(8);
            let mask = if wide {
                literal(WIDE_LITERAL, Sel::ALL[comp])
            } else {
                literal(CONTROL_LITERAL, Sel::ALL[2 + comp])
            };
            // Lane patterns give distinct addresses, random values shared ones; past an end,
            // only random values reach.
            let base = match self.rng.gen_range(0..10) {
                0..=3 if !wide => temp_comp(PATTERN_TEMP, Sel::Y),
                4 | 5 if !wide => temp_comp(PATTERN_TEMP, Sel::ALL[self.rng.gen_range(0..4)]),
                _ => self.source(Ty::Bits),
            };
            let mut i = inst("iand", &[]);
            i.dst.push(temp_dst(ADDRESS_TEMP, comp));
            i.src = vec![base, mask];
            items.push(Item::Inst(i));
        }
        let address = temp_comp(ADDRESS_TEMP, Sel::ALL[comp]);
        let store = self.chance(50);
        let mut i = match (lds, store) {
            (false, _) => {
                let id = if self.chance(70) { RAW_UAV } else { ARENA_UAV };
                let m = if store {
                    "uav_raw_store"
                } else {
                    "uav_raw_load"
                };
                inst(m, &[("id", id)])
            }
            (true, false) => inst("lds_load", &[("id", LDS_ID)]),
            (true, true) => inst("lds_store", &[("id", LDS_ID)]),
        };
        i.src.push(address);
        let data = |g: &mut Self| g.source(Ty::Bits);
        match (lds, store) {
            (false, false) => i.dst.push(operand::dst(&mut self.rng, Ty::Bits)),
            (false, true) => {
                let modifier = self.chance(70).then(|| DstMod {
                    comp: operand::write_mask(&mut self.rng),
                    ..DstMod::IDENTITY
                });
                i.dst.push(Dst {
                    reg: Reg::new(RegType::GENERIC_MEM, 0),
                    modifier,
                });
                let v = data(self);
                i.src.push(v);
            }
            (true, false) => {
                // lds_load returns one dword, into x (L10228): y, z and w are not written or
                // take 0 or 1.
                let mut comp = operand::write_mask(&mut self.rng);
                comp[0] = DstComp::Write;
                for c in &mut comp[1..] {
                    if *c == DstComp::Write {
                        *c = DstComp::NoWrite;
                    }
                }
                let mut d = operand::dst(&mut self.rng, Ty::Bits);
                d.modifier = Some(DstMod {
                    comp,
                    ..DstMod::IDENTITY
                });
                i.dst.push(d);
            }
            (true, true) => {
                let v = data(self);
                i.src.push(v);
            }
        }
        items.push(Item::Inst(i));
        items
    }
}
