//! Lane loads with per-lane addresses ("gathers") run by host code that compiled blocks call:
//! one call loads every lane of a wave, with AVX2 gather instructions where the host has them.
//!
//! The contract is the inline lane loop's ([`crate::emit`]'s memory module): a lane acts when
//! its mask bit (bit 0 of its mask slot entry) is set, or always without a mask; an acting
//! lane's address (cut to 32 bits for the LDS and private memory) must satisfy
//! `lo <= a <= last`, the window's bounds for an access of this width; an acting lane `l` gets
//! the `W` bytes at `base + l * stride + a` (the stride is a private segment's size, else 0),
//! sign- or zero-extended to 64 bits and cut to the result type by `ty_mask`; a lane that does
//! not act gets 0. The return value is 1 when every acting lane passed its check, else 0: the
//! result slot then holds garbage and the caller runs the instruction's exact slow path
//! (which reports the first failing lane's fault). No address outside the window is ever
//! read, whatever the return value: a failing lane is not loaded.
//!
//! The scratch slots hold one `u64` per lane ([`wavejit_runtime::Lanes`]); the result slot
//! may be the address slot (each lane's address is read before its result is written).
//!
//! **Into a register row** ([`gather_row_fn`], for a direct load of 32 bits, see
//! [`crate::plan::Plan::direct_write`]): the same checks, all of them before anything is
//! written, then each acting lane's 32-bit value goes to its entry of a `u32` register row
//! and the other lanes' entries keep theirs (the masked register write). When a lane fails
//! its check, the row is untouched.

/// The signature compiled code calls: `(base, lo, last, cut, addrs, mask, out, ty_mask,
/// lanes, stride) -> ok`, `mask` null when every lane acts; `out` a result slot (`u64`
/// entries) or a register row (`u32`).
pub(crate) type GatherInto<T> = unsafe extern "C" fn(
    *const u8,
    u64,
    u64,
    u64,
    *const u64,
    *const u64,
    *mut T,
    u64,
    u64,
    u64,
) -> u32;

/// A gather into a result slot.
pub(crate) type GatherFn = GatherInto<u64>;

/// A gather into a register row.
pub(crate) type GatherRowFn = GatherInto<u32>;

/// The gather for loads of `width` bytes (1, 2, 4 or 8), sign- or zero-extended, with a
/// stride or without (0): the AVX2 version when the host has AVX2, the width is 4 or 8 and
/// there is no stride, else the portable one.
pub(crate) fn gather_fn(width: u32, signed: bool, strided: bool) -> GatherFn {
    #[cfg(target_arch = "x86_64")]
    if !strided && std::is_x86_feature_detected!("avx2") {
        match (width, signed) {
            (4, false) => return avx2::gather::<4, false>,
            (4, true) => return avx2::gather::<4, true>,
            (8, _) => return avx2::gather::<8, false>,
            _ => {}
        }
    }
    portable_fn(width, signed)
}

/// The gather of 32-bit lanes into a register row (see the module doc): the signature of
/// [`GatherFn`] with `out` a row of `lanes` `u32`s (`ty_mask` unused); AVX2 without a stride
/// where the host has it, else portable.
pub(crate) fn gather_row_fn(strided: bool) -> GatherRowFn {
    #[cfg(target_arch = "x86_64")]
    if !strided && std::is_x86_feature_detected!("avx2") {
        return avx2::gather_row;
    }
    gather_row
}

/// The portable gather into a register row (see the module doc).
///
/// # Safety
/// As [`gather`]'s, with `out` a row of `lanes` `u32`s.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn gather_row(
    base: *const u8,
    lo: u64,
    last: u64,
    cut: u64,
    addrs: *const u64,
    mask: *const u64,
    out: *mut u32,
    _ty_mask: u64,
    lanes: u64,
    stride: u64,
) -> u32 {
    let on = |l: usize| mask.is_null() || mask.add(l).read() & 1 != 0;
    for l in 0..lanes as usize {
        let a = addrs.add(l).read() & cut;
        if on(l) && (a < lo || a > last) {
            return 0;
        }
    }
    for l in 0..lanes as usize {
        if on(l) {
            let a = addrs.add(l).read() & cut;
            let p = base.add(l * stride as usize + a as usize);
            out.add(l).write(p.cast::<u32>().read_unaligned());
        }
    }
    1
}

