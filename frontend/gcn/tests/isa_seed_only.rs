//! VOP3 rows that seed 002 (CLRX's VOP3 list) documents but LLVM 14 lacks, so no llvm-mc
//! vector exists for them (they are listed in tests/vectors/gfxN.uncovered). The bytes here are
//! packed by hand from the VOP3A field table of seed 002 (GCN 1.0/1.1: OPCODE `[25:17]`, GCN
//! 1.2/1.4: OPCODE `[25:16]`; ENCODING `[31:26]` = 0b110100; SRC0/1/2 at `[40:32]`/`[49:41]`/`[58:50]`,
//! VGPR n = 256 + n), then decoded, printed, and assembled back to the same bytes.
use wavejit_gcn::{assemble, decode, print, Gen};

/// A VOP3A instruction with VGPR operands and no modifiers.
fn vop3a(gen: Gen, opcode: u32, vdst: u32, srcs: [u32; 3]) -> Vec<u8> {
    let op_shift = if matches!(gen, Gen::Gfx6 | Gen::Gfx7) {
        17
    } else {
        16
    };
    let w0 = 0b110100 << 26 | opcode << op_shift | vdst;
    let w1 = (256 + srcs[0]) | (256 + srcs[1]) << 9 | srcs[2] << 18;
    [w0.to_le_bytes(), w1.to_le_bytes()].concat()
}

fn round_trip(gen: Gen, bytes: &[u8], text: &str) {
    let inst = decode(gen, bytes, 0).unwrap_or_else(|e| panic!("{gen:?} `{text}`: {e}"));
    assert_eq!(inst.len as usize, bytes.len(), "{gen:?} `{text}`");
    assert_eq!(print(&inst), text, "{gen:?}");
    assert_eq!(assemble(gen, text).unwrap(), bytes, "{gen:?} `{text}`");
}

/// V_MAC_LEGACY_F32, VOP3 opcode 654 on GCN 1.2/1.4 (gfx8, gfx9): two sources, reads VDST.
#[test]
fn mac_legacy_f32_gfx8_gfx9() {
    for gen in [Gen::Gfx8, Gen::Gfx9] {
        let bytes = vop3a(gen, 654, 10, [1, 2, 0]);
        assert_eq!(bytes, [0x0a, 0x00, 0x8e, 0xd2, 0x01, 0x05, 0x02, 0x00]);
        round_trip(gen, &bytes, "v_mac_legacy_f32 v10, v1, v2");
    }
}

/// V_QSAD_U8, VOP3 opcode 370 on GCN 1.0 (gfx6): 64-bit VDST, SRC0 and SRC2.
#[test]
fn qsad_u8_gfx6() {
    let src2 = 256 + 4;
    let bytes = vop3a(Gen::Gfx6, 370, 10, [1, 3, src2]);
    assert_eq!(bytes, [0x0a, 0x00, 0xe4, 0xd2, 0x01, 0x07, 0x12, 0x04]);
    round_trip(Gen::Gfx6, &bytes, "v_qsad_u8 v[10:11], v[1:2], v3, v[4:5]");
}
