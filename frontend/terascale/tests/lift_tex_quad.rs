//! TEX instructions that look across the 2x2 quad or compare, on both engines
//! (lift/tex/lod.rs, sample.rs "Depth compare"): SAMPLE and SAMPLE_LB (plus its src.w bias)
//! with the LOD from coarse quad derivatives, SAMPLE_G after SET_GRADIENTS_H/V,
//! GET_GRADIENTS_H/V (coarse and fine), SAMPLE_C/SAMPLE_C_LZ/SAMPLE_C_G with every
//! DEPTH_COMPARE_FUNCTION, and SAMPLE_C_L/SAMPLE_C_LB with the reference in z. Expected
//! values: tex_common's host sampler, with the derivatives, `ρ` and `λ` computed here from
//! the formulas (host f32 arithmetic, f64 log2 rounded once to f32).
mod tex_common;

use tex_common::*;
use wavejit_terascale::tables::FetchOp;

/// Coordinates whose quads have different footprints: quad `q` scales its x and y steps by
/// `2^((q - 5) / 2.2)` texels of a 16-texel axis, and lane `4q + i` is corner `i` of it.
fn quad_coords(lane: u32) -> [f32; 3] {
    let q = lane / 4;
    let (px, py) = ((lane & 1) as f32, ((lane >> 1) & 1) as f32);
    let s = 2f32.powf((q as f32 - 5.0) / 2.2) / 16.0;
    let base = [
        0.13 + 0.05 * q as f32,
        0.71 - 0.03 * q as f32,
        0.4 + 0.02 * q as f32,
    ];
    [
        base[0] + s * (px + 0.3 * py),
        base[1] + s * (0.6 * px + 1.7 * py) * if q.is_multiple_of(3) { 0.25 } else { 1.0 },
        base[2] + s * (0.5 * px - 0.8 * py),
    ]
}

fn quad_src(w: impl Fn(u32) -> f32) -> Vec<[u32; 4]> {
    (0..LANES)
        .map(|l| {
            let c = quad_coords(l);
            [
                c[0].to_bits(),
                c[1].to_bits(),
                c[2].to_bits(),
                w(l).to_bits(),
            ]
        })
        .collect()
}

/// `λ` (before the clamp) from per-axis derivatives (module doc of lift/tex/lod.rs).
fn host_lambda(d: &Desc, t: &Tex, dx: [f32; 3], dy: [f32; 3]) -> f32 {
    host_lambda_biased(d, t, dx, dy, None)
}

/// `λ` with the _LB forms' src.w bias added to `log2(ρ)` before LOD_BIAS / 16.
fn host_lambda_biased(d: &Desc, t: &Tex, dx: [f32; 3], dy: [f32; 3], w: Option<f32>) -> f32 {
    let spatial = [true, matches!(d.dim, 1 | 2 | 5), d.dim == 2];
    let size = [d.w, d.h, d.d].map(|n| (n >> d.base_level).max(1) as f32);
    let mut sq = [0f32; 2];
    for a in 0..3 {
        if !spatial[a] {
            continue;
        }
        for (k, v) in [dx[a], dy[a]].into_iter().enumerate() {
            let v = if t.normalized { v * size[a] } else { v };
            sq[k] += v * v;
        }
    }
    let (rx, ry) = (sq[0].sqrt(), sq[1].sqrt());
    let rho = if ry > rx { ry } else { rx };
    let l = (rho as f64).log2() as f32;
    let l = match w {
        Some(w) => l + w,
        None => l,
    };
    l + t.lod_bias as f32 / 16.0
}

/// Per-lane src.w for the _LB forms: biases from -1.8 to 1.8.
fn lb_bias(lane: u32) -> f32 {
    ((lane * 7 % 13) as f32 - 6.0) * 0.3
}

/// Coarse derivatives of component `k` of `src` at `lane`.
fn coarse(src: &[[u32; 4]], lane: usize, k: usize) -> (f32, f32) {
    let b = lane & !3;
    let v = |l: usize| f32::from_bits(src[l][k]);
    (v(b + 1) - v(b), v(b + 2) - v(b))
}

