//! The assembler on llc-14's own listings: every function of every vector file assembles back
//! to the bytes llc emitted for it, and decode -> print -> assemble reproduces those bytes.
use wavejit_terascale::asm::assemble;
use wavejit_terascale::{decode_program, print_program};

#[path = "isa_vectors.rs"]
#[allow(dead_code)]
mod vectors;

#[test]
fn llc_listings_assemble_to_llc_bytes() {
    let all = vectors::vectors();
    assert!(all.len() >= 50, "expected the checked-in vectors");
    let mut failures = Vec::new();
    for f in &all {
        let text = listing_with_dword64_masks(f);
        match assemble(f.chip.class(), &text) {
            Ok(bytes) if bytes == f.bytes => {}
            Ok(bytes) => failures.push(format!(
                "{} {}: {} bytes differ from llc's {}",
                f.file,
                f.name,
                bytes.len(),
                f.bytes.len()
            )),
            Err(e) => failures.push(format!("{} {}: {e}", f.file, f.name)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} functions:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// llc's listing, except that LLVM prints the 64- and 128-bit STORE_DWORD alike: a CF line
/// whose llc bytes carry COMP_MASK 3 (dword 1 bits `[15:12]`) gets the `COMP_MASK:3` token the
/// printer adds for it (the one documented addition to LLVM's text, print.rs).
fn listing_with_dword64_masks(f: &vectors::Function) -> String {
    let mut lines = f.lines.clone();
    for (k, line) in lines.iter_mut().enumerate() {
        let Some(word) = f.bytes.get(k * 8..k * 8 + 8) else {
            break;
        };
        let w1 = u32::from_le_bytes([word[4], word[5], word[6], word[7]]);
        let rw = line
            .split("STORE_DWORD ")
            .nth(1)
            .and_then(|r| r.split(',').next());
        if rw.is_some_and(|r| !r.ends_with(".X")) && (w1 >> 12) & 0xf == 3 {
            line.push_str(" COMP_MASK:3");
        }
    }
    lines.join("\n")
}

#[test]
fn printed_vectors_assemble_to_their_bytes() {
    for f in vectors::vectors() {
        let p = decode_program(f.chip.class(), &f.bytes).unwrap();
        let text = print_program(&p).join("\n");
        let bytes = assemble(f.chip.class(), &text)
            .unwrap_or_else(|e| panic!("{} {}: {e}\n{text}", f.file, f.name));
        assert_eq!(bytes, f.bytes, "{} {}", f.file, f.name);
    }
}
