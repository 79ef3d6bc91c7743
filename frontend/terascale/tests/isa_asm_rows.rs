//! decode -> print -> assemble for every row of every table family in both classes: each
//! instruction is placed in a minimal valid program (as tests/isa_rows.rs does), and fetch
//! rows also with random field bits (reserved bits included), so every field the printer
//! names or leaves as a token reads back. Also TEX text from llc-14 (LLVM's only TEX syntax).
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_terascale::asm::assemble;
use wavejit_terascale::tables::{self, AluEnc, CfOp, SlotRule};
use wavejit_terascale::{decode_program, print_program, AluOp, ChipClass};

const BARRIER: u32 = 1 << 31;

fn end(class: ChipClass) -> [u32; 2] {
    match class {
        ChipClass::Cayman => [0, 32 << 22 | BARRIER],
        ChipClass::Evergreen => [0, 1 << 21 | BARRIER],
    }
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Decodes, prints and assembles `words`; the assembled bytes must be `words`.
fn round_trip(class: ChipClass, words: &[u32]) -> Vec<String> {
    let b = bytes(words);
    let p = decode_program(class, &b).unwrap_or_else(|e| panic!("{class:?}: {e}"));
    let text = print_program(&p);
    let got = assemble(class, &text.join("\n"))
        .unwrap_or_else(|e| panic!("{class:?}: {e}\n{}", text.join("\n")));
    assert_eq!(got, b, "{class:?}:\n{}", text.join("\n"));
    text
}

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
fn every_alu_row_reads_back() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xa1u64);
    let mut random_ok = 0;
    for class in ChipClass::ALL {
        for row in tables::alu_rows() {
            let Some(code) = row.opcode(class) else {
                continue;
            };
            if row.op == AluOp::LDS_IDX_OP {
                continue;
            }
            let chans: &[u32] = match row.slot_rule(class) {
                SlotRule::AllFour => &[0, 1, 2, 3],
                SlotRule::Replicated => &[0, 1, 2],
                SlotRule::Zw => &[2],
                _ => &[0],
            };
            for variant in 0..4 {
                let insts: Vec<[u32; 2]> = chans
                    .iter()
                    .enumerate()
                    .map(|(k, &chan)| {
                        let last = if k + 1 == chans.len() { 1 << 31 } else { 0 };
                        // Variant 0: plain GPR operands; others: random modifiers, relative
                        // operands, predicate and index modes, bank swizzle, clamp, and
                        // sources among GPRs, kcache, PV/PS and inline constants.
                        let sels = [
                            1u32, 130, 170, 260, 300, 248, 249, 250, 252, 254, 255, 219, 400,
                        ];
                        let mut pick = || {
                            if variant == 0 {
                                1
                            } else {
                                sels[rng.gen_range(0..sels.len())]
                            }
                        };
                        let (s0, s1, s2) = (pick(), pick(), pick());
                        let r = |rng: &mut ChaCha8Rng, bits: u32| {
                            if variant == 0 {
                                0
                            } else {
                                rng.gen_range(0..1u32 << bits)
                            }
                        };
                        let w0 = s0
                            | r(&mut rng, 4) << 9
                            | s1 << 13
                            | r(&mut rng, 4) << 22
                            | r(&mut rng, 3) << 26
                            | r(&mut rng, 2) << 29
                            | last;
                        let common = r(&mut rng, 3) << 18
                            | chan << 29
                            | r(&mut rng, 7) << 21
                            | r(&mut rng, 1) << 28
                            | r(&mut rng, 1) << 31;
                        let w1 = match row.enc {
                            AluEnc::Op2 => r(&mut rng, 7) | 1 << 4 | (code as u32) << 7 | common,
                            AluEnc::Op3 => s2 | r(&mut rng, 4) << 9 | (code as u32) << 13 | common,
                        };
                        [w0, w1]
                    })
                    .collect();
                let words = alu_program(class, &insts);
                if decode_program(class, &bytes(&words)).is_err() {
                    assert!(
                        variant > 0,
                        "{class:?} {:?}: plain form must decode",
                        row.op
                    );
                    continue;
                }
                round_trip(class, &words);
                random_ok += (variant > 0) as u32;
            }
        }
    }
    assert!(
        random_ok > 300,
        "random variants should mostly decode ({random_ok})"
    );
}

