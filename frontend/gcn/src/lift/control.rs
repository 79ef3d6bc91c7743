//! SOPP (program control), fork/join, trap returns, VSKIP, halts and the static MODE
//! transfer function.
//!
//! Branch conditions (CLRX doc/GcnInstrsSopp.md): `scc0/1` test SCC, `vccz/vccnz` test
//! VCC == 0, `execz/execnz` test EXEC == 0. The `cdbg*` branches test debugger status bits,
//! which are 0 for a wave without a debugger, so they fall through. `s_endpgm*` return,
//! `s_barrier` ends the block with a barrier, `s_trap` traps. Waits, sleeps, priorities,
//! performance hints, cache invalidations and `s_sendmsg` (messages go to the graphics
//! pipeline, which a compute emulator does not have) have no architectural effect here.
//!
//! **Fork/join** (AMD GCN3/Vega/CDNA ISA pseudocode of `S_CBRANCH_I_FORK`, `S_CBRANCH_G_FORK`,
//! `S_CBRANCH_JOIN`; CLRX GcnInstrsSop*.md agrees): a fork splits EXEC into `pass = S0 & EXEC`
//! and `fail = ~S0 & EXEC`. If `pass == EXEC` (EXEC = 0 included) it jumps to the target; else
//! if `fail == EXEC` it falls through; else the path with fewer lanes runs first (`fail` when
//! `popcount(fail) < popcount(pass)`, so a tie runs `pass` first) and the other path is pushed
//! on the conditional-branch stack: the 4 SGPRs at `s[CSP*4]` get `{EXEC of the deferred
//! path (s[CSP*4:+1]), its PC (s[CSP*4+2:+3])}`, then CSP += 1 (3 bits, wrapping). CSP is
//! MODE `[31:29]` (CLRX GcnState.md), so `s_getreg_b32` sees it. A join compares CSP with
//! S0 (the CSP saved before the fork): equal falls through; otherwise CSP -= 1 (wrapping) and
//! EXEC and PC are restored from the entry at the new CSP. Every restored PC is a fork's
//! target or next instruction, which discovery makes blocks, so the join is a
//! `JumpIndirect`; a stack entry rewritten by the program to another address faults with
//! `BadJump` like `s_setpc_b64` would. Each is lifted branch-free in one IR block: the stack
//! write stores the old entry back when the fork does not split.
//!
//! **Trap returns**: `s_rfe_b64` clears STATUS.PRIV (always 0 here: no trap handler runs)
//! and jumps to S0; `s_rfe_restore_b64` also sets STATUS.INST_ATC (`[23]`) to S1`[0]` (Vega
//! ISA). Both lift like `s_setpc_b64`.
//!
//! **VSKIP** (MODE `[28]`; `s_setvskip`: VSKIP = S0`[S1[4:0]]`): while set, vector
//! instructions are not issued. Only programs that can set the bit (`s_setvskip`, or an
//! `s_setreg*` of MODE covering bit 28) pay for it: each maximal run of consecutive vector
//! instructions (VSKIP cannot change inside one) is guarded by a uniform branch on the bit.
//!
//! **Halt**: nothing can resume a halted wave in this emulator (no debugger or host
//! command), so `s_sethalt 1` and `s_sendmsghalt` end the wave with a guest fault
//! ([`TrapKind::Explicit`]) instead of hanging the dispatch; `s_sethalt 0` clears a halt
//! that is never set and does nothing.
use super::scalar::{field_mask, hwreg_fields};
use super::state::{HW_REG_MODE, HW_REG_STATUS};
use super::{Flow, LiftError, Lifter};
use crate::inst::{Inst, Opcode, Operand};
use crate::tables::Field;
use wavejit_ir::{Block, IntCC, Op, ScalarType, Terminator, TrapKind, Value};
use ScalarType::{I1, I32, I64};

/// MODE bits that change how float ops are lifted: round, denorm, DX10_CLAMP, IEEE.
const FLOAT_CONTROL: u32 = 0x3ff;

/// MODE.GPR_IDX_EN (bit 27, CLRX GcnInstrsSopc.md `S_SET_GPR_IDX_ON`): while set, VALU
/// VGPR operands selected by M0[15:12] are offset by M0[7:0] (see `operand.rs`).
pub(crate) const GPR_IDX_EN: u32 = 1 << 27;

