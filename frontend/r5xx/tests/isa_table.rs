//! The tables against themselves (value tables are total and in value order, spellings are
//! distinct, flags are distinct fields) and against ctm_instructions.tsv, read in place:
//! every instruction and flag row of it (not the CMD rows, which are the command stream's) is
//! a row here with the same value and name.

use std::collections::HashSet;
use std::path::PathBuf;

use wavejit_r5xx::table::fields as f;
use wavejit_r5xx::table::flags::{self, FlagKind, FLAGS};
use wavejit_r5xx::table::*;

/// Checks a value table: `2^width` rows, row v has value v and item bits v, distinct
/// spellings that read back.
fn check<T: Copy + PartialEq + std::fmt::Debug>(
    rows: &[ValueRow<T>],
    width: u8,
    bits: fn(T) -> u32,
    from_asm: fn(&str) -> Option<T>,
) {
    assert_eq!(rows.len(), 1 << width);
    let mut seen = HashSet::new();
    for (v, r) in rows.iter().enumerate() {
        assert_eq!(usize::from(r.value), v, "{}", r.asm);
        assert_eq!(bits(r.item) as usize, v, "{}", r.asm);
        assert!(seen.insert(r.asm), "{} twice", r.asm);
        assert_eq!(from_asm(r.asm), Some(r.item));
        assert!(!r.asm.is_empty() && !r.ctm.is_empty());
    }
}

#[test]
fn value_tables_are_total_and_in_value_order() {
    check(
        INST_TYPES,
        f::TYPE.width,
        InstType::bits,
        InstType::from_asm,
    );
    check(
        PRED_SELS,
        f::RGB_PRED_SEL.width,
        PredSel::bits,
        PredSel::from_asm,
    );
    check(
        ALU_RESULT_SELS,
        1,
        AluResultSel::bits,
        AluResultSel::from_asm,
    );
    check(
        CMP_OPS,
        f::ALU_RESULT_OP.width,
        CmpOp::bits,
        CmpOp::from_asm,
    );
    check(
        PRESUBS,
        f::RGB_SRCP_OP.width,
        Presub::bits,
        Presub::from_asm,
    );
    check(SRC_SELS, f::RGB_A.sel.width, SrcSel::bits, SrcSel::from_asm);
    check(
        SWIZZLES,
        f::ALPHA_A.swiz.width,
        Swizzle::bits,
        Swizzle::from_asm,
    );
    check(
        MODIFIERS,
        f::RGB_A.modifier.width,
        Modifier::bits,
        Modifier::from_asm,
    );
    check(OMODS, f::RGB_OMOD.width, Omod::bits, Omod::from_asm);
    check(RGB_OPS, f::RGB_OP.width, RgbOp::bits, RgbOp::from_asm);
    check(
        ALPHA_OPS,
        f::ALPHA_OP.width,
        AlphaOp::bits,
        AlphaOp::from_asm,
    );
    check(TEX_OPS, f::TEX_INST.width, TexOp::bits, TexOp::from_asm);
    check(TEX_SWIZZLES, 2, TexSwizzle::bits, TexSwizzle::from_asm);
    check(FC_OPS, f::FC_OP.width, FcOp::bits, FcOp::from_asm);
    check(A_OPS, f::FC_A_OP.width, AOp::bits, AOp::from_asm);
    check(B_OPS, f::FC_B_OP0.width, BOp::bits, BOp::from_asm);
    check(PRED_OPS, f::RGB_TARGET.width, CmpOp::bits, CmpOp::from_asm);
    check(RENDER_TARGETS, f::RGB_TARGET.width, u32::from, |s| {
        s.strip_prefix('o').and_then(|n| n.parse().ok())
    });
}

#[test]
fn value_lookups_mask_to_the_field_and_never_panic() {
    assert_eq!(RgbOp::from_bits(0x1f), RgbOp::Op15);
    assert_eq!(TexOp::from_bits(u32::MAX), TexOp::Op7);
    assert_eq!(Swizzle::from_bits(12), Swizzle::Zero);
    assert_eq!(RgbOp::from_asm("frobnicate"), None);
    assert_eq!(BOp::bits_of_asm("incr"), Some(2));
    assert_eq!(AOp::asm_of_bits(2), "push");
}

