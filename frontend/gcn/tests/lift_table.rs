//! Every instruction row of every generation lifts: one synthetic instruction per row (VOP3
//! form where the row has one, else its native form) followed by `s_endpgm`, lifted and
//! verified: every row of every generation lifts. VALU rows
//! that write a VGPR also run on edge inputs (NaN, infinities, -0, denormals) under both
//! denormal modes, and must leave the lane outside EXEC untouched.
//!
//! Encodings follow CLRX doc/GcnInstrs*.md bit layouts (the decoder is the ISA engineer's and
//! is checked against llvm-mc in its own tests).
mod lift_common;

use lift_common::*;
use wavejit_gcn::lift::lift;
use wavejit_gcn::tables::{self, Family, Field, OpInfo};
use wavejit_gcn::{Gen, Opcode};

const ENDPGM: u32 = 0xbf81_0000;
const V: u32 = 256;

fn words(w: &[u32]) -> Vec<u8> {
    w.iter()
        .chain([ENDPGM].iter())
        .flat_map(|x| x.to_le_bytes())
        .collect()
}

fn g8(gen: Gen) -> bool {
    gen >= Gen::Gfx8
}

/// A VOP3 encoding of a VALU row, or None when the row has no VOP3 form.
fn vop3(gen: Gen, r: &OpInfo) -> Option<Vec<u8>> {
    let op = r.opcode_in(gen)? as u32;
    let op3 = match r.family {
        Family::Vopc => op,
        Family::Vop2 => 256 + op,
        Family::Vop1 => op + if g8(gen) { 320 } else { 384 },
        Family::Vop3 => op,
        _ => return None,
    };
    if r.family != Family::Vop3 && r.vop3 & gen.bit() == 0 {
        return None;
    }
    let lane_sel = matches!(r.opcode, Opcode::V_READLANE_B32 | Opcode::V_WRITELANE_B32);
    let scalar_dst = r.family == Family::Vopc || r.opcode == Opcode::V_READLANE_B32;
    let vdst = if scalar_dst { 106 } else { 10 };
    let carry_in = r.slots.iter().any(|s| s.0 == Field::VccIn);
    let src0 = if r.opcode == Opcode::V_WRITELANE_B32 {
        2
    } else {
        V + 1
    };
    let src1 = if lane_sel { 128 + 5 } else { V + 2 };
    let src2 = if carry_in { 106 } else { V + 4 };
    let sdst3b = r
        .slots
        .iter()
        .any(|s| s.0 == Field::VccOut || s.0 == Field::Sdst3b)
        && r.family != Family::Vopc;
    let mut d0 = 0b110100 << 26 | vdst;
    d0 |= if g8(gen) { op3 << 16 } else { op3 << 17 };
    if sdst3b {
        d0 |= 106 << 8;
    }
    let d1 = src0 | src1 << 9 | src2 << 18;
    Some(words(&[d0, d1]))
}

/// The native (32-bit) encoding of a VOP1/VOP2/VOPC row.
fn native(gen: Gen, r: &OpInfo) -> Option<Vec<u8>> {
    let op = r.opcode_in(gen)? as u32;
    let vdst = if r.opcode == Opcode::V_READFIRSTLANE_B32 || r.opcode == Opcode::V_READLANE_B32 {
        12
    } else {
        10
    };
    let vsrc1 = if r.opcode == Opcode::V_READLANE_B32 || r.opcode == Opcode::V_WRITELANE_B32 {
        3
    } else {
        2
    };
    let src0 = V + 1;
    let d0 = match r.family {
        Family::Vop1 => 0x3f << 25 | vdst << 17 | op << 9 | src0,
        Family::Vop2 => op << 25 | vdst << 17 | vsrc1 << 9 | src0,
        Family::Vopc => 0x3e << 25 | op << 17 | vsrc1 << 9 | src0,
        _ => return None,
    };
    let lit = r.slots.iter().any(|s| s.0 == Field::Literal);
    Some(if lit {
        words(&[d0, 0x3f80_0000])
    } else {
        words(&[d0])
    })
}

