//! Random operands: registers from the pools of the module doc of [`super`], swizzles, and the
//! modifiers Table 2.10 (L681-L692) allows an operand of each type ([`Ty`]), which are exactly
//! the ones the lifter's `regs` module accepts.

use super::{
    ARRAY, ARRAY_ELEMENTS, CB, CB_ELEMENTS, CONTROL_LITERAL, COUNTER_TEMP, FIRST_LITERAL,
    FIRST_TEMP, LAST_TEMP, MAX_TRIPS, PATTERN_TEMP, TEMPS,
};
use crate::inst::{Dst, Index, Reg, Src};
use crate::token::{DstComp, DstMod, RegType, Sel, SrcMod};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How an operand is typed, which decides its modifiers (Table 2.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// Every source modifier; shift_scale and clamp on a result.
    Float,
    /// The swizzle and two's-complement `neg`; no result modifier.
    Int,
    /// Logical (bitwise): the swizzle only (L3220); no result modifier.
    Bits,
}

/// What operands may name besides the fixed registers.
#[derive(Clone, Copy, Debug)]
pub struct Pools {
    /// Random literals `l{FIRST_LITERAL}..`, this many.
    pub literals: u32,
}

/// The thread-id registers (Table 5.6, L1269) a compute program reads.
const THREAD_IDS: [RegType; 6] = [
    RegType::THREAD_ID_IN_GROUP,
    RegType::THREAD_ID_IN_GROUP_FLAT,
    RegType::ABSOLUTE_THREAD_ID,
    RegType::ABSOLUTE_THREAD_ID_FLAT,
    RegType::THREAD_GROUP_ID,
    RegType::THREAD_GROUP_ID_FLAT,
];

pub(super) fn chance(rng: &mut ChaCha8Rng, percent: u32) -> bool {
    rng.gen_range(0..100) < percent
}

/// A plain temp component, replicated (`r0.z`).
pub(super) fn temp_comp(num: u32, comp: Sel) -> Src {
    Src {
        reg: Reg::new(RegType::TEMP, num),
        modifier: Some(SrcMod::replicate(comp)),
    }
}

/// The largest immediate added to an array index: the index registers stay below
/// [`MAX_TRIPS`].
const HEADROOM: u32 = ARRAY_ELEMENTS - MAX_TRIPS;

/// An array index that stays below [`ARRAY_ELEMENTS`] with its immediate added: a lane
/// pattern (`r0.z`), a loop counter (`r1.c`), or `l0.y` (uniform).
fn array_index(rng: &mut ChaCha8Rng) -> Index {
    let (src, imm) = match rng.gen_range(0..4) {
        0 => (temp_comp(PATTERN_TEMP, Sel::Z), 0),
        1 | 2 => (
            temp_comp(COUNTER_TEMP, Sel::ALL[rng.gen_range(0..3)]),
            rng.gen_range(0..=HEADROOM),
        ),
        _ => (
            Src {
                reg: Reg::new(RegType::LITERAL, CONTROL_LITERAL),
                modifier: Some(SrcMod::replicate(Sel::Y)),
            },
            rng.gen_range(0..=HEADROOM),
        ),
    };
    Index::Rel(Box::new(src), (imm != 0).then_some(imm))
}

/// A random register to read.
fn source_reg(rng: &mut ChaCha8Rng, pools: &Pools) -> Reg {
    match rng.gen_range(0..100) {
        0..=44 => Reg::new(RegType::TEMP, rng.gen_range(FIRST_TEMP..=LAST_TEMP)),
        45..=54 => Reg::new(RegType::TEMP, rng.gen_range(0..TEMPS)),
        55..=69 if pools.literals > 0 => Reg::new(
            RegType::LITERAL,
            FIRST_LITERAL + rng.gen_range(0..pools.literals),
        ),
        70..=77 => Reg {
            index: Index::Imm(rng.gen_range(0..CB_ELEMENTS)),
            ..Reg::new(RegType::CONST_BUFF, CB)
        },
        78..=81 => {
            // Any index, per lane or uniform: one outside the buffer reads 0.
            let comp = Sel::ALL[rng.gen_range(0..4)];
            let index = if chance(rng, 25) && pools.literals > 0 {
                let num = FIRST_LITERAL + rng.gen_range(0..pools.literals);
                Src {
                    reg: Reg::new(RegType::LITERAL, num),
                    modifier: Some(SrcMod::replicate(comp)),
                }
            } else {
                temp_comp(rng.gen_range(0..TEMPS), comp)
            };
            let imm = rng.gen_range(0..CB_ELEMENTS);
            Reg {
                index: Index::Rel(Box::new(index), (imm != 0).then_some(imm)),
                ..Reg::new(RegType::CONST_BUFF, CB)
            }
        }
        82..=86 => Reg {
            index: Index::Imm(rng.gen_range(0..ARRAY_ELEMENTS)),
            ..Reg::new(RegType::ITEMP, ARRAY)
        },
        87..=90 => Reg {
            index: array_index(rng),
            ..Reg::new(RegType::ITEMP, ARRAY)
        },
        _ => Reg::new(THREAD_IDS[rng.gen_range(0..THREAD_IDS.len())], 0),
    }
}