#[test]
fn undefined_values_are_exactly_the_reserved_ones() {
    assert_eq!(undefined(RGB_OPS), ["op6", "op13", "op14", "op15"]);
    assert_eq!(undefined(ALPHA_OPS), ["op4"]);
    assert_eq!(undefined(TEX_OPS), ["op7"]);
    assert_eq!(undefined(PRED_SELS), ["sel6", "sel7"]);
    assert_eq!(undefined(SWIZZLES), ["_"]);
    assert_eq!(undefined(A_OPS), ["aop3"]);
    assert_eq!(undefined(B_OPS), ["bop3"]);
    assert!(undefined(OMODS).is_empty() && undefined(FC_OPS).is_empty());
}

fn undefined<T>(rows: &[ValueRow<T>]) -> Vec<&'static str> {
    rows.iter().filter(|r| !r.defined).map(|r| r.asm).collect()
}
#[test]
fn op_arities_follow_the_seed() {
    // Seed 003 §3.3.4: MAD A*B+C, DP3/DP4 A.B, D2A A.rg.B.rg + C.b, MIN/MAX A,B, CND/CMP
    // by C, FRC A, SOP none; alpha DP copies the RGB dot product.
    let rgb: Vec<usize> = [
        RgbOp::Mad,
        RgbOp::Dp3,
        RgbOp::Dp4,
        RgbOp::D2a,
        RgbOp::Min,
        RgbOp::Max,
        RgbOp::Cnd,
        RgbOp::Cmp,
        RgbOp::Frc,
        RgbOp::Sop,
        RgbOp::Mdh,
    ]
    .map(RgbOp::inputs)
    .to_vec();
    assert_eq!(rgb, [3, 2, 2, 3, 2, 2, 3, 3, 1, 0, 3]);
    let alpha: Vec<usize> = [
        AlphaOp::Mad,
        AlphaOp::Dp,
        AlphaOp::Max,
        AlphaOp::Cmp,
        AlphaOp::Rsq,
    ]
    .map(AlphaOp::inputs)
    .to_vec();
    assert_eq!(alpha, [3, 0, 2, 3, 1]);
}

#[test]
fn flags_of_a_type_are_distinct_fields() {
    for ty in [InstType::Alu, InstType::Output, InstType::Fc, InstType::Tex] {
        let mut names = HashSet::new();
        let mut masks = [0u32; 6];
        for fl in flags::flags_of(ty) {
            assert!(names.insert(fl.asm), "{} twice", fl.asm);
            if let FlagKind::Unused = fl.kind {
                continue;
            }
            let w = fl.field.word as usize;
            assert_eq!(masks[w] & fl.field.mask(), 0, "{} overlaps", fl.asm);
            masks[w] |= fl.field.mask();
        }
    }
}

#[test]
fn unused_flags_refuse_field_bits() {
    let fl = flags::find(InstType::Tex, "unused1").unwrap();
    let mut w = [3, 0, 0, 0, 0, 0];
    assert!(fl.set(InstType::Tex, &mut w, 0xffff).is_ok());
    assert_eq!(w[1], 0xffff);
    let e = fl.set(InstType::Tex, &mut w, 0x1_0000).unwrap_err();
    assert_eq!(e, "unused1=0x10000 sets bits 0x10000, which are fields");
    let fl = flags::find(InstType::Fc, "pop_cnt").unwrap();
    assert_eq!(
        fl.set(InstType::Fc, &mut w, 32).unwrap_err(),
        "pop_cnt=32 does not fit in 5 bits"
    );
}

fn tsv() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/notes/ctm_instructions.tsv");
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(_) => {
            eprintln!("NOT RUN: {} absent", path.display());
            None
        }
    }
}

