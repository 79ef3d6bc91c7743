//! GATHER4, GATHER4_C, and GATHER4_O/GATHER4_C_O after SET_TEXTURE_OFFSETS, on both engines
//! and both chip classes (lift/tex/gather.rs): every component, the per-class result order,
//! the point-sampled footprint of INT formats, and whole-texel GPR offsets that replace the
//! instruction's OFFSET fields. Expected values: tex_common's host sampler, with the result
//! order derived from OpenGL's and the DST_SEL Mesa programs to restore it
//! ([`gather_corners`]).
mod tex_common;

use tex_common::*;
use wavejit_terascale::tables::FetchOp;
use wavejit_terascale::ChipClass;

/// A FMT_32_32_32_32_FLOAT texture: component `c` of texel (x, y, z) is
/// `tex_value(x, y, z) + 0.25 c`.
fn rgba(levels: &[HostLevel]) -> Vec<u8> {
    let lv = &levels[0];
    let mut out = vec![0u8; levels_bytes(levels, 16)];
    for z in 0..lv.slices {
        for y in 0..lv.rows {
            for x in 0..lv.pitch {
                for c in 0..4 {
                    let v = tex_value(x, y, z) + 0.25 * c as f32;
                    let at = (((z * lv.rows + y) * lv.pitch + x) * 16 + 4 * c) as usize;
                    out[at..at + 4].copy_from_slice(&v.to_bits().to_le_bytes());
                }
            }
        }
    }
    out
}

/// The four components of texel `i` of a 16-byte-per-texel level 0.
fn rgba_elem(data: &[u8], lv: &HostLevel, [x, y, z]: [i64; 3]) -> [u32; 4] {
    let at = (((z * lv.rows as i64 + y) * lv.pitch as i64 + x) * 16) as usize;
    [0, 1, 2, 3].map(|c| u32::from_le_bytes(data[at + 4 * c..at + 4 * c + 4].try_into().unwrap()))
}

/// GATHER4's expected result: component `sel` (a resource DST_SEL) of the corners in
/// `class`'s order, compared with `reference` for the _C forms.
fn want_gather(
    x: &Sample,
    axes: &[([i64; 2], [bool; 2], f32, bool)],
    class: ChipClass,
    sel: u32,
    reference: Option<f32>,
) -> [u32; 4] {
    gather_corners(class).map(|corner| {
        let v = x.corner(axes, 0, corner);
        let g = match sel {
            k @ 0..=3 => v[k as usize],
            4 => 0,
            _ => ONE,
        };
        match reference {
            Some(r) => host_compare(r, 6, g),
            None => g,
        }
    })
}

const RGBA: Desc = Desc {
    w: 5,
    h: 4,
    pitch: 8,
    fmt: 35,
    dst_sel: [2, 0, 5, 4],
    ..D2
};

