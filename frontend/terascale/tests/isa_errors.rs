//! Bad input: each malformed program gives its typed error (and a message naming the
//! instruction). Programs are assembled here from the field layouts of hd6900_map.md.
use wavejit_terascale::{decode_program, ChipClass, DecodeError};

const CM: ChipClass = ChipClass::Cayman;
const EG: ChipClass = ChipClass::Evergreen;
const BARRIER: u32 = 1 << 31;
const LAST: u32 = 1 << 31;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
/// Cayman CF END.
const END: [u32; 2] = [0, 32 << 22 | BARRIER];
/// CF_ALU ALU clause at `addr` of `slots` 64-bit words.
fn alu_clause(addr: u32, slots: u32) -> [u32; 2] {
    [addr, (slots - 1) << 18 | 8 << 26 | BARRIER]
}
/// An OP2 instruction word pair: dst T{gpr}.{chan}, src0/src1 selects.
fn op2(opcode: u32, chan: u32, src0: u32, src1: u32, last: bool) -> [u32; 2] {
    [
        src0 | src1 << 13 | if last { LAST } else { 0 },
        1 << 4 | opcode << 7 | chan << 29,
    ]
}
const MOV: u32 = 25;
const MULLO_INT: u32 = 143;

fn decode(class: ChipClass, words: &[u32]) -> Result<(), DecodeError> {
    decode_program(class, &bytes(words)).map(|_| ())
}

#[test]
fn truncated_code() {
    assert_eq!(
        decode_program(CM, &[0u8; 12]),
        Err(DecodeError::Truncated { len: 12 })
    );
    assert_eq!(
        decode_program(CM, &[]),
        Err(DecodeError::Truncated { len: 0 })
    );
}

#[test]
fn program_without_end() {
    assert_eq!(
        decode(CM, &[0, BARRIER, 0, BARRIER]),
        Err(DecodeError::NoEnd)
    );
}

#[test]
fn cf_address_outside_the_program() {
    let jump = [100, 10 << 22 | BARRIER];
    let e = decode(CM, &[jump[0], jump[1], END[0], END[1]]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::CfAddressOutOfRange {
            at: 0,
            inst: "JUMP",
            target: 100,
            len: 2
        }
    );
    assert!(e.to_string().contains("JUMP"));
}

#[test]
fn clause_running_past_the_end() {
    let a = alu_clause(2, 6);
    let e = decode(CM, &[a[0], a[1], END[0], END[1]]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::ClausePastEnd {
            at: 0,
            inst: "ALU",
            addr: 2,
            words: 6,
            len: 2
        }
    );
    // A fetch clause: TC with COUNT 1 (two 128-bit instructions) at 2 in a 4-word program.
    let tc = [2, 1 << 10 | 1 << 22 | BARRIER];
    let e = decode(CM, &[tc[0], tc[1], END[0], END[1], 0, 0, 0, 0]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::ClausePastEnd {
            at: 0,
            inst: "TC",
            addr: 2,
            words: 4,
            len: 4
        }
    );
}

#[test]
fn literal_slot_missing() {
    // MOV T0.X, literal.x as the only slot of a one-slot clause: the literal qword is missing.
    let a = alu_clause(2, 1);
    let m = op2(MOV, 0, 253, 0, true);
    let e = decode(CM, &[a[0], a[1], END[0], END[1], m[0], m[1]]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::MissingLiteral {
            clause: 2,
            group: 2,
            needed: 2,
            end: 3
        }
    );
    // literal.z needs the second literal qword.
    let a = alu_clause(2, 2);
    let m = [253 | 2 << 10 | LAST, 1 << 4 | MOV << 7];
    let e = decode(CM, &[a[0], a[1], END[0], END[1], m[0], m[1], 5, 0]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::MissingLiteral {
            clause: 2,
            group: 2,
            needed: 3,
            end: 4
        }
    );
}

