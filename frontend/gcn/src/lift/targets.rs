//! Static targets of register jumps, for code discovery.
//!
//! `s_setpc_b64`, `s_swappc_b64`, `s_rfe*` and `s_cbranch_g_fork` jump to an address held in
//! an SGPR pair. Only discovered blocks can be reached by such a jump, so discovery follows
//! the idiom compilers and hand-written code use to form a code address:
//! `s_getpc_b64`, then `s_add_u32`/`s_addc_u32` (or `s_sub_u32`/`s_subb_u32`) of constants, or
//! `s_mov_b32`/`s_mov_b64`/`s_movk_i32` of constants. Values are tracked along the
//! straight-line code being decoded; any other scalar instruction forgets the registers it
//! writes (and SCC), memory instructions forget nothing and VALU instructions (which may
//! write SGPRs) forget everything. The result is
//! only a hint: a wrong guess adds a harmless block leader, a missed one leaves the jump to
//! fault with `BadJump` at run time if it is taken.
use crate::inst::{Inst, Opcode, Operand};
use crate::tables::Field;
use std::collections::HashMap;

/// The source operand holding the address a register jump goes to, if `inst` is one.
pub(super) fn jump_source(inst: &Inst) -> Option<Field> {
    use Opcode::*;
    match inst.opcode {
        S_SETPC_B64 | S_SWAPPC_B64 | S_RFE_B64 | S_RFE_RESTORE_B64 => Some(Field::Ssrc0),
        S_CBRANCH_G_FORK => Some(Field::Ssrc1),
        _ => None,
    }
}

/// Known SGPR values and SCC along one straight-line path.
#[derive(Default)]
pub(super) struct Known {
    sgpr: HashMap<u8, u32>,
    scc: Option<bool>,
}

impl Known {
    /// The value of a 32-bit source operand, when known.
    fn value(&self, inst: &Inst, field: Field) -> Option<u32> {
        match inst.operand(field)?.value {
            Operand::Sgpr(n) => self.sgpr.get(&n).copied(),
            Operand::InlineInt(v) => Some(v as i32 as u32),
            Operand::Literal(v) => Some(v),
            _ => None,
        }
    }

    /// The 64-bit value of the SGPR pair in `field`, when both halves are known.
    pub(super) fn pair(&self, inst: &Inst, field: Field) -> Option<u64> {
        match inst.operand(field)?.value {
            Operand::Sgpr(n) => {
                let lo = *self.sgpr.get(&n)?;
                let hi = *self.sgpr.get(&n.checked_add(1)?)?;
                Some(lo as u64 | (hi as u64) << 32)
            }
            _ => None,
        }
    }

    fn dst(inst: &Inst) -> Option<u8> {
        match inst.operand(Field::Sdst)?.value {
            Operand::Sgpr(n) => Some(n),
            _ => None,
        }
    }

    /// Forgets what `inst` may write.
    fn forget(&mut self, inst: &Inst) {
        use crate::inst::Encoding as E;
        match inst.encoding {
            E::Sop1 | E::Sop2 | E::Sopk | E::Sopc | E::Sopp | E::Smrd | E::Smem => {
                if matches!(inst.opcode, Opcode::S_MOVRELD_B32 | Opcode::S_MOVRELD_B64) {
                    *self = Known::default();
                    return;
                }
                for f in [Field::Sdst, Field::Sdata] {
                    if let Some(o) = inst.operand(f) {
                        if let Operand::Sgpr(n) = o.value {
                            for i in 0..o.dwords.max(1) {
                                self.sgpr.remove(&n.wrapping_add(i));
                            }
                        }
                    }
                }
                self.scc = None;
            }
            E::Ds | E::Mubuf | E::Mtbuf | E::Flat | E::Global | E::Scratch => {}
            _ => *self = Known::default(),
        }
    }

    fn set(&mut self, n: u8, v: u32) {
        self.sgpr.insert(n, v);
    }

    /// Updates the known values for `inst` at address `addr` (its guest address).
    pub(super) fn step(&mut self, inst: &Inst, addr: u64) {
        use Opcode::*;
        let d = Self::dst(inst);
        let next = addr.wrapping_add(inst.len as u64);
        let (a, b) = (
            self.value(inst, Field::Ssrc0),
            self.value(inst, Field::Ssrc1),
        );
        let update = match (inst.opcode, d) {
            (S_GETPC_B64, Some(n)) => Some(vec![(n, next as u32), (n + 1, (next >> 32) as u32)]),
            (S_MOV_B32, Some(n)) => a.map(|v| vec![(n, v)]),
            (S_MOVK_I32, Some(n)) => inst.simm16.map(|v| vec![(n, v as i16 as i32 as u32)]),
            (S_MOV_B64, Some(n)) => {
                let v = self.pair(inst, Field::Ssrc0).or_else(|| {
                    // A 64-bit inline constant sign-extends; a literal zero-extends.
                    match inst.operand(Field::Ssrc0)?.value {
                        Operand::InlineInt(v) => Some(v as i64 as u64),
                        Operand::Literal(v) => Some(v as u64),
                        _ => None,
                    }
                });
                v.map(|v| vec![(n, v as u32), (n + 1, (v >> 32) as u32)])
            }
            (S_ADD_U32 | S_ADDC_U32 | S_SUB_U32 | S_SUBB_U32, Some(n)) => {
                let cin = match inst.opcode {
                    S_ADDC_U32 | S_SUBB_U32 => self.scc,
                    _ => Some(false),
                };
                match (a, b, cin) {
                    (Some(a), Some(b), Some(c)) => {
                        let (a, b, c) = (a as u64, b as u64, c as u64);
                        let sub = matches!(inst.opcode, S_SUB_U32 | S_SUBB_U32);
                        let (r, carry) = if sub {
                            (a.wrapping_sub(b).wrapping_sub(c), b + c > a)
                        } else {
                            (a + b + c, a + b + c > u32::MAX as u64)
                        };
                        self.scc = Some(carry);
                        Some(vec![(n, r as u32)])
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match update {
            Some(vals) => {
                for (n, v) in vals {
                    self.set(n, v);
                }
            }
            None => self.forget(inst),
        }
    }
}