fn fine(src: &[[u32; 4]], lane: usize, k: usize) -> (f32, f32) {
    let v = |l: usize| f32::from_bits(src[l][k]);
    (v(lane | 1) - v(lane & !1), v(lane | 2) - v(lane & !2))
}

fn mip_desc(d: Desc) -> Desc {
    let l0 = Desc {
        last_level: 0,
        base_level: 0,
        ..d
    };
    Desc {
        last_level: 4,
        mip: levels_bytes(&host_levels(&l0, 4), 4) as u64,
        ..d
    }
}

const TRILINEAR: Samp = Samp {
    mag: 0,
    min: 1,
    mip: 2,
    ..SAMP
};

#[test]
fn sample_takes_its_lod_from_coarse_quad_derivatives() {
    let cases = [
        (
            "2D",
            Desc {
                w: 16,
                h: 12,
                pitch: 64,
                ..D2
            },
        ),
        (
            "3D",
            Desc {
                dim: 2,
                w: 16,
                h: 8,
                d: 8,
                pitch: 64,
                ..D2
            },
        ),
        (
            "2D array",
            Desc {
                dim: 5,
                w: 16,
                h: 16,
                d: 3,
                pitch: 64,
                ..D2
            },
        ),
        (
            "1D",
            Desc {
                dim: 0,
                w: 16,
                h: 1,
                d: 1,
                pitch: 64,
                ..D2
            },
        ),
    ];
    for (name, d) in cases {
        let d = mip_desc(d);
        for (op, bias) in [(FetchOp::TEX_SAMPLE, 0), (FetchOp::TEX_SAMPLE_LB, 9)] {
            let t = Tex {
                lod_bias: bias,
                ..tex(op)
            };
            let src = quad_src(lb_bias);
            let s2 = src.clone();
            check_with(
                &t,
                &d,
                &TRILINEAR,
                src,
                |lane, x| {
                    let dd = [0, 1, 2].map(|k| coarse(&s2, lane, k));
                    let w = (op == FetchOp::TEX_SAMPLE_LB).then(|| lb_bias(lane as u32));
                    let l = host_lambda_biased(&d, &t, dd.map(|v| v.0), dd.map(|v| v.1), w);
                    let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
                    x.sample(c, l)
                },
                &format!("{name} {op:?}"),
            );
        }
    }
}

#[test]
fn sample_g_uses_the_stored_gradients() {
    let d = mip_desc(Desc {
        w: 16,
        h: 12,
        pitch: 64,
        ..D2
    });
    let grads = |g: u32| -> Vec<[u32; 4]> {
        (0..LANES)
            .map(|l| {
                let s = 2f32.powf((l as f32 - 20.0) / 9.0) / 16.0;
                let v = [s, s * (0.3 + 0.1 * g as f32), -s * 0.7, 99.0];
                v.map(f32::to_bits)
            })
            .collect()
    };
    let (h, v) = (grads(0), grads(5));
    let set = |op, gpr| Tex {
        src_gpr: gpr,
        ..tex(op)
    };
    for (op, bias) in [(FetchOp::TEX_SAMPLE_G, 0), (FetchOp::TEX_SAMPLE_G_LB, -20)] {
        let t = Tex {
            lod_bias: bias,
            ..tex(op)
        };
        let prog = [
            set(FetchOp::TEX_SET_GRADIENTS_H, 3),
            set(FetchOp::TEX_SET_GRADIENTS_V, 4),
            t,
        ];
        let levels = host_levels(&d, 4);
        let data = f32_levels(&levels, |l, x, y, z| tex_value(x, y, z) + 1000.0 * l as f32);
        let src = quad_src(|_| 0.0);
        let mut st = setup(data.clone(), d, TRILINEAR, src.clone());
        st.regs = vec![(3, h.clone()), (4, v.clone())];
        let out = run(&prog, &st);
        let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
        let x = Sample::new(&d, &TRILINEAR, &t, &levels, &elem);
        for lane in 0..LANES as usize {
            let g = |r: &Vec<[u32; 4]>| [0, 1, 2].map(|k| f32::from_bits(r[lane][k]));
            let l = host_lambda(&d, &t, g(&h), g(&v));
            let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
            assert_eq!(out[lane], x.sample(c, l), "{op:?} lane {lane}");
        }
    }
}

