//! The encoding table (generated from applegpu.py) against Mesa's AGX2.xml, an independent
//! description of the same ISA: tests/data/agx2-forms.tsv holds AGX2.xml's facts (made by
//! scripts/gen-g13-agx2.py; its header names the Mesa commit). [`MAPPING`] pairs the table's
//! rows with AGX2.xml's instructions where the names differ or one side splits what the other
//! keeps as one; for every pair the lengths, the length bit and the bits both fix must agree,
//! and AGX2.xml's fixed bits (its fields zero) must decode as one of the rows paired with it.
//! The disagreements, and the bits the table fixes inside AGX2.xml's fields, are listed with
//! their reasons, exactly.

use std::collections::BTreeSet;
use wavejit_g13::frame;
use wavejit_g13::table::{rows, Row};

/// One instruction of AGX2.xml.
struct Agx2 {
    name: String,
    alias: bool,
    sizes: [u8; 2],
    lbit: Option<u8>,
    mask: u128,
    bits: u128,
    /// Operands and modifiers: `role:name(kind)` (`role(kind)` when unnamed) and their bit
    /// positions.
    fields: Vec<(String, Vec<u8>)>,
}

fn agx2() -> Vec<Agx2> {
    include_str!("data/agx2-forms.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 8, "{l}");
            let sizes: Vec<u8> = c[3]
                .split('/')
                .map(|s| s.parse().expect("length"))
                .collect();
            let fields = c[7]
                .split("; ")
                .filter(|f| !f.is_empty())
                .map(|f| {
                    let (label, pos) = f.split_once('=').expect("field");
                    let bits = pos
                        .split(' ')
                        .flat_map(|r| {
                            let (a, b) = r.split_once(':').unwrap_or((r, r));
                            let (a, b): (u8, u8) =
                                (a.parse().expect("bit"), b.parse().expect("bit"));
                            a..=b
                        })
                        .collect();
                    (label.to_string(), bits)
                })
                .collect();
            Agx2 {
                name: c[0].to_string(),
                alias: c[2] == "1",
                sizes: [sizes[0], *sizes.last().expect("a length")],
                lbit: c[4].parse().ok(),
                mask: u128::from_str_radix(c[5], 16).expect("mask"),
                bits: u128::from_str_radix(c[6], 16).expect("bits"),
                fields,
            }
        })
        .collect()
}

