//! TEX mip levels and arrays through the lifter on both engines (lift/tex module doc,
//! "Addressing and mip levels"; lift/tex/lod.rs "Levels"; lift/tex/ld.rs): SAMPLE_L over
//! LODs from magnification to past LAST_LEVEL with MIP_FILTER none/point/linear, on 1D, 2D,
//! 3D textures, 1D/2D arrays, cube maps and cube arrays, BASE_LEVEL above 0, both linear
//! ARRAY_MODEs, and LD with a level in W. Expected values come from tex_common's host sampler and its own computation
//! of Mesa's level layout; each level holds different texel values (1000 apart), so reading
//! the wrong level or address fails.
mod tex_common;

use tex_common::*;
use wavejit_terascale::tables::FetchOp;
use wavejit_terascale::ChipClass;

/// LODs from -1.3 to 4.6 over the lanes (magnification, each level, past LAST_LEVEL).
fn lods(l: u32) -> f32 {
    (l as f32 - 13.0) * 0.093
}

/// A descriptor with levels up to `last`, level 1 placed 256-aligned after level 0.
fn mipped(d: Desc, last: u32) -> Desc {
    let d = Desc {
        last_level: last,
        ..d
    };
    let l0 = Desc {
        last_level: 0,
        base_level: 0,
        ..d
    };
    let bytes = levels_bytes(&host_levels(&l0, 4), 4) as u64;
    Desc { mip: bytes, ..d }
}

fn samp(mip: u32) -> Samp {
    Samp {
        mag: 0,
        min: 1,
        mip,
        max_lod: 12 << 6,
        ..SAMP
    }
}

#[test]
fn sample_l_selects_and_blends_levels_of_a_2d_texture() {
    let d = mipped(
        Desc {
            w: 13,
            h: 6,
            pitch: 64,
            ..D2
        },
        3,
    );
    for mip in [0, 1, 2] {
        for bias in [0, -5] {
            let t = Tex {
                lod_bias: bias,
                ..tex(FetchOp::TEX_SAMPLE_L)
            };
            check_sample(&t, &d, &samp(mip), lods, &format!("mip {mip} bias {bias}"));
        }
    }
    // MIN_LOD/MAX_LOD clamp the LOD before the level choice.
    let s = Samp {
        min_lod: 1 << 6 | 16,
        max_lod: 2 << 6,
        ..samp(2)
    };
    check_sample(
        &tex(FetchOp::TEX_SAMPLE_L),
        &d,
        &s,
        lods,
        "MIN_LOD 1.25, MAX_LOD 2",
    );
}

#[test]
fn linear_general_levels_are_not_pitch_aligned() {
    let d = mipped(
        Desc {
            w: 11,
            h: 7,
            pitch: 16,
            array_mode: 0,
            ..D2
        },
        3,
    );
    check_sample(
        &tex(FetchOp::TEX_SAMPLE_L),
        &d,
        &samp(1),
        lods,
        "LINEAR_GENERAL",
    );
}

#[test]
fn base_level_above_zero_reads_base_address_then_mip_address() {
    // BASE_LEVEL 1: level 1 is at BASE_ADDRESS with the descriptor's pitch, levels 2.. follow
    // level 1's Mesa size from MIP_ADDRESS.
    let d = Desc {
        w: 20,
        h: 9,
        pitch: 16,
        base_level: 1,
        last_level: 4,
        mip: 512,
        ..D2
    };
    for mip in [0, 2] {
        check_sample(
            &tex(FetchOp::TEX_SAMPLE_L),
            &d,
            &samp(mip),
            lods,
            "BASE_LEVEL 1",
        );
    }
}

