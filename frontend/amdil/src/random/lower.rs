//! Items to instructions, and the declarations of what the instructions use.

use super::operand::temp_comp;
use super::{
    inst, literal, temp_dst, Item, ARENA_UAV, ARRAY, ARRAY_ELEMENTS, CB, CB_ELEMENTS,
    CONTROL_LITERAL, COUNTER_TEMP, LDS_BYTES, LDS_ID,
};
use crate::inst::{Index, Inst, Reg, Src};
use crate::table::op;
use crate::token::{RegType, Sel};
use std::collections::BTreeSet;

/// Writes items as instructions.
pub(super) fn lower(items: &[Item], out: &mut Vec<Inst>) {
    for item in items {
        match item {
            Item::Inst(i) | Item::Leave(i) => out.push(i.clone()),
            Item::If {
                head,
                then,
                otherwise,
            } => {
                out.push(head.clone());
                lower(then, out);
                if let Some(o) = otherwise {
                    out.push(Inst::new(op::ELSE));
                    lower(o, out);
                }
                out.push(Inst::new(op::ENDIF));
            }
            Item::Loop {
                counter,
                start,
                body,
            } => {
                let c = usize::from(*counter);
                let counter = temp_comp(COUNTER_TEMP, Sel::ALL[c]);
                let mut set = inst("iand", &[]);
                set.dst.push(temp_dst(COUNTER_TEMP, c));
                set.src = vec![start.clone(), literal(CONTROL_LITERAL, Sel::Y)];
                out.push(set);
                out.push(Inst::new(op::WHILE));
                let mut done = inst("break_logicalz", &[]);
                done.src.push(counter.clone());
                out.push(done);
                let mut step = inst("iadd", &[]);
                step.dst.push(temp_dst(COUNTER_TEMP, c));
                step.src = vec![counter, literal(CONTROL_LITERAL, Sel::X)];
                out.push(step);
                lower(body, out);
                out.push(Inst::new(op::ENDLOOP));
            }
            Item::Switch { selector, arms } => {
                let mut s = Inst::new(op::SWITCH);
                s.src.push(selector.clone());
                out.push(s);
                for arm in arms {
                    out.push(match arm.label {
                        Some(v) => Inst {
                            extra: vec![v],
                            ..Inst::new(op::CASE)
                        },
                        None => Inst::new(op::DEFAULT),
                    });
                    lower(&arm.body, out);
                    if arm.breaks {
                        out.push(inst("break", &[]));
                    }
                }
                out.push(Inst::new(op::ENDSWITCH));
            }
        }
    }
}

/// Calls `f` with every register an instruction names, index registers included.
pub(super) fn each_reg(inst: &Inst, f: &mut dyn FnMut(&Reg)) {
    fn walk(r: &Reg, f: &mut dyn FnMut(&Reg)) {
        f(r);
        if let Index::Rel(x, _) = &r.index {
            walk(&x.reg, f);
        }
    }
    for d in &inst.dst {
        walk(&d.reg, f);
    }
    for s in &inst.src {
        walk(&s.reg, f);
    }
}

/// The declarations of what `code` uses.
pub(super) fn declarations(code: &[Inst], literals: &[[u32; 4]]) -> Vec<Inst> {
    let (mut cb, mut array, mut lds) = (false, false, false);
    let mut lits = BTreeSet::new();
    let mut uavs = BTreeSet::new();
    for i in code {
        each_reg(i, &mut |r| match r.ty {
            RegType::CONST_BUFF => cb = true,
            RegType::ITEMP => array = true,
            RegType::LITERAL => {
                lits.insert(r.num);
            }
            _ => {}
        });
        let Some(row) = i.row() else { continue };
        let id = row.field("id").map_or(0, |f| f.get(i.control));
        match row.mnemonic {
            "uav_raw_load" | "uav_raw_store" => {
                uavs.insert(id);
            }
            "lds_load" | "lds_store" => lds = true,
            _ => {}
        }
    }
    let mut out = Vec::new();
    let sized = |mnemonic: &str, ty: RegType, num: u32, n: u32| {
        let mut d = inst(mnemonic, &[]);
        d.src.push(Src {
            reg: Reg {
                index: Index::Imm(n),
                ..Reg::new(ty, num)
            },
            modifier: None,
        });
        d
    };
    if cb {
        out.push(sized("dcl_cb", RegType::CONST_BUFF, CB, CB_ELEMENTS));
    }
    if array {
        out.push(sized(
            "dcl_indexed_temp_array",
            RegType::ITEMP,
            ARRAY,
            ARRAY_ELEMENTS,
        ));
    }
    for n in lits {
        let Some(&values) = literals.get(n as usize) else {
            continue;
        };
        let mut d = inst("dcl_literal", &[]);
        d.src.push(Src::reg(RegType::LITERAL, n));
        d.extra = values.to_vec();
        out.push(d);
    }
    for id in uavs {
        let m = if id == ARENA_UAV {
            "dcl_arena_uav"
        } else {
            "dcl_raw_uav"
        };
        out.push(inst(m, &[("id", id)]));
    }
    if lds {
        let mut d = inst("dcl_lds", &[("id", LDS_ID)]);
        d.extra.push(LDS_BYTES);
        out.push(d);
    }
    out
}