/// Table rows (name, which of the rows of that name) and the AGX2.xml instructions they
/// encode.
const MAPPING: &[(&str, usize, &[&str])] = &[
    ("mov_imm", 0, &["ldimm16"]),
    ("mov_imm", 1, &["ldimm32"]),
    ("get_sr", 0, &["mfsr"]),
    ("iadd", 0, &["iadd", "isub"]),
    ("imadd", 0, &["imadd", "imsub", "imul"]),
    (
        "convert",
        0,
        &[
            "u8_to_f", "s8_to_f", "f_to_u16", "f_to_s16", "u16_to_f", "s16_to_f", "f_to_u32",
            "f_to_s32", "u32_to_f", "s32_to_f",
        ],
    ),
    ("bfi", 0, &["bfi", "shl"]),
    ("bfeil", 0, &["bfeil", "shr"]),
    ("extr", 0, &["extr"]),
    ("shlhi", 0, &["shlhi"]),
    ("shrhi", 0, &["shrhi"]),
    ("asr", 0, &["asr"]),
    ("asrh", 0, &["asrh"]),
    (
        "bitop",
        0,
        &[
            "not_a", "mov", "not", "mov_a", "zero", "and", "andn1", "andn2", "xor", "or", "nor",
            "xnor", "orn1", "orn2", "nand", "one",
        ],
    ),
    ("bitrev", 0, &["bitrev"]),
    ("popcount", 0, &["popcnt"]),
    ("intl", 0, &["intl"]),
    ("ffs", 0, &["ffs"]),
    ("iunop", 0, &["bitrev", "popcnt", "ffs"]),
    ("fmadd32", 0, &["ffma"]),
    ("fmadd16", 0, &["hfma"]),
    ("fadd32", 0, &["fadd"]),
    ("fadd16", 0, &["hadd"]),
    ("fmul32", 0, &["fmul"]),
    ("fmul16", 0, &["hmul"]),
    ("floor", 0, &["floor"]),
    ("ceil", 0, &["ceil"]),
    ("trunc", 0, &["trunc"]),
    ("rint", 0, &["rint"]),
    ("rcp", 0, &["rcp"]),
    ("rsqrt", 0, &["rsqrt"]),
    ("rsqrt_special", 0, &["rsqrts"]),
    ("sin_pt_1", 0, &["sinr"]),
    ("sin_pt_2", 0, &["sinc"]),
    ("log2", 0, &["log2"]),
    ("exp2", 0, &["exp2"]),
    ("dfdx", 0, &["dfdx"]),
    ("dfdy", 0, &["dfdy"]),
    (
        "funop",
        0,
        &[
            "floor", "rsqrts", "rcp", "rsqrt", "sinr", "dfdx", "dfdy", "sinc", "log2", "exp2",
            "ceil", "trunc", "rint",
        ],
    ),
    ("ret", 0, &["ret"]),
    ("stop", 0, &["stop"]),
    ("trap", 0, &["trap"]),
    ("call", 0, &["call_reg"]),
    ("jmp_incomplete", 0, &["jmp_incomplete"]),
    ("jmp_exec_any", 0, &["jmp_any"]),
    ("jmp_exec_none", 0, &["jmp_none"]),
    ("call", 1, &["call"]),
    ("pop_exec", 0, &["pop_exec"]),
    ("if_icmp", 0, &["if_icmp"]),
    ("if_fcmp", 0, &["if_fcmp", "update_exec"]),
    ("while_icmp", 0, &["while_icmp"]),
    ("while_fcmp", 0, &["while_fcmp"]),
    ("else_icmp", 0, &["else_icmp"]),
    ("else_fcmp", 0, &["else_fcmp"]),
    ("icmpsel", 0, &["icsel"]),
    ("fcmpsel", 0, &["fcsel"]),
    ("icmp_ballot", 0, &["icmp_ballot", "ballot"]),
    ("icmp_quad_ballot", 0, &["icmp_ballot"]),
    ("fcmp_ballot", 0, &["fcmp_ballot"]),
    ("fcmp_quad_ballot", 0, &["fcmp_ballot"]),
    ("simd_shuffle", 0, &["shuffle"]),
    ("simd_shuffle_down", 0, &["shuffle"]),
    ("simd_shuffle_up", 0, &["shuffle"]),
    ("simd_shuffle_rotate_up", 0, &["shuffle"]),
    ("simd_shuffle_xor", 0, &["shuffle"]),
    ("quad_shuffle", 0, &["shuffle"]),
    ("quad_shuffle_down", 0, &["shuffle"]),
    ("quad_shuffle_up", 0, &["shuffle"]),
    ("quad_shuffle_rotate_up", 0, &["shuffle"]),
    ("quad_shuffle_xor", 0, &["shuffle"]),
    ("simd_shuf_op", 0, &["shuffle"]),
    ("quad_and", 0, &["quad"]),
    ("quad_or", 0, &["quad"]),
    ("quad_xor", 0, &["quad"]),
    ("quad_iadd", 0, &["quad"]),
    ("quad_fadd", 0, &["quad"]),
    ("quad_fmul", 0, &["quad"]),
    ("quad_prefix_iadd", 0, &["quad"]),
    ("quad_prefix_fadd", 0, &["quad"]),
    ("quad_prefix_fmul", 0, &["quad"]),
    ("quad_min.u", 0, &["quad"]),
    ("quad_max.u", 0, &["quad"]),
    ("quad_min.s", 0, &["quad"]),
    ("quad_max.s", 0, &["quad"]),
    ("quad_min.f", 0, &["quad"]),
    ("quad_max.f", 0, &["quad"]),
    ("simd_and", 0, &["simd"]),
    ("simd_or", 0, &["simd"]),
    ("simd_xor", 0, &["simd"]),
    ("simd_iadd", 0, &["simd"]),
    ("simd_fadd", 0, &["simd"]),
    ("simd_fmul", 0, &["simd"]),
    ("simd_prefix_iadd", 0, &["simd"]),
    ("simd_prefix_fadd", 0, &["simd"]),
    ("simd_prefix_fmul", 0, &["simd"]),
    ("simd_prefix_and", 0, &["simd"]),
    ("simd_prefix_or", 0, &["simd"]),
    ("simd_prefix_xor", 0, &["simd"]),
    ("simd_prefix_min.s", 0, &["simd"]),
    ("simd_prefix_min.u", 0, &["simd"]),
    ("simd_prefix_max.s", 0, &["simd"]),
    ("simd_prefix_max.u", 0, &["simd"]),
    ("simd_min.u", 0, &["simd"]),
    ("simd_max.u", 0, &["simd"]),
    ("simd_min.s", 0, &["simd"]),
    ("simd_max.s", 0, &["simd"]),
    ("simd_min.f", 0, &["simd"]),
    ("simd_max.f", 0, &["simd"]),
    ("simd_op", 0, &["quad", "simd"]),
    ("wait_pix", 0, &["pixwait"]),
    ("signal_pix", 0, &["pixrel"]),
    ("wait", 0, &["wait"]),
    ("TODO.ld/st_tile", 0, &["ld_tile", "st_tile"]),
    ("iter", 0, &["iter"]),
    ("iterproj", 0, &["iterproj"]),
    ("TODO.ldcf", 0, &["ldcf"]),
    ("uniform_store", 0, &["uniform_store", "uniform_store_unk"]),
    ("tex_state_store", 0, &["tex_state_store"]),
    ("sampler_state_store", 0, &["sampler_state_store"]),
    ("no_var", 0, &["no_var"]),
    ("st_var", 0, &["st_var"]),
    ("st_var_final", 0, &["st_var"]),
    ("device_load", 0, &["load"]),
    ("device_store", 0, &["store"]),
    ("device_load.TODO", 0, &["load"]),
    ("device_store.TODO", 0, &["store"]),
    ("stack_store", 0, &["stack_store"]),
    ("stack_load", 0, &["stack_load"]),
    ("TODO.stack_adjust", 0, &["stack_adjust"]),
    ("TODO.stack_adjust2", 0, &["stack_adjust"]),
    ("threadgroup_load", 0, &["lload"]),
    ("threadgroup_store", 0, &["lstore"]),
    ("texture_sample", 0, &["smpf"]),
    ("texture_load", 0, &["smpi"]),
    ("threadgroup_barrier", 0, &["barrier"]),
    ("atomic", 0, &["atomic"]),
    ("threadgroup_atomic", 0, &["latomic"]),
    ("doorbell", 0, &["doorbell"]),
    ("jmp_if_skipping_doorbell", 0, &["jmp_if_skipping_doorbell"]),
    ("image_write_block", 0, &["imgwblk"]),
    ("image_write", 0, &["imgw"]),
    ("map", 0, &["map", "unmap"]),
    ("sample_mask", 0, &["sample_mask"]),
    ("zs_emit", 0, &["zs_emit"]),
    (
        "memory_barrier",
        0,
        &[
            "memory_barrier",
            "image_barrier_1",
            "image_barrier_2",
            "image_barrier_3",
            "image_barrier_4",
            "flush_memory_to_texture",
            "memory_barrier_2",
            "memory_barrier_3",
            "unknown_barrier_1",
            "unknown_barrier_2",
            "device_barrier_1",
            "device_barrier_2",
        ],
    ),
];