#[test]
fn every_lds_op_reads_back() {
    for class in ChipClass::ALL {
        for row in tables::lds_rows() {
            let code = row.opcode[class.index()] as u32;
            for (bs, pred) in [(0u32, 0u32), (5, 2)] {
                let w0 = 1 | 2 << 13 | 1 << 12 | pred << 29 | 1 << 31;
                let w1 = 3 | 17 << 13 | bs << 18 | code << 21 | 1 << 27 | 1 << 28 | 1 << 31;
                let text = round_trip(class, &alu_program(class, &[[w0, w1]]));
                assert!(
                    text[3].starts_with(&format!("  {}", row.text)),
                    "{}",
                    text[3]
                );
            }
        }
    }
}

#[test]
fn every_cf_row_reads_back() {
    for class in ChipClass::ALL {
        for row in tables::cf_rows() {
            let code = row.opcode[class.index()];
            if code == tables::NA || row.op == CfOp::END {
                continue;
            }
            let e = end(class);
            let clause = matches!(row.syntax, tables::CfSyntax::Clause);
            let addr = if clause { 2 } else { 1 };
            // Every field of CF_WORD1 besides the opcode set to something non-zero.
            let w1 = (code as u32) << 22 | 3 | 5 << 3 | 2 << 8 | 1 << 20 | 1 << 30;
            let mut w = vec![addr | 3 << 24, w1, e[0], e[1]];
            if row.op == CfOp::GLOBAL_WAVE_SYNC {
                w[0] = 0xdead_beef;
            }
            if clause {
                w.extend([0, 0, 0, 0]);
            }
            round_trip(class, &w);
        }
        for row in tables::cf_alu_rows() {
            let code = row.opcode[class.index()];
            if code == tables::NA || row.op == tables::CfAluOp::ALU_EXTENDED {
                continue;
            }
            // Kcache 0: LOCK_LOOP_INDEX bank 3 line 2; kcache 1: NOP with bank/addr set.
            let w0 = 2 | 3 << 22 | 7 << 26 | 3 << 30;
            let w1 = 2 << 2 | 9 << 10 | 1 << 25 | (code as u32) << 26 | 1 << 30;
            let ext0 = 1 << 4 | 2 << 6 | 3 << 10 | 4 << 22 | 5 << 26 | 1 << 30;
            let ext1 = 2 | 7 << 2 | 255 << 10 | 12 << 26;
            let e = end(class);
            let inst = [1 << 31, 1 << 4]; // ADD T0.X, T0.X, T0.X with LAST
            round_trip(class, &[w0, w1, e[0], e[1], inst[0], inst[1]]);
            let ext = [
                ext0,
                ext1,
                w0 + 1,
                w1 | BARRIER,
                e[0],
                e[1],
                inst[0],
                inst[1],
            ];
            round_trip(class, &ext);
        }
    }
}

#[test]
fn every_cf_mem_and_rat_row_reads_back() {
    for class in ChipClass::ALL {
        let e = end(class);
        for row in tables::cf_mem_rows() {
            let code = row.opcode[class.index()];
            if code == tables::NA {
                continue;
            }
            for rat in tables::rat_rows() {
                let rcode = rat.opcode[class.index()];
                if rcode == tables::NA || (!row.rat && rat.op != tables::RatInst::NOP) {
                    continue;
                }
                for mask in [1u32, 3, 15, 0] {
                    let low = if row.rat {
                        (rcode as u32) << 4 | 3 | 2 << 11
                    } else {
                        0x1234
                    };
                    let w0 = low | 1 << 13 | 5 << 15 | 6 << 23 | 1 << 30;
                    let mask = if row.swiz { 0 } else { mask };
                    let w1 = 0x567 | mask << 12 | 3 << 16 | (code as u32) << 22 | 1 << 30;
                    round_trip(class, &[w0, w1, e[0], e[1]]);
                }
            }
        }
    }
}

