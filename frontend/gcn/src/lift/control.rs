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

/// MODE.GPR_IDX_EN (bit 27, CLRX GcnInstrsSopc.md `S_SET_GPR_IDX_ON`): while set, VALU
/// VGPR operands selected by M0[15:12] are offset by M0[7:0] (see `operand.rs`).
pub(crate) const GPR_IDX_EN: u32 = 1 << 27;

/// MODE bits tracked statically (they change how later instructions are lifted).
const TRACKED: u32 = FLOAT_CONTROL | GPR_IDX_EN;

/// MODE after `inst`, given MODE before it and the instruction just before it in the same
/// basic block (`prev`). `s_setreg*` of HW_REG_MODE changes it, and `s_set_gpr_idx_on`/
/// `s_set_gpr_idx_off` set/clear GPR_IDX_EN. A register-sourced write to the tracked bits
/// (float control, GPR_IDX_EN) is tracked when `prev` sets that register to a constant
/// (`s_mov_b32`/`s_movk_i32`), the pattern compilers emit; any other register write to those
/// bits would make the mode dynamic and is rejected.
pub(crate) fn mode_after(
    inst: &Inst,
    prev: Option<&Inst>,
    pc: u64,
    mode: u32,
) -> Result<u32, LiftError> {
    match inst.opcode {
        Opcode::S_SET_GPR_IDX_ON => return Ok(mode | GPR_IDX_EN),
        Opcode::S_SET_GPR_IDX_OFF => return Ok(mode & !GPR_IDX_EN),
        _ => {}
    }
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
    if m & TRACKED == 0 {
        return Ok(mode);
    }
    match known_source(inst, prev) {
        Some(v) => Ok((mode & !m) | ((v << off) & m)),
        None => Err(LiftError::Unsupported {
            pc,
            text: crate::print::print(inst),
            why: "s_setreg_b32 of the float-control or GPR_IDX_EN MODE bits from a register \
                  not set to a constant by the previous instruction (dynamic mode)"
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
            S_SET_GPR_IDX_OFF => {
                self.set_gpr_idx_en(inst)?;
                Ok(Flow::Next)
            }
            S_SET_GPR_IDX_MODE => {
                // CLRX GcnInstrsSopp.md: M0 = (M0 & 0xffff0fff) | ((SIMM16 & 15) << 12).
                let imm = match inst.operand(Field::GprIdx).map(|o| o.value) {
                    Some(Operand::Imm(v)) => v,
                    _ => inst.simm16.unwrap_or(0) as u32,
                };
                let r = self.g.m0();
                let m0 = self.b.use_reg(r, ScalarType::I32);
                let keep = self.b.i32(0xffff_0fff);
                let kept = self.b.op(Op::And, ScalarType::I32, &[m0, keep]);
                let bits = self.b.i32((imm & 15) << 12);
                let v = self.b.op(Op::Or, ScalarType::I32, &[kept, bits]);
                self.b.def_reg(r, v, None);
                Ok(Flow::Next)
            }
            _ => Err(self.unsupported(inst, "halt and message-halt instructions")),
        }
    }
}

impl Lifter<'_> {
    /// `s_set_gpr_idx_on`/`_off`: updates the static MODE and MODE.GPR_IDX_EN in the `hwreg`
    /// cell (so `s_getreg_b32` sees it).
    pub(crate) fn set_gpr_idx_en(&mut self, inst: &Inst) -> Result<(), LiftError> {
        self.mode = mode_after(inst, None, self.pc, self.mode)?;
        let r = self.g.hwreg(HW_REG_MODE);
        let old = self.b.use_reg(r, ScalarType::I32);
        let v = if self.mode & GPR_IDX_EN != 0 {
            let k = self.b.i32(GPR_IDX_EN);
            self.b.op(Op::Or, ScalarType::I32, &[old, k])
        } else {
            let k = self.b.i32(!GPR_IDX_EN);
            self.b.op(Op::And, ScalarType::I32, &[old, k])
        };
        self.b.def_reg(r, v, None);
        Ok(())
    }
}