/// Table rows AGX2.xml has no instruction for.
const UNMAPPED_ROWS: &[(&str, &str)] = &[
    (
        "simd_matrix_fmadd32",
        "AGX2.xml describes no matrix multiply-add",
    ),
    (
        "simd_matrix_fmadd16",
        "AGX2.xml describes no matrix multiply-add",
    ),
    ("async_store", "AGX2.xml describes no async copy"),
    ("async_load", "AGX2.xml describes no async copy"),
    (
        "stack_get_ptr",
        "AGX2.xml describes no stack pointer read (opcode 0x35 with bits 16:19 = 1)",
    ),
    (
        "TODO.after_sampling1",
        "an encoding applegpu saw but did not name",
    ),
    (
        "TODO.after_sampling2",
        "an encoding applegpu saw but did not name",
    ),
    ("TODO.unk30C0", "an encoding applegpu saw but did not name"),
    ("TODO.unk40C0", "an encoding applegpu saw but did not name"),
    (
        "TODO.unkC0000000",
        "an encoding applegpu saw but did not name",
    ),
    ("TODO.unk51", "an encoding applegpu saw but did not name"),
    ("TODO.unkE800", "an encoding applegpu saw but did not name"),
    ("TODO.unk0C00", "an encoding applegpu saw but did not name"),
    (
        "TODO.sr_thing",
        "get_sr's opcode with bit 15 set, which AGX2.xml's mfsr fixes to 0",
    ),
    (
        "TODO.pop_exec2",
        "pop_exec with bit 23 set, inside the bits AGX2.xml's pop_exec fixes to 0",
    ),
    (
        "TODO.unk75_alt",
        "map's opcode with other fixed bits; AGX2.xml has map and unmap only",
    ),
];

