//! MIMG words the vectors cannot hold: LLVM 14's assembler rejects them, its disassembler
//! takes or refuses them. Expected texts are `llvm-mc-14 --disassemble` output for the bytes
//! given (tonga / gfx900), and the lifter's refusal of images.
use wavejit_gcn::lift::{lift, LiftConfig};
use wavejit_gcn::{assemble, decode, print, DecodeError, Gen};
use wavejit_isa::{LiftError, LiftErrorKind};

/// MIMG fields as the ISA lays them out (CLRX GcnInstrsMimg.md): op, dmask, tfe, d16,
/// vaddr v4, vdata v0, srsrc s[8:15], ssamp s[ssamp*4..].
fn word(op: u32, dmask: u32, tfe: bool, d16: bool, ssamp: u32) -> Vec<u8> {
    let d0 = 0xf000_0000 | op << 18 | dmask << 8 | (tfe as u32) << 16;
    let d1 = 4 | 2 << 16 | ssamp << 21 | (d16 as u32) << 31;
    [d0.to_le_bytes(), d1.to_le_bytes()].concat()
}

/// Where no form of the computed data width exists, LLVM keeps the width it decoded (the
/// row's `Vdata` slot), so the register range disagrees with dmask/tfe.
#[test]
fn vdata_falls_back_to_the_decoded_form() {
    for (gen, bytes, want) in [
        // 3 components: atomics have 1 and 2 register forms.
        (
            Gen::Gfx8,
            word(16, 7, false, false, 0),
            "image_atomic_swap v0, v4, s[8:15] dmask:0x7",
        ),
        (
            Gen::Gfx8,
            word(16, 5, false, false, 0),
            "image_atomic_swap v[0:1], v4, s[8:15] dmask:0x5",
        ),
        // 4 + tfe: cmpswap has 2 and 4 register forms.
        (
            Gen::Gfx9,
            word(17, 15, true, false, 0),
            "image_atomic_cmpswap v[0:1], v4, s[8:15] dmask:0xf tfe",
        ),
        (
            Gen::Gfx9,
            word(17, 0, false, false, 0),
            "image_atomic_cmpswap v[0:1], v4, s[8:15]",
        ),
        // Packed d16 gather4 with tfe: 2 + 1, no 3-register gather4.
        (
            Gen::Gfx9,
            word(64, 3, true, true, 0),
            "image_gather4 v[0:3], v4, s[8:15], s[0:3] dmask:0x3 tfe d16",
        ),
        (
            Gen::Gfx9,
            word(64, 15, false, true, 0),
            "image_gather4 v[0:1], v4, s[8:15], s[0:3] dmask:0xf d16",
        ),
        // gfx8 (tonga) keeps d16 unpacked.
        (
            Gen::Gfx8,
            word(64, 3, true, true, 0),
            "image_gather4 v[0:4], v4, s[8:15], s[0:3] dmask:0x3 tfe d16",
        ),
        (
            Gen::Gfx9,
            word(0, 15, true, true, 0),
            "image_load v[0:2], v4, s[8:15] dmask:0xf tfe d16",
        ),
        (
            Gen::Gfx8,
            word(0, 15, true, true, 0),
            "image_load v[0:4], v4, s[8:15] dmask:0xf tfe d16",
        ),
    ] {
        let inst = decode(gen, &bytes, 0).unwrap_or_else(|e| panic!("{want}: {e}"));
        assert_eq!(print(&inst), want);
        assert_eq!(wavejit_gcn::encode::encode(&inst).unwrap(), bytes, "{want}");
    }
}

/// LLVM 14's disassembler answers "invalid instruction encoding" for a sampler on a row
/// without one and for d16 where the row has none; gfx6/gfx7 have no d16 bit at all.
#[test]
fn invalid_fields_are_refused() {
    for (gen, bytes) in [
        (Gen::Gfx8, word(0, 15, false, false, 4)),
        (Gen::Gfx9, word(14, 1, false, true, 0)),
        (Gen::Gfx9, word(17, 3, false, true, 0)),
        (Gen::Gfx6, word(0, 1, false, true, 0)),
        (Gen::Gfx7, word(32, 1, false, true, 1)),
    ] {
        assert!(
            matches!(decode(gen, &bytes, 0), Err(DecodeError::Invalid { .. })),
            "{gen:?} {bytes:02x?}"
        );
    }
    // Bits 15 are r128 before gfx9 and a16 on gfx9, and the assembler keeps them apart.
    assert!(assemble(Gen::Gfx9, "image_load v0, v4, s[8:15] dmask:0x1 r128").is_err());
    assert!(assemble(Gen::Gfx8, "image_load v0, v4, s[8:15] dmask:0x1 a16").is_err());
    assert!(assemble(Gen::Gfx7, "image_load v0, v4, s[8:15] dmask:0x1 d16").is_err());
    // Descriptors are SGPR quads.
    assert!(assemble(Gen::Gfx6, "image_load v0, v4, s[9:16] dmask:0x1").is_err());
    assert!(assemble(
        Gen::Gfx6,
        "image_sample v0, v4, s[8:15], s[18:21] dmask:0x1"
    )
    .is_err());
}

/// Images are not modelled: the lifter refuses the first MIMG instruction with one line that
/// names it.
#[test]
fn lifter_refuses_images() {
    for gen in [Gen::Gfx6, Gen::Gfx9] {
        let code = assemble(
            gen,
            "image_sample v[2:5], v2, s[16:23], s[4:7] dmask:0xf unorm\ns_endpgm",
        )
        .unwrap();
        let cfg = LiftConfig::from_rsrc1(gen, 0, 0, "k");
        let err = lift(&code, &cfg).unwrap_err();
        assert!(
            matches!(
                err,
                LiftError {
                    kind: LiftErrorKind::Unsupported,
                    pc: 0,
                    ..
                }
            ),
            "{err:?}"
        );
        let line = err.to_string();
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.contains("image_sample v[2:5], v2, s[16:23], s[4:7] dmask:0xf unorm"),
            "{line}"
        );
        assert!(line.contains("images (MIMG) are not modelled"), "{line}");
    }
}
