//! MTBUF typed formats with 8- and 16-bit components: loads with the number format's
//! conversion and element-wise range checks, and narrow integer stores, which saturate to the
//! field (D3D10 integer conversion rules; see wavejit_ir::format). Expected values follow CLRX
//! doc/GcnInstrsMtbuf.md and GcnMemHandling.md, computed on the host (IEEE half to single
//! conversion written out below).
mod lift_common;
mod lift_programs;

use lift_common::*;
use lift_programs as p;
use wavejit_gcn::Gen;

/// IEEE binary16 to binary32 (exact).
fn half_to_f32(h: u16) -> f32 {
    let sign = (h as u32 & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = h as u32 & 0x3ff;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value m * 2^-24.
            let v = m as f32 * (-24f32).exp2();
            return if sign != 0 { -v } else { v };
        }
        (0x1f, m) => sign | 0x7f80_0000 | m << 13,
        (e, m) => sign | (e as u32 + 112) << 23 | m << 13,
    };
    f32::from_bits(bits)
}

#[test]
fn mtbuf_narrow_formats_gfx9() {
    let byte = |i: usize| (i as u32).wrapping_mul(0x9e37_79b9).rotate_left(7) as u8;
    let mut data: Vec<u8> = (0..1024).map(byte).collect();
    // Halves at 512..768: a mix of normals, subnormals, infinities and zeros.
    let halves = [
        0x3c00u16, 0xc000, 0x0001, 0x03ff, 0x7c00, 0xfc00, 0x8000, 0x7bff,
    ];
    for k in 0..128 {
        let h = halves[k % halves.len()] ^ (k as u16 & 0x0300);
        data[512 + 2 * k..514 + 2 * k].copy_from_slice(&h.to_le_bytes());
    }
    let mut w = Wave::new();
    let src = w.buffer(&data);
    let dst = w.buffer(&[0u8; 1024]);
    let vsharp = |w: &mut Wave, s: u32, base: u64, num: u32| {
        w.set_s(s, base as u32);
        w.set_s(s + 1, (base >> 32) as u32 & 0xffff);
        w.set_s(s + 2, num);
        w.set_s(s + 3, 0);
    };
    vsharp(&mut w, 4, src, 1000);
    vsharp(&mut w, 8, dst, 1024);
    w.set_v_all(2, |l| 4 * l);
    w.set_v_all(14, |l| 0x1234_5600 | l);
    w.set_v_all(15, |l| 0xffff_ff80 ^ l);
    w.set_v_all(16, |l| (-(l as i32) * 1000) as u32);
    w.lift_run(p::MTBUF_FORMATS_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let in_range = |at: u32| at < 1000;
    let b = |at: u32| if in_range(at) { data[at as usize] } else { 0 };
    let h = |at: u32| {
        if in_range(at) {
            u16::from_le_bytes([data[at as usize], data[at as usize + 1]])
        } else {
            0
        }
    };
    let out = {
        let mut v = vec![0u8; 1024];
        w.mem.read_bytes(dst, &mut v).expect("read");
        v
    };
    for l in 0..64u32 {
        let o = 4 * l;
        for c in 0..2 {
            assert_eq!(
                w.v(c, l),
                h(o + 2 * c) as i16 as i32 as u32,
                "16_16 SINT lane {l}.{c}"
            );
            let f = half_to_f32(h(512 + o + 2 * c));
            assert_eq!(w.v(8 + c, l), f.to_bits(), "16_16 FLOAT lane {l}.{c}");
        }
        for c in 0..4 {
            let f = b(256 + o + c) as f32;
            assert_eq!(w.v(4 + c, l), f.to_bits(), "8_8_8_8 USCALED lane {l}.{c}");
        }
        for c in 0..3 {
            let f = b(768 + o + c) as i8 as f32;
            assert_eq!(w.v(10 + c, l), f.to_bits(), "8_8_8_8 SSCALED lane {l}.{c}");
        }
        let i = o as usize;
        // 0x1234_56xx and 0xffff_ffxx are above 255: both saturate.
        assert_eq!(out[i], 255, "8_8 UINT store x lane {l}");
        assert_eq!(out[i + 1], 255, "8_8 UINT store y lane {l}");
        let s = i16::from_le_bytes([out[256 + i], out[257 + i]]);
        let want = (-(l as i32) * 1000).max(i16::MIN as i32) as i16;
        assert_eq!(s, want, "16 SINT store lane {l}");
    }
}