fn vop3p(gen: Gen, r: &OpInfo) -> Option<Vec<u8>> {
    let op = r.opcode_in(gen)? as u32;
    let d0 = 0b1_1010_0111 << 23 | op << 16 | 10;
    let d1 = (V + 1) | (V + 2) << 9 | (V + 4) << 18 | 3 << 27;
    Some(words(&[d0, d1]))
}

fn scalar(gen: Gen, r: &OpInfo) -> Option<Vec<u8>> {
    let op = r.opcode_in(gen)? as u32;
    let (sdst, s0, s1) = (10u32, 2u32, 4u32);
    Some(match r.family {
        Family::Sop2 => words(&[0b10 << 30 | op << 23 | sdst << 16 | s1 << 8 | s0]),
        Family::Sop1 => words(&[0b1_0111_1101 << 23 | sdst << 16 | op << 8 | s0]),
        Family::Sopc => words(&[0b1_0111_1110 << 23 | op << 16 | s1 << 8 | s0]),
        Family::Sopk => {
            let lit = r.slots.iter().any(|s| s.0 == Field::Literal);
            // hwreg(HW_REG_TRAPSTS, 0, 32): id 3, size-1 = 31.
            let d0 = 0b1011 << 28 | op << 23 | sdst << 16 | 3 | 31 << 11;
            if lit {
                words(&[d0, 3])
            } else {
                words(&[d0])
            }
        }
        Family::Sopp => words(&[0b1_0111_1111 << 23 | op << 16]),
        _ => return None,
    })
}

fn memory(gen: Gen, r: &OpInfo) -> Option<Vec<u8>> {
    let op = r.opcode_in(gen)? as u32;
    Some(match r.family {
        Family::Smrd => words(&[0b11000 << 27 | op << 22 | 10 << 15 | 1 << 9 | 1 << 8 | 4]),
        Family::Smem => {
            let sbase = if r.width(Field::Sbase) == Some(4) {
                8
            } else {
                2
            };
            words(&[
                0b110000 << 26 | op << 18 | 1 << 17 | 10 << 6 | (sbase / 2),
                16,
            ])
        }
        Family::Ds => {
            let opf = if g8(gen) { op << 17 } else { op << 18 };
            words(&[
                0b110110 << 26 | opf | 0x0201,
                1 | 2 << 8 | 4 << 16 | 10 << 24,
            ])
        }
        Family::Mubuf | Family::Mtbuf => {
            // MTBUF: a data format with as many 32-bit components as the instruction moves
            // (32, 32_32, 32_32_32, 32_32_32_32) and number format UINT.
            let dfmt = match r.width(Field::Vdata) {
                Some(1) => 4,
                Some(2) => 11,
                Some(3) => 13,
                _ => 14,
            };
            let opf = match (r.family, g8(gen)) {
                (Family::Mubuf, _) => op << 18,
                (_, false) => op << 16 | dfmt << 19 | 4 << 23,
                (_, true) => op << 15 | dfmt << 19 | 4 << 23,
            };
            let enc = if r.family == Family::Mubuf {
                0b111000
            } else {
                0b111010
            };
            words(&[
                enc << 26 | opf | 1 << 12 | 8,
                1 | 10 << 8 | 2 << 16 | 128 << 24,
            ])
        }
        Family::Flat | Family::Global | Family::Scratch => {
            let seg = match r.family {
                Family::Flat => 0,
                Family::Scratch => 1,
                _ => 2,
            };
            let segf = if gen == Gen::Gfx9 { seg << 14 } else { 0 };
            let saddr = if gen == Gen::Gfx9 { 0x7f << 16 } else { 0 };
            words(&[
                0b110111 << 26 | op << 18 | segf | 1 << 16,
                2 | 4 << 8 | saddr | 10 << 24,
            ])
        }
        _ => return None,
    })
}

