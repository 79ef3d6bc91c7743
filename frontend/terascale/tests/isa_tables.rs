//! Table invariants: unique opcodes per family and class, one row per identity, and every
//! instruction row of notes/hd6900_opcodes.tsv (copied to tests/data, columns class,
//! mnemonic, decimal opcode) present with its Cayman value.
use std::collections::HashSet;
use wavejit_terascale::tables::{self, AluEnc, SlotRule, NA};
use wavejit_terascale::{AluOp, ChipClass};

const TSV: &str = include_str!("data/hd6900_opcodes.tsv");

fn tsv_rows() -> Vec<(&'static str, &'static str, Option<u16>)> {
    TSV.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], f[1], f[2].parse().ok())
        })
        .collect()
}

fn assert_unique(family: &str, codes: impl Iterator<Item = (ChipClass, u16)>) {
    let mut seen = HashSet::new();
    for (class, code) in codes.filter(|c| c.1 != NA) {
        assert!(
            seen.insert((class, code)),
            "{family}: opcode {code} twice in {class:?}"
        );
    }
}

#[test]
fn opcodes_are_unique_per_family_and_class() {
    for class in ChipClass::ALL {
        let i = class.index();
        for enc in [AluEnc::Op2, AluEnc::Op3] {
            let rows = tables::alu_rows().iter().filter(|r| r.enc == enc);
            assert_unique("ALU", rows.map(|r| (class, r.opcode[i])));
        }
        assert_unique("CF", tables::cf_rows().iter().map(|r| (class, r.opcode[i])));
        assert_unique(
            "CF_ALU",
            tables::cf_alu_rows().iter().map(|r| (class, r.opcode[i])),
        );
        assert_unique(
            "CF_MEM",
            tables::cf_mem_rows().iter().map(|r| (class, r.opcode[i])),
        );
        assert_unique(
            "RAT",
            tables::rat_rows().iter().map(|r| (class, r.opcode[i])),
        );
        assert_unique(
            "LDS",
            tables::lds_rows().iter().map(|r| (class, r.opcode[i])),
        );
        assert_unique(
            "VTX",
            tables::vtx_rows().iter().map(|r| (class, r.opcode[i])),
        );
        assert_unique(
            "MEM",
            tables::mem_rd_rows().iter().map(|r| (class, r.opcode[i])),
        );
        assert_unique(
            "TEX",
            tables::tex_rows().iter().map(|r| (class, r.opcode[i])),
        );
    }
}

#[test]
fn every_alu_op_has_one_row_and_decodes_back() {
    for &op in AluOp::ALL.iter() {
        let rows: Vec<_> = tables::alu_rows().iter().filter(|r| r.op == op).collect();
        assert_eq!(rows.len(), 1, "{op:?}");
        for class in ChipClass::ALL {
            let r = rows[0];
            match r.opcode(class) {
                Some(code) => {
                    assert_ne!(r.slot_rule(class), SlotRule::Absent, "{op:?} {class:?}");
                    let back = tables::alu_by_code(class, r.enc, code).map(|r| r.op);
                    assert_eq!(back, Some(op), "{class:?} {code}");
                }
                None => assert_eq!(r.slot_rule(class), SlotRule::Absent, "{op:?} {class:?}"),
            }
        }
    }
}

/// The Cayman value of a TSV row, by class.
fn cayman_code(class: &str, name: &str) -> Option<u16> {
    let cm = ChipClass::Cayman;
    let strip = |p: &str| name.strip_prefix(p).unwrap_or(name).to_string();
    match class {
        "ALU_OP2" | "ALU_OP3" => {
            let op = AluOp::from_name(name)?;
            let row = tables::alu_info(op);
            row.opcode(cm)
        }
        "CF" => {
            let op = tables::CfOp::ALL.iter().find(|o| o.name() == name)?;
            Some(tables::cf_info(*op).opcode[1])
        }
        "CF_ALU" => {
            let op = tables::CfAluOp::ALL.iter().find(|o| o.name() == name)?;
            Some(tables::cf_alu_info(*op).opcode[1])
        }
        "CF_MEM" => {
            let op = tables::CfMemOp::ALL.iter().find(|o| o.name() == name)?;
            Some(tables::cf_mem_info(*op).opcode[1])
        }
        "RAT" => {
            let n = strip("EXPORT_RAT_INST_");
            let op = tables::RatInst::ALL.iter().find(|o| o.name() == n)?;
            Some(tables::rat_info(*op).opcode[1])
        }
        "LDS" | "GDS" => {
            let n = name[4..].to_string();
            let op = tables::LdsOp::ALL.iter().find(|o| o.name() == n)?;
            Some(tables::lds_info(*op).opcode[1])
        }
        "TEX" => {
            let n = format!("TEX_{}", strip("TEX_INST_"));
            let op = tables::FetchOp::ALL.iter().find(|o| o.name() == n)?;
            Some(tables::fetch_info(*op).opcode[1])
        }
        "MEM" => {
            let n = match name {
                "GLOBAL_DS_WRITE" | "GLOBAL_DS_READ" => "MEM_GDS".to_string(),
                n => n.to_string(),
            };
            let op = tables::FetchOp::ALL.iter().find(|o| o.name() == n)?;
            Some(tables::fetch_info(*op).opcode[1])
        }
        "VTX" => match name {
            // VC_INST 2 is the MEM encoding selector, not an instruction of its own.
            "VC_INST_MEM" => Some(2),
            n => {
                let n = format!("VTX_{}", &n["VC_INST_".len()..]);
                let op = tables::FetchOp::ALL.iter().find(|o| o.name() == n)?;
                Some(tables::fetch_info(*op).opcode[1])
            }
        },
        _ => None,
    }
}

