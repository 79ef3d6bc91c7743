//! Decoder of whole programs: the CF program from address 0 to its end, then every clause
//! it runs (ALU clauses split into instruction groups, fetch clauses of 128-bit words).
//!
//! Rules (notes/hd6900_map.md and the seed lines it cites):
//! - CF words are 64-bit. Bit 29 of word 1 set = CF_ALU (CF_INST `[29:26]`); otherwise
//!   CF_INST `[29:22]` in 64..=127 = CF_ALLOC_EXPORT, else CF_WORD. ALU_EXTENDED is a
//!   CF_ALU_*_EXT pair followed by the real CF_ALU word (two CF slots).
//! - The program ends after CF END (Cayman) or the first instruction with END_OF_PROGRAM
//!   (Evergreen). On Evergreen, NOP+END_OF_PROGRAM words that directly follow (LLVM emits a
//!   CF_END after an exporting store that already carries the bit) belong to the program.
//! - ALU clause: COUNT+1 64-bit slots; a group is the instructions up to LAST = 1, then 0, 1
//!   or 2 literal qwords (1 if any source reads literal X/Y, 2 if Z/W; LDS direct reads use
//!   literal 0). On VLIW5 the slot is DST_CHAN unless the op is trans-only or that vector slot
//!   is taken, then T (Mesa `r600_asm.c` assign_alu_units); slots appear in x,y,z,w,t order.
//! - Fetch clause: COUNT+1 instructions of 128 bits at a 16-byte aligned ADDR.
//!
//! Every malformed input gives a [`DecodeError`]; nothing panics.
use crate::chip::ChipClass;
use crate::inst::*;
use crate::opcode::AluOp;
use crate::tables::{self, AluEnc, CfAluOp, CfOp, SlotRule};

/// Why a program could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("code is {len} bytes, not a whole number of 64-bit words")]
    Truncated { len: usize },
    #[error("CF program runs past the end of the code without an end instruction")]
    NoEnd,
    #[error("{inst} at CF {at}: address {target} is outside the program ({len} words)")]
    CfAddressOutOfRange {
        at: u32,
        inst: &'static str,
        target: u32,
        len: u32,
    },
    #[error(
        "{inst} at CF {at}: clause at {addr} of {words} words runs past the end ({len} words)"
    )]
    ClausePastEnd {
        at: u32,
        inst: &'static str,
        addr: u32,
        words: u32,
        len: u32,
    },
    #[error("{inst} at CF {at}: fetch clause address {addr} is not 16-byte aligned")]
    MisalignedClause {
        at: u32,
        inst: &'static str,
        addr: u32,
    },
    #[error("{inst} at CF {at}: clause at {addr} overlaps the CF program")]
    ClauseOverlapsCf {
        at: u32,
        inst: &'static str,
        addr: u32,
    },
    #[error("clauses at {a} and {b} overlap")]
    ClausesOverlap { a: u32, b: u32 },
    #[error("unknown {family} opcode {code} at word {at}")]
    UnknownOpcode {
        family: &'static str,
        code: u16,
        at: u32,
    },
    #[error("{inst} at word {at}: reserved bits set")]
    ReservedBits { at: u32, inst: &'static str },
    #[error("ALU group at {group} (clause {clause}): literal slot {needed} missing (clause ends at {end})")]
    MissingLiteral {
        clause: u32,
        group: u32,
        needed: u32,
        end: u32,
    },
    #[error(
        "ALU clause at {clause}: last group is not terminated (no LAST bit before word {end})"
    )]
    UnterminatedGroup { clause: u32, end: u32 },
    #[error("{inst} at word {at}: {reason}")]
    InvalidSlot {
        at: u32,
        inst: &'static str,
        reason: &'static str,
    },
    #[error("non-zero word {at} outside the CF program and every clause")]
    StrayData { at: u32 },
}

struct Words<'a> {
    bytes: &'a [u8],
}

