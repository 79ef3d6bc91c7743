//! TEX instructions through the lifter on the interpreter and the JIT (lift/tex): SAMPLE_LZ
//! and SAMPLE_L on level 0 of 1D/2D/3D textures with point and bilinear filtering, every CLAMP
//! mode, normalized and unnormalized coordinates and offsets, border colours, LD,
//! GET_TEXTURE_RESINFO and the launch convention's faults. Expected values come from the host
//! reference of tex_common (the formulas of lift/tex's module docs written independently),
//! and texel values from the format definitions (raw f32 bits, `c / 255` rounded once).
mod tex_common;

use tex_common::*;
use wavejit_terascale::lift::{LiftError, LiftErrorKind};
use wavejit_terascale::tables::FetchOp;

// --- tests ----------------------------------------------------------------------------------

#[test]
fn sample_2d_point_and_bilinear_in_every_address_mode() {
    for mode in 0..8 {
        for filter in [0, 1] {
            let s = Samp {
                clamp: [mode, (mode + 3) % 8, 0],
                mag: filter,
                min: filter,
                ..SAMP
            };
            check_sample(
                &tex(FetchOp::TEX_SAMPLE_LZ),
                &D2,
                &s,
                |_| 0.0,
                &format!("2D mode {mode} filter {filter}"),
            );
        }
    }
}

#[test]
fn sample_1d_and_3d_textures() {
    let d1 = Desc {
        dim: 0,
        w: 7,
        h: 1,
        d: 1,
        ..D2
    };
    let d3 = Desc {
        dim: 2,
        w: 3,
        h: 2,
        d: 4,
        ..D2
    };
    for (d, name) in [(d1, "1D"), (d3, "3D")] {
        for (filter, z) in [(0, 1), (1, 1), (1, 2), (0, 0)] {
            for mode in [0, 1, 6, 7] {
                let s = Samp {
                    clamp: [mode, 2, (mode + 1) % 8],
                    mag: filter,
                    min: filter,
                    z,
                    ..SAMP
                };
                check_sample(
                    &tex(FetchOp::TEX_SAMPLE_LZ),
                    &d,
                    &s,
                    |_| 0.0,
                    &format!("{name} mode {mode} filter {filter} z {z}"),
                );
            }
        }
    }
}

