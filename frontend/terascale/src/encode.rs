//! Encoder: a [`Program`] back to its bytes (the inverse of [`crate::decode`]).
//!
//! Invariant: for every program the decoder accepts, `encode_program(&decode(bytes)) ==
//! bytes` (tests/isa_roundtrip.rs). Opcodes come from the tables by (class, identity), except
//! ALU instructions, which keep the value they were decoded from.
use crate::chip::ChipClass;
use crate::inst::*;
use crate::tables::{self, CfAluOp};

/// Why a program could not be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{inst} does not exist on this chip class")]
    NotInClass { inst: &'static str },
    #[error("{inst} at word {at} lies outside the program ({len} words)")]
    OutOfRange {
        inst: &'static str,
        at: u32,
        len: u32,
    },
}

fn code(class: ChipClass, c: [u16; 2], inst: &'static str) -> Result<u16, EncodeError> {
    let v = c[class.index()];
    if v == tables::NA {
        Err(EncodeError::NotInClass { inst })
    } else {
        Ok(v)
    }
}

/// The 32-bit words of one CF instruction (2, or 4 for ALU_EXTENDED).
pub fn encode_cf(class: ChipClass, inst: &CfInst) -> Result<Vec<u32>, EncodeError> {
    Ok(match inst {
        CfInst::Word(w) => {
            let op = code(class, tables::cf_info(w.op).opcode, w.op.name())?;
            w.encode(op).to_vec()
        }
        CfInst::Alu(a) => {
            let op = code(class, tables::cf_alu_info(a.op).opcode, a.op.name())?;
            let ext = tables::cf_alu_info(CfAluOp::ALU_EXTENDED).opcode[class.index()];
            a.encode(op, ext)
        }
        CfInst::Mem(m) => {
            let op = code(class, tables::cf_mem_info(m.op).opcode, m.op.name())?;
            let rat = match &m.rat {
                Some(r) => Some(code(class, tables::rat_info(r.inst).opcode, r.inst.name())?),
                None => None,
            };
            m.encode(op, rat).to_vec()
        }
    })
}

/// The bytes of a whole program (`len` 64-bit words; unused words are zero).
pub fn encode_program(p: &Program) -> Result<Vec<u8>, EncodeError> {
    let mut words = vec![0u32; p.len as usize * 2];
    let mut put = |at: u32, ws: &[u32], inst: &'static str| -> Result<(), EncodeError> {
        let start = at as usize * 2;
        let dst = words
            .get_mut(start..start + ws.len())
            .ok_or(EncodeError::OutOfRange {
                inst,
                at,
                len: p.len,
            })?;
        dst.copy_from_slice(ws);
        Ok(())
    };
    for e in &p.cf {
        put(e.addr, &encode_cf(p.class, &e.inst)?, "CF instruction")?;
    }
    for c in &p.clauses {
        match &c.body {
            ClauseBody::Alu(groups) => {
                for g in groups {
                    let mut ws = Vec::new();
                    for i in &g.insts {
                        ws.extend(i.encode());
                    }
                    ws.extend(&g.literals);
                    put(g.addr, &ws, "ALU group")?;
                }
            }
            ClauseBody::Fetch(insts) => {
                for (k, f) in insts.iter().enumerate() {
                    let [a, b, c2] = f.words;
                    put(c.addr + 2 * k as u32, &[a, b, c2, 0], f.op.name())?;
                }
            }
        }
    }
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}