impl Words<'_> {
    fn len(&self) -> u32 {
        (self.bytes.len() / 8) as u32
    }
    fn dword(&self, i: usize) -> u32 {
        let b = &self.bytes[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    /// The two dwords of 64-bit word `q` (caller checks `q < len`).
    fn qword(&self, q: u32) -> (u32, u32) {
        (self.dword(q as usize * 2), self.dword(q as usize * 2 + 1))
    }
}

/// Decodes a whole program for `class`.
pub fn decode_program(class: ChipClass, bytes: &[u8]) -> Result<Program, DecodeError> {
    if !bytes.len().is_multiple_of(8) || bytes.is_empty() {
        return Err(DecodeError::Truncated { len: bytes.len() });
    }
    let w = Words { bytes };
    let len = w.len();
    let cf = decode_cf(class, &w)?;
    let cf_end = cf.last().map_or(0, |e| e.addr + e.inst.slots());

    let mut clauses: Vec<Clause> = Vec::new();
    for e in &cf {
        let Some((addr, words, fetch)) = clause_of(&e.inst) else {
            check_cf_target(&e.inst, e.addr, cf_end)?;
            continue;
        };
        let name = cf_name(&e.inst);
        if addr as u64 + words as u64 > len as u64 {
            return Err(DecodeError::ClausePastEnd {
                at: e.addr,
                inst: name,
                addr,
                words,
                len,
            });
        }
        if addr < cf_end {
            return Err(DecodeError::ClauseOverlapsCf {
                at: e.addr,
                inst: name,
                addr,
            });
        }
        if fetch && addr % 2 != 0 {
            return Err(DecodeError::MisalignedClause {
                at: e.addr,
                inst: name,
                addr,
            });
        }
        if clauses.iter().any(|c| c.addr == addr && c.len == words) {
            continue;
        }
        let body = if fetch {
            ClauseBody::Fetch(decode_fetch_clause(class, &w, addr, words / 2)?)
        } else {
            ClauseBody::Alu(decode_alu_clause(class, &w, addr, words)?)
        };
        clauses.push(Clause {
            addr,
            len: words,
            body,
        });
    }
    clauses.sort_by_key(|c| c.addr);
    for pair in clauses.windows(2) {
        if pair[0].addr + pair[0].len > pair[1].addr {
            return Err(DecodeError::ClausesOverlap {
                a: pair[0].addr,
                b: pair[1].addr,
            });
        }
    }
    let mut pads = Vec::new();
    let mut q = cf_end;
    for c in clauses.iter().map(|c| (c.addr, c.len)).chain([(len, 0)]) {
        while q < c.0 {
            if w.qword(q) != (0, 0) {
                return Err(DecodeError::StrayData { at: q });
            }
            pads.push(q);
            q += 1;
        }
        q = q.max(c.0 + c.1);
    }
    Ok(Program {
        class,
        cf,
        clauses,
        pads,
        len,
    })
}

fn cf_name(inst: &CfInst) -> &'static str {
    match inst {
        CfInst::Word(c) => c.op.name(),
        CfInst::Alu(a) => a.op.name(),
        CfInst::Mem(m) => m.op.name(),
    }
}

/// (address, 64-bit words, is fetch) of the clause a CF instruction runs.
fn clause_of(inst: &CfInst) -> Option<(u32, u32, bool)> {
    match inst {
        CfInst::Alu(a) => Some((a.addr, a.slots(), false)),
        CfInst::Word(c) => match c.op {
            CfOp::TC | CfOp::VC | CfOp::GDS | CfOp::TC_ACK | CfOp::VC_ACK => {
                Some((c.addr, (c.count as u32 + 1) * 2, true))
            }
            _ => None,
        },
        CfInst::Mem(_) => None,
    }
}

/// Branch and loop targets must lie inside the CF program.
fn check_cf_target(inst: &CfInst, at: u32, cf_end: u32) -> Result<(), DecodeError> {
    let CfInst::Word(c) = inst else { return Ok(()) };
    let has_target = matches!(
        c.op,
        CfOp::LOOP_START
            | CfOp::LOOP_END
            | CfOp::LOOP_START_DX10
            | CfOp::LOOP_START_NO_AL
            | CfOp::LOOP_CONTINUE
            | CfOp::LOOP_BREAK
            | CfOp::JUMP
            | CfOp::PUSH
            | CfOp::ELSE
            | CfOp::POP
            | CfOp::CALL
            | CfOp::PUSH_WQM
            | CfOp::POP_WQM
            | CfOp::ELSE_WQM
            | CfOp::JUMP_ANY
    );
    if has_target && c.addr > cf_end {
        return Err(DecodeError::CfAddressOutOfRange {
            at,
            inst: c.op.name(),
            target: c.addr,
            len: cf_end,
        });
    }
    Ok(())
}