/// Where the two sources disagree, by the test's message, with the reason.
const DISAGREEMENTS: &[(&str, &str)] = &[(
    "stack_adjust: its fixed bits decode as stack_store",
    "applegpu's stack_store fixes only its opcode byte 0xb5 and comes first in the table, so \
     every stack_adjust (AGX2.xml: 0xb5 with bits 16 and 26 set and 36:38 = 010) decodes as \
     stack_store; TODO.stack_adjust and TODO.stack_adjust2 never match",
)];

/// Bits the table fixes inside fields of AGX2.xml: the rows (a trailing `*` a prefix), the
/// AGX2.xml instructions and fields (the start of their labels), why.
struct FixedField {
    rows: &'static [&'static str],
    agx2: &'static [&'static str],
    fields: &'static [&'static str],
    reason: &'static str,
}

const FIXED_FIELDS: &[FixedField] = &[
    FixedField {
        rows: &["mov_imm"],
        agx2: &["ldimm16", "ldimm32"],
        fields: &["dest:dest1"],
        reason: "applegpu tells its two mov_imm forms by the destination's 32-bit flag",
    },
    FixedField {
        rows: &[
            "icmp_ballot",
            "icmp_quad_ballot",
            "fcmp_ballot",
            "fcmp_quad_ballot",
        ],
        agx2: &["icmp_ballot", "fcmp_ballot"],
        fields: &["modifier:quad"],
        reason: "applegpu has a row for each of AGX2.xml's quad/simd modifier values",
    },
    FixedField {
        rows: &["simd_shuffle*", "quad_shuffle*"],
        agx2: &["shuffle"],
        fields: &["modifier:quad", "modifier:rotate", "modifier:op"],
        reason: "applegpu has a row per shuffle (quad or simd, rotate, direction)",
    },
    FixedField {
        rows: &["quad_*", "simd_*"],
        agx2: &["quad", "simd"],
        fields: &["modifier:prefix", "modifier:op"],
        reason: "applegpu has a row per reduction (operation, prefix or not)",
    },
    FixedField {
        rows: &["st_var", "st_var_final"],
        agx2: &["st_var"],
        fields: &["modifier:last"],
        reason: "applegpu has a row for the last varying store",
    },
    FixedField {
        rows: &["uniform_store"],
        agx2: &["uniform_store_unk"],
        fields: &["modifier:format"],
        reason: "applegpu's uniform_store fixes bit 9, the top bit of AGX2.xml's format (2 of \
                 its 4 bits are a field there)",
    },
    FixedField {
        rows: &["device_load", "device_store"],
        agx2: &["load", "store"],
        fields: &["modifier:coherency"],
        reason: "applegpu fixes the coherency bits (44:45) of the loads and stores it names; \
                 coherent ones decode as its .TODO forms",
    },
    FixedField {
        rows: &["TODO.stack_adjust", "TODO.stack_adjust2"],
        agx2: &["stack_adjust"],
        fields: &["src:memindex"],
        reason: "applegpu splits stack_adjust by its index's type bits (24:25): 01 an \
                 immediate (TODO.stack_adjust), 00 a register (TODO.stack_adjust2)",
    },
    FixedField {
        rows: &["image_write_block"],
        agx2: &["imgwblk"],
        fields: &["src(heap)"],
        reason: "applegpu fixes bits 48:52, AGX2.xml's bindless heap uniform, to 0",
    },
];

/// Every table row with its occurrence among rows of the same name.
fn numbered_rows() -> Vec<(&'static Row, usize)> {
    let mut seen = Vec::<&str>::new();
    rows()
        .iter()
        .map(|r| {
            let n = seen.iter().filter(|&&s| s == r.name).count();
            seen.push(r.name);
            (r, n)
        })
        .collect()
}

fn mapped(row: &Row, n: usize) -> Option<&'static [&'static str]> {
    MAPPING
        .iter()
        .find(|(name, k, _)| *name == row.name && *k == n)
        .map(|(_, _, a)| *a)
}

