//! Mesa's single-instruction vectors (shared/corpora/g13/mesa-isa-cases.txt, read where CI
//! has it, beside the clone): every line's bytes, followed by Mesa's junk pattern, frame as
//! one instruction of exactly the line's length. The vectors come from Mesa's own encoder
//! tables (AGX2.xml), independent of applegpu.py, which the table was generated from.

use std::path::PathBuf;
use wavejit_g13::frame;

fn corpus() -> Option<(PathBuf, String)> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/g13/mesa-isa-cases.txt");
    std::fs::read_to_string(&p).ok().map(|t| (p, t))
}

#[test]
fn every_mesa_vector_frames_at_its_length() {
    let Some((path, text)) = corpus() else {
        eprintln!(
            "NOT RUN: Mesa's G13 vectors are absent (expected at \
             ../shared/corpora/g13/mesa-isa-cases.txt beside the clone)"
        );
        return;
    };
    let junk = [0xca, 0xfe, 0xba, 0xbe].repeat(4);
    let mut framed = 0;
    let mut bad = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(hex) = line.split_whitespace().next() else {
            continue;
        };
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
            .collect();
        let mut input = bytes.clone();
        input.extend_from_slice(&junk);
        match frame(&input) {
            Ok(f) if f.len == bytes.len() => framed += 1,
            Ok(f) => bad.push(format!(
                "line {}: {line}: framed as {} of {} bytes",
                n + 1,
                f.row.name,
                f.len
            )),
            Err(e) => bad.push(format!("line {}: {line}: {e}", n + 1)),
        }
    }
    assert!(bad.is_empty(), "{}:\n{}", path.display(), bad.join("\n"));
    assert_eq!(
        framed,
        555,
        "{}: the copy described in its README",
        path.display()
    );
}
