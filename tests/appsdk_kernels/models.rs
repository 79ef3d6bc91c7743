//! Financial and signal models computed with the hardware's approximate transcendentals,
//! each checked within its tolerance against an f64 host model.

use super::*;

/// BlackScholes (host: 64 x 64 float4 of uniform [0, 1) numbers, groups of 16 x 16): call and
/// put prices of the kernel's formulas (its polynomial approximation of the normal CDF)
/// evaluated in f64; the ISA's exp, log, sqrt and divisions are approximations, so each price
/// must be within 1e-4 (relative, absolute below 1) of the model.
pub fn black_scholes(enc: Encoding) {
    let (w, h) = (64usize, 64usize);
    let mut rng = Rng::new(23);
    let rand: Vec<f32> = unit_floats(&mut rng, 4 * w * h);
    let phi = |x: f64| {
        let t = 1.0 / (1.0 + 0.2316419 * x.abs());
        let y = 1.0
            - 0.398942280
                * (-x * x / 2.0).exp()
                * t
                * (0.319381530
                    + t * (-0.356563782
                        + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
        if x < 0.0 {
            1.0 - y
        } else {
            y
        }
    };
    let (mut call, mut put) = (Vec::new(), Vec::new());
    for &u in &rand {
        let u = f64::from(u);
        let mix = |lo: f64, hi: f64| lo * u + hi * (1.0 - u);
        let (s, k, t, r, sigma) = (
            mix(10.0, 100.0),
            mix(10.0, 100.0),
            mix(1.0, 10.0),
            mix(0.01, 0.05),
            mix(0.01, 0.10),
        );
        let sst = sigma * t.sqrt();
        let d1 = ((s / k).ln() + (r + sigma * sigma / 2.0) * t) / sst;
        let d2 = d1 - sst;
        let kexp = k * (-r * t).exp();
        call.push(s * phi(d1) - kexp * phi(d2));
        put.push(kexp * phi(-d2) - s * phi(-d1));
    }
    for r in runners("si/BlackScholes_Kernels.bin", enc) {
        let out = r.run(
            "blackScholes",
            dims(w as u32, h as u32),
            dims(16, 16),
            &[
                buf(f32_bytes(&rand)),
                i32v(w as i32),
                zero(16 * w * h),
                zero(16 * w * h),
            ],
        );
        r.close("call", &out[2], &call, 1e-4);
        r.close("put", &out[3], &put, 1e-4);
    }
}

/// BinomialOption (host: numSteps 254, one group of 255 work-items per float4 of options):
/// the backward induction of the kernel in f64, two steps per loop trip through callA and
/// callB; 16 groups; within 1e-3 of the model (254 steps of f32 rounding).
pub fn binomial_option(enc: Encoding) {
    let (samples, steps) = (16usize, 254i32);
    let rand = unit_floats(&mut Rng::new(24), 4 * samples);
    let mut want = Vec::new();
    for &u in &rand {
        let u = f64::from(u);
        let s = (1.0 - u) * 5.0 + u * 30.0;
        let x = (1.0 - u) * 1.0 + u * 100.0;
        let years = (1.0 - u) * 0.25 + u * 10.0;
        let dt = years * (1.0 / f64::from(steps));
        let vsdt = 0.30 * dt.sqrt();
        let r = (0.02 * dt).exp();
        let (up, down) = (vsdt.exp(), 1.0 / vsdt.exp());
        let pu = (r - down) / (up - down);
        let (pu_r, pd_r) = (pu / r, (1.0 - pu) / r);
        let mut a: Vec<f64> = (0..=steps)
            .map(|t| (s * (vsdt * (2.0 * f64::from(t) - f64::from(steps))).exp() - x).max(0.0))
            .collect();
        let mut b = vec![0f64; a.len()];
        let mut j = steps as usize;
        while j > 0 {
            for t in 0..j {
                b[t] = pu_r * a[t] + pd_r * a[t + 1];
            }
            for t in 0..j.saturating_sub(1) {
                a[t] = pu_r * b[t] + pd_r * b[t + 1];
            }
            j = j.saturating_sub(2);
        }
        want.push(a[0]);
    }
    for r in runners("si/BinomialOption_Kernels.bin", enc) {
        let n = steps as usize + 1;
        let out = r.run(
            "binomial_options",
            [(samples * n) as u32, 1, 1],
            [n as u32, 1, 1],
            &[
                i32v(steps),
                buf(f32_bytes(&rand)),
                zero(16 * samples),
                local(16 * n),
                local(16 * (n - 1)),
            ],
        );
        r.close("option prices", &out[2], &want, 1e-3);
    }
}

/// FFT `kfft` (host: one group of 64 work-items transforms 1024 complex points in place): the
/// output is the forward DFT `X[k] = sum_n x[n] e^(-2 pi i n k / 1024)` in natural order,
/// within 1e-4 of the largest |X| (the kernel's twiddles come from native_sin/native_cos).
pub fn fft(enc: Encoding) {
    let n = 1024usize;
    let mut rng = Rng::new(27);
    let re: Vec<f32> = unit_floats(&mut rng, n).iter().map(|v| v - 0.5).collect();
    let im: Vec<f32> = unit_floats(&mut rng, n).iter().map(|v| v - 0.5).collect();
    let (mut want_re, mut want_im) = (vec![0f64; n], vec![0f64; n]);
    for k in 0..n {
        for j in 0..n {
            let a = -2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
            let (s, c) = a.sin_cos();
            want_re[k] += f64::from(re[j]) * c - f64::from(im[j]) * s;
            want_im[k] += f64::from(re[j]) * s + f64::from(im[j]) * c;
        }
    }
    let scale = want_re
        .iter()
        .chain(&want_im)
        .fold(0f64, |m, v| m.max(v.abs()));
    for r in runners("si/FFT_Kernels.bin", enc) {
        let out = r.run(
            "kfft",
            [64, 1, 1],
            [64, 1, 1],
            &[buf(f32_bytes(&re)), buf(f32_bytes(&im))],
        );
        for (what, got, want) in [
            ("real", &out[0], &want_re),
            ("imaginary", &out[1], &want_im),
        ] {
            for (k, (g, w)) in f32s_of(got).iter().zip(want.iter()).enumerate() {
                assert!(
                    (f64::from(*g) - w).abs() <= 1e-4 * scale,
                    "fft {what} part on {:?}: X[{k}] is {g}, the DFT's {w}",
                    r.engine
                );
            }
        }
    }
}

/// The SIMD-oriented Mersenne Twister step of MersenneTwister's `gaussianRand` and
/// MonteCarloAsian's `generateRand`: the four initial states from the seed, then `count`
/// words of the recurrence (with the kernels' 128-bit shifts by 24 and masks).
fn sfmt(seed: [u32; 4], count: usize) -> Vec<[u32; 4]> {
    let next =
        |s: [u32; 4], k: u32| s.map(|v| 1812433253u32.wrapping_mul(v ^ (v >> 30)).wrapping_add(k));
    let s1 = seed;
    let s2 = next(s1, 1);
    let s3 = next(s2, 2);
    let s4 = next(s3, 3);
    let s5 = next(s4, 4);
    let lshift = |a: [u32; 4]| {
        [
            a[0] << 24,
            a[1] << 24 | a[0] >> 8,
            a[2] << 24 | a[1] >> 8,
            a[3] << 24 | a[2] >> 8,
        ]
    };
    let rshift = |a: [u32; 4]| {
        [
            a[0] >> 24 | a[1] << 8,
            a[1] >> 24 | a[2] << 8,
            a[2] >> 24 | a[3] << 8,
            a[3] >> 24,
        ]
    };
    let masks = [0xfdff37ffu32, 0xef7f3f7d, 0xff777b7d, 0x7ff7fb2f];
    let mut temp: Vec<[u32; 4]> = Vec::new();
    let (mut r1, mut r2) = (s4, s5);
    for i in 0..count {
        if i > 0 {
            r1 = r2;
            r2 = temp[i - 1];
        }
        let (a, b) = match i {
            0 => (s1, s3),
            1 => (s2, s4),
            2 => (s3, s5),
            3 => (s4, s1),
            4 => (s5, s2),
            _ => (temp[i - 5], temp[i - 3]),
        };
        let (e, f) = (lshift(a), rshift(r1));
        temp.push(std::array::from_fn(|c| {
            a[c] ^ e[c] ^ ((b[c] >> 13) & masks[c]) ^ f[c] ^ (r2[c] << 15)
        }));
    }
    temp
}

/// The Box-Muller pair of two words per lane, in f64 from their f32 conversions (as the
/// kernels convert them).
fn box_muller(u: u32, v: u32) -> (f64, f64) {
    let t1 = f64::from(u as f32) / 4294967296.0;
    let t2 = f64::from(v as f32) / 4294967296.0;
    let r = (-2.0 * t1.ln()).sqrt();
    let phi = 2.0 * std::f64::consts::PI * t2;
    (r * phi.cos(), r * phi.sin())
}

/// MersenneTwister `gaussianRand` (host: mulFactor 2; a 64 x 4 grid of seeds here, groups of
/// 64 x 1): the integer recurrence exactly, then Box-Muller through the ISA's log, sqrt, sin
/// and cos, within 1e-4 (relative, absolute below 1) of the f64 model.
pub fn mersenne_twister(enc: Encoding) {
    let (w, h, mul) = (64usize, 4usize, 2usize);
    let seeds = Rng::new(28).u32s(4 * w * h, u32::MAX);
    let mut want = vec![0f64; 4 * w * h * mul];
    for p in 0..w * h {
        let t = sfmt(
            [
                seeds[4 * p],
                seeds[4 * p + 1],
                seeds[4 * p + 2],
                seeds[4 * p + 3],
            ],
            mul,
        );
        for i in 0..mul / 2 {
            for c in 0..4 {
                let (g1, g2) = box_muller(t[i][c], t[i + 1][c]);
                want[4 * (p * mul + 2 * i) + c] = g1;
                want[4 * (p * mul + 2 * i + 1) + c] = g2;
            }
        }
    }
    for r in runners("si/MersenneTwister_Kernels.bin", enc) {
        let out = r.run(
            "gaussianRand",
            dims(w as u32, h as u32),
            dims(64, 1),
            &[
                buf(bytes_of(&seeds)),
                u32v(w as u32),
                u32v(mul as u32),
                zero(4 * want.len()),
            ],
        );
        r.close("gaussianRand", &out[3], &want, 1e-4);
    }
}

/// The DP kernel's `PI` literal, which is not `f64::consts::PI`.
#[allow(clippy::approx_constant)]
const DP_KERNEL_PI: f64 = 3.14159265358979;

/// MonteCarloAsian(DP) `calPriceVega` in f64: per work-item and lane, two trajectories driven
/// by `generateRand`'s Box-Muller pairs (the integer recurrence from the seed, the next seed
/// its third word), their mean prices and mean "derivatives", and the payoffs above the
/// strike. Returns (prices, derivatives, decisive): an element is decisive when its mean
/// price is at least 1e-2 from the strike, where the payoff's threshold cannot flip.
fn monte_carlo_model(
    seeds: &[u32],
    attrib: &[f64; 7],
    sums: i32,
    single: bool,
) -> (Vec<f64>, Vec<f64>, Vec<bool>) {
    let [strike, c1, c2, c3, init, sigma, time_step] = *attrib;
    let items = seeds.len() / 4;
    let (mut prices, mut derivs, mut decisive) = (
        vec![0f64; 8 * items],
        vec![0f64; 8 * items],
        vec![true; 8 * items],
    );
    for p in 0..items {
        for c in 0..4 {
            let mut seed = [
                seeds[4 * p],
                seeds[4 * p + 1],
                seeds[4 * p + 2],
                seeds[4 * p + 3],
            ];
            let (mut traj, mut sum, mut deriv) = ([init; 2], [init; 2], [0f64; 2]);
            for i in 1..sums {
                let t = sfmt(seed, 4);
                let (g1, g2) = if single {
                    box_muller(t[0][c], t[1][c])
                } else {
                    let t1 = f64::from(t[0][c]) / 4294967296.0;
                    let t2 = f64::from(t[1][c]) / 4294967296.0;
                    let r = (-2.0 * t1.ln()).sqrt();
                    let phi = 2.0 * DP_KERNEL_PI * t2;
                    (r * phi.cos(), r * phi.sin())
                };
                seed = t[2];
                for (k, g) in [g1, g2].into_iter().enumerate() {
                    traj[k] *= (c1 + c2 * g).exp();
                    sum[k] += traj[k];
                    let temp = c3 * time_step * f64::from(i);
                    deriv[k] += traj[k] * (((traj[k] / init).ln() - temp) / sigma);
                }
            }
            for k in 0..2 {
                let mean = sum[k] / f64::from(sums);
                let at = 4 * (2 * p + k) + c;
                let above = mean - strike > 0.0;
                prices[at] = if above { mean - strike } else { 0.0 };
                derivs[at] = if above {
                    deriv[k] / f64::from(sums)
                } else {
                    0.0
                };
                decisive[at] = (mean - strike).abs() >= 1e-2;
            }
        }
    }
    (prices, derivs, decisive)
}

/// MonteCarloAsian and MonteCarloAsianDP `calPriceVega` (host: initPrice 50, strikePrice 55,
/// interest 0.06, maturity 1, noOfSum 12, sigma 0.01 + k steps; here sigma 0.1 and a 64 x 4
/// grid of seeds, groups of 64 x 1): the by-value `MonteCarloAttrib` struct (112 bytes of
/// float4, 224 of double4) given as a buffer of its bytes, CB2 constants, private arrays. The
/// float kernel's outputs within 1e-3 (relative, absolute below 1) of the f64 model, the
/// double kernel's within 1e-9; elements whose mean price is within 1e-2 of the strike are
/// not compared.
pub fn monte_carlo_asian(enc: Encoding) {
    let (w, h, sums) = (64usize, 4usize, 12i32);
    let seeds = Rng::new(30).u32s(4 * w * h, u32::MAX);
    let (init, strike, interest, maturity, sigma) = (50f32, 55f32, 0.06f32, 1f32, 0.1f32);
    let time_step = maturity / (sums - 1) as f32;
    let c1 = (interest - 0.5 * sigma * sigma) * time_step;
    let c2 = sigma * time_step.sqrt();
    let c3 = interest + 0.5 * sigma * sigma;
    let fields = [strike, c1, c2, c3, init, sigma, time_step];
    for (file, single) in [
        ("si/MonteCarloAsian_Kernels.bin", true),
        ("si/MonteCarloAsianDP_Kernels.bin", false),
    ] {
        let attrib = fields.map(f64::from);
        let (prices, derivs, decisive) = monte_carlo_model(&seeds, &attrib, sums, single);
        assert!(decisive.iter().filter(|d| !**d).count() < prices.len() / 50);
        assert!(prices.iter().filter(|p| **p > 0.0).count() > prices.len() / 10);
        let struct_bytes: Vec<u8> = if single {
            fields
                .iter()
                .flat_map(|f| [*f; 4])
                .flat_map(|f| f.to_le_bytes())
                .collect()
        } else {
            fields
                .iter()
                .flat_map(|f| [f64::from(*f); 4])
                .flat_map(|f| f.to_le_bytes())
                .collect()
        };
        let elem = if single { 4 } else { 8 };
        for r in runners(file, enc) {
            let out = r.run(
                "calPriceVega",
                dims(w as u32, h as u32),
                dims(64, 1),
                &[
                    buf(struct_bytes.clone()),
                    i32v(sums),
                    i32v(w as i32),
                    buf(bytes_of(&seeds)),
                    zero(8 * elem * w * h),
                    zero(8 * elem * w * h),
                ],
            );
            let values = |bytes: &[u8]| -> Vec<f64> {
                if single {
                    f32s_of(bytes).into_iter().map(f64::from).collect()
                } else {
                    bytes
                        .chunks_exact(8)
                        .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
                        .collect()
                }
            };
            let tol = if single { 1e-3 } else { 1e-9 };
            for (what, got, want) in [
                ("priceSamples", &out[4], &prices),
                ("pathDeriv", &out[5], &derivs),
            ] {
                for (i, (g, w)) in values(got).iter().zip(want.iter()).enumerate() {
                    let err = (g - w).abs() / w.abs().max(1.0);
                    assert!(
                        !decisive[i] || err <= tol,
                        "{file} {what} on {:?}: element {i} is {g}, the model's {w}",
                        r.engine
                    );
                }
            }
        }
    }
}
