//! SOPP (program control) and the static MODE transfer function.
//!
//! Branch conditions (CLRX doc/GcnInstrsSopp.md): `scc0/1` test SCC, `vccz/vccnz` test
//! VCC == 0, `execz/execnz` test EXEC == 0. The `cdbg*` branches test debugger status bits,
//! which are 0 for a wave without a debugger, so they fall through. `s_endpgm*` return,
//! `s_barrier` ends the block with a barrier, `s_trap` traps. Waits, sleeps, priorities,
//! performance hints, cache invalidations and `s_sendmsg` (messages go to the graphics
//! pipeline, which a compute emulator does not have) have no architectural effect here.
use super::scalar::{field_mask, hwreg_fields};
use super::state::HW_REG_MODE;
use super::{Flow, LiftError, Lifter};
use crate::inst::{Inst, Opcode, Operand};
use crate::tables::Field;
use wavejit_ir::{IntCC, Op, ScalarType, Terminator, TrapKind};

/// MODE bits that change how float ops are lifted: round, denorm, DX10_CLAMP, IEEE.
const FLOAT_CONTROL: u32 = 0x3ff;

/// MODE after `inst`, given MODE before it and the instruction just before it in the same
/// basic block (`prev`). Only `s_setreg*` of HW_REG_MODE changes it. A register-sourced write
/// to the float-control bits is tracked when `prev` sets that register to a constant
/// (`s_mov_b32`/`s_movk_i32`), the pattern compilers emit; any other register write to those
/// bits would make the float mode dynamic and is rejected.
pub(crate) fn mode_after(
    inst: &Inst,
    prev: Option<&Inst>,
    pc: u64,
    mode: u32,
) -> Result<u32, LiftError> {
    let setreg = matches!(
        inst.opcode,
        Opcode::S_SETREG_B32 | Opcode::S_SETREG_IMM32_B32
    );
    if !setreg {
        return Ok(mode);
    }
    let (id, off, size) = hwreg_fields(inst.simm16.unwrap_or(0));
    if id != HW_REG_MODE {
        return Ok(mode);
    }
    let m = field_mask(size) << off;
    if inst.opcode == Opcode::S_SETREG_IMM32_B32 {
        let v = match inst.operand(Field::Literal).map(|o| o.value) {
            Some(Operand::Literal(v)) => v,
            _ => 0,
        };
        return Ok((mode & !m) | ((v << off) & m));
    }
    if m & FLOAT_CONTROL == 0 {
        return Ok(mode);
    }
    match known_source(inst, prev) {
        Some(v) => Ok((mode & !m) | ((v << off) & m)),
        None => Err(LiftError::Unsupported {
            pc,
            text: crate::print::print(inst),
            why: "s_setreg_b32 of the float-control MODE bits from a register not set to a \
                  constant by the previous instruction (dynamic float mode)"
                .into(),
        }),
    }
}

/// The value of `s_setreg_b32`'s source register when `prev` wrote a constant to it.
fn known_source(inst: &Inst, prev: Option<&Inst>) -> Option<u32> {
    let src = inst.operand(Field::Sdst)?.value;
    let prev = prev?;
    if prev.operand(Field::Sdst)?.value != src {
        return None;
    }
    match prev.opcode {
        Opcode::S_MOVK_I32 => Some(prev.simm16? as i16 as i32 as u32),
        Opcode::S_MOV_B32 => match prev.operand(Field::Ssrc0)?.value {
            Operand::InlineInt(v) => Some(v as i32 as u32),
            Operand::Literal(v) => Some(v),
            Operand::InlineFloat(f) => Some(super::operand::inline_float_bits(f, 32) as u32),
            _ => None,
        },
        _ => None,
    }
}

impl Lifter<'_> {
    pub(crate) fn sopp(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        use Opcode::*;
        let next = self.pc + inst.len as u64;
        let target = inst.branch_target(self.pc).map(|t| t as i64).unwrap_or(-1);
        match inst.opcode {
            S_NOP | S_WAITCNT | S_SLEEP | S_SETPRIO | S_SENDMSG | S_ICACHE_INV | S_INCPERFLEVEL
            | S_DECPERFLEVEL | S_TTRACEDATA | S_SETKILL | S_WAKEUP => Ok(Flow::Next),
            S_ENDPGM | S_ENDPGM_SAVED | S_ENDPGM_ORDERED_PS_DONE => {
                self.b.terminate(Terminator::Return);
                Ok(Flow::Ended)
            }
            S_BARRIER => {
                let t = self.target(next as i64);
                self.b.terminate(Terminator::Barrier(t));
                Ok(Flow::Ended)
            }
            S_TRAP => {
                let id = inst.simm16.unwrap_or(0) & 0xff;
                self.b
                    .terminate(Terminator::Trap(TrapKind::Explicit(format!("s_trap {id}"))));
                Ok(Flow::Ended)
            }
            S_BRANCH => {
                let t = self.target(target);
                self.b.terminate(Terminator::Jump(t));
                Ok(Flow::Ended)
            }
            S_CBRANCH_SCC0 | S_CBRANCH_SCC1 | S_CBRANCH_VCCZ | S_CBRANCH_VCCNZ
            | S_CBRANCH_EXECZ | S_CBRANCH_EXECNZ => {
                let cond = match inst.opcode {
                    S_CBRANCH_SCC0 | S_CBRANCH_SCC1 => {
                        let s = self.scc();
                        if inst.opcode == S_CBRANCH_SCC0 {
                            self.b.op(Op::Not, ScalarType::I1, &[s])
                        } else {
                            s
                        }
                    }
                    op => {
                        let r = if matches!(op, S_CBRANCH_VCCZ | S_CBRANCH_VCCNZ) {
                            self.g.vcc()
                        } else {
                            self.g.exec()
                        };
                        let v = self.b.use_reg(r, ScalarType::I64);
                        let z = self.b.i64(0);
                        let cc = if matches!(op, S_CBRANCH_VCCZ | S_CBRANCH_EXECZ) {
                            IntCC::Eq
                        } else {
                            IntCC::Ne
                        };
                        self.b.op(Op::Icmp(cc), ScalarType::I1, &[v, z])
                    }
                };
                let then_to = self.target(target);
                let else_to = self.target(next as i64);
                self.b.terminate(Terminator::Branch {
                    cond,
                    then_to,
                    else_to,
                });
                Ok(Flow::Ended)
            }
            S_CBRANCH_CDBGSYS
            | S_CBRANCH_CDBGUSER
            | S_CBRANCH_CDBGSYS_OR_USER
            | S_CBRANCH_CDBGSYS_AND_USER => {
                let t = self.target(next as i64);
                self.b.terminate(Terminator::Jump(t));
                Ok(Flow::Ended)
            }
            _ => Err(self.unsupported(
                inst,
                "halt, GPR indexing mode and message-halt instructions",
            )),
        }
    }
}