/// Edge inputs for v1, v2 (and their pairs), v4.
#[test]
fn every_row_lifts() {
    let mut unexpected = Vec::new();
    let mut lifted = 0;
    for gen in Gen::ALL {
        for fam in tables::FAMILIES {
            for r in tables::rows(fam) {
                let Some(_) = r.opcode_in(gen) else { continue };
                let encs: Vec<Vec<u8>> = match fam {
                    Family::Vop1 | Family::Vop2 | Family::Vopc => [vop3(gen, r), native(gen, r)]
                        .into_iter()
                        .flatten()
                        .collect(),
                    Family::Vop3 => vop3(gen, r).into_iter().collect(),
                    Family::Vop3p => vop3p(gen, r).into_iter().collect(),
                    Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk | Family::Sopp => {
                        scalar(gen, r).into_iter().collect()
                    }
                    _ => memory(gen, r).into_iter().collect(),
                };
                let name = r.name(gen);
                for code in encs {
                    let cfg = config(gen, KEEP_ALL);
                    let res = std::panic::catch_unwind(|| lift(&code, &cfg));
                    let Ok(res) = res else {
                        unexpected.push(format!("{gen:?} {name}: lifter panicked"));
                        continue;
                    };
                    match res {
                        Ok(f) => {
                            if let Err(e) = wavejit_ir::verify::verify(&f) {
                                unexpected.push(format!("{gen:?} {name}: IR does not verify: {e}"));
                            }
                            lifted += 1;
                        }
                        Err(e) => unexpected.push(format!("{gen:?} {name}: {e}")),
                    }
                }
            }
        }
    }
    assert!(
        unexpected.is_empty(),
        "{} problems:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(lifted > 1500, "only {lifted} encodings lifted");
    eprintln!("{lifted} encodings lifted");
}

/// Edge inputs for v1, v2 (and their pairs), v4.
fn edge(l: u32) -> u32 {
    const E: [u32; 16] = [
        0x7fc0_0000,
        0x7fa0_0000,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0000,
        0,
        0x0000_1000,
        0x8000_0001,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0x0080_0000,
        0x4049_0fdb,
        0xffff_ffff,
        0x7c00_3c00,
        0x0001_8000,
    ];
    E[(l as usize * 7 + 3) % 16] ^ if l >= 32 { 0x8000_0000 } else { 0 }
}

#[test]
fn valu_rows_respect_exec_on_edge_inputs() {
    let mut ran = 0;
    for gen in Gen::ALL {
        for fam in [Family::Vop1, Family::Vop2, Family::Vop3] {
            for r in tables::rows(fam) {
                let Some(code) = vop3(gen, r) else { continue };
                if !r.slots.iter().any(|s| s.0 == Field::Vdst)
                    || matches!(
                        r.opcode,
                        Opcode::V_READLANE_B32 | Opcode::V_WRITELANE_B32 | Opcode::V_SWAP_B32
                    )
                {
                    continue;
                }
                for mode in [FLUSH_F32, KEEP_ALL] {
                    let Ok(f) = lift(&code, &config(gen, mode)) else {
                        continue;
                    };
                    let mut w = Wave::new();
                    for reg in 0..16 {
                        w.set_v_all(reg, |l| edge(l.wrapping_add(reg * 5)));
                    }
                    w.set_v_all(10, |l| 0xdead_0000 + l);
                    w.set_v_all(11, |l| 0xbeef_0000 + l);
                    w.set_exec(!(1u64 << 63));
                    w.set_m0(0);
                    let ran_ok = w
                        .try_run(&f)
                        .unwrap_or_else(|why| panic!("{gen:?} {}: {why}", r.name(gen)));
                    if let Err(e) = ran_ok {
                        panic!("{gen:?} {}: fault {e}", r.name(gen));
                    }
                    assert_eq!(
                        w.v(10, 63),
                        0xdead_0000 + 63,
                        "{gen:?} {} wrote an inactive lane",
                        r.name(gen)
                    );
                    assert_eq!(
                        w.v(11, 63),
                        0xbeef_0000 + 63,
                        "{gen:?} {} wrote an inactive lane",
                        r.name(gen)
                    );
                    ran += 1;
                }
            }
        }
    }
    assert!(ran > 500, "only {ran} runs");
}
