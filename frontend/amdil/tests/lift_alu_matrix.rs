//! The matrix macros `det`, `mmul_matrix(op)` and `transpose` on both engines, against their
//! entries' pseudocode (seed 001 L7754, L8517, L9108) written here with host f32 arithmetic:
//! each product the DX9 multiply (none of them has `_ieee`), each step rounded and flushed.

mod alu_common;
mod lift_common;
use alu_common::*;
use lift_common::*;

type Vec4 = [u32; 4];

/// Runs `body` once per case (one lane each; `case[n]` is rn, for r0..r(case.len()-1)) with
/// every other temp up to `last` set to [`UNTOUCHED`], and gives r0..=`last` of each lane.
fn run(body: &str, last: u32, cases: &[Vec<Vec4>]) -> Vec<Vec<Vec4>> {
    let k = Kernel::new(&format!("il_cs_2_0\n{body}\nend\n"));
    let mut outs = Vec::new();
    for chunk in cases.chunks(LANES as usize) {
        let mut l = k.launch();
        for n in 0..=last {
            for c in 0..4 {
                l.set_r(n, c, |lane| {
                    let case = &chunk[lane as usize % chunk.len()];
                    case.get(n as usize).map_or(UNTOUCHED, |r| r[c as usize])
                });
            }
        }
        let d = l.go();
        for lane in 0..chunk.len() as u32 {
            outs.push(
                (0..=last)
                    .map(|n| std::array::from_fn(|c| d.r(n, c as u32, lane)))
                    .collect(),
            );
        }
    }
    outs
}

/// Checks register `n` of every result against `want` (`None`: left as it was).
fn expect(
    line: &str,
    got: &[Vec<Vec4>],
    cases: &[Vec<Vec4>],
    n: usize,
    want: impl Fn(&[Vec4]) -> [Option<Exp>; 4],
) {
    for (g, case) in got.iter().zip(cases) {
        for (c, w) in want(case).iter().enumerate() {
            let v = g[n][c];
            let ok = match w {
                Some(e) => matches(*e, v),
                None => v == UNTOUCHED,
            };
            assert!(
                ok,
                "{line}: {case:08x?}: r{n}.{c}: got {v:#010x}, want {w:x?}"
            );
        }
    }
}

fn m(x: f32, y: f32) -> f32 {
    dx9_mul(x.to_bits(), y.to_bits())
}

fn flushed(v: f32) -> f32 {
    f32::from_bits(flush(v.to_bits()))
}

fn s(x: f32, y: f32) -> f32 {
    flushed(x - y)
}

fn a(x: f32, y: f32) -> f32 {
    flushed(x + y)
}

/// DET's pseudocode (L7760), its missing parenthesis closed after `v3[0]*v2[3]`.
fn det(r: &[Vec4]) -> f32 {
    let v: Vec<[f32; 4]> = r.iter().map(|x| x.map(fl)).collect();
    let (v0, v1, v2, v3) = (v[0], v[1], v[2], v[3]);
    let t0 = m(
        v0[0],
        a(
            s(
                m(v1[1], s(m(v2[2], v3[3]), m(v2[3], v3[2]))),
                m(v1[2], s(m(v2[1], v3[3]), m(v3[1], v2[3]))),
            ),
            m(v1[3], s(m(v2[1], v3[2]), m(v3[1], v2[2]))),
        ),
    );
    let t1 = m(
        v0[1],
        a(
            s(
                m(v1[0], s(m(v2[2], v3[3]), m(v2[3], v3[2]))),
                m(v1[2], s(m(v2[0], v3[3]), m(v3[0], v2[3]))),
            ),
            m(v1[3], s(m(v2[0], v3[2]), m(v3[0], v2[2]))),
        ),
    );
    let t2 = m(
        v0[2],
        a(
            s(
                m(v1[0], s(m(v2[1], v3[3]), m(v2[3], v3[1]))),
                m(v1[1], s(m(v2[0], v3[3]), m(v3[0], v2[3]))),
            ),
            m(v1[3], s(m(v2[0], v3[1]), m(v3[0], v2[1]))),
        ),
    );
    let t3 = m(
        v0[3],
        a(
            s(
                m(v1[0], s(m(v2[1], v3[2]), m(v2[2], v3[1]))),
                m(v1[1], s(m(v2[0], v3[2]), m(v3[0], v2[2]))),
            ),
            m(v1[2], s(m(v2[0], v3[1]), m(v3[0], v2[1]))),
        ),
    );
    s(a(s(t0, t1), t2), t3)
}

