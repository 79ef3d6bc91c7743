//! Table invariants checked against checked-in extracts of independent sources:
//! - `tests/vectors/gfx{8,9}.optypes` (written by `tests/vectors/gen-optypes.py` from LLVM 14's
//!   disassembler): the width and 16-bit class of every VALU source operand, and the printed
//!   text of each probe;
//! - `tests/vectors/scalar_effects.tsv` (transcribed from the CLRX SOP* documents): the
//!   implicit SCC/EXEC/M0/VCC effects of every scalar ALU row;
//! - internal consistency of types and operand widths.
use std::collections::HashMap;
use wavejit_gcn::tables::{self, flags, Family, Field, OpInfo, Ty, FAMILIES};
use wavejit_gcn::{decode, print, Gen};

fn vectors_file(name: &str) -> String {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn is64(t: Ty) -> bool {
    matches!(t, Ty::B64 | Ty::F64 | Ty::I64 | Ty::U64)
}

fn is_int16(t: Ty) -> bool {
    matches!(t, Ty::I16 | Ty::U16 | Ty::B16)
}

/// Source index of an operand field (VOP and SOP sources).
fn src_index(f: Field) -> Option<usize> {
    match f {
        Field::Src0 | Field::Ssrc0 => Some(0),
        Field::Src1 | Field::Vsrc1 | Field::Ssrc1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    }
}

/// LLVM's operand kind for every probed source agrees with the row's type, and the printer
/// prints each probe exactly as LLVM does.
fn check_optypes(gen: Gen) {
    let text = vectors_file(&format!("{}.optypes", gen.name()));
    let mut bad = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (bytes, want, k, kind) = (hex(f[0]), f[1], f[2].parse::<usize>().unwrap(), f[3]);
        let inst = match decode(gen, &bytes, 0) {
            Ok(i) => i,
            Err(e) => {
                bad.push(format!("{want}: {e}"));
                continue;
            }
        };
        n += 1;
        let got = print(&inst);
        if got != want {
            bad.push(format!("print: got `{got}`, want `{want}`"));
        }
        let ty = inst.info.src_ty[k];
        let ok = match kind {
            "i16" => is_int16(ty),
            "f16" => ty == Ty::F16,
            "64" => is64(ty),
            "16or32" => !is_int16(ty) && !is64(ty),
            "not-f16" => ty != Ty::F16,
            _ => false,
        };
        if !ok {
            bad.push(format!("{want}: src{k} is {ty:?}, LLVM says {kind}"));
        }
    }
    assert!(n > 1000, "only {n} probes");
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn optypes_gfx8() {
    check_optypes(Gen::Gfx8);
}

#[test]
fn optypes_gfx9() {
    check_optypes(Gen::Gfx9);
}

/// A 64-bit type goes with a two-register operand and vice versa (wider slots are vectors of
/// the element type); untyped operands (`Ty::None`) are not sources of data.
#[test]
fn types_agree_with_widths() {
    let mut bad = Vec::new();
    for fam in FAMILIES {
        for r in tables::rows(fam) {
            for s in r.slots {
                let ty = match s.0 {
                    Field::Vdst => r.dst_ty,
                    Field::Sdst if !r.has(flags::SDST_IS_SRC) => r.dst_ty,
                    f => match src_index(f) {
                        Some(k) => r.src_ty[k],
                        None => continue,
                    },
                };
                if ty == Ty::None || s.1 > 2 {
                    continue;
                }
                if is64(ty) != (s.1 == 2) {
                    bad.push(format!(
                        "{:?} {}: {:?} is {ty:?} in {} dwords",
                        fam,
                        name(r),
                        s.0,
                        s.1
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn name(r: &OpInfo) -> &'static str {
    r.opcode.name()
}

/// Every typed VALU source slot has a type, and every type names a slot.
#[test]
fn vop_sources_are_typed() {
    let mut bad = Vec::new();
    for fam in [
        Family::Vop1,
        Family::Vop2,
        Family::Vopc,
        Family::Vop3,
        Family::Vop3p,
    ] {
        for r in tables::rows(fam) {
            let srcs: Vec<usize> = r.slots.iter().filter_map(|s| src_index(s.0)).collect();
            for k in 0..3 {
                if srcs.contains(&k) != (r.src_ty[k] != Ty::None) {
                    bad.push(format!("{fam:?} {}: src{k} slot/type mismatch", name(r)));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The scalar rows' implicit-effect flags equal the CLRX transcription, row for row.
#[test]
fn scalar_effects_match_clrx() {
    let text = vectors_file("scalar_effects.tsv");
    let mut want: HashMap<(String, String), Vec<String>> = HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        want.insert(
            (f[0].to_string(), f[1].to_string()),
            f[2..].iter().map(|s| s.to_string()).collect(),
        );
    }
    let rw = |r: bool, w: bool| {
        let s = format!("{}{}", if r { "r" } else { "" }, if w { "w" } else { "" });
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
    };
    let mut bad = Vec::new();
    let mut n = 0;
    for fam in [
        Family::Sop2,
        Family::Sopk,
        Family::Sop1,
        Family::Sopc,
        Family::Sopp,
    ] {
        for r in tables::rows(fam) {
            let key = (format!("{fam:?}"), name(r).to_string());
            let Some(w) = want.remove(&key) else {
                bad.push(format!("{key:?}: not in scalar_effects.tsv"));
                continue;
            };
            n += 1;
            let got = vec![
                rw(r.has(flags::READS_SCC), r.has(flags::WRITES_SCC)),
                rw(r.has(flags::READS_EXEC), r.has(flags::WRITES_EXEC)),
                rw(r.has(flags::READS_M0), r.has(flags::WRITES_M0)),
                rw(r.has(flags::READS_VCC), r.has(flags::WRITES_VCC)),
                if r.has(flags::READS_DST) { "r" } else { "-" }.to_string(),
            ];
            if got != w {
                bad.push(format!("{key:?}: table {got:?}, CLRX {w:?}"));
            }
        }
    }
    bad.extend(want.keys().map(|k| format!("{k:?}: no table row")));
    assert!(n > 150, "only {n} rows");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// VALU implicit effects that the lifter depends on, spot-checked against the CLRX VOP
/// documents (GcnInstrsVop1/Vop2/Vop3/Vopc.md operation blocks).
#[test]
fn valu_effects() {
    let row = |fam: Family, n: &str| {
        tables::rows(fam)
            .iter()
            .find(|r| name(r) == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    // VCC: carry-in/out of the VOP2 carry ops, v_cndmask's selector, v_div_fmas's scale flag.
    for n in ["v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32"] {
        let r = row(Family::Vop2, n);
        assert!(r.has(flags::WRITES_VCC) && !r.has(flags::READS_VCC), "{n}");
    }
    for n in ["v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32"] {
        let r = row(Family::Vop2, n);
        assert!(r.has(flags::WRITES_VCC) && r.has(flags::READS_VCC), "{n}");
    }
    assert!(row(Family::Vop2, "v_cndmask_b32").has(flags::READS_VCC));
    assert!(row(Family::Vop3, "v_div_fmas_f32").has(flags::READS_VCC));
    // v_div_scale writes the VOP3B SGPR pair it names, not VCC implicitly.
    assert!(!row(Family::Vop3, "v_div_scale_f32").has(flags::WRITES_VCC));
    // Every VOPC compare writes VCC; exactly the v_cmpx/v_cmpsx ones write EXEC too.
    for r in tables::rows(Family::Vopc) {
        assert!(r.has(flags::WRITES_VCC), "{}", name(r));
        let x = name(r).starts_with("v_cmpx") || name(r).starts_with("v_cmpsx");
        assert_eq!(r.has(flags::WRITES_EXEC), x, "{}", name(r));
    }
    // M0 relative addressing and EXEC-dependent lane selection.
    for n in ["v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32"] {
        assert!(row(Family::Vop1, n).has(flags::READS_M0), "{n}");
    }
    assert!(row(Family::Vop1, "v_readfirstlane_b32").has(flags::READS_EXEC));
    for n in ["v_mac_f32", "v_mac_f16"] {
        assert!(row(Family::Vop2, n).has(flags::READS_DST), "{n}");
    }
}

/// Operand types the ISA documents but mnemonic-based guessing gets wrong (CLRX operation
/// blocks: shift counts `SRC&31`/`SRC&63`, `ldexp` exponent `(INT32)SRC1`, class mask bits,
/// 24-bit multiplies adding a full 32-bit `SRC2`, 64-bit shifts with the count in SRC0).
#[test]
fn documented_operand_types() {
    let src = |fam: Family, n: &str| {
        tables::rows(fam)
            .iter()
            .find(|r| name(r) == n)
            .unwrap_or_else(|| panic!("{n}"))
            .src_ty
    };
    assert_eq!(src(Family::Vop3, "v_lshlrev_b64")[..2], [Ty::U32, Ty::B64]);
    assert_eq!(src(Family::Vop3, "v_ashrrev_i64")[..2], [Ty::U32, Ty::I64]);
    assert_eq!(src(Family::Vop3, "v_lshl_b64")[..2], [Ty::B64, Ty::U32]);
    assert_eq!(src(Family::Vop2, "v_lshlrev_b32")[..2], [Ty::U32, Ty::B32]);
    assert_eq!(src(Family::Sop2, "s_lshl_b64")[..2], [Ty::B64, Ty::U32]);
    assert_eq!(
        src(Family::Vop3, "v_mad_i32_i24"),
        [Ty::I24, Ty::I24, Ty::I32]
    );
    assert_eq!(
        src(Family::Vop3, "v_mad_u32_u24"),
        [Ty::U24, Ty::U24, Ty::U32]
    );
    assert_eq!(src(Family::Vop3, "v_ldexp_f64")[..2], [Ty::F64, Ty::I32]);
    assert_eq!(src(Family::Vop3, "v_ldexp_f32")[..2], [Ty::F32, Ty::I32]);
    assert_eq!(
        src(Family::Vopc, "v_cmp_class_f64")[..2],
        [Ty::F64, Ty::I32]
    );
    assert_eq!(src(Family::Vop1, "v_cvt_f32_ubyte0")[0], Ty::U32);
    assert_eq!(src(Family::Vop1, "v_cvt_off_f32_i4")[0], Ty::I32);
    assert_eq!(src(Family::Sopk, "s_cmpk_lt_u32")[..2], [Ty::U32, Ty::U16]);
    assert_eq!(src(Family::Sopk, "s_cmpk_lt_i32")[..2], [Ty::I32, Ty::I16]);
    assert_eq!(src(Family::Sopc, "s_bitcmp1_b64")[..2], [Ty::B64, Ty::U32]);
}