fn decode_cf(class: ChipClass, w: &Words) -> Result<Vec<CfEntry>, DecodeError> {
    let mut out: Vec<CfEntry> = Vec::new();
    let mut q = 0;
    let mut ended = false;
    loop {
        if q >= w.len() {
            return if ended {
                Ok(out)
            } else {
                Err(DecodeError::NoEnd)
            };
        }
        let decoded = decode_cf_inst(class, w, q);
        if ended {
            // Evergreen: only trailing NOP+END_OF_PROGRAM words still belong to the program.
            let trailing_end =
                matches!(decoded, Ok(CfInst::Word(c)) if c.op == CfOp::NOP && c.end_of_program);
            if !trailing_end {
                return Ok(out);
            }
        }
        let inst = decoded?;
        let slots = inst.slots();
        ended |= inst.ends_program(class);
        out.push(CfEntry { addr: q, inst });
        q += slots;
        if ended && class == ChipClass::Cayman {
            return Ok(out);
        }
    }
}

fn decode_cf_inst(class: ChipClass, w: &Words, q: u32) -> Result<CfInst, DecodeError> {
    let (w0, w1) = w.qword(q);
    if w1 & (1 << 29) != 0 {
        let code = bits(w1, 26, 4) as u16;
        let info = tables::cf_alu_by_code(class, code).ok_or(DecodeError::UnknownOpcode {
            family: "CF_ALU",
            code,
            at: q,
        })?;
        let mut ext = None;
        let (mut a0, mut a1, mut op) = (w0, w1, info.op);
        if info.op == CfAluOp::ALU_EXTENDED {
            if w0 & !CF_ALU_EXT0_USED != 0 || w1 & !CF_ALU_EXT1_USED != 0 {
                return Err(DecodeError::ReservedBits {
                    at: q,
                    inst: "ALU_EXTENDED",
                });
            }
            if q + 1 >= w.len() {
                return Err(DecodeError::NoEnd);
            }
            ext = Some((w0, w1));
            (a0, a1) = w.qword(q + 1);
            let code = bits(a1, 26, 4) as u16;
            let inner = tables::cf_alu_by_code(class, code)
                .filter(|i| a1 & (1 << 29) != 0 && i.op != CfAluOp::ALU_EXTENDED)
                .ok_or(DecodeError::UnknownOpcode {
                    family: "CF_ALU",
                    code,
                    at: q + 1,
                })?;
            op = inner.op;
        }
        return Ok(CfInst::Alu(CfAlu::decode_fields(op, a0, a1, ext)));
    }
    let code = bits(w1, 22, 8) as u16;
    if (64..128).contains(&code) {
        let info = tables::cf_mem_by_code(class, code).ok_or(DecodeError::UnknownOpcode {
            family: "CF_ALLOC_EXPORT",
            code,
            at: q,
        })?;
        let rat = if info.rat {
            if w0 & !CF_MEM_RAT0_USED != 0 {
                return Err(DecodeError::ReservedBits {
                    at: q,
                    inst: info.op.name(),
                });
            }
            let rcode = bits(w0, 4, 6) as u16;
            let r = tables::rat_by_code(class, rcode).ok_or(DecodeError::UnknownOpcode {
                family: "RAT_INST",
                code: rcode,
                at: q,
            })?;
            Some(RatFields {
                id: bits(w0, 0, 4) as u8,
                inst: r.op,
                index_mode: bits(w0, 11, 2) as u8,
            })
        } else {
            None
        };
        let eop = w1 & (1 << 21) != 0;
        if (info.swiz && bits(w1, 12, 4) != 0) || (eop && class == ChipClass::Cayman) {
            return Err(DecodeError::ReservedBits {
                at: q,
                inst: info.op.name(),
            });
        }
        return Ok(CfInst::Mem(CfMem {
            op: info.op,
            rat,
            array_base: if rat.is_some() {
                0
            } else {
                bits(w0, 0, 13) as u16
            },
            kind: bits(w0, 13, 2) as u8,
            rw_gpr: bits(w0, 15, 7) as u8,
            rw_rel: w0 & (1 << 22) != 0,
            index_gpr: bits(w0, 23, 7) as u8,
            elem_size: bits(w0, 30, 2) as u8,
            array_size: bits(w1, 0, 12) as u16,
            comp_mask: bits(w1, 12, 4) as u8,
            burst_count: bits(w1, 16, 4) as u8,
            valid_pixel_mode: w1 & (1 << 20) != 0,
            end_of_program: eop,
            mark: w1 & (1 << 30) != 0,
            barrier: w1 & (1 << 31) != 0,
        }));
    }
    let info = tables::cf_by_code(class, code).ok_or(DecodeError::UnknownOpcode {
        family: "CF",
        code,
        at: q,
    })?;
    let gws = info.op == CfOp::GLOBAL_WAVE_SYNC;
    let eop_reserved = class == ChipClass::Cayman && w1 & (1 << 21) != 0;
    if (!gws && w0 & !CF_WORD0_USED != 0) || w1 & !CF_WORD1_USED != 0 || eop_reserved {
        return Err(DecodeError::ReservedBits {
            at: q,
            inst: info.op.name(),
        });
    }
    Ok(CfInst::Word(CfWord::decode_fields(info.op, w0, w1)))
}