/// Values that tell the multiplies and the flushing apart: ±0, ±1, -2.5, 3, 0.5, inf, NaN,
/// a denormal.
const V: [u32; 10] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0xc020_0000,
    0x4040_0000,
    0x3f00_0000,
    0x7f80_0000,
    0x7fc0_0000,
    0x0000_0001,
];

/// `n` registers of deterministic operands from `V`, `count` cases; `finite` leaves out inf
/// and NaN.
fn cases(count: usize, n: usize, finite: bool) -> Vec<Vec<Vec4>> {
    let pool: Vec<u32> = V
        .iter()
        .copied()
        .filter(|&x| !finite || x & 0x7f80_0000 != 0x7f80_0000)
        .collect();
    let mut st: u64 = 0x9e37_79b9_7f4a_7c15 ^ (n as u64);
    let mut next = || {
        st = st.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        pool[(st >> 33) as usize % pool.len()]
    };
    (0..count)
        .map(|_| (0..n).map(|_| std::array::from_fn(|_| next())).collect())
        .collect()
}

fn identity() -> Vec<Vec4> {
    (0..4)
        .map(|k| std::array::from_fn(|c| if c == k { f(1.0) } else { 0 }))
        .collect()
}

/// The named edges: the identity, a singular matrix (two equal rows), a row of infinities
/// whose cofactors are all 0 (0 * inf is 0 under the DX9 multiply), negative zeros.
fn det_edges() -> Vec<Vec<Vec4>> {
    let inf = 0x7f80_0000;
    vec![
        identity(),
        vec![
            [f(1.0), f(2.0), f(3.0), f(4.0)],
            [f(1.0), f(2.0), f(3.0), f(4.0)],
            [f(0.5), f(-1.0), f(7.0), f(2.0)],
            [f(3.0), f(0.0), f(1.0), f(-2.0)],
        ],
        vec![
            [inf; 4],
            [f(1.0), 0, 0, 0],
            [f(1.0), 0, 0, 0],
            [0, 0, f(1.0), 0],
        ],
        vec![
            [0x8000_0000, f(1.0), 0, 0],
            [f(1.0), 0x8000_0000, 0, 0],
            [0, 0, f(-1.0), 0x8000_0000],
            [0, 0, 0x8000_0000, f(-1.0)],
        ],
    ]
}

#[test]
fn det_is_the_cofactor_expansion() {
    let mut cs = cases(320, 4, false);
    cs.extend(cases(128, 4, true));
    cs.extend(det_edges());
    let got = run("det r8, r0", 8, &cs);
    expect("det", &got, &cs, 8, |c| [Some(out(det(c))); 4]);
    // Named results: identity 1, singular +0, the infinite row's 0 * inf terms +0.
    let edges = det_edges();
    let got = run("det r8, r0", 8, &edges);
    assert_eq!(got[0][8], [f(1.0); 4]);
    assert_eq!(got[1][8], [0; 4]);
    assert_eq!(got[2][8], [0; 4]);
}

#[test]
fn det_rows_take_the_swizzle_and_modifiers_and_the_mask() {
    let cs = cases(128, 4, true);
    let line = "det r8.x0_1, r0.yxwz_neg(xyzw)";
    let got = run(line, 8, &cs);
    expect(line, &got, &cs, 8, |c| {
        let rows: Vec<Vec4> = c
            .iter()
            .map(|r| [r[1], r[0], r[3], r[2]].map(|x| (-fl(x)).to_bits()))
            .collect();
        [
            Some(out(det(&rows))),
            Some(Bits(0)),
            None,
            Some(Bits(f(1.0))),
        ]
    });
}

#[test]
fn det_of_literal_rows() {
    let rows = [
        [f(2.0), 0, 0, 0],
        [0, f(3.0), 0, 0],
        [0, 0, f(-1.0), 0],
        [f(5.0), 0, 0, f(0.5)],
    ];
    let decl: String = (0..4).map(|n| literal(n, rows[n as usize])).collect();
    let got = run(&format!("{decl}det r0, l0"), 0, &[vec![]]);
    assert_eq!(got[0][0], [f(-3.0); 4]);
    assert_eq!(Bits(got[0][0][0]), out(det(&rows)));
}

/// Σ x.c ⊗ y.c over `n` components, left to right (dp3/dp4's rule).
fn dot(x: &Vec4, y: &Vec4, n: usize) -> f32 {
    let mut acc = dx9_mul(x[0], y[0]);
    for c in 1..n {
        acc = flushed(dx9_mul(x[c], y[c]) + acc);
    }
    acc
}

