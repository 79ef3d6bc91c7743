//! Every table row, synthesised: each ALU, LDS, CF and RAT instruction of each class is
//! placed in a minimal valid program (its slot rule decides the group shape), decoded back to
//! the same identity, printed with its mnemonic, and re-encoded to the same bytes.
use wavejit_terascale::inst::{CfInst, ClauseBody};
use wavejit_terascale::tables::{self, AluEnc, CfOp, SlotRule};
use wavejit_terascale::{decode_program, encode_program, print_program, ChipClass, Program};

const BARRIER: u32 = 1 << 31;

fn end(class: ChipClass) -> [u32; 2] {
    match class {
        ChipClass::Cayman => [0, 32 << 22 | BARRIER],
        ChipClass::Evergreen => [0, 1 << 21 | BARRIER],
    }
}

fn roundtrip(class: ChipClass, words: &[u32]) -> (Program, Vec<String>) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let p = decode_program(class, &bytes).unwrap_or_else(|e| panic!("{class:?}: {e}"));
    assert_eq!(encode_program(&p).unwrap(), bytes);
    let text = print_program(&p);
    (p, text)
}

/// An ALU clause at word 2 holding `insts` (word pairs), after CF_ALU and the end.
fn alu_program(class: ChipClass, insts: &[[u32; 2]]) -> Vec<u32> {
    let e = end(class);
    let mut w = vec![
        2,
        (insts.len() as u32 - 1) << 18 | 8 << 26 | BARRIER,
        e[0],
        e[1],
    ];
    for i in insts {
        w.extend(i);
    }
    w
}

#[test]
fn every_alu_row_decodes_prints_and_reencodes() {
    for class in ChipClass::ALL {
        for row in tables::alu_rows() {
            let Some(code) = row.opcode(class) else {
                continue;
            };
            if row.op == wavejit_terascale::AluOp::LDS_IDX_OP {
                continue; // covered per LDS_OP below
            }
            let chans: &[u32] = match row.slot_rule(class) {
                SlotRule::AllFour => &[0, 1, 2, 3],
                SlotRule::Replicated => &[0, 1, 2],
                SlotRule::Zw => &[2],
                _ => &[0],
            };
            // Sources: T1.Y, T2.Z, T3.W; dst T4.<chan>.
            let insts: Vec<[u32; 2]> = chans
                .iter()
                .enumerate()
                .map(|(k, &chan)| {
                    let last = if k + 1 == chans.len() { 1 << 31 } else { 0 };
                    let w0 = 1 | 1 << 10 | 2 << 13 | 2 << 23 | last;
                    let w1 = match row.enc {
                        AluEnc::Op2 => 1 << 4 | (code as u32) << 7 | 4 << 21 | chan << 29,
                        AluEnc::Op3 => 3 | 3 << 10 | (code as u32) << 13 | 4 << 21 | chan << 29,
                    };
                    [w0, w1]
                })
                .collect();
            let (p, text) = roundtrip(class, &alu_program(class, &insts));
            let ClauseBody::Alu(groups) = &p.clauses[0].body else {
                panic!()
            };
            assert!(
                groups[0].insts.iter().all(|i| i.op == row.op),
                "{class:?} {:?}",
                row.op
            );
            let line = &text[3];
            assert!(
                line.starts_with(&format!("  {}", row.llvm)),
                "{class:?} {:?}: {line}",
                row.op
            );
        }
    }
}

#[test]
fn every_lds_op_decodes_prints_and_reencodes() {
    for class in ChipClass::ALL {
        for row in tables::lds_rows() {
            let code = row.opcode[class.index()] as u32;
            // LDS_IDX_OP (OP3 17) in slot x, address T1.X, data T2.X, T3.X, offset 0b101101.
            let w0 = 1 | 2 << 13 | 1 << 12 | 1 << 31;
            let w1 = 3 | 17 << 13 | code << 21 | 1 << 27 | 1 << 28 | 1 << 31;
            let (p, text) = roundtrip(class, &alu_program(class, &[[w0, w1]]));
            let ClauseBody::Alu(groups) = &p.clauses[0].body else {
                panic!()
            };
            let lds = groups[0].insts[0].lds.unwrap();
            assert_eq!((lds.op, lds.offset), (row.op, 0b011101), "{class:?}");
            assert!(
                text[3].starts_with(&format!("  {}", row.text)),
                "{}",
                text[3]
            );
        }
    }
}

#[test]
fn every_cf_and_rat_row_decodes_prints_and_reencodes() {
    for class in ChipClass::ALL {
        for row in tables::cf_rows() {
            let code = row.opcode[class.index()];
            if code == tables::NA || matches!(row.op, CfOp::END | CfOp::GLOBAL_WAVE_SYNC) {
                continue;
            }
            let e = end(class);
            let clause = matches!(row.syntax, tables::CfSyntax::Clause);
            // Targets point at the end instruction; clause instructions run one zero fetch
            // (VC_INST 0 = VTX FETCH) at word 2.
            let addr = if clause { 2 } else { 1 };
            let mut w = vec![addr, (code as u32) << 22 | BARRIER, e[0], e[1]];
            if clause {
                w.extend([0, 0, 0, 0]);
            }
            let (p, text) = roundtrip(class, &w);
            assert!(
                matches!(p.cf[0].inst, CfInst::Word(c) if c.op == row.op),
                "{:?}",
                row.op
            );
            assert!(text[0].starts_with(row.text), "{class:?}: {}", text[0]);
        }
        for rat in tables::rat_rows() {
            let code = rat.opcode[class.index()];
            if code == tables::NA {
                continue;
            }
            // MEM_RAT with RAT_INST `code`, RW_GPR 5, INDEX_GPR 6, TYPE 1, COMP_MASK 0xF.
            let w0 = (code as u32) << 4 | 1 << 13 | 5 << 15 | 6 << 23;
            let w1 = 0xf << 12 | 86 << 22 | BARRIER;
            let e = end(class);
            let (p, text) = roundtrip(class, &[w0, w1, e[0], e[1]]);
            let CfInst::Mem(m) = p.cf[0].inst else {
                panic!()
            };
            assert_eq!(m.rat.map(|r| r.inst), Some(rat.op));
            assert!(
                text[0].starts_with(&format!("MEM_RAT {}", rat.text)),
                "{}",
                text[0]
            );
        }
    }
}
