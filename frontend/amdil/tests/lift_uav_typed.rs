//! Typed UAVs (`dcl_uav`, `uav_load`, `uav_store`) on both engines: the view cells of the
//! launch give the place, the extents, the pitches and the element format as an IR format
//! code; the expected values come from the conversion rules written here (D3D's UNORM rules,
//! the IR format module's documented ones) and the code from the documented code layout.

mod lift_common;
use lift_common::*;
use wavejit_amdil::lift::state::{view, View};

/// A format code by the documented layout (`wavejit_ir::format`, "Codes"): selects x, y, z, w
/// in bits 2:0 .. 11:9, the number format in 14:12, the data format in 19:15.
fn code(data: u32, num: u32, sel: [u32; 4]) -> u32 {
    sel[0] | sel[1] << 3 | sel[2] << 6 | sel[3] << 9 | num << 12 | data << 15
}

/// Data formats 8_8_8_8 (10) and 32 (4); number formats unorm (0) and uint (4).
const RGBA8_UNORM: (u32, u32) = (10, 0);
const R32_UINT: (u32, u32) = (4, 4);
const XYZW: [u32; 4] = [0, 1, 2, 3];

/// The cells of a typed view.
fn cells(offset: u32, extents: [u32; 3], pitches: [u32; 3], format: u32) -> Vec<(u32, u32)> {
    vec![
        (view::OFFSET, offset),
        (view::SIZE, extents[0]),
        (view::HEIGHT, extents[1]),
        (view::DEPTH, extents[2]),
        (view::ELEMENT_BYTES, pitches[0]),
        (view::ROW_PITCH, pitches[1]),
        (view::SLICE_PITCH, pitches[2]),
        (view::FORMAT, format),
    ]
}

#[test]
fn a_2d_unorm_load_converts_each_byte_and_reads_0_out_of_range() {
    // 4 x 3 RGBA8 texels at arena byte 32, rows 20 bytes apart; lane l reads (l % 5, l / 5):
    // x = 4 or y >= 3 is out of range. The fmtx says uint; the binding's format decides.
    let text = "il_cs_2_0
dcl_uav_id(2)_fmtx(uint)_type(2d)
uav_load_id(2) r1, r0.xy
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let (d, n) = RGBA8_UNORM;
    l.set_view(
        View::Uav(2),
        &cells(32, [4, 3, 1], [4, 20, 0], code(d, n, XYZW)),
    );
    let arena: Vec<u32> = (0..40u32)
        .map(|i| 0x01ff_8000u32.rotate_left(3 * i) ^ (i * 0x0102_0304))
        .collect();
    let bytes: Vec<u8> = arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| lane % 5);
    l.set_r(0, 1, |lane| lane / 5);
    let d = l.go();
    for lane in 0..64u32 {
        let (x, y) = (lane % 5, lane / 5);
        for c in 0..4 {
            let want = if x < 4 && y < 3 {
                let b = bytes[(32 + 20 * y + 4 * x) as usize + c as usize];
                ((f64::from(b) / 255.0) as f32).to_bits()
            } else {
                0
            };
            assert_eq!(d.r(1, c, lane), want, "lane {lane} component {c}");
        }
    }
}

#[test]
fn a_2d_unorm_store_clamps_rounds_and_drops_out_of_range() {
    // Lane l writes the float4 r1 to texel (l % 4, l / 4) of a 4 x 3 view; lanes 12+ are past
    // the height; lane 5 is inactive.
    let text = "il_cs_2_0
dcl_uav_id(0)_fmtx(float)_type(2d)
uav_store_id(0) r0.xy, r1
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let (d, n) = RGBA8_UNORM;
    l.set_view(
        View::Uav(0),
        &cells(16, [4, 3, 1], [4, 16, 0], code(d, n, XYZW)),
    );
    let arena = vec![0x7f7f_7f7fu32; 24];
    l.set_arena(&arena);
    l.set_exec(!(1 << 5));
    const F: [f32; 8] = [-0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 0.998, f32::NAN];
    l.set_r(0, 0, |lane| lane % 4);
    l.set_r(0, 1, |lane| lane / 4);
    for c in 0..4 {
        l.set_r(1, c, move |lane| F[(lane + 3 * c) as usize % 8].to_bits());
    }
    let d = l.go();
    let mut want: Vec<u8> = arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    for lane in (0..12u32).filter(|&n| n != 5) {
        let (x, y) = (lane % 4, lane / 4);
        for c in 0..4 {
            let v = F[(lane + 3 * c) as usize % 8];
            let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
            want[(16 + 16 * y + 4 * x + c) as usize] =
                (f64::from(v) * 255.0).round_ties_even() as u8;
        }
    }
    let got: Vec<u8> = d.arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(got, want);
}