#[test]
fn levels_of_1d_and_3d_textures_and_arrays() {
    let cases = [
        (
            "1D",
            Desc {
                dim: 0,
                w: 9,
                h: 1,
                d: 1,
                pitch: 64,
                ..D2
            },
        ),
        (
            "3D",
            Desc {
                dim: 2,
                w: 5,
                h: 4,
                d: 6,
                pitch: 64,
                ..D2
            },
        ),
        (
            "1D array",
            Desc {
                dim: 4,
                w: 7,
                h: 1,
                d: 3,
                pitch: 64,
                ..D2
            },
        ),
        (
            "2D array",
            Desc {
                dim: 5,
                w: 6,
                h: 3,
                d: 4,
                pitch: 64,
                ..D2
            },
        ),
    ];
    for (name, d) in cases {
        let d = mipped(d, 2);
        for (mip, z) in [(2, 2), (1, 1)] {
            let s = Samp {
                z,
                clamp: [0, 2, 1],
                ..samp(mip)
            };
            check_sample(
                &tex(FetchOp::TEX_SAMPLE_L),
                &d,
                &s,
                lods,
                &format!("{name} mip {mip}"),
            );
        }
    }
    // Unnormalized array slices.
    let d = mipped(
        Desc {
            dim: 5,
            w: 6,
            h: 3,
            d: 4,
            pitch: 64,
            ..D2
        },
        1,
    );
    let t = Tex {
        normalized: false,
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    check_sample(&t, &d, &samp(0), |_| 0.0, "unnormalized 2D array");
}

#[test]
fn ld_reads_the_level_in_w_and_zero_past_last_level() {
    let d = Desc {
        dim: 5,
        w: 9,
        h: 5,
        d: 2,
        pitch: 64,
        base_level: 1,
        last_level: 3,
        mip: 1024,
        ..D2
    };
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| [l % 6, (l / 6) % 4, (l / 3) % 3, l % 4])
        .collect();
    let s2 = src.clone();
    check_with(
        &tex(FetchOp::TEX_LD),
        &d,
        &SAMP,
        src,
        |lane, x| {
            let [i, j, k, w] = s2[lane];
            let l = (d.base_level + w) as usize;
            if l > d.last_level as usize {
                return [0, 0, 0, 0];
            }
            let lv = &x.levels[l];
            if i >= lv.size[0] || j >= lv.size[1] || k >= lv.size[2] {
                return [0, 0, 0, 0];
            }
            (x.elem)(l, [i as i64, j as i64, k as i64])
        },
        "LD 2D array, BASE_LEVEL 1",
    );
    // A 1D array takes its slice from Z too; Y is ignored.
    let d = mipped(
        Desc {
            dim: 4,
            w: 7,
            h: 1,
            d: 3,
            pitch: 64,
            ..D2
        },
        1,
    );
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| [l % 8, 9, l / 16, (l / 8) % 2])
        .collect();
    let s2 = src.clone();
    check_with(
        &tex(FetchOp::TEX_LD),
        &d,
        &SAMP,
        src,
        |lane, x| {
            let [i, _, j, w] = s2[lane];
            let lv = &x.levels[w as usize];
            if i >= lv.size[0] || j >= lv.size[2] {
                return [0, 0, 0, 0];
            }
            (x.elem)(w as usize, [i as i64, 0, j as i64])
        },
        "LD 1D array",
    );
}

