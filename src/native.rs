//! The native Rust reference of `benches/kernels/alu_heavy.cl`: the same computation, written
//! the way a SIMD programmer would (lanes innermost, so LLVM vectorises it), compiled for the
//! host's AVX2 and FMA when the CPU has them (the equivalent of `-C target-cpu=native` for
//! this function). Benchmarks compare the emulator's throughput against it.

/// Work-items per work-group of the reference (the kernel's `reqd_work_group_size`).
const WAVE: usize = crate::bench::GROUP_ITEMS as usize;

/// Runs the kernel for `input.len()` work-items (a multiple of 64), writing `out`.
pub fn alu_heavy(out: &mut [f32], input: &[f32], iters: u32, active: u32) {
    assert_eq!(out.len(), input.len());
    assert_eq!(input.len() % WAVE, 0);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the features the function is compiled for were just detected.
        unsafe { alu_heavy_avx2(out, input, iters, active) };
        return;
    }
    alu_heavy_portable(out, input, iters, active)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn alu_heavy_avx2(out: &mut [f32], input: &[f32], iters: u32, active: u32) {
    alu_heavy_portable(out, input, iters, active)
}

#[inline(always)]
fn alu_heavy_portable(out: &mut [f32], input: &[f32], iters: u32, active: u32) {
    for (w, (o, inp)) in out
        .chunks_exact_mut(WAVE)
        .zip(input.chunks_exact(WAVE))
        .enumerate()
    {
        let mut a = [0f32; WAVE];
        let mut b = [0f32; WAVE];
        let mut c = [0f32; WAVE];
        let mut h = [0u32; WAVE];
        let mut live = [false; WAVE];
        for l in 0..WAVE {
            let i = (w * WAVE + l) as u32;
            a[l] = inp[l];
            b[l] = a[l] * 0.5 + 1.0;
            c[l] = 1.0 - a[l];
            h[l] = i.wrapping_mul(2654435761).wrapping_add(1);
            live[l] = (i & 3) < active;
        }
        for _ in 0..iters {
            for l in 0..WAVE {
                let na = a[l].mul_add(b[l], c[l]);
                let nb = (b[l] * 0.999).min(na + 3.0);
                let nc = (c[l] - 0.25).max(-na);
                let mut nh = h[l];
                nh ^= nh << 13;
                nh ^= nh >> 17;
                nh ^= nh << 5;
                let na = na * 0.5 + (nh & 255) as f32 * 0.001;
                if live[l] {
                    a[l] = na;
                    b[l] = nb;
                    c[l] = nc;
                    h[l] = nh;
                }
            }
        }
        for l in 0..WAVE {
            o[l] = a[l] + b[l] + c[l] + (h[l] & 0xffff) as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    /// The reference against a plain per-work-item transcription of the OpenCL C source.
    #[test]
    fn matches_the_kernel_source() {
        let input: Vec<f32> = (0..128).map(|i| (i as f32) * 0.01 - 0.3).collect();
        for active in [3, 4] {
            let mut out = vec![0f32; 128];
            super::alu_heavy(&mut out, &input, 17, active);
            for (i, &x) in input.iter().enumerate() {
                let i = i as u32;
                let (mut a, mut h) = (x, i.wrapping_mul(2654435761).wrapping_add(1));
                let (mut b, mut c) = (a * 0.5 + 1.0, 1.0 - a);
                if (i & 3) < active {
                    for _ in 0..17 {
                        a = a.mul_add(b, c);
                        b = (b * 0.999).min(a + 3.0);
                        c = (c - 0.25).max(-a);
                        h ^= h << 13;
                        h ^= h >> 17;
                        h ^= h << 5;
                        a = a * 0.5 + (h & 255) as f32 * 0.001;
                    }
                }
                let want = a + b + c + (h & 0xffff) as f32;
                assert_eq!(out[i as usize].to_bits(), want.to_bits(), "work-item {i}");
            }
        }
    }
}