#[test]
fn get_gradients_returns_coarse_or_fine_quad_derivatives() {
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| [0, 1, 2, 3].map(|k| ((l * (k + 3)) % 17) as f32 * 0.375 - 2.0))
        .map(|v| v.map(f32::to_bits))
        .collect();
    for (op, v) in [
        (FetchOp::TEX_GET_GRADIENTS_H, false),
        (FetchOp::TEX_GET_GRADIENTS_V, true),
    ] {
        for inst_mod in [0, 1] {
            let t = Tex {
                inst_mod,
                dst_sel: [0, 1, 5, 3],
                ..tex(op)
            };
            let mut st = setup(vec![0; 256], D2, SAMP, src.clone());
            st.bind_res = false;
            st.bind_smp = false;
            let out = run(&[t], &st);
            for (lane, got) in out.iter().enumerate() {
                let d = [0, 1, 2, 3].map(|k| {
                    let (dx, dy) = if inst_mod == 1 {
                        fine(&src, lane, k)
                    } else {
                        coarse(&src, lane, k)
                    };
                    if v { dy } else { dx }.to_bits()
                });
                assert_eq!(
                    *got,
                    [d[0], d[1], ONE, d[3]],
                    "{op:?} mod {inst_mod} lane {lane}"
                );
            }
        }
    }
}

#[test]
fn sample_c_compares_each_texel_before_filtering() {
    // References hit texel values exactly on some lanes (EQUAL/NOTEQUAL), and NaN on one.
    let d = Desc {
        w: 6,
        h: 4,
        pitch: 8,
        ..D2
    };
    let refs = |l: u32| match l % 5 {
        0 => tex_value(l % 6, (l / 6) % 4, 0),
        4 if l == 9 => f32::NAN,
        _ => (l as f32 - 20.0) * 2.5,
    };
    for func in 0..8 {
        for (mag, clamp) in [(1, [6, 2, 0]), (0, [0, 1, 0])] {
            let s = Samp {
                compare: func,
                mag,
                min: mag,
                clamp,
                ..SAMP
            };
            let t = tex(FetchOp::TEX_SAMPLE_C_LZ);
            let src = coords_src(refs);
            let s2 = src.clone();
            let levels = host_levels(&d, 4);
            let data = f32_levels(&levels, |_, x, y, z| tex_value(x, y, z));
            let out = run(&[t], &setup(data.clone(), d, s, src.clone()));
            let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
            for lane in 0..LANES as usize {
                let x = Sample {
                    compare: Some(f32::from_bits(s2[lane][3])),
                    ..Sample::new(&d, &s, &t, &levels, &elem)
                };
                let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
                assert_eq!(
                    out[lane],
                    x.sample(c, 0.0),
                    "func {func} mag {mag} lane {lane}"
                );
            }
        }
    }
    // SAMPLE_C: the quad LOD, on a mipmapped texture.
    let d = mip_desc(Desc {
        w: 16,
        h: 12,
        pitch: 64,
        ..D2
    });
    let s = Samp {
        compare: 3,
        ..TRILINEAR
    };
    let t = tex(FetchOp::TEX_SAMPLE_C);
    let src = quad_src(|l| 100.0 + (l as f32 - 32.0) * 4.0);
    let s2 = src.clone();
    let levels = host_levels(&d, 4);
    let data = f32_levels(&levels, |l, x, y, z| tex_value(x, y, z) + 40.0 * l as f32);
    let out = run(&[t], &setup(data.clone(), d, s, src.clone()));
    let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
    for lane in 0..LANES as usize {
        let x = Sample {
            compare: Some(f32::from_bits(s2[lane][3])),
            ..Sample::new(&d, &s, &t, &levels, &elem)
        };
        let dd = [0, 1, 2].map(|k| coarse(&s2, lane, k));
        let l = host_lambda(&d, &t, dd.map(|v| v.0), dd.map(|v| v.1));
        let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
        assert_eq!(out[lane], x.sample(c, l), "SAMPLE_C lane {lane}");
    }
}