#[test]
fn gather4_returns_one_component_of_the_bilinear_footprint() {
    let d = RGBA;
    let levels = host_levels(&d, 16);
    let data = rgba(&levels);
    let elem = |_: usize, i: [i64; 3]| rgba_elem(&data, &levels[0], i);
    for class in ChipClass::ALL {
        for compare in [false, true] {
            for inst_mod in 0..4 {
                for clamp in [[0, 1, 0], [6, 7, 0]] {
                    let op = if compare {
                        FetchOp::TEX_GATHER4_C
                    } else {
                        FetchOp::TEX_GATHER4
                    };
                    let t = Tex {
                        inst_mod,
                        offset: [1, -3, 0],
                        ..tex(op)
                    };
                    let s = Samp {
                        clamp,
                        compare: 6,
                        ..SAMP
                    };
                    let src = coords_src(|l| (l as f32 - 10.0) * 1.5);
                    let out = run_on_class(&[t], &setup(data.clone(), d, s, src.clone()), class);
                    let x = Sample::new(&d, &s, &t, &levels, &elem);
                    for lane in 0..LANES as usize {
                        let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
                        let axes = x.axes(c, 0, true);
                        let reference = compare.then(|| f32::from_bits(src[lane][3]));
                        let sel = d.dst_sel[inst_mod as usize];
                        assert_eq!(
                            out[lane],
                            want_gather(&x, &axes, class, sel, reference),
                            "{class:?} {op:?} comp {inst_mod} clamp {clamp:?} lane {lane}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn gather4_of_an_int_format_starts_at_the_point_sampled_texel() {
    // FMT_32 with NUM_FORMAT_ALL INT: texel (x, y) holds 100 y + x.
    let d = Desc {
        fmt: 13,
        nfa: 1,
        ..D2
    };
    let mut data = vec![0u8; 256];
    for y in 0..d.h {
        for x in 0..d.pitch {
            let at = ((y * d.pitch + x) * 4) as usize;
            data[at..at + 4].copy_from_slice(&(100 * y + x).to_le_bytes());
        }
    }
    let levels = host_levels(&d, 4);
    let elem = |_: usize, [x, y, _]: [i64; 3]| [(100 * y + x) as u32, 0, 0, 1];
    let s = Samp {
        clamp: [2, 0, 0],
        ..SAMP
    };
    let t = tex(FetchOp::TEX_GATHER4);
    let src = coords_src(|_| 0.0);
    let out = run(&[t], &setup(data, d, s, src.clone()));
    let x = Sample::new(&d, &s, &t, &levels, &elem);
    for lane in 0..LANES as usize {
        let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
        // No half-texel shift: i0 = floor(u), i1 = i0 + 1.
        let axes = x.axes(c, 0, false);
        let want = want_gather(&x, &axes, ChipClass::Evergreen, 0, None);
        assert_eq!(out[lane], want, "INT gather lane {lane}");
    }
}

#[test]
fn gather4_o_adds_the_whole_texel_offsets_set_texture_offsets_stored() {
    let levels = host_levels(&RGBA, 16);
    let data = rgba(&levels);
    let elem = |_: usize, i: [i64; 3]| rgba_elem(&data, &levels[0], i);
    let arr = Desc {
        dim: 5,
        d: 3,
        ..RGBA
    };
    let arr_levels = host_levels(&arr, 16);
    let arr_data = rgba(&arr_levels);
    let arr_elem = |_: usize, i: [i64; 3]| rgba_elem(&arr_data, &arr_levels[0], i);
    // Per lane: x and y offsets in Mesa's gather range [-8, 7], in R3.w and R3.x (the
    // SET_TEXTURE_OFFSETS source swizzle picks them); z is a selected 0.
    let offs = |lane: u32| [(lane % 16) as i32 - 8, ((lane * 5 + 3) % 16) as i32 - 8];
    let r3: Vec<[u32; 4]> = (0..LANES)
        .map(|l| {
            let [ox, oy] = offs(l);
            [oy as u32, 77, 0x7fff_ffff, ox as u32]
        })
        .collect();
    let set = Tex {
        src_gpr: 3,
        src_sel: [3, 0, 4, 4],
        dst_sel: [7; 4],
        ..tex(FetchOp::TEX_SET_TEXTURE_OFFSETS)
    };
    for class in ChipClass::ALL {
        for (d, lv, el) in [
            (RGBA, &levels, &elem as &dyn Fn(usize, [i64; 3]) -> [u32; 4]),
            (arr, &arr_levels, &arr_elem),
        ] {
            for compare in [false, true] {
                let op = if compare {
                    FetchOp::TEX_GATHER4_C_O
                } else {
                    FetchOp::TEX_GATHER4_O
                };
                // The OFFSET fields are ignored.
                let t = Tex {
                    inst_mod: 1,
                    offset: [5, -7, 3],
                    ..tex(op)
                };
                let s = Samp {
                    clamp: [0, 2, 0],
                    compare: 6,
                    ..SAMP
                };
                let src = coords_src(|l| (l as f32 - 20.0) * 0.75);
                let mut st = setup(
                    if d.dim == 5 {
                        arr_data.clone()
                    } else {
                        data.clone()
                    },
                    d,
                    s,
                    src.clone(),
                );
                st.regs = vec![(3, r3.clone())];
                let out = run_on_class(&[set, t], &st, class);
                for lane in 0..LANES as usize {
                    let [ox, oy] = offs(lane as u32);
                    let x = Sample {
                        texel_offset: [ox as f32, oy as f32, 0.0],
                        ..Sample::new(&d, &s, &t, lv, el)
                    };
                    let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
                    let axes = x.axes(c, 0, true);
                    let reference = compare.then(|| f32::from_bits(src[lane][3]));
                    assert_eq!(
                        out[lane],
                        want_gather(&x, &axes, class, d.dst_sel[1], reference),
                        "{class:?} {op:?} dim {} lane {lane}, offsets ({ox}, {oy})",
                        d.dim
                    );
                }
            }
        }
    }
}

#[test]
fn offsets_start_at_zero_and_only_active_lanes_store_them() {
    // Without a SET_TEXTURE_OFFSETS, GATHER4_O gathers unshifted (the cells are 0 at launch).
    let levels = host_levels(&RGBA, 16);
    let data = rgba(&levels);
    let elem = |_: usize, i: [i64; 3]| rgba_elem(&data, &levels[0], i);
    let t = tex(FetchOp::TEX_GATHER4_O);
    let src = coords_src(|_| 0.0);
    let st = setup(data.clone(), RGBA, SAMP, src.clone());
    let out = run(&[t], &st);
    let x = Sample {
        texel_offset: [0.0; 3],
        ..Sample::new(&RGBA, &SAMP, &t, &levels, &elem)
    };
    for lane in 0..LANES as usize {
        let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
        let axes = x.axes(c, 0, true);
        let want = want_gather(&x, &axes, ChipClass::Evergreen, RGBA.dst_sel[0], None);
        assert_eq!(out[lane], want, "no offsets, lane {lane}");
    }
    // SET_TEXTURE_OFFSETS needs no tables and writes the `texoff` cells of active lanes.
    let r3: Vec<[u32; 4]> = (0..LANES)
        .map(|l| [l, 3 * l + 1, (l as i32 - 40) as u32, 9])
        .collect();
    let mut st = setup(Vec::new(), RGBA, SAMP, src);
    st.regs = vec![(3, r3.clone())];
    st.bind_res = false;
    st.bind_smp = false;
    st.active = 0x0f0f_3c3c_5555_aaaa;
    let set = Tex {
        src_gpr: 3,
        ..tex(FetchOp::TEX_SET_TEXTURE_OFFSETS)
    };
    let state = try_run(&[set], &st).unwrap_or_else(|e| panic!("{e}"));
    let l = wavejit_terascale::lift::TsLayout::new(LANES);
    for lane in 0..LANES {
        let on = st.active >> lane & 1 != 0;
        for c in 0..3 {
            let want = if on { r3[lane as usize][c as usize] } else { 0 };
            assert_eq!(state.lane(l.tex_offset(c), lane), want, "lane {lane} c {c}");
        }
    }
}
