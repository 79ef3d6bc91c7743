//! The extracted encodings are whole programs: every SI ISA encoding decodes with the project's
//! GCN gfx6 decoder from its first byte to its last, without an unknown opcode, ending with
//! `s_endpgm`; every Evergreen one decodes with the TeraScale decoder (Evergreen class, the
//! Cypress column); and the opcodes kernels.tsv lists per kernel (DS, fp64 and atomic
//! instructions, `s_barrier` count) are the ones decoded. Every IL encoding is a stream of
//! 32-bit tokens ending with IL_OP_END (40), checked by raw token inspection.

mod appsdk_common;

use appsdk_common::{corpus, dwords, kernels_tsv, read};
use std::collections::BTreeSet;
use wavejit_amdil::appsdk::{self, Family};
use wavejit_gcn::{decode, print, Gen};
use wavejit_terascale::decode::AMD_FETCH_FILLER;
use wavejit_terascale::inst::ClauseBody;
use wavejit_terascale::{decode_program, ChipClass};

/// The gfx6 mnemonics of an SI ISA encoding, in order, decoded from its first byte to its last.
fn si_mnemonics(id: &str, code: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < code.len() {
        match decode(Gen::Gfx6, code, at) {
            Ok(inst) => {
                let text = print(&inst);
                let name = text.split_whitespace().next().unwrap_or_default();
                // The listing names VOP instructions without LLVM's encoding suffix.
                let name = name.trim_end_matches("_e32").trim_end_matches("_e64");
                out.push(name.to_string());
                at += inst.len as usize;
            }
            Err(e) => panic!("{id}: {e}"),
        }
    }
    out
}

#[test]
fn isa_encodings_decode() {
    let Some(files) = corpus() else { return };
    let (mut si, mut evergreen) = (0, 0);
    let mut mimg_kernels = Vec::new();
    let mut fillers = Vec::new();
    for (path, bytes) in &files {
        let b = appsdk::load(bytes).unwrap();
        for k in &b.kernels {
            let id = format!("{path} {}", k.name);
            let code = &k.isa().text;
            match b.chip.family() {
                Family::SouthernIslands => {
                    let m = si_mnemonics(&id, code);
                    assert_eq!(m.last().map(String::as_str), Some("s_endpgm"), "{id}");
                    let images = k.metadata.args.iter().any(|a| a.kind_name() == "image");
                    if m.iter().any(|n| n.starts_with("image_")) {
                        mimg_kernels.push(k.name.clone());
                        assert!(images, "{id}: MIMG without an image argument");
                    }
                    si += 1;
                }
                Family::Evergreen => {
                    let (p, filled) = decode_evergreen(&id, code);
                    assert!(!p.cf.is_empty() && !p.clauses.is_empty(), "{id}");
                    fillers.push((k.name.clone(), filled));
                    evergreen += 1;
                }
            }
        }
    }
    assert_eq!((si, evergreen), (56, 2));
    // Exactly the kernels that take images use MIMG (§4).
    assert_eq!(
        mimg_kernels,
        [
            "mmmKernel",
            "mmmKernel2",
            "mmmKernel3",
            "image2dCopy",
            "image3dCopy"
        ]
    );
    // Each Evergreen program has two VTX fetches, both with the 0x0DEADFEC filler.
    assert_eq!(
        fillers,
        [("matrix_mul".to_string(), 2), ("vector_add".to_string(), 2)]
    );
}

/// AMD's compiler fills the unused fourth dword of every 128-bit fetch instruction with
/// 0x0DEADFEC, where LLVM writes 0; the TeraScale decoder takes it as it takes 0. Decodes
/// `code` and counts the fillers: the fourth dwords of the fetch clauses' 16-byte words.
fn decode_evergreen(id: &str, code: &[u8]) -> (wavejit_terascale::Program, usize) {
    let p = decode_program(ChipClass::Evergreen, code).unwrap_or_else(|e| panic!("{id}: {e}"));
    let filled = p
        .clauses
        .iter()
        .filter_map(|c| match &c.body {
            ClauseBody::Fetch(f) => Some((c.addr as usize, f.len())),
            _ => None,
        })
        .flat_map(|(addr, n)| (0..n).map(move |i| addr * 8 + 16 * i + 12))
        .filter(|&d| code.get(d..d + 4).map(|w| dwords(w)[0]) == Some(AMD_FETCH_FILLER))
        .count();
    (p, filled)
}