/// The first bit of a tsv field: "FC_INST[4]", "FC_INST[15:8]", or "FC_INST[23:16] max
/// (starts at bit 16; ...)".
fn start_bit(field: &str) -> u8 {
    if let Some(rest) = field.split("starts at bit ").nth(1) {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return digits.parse().unwrap();
    }
    let inside = field.split('[').nth(1).unwrap().split(']').next().unwrap();
    inside.rsplit(':').next().unwrap().parse().unwrap()
}

/// The row of a value table with value `v`: (ctm name, defined).
fn value_row(unit: &str, field: &str, v: usize) -> Option<(&'static str, bool)> {
    fn at<T>(rows: &'static [ValueRow<T>], v: usize) -> Option<(&'static str, bool)> {
        rows.get(v).map(|r| (r.ctm, r.defined))
    }
    match unit {
        "ALU-RGB" => at(RGB_OPS, v),
        "ALU-ALPHA" => at(ALPHA_OPS, v),
        "TEX" => at(TEX_OPS, v),
        "FC" if field.contains("(OP)") => at(FC_OPS, v),
        "FC" if field.contains("A_OP") => at(A_OPS, v),
        "FC" if field.contains("B_OP") => at(B_OPS, v),
        "CMN" if field.contains("TYPE") => at(INST_TYPES, v),
        "CMN" if field.contains("PRED_SEL") || field.contains("[5:3]") => at(PRED_SELS, v),
        "CMN" if field.contains("[24:23]") => at(CMP_OPS, v),
        "ALU" => at(PRED_OPS, v),
        "OUT" => at(RENDER_TARGETS, v),
        _ => None,
    }
}

#[test]
fn every_instruction_and_flag_row_of_the_tsv_is_a_table_row() {
    let Some(tsv) = tsv() else { return };
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut checked = 0;
    for line in lines {
        let c: Vec<&str> = line.split('\t').collect();
        let (unit, ctm, hw, field, value) = (
            c[col("unit")],
            c[col("ctm_name")],
            c[col("hw_name")],
            c[col("field")],
            c[col("value")],
        );
        if unit == "CMD" {
            continue;
        }
        checked += 1;
        if let Ok(v) = value.parse::<usize>() {
            if let Some((name, defined)) = value_row(unit, field, v) {
                match ctm {
                    "(reserved)" => assert!(!defined, "{unit} {v}"),
                    // Values the Guide does not name carry the register docs' name.
                    "(not in CTM doc)" => {
                        let hw = hw.trim_start_matches("OP_");
                        assert!(name.contains(hw), "{unit} {v}: {name} vs {hw}");
                        assert!(defined);
                    }
                    // "FC_B_OP_INCR (stay)": B_OP0 and B_OP1 share one table.
                    _ => assert_eq!(name, ctm.split(' ').next().unwrap(), "{unit} {v}"),
                }
                continue;
            }
        }
        // A flag or numeric field: a flag row names it, or (JUMP_ADDR) the FC syntax writes
        // it at the field's place.
        // Every flag row of the tsv is an FC field (TEX has its own IGNORE_UNCOVERED).
        if let Some(fl) = FLAGS
            .iter()
            .find(|fl| fl.ctm == ctm && fl.types & flags::FC != 0)
        {
            assert_eq!(fl.field.lo, start_bit(field), "{ctm}");
            continue;
        }
        match ctm {
            "JUMP_ADDR" => assert_eq!(f::FC_JUMP_ADDR.lo, 16),
            "TEX_INST_LOOKUP_UNCACHED" => {
                // No value is known: no row claims the name, and 7 stays undefined.
                assert!(TEX_OPS.iter().all(|r| r.ctm != ctm));
                assert!(!TexOp::Op7.defined());
            }
            _ if ctm.starts_with("RNDR_TGT_UMRT") => assert!(UMRT_TARGETS.contains(&ctm)),
            _ => panic!("tsv row {unit} {ctm} {field} {value} has no table row"),
        }
    }
    assert_eq!(checked, 89);
}