/// A random swizzle: the identity, a replicated component, any four, or with 0 and 1.
pub(super) fn swizzle(rng: &mut ChaCha8Rng) -> [Sel; 4] {
    match rng.gen_range(0..20) {
        0..=7 => SrcMod::IDENTITY.swizzle,
        8..=13 => [Sel::ALL[rng.gen_range(0..4)]; 4],
        14..=18 => [0; 4].map(|_| Sel::ALL[rng.gen_range(0..4)]),
        _ => [0; 4].map(|_| Sel::ALL[rng.gen_range(0..6)]),
    }
}

/// A random source modifier for an operand of type `ty` (`None`: no modifier token).
fn src_mod(rng: &mut ChaCha8Rng, ty: Ty) -> Option<SrcMod> {
    if chance(rng, 30) {
        return None;
    }
    let mut m = SrcMod {
        swizzle: swizzle(rng),
        ..SrcMod::IDENTITY
    };
    match ty {
        Ty::Bits => {}
        Ty::Int => m.neg = [0; 4].map(|_| chance(rng, 8)),
        Ty::Float => {
            m.neg = [0; 4].map(|_| chance(rng, 12));
            m.abs = chance(rng, 15);
            m.invert = chance(rng, 4);
            m.bias = chance(rng, 4);
            m.x2 = chance(rng, 4);
            m.sign = chance(rng, 4);
            // divComp(unknown) names no divisor (Table 6.6): the lifter refuses it.
            m.divcomp = if chance(rng, 4) {
                rng.gen_range(1..=3)
            } else {
                0
            };
            m.clamp = chance(rng, 6);
        }
    }
    Some(m)
}

/// A random source of type `ty`.
pub(super) fn source(rng: &mut ChaCha8Rng, ty: Ty, pools: &Pools) -> Src {
    Src {
        reg: source_reg(rng, pools),
        modifier: src_mod(rng, ty),
    }
}

/// A random destination write mask: mostly written components, some skipped, a few 0 and 1.
pub(super) fn write_mask(rng: &mut ChaCha8Rng) -> [DstComp; 4] {
    [0; 4].map(|_| match rng.gen_range(0..20) {
        0..=12 => DstComp::Write,
        13..=17 => DstComp::NoWrite,
        18 => DstComp::Zero,
        _ => DstComp::One,
    })
}

/// A random destination of type `ty`: a random temp, or an array element at an absolute index
/// or one relative to an index that stays inside the array.
pub(super) fn dst(rng: &mut ChaCha8Rng, ty: Ty) -> Dst {
    let reg = if chance(rng, 85) {
        Reg::new(RegType::TEMP, rng.gen_range(FIRST_TEMP..=LAST_TEMP))
    } else {
        let index = if chance(rng, 50) {
            array_index(rng)
        } else {
            Index::Imm(rng.gen_range(0..ARRAY_ELEMENTS))
        };
        Reg {
            index,
            ..Reg::new(RegType::ITEMP, ARRAY)
        }
    };
    let modifier = (!chance(rng, 35)).then(|| {
        let float = ty == Ty::Float;
        DstMod {
            comp: write_mask(rng),
            clamp: float && chance(rng, 12),
            shift: if float && chance(rng, 12) {
                rng.gen_range(1..=6)
            } else {
                0
            },
        }
    });
    Dst { reg, modifier }
}