#[test]
fn buffers_and_3d_views_address_by_their_coordinates() {
    // A buffer of 6 R32 UINT elements (one coordinate: src0.y is ignored; a one-component
    // format reads 0 in y and z and 1 in w) and a 2 x 2 x 2 3d view whose rows are 12 bytes
    // and slices 32 bytes apart. Each lane loads both and stores l into the 3d element
    // (l % 2, l / 2 % 2, l / 4) through a second id on the same bytes: lanes 8+ are past the
    // depth.
    let text = "il_cs_2_0
dcl_uav_id(1)_fmtx(uint)_type(buffer)
dcl_uav_id(3)_fmtx(uint)_type(3d)
dcl_uav_id(4)_fmtx(uint)_type(3d)
uav_load_id(1) r1, r0.xw
uav_load_id(3) r2.x___, r0.yzw
uav_store_id(4) r0.yzw, r3.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let (d, n) = R32_UINT;
    let f = code(d, n, XYZW);
    l.set_view(View::Uav(1), &cells(0, [6, 0, 0], [4, 0, 0], f));
    l.set_view(View::Uav(3), &cells(64, [2, 2, 2], [4, 12, 32], f));
    l.set_view(View::Uav(4), &cells(64, [2, 2, 2], [4, 12, 32], f));
    let arena: Vec<u32> = (0..40).map(|i| 0x4000 + i).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| lane % 8);
    l.set_r(0, 1, |lane| lane % 2);
    l.set_r(0, 2, |lane| lane / 2 % 2);
    l.set_r(0, 3, |lane| lane / 4);
    l.set_r(3, 0, |lane| 0x900 + lane);
    let d = l.go();
    let mut want = arena.clone();
    for lane in 0..64u32 {
        let x = lane % 8;
        let b = if x < 6 {
            [arena[x as usize], 0, 0, 1]
        } else {
            [0; 4]
        };
        assert_eq!(
            [0, 1, 2, 3].map(|c| d.r(1, c, lane)),
            b,
            "buffer, lane {lane}"
        );
        let (x, y, z) = (lane % 2, lane / 2 % 2, lane / 4);
        let w = (64 + 4 * x + 12 * y + 32 * z) as usize / 4;
        let v = if z < 2 { arena[w] } else { 0 };
        assert_eq!(d.r(2, 0, lane), v, "3d, lane {lane}");
        if z < 2 {
            want[w] = 0x900 + lane;
        }
    }
    assert_eq!(d.arena, want);
}

#[test]
fn typed_uavs_need_a_typed_declaration_and_a_lifted_dimension() {
    let refused = |body: &str| {
        Kernel::try_new(&format!("il_cs_2_0\n{body}end\n"))
            .err()
            .unwrap()
    };
    let e = refused("dcl_raw_uav_id(1)\nuav_load_id(1) r0, r1\n");
    assert!(e.contains("UAV 1 is not declared typed"), "{e}");
    let e = refused("dcl_uav_id(1)_fmtx(float)_type(cubemap)\n");
    assert!(e.contains("dimension cubemap"), "{e}");
    let e = refused("dcl_uav_id(1)_fmtx(float)_type(2d)\nuav_raw_load_id(1) r0, r1.x\n");
    assert!(e.contains("UAV 1 is not declared raw"), "{e}");
}