#[test]
fn sample_c_l_and_c_lb_take_the_reference_from_z_and_the_lod_or_bias_from_w() {
    // A 2D texture (x, y, reference, LOD/bias) and a 1D array (x, slice in y, reference,
    // LOD/bias), Mesa's layouts for these forms.
    let d2 = mip_desc(Desc {
        w: 16,
        h: 12,
        pitch: 64,
        ..D2
    });
    let a1 = mip_desc(Desc {
        dim: 4,
        w: 16,
        h: 1,
        d: 5,
        pitch: 64,
        ..D2
    });
    let refs = |l: u32| 100.0 + (l as f32 - 32.0) * 3.0;
    let lods = |l: u32| (l % 9) as f32 * 0.45 - 0.6;
    for (name, d) in [("2D", d2), ("1D array", a1)] {
        for (op, lod_bias) in [(FetchOp::TEX_SAMPLE_C_L, 5), (FetchOp::TEX_SAMPLE_C_LB, -3)] {
            let s = Samp {
                compare: 3,
                ..TRILINEAR
            };
            let t = Tex {
                lod_bias,
                ..tex(op)
            };
            let src: Vec<[u32; 4]> = (0..LANES)
                .map(|l| {
                    let c = quad_coords(l);
                    let y = if d.dim == 4 {
                        l as f32 / 13.0 - 0.6
                    } else {
                        c[1]
                    };
                    [c[0], y, refs(l), lods(l)].map(f32::to_bits)
                })
                .collect();
            let levels = host_levels(&d, 4);
            let data = f32_levels(&levels, |l, x, y, z| tex_value(x, y, z) + 40.0 * l as f32);
            let out = run(&[t], &setup(data.clone(), d, s, src.clone()));
            let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
            for lane in 0..LANES as usize {
                let x = Sample {
                    compare: Some(refs(lane as u32)),
                    slice_from_y: true,
                    ..Sample::new(&d, &s, &t, &levels, &elem)
                };
                let w = lods(lane as u32);
                let l = if op == FetchOp::TEX_SAMPLE_C_L {
                    w + lod_bias as f32 / 16.0
                } else {
                    let dd = [0, 1, 2].map(|k| coarse(&src, lane, k));
                    host_lambda_biased(&d, &t, dd.map(|v| v.0), dd.map(|v| v.1), Some(w))
                };
                let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
                assert_eq!(out[lane], x.sample(c, l), "{name} {op:?} lane {lane}");
            }
        }
    }
    // No component is left for the slice of a 2D array or a cube map, or a 3D z: trap.
    let cube_ok = Samp {
        cube_wrap_off: true,
        ..SAMP
    };
    for dim in [2, 3, 5] {
        let d = Desc { dim, ..D2 };
        for op in [FetchOp::TEX_SAMPLE_C_L, FetchOp::TEX_SAMPLE_C_LB] {
            let st = setup(f32_texture(&d, tex_value), d, cube_ok, coords_src(|_| 0.0));
            let e = try_run(&[tex(op)], &st).unwrap_err();
            assert!(
                e.contains("not one wavejit implements"),
                "dim {dim} {op:?}: {e}"
            );
        }
    }
}