/// The opcode columns of kernels.tsv: `ds_ops` (distinct `ds_*`), `fp64_ops` (distinct
/// mnemonics naming f64), `atomics` (distinct atomic instructions), `s_barrier_count`.
#[test]
fn kernels_tsv_opcode_columns() {
    let (Some(_), Some(rows)) = (corpus(), kernels_tsv()) else {
        return;
    };
    for row in &rows {
        let id = row.id();
        let b = appsdk::load(&read(&row.path())).unwrap();
        let k = b.kernel(row.get("kernel")).unwrap();
        let m = si_mnemonics(&id, &k.isa().text);
        let set = |keep: &dyn Fn(&str) -> bool| {
            let s: BTreeSet<&str> = m.iter().map(String::as_str).filter(|n| keep(n)).collect();
            if s.is_empty() {
                "-".to_string()
            } else {
                s.into_iter().collect::<Vec<_>>().join(",")
            }
        };
        assert_eq!(row.get("ds_ops"), set(&|n| n.starts_with("ds_")), "{id}");
        assert_eq!(row.get("fp64_ops"), set(&|n| n.contains("f64")), "{id}");
        let atomic = |n: &str| {
            n.contains("atomic")
                || (n.starts_with("ds_") && !n.starts_with("ds_read") && !n.starts_with("ds_write"))
        };
        assert_eq!(row.get("atomics"), set(&atomic), "{id}");
        let barriers = m.iter().filter(|n| *n == "s_barrier").count();
        assert_eq!(row.get("s_barrier_count"), barriers.to_string(), "{id}");
    }
}

/// IL_OP_END.
const IL_OP_END: u32 = 40;
/// IL_OP_MACRODEF (`mdef`) and IL_OP_MACROEND (`mend`), il_opcodes.tsv rows 345 and 346.
const IL_OP_MACRODEF: u32 = 345;
const IL_OP_MACROEND: u32 = 346;

/// Every IL encoding is a whole number of tokens ending with IL_OP_END (control 0). The brief
/// expected the stream to begin with the IL_Lang token; in every kernel of the corpus it
/// begins instead with AMD's divide macro, `mdef(16383)` (0x3FFF0159, il_sources.md "source
/// B"), whose `mend` is token 18; IL_Lang (client type 0) is token 19 and IL_Version 0x00030200
/// (IL 2.0, shader type 3 = compute, il_map.md §2) token 20.
#[test]
fn il_encodings_are_token_streams() {
    let Some(files) = corpus() else { return };
    let mut n = 0;
    for (path, bytes) in &files {
        let b = appsdk::load(bytes).unwrap();
        for k in &b.kernels {
            let id = format!("{path} {}", k.name);
            let il = k.il().unwrap_or_else(|| panic!("{id}: no IL"));
            let t = dwords(&il.text);
            assert_eq!(t[0] & 0xffff, IL_OP_MACRODEF, "{id}");
            assert_eq!(
                t[0] >> 16,
                0x3FFF,
                "{id}: the macro's number in the control field"
            );
            assert_eq!(t[18], IL_OP_MACROEND, "{id}");
            assert_eq!(t[19], 0, "{id}: IL_Lang");
            assert_eq!(t[20], 0x0003_0200, "{id}: IL_Version");
            assert_eq!(t.last(), Some(&IL_OP_END), "{id}");
            // The metadata is embedded in the stream as IL comments, one per line without its
            // ';' (§2.4).
            let text = String::from_utf8_lossy(&il.text);
            for line in k.metadata.text.lines() {
                let line = line.trim_start_matches(';');
                assert!(text.contains(&format!("{line}\0")), "{id}: {line}");
            }
            n += 1;
        }
    }
    assert_eq!(n, 58);
}