/// Cube-map sources: face coordinates around [1, 2] (slightly outside on some lanes) and face
/// ids from -0.6 to 6.4 (rounded, then clamped to 0..=5).
fn cube_src(lod: impl Fn(u32) -> f32) -> Vec<[u32; 4]> {
    (0..LANES)
        .map(|l| {
            let x = 0.8 + 0.0231 * ((l * 3) % 64) as f32;
            let y = 0.85 + 0.0197 * ((l * 5) % 64) as f32;
            let z = (l % 8) as f32 - 0.6 + 0.37 * ((l / 8) % 3) as f32;
            [x, y, z, lod(l)].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn cube_maps_sample_one_face_per_lane() {
    let d = mipped(
        Desc {
            dim: 3,
            w: 8,
            h: 8,
            pitch: 64,
            ..D2
        },
        2,
    );
    for (clamp, mip) in [([2, 2, 0], 2), ([0, 1, 0], 1), ([6, 3, 0], 0)] {
        let s = Samp {
            clamp,
            cube_wrap_off: true,
            ..samp(mip)
        };
        for op in [FetchOp::TEX_SAMPLE_L, FetchOp::TEX_GATHER4] {
            let t = tex(op);
            let src = cube_src(lods);
            let s2 = src.clone();
            check_with(
                &t,
                &d,
                &s,
                src,
                |lane, x| {
                    let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
                    if op == FetchOp::TEX_GATHER4 {
                        let axes = x.axes(c, 0, true);
                        gather_corners(ChipClass::Evergreen)
                            .map(|corner| x.corner(&axes, 0, corner)[0])
                    } else {
                        x.sample(c, f32::from_bits(s2[lane][3]))
                    }
                },
                &format!("cube {op:?} clamp {clamp:?} mip {mip}"),
            );
        }
    }
    // RESINFO reports TEX_DEPTH + 1 as z; seamless filtering and LD trap.
    let data = vec![0u8; 8192];
    let src: Vec<[u32; 4]> = (0..LANES).map(|l| [l % 3, 0, 0, 0]).collect();
    let out = run(
        &[tex(FetchOp::TEX_GET_TEXTURE_RESINFO)],
        &setup(data.clone(), d, SAMP, src.clone()),
    );
    for (lane, got) in out.iter().enumerate() {
        let m = (8 >> src[lane][0]).max(1);
        assert_eq!(*got, [m, m, 1, 3], "lane {lane}");
    }
    let cube_ok = Samp {
        cube_wrap_off: true,
        ..SAMP
    };
    for (dd, s, op) in [
        (d, SAMP, FetchOp::TEX_SAMPLE_LZ),
        (d, cube_ok, FetchOp::TEX_LD),
    ] {
        let e = try_run(&[tex(op)], &setup(data.clone(), dd, s, src.clone())).unwrap_err();
        assert!(e.contains("not one wavejit implements"), "{op:?}: {e}");
    }
}

/// Cube-array sources: face coordinates around [1, 2], z = face + 8 * layer as Mesa's
/// `r600_nir_lower_cube_to_2darray` builds it (faces 0-5, layers 0-3: one past the last
/// layer, which clamps), with a few lanes off the integers and a few negative.
fn cube_array_src(lod: impl Fn(u32) -> f32) -> Vec<[u32; 4]> {
    (0..LANES)
        .map(|l| {
            let x = 0.8 + 0.0231 * ((l * 3) % 64) as f32;
            let y = 0.85 + 0.0197 * ((l * 5) % 64) as f32;
            let z = match l % 11 {
                10 => -1.3,
                9 => 8.0 * 1.0 + 6.7,
                _ => {
                    8.0 * ((l / 7) % 4) as f32 + (l % 6) as f32 + if l % 5 == 0 { 0.4 } else { 0.0 }
                }
            };
            [x, y, z, lod(l)].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn cube_arrays_sample_face_and_layer_from_z() {
    // Three cubes (TEX_DEPTH 2): 18 slices per level, slice 6 * layer + face.
    let d = mipped(
        Desc {
            dim: 3,
            w: 8,
            h: 8,
            d: 3,
            pitch: 64,
            ..D2
        },
        2,
    );
    for (clamp, mip) in [([2, 2, 0], 2), ([0, 1, 0], 0)] {
        let s = Samp {
            clamp,
            cube_wrap_off: true,
            ..samp(mip)
        };
        for op in [FetchOp::TEX_SAMPLE_L, FetchOp::TEX_GATHER4] {
            let t = tex(op);
            let src = cube_array_src(lods);
            let s2 = src.clone();
            check_with(
                &t,
                &d,
                &s,
                src,
                |lane, x| {
                    let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
                    if op == FetchOp::TEX_GATHER4 {
                        let axes = x.axes(c, 0, true);
                        gather_corners(ChipClass::Evergreen)
                            .map(|corner| x.corner(&axes, 0, corner)[0])
                    } else {
                        x.sample(c, f32::from_bits(s2[lane][3]))
                    }
                },
                &format!("cube array {op:?} clamp {clamp:?} mip {mip}"),
            );
        }
    }
    // The slice rule itself, by hand: z = 8 * 2 + 4 reads slice 16, z = 8 * 5 + 7 slice 17.
    assert_eq!(host_cube_slice(20.0, 3), 16);
    assert_eq!(host_cube_slice(47.0, 3), 17);
    // RESINFO's z is the layer count (TEX_DEPTH + 1).
    let src: Vec<[u32; 4]> = (0..LANES).map(|l| [l % 3, 0, 0, 0]).collect();
    let out = run(
        &[tex(FetchOp::TEX_GET_TEXTURE_RESINFO)],
        &setup(vec![0u8; 256], d, SAMP, src.clone()),
    );
    for (lane, got) in out.iter().enumerate() {
        let m = (8 >> src[lane][0]).max(1);
        assert_eq!(*got, [m, m, 3, 3], "lane {lane}");
    }
}