#[test]
fn mmul_each_matrix_kind() {
    let mut cs = cases(256, 5, false);
    // 0 * inf: src0 = (0, 1, 0, 0) against a row with an infinite x.
    cs.push(vec![
        [0, f(1.0), 0, 0],
        [0x7f80_0000, f(2.0), f(3.0), 0x7f80_0000],
        [0x7f80_0000; 4],
        [0, 0x8000_0000, 0, 0],
        [f(1.0); 4],
    ]);
    for (kind, rows, n) in [
        ("4x4", 4, 4),
        ("4x3", 3, 4),
        ("3x4", 4, 3),
        ("3x3", 3, 3),
        ("3x2", 2, 3),
    ] {
        let line = format!("mmul_matrix({kind}) r8, r0, r1");
        let got = run(&line, 8, &cs);
        expect(&line, &got, &cs, 8, |c| {
            std::array::from_fn(|k| (k < rows).then(|| out(dot(&c[0], &c[1 + k], n))))
        });
    }
    let edge = run("mmul_matrix(4x4) r8, r0, r1", 8, &cs[cs.len() - 1..]);
    assert_eq!(edge[0][8], [f(2.0), 0x7f80_0000, 0, f(1.0)]);
}

#[test]
fn mmul_mask_and_modified_rows() {
    let cs = cases(128, 5, true);
    let line = "mmul_matrix(3x2) r8.x_01, r0, r1.wzyx_neg(xyzw)";
    let got = run(line, 8, &cs);
    expect(line, &got, &cs, 8, |c| {
        let row = |k: usize| {
            [c[1 + k][3], c[1 + k][2], c[1 + k][1], c[1 + k][0]].map(|x| (-fl(x)).to_bits())
        };
        [
            Some(out(dot(&c[0], &row(0), 3))),
            None,
            Some(Bits(0)),
            Some(Bits(f(1.0))),
        ]
    });
    let line = "mmul_matrix(4x3) r8.xyz1, r0, r1";
    let got = run(line, 8, &cs);
    expect(line, &got, &cs, 8, |c| {
        let d = |k: usize| Some(out(dot(&c[0], &c[1 + k], 4)));
        [d(0), d(1), d(2), Some(Bits(f(1.0)))]
    });
}

#[test]
fn transpose_writes_four_rows() {
    let cs = cases(128, 4, false);
    let got = run("transpose r4, r0", 7, &cs);
    for (g, c) in got.iter().zip(&cs) {
        for k in 0..4 {
            assert_eq!(
                g[4 + k],
                std::array::from_fn(|j| c[j][k]),
                "{c:08x?}: row {k}"
            );
        }
    }
    // In place: every row is read before any is written.
    let got = run("transpose r0, r0", 3, &cs);
    for (g, c) in got.iter().zip(&cs) {
        for k in 0..4 {
            assert_eq!(g[k], std::array::from_fn(|j| c[j][k]), "{c:08x?}: row {k}");
        }
    }
}

#[test]
fn transpose_mask_and_modified_rows() {
    let cs = cases(128, 4, true);
    let line = "transpose r4.x_01, r0.yxwz_neg(xyzw)";
    let got = run(line, 7, &cs);
    for k in 0..4 {
        // Row k of dst, component 0: component k of source row 0 after the swizzle, its
        // sign bit flipped by `neg` (L611: the sign bit only, a denormal kept).
        expect(line, &got, &cs, 4 + k, |c| {
            let swizzled = [c[0][1], c[0][0], c[0][3], c[0][2]];
            [
                Some(Bits(swizzled[k] ^ 0x8000_0000)),
                None,
                Some(Bits(0)),
                Some(Bits(f(1.0))),
            ]
        });
    }
}

#[test]
fn matrix_refusals() {
    let e = refusal("dcl_indexed_temp_array x0[8]\ndet r8, x0[0]");
    assert!(e.contains("matrix row"), "{e}");
    let e = refusal("dcl_indexed_temp_array x0[8]\ntranspose x0[0], r0");
    assert!(e.contains("matrix row"), "{e}");
    let e = refusal(&format!(
        "{}mmul_matrix(4x4) r8, r0, l0",
        literal(0, [0; 4])
    ));
    assert!(e.contains("src1 must be a temp"), "{e}");
    let e = refusal(&format!("{}det r8, l0", literal(0, [0; 4])));
    assert!(e.contains("l1 is used but not declared"), "{e}");
    let e = refusal("det_matrix(3x3) r8, r0");
    assert!(e.contains("IL_MATRIX_4X4"), "{e}");
    let e = refusal("transpose_matrix(4x3) r4, r0");
    assert!(e.contains("IL_MATRIX_4X4"), "{e}");
}