/// What AMD's own compiler (the APP SDK's CAL, ../shared/corpora/amd-app-sdk) writes in the
/// unused fourth dword of every fetch instruction, where LLVM writes 0. The hardware ignores
/// the dword, so the decoder takes this filler as it takes 0 (and the encoder writes 0).
pub const AMD_FETCH_FILLER: u32 = 0x0DEA_DFEC;

fn decode_fetch_clause(
    class: ChipClass,
    w: &Words,
    addr: u32,
    count: u32,
) -> Result<Vec<FetchInst>, DecodeError> {
    (0..count)
        .map(|i| {
            let q = addr + 2 * i;
            let (w0, w1) = w.qword(q);
            let (w2, w3) = w.qword(q + 1);
            let code = bits(w0, 0, 5) as u16;
            let op = match code {
                2 => {
                    let mem = bits(w0, 8, 3) as u16;
                    tables::mem_rd_by_code(class, mem)
                        .ok_or(DecodeError::UnknownOpcode {
                            family: "MEM_OP",
                            code: mem,
                            at: q,
                        })?
                        .op
                }
                _ => {
                    tables::vtx_by_code(class, code)
                        .or_else(|| tables::tex_by_code(class, code))
                        .ok_or(DecodeError::UnknownOpcode {
                            family: "fetch",
                            code,
                            at: q,
                        })?
                        .op
                }
            };
            if w3 != 0 && w3 != AMD_FETCH_FILLER {
                return Err(DecodeError::ReservedBits {
                    at: q,
                    inst: op.name(),
                });
            }
            Ok(FetchInst {
                op,
                words: [w0, w1, w2],
            })
        })
        .collect()
}

fn decode_alu_clause(
    class: ChipClass,
    w: &Words,
    addr: u32,
    words: u32,
) -> Result<Vec<AluGroup>, DecodeError> {
    let end = addr + words;
    let mut groups = Vec::new();
    let mut q = addr;
    while q < end {
        let start = q;
        let mut insts = Vec::new();
        loop {
            if q >= end || insts.len() == class.alu_slots() {
                return Err(DecodeError::UnterminatedGroup { clause: addr, end });
            }
            let (w0, w1) = w.qword(q);
            let inst = decode_alu(class, w0, w1, q)?;
            q += 1;
            let last = inst.last;
            insts.push(inst);
            if last {
                break;
            }
        }
        assign_slots(class, &mut insts, start)?;
        let n = literal_qwords(&insts);
        if q + n > end {
            return Err(DecodeError::MissingLiteral {
                clause: addr,
                group: start,
                needed: q + n - start,
                end,
            });
        }
        let mut literals = Vec::new();
        for _ in 0..n {
            let (lo, hi) = w.qword(q);
            literals.extend([lo, hi]);
            q += 1;
        }
        check_group(class, &insts, start)?;
        groups.push(AluGroup {
            addr: start,
            insts,
            literals,
        });
    }
    Ok(groups)
}