#[test]
fn unnormalized_coordinates_and_offsets() {
    let t = Tex {
        normalized: false,
        offset: [-3, 5, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    for (mode, filter) in [(0, 1), (2, 1), (6, 0), (4, 1), (1, 0)] {
        let s = Samp {
            clamp: [mode, mode, 0],
            mag: filter,
            min: filter,
            ..SAMP
        };
        check_sample(&t, &D2, &s, |_| 0.0, &format!("unnormalized mode {mode}"));
    }
    let t = Tex {
        offset: [15, -16, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    let s = Samp {
        mag: 1,
        min: 1,
        ..SAMP
    };
    check_sample(&t, &D2, &s, |_| 0.0, "normalized with extreme offsets");
}

#[test]
fn sample_l_chooses_the_magnification_or_minification_filter() {
    // Point when magnifying, bilinear when minifying; LOD from src.w plus LOD_BIAS, clamped
    // to [MIN_LOD, MAX_LOD]; every lane stays on level 0 (LAST_LEVEL 0).
    let s = Samp {
        mag: 0,
        min: 1,
        min_lod: 0,
        max_lod: 3 << 6,
        mip: 1,
        ..SAMP
    };
    let lod = |l: u32| (l as f32 - 31.5) * 0.125;
    for bias in [0, 5, -16] {
        let t = Tex {
            lod_bias: bias,
            ..tex(FetchOp::TEX_SAMPLE_L)
        };
        check_sample(&t, &D2, &s, lod, &format!("SAMPLE_L bias {bias}"));
    }
    // MIN_LOD above 0 forces minification even for SAMPLE_LZ.
    let s = Samp {
        mag: 0,
        min: 1,
        min_lod: 1 << 6,
        ..SAMP
    };
    check_sample(&tex(FetchOp::TEX_SAMPLE_LZ), &D2, &s, |_| 0.0, "MIN_LOD 1");
}

#[test]
fn border_colour_types_and_dst_sels() {
    for bt in 0..4 {
        let s = Samp {
            clamp: [6, 7, 0],
            mag: 1,
            min: 1,
            border_type: bt,
            ..SAMP
        };
        check_sample(
            &tex(FetchOp::TEX_SAMPLE_LZ),
            &D2,
            &s,
            |_| 0.0,
            &format!("border type {bt}"),
        );
    }
    // The instruction's DST_SEL: w, 1.0, masked, x; the resource's: y, x, 0, 1.
    let t = Tex {
        dst_sel: [3, 5, 7, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    let d = Desc {
        dst_sel: [1, 0, 4, 5],
        ..D2
    };
    let src = coords_src(|_| 0.0);
    let s2 = src.clone();
    check_with(
        &t,
        &d,
        &SAMP,
        src,
        |lane, x| {
            let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
            let e = x.sample(c, 0.0);
            let sw = [e[1], e[0], 0, ONE];
            [sw[3], ONE, R2_MARK, sw[0]]
        },
        "swizzles",
    );
}

#[test]
fn unorm_and_signed_formats_convert_per_component() {
    // FMT_8_8_8_8 (26) NORM: unsigned, signed, signed with SRF_MODE_ALL NO_ZERO (the OpenGL
    // rule `(2c + 1) / 255`), unsigned with NO_ZERO (no effect); point sampling at texel
    // centres.
    let d = Desc {
        w: 4,
        h: 2,
        fmt: 26,
        ..D2
    };
    let data: Vec<u8> = (0..d.texels() * 4).map(|i| (i * 37 + 11) as u8).collect();
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| {
            let (x, y) = (l % 4, (l / 4) % 2);
            [
                ((x as f32 + 0.5) / 4.0).to_bits(),
                ((y as f32 + 0.5) / 2.0).to_bits(),
                0,
                0,
            ]
        })
        .collect();
    for (signed, srf) in [(false, false), (true, false), (true, true), (false, true)] {
        let d = Desc { signed, srf, ..d };
        let out = run(
            &[tex(FetchOp::TEX_SAMPLE_LZ)],
            &setup(data.clone(), d, SAMP, src.clone()),
        );
        for lane in 0..LANES {
            let (x, y) = (lane % 4, (lane / 4) % 2);
            let at = ((y * d.pitch + x) * 4) as usize;
            let want = [0, 1, 2, 3].map(|c| {
                let b = data[at + c];
                let v = if signed && srf {
                    (2.0 * (b as i8) as f64 + 1.0) / 255.0
                } else if signed {
                    ((b as i8) as f64 / 127.0).max(-1.0)
                } else {
                    b as f64 / 255.0
                };
                (v as f32).to_bits()
            });
            assert_eq!(
                out[lane as usize], want,
                "signed {signed} srf {srf} lane {lane}"
            );
        }
    }
}

#[test]
fn ld_reads_integer_texels_and_zero_outside() {
    // FMT_32_32_32_32 (34) INT on a 3D texture; the resource swizzle's 1 is integer 1.
    let d = Desc {
        dim: 2,
        w: 3,
        h: 2,
        d: 2,
        fmt: 34,
        nfa: 1,
        dst_sel: [0, 1, 2, 5],
        ..D2
    };
    let data: Vec<u8> = (0..d.texels() * 4)
        .flat_map(|i| (i.wrapping_mul(0x9e37_79b9) ^ 0x55).to_le_bytes())
        .collect();
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| [l % 5, (l / 5) % 3, (l / 15) % 3, 0])
        .map(|[x, y, z, w]| [x, y.wrapping_sub(u32::from(x == 4) * 7), z, w])
        .collect();
    let out = run(
        &[tex(FetchOp::TEX_LD)],
        &setup(data.clone(), d, SAMP, src.clone()),
    );
    for lane in 0..LANES as usize {
        let [x, y, z, _] = src[lane];
        let inside = x < d.w && y < d.h && z < d.d;
        let want = if inside {
            let i = (((z * d.h + y) * d.pitch + x) * 16) as usize;
            let w =
                |c: usize| u32::from_le_bytes(data[i + 4 * c..i + 4 * c + 4].try_into().unwrap());
            [w(0), w(1), w(2), 1]
        } else {
            [0, 0, 0, 1]
        };
        assert_eq!(out[lane], want, "lane {lane} at {:?}", src[lane]);
    }
}

#[test]
fn ld_reads_buffer_elements_by_stride_and_zero_past_the_end() {
    // FMT_16_16 (15) INT signed, STRIDE 12, 62 bytes: elements 0-4 fit whole, 5 does not.
    let data: Vec<u8> = (0..64u32).map(|i| (i * 73 + 5) as u8).collect();
    let b = Buf {
        size: 62,
        stride: 12,
        fmt: 15,
        nfa: 1,
        signed: true,
        dst_sel: [1, 0, 4, 5],
        endian: 0,
    };
    let src: Vec<[u32; 4]> = (0..LANES).map(|l| [l % 8, l / 8, 7, 0]).collect();
    let mut st = setup(data.clone(), D2, SAMP, src.clone());
    st.res.clear();
    st.bufs = vec![(3, b)];
    st.bind_smp = false;
    let out = run(&[tex(FetchOp::TEX_LD)], &st);
    for lane in 0..LANES as usize {
        let x = src[lane][0];
        let want = if x < 5 {
            let at = (x * 12) as usize;
            let h = |k: usize| i16::from_le_bytes([data[at + k], data[at + k + 1]]) as i32 as u32;
            [h(2), h(0), 0, 1]
        } else {
            [0, 0, 0, 1]
        };
        assert_eq!(out[lane], want, "lane {lane}, element {x}");
    }
    // FMT_32_32_32_32_FLOAT (35), STRIDE 16; the instruction's DST_SEL z, 1.0, masked, 0.
    let b = Buf {
        size: 64,
        stride: 16,
        fmt: 35,
        nfa: 0,
        signed: false,
        dst_sel: [0, 1, 2, 3],
        endian: 0,
    };
    st.bufs = vec![(3, b)];
    let t = Tex {
        dst_sel: [2, 5, 7, 4],
        ..tex(FetchOp::TEX_LD)
    };
    let out = run(&[t], &st);
    for lane in 0..LANES as usize {
        let x = src[lane][0] as usize;
        let z = if x < 4 {
            u32::from_le_bytes(data[16 * x + 8..16 * x + 12].try_into().unwrap())
        } else {
            0
        };
        assert_eq!(out[lane], [z, ONE, R2_MARK, 0], "lane {lane}");
    }
    // Buffers are for LD only; STRIDE 0 and ENDIAN_SWAP are not implemented.
    for (bad, t) in [
        (b, tex(FetchOp::TEX_SAMPLE_LZ)),
        (Buf { stride: 0, ..b }, tex(FetchOp::TEX_LD)),
        (Buf { endian: 2, ..b }, tex(FetchOp::TEX_LD)),
    ] {
        st.bufs = vec![(3, bad)];
        st.bind_smp = true;
        let e = try_run(&[t], &st).unwrap_err();
        assert!(e.contains("not one wavejit implements"), "{e}");
    }
}

#[test]
fn resinfo_reports_sizes_per_lod_and_levels() {
    let d = Desc {
        dim: 2,
        w: 13,
        h: 6,
        d: 5,
        pitch: 16,
        last_level: 3,
        ..D2
    };
    let src: Vec<[u32; 4]> = (0..LANES).map(|l| [l % 40, 0, 0, 0]).collect();
    let data = vec![0u8; 256];
    let out = run(
        &[tex(FetchOp::TEX_GET_TEXTURE_RESINFO)],
        &setup(data.clone(), d, SAMP, src.clone()),
    );
    for lane in 0..LANES as usize {
        let l = src[lane][0].min(31);
        let m = |n: u32| (n >> l).max(1);
        assert_eq!(out[lane], [m(13), m(6), m(5), 4], "lane {lane}");
    }
    let d2 = Desc { dim: 1, ..d };
    let out = run(
        &[tex(FetchOp::TEX_GET_TEXTURE_RESINFO)],
        &setup(data, d2, SAMP, src.clone()),
    );
    assert_eq!(out[1], [6, 3, 5, 4], "2D: z is the slice count");
}

#[test]
fn inactive_lanes_are_untouched() {
    let mut st = setup(f32_texture(&D2, tex_value), D2, SAMP, coords_src(|_| 0.0));
    st.active = 0x0f0f_0000_ffff_0001;
    let out = run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st);
    for lane in 0..LANES {
        let on = st.active >> lane & 1 != 0;
        assert_eq!(out[lane as usize][0] == R2_MARK, !on, "lane {lane}");
    }
}

#[test]
fn launch_convention_faults() {
    let base = || setup(f32_texture(&D2, tex_value), D2, SAMP, coords_src(|_| 0.0));
    let mut st = base();
    st.bind_res = false;
    let e = try_run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st).unwrap_err();
    assert!(e.contains("no texture resource table"), "{e}");
    let mut st = base();
    st.bind_smp = false;
    let e = try_run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st).unwrap_err();
    assert!(e.contains("no sampler table"), "{e}");
    // LD needs no sampler table.
    assert!(try_run(&[tex(FetchOp::TEX_LD)], &st).is_ok());
    for bad in [
        Desc { fmt: 49, ..D2 }, // BC1
        Desc { dim: 3, ..D2 },  // seamless cubemap
        Desc { nfa: 3, ..D2 },
    ] {
        let mut st = base();
        st.res = vec![(3, bad)];
        let e = try_run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st).unwrap_err();
        assert!(e.contains("not one wavejit implements"), "{e}");
    }
    // BASE_LEVEL above LAST_LEVEL, MIP_FILTER 3, a depth compare on an INT format, a
    // gather on a 3D texture.
    let cases = [
        (
            Desc {
                base_level: 2,
                last_level: 1,
                ..D2
            },
            SAMP,
            FetchOp::TEX_SAMPLE_LZ,
        ),
        (D2, Samp { mip: 3, ..SAMP }, FetchOp::TEX_SAMPLE_LZ),
        (
            Desc {
                fmt: 13,
                nfa: 1,
                ..D2
            },
            SAMP,
            FetchOp::TEX_SAMPLE_C_LZ,
        ),
        (Desc { dim: 2, ..D2 }, SAMP, FetchOp::TEX_GATHER4),
    ];
    for (d, s, op) in cases {
        let mut st = base();
        st.res = vec![(3, d)];
        st.smp = vec![(2, s)];
        let e = try_run(&[tex(op)], &st).unwrap_err();
        assert!(e.contains("not one wavejit implements"), "{e}");
    }
}