#[test]
fn every_instruction_is_paired_or_listed() {
    let agx = agx2();
    assert_eq!(agx.len(), 136, "AGX2.xml instructions (the TSV is fixed)");
    for (row, n) in numbered_rows() {
        let listed = UNMAPPED_ROWS.iter().any(|(r, _)| *r == row.name);
        assert!(
            mapped(row, n).is_some() != listed,
            "{} #{n}: paired and listed, or neither",
            row.name
        );
    }
    for (name, _, targets) in MAPPING {
        assert!(
            rows().iter().any(|r| r.name == *name),
            "{name}: no such row"
        );
        for t in *targets {
            assert!(agx.iter().any(|a| a.name == *t), "{t}: not in AGX2.xml");
        }
    }
    let paired: BTreeSet<&str> = MAPPING.iter().flat_map(|m| m.2.iter().copied()).collect();
    let unpaired: Vec<&str> = agx
        .iter()
        .map(|a| a.name.as_str())
        .filter(|n| !paired.contains(n))
        .collect();
    assert!(
        unpaired.is_empty(),
        "AGX2.xml instructions with no row: {unpaired:?}"
    );
}

/// AGX2.xml's fixed bits as an instruction: long when it fixes bits past the short length.
fn pattern(a: &Agx2) -> Vec<u8> {
    let [short, long] = a.sizes.map(usize::from);
    let mut word = a.bits;
    let len = if short != long && word >> (8 * short) != 0 {
        word |= 1 << a.lbit.expect("a length bit");
        long
    } else {
        short
    };
    word.to_le_bytes()[..len].to_vec()
}

#[test]
fn paired_forms_agree_on_lengths_and_opcode_bits() {
    let agx = agx2();
    let by_name = |n: &str| agx.iter().find(|a| a.name == n).expect("in AGX2.xml");
    let mut found = BTreeSet::new();
    for (row, n) in numbered_rows() {
        for &t in mapped(row, n).unwrap_or_default() {
            let a = by_name(t);
            if a.sizes != row.sizes {
                found.insert(format!(
                    "{} / {t}: lengths {:?} and {:?}",
                    row.name, row.sizes, a.sizes
                ));
            }
            if a.sizes[0] != a.sizes[1] && a.lbit != Some(row.l_bit) {
                found.insert(format!(
                    "{} / {t}: length bits {} and {:?}",
                    row.name, row.l_bit, a.lbit
                ));
            }
            let differ = (a.bits ^ row.bits) & a.mask & row.mask;
            if differ != 0 {
                found.insert(format!("{} / {t}: fixed bits {differ:#x} differ", row.name));
            }
        }
    }
    for a in &agx {
        let rows_of: Vec<&str> = MAPPING
            .iter()
            .filter(|m| m.2.contains(&a.name.as_str()))
            .map(|m| m.0)
            .collect();
        match frame(&pattern(a)) {
            Ok(f) if rows_of.contains(&f.row.name) => {}
            Ok(f) => {
                found.insert(format!(
                    "{}: its fixed bits decode as {}",
                    a.name, f.row.name
                ));
            }
            Err(e) => {
                found.insert(format!("{}: its fixed bits do not decode: {e}", a.name));
            }
        }
    }
    let listed: BTreeSet<String> = DISAGREEMENTS.iter().map(|d| d.0.to_string()).collect();
    assert_eq!(found, listed, "disagreements (listed: {DISAGREEMENTS:#?})");
    // Aliases are special cases of other AGX2.xml instructions; they are checked all the
    // same, and there are this many.
    assert_eq!(agx.iter().filter(|a| a.alias).count(), 7);
}

fn row_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

#[test]
fn table_constants_inside_agx2_fields_are_listed() {
    let agx = agx2();
    let mut used = BTreeSet::new();
    let mut unlisted = Vec::new();
    for (row, n) in numbered_rows() {
        for &t in mapped(row, n).unwrap_or_default() {
            let a = agx.iter().find(|a| a.name == t).expect("in AGX2.xml");
            for (field, bits) in &a.fields {
                if !bits.iter().any(|&b| row.mask >> b & 1 != 0) {
                    continue;
                }
                let entry = FIXED_FIELDS.iter().position(|e| {
                    e.rows.iter().any(|p| row_matches(p, row.name))
                        && e.agx2.contains(&t)
                        && e.fields.iter().any(|f| field.starts_with(f))
                });
                match entry {
                    Some(k) => {
                        used.insert(k);
                    }
                    None => unlisted.push(format!("{} / {t}: {field}", row.name)),
                }
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "table constants in AGX2.xml fields: {unlisted:#?}"
    );
    let unused: Vec<&str> = FIXED_FIELDS
        .iter()
        .enumerate()
        .filter(|(k, _)| !used.contains(k))
        .map(|(_, e)| e.reason)
        .collect();
    assert!(unused.is_empty(), "entries no pair needs: {unused:#?}");
}