/// Literal qwords a group needs: one if a source reads literal X/Y (or an LDS direct read),
/// two if one reads Z/W.
pub(crate) fn literal_qwords(insts: &[AluInst]) -> u32 {
    let mut n = 0;
    for i in insts {
        let used = match (i.lds.is_some(), i.enc) {
            (true, _) | (false, AluEnc::Op3) => 3,
            (false, AluEnc::Op2) => 2,
        };
        for s in &i.src[..used] {
            if s.sel == sel::LITERAL {
                n = n.max(if s.chan >= 2 { 2 } else { 1 });
            }
            if s.sel == sel::LDS_DIRECT_A || s.sel == sel::LDS_DIRECT_B {
                n = n.max(1);
            }
        }
    }
    n
}

fn decode_alu(class: ChipClass, w0: u32, w1: u32, at: u32) -> Result<AluInst, DecodeError> {
    let op3 = bits(w1, 15, 3) != 0;
    let (enc, code) = if op3 {
        (AluEnc::Op3, bits(w1, 13, 5) as u16)
    } else {
        (AluEnc::Op2, bits(w1, 7, 11) as u16)
    };
    let family = if op3 { "ALU OP3" } else { "ALU OP2" };
    let info = tables::alu_by_code(class, enc, code).ok_or(DecodeError::UnknownOpcode {
        family,
        code,
        at,
    })?;
    let src = |sel: u32, rel: u32, chan: u32, neg: Option<u32>, abs: Option<u32>| AluSrc {
        sel: bits(sel, 0, 9) as u16,
        rel: rel != 0,
        chan: chan as u8,
        neg: neg.is_some_and(|n| n != 0),
        abs: abs.is_some_and(|a| a != 0),
    };
    let lds = info.op == AluOp::LDS_IDX_OP;
    let (s0neg, s1neg) = if lds {
        (None, None)
    } else {
        (Some(bits(w0, 12, 1)), Some(bits(w0, 25, 1)))
    };
    let (s0abs, s1abs) = if op3 {
        (None, None)
    } else {
        (Some(bits(w1, 0, 1)), Some(bits(w1, 1, 1)))
    };
    let mut inst = AluInst {
        op: info.op,
        enc,
        opcode: code,
        slot: Slot::from_chan(bits(w1, 29, 2) as u8),
        src: [
            src(w0, bits(w0, 9, 1), bits(w0, 10, 2), s0neg, s0abs),
            src(w0 >> 13, bits(w0, 22, 1), bits(w0, 23, 2), s1neg, s1abs),
            AluSrc::default(),
        ],
        index_mode: bits(w0, 26, 3) as u8,
        pred_sel: bits(w0, 29, 2) as u8,
        last: bits(w0, 31, 1) != 0,
        bank_swizzle: bits(w1, 18, 3) as u8,
        dst_gpr: 0,
        dst_rel: false,
        dst_chan: bits(w1, 29, 2) as u8,
        clamp: false,
        update_exec_mask: false,
        update_pred: false,
        write: true,
        omod: 0,
        lds: None,
    };
    if lds {
        let lcode = bits(w1, 21, 6) as u16;
        let l = tables::lds_by_code(class, lcode).ok_or(DecodeError::UnknownOpcode {
            family: "LDS_OP",
            code: lcode,
            at,
        })?;
        let offset = bits(w1, 27, 1)
            | bits(w1, 12, 1) << 1
            | bits(w1, 28, 1) << 2
            | bits(w1, 31, 1) << 3
            | bits(w0, 12, 1) << 4
            | bits(w0, 25, 1) << 5;
        inst.src[2] = src(w1, bits(w1, 9, 1), bits(w1, 10, 2), None, None);
        inst.lds = Some(LdsIdx {
            op: l.op,
            offset: offset as u8,
        });
        inst.write = false;
        return Ok(inst);
    }
    inst.dst_gpr = bits(w1, 21, 7) as u8;
    inst.dst_rel = bits(w1, 28, 1) != 0;
    inst.clamp = bits(w1, 31, 1) != 0;
    if op3 {
        inst.src[2] = src(
            w1,
            bits(w1, 9, 1),
            bits(w1, 10, 2),
            Some(bits(w1, 12, 1)),
            None,
        );
    } else {
        inst.update_exec_mask = bits(w1, 2, 1) != 0;
        inst.update_pred = bits(w1, 3, 1) != 0;
        inst.write = bits(w1, 4, 1) != 0;
        inst.omod = bits(w1, 5, 2) as u8;
    }
    Ok(inst)
}