/// MODE bits tracked statically (they change how later instructions are lifted).
const TRACKED: u32 = FLOAT_CONTROL | GPR_IDX_EN;

/// MODE.VSKIP (bit 28): vector instructions are skipped while set.
pub(crate) const VSKIP: u32 = 1 << 28;
/// MODE.CSP (bits `[31:29]`): the conditional-branch stack pointer of fork/join.
const CSP_SHIFT: u32 = 29;
/// STATUS.INST_ATC (bit 23), set by `s_rfe_restore_b64`.
const STATUS_INST_ATC: u32 = 1 << 23;

/// Whether `inst` halts the wave (`s_sethalt` with SIMM16`[0]` set, `s_sendmsghalt`).
pub(crate) fn halts(inst: &Inst) -> bool {
    match inst.opcode {
        Opcode::S_SETHALT => inst.simm16.unwrap_or(0) & 1 != 0,
        Opcode::S_SENDMSGHALT => true,
        _ => false,
    }
}

/// Whether `inst` can set MODE.VSKIP.
pub(crate) fn writes_vskip(inst: &Inst) -> bool {
    match inst.opcode {
        Opcode::S_SETVSKIP => true,
        Opcode::S_SETREG_B32 | Opcode::S_SETREG_IMM32_B32 => {
            let (id, off, size) = hwreg_fields(inst.simm16.unwrap_or(0));
            id == HW_REG_MODE && (field_mask(size) << off) & VSKIP != 0
        }
        _ => false,
    }
}

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
    // Untracked bits (CSP, VSKIP, exception enables) are run-time state in the `hwreg` cell;
    // keeping them out of the static mode keeps them from making predecessors disagree.
    let m = (field_mask(size) << off) & TRACKED;
    if inst.opcode == Opcode::S_SETREG_IMM32_B32 {
        let v = match inst.operand(Field::Literal).map(|o| o.value) {
            Some(Operand::Literal(v)) => v,
            _ => 0,
        };
        return Ok((mode & !m) | ((v << off) & m));
    }
    if m == 0 {
        return Ok(mode);
    }
    match known_source(inst, prev) {
        Some(v) => Ok((mode & !m) | ((v << off) & m)),
        None => Err(LiftError::unsupported(
            pc,
            crate::print::print(inst),
            "s_setreg_b32 of the float-control or GPR_IDX_EN MODE bits from a register not set \
             to a constant by the previous instruction (dynamic mode)",
        )),
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
            S_SETHALT | S_SENDMSGHALT if halts(inst) => {
                let why = format!("wave halted by {}", inst.name());
                self.b.terminate(Terminator::Trap(TrapKind::Explicit(why)));
                Ok(Flow::Ended)
            }
            S_SETHALT => Ok(Flow::Next),
            _ => Err(self.unsupported(inst, "SOPP opcode without semantics")),
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

impl Lifter<'_> {
    /// MODE as stored (the run-time cell, CSP and VSKIP included).
    fn mode_reg(&mut self) -> Value {
        let r = self.g.hwreg(HW_REG_MODE);
        self.b.use_reg(r, I32)
    }

    /// MODE with CSP replaced by `csp` (i32, already in 0..8).
    fn with_csp(&mut self, mode: Value, csp: Value) -> Value {
        let keep = self.b.i32(!(7 << CSP_SHIFT));
        let kept = self.b.op(Op::And, I32, &[mode, keep]);
        let k = self.b.i32(CSP_SHIFT);
        let c = self.b.op(Op::Shl, I32, &[csp, k]);
        self.b.op(Op::Or, I32, &[kept, c])
    }

    /// (CSP, the SGPR index of its stack entry: CSP * 4) of a MODE value.
    fn csp_of(&mut self, mode: Value) -> (Value, Value) {
        let k = self.b.i32(CSP_SHIFT);
        let csp = self.b.op(Op::Lshr, I32, &[mode, k]);
        let two = self.b.i32(2);
        let idx = self.b.op(Op::Shl, I32, &[csp, two]);
        (csp, idx)
    }

    /// `s_cbranch_i_fork` / `s_cbranch_g_fork` (see the module doc).
    pub(crate) fn fork(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        let next_off = self.pc + inst.len as u64;
        let next = self.guest_addr(next_off);
        let (s0, target) = if inst.opcode == Opcode::S_CBRANCH_I_FORK {
            let s0 = self.sop_src(inst, Field::Sdst)?;
            let t = inst.branch_target(self.pc).map(|t| t as i64).unwrap_or(-1);
            let addr = self.b.i64(self.guest_addr(t as u64));
            (s0, (addr, Some(t)))
        } else {
            let s0 = self.sop_src(inst, Field::Ssrc0)?;
            (s0, (self.sop_src(inst, Field::Ssrc1)?, None))
        };
        let (target_addr, direct) = target;
        let exec = self.exec_bits();
        let pass = self.b.op(Op::And, I64, &[s0, exec]);
        let ns0 = self.b.op(Op::Not, I64, &[s0]);
        let fail = self.b.op(Op::And, I64, &[ns0, exec]);
        let all_pass = self.b.op(Op::Icmp(IntCC::Eq), I1, &[pass, exec]);
        let all_fail = self.b.op(Op::Icmp(IntCC::Eq), I1, &[fail, exec]);
        let uniform = self.b.op(Op::Or, I1, &[all_pass, all_fail]);
        let split = self.b.op(Op::Not, I1, &[uniform]);
        let n_pass = self.b.op(Op::Popcnt, I64, &[pass]);
        let n_fail = self.b.op(Op::Popcnt, I64, &[fail]);
        let fail_first = self.b.op(Op::Icmp(IntCC::Ult), I1, &[n_fail, n_pass]);
        let next_v = self.b.i64(next);
        let new_exec = self.b.op(Op::Select, I64, &[fail_first, fail, pass]);
        let later_exec = self.b.op(Op::Select, I64, &[fail_first, pass, fail]);
        let later_pc = self
            .b
            .op(Op::Select, I64, &[fail_first, target_addr, next_v]);
        // Push (written back unchanged when the fork does not split).
        let mode = self.mode_reg();
        let (csp, idx) = self.csp_of(mode);
        let file = self.g.s;
        let old_exec = self.b.read_reg_indexed(file, 0, idx, I64);
        let old_pc = self.b.read_reg_indexed(file, 2, idx, I64);
        let e = self.b.op(Op::Select, I64, &[split, later_exec, old_exec]);
        let p = self.b.op(Op::Select, I64, &[split, later_pc, old_pc]);
        self.b.write_reg_indexed(file, 0, idx, e, None);
        self.b.write_reg_indexed(file, 2, idx, p, None);
        let one = self.b.i32(1);
        let seven = self.b.i32(7);
        let up = self.b.op(Op::Iadd, I32, &[csp, one]);
        let up = self.b.op(Op::And, I32, &[up, seven]);
        let pushed = self.with_csp(mode, up);
        let m = self.b.op(Op::Select, I32, &[split, pushed, mode]);
        let r = self.g.hwreg(HW_REG_MODE);
        self.b.def_reg(r, m, None);
        let exec_now = self.b.op(Op::Select, I64, &[split, new_exec, exec]);
        let r = self.g.exec();
        self.b.def_reg(r, exec_now, None);
        // The target runs now when every lane passes or the split runs `pass` first.
        let pass_first = self.b.op(Op::Not, I1, &[fail_first]);
        let split_pass = self.b.op(Op::And, I1, &[split, pass_first]);
        let to_target = self.b.op(Op::Or, I1, &[all_pass, split_pass]);
        match direct {
            Some(t) => {
                let then_to = self.target(t);
                let else_to = self.target(next_off as i64);
                self.b.terminate(Terminator::Branch {
                    cond: to_target,
                    then_to,
                    else_to,
                });
            }
            None => {
                let pc = self
                    .b
                    .op(Op::Select, I64, &[to_target, target_addr, next_v]);
                self.b.terminate(Terminator::JumpIndirect(pc));
            }
        }
        Ok(Flow::Ended)
    }

    /// `s_cbranch_join` (see the module doc).
    pub(crate) fn join(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        let saved = self.sop_src(inst, Field::Ssrc0)?;
        let mode = self.mode_reg();
        let (csp, _) = self.csp_of(mode);
        let done = self.b.op(Op::Icmp(IntCC::Eq), I1, &[csp, saved]);
        let seven = self.b.i32(7);
        let down = self.b.op(Op::Iadd, I32, &[csp, seven]);
        let down = self.b.op(Op::And, I32, &[down, seven]);
        let popped = self.with_csp(mode, down);
        let (_, idx) = self.csp_of(popped);
        let file = self.g.s;
        let exec_r = self.b.read_reg_indexed(file, 0, idx, I64);
        let pc_r = self.b.read_reg_indexed(file, 2, idx, I64);
        let exec = self.exec_bits();
        let m = self.b.op(Op::Select, I32, &[done, mode, popped]);
        let e = self.b.op(Op::Select, I64, &[done, exec, exec_r]);
        let r = self.g.hwreg(HW_REG_MODE);
        self.b.def_reg(r, m, None);
        let r = self.g.exec();
        self.b.def_reg(r, e, None);
        let next = self.guest_addr(self.pc + inst.len as u64);
        let next = self.b.i64(next);
        let pc = self.b.op(Op::Select, I64, &[done, next, pc_r]);
        self.b.terminate(Terminator::JumpIndirect(pc));
        Ok(Flow::Ended)
    }

    /// `s_rfe_b64` / `s_rfe_restore_b64` (see the module doc).
    pub(crate) fn rfe(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        let pc = self.sop_src(inst, Field::Ssrc0)?;
        if inst.opcode == Opcode::S_RFE_RESTORE_B64 {
            let atc = self.sop_src(inst, Field::Ssrc1)?;
            let one = self.b.i32(1);
            let bit = self.b.op(Op::And, I32, &[atc, one]);
            let k = self.b.i32(STATUS_INST_ATC.trailing_zeros());
            let bit = self.b.op(Op::Shl, I32, &[bit, k]);
            let r = self.g.hwreg(HW_REG_STATUS);
            let old = self.b.use_reg(r, I32);
            let keep = self.b.i32(!STATUS_INST_ATC);
            let kept = self.b.op(Op::And, I32, &[old, keep]);
            let v = self.b.op(Op::Or, I32, &[kept, bit]);
            self.b.def_reg(r, v, None);
        }
        self.b.terminate(Terminator::JumpIndirect(pc));
        Ok(Flow::Ended)
    }

    /// `s_setvskip`: MODE.VSKIP = S0`[S1[4:0]]`.
    pub(crate) fn setvskip(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let a = self.sop_src(inst, Field::Ssrc0)?;
        let b = self.sop_src(inst, Field::Ssrc1)?;
        let k31 = self.b.i32(31);
        let n = self.b.op(Op::And, I32, &[b, k31]);
        let bit = self.b.op(Op::Lshr, I32, &[a, n]);
        let one = self.b.i32(1);
        let bit = self.b.op(Op::And, I32, &[bit, one]);
        let k = self.b.i32(VSKIP.trailing_zeros());
        let bit = self.b.op(Op::Shl, I32, &[bit, k]);
        let mode = self.mode_reg();
        let keep = self.b.i32(!VSKIP);
        let kept = self.b.op(Op::And, I32, &[mode, keep]);
        let v = self.b.op(Op::Or, I32, &[kept, bit]);
        let r = self.g.hwreg(HW_REG_MODE);
        self.b.def_reg(r, v, None);
        Ok(())
    }

    /// Ends the current block with a branch to `skip` when MODE.VSKIP is set, and continues
    /// in a new block otherwise (the guard of a run of vector instructions).
    pub(crate) fn vskip_guard(&mut self, skip: Block) {
        let mode = self.mode_reg();
        let k = self.b.i32(VSKIP);
        let bit = self.b.op(Op::And, I32, &[mode, k]);
        let z = self.b.i32(0);
        let set = self.b.op(Op::Icmp(IntCC::Ne), I1, &[bit, z]);
        let body = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond: set,
            then_to: skip,
            else_to: body,
        });
        self.switch_block(body);
    }
}