#[test]
fn every_tsv_instruction_row_is_present_with_its_cayman_value() {
    let mut checked = 0;
    for (class, name, code) in tsv_rows() {
        // CF_GWS (GWS_OPCODE of CF_GWS_WORD0) and MOVA_DST are operand fields, not opcodes.
        if matches!(class, "CF_GWS" | "MOVA_DST") {
            continue;
        }
        // Rows with an opcode in the TSV are Cayman instructions; rows without one (MOVA,
        // RECIP_INT, MEM_RAT_COMBINED, ...) have no Cayman encoding in the document.
        let expected = match (class, name) {
            // The Evergreen CF_ALU values the document also prints (extraction issue 20):
            // Cayman reuses 13/14 for REACTIVATE_BEFORE / VALID_PIXEL_MODE.
            ("CF_ALU", "ALU_CONTINUE" | "ALU_BREAK") => Some(NA),
            // The low duplicate encodings are aliases (see the next test).
            ("ALU_OP2", "MUL_64") if code == Some(27) => Some(202),
            ("ALU_OP2", "FLT64_TO_FLT32") if code == Some(28) => Some(205),
            ("ALU_OP2", "FLT32_TO_FLT64") if code == Some(29) => Some(206),
            // Mesa's Cayman value for the undocumented MEM_RAT_COMBINED.
            ("CF_MEM", "MEM_RAT_COMBINED") => Some(93),
            _ => code,
        };
        let got = cayman_code(class, name);
        match expected {
            Some(e) => assert_eq!(got, Some(e), "{class} {name}"),
            None => assert!(
                got.is_none(),
                "{class} {name}: the TSV gives no opcode, table {got:?}"
            ),
        }
        checked += 1;
    }
    assert_eq!(checked, 461 - 12);
}

#[test]
fn cayman_low_64bit_encodings_alias_the_high_ones() {
    for (lo, op) in [
        (27, AluOp::MUL_64),
        (28, AluOp::FLT64_TO_FLT32),
        (29, AluOp::FLT32_TO_FLT64),
    ] {
        let r = tables::alu_by_code(ChipClass::Cayman, AluEnc::Op2, lo).map(|r| r.op);
        assert_eq!(r, Some(op));
        assert!(tables::alu_by_code(ChipClass::Evergreen, AluEnc::Op2, lo).is_none());
    }
}

#[test]
fn evergreen_column_follows_mesa() {
    use SlotRule::*;
    let eg = ChipClass::Evergreen;
    // Spot checks against Mesa r600_isa.c (Evergreen column), written out independently.
    let cases: &[(AluOp, u16, SlotRule)] = &[
        (AluOp::MULLO_INT, 0x8F, Trans),
        (AluOp::RECIP_IEEE, 0x86, Trans),
        (AluOp::INT_TO_FLT, 0x9B, Trans),
        // Mesa has AF_V here; llc-14 issues FLT_TO_INT in the T slot (tests/vectors).
        (AluOp::FLT_TO_INT, 0x50, Any),
        (AluOp::BFE_UINT, 0x04, Vector),
        (AluOp::DOT4, 0xBE, AllFour),
        (AluOp::RECIP_UINT, 0x94, Trans),
        (AluOp::SET_CF_IDX0, 0x58, Any),
        (AluOp::MUL_LIT, 0x1F, Trans),
        (AluOp::LSHL_INT, 0x17, Any),
    ];
    for &(op, code, rule) in cases {
        let r = tables::alu_info(op);
        assert_eq!(
            (r.opcode(eg), r.slot_rule(eg)),
            (Some(code), rule),
            "{op:?}"
        );
    }
    for op in [AluOp::MUL_INT24, AluOp::MULHI_INT24, AluOp::MULADD_INT24] {
        assert_eq!(
            tables::alu_info(op).opcode(eg),
            None,
            "{op:?} is Cayman-only"
        );
    }
    let cm = ChipClass::Cayman;
    assert_eq!(tables::alu_info(AluOp::MULLO_INT).slot_rule(cm), AllFour);
    assert_eq!(tables::alu_info(AluOp::SIN).slot_rule(cm), Replicated);
    assert_eq!(
        tables::cf_by_code(eg, 2).map(|r| r.op),
        Some(tables::CfOp::VC)
    );
    assert!(tables::cf_by_code(cm, 2).is_none());
    assert!(tables::cf_by_code(eg, 32).is_none());
    assert_eq!(
        tables::cf_alu_by_code(eg, 13).map(|r| r.op),
        Some(tables::CfAluOp::ALU_CONTINUE)
    );
    assert_eq!(
        tables::cf_alu_by_code(cm, 13).map(|r| r.op),
        Some(tables::CfAluOp::ALU_REACTIVATE_BEFORE)
    );
    assert_eq!(
        tables::rat_by_code(eg, 2).map(|r| r.op),
        Some(tables::RatInst::STORE_RAW)
    );
    assert!(tables::rat_by_code(cm, 2).is_none());
}