#[test]
fn inactive_lanes_keep_their_registers_but_feed_their_quad() {
    // Lanes 1 and 2 of every quad are off: their coordinates still give the quad's
    // derivatives, their R2 is untouched.
    let d = mip_desc(Desc {
        w: 16,
        h: 12,
        pitch: 64,
        ..D2
    });
    let t = tex(FetchOp::TEX_SAMPLE);
    let levels = host_levels(&d, 4);
    let data = f32_levels(&levels, |l, x, y, z| tex_value(x, y, z) + 1000.0 * l as f32);
    let src = quad_src(|_| 0.0);
    let mut st = setup(data.clone(), d, TRILINEAR, src.clone());
    st.active = 0x9999_9999_9999_9999;
    let out = run(&[t], &st);
    let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
    let x = Sample::new(&d, &TRILINEAR, &t, &levels, &elem);
    for lane in 0..LANES as usize {
        let want = if st.active >> lane & 1 == 0 {
            [R2_MARK; 4]
        } else {
            let dd = [0, 1, 2].map(|k| coarse(&src, lane, k));
            let l = host_lambda(&d, &t, dd.map(|v| v.0), dd.map(|v| v.1));
            let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
            x.sample(c, l)
        };
        assert_eq!(out[lane], want, "lane {lane}");
    }
}

#[test]
fn get_comp_tex_lod_returns_the_clamped_and_the_raw_lod() {
    // Levels 1..=4 (BASE_LEVEL 1), MIN_LOD 0.5, MAX_LOD 6: X is clamped to [0.5, 3].
    let d = mip_desc(Desc {
        w: 16,
        h: 12,
        pitch: 64,
        base_level: 1,
        ..D2
    });
    let s = Samp {
        min_lod: 32,
        max_lod: 6 << 6,
        ..TRILINEAR
    };
    let t = Tex {
        lod_bias: 3,
        dst_sel: [1, 0, 5, 4],
        ..tex(FetchOp::TEX_GET_COMP_TEX_LOD)
    };
    let src = quad_src(|_| 0.0);
    let s2 = src.clone();
    check_with(
        &t,
        &d,
        &s,
        src,
        |lane, _| {
            let dd = [0, 1, 2].map(|k| coarse(&s2, lane, k));
            let raw = host_lambda(&d, &t, dd.map(|v| v.0), dd.map(|v| v.1));
            let c = raw.clamp(0.5, 6.0).clamp(0.0, 3.0);
            [raw.to_bits(), c.to_bits(), ONE, 0]
        },
        "GET_COMP_TEX_LOD",
    );
}

#[test]
fn keep_gradients_stores_the_quad_derivatives_and_returns_the_border_colour() {
    let d = mip_desc(Desc {
        w: 16,
        h: 12,
        pitch: 64,
        dst_sel: [2, 3, 0, 5],
        ..D2
    });
    let keep = |dst_sel| Tex {
        dst_sel,
        ..tex(FetchOp::TEX_KEEP_GRADIENTS)
    };
    // KEEP_GRADIENTS then SAMPLE_G on the same coordinates samples as SAMPLE does.
    let levels = host_levels(&d, 4);
    let data = f32_levels(&levels, |l, x, y, z| tex_value(x, y, z) + 1000.0 * l as f32);
    let src = quad_src(|_| 0.0);
    let t = tex(FetchOp::TEX_SAMPLE_G);
    let out = run(
        &[keep([7; 4]), t],
        &setup(data.clone(), d, TRILINEAR, src.clone()),
    );
    let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
    let x = Sample::new(&d, &TRILINEAR, &t, &levels, &elem);
    for (lane, got) in out.iter().enumerate() {
        let dd = [0, 1, 2].map(|k| coarse(&src, lane, k));
        let l = host_lambda(&d, &t, dd.map(|v| v.0), dd.map(|v| v.1));
        let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
        let e = x.sample(c, l);
        let sw = [e[2], e[3], e[0], ONE];
        assert_eq!(*got, sw, "lane {lane}");
    }
    // Its own result: the border colour through both DST_SELs.
    let out = run(&[keep([3, 1, 4, 7])], &setup(data, d, TRILINEAR, src));
    let b = TRILINEAR.border;
    let sw = [b[2], b[3], b[0], ONE];
    for (lane, got) in out.iter().enumerate() {
        assert_eq!(*got, [sw[3], sw[1], 0, R2_MARK], "lane {lane}");
    }
}