/// Assigns X/Y/Z/W/T slots in stream order (VLIW5: trans-only ops and second users of a
/// vector slot go to T, which must come last).
fn assign_slots(class: ChipClass, insts: &mut [AluInst], at: u32) -> Result<(), DecodeError> {
    let mut taken = [false; 5];
    let mut last_vec: Option<usize> = None;
    for (k, inst) in insts.iter_mut().enumerate() {
        let pos = at + k as u32;
        let name = inst.op.name();
        let rule = tables::alu_info(inst.op).slot_rule(class);
        let chan = inst.dst_chan as usize;
        let trans = class == ChipClass::Evergreen
            && (rule == SlotRule::Trans || taken[chan] || last_vec.is_some_and(|l| chan < l));
        let slot = if trans {
            Slot::T
        } else {
            Slot::from_chan(chan as u8)
        };
        if taken[slot.index()] {
            let reason = if slot == Slot::T {
                "two instructions in the T slot"
            } else {
                "two instructions in one slot"
            };
            return Err(DecodeError::InvalidSlot {
                at: pos,
                inst: name,
                reason,
            });
        }
        if taken[Slot::T.index()] {
            return Err(DecodeError::InvalidSlot {
                at: pos,
                inst: name,
                reason: "instruction after the T slot",
            });
        }
        if slot == Slot::T && rule != SlotRule::Trans && rule != SlotRule::Any {
            return Err(DecodeError::InvalidSlot {
                at: pos,
                inst: name,
                reason: "vector-only op in the T slot",
            });
        }
        if slot != Slot::T {
            last_vec = Some(chan);
        }
        taken[slot.index()] = true;
        inst.slot = slot;
    }
    Ok(())
}

/// Group-level slot rules: trans-only ops in T, all-four ops in x-w, Cayman replicated
/// transcendentals in x-z, INTERP_X/Z pairs, LDS_IDX_OP in x.
fn check_group(class: ChipClass, insts: &[AluInst], at: u32) -> Result<(), DecodeError> {
    let in_slot = |s: Slot| insts.iter().find(|i| i.slot == s);
    for (k, inst) in insts.iter().enumerate() {
        let pos = at + k as u32;
        let name = inst.op.name();
        let bad = |reason| {
            Err(DecodeError::InvalidSlot {
                at: pos,
                inst: name,
                reason,
            })
        };
        let same_in = |slots: &[Slot]| {
            slots
                .iter()
                .all(|&s| in_slot(s).is_some_and(|o| o.op == inst.op))
        };
        match tables::alu_info(inst.op).slot_rule(class) {
            SlotRule::Trans if inst.slot != Slot::T => {
                return bad("trans-only op in a vector slot")
            }
            SlotRule::AllFour if !same_in(&Slot::VECTOR) => {
                return bad("op must fill all four vector slots")
            }
            SlotRule::Replicated if !same_in(&[Slot::X, Slot::Y, Slot::Z]) => {
                return bad("transcendental must be replicated in slots x, y and z")
            }
            SlotRule::Xy if !matches!(inst.slot, Slot::X | Slot::Y) => {
                return bad("op allowed in slots x and y only")
            }
            SlotRule::Zw if !matches!(inst.slot, Slot::Z | Slot::W) => {
                return bad("op allowed in slots z and w only")
            }
            SlotRule::Absent => return bad("op absent in this chip class"),
            _ => {}
        }
        if inst.lds.is_some() && inst.slot != Slot::X {
            return bad("LDS_IDX_OP is supported only in the x slot");
        }
    }
    Ok(())
}