#[test]
fn group_without_last_bit() {
    let a = alu_clause(2, 1);
    let m = op2(MOV, 0, 0, 0, false);
    let e = decode(CM, &[a[0], a[1], END[0], END[1], m[0], m[1]]).unwrap_err();
    assert_eq!(e, DecodeError::UnterminatedGroup { clause: 2, end: 3 });
}

fn slot_error(class: ChipClass, insts: &[[u32; 2]]) -> DecodeError {
    let a = alu_clause(2, insts.len() as u32);
    let end = if class == CM {
        END
    } else {
        [0, 1 << 21 | BARRIER]
    };
    let mut w = vec![a[0], a[1], end[0], end[1]];
    for i in insts {
        w.extend(i);
    }
    decode(class, &w).unwrap_err()
}

#[test]
fn invalid_slot_assignments() {
    let two = slot_error(CM, &[op2(MOV, 0, 0, 0, false), op2(MOV, 0, 1, 0, true)]);
    assert_eq!(
        two,
        DecodeError::InvalidSlot {
            at: 3,
            inst: "MOV",
            reason: "two instructions in one slot"
        }
    );
    // Cayman MULLO_INT must fill x, y, z and w.
    let lone = slot_error(CM, &[op2(MULLO_INT, 0, 0, 1, true)]);
    assert_eq!(
        lone,
        DecodeError::InvalidSlot {
            at: 2,
            inst: "MULLO_INT",
            reason: "op must fill all four vector slots"
        }
    );
    // Evergreen: a third .x instruction after the T slot is taken.
    let t = slot_error(
        EG,
        &[
            op2(MOV, 0, 0, 0, false),
            op2(MOV, 0, 1, 0, false),
            op2(MOV, 0, 2, 0, true),
        ],
    );
    assert_eq!(
        t,
        DecodeError::InvalidSlot {
            at: 4,
            inst: "MOV",
            reason: "two instructions in the T slot"
        }
    );
    // Evergreen: a vector-only op (BFE_UINT, OP3 4) pushed into T by a taken slot.
    let bfe = [LAST, 4 << 13];
    let v = slot_error(EG, &[op2(MOV, 0, 0, 0, false), bfe]);
    assert_eq!(
        v,
        DecodeError::InvalidSlot {
            at: 3,
            inst: "BFE_UINT",
            reason: "vector-only op in the T slot"
        }
    );
    // Evergreen: an op after the T slot.
    let after = slot_error(
        EG,
        &[
            op2(MOV, 1, 0, 0, false),
            op2(MOV, 0, 0, 0, false),
            op2(MOV, 3, 0, 0, true),
        ],
    );
    assert_eq!(
        after,
        DecodeError::InvalidSlot {
            at: 4,
            inst: "MOV",
            reason: "instruction after the T slot"
        }
    );
    assert!(after.to_string().contains("MOV"));
}

#[test]
fn unknown_opcodes() {
    // CF_INST 2 (VC) exists on Evergreen only.
    let vc = [2, 2 << 22 | BARRIER];
    let e = decode(CM, &[vc[0], vc[1], END[0], END[1]]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::UnknownOpcode {
            family: "CF",
            code: 2,
            at: 0
        }
    );
    // OP2 ALU_INST 7 is unassigned in both classes.
    let a = alu_clause(2, 1);
    let m = op2(7, 0, 0, 0, true);
    let e = decode(CM, &[a[0], a[1], END[0], END[1], m[0], m[1]]).unwrap_err();
    assert_eq!(
        e,
        DecodeError::UnknownOpcode {
            family: "ALU OP2",
            code: 7,
            at: 2
        }
    );
}

#[test]
fn stray_data_and_reserved_bits() {
    let e = decode(CM, &[END[0], END[1], 1, 0]).unwrap_err();
    assert_eq!(e, DecodeError::StrayData { at: 1 });
    // CF_WORD1 bits [19:16] are reserved.
    let e = decode(CM, &[END[0], END[1] | 1 << 16]).unwrap_err();
    assert_eq!(e, DecodeError::ReservedBits { at: 0, inst: "END" });
}