/// The VC_INST / TEX_INST / MEM_OP bits of each fetch row.
fn fetch_rows(class: ChipClass) -> Vec<(u32, &'static str)> {
    let mut v = Vec::new();
    for r in tables::vtx_rows().iter().chain(tables::tex_rows()) {
        v.push((r.opcode[class.index()] as u32, r.text));
    }
    for r in tables::mem_rd_rows() {
        v.push((2 | (r.opcode[class.index()] as u32) << 8, r.text));
    }
    v
}

#[test]
fn every_fetch_row_reads_back_with_random_fields() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfe7c4);
    for class in ChipClass::ALL {
        for (code, text) in fetch_rows(class) {
            let opmask = if code & 0x1f == 2 { 0x71f } else { 0x1f };
            for round in 0..64 {
                let mut f: [u32; 3] = if round == 0 { [0; 3] } else { rng.gen() };
                f[0] = f[0] & !opmask | code;
                let e = end(class);
                let words = [2, BARRIER | 1 << 22, e[0], e[1], f[0], f[1], f[2], 0];
                let printed = round_trip(class, &words);
                let line = &printed[3];
                let named = line.starts_with(&format!("  {text}"))
                    || (text == "MEM_GDS" && line.starts_with("  GDS_"))
                    || line.starts_with("  VTX_READ_");
                assert!(named, "{class:?} {text}: {line}");
            }
        }
    }
}

/// llc-14 -march=r600 -mcpu=cayman (and cypress, same bytes) on
/// `@llvm.r600.tex(<4 x float> %c, i32 1, i32 -2, i32 3, i32 5, i32 6, i32 1, i32 0, i32 1,
/// i32 1)` (offsets 1, -2, 3; resource 5; sampler 6; coordinate types N U N N) and
/// `@llvm.r600.texc(..., i32 0, i32 0, i32 0, i32 2, i32 3, i32 1, i32 1, i32 1, i32 1)`.
const LLC_TEX: [(&str, [u8; 16]); 2] = [
    (
        "  TEX_SAMPLE T0.XYZW, T0.XYZW RID:5 SID:6 CT:NUNN",
        [
            0x10, 0x05, 0x00, 0x00, 0x00, 0x10, 0x0d, 0xd0, 0xc1, 0x0f, 0x83, 0x68, 0, 0, 0, 0,
        ],
    ),
    (
        "  TEX_SAMPLE_C T0.XYZW, T0.XYZW RID:2 SID:3 CT:NNNN",
        [
            0x18, 0x02, 0x00, 0x00, 0x00, 0x10, 0x0d, 0xf0, 0x00, 0x80, 0x81, 0x68, 0, 0, 0, 0,
        ],
    ),
];

#[test]
fn llc_tex_lines_print_and_assemble() {
    for class in ChipClass::ALL {
        for (k, (llc, enc)) in LLC_TEX.iter().enumerate() {
            let e = end(class);
            let mut b = bytes(&[2, BARRIER | 1 << 22, e[0], e[1]]);
            b.extend(enc);
            let printed = print_program(&decode_program(class, &b).unwrap());
            // LLVM never prints the texel offsets; the printer adds them as tokens.
            let want = if k == 0 {
                format!("{llc} OFFSET_X:1 OFFSET_Y:-2 OFFSET_Z:3")
            } else {
                llc.to_string()
            };
            assert_eq!(printed[3], want);
            assert_eq!(assemble(class, &printed.join("\n")).unwrap(), b);
        }
    }
}