#[test]
fn unsupported_tex_instructions_are_lift_errors() {
    let e = lift_p(&program(&[tex(FetchOp::TEX_GET_NUMBER_OF_SAMPLES)])).unwrap_err();
    assert!(
        matches!(
            e,
            LiftError {
                kind: LiftErrorKind::Unsupported,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("GET_NUMBER_OF_SAMPLES"), "{e}");
    let t = Tex {
        offset: [1, 0, 0],
        ..tex(FetchOp::TEX_LD)
    };
    let e = lift_p(&program(&[t])).unwrap_err();
    assert!(e.to_string().contains("offsets on LD"), "{e}");
    let t = Tex {
        dst_sel: [6, 0, 0, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    assert!(matches!(
        lift_p(&program(&[t])).unwrap_err(),
        LiftError {
            kind: LiftErrorKind::Invalid,
            ..
        }
    ));
}

/// SRC_SEL 4/5 (the constants 0.0 and 1.0) as coordinates: the result equals that of the same
/// values read from R1 (whose sampling the tests above check against the host sampler), for
/// the implicit-LOD SAMPLE (quad derivatives of a constant) and SAMPLE_LZ with every
/// coordinate constant. Found by the fuzzer: the constants reached the quad shuffles and the
/// masked texel loads as uniform values, which the IR verifier rejects.
#[test]
fn constant_coordinates_sample_like_the_same_values_in_a_gpr() {
    let data = f32_texture(&D2, |x, y, _| (x * 10 + y) as f32);
    let s = Samp {
        mag: 1,
        min: 1,
        ..SAMP
    };
    for op in [FetchOp::TEX_SAMPLE, FetchOp::TEX_SAMPLE_LZ] {
        for consts in [[4u32, 5, 5, 4], [5, 4, 4, 5], [0, 5, 4, 3]] {
            let mut t = tex(op);
            t.src_sel = consts;
            let mut g = tex(op);
            g.src_sel = [0, 1, 2, 3];
            let src: Vec<[u32; 4]> = (0..LANES)
                .map(|l| [0.3f32 + l as f32 * 0.01, 0.6, 0.25, 0.0].map(f32::to_bits))
                .collect();
            // The GPR twin holds, per lane, exactly what `t` reads.
            let twin: Vec<[u32; 4]> = src
                .iter()
                .map(|r| {
                    consts.map(|c| match c {
                        4 => 0,
                        5 => ONE,
                        k => r[k as usize],
                    })
                })
                .collect();
            let got = run(&[t], &setup(data.clone(), D2, s, src));
            let want = run(&[g], &setup(data.clone(), D2, s, twin));
            assert_eq!(got, want, "{op:?} SRC_SEL {consts:?}");
        }
    }
}