/// The portable gather of `width` bytes (the reference the AVX2 versions are tested against).
pub(crate) fn portable_fn(width: u32, signed: bool) -> GatherFn {
    match (width, signed) {
        (1, false) => gather::<1, false>,
        (1, true) => gather::<1, true>,
        (2, false) => gather::<2, false>,
        (2, true) => gather::<2, true>,
        (4, false) => gather::<4, false>,
        (4, true) => gather::<4, true>,
        _ => gather::<8, false>,
    }
}

/// `W` bytes at `p`, sign- or zero-extended to 64 bits.
///
/// # Safety
/// `p..p + W` must be readable.
#[inline(always)]
unsafe fn read<const W: usize, const S: bool>(p: *const u8) -> u64 {
    match (W, S) {
        (1, false) => u64::from(p.read()),
        (1, true) => p.cast::<i8>().read() as i64 as u64,
        (2, false) => u64::from(p.cast::<u16>().read_unaligned()),
        (2, true) => p.cast::<i16>().read_unaligned() as i64 as u64,
        (4, false) => u64::from(p.cast::<u32>().read_unaligned()),
        (4, true) => p.cast::<i32>().read_unaligned() as i64 as u64,
        _ => p.cast::<u64>().read_unaligned(),
    }
}

/// The portable gather (see the module doc).
///
/// # Safety
/// `addrs`, `out` and (when not null) `mask` hold `lanes` entries; for every lane `l`,
/// `base + l * stride + lo ..= base + l * stride + last + W` is readable host memory.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn gather<const W: usize, const S: bool>(
    base: *const u8,
    lo: u64,
    last: u64,
    cut: u64,
    addrs: *const u64,
    mask: *const u64,
    out: *mut u64,
    ty_mask: u64,
    lanes: u64,
    stride: u64,
) -> u32 {
    for l in 0..lanes as usize {
        let on = mask.is_null() || mask.add(l).read() & 1 != 0;
        if !on {
            out.add(l).write(0);
            continue;
        }
        let a = addrs.add(l).read() & cut;
        if a < lo || a > last {
            return 0;
        }
        let p = base.add(l * stride as usize + a as usize);
        out.add(l).write(read::<W, S>(p) & ty_mask);
    }
    1
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Per four lanes: the acting lanes (all ones), and whether an acting lane fails its
    /// check (all ones), for addresses `a` already cut.
    ///
    /// # Safety
    /// AVX2; `mask` null or holding four lanes.
    #[inline(always)]
    unsafe fn acting(
        mask: *const u64,
        a: __m256i,
        lo: __m256i,
        last: __m256i,
    ) -> (__m256i, __m256i) {
        let on = if mask.is_null() {
            _mm256_set1_epi64x(-1)
        } else {
            let m = _mm256_loadu_si256(mask.cast());
            let bit = _mm256_and_si256(m, _mm256_set1_epi64x(1));
            _mm256_cmpeq_epi64(bit, _mm256_set1_epi64x(1))
        };
        // Unsigned compares as signed ones after flipping the sign bits.
        let flip = _mm256_set1_epi64x(i64::MIN);
        let (a, lo, last) = (
            _mm256_xor_si256(a, flip),
            _mm256_xor_si256(lo, flip),
            _mm256_xor_si256(last, flip),
        );
        let outside = _mm256_or_si256(_mm256_cmpgt_epi64(lo, a), _mm256_cmpgt_epi64(a, last));
        (on, _mm256_and_si256(on, outside))
    }

    /// How four acting lanes' addresses lie: one after another (`a0 + width * k`) or all the
    /// same; then one load serves the four (every address was checked, so the span is inside
    /// the window). Both are common in GPU code (rows of a tile, a value every lane of a row
    /// reads), and a hardware gather costs several times a load.
    enum Shape {
        Consecutive(u64),
        Same(u64),
        Other,
    }

    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn shape(a: __m256i, on: __m256i, width: i64) -> Shape {
        if _mm256_movemask_pd(_mm256_castsi256_pd(on)) != 0xf {
            return Shape::Other;
        }
        let a0 = _mm256_permute4x64_epi64::<0>(a);
        let step = _mm256_setr_epi64x(0, width, 2 * width, 3 * width);
        let all = |eq: __m256i| _mm256_movemask_pd(_mm256_castsi256_pd(eq)) == 0xf;
        let first = _mm256_extract_epi64::<0>(a) as u64;
        if all(_mm256_cmpeq_epi64(a, _mm256_add_epi64(a0, step))) {
            Shape::Consecutive(first)
        } else if all(_mm256_cmpeq_epi64(a, a0)) {
            Shape::Same(first)
        } else {
            Shape::Other
        }
    }

    /// The gather of `W` (4 or 8) bytes (see the module doc), for a stride of 0.
    ///
    /// # Safety
    /// As the portable gather's, and the host has AVX2.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe extern "C" fn gather<const W: usize, const S: bool>(
        base: *const u8,
        lo: u64,
        last: u64,
        cut: u64,
        addrs: *const u64,
        mask: *const u64,
        out: *mut u64,
        ty_mask: u64,
        lanes: u64,
        _stride: u64,
    ) -> u32 {
        let (vlo, vlast) = (
            _mm256_set1_epi64x(lo as i64),
            _mm256_set1_epi64x(last as i64),
        );
        let (vcut, vty) = (
            _mm256_set1_epi64x(cut as i64),
            _mm256_set1_epi64x(ty_mask as i64),
        );
        let n = lanes as usize;
        let mut l = 0;
        while l + 4 <= n {
            let a = _mm256_and_si256(_mm256_loadu_si256(addrs.add(l).cast()), vcut);
            let m = if mask.is_null() { mask } else { mask.add(l) };
            let (on, bad) = acting(m, a, vlo, vlast);
            if _mm256_testz_si256(bad, bad) == 0 {
                return 0;
            }
            let at = |a0: u64| base.add(a0 as usize);
            let v = if W == 8 {
                match shape(a, on, 8) {
                    Shape::Consecutive(a0) => _mm256_loadu_si256(at(a0).cast()),
                    Shape::Same(a0) => _mm256_set1_epi64x(at(a0).cast::<i64>().read_unaligned()),
                    Shape::Other => {
                        _mm256_mask_i64gather_epi64::<1>(_mm256_setzero_si256(), base.cast(), a, on)
                    }
                }
            } else {
                let v = match shape(a, on, 4) {
                    Shape::Consecutive(a0) => _mm_loadu_si128(at(a0).cast()),
                    Shape::Same(a0) => _mm_set1_epi32(at(a0).cast::<i32>().read_unaligned()),
                    Shape::Other => {
                        // The four 32-bit mask lanes are the high halves of the 64-bit ones.
                        let on32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
                            on,
                            _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7),
                        ));
                        _mm256_mask_i64gather_epi32::<1>(_mm_setzero_si128(), base.cast(), a, on32)
                    }
                };
                if S {
                    _mm256_cvtepi32_epi64(v)
                } else {
                    _mm256_cvtepu32_epi64(v)
                }
            };
            _mm256_storeu_si256(out.add(l).cast(), _mm256_and_si256(v, vty));
            l += 4;
        }
        if l < n {
            let f: super::GatherFn = super::gather::<W, S>;
            return tail(f, base, [lo, last, cut, ty_mask], addrs, mask, out, l, n);
        }
        1
    }

    /// The portable gather `f` on lanes `l..n`: the tail after the steps of four lanes.
    /// `bounds` are `lo`, `last`, `cut` and `ty_mask`.
    ///
    /// # Safety
    /// As `f`'s for lanes `0..n`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn tail<T>(
        f: super::GatherInto<T>,
        base: *const u8,
        bounds: [u64; 4],
        addrs: *const u64,
        mask: *const u64,
        out: *mut T,
        l: usize,
        n: usize,
    ) -> u32 {
        let m = if mask.is_null() { mask } else { mask.add(l) };
        let [lo, last, cut, ty_mask] = bounds;
        f(
            base,
            lo,
            last,
            cut,
            addrs.add(l),
            m,
            out.add(l),
            ty_mask,
            (n - l) as u64,
            0,
        )
    }

    /// Four lanes' 32-bit values by their [`Shape`] (the acting lanes' addresses checked).
    ///
    /// # Safety
    /// AVX2; every acting lane's address is readable at `base`.
    #[inline(always)]
    unsafe fn load4(base: *const u8, a: __m256i, on: __m256i) -> __m128i {
        let at = |a0: u64| base.add(a0 as usize);
        match shape(a, on, 4) {
            Shape::Consecutive(a0) => _mm_loadu_si128(at(a0).cast()),
            Shape::Same(a0) => _mm_set1_epi32(at(a0).cast::<i32>().read_unaligned()),
            Shape::Other => {
                _mm256_mask_i64gather_epi32::<1>(_mm_setzero_si128(), base.cast(), a, on32(on))
            }
        }
    }

    /// The four 32-bit lanes of a 64-bit lane mask (its high halves).
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn on32(on: __m256i) -> __m128i {
        _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
            on,
            _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7),
        ))
    }

    /// The gather into a register row (see the module doc), for a stride of 0.
    ///
    /// # Safety
    /// As the portable one's, and the host has AVX2.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe extern "C" fn gather_row(
        base: *const u8,
        lo: u64,
        last: u64,
        cut: u64,
        addrs: *const u64,
        mask: *const u64,
        out: *mut u32,
        ty_mask: u64,
        lanes: u64,
        _stride: u64,
    ) -> u32 {
        let (vlo, vlast) = (
            _mm256_set1_epi64x(lo as i64),
            _mm256_set1_epi64x(last as i64),
        );
        let vcut = _mm256_set1_epi64x(cut as i64);
        let n = lanes as usize;
        let quad = |l: usize| {
            let a = _mm256_and_si256(_mm256_loadu_si256(addrs.add(l).cast()), vcut);
            let m = if mask.is_null() { mask } else { mask.add(l) };
            let (on, bad) = acting(m, a, vlo, vlast);
            (a, on, bad)
        };
        // Every check first: a failing lane leaves the row as it was.
        let mut l = 0;
        while l + 4 <= n {
            let (_, _, bad) = quad(l);
            if _mm256_testz_si256(bad, bad) == 0 {
                return 0;
            }
            l += 4;
        }
        // (`lanes` is a multiple of 4 for every wave size; a tail is checked and written
        // before the rest, which has passed its checks.)
        if l < n {
            let f: super::GatherRowFn = super::gather_row;
            if tail(f, base, [lo, last, cut, ty_mask], addrs, mask, out, l, n) == 0 {
                return 0;
            }
        }
        let mut l = 0;
        while l + 4 <= n {
            let (a, on, _) = quad(l);
            let v = load4(base, a, on);
            let old = _mm_loadu_si128(out.add(l).cast());
            let v = _mm_blendv_epi8(old, v, on32(on));
            _mm_storeu_si128(out.add(l).cast(), v);
            l += 4;
        }
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::next;

    /// The definition, lane by lane, written out without the gathers' structure.
    #[allow(clippy::too_many_arguments)]
    fn expected(
        mem: &[u8],
        stride: u64,
        lo: u64,
        last: u64,
        cut: u64,
        addrs: &[u64],
        mask: Option<&[u64]>,
        width: u32,
        signed: bool,
        ty_mask: u64,
    ) -> Option<Vec<u64>> {
        let mut out = Vec::new();
        for (l, &a) in addrs.iter().enumerate() {
            if mask.is_some_and(|m| m[l] & 1 == 0) {
                out.push(0);
                continue;
            }
            let a = a & cut;
            if a < lo || a > last {
                return None;
            }
            let mut bytes = [0u8; 8];
            let at = l * stride as usize + a as usize;
            bytes[..width as usize].copy_from_slice(&mem[at..][..width as usize]);
            let raw = u64::from_le_bytes(bytes);
            let bits = 8 * width;
            let v = if signed && bits < 64 {
                ((raw << (64 - bits)) as i64 >> (64 - bits)) as u64
            } else {
                raw
            };
            out.push(v & ty_mask);
        }
        Some(out)
    }

    /// One random gather: its window, addresses, mask and stride.
    struct Case {
        lanes: u64,
        cut: u64,
        lo: u64,
        last: u64,
        addrs: Vec<u64>,
        mask: Option<Vec<u64>>,
        stride: u64,
    }

    impl Case {
        /// Mostly inside; sometimes one lane just outside either end, or with high bits that
        /// only the LDS cut removes; runs of consecutive or equal addresses (the shapes the
        /// AVX2 gathers load at once), some crossing the window's end.
        fn new(s: &mut u64, round: usize, width: u32) -> Case {
            let lanes = [64u64, 32, 7, 1, 4][round % 5];
            let lds = round.is_multiple_of(3);
            let cut = if lds { 0xffff_ffff } else { u64::MAX };
            let lo = next(s) % 32;
            let last = 255 - u64::from(width) - next(s) % 32;
            let start = lo + next(s) % 24;
            let addrs = (0..lanes)
                .map(|l| {
                    let r = next(s);
                    match (round / 4 % 3, r % 97) {
                        (_, 0) => lo.wrapping_sub(1),
                        (_, 1) => last + 1,
                        (_, 2) => lo + (r >> 8) % (last - lo + 1) + (1 << 32),
                        (0, _) => start + l * u64::from(width),
                        (1, _) => start,
                        _ => lo + (r >> 8) % (last - lo + 1),
                    }
                })
                .collect();
            let mask = round
                .is_multiple_of(2)
                .then(|| (0..lanes).map(|_| next(s) & 3).collect());
            let stride = if round.is_multiple_of(7) { 256 } else { 0 };
            Case {
                lanes,
                cut,
                lo,
                last,
                addrs,
                mask,
                stride,
            }
        }

        /// [`expected`] for this case.
        fn expected(&self, mem: &[u8], width: u32, signed: bool, ty: u64) -> Option<Vec<u64>> {
            let (m, c) = (self.mask.as_deref(), self.cut);
            expected(
                mem,
                self.stride,
                self.lo,
                self.last,
                c,
                &self.addrs,
                m,
                width,
                signed,
                ty,
            )
        }

        /// Runs `f` into `out`.
        fn run<T>(&self, f: GatherInto<T>, mem: &[u8], out: &mut [T], ty_mask: u64) -> u32 {
            let mask = self.mask.as_ref().map_or(std::ptr::null(), |m| m.as_ptr());
            // SAFETY: every buffer holds `lanes` entries; `mem` holds every segment's window.
            unsafe {
                f(
                    mem.as_ptr(),
                    self.lo,
                    self.last,
                    self.cut,
                    self.addrs.as_ptr(),
                    mask,
                    out.as_mut_ptr(),
                    ty_mask,
                    self.lanes,
                    self.stride,
                )
            }
        }
    }

    #[test]
    fn every_gather_matches_the_definition() {
        let mut s = 7u64;
        // 64 segments of 256 bytes: windows of one segment, or one per lane (a stride).
        let mem: Vec<u8> = (0..256 * 64).map(|_| next(&mut s) as u8).collect();
        for round in 0..3000 {
            let width = [1u32, 2, 4, 8][round % 4];
            let signed = round % 8 >= 4;
            let c = Case::new(&mut s, round, width);
            let ty_mask = if round.is_multiple_of(5) {
                0xffff
            } else {
                u64::MAX
            };
            let want = c.expected(&mem, width, signed, ty_mask);
            for f in [
                gather_fn(width, signed, c.stride != 0),
                portable_fn(width, signed),
            ] {
                let mut out = vec![0xdead_beefu64; c.lanes as usize];
                let ok = c.run(f, &mem, &mut out, ty_mask);
                match &want {
                    Some(w) => {
                        assert_eq!(ok, 1, "round {round}");
                        assert_eq!(&out, w, "round {round}");
                    }
                    None => assert_eq!(ok, 0, "round {round}"),
                }
            }
        }
    }

    #[test]
    fn gathers_into_a_row_match_the_definition_and_leave_it_on_a_failure() {
        let mut s = 11u64;
        let mem: Vec<u8> = (0..256 * 64).map(|_| next(&mut s) as u8).collect();
        for round in 0..2000 {
            let c = Case::new(&mut s, round, 4);
            let before: Vec<u32> = (0..c.lanes).map(|_| next(&mut s) as u32).collect();
            // The definition: the slot gather's values in the acting lanes, the old entries
            // elsewhere; nothing written when a lane fails.
            let want = c.expected(&mem, 4, false, u64::MAX).map(|v| {
                (0..c.lanes as usize)
                    .map(|l| match &c.mask {
                        Some(m) if m[l] & 1 == 0 => before[l],
                        _ => v[l] as u32,
                    })
                    .collect::<Vec<u32>>()
            });
            for f in [gather_row_fn(c.stride != 0), gather_row] {
                let mut row = before.clone();
                let ok = c.run(f, &mem, &mut row, 0);
                match &want {
                    Some(w) => {
                        assert_eq!(ok, 1, "round {round}");
                        assert_eq!(&row, w, "round {round}");
                    }
                    None => {
                        assert_eq!(ok, 0, "round {round}");
                        assert_eq!(row, before, "round {round}: the row after a failure");
                    }
                }
            }
        }
    }
}
