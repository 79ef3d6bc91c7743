//! Gathers of 32-bit words at 32-bit offsets read from a register row: the LDS lane loads
//! whose address is a register plus uniform offsets ([`crate::row_address`] with `bits32`),
//! which compiled blocks call instead of filling an address slot for [`crate::gather`].
//!
//! The contract is the slot gather's with the address of lane `l` being `row[l] + add`
//! (32-bit, wrapping): the lane acts when `mask` is null or bit 0 of `mask[l]` is set; an
//! acting lane's offset must satisfy `lo <= a <= last`, and then gets the 4 bytes at
//! `base + a`. The return value is 1 when every acting lane passed its check, else 0, and no
//! byte outside the window is ever read.
//! - **Into a result slot** ([`OffsetGatherFn`]): a `u64` per lane, the word zero-extended,
//!   0 for a lane that does not act; garbage after a failure.
//! - **Into a register row** ([`OffsetGatherRowFn`]): the acting lanes' entries of a `u32`
//!   row, the others keep theirs; every check runs before anything is written, so a failure
//!   leaves the row untouched.
//! - **Into a packed result slot** ([`OffsetGatherPackedFn`]): a `u32` per lane, 0 for a lane
//!   that does not act; garbage after a failure.
//!
//! The AVX2 versions take eight lanes a step, and eight acting lanes at consecutive or equal
//! offsets in one load (a tile's row, a value a row of lanes shares); other lanes load one by
//! one (a hardware gather costs more than eight loads on the hosts measured). The AVX-512
//! versions do the same sixteen lanes a step, with mask registers for the lanes that act.

/// The signature compiled code calls: `(base, lo, last, add, row, mask, out, lanes, 0, 0) ->
/// ok` (the shape of [`crate::gather::GatherInto`], whose signature the blocks import).
pub(crate) type OffsetGatherInto<T> = unsafe extern "C" fn(
    *const u8,
    u64,
    u64,
    u64,
    *const u32,
    *const u64,
    *mut T,
    u64,
    u64,
    u64,
) -> u32;

/// Into a result slot.
pub(crate) type OffsetGatherFn = OffsetGatherInto<u64>;

/// Into a register row.
pub(crate) type OffsetGatherRowFn = OffsetGatherInto<u32>;

/// A lane of a packed result slot ([`crate::plan::Plan::packed`]): the word, 0 for a lane that
/// does not act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct Packed(pub u32);

/// Into a packed result slot.
pub(crate) type OffsetGatherPackedFn = OffsetGatherInto<Packed>;

/// The gather into a result slot: AVX-512 or AVX2 where the host has it, else portable.
pub(crate) fn offset_gather_fn() -> OffsetGatherFn {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            return avx512::gather::<u64>;
        }
        if std::is_x86_feature_detected!("avx2") {
            return avx2::gather::<u64>;
        }
    }
    portable::<u64>
}

/// The gather into a packed result slot: AVX-512 or AVX2 where the host has it, else portable.
pub(crate) fn offset_gather_packed_fn() -> OffsetGatherPackedFn {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            return avx512::gather::<Packed>;
        }
        if std::is_x86_feature_detected!("avx2") {
            return avx2::gather::<Packed>;
        }
    }
    portable::<Packed>
}

/// The gather into a register row: AVX-512 or AVX2 where the host has it, else portable.
pub(crate) fn offset_gather_row_fn() -> OffsetGatherRowFn {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            return avx512::gather::<u32>;
        }
        if std::is_x86_feature_detected!("avx2") {
            return avx2::gather::<u32>;
        }
    }
    portable::<u32>
}

/// Whether lane `l` acts.
///
/// # Safety
/// `mask` is null or holds lane `l`.
#[inline(always)]
unsafe fn acts(mask: *const u64, l: usize) -> bool {
    mask.is_null() || mask.add(l).read() & 1 != 0
}

/// Lane `l`'s offset.
///
/// # Safety
/// `row` holds lane `l`.
#[inline(always)]
unsafe fn offset(row: *const u32, add: u64, l: usize) -> u64 {
    u64::from(row.add(l).read().wrapping_add(add as u32))
}

/// Where a gather's words go: a result slot or a register row.
trait Out: Copy {
    /// Whether every lane is checked before anything is written (a row must stay untouched
    /// when a lane fails).
    const CHECK_FIRST: bool;
    /// Lane `l` of `out` after the lane's word `w` (`None`: the lane does not act).
    ///
    /// # Safety
    /// `out` holds lane `l`.
    unsafe fn put(out: *mut Self, l: usize, w: Option<u32>);
}

impl Out for u64 {
    const CHECK_FIRST: bool = false;
    unsafe fn put(out: *mut u64, l: usize, w: Option<u32>) {
        out.add(l).write(w.map_or(0, u64::from));
    }
}

impl Out for Packed {
    const CHECK_FIRST: bool = false;
    unsafe fn put(out: *mut Packed, l: usize, w: Option<u32>) {
        out.add(l).write(Packed(w.unwrap_or(0)));
    }
}

impl Out for u32 {
    const CHECK_FIRST: bool = true;
    unsafe fn put(out: *mut u32, l: usize, w: Option<u32>) {
        if let Some(w) = w {
            out.add(l).write(w);
        }
    }
}

/// The portable gather (see the module doc).
///
/// # Safety
/// `row`, `out` and (when not null) `mask` hold `lanes` entries; `base + lo ..= base + last
/// + 4` is readable.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn portable<T: Out>(
    base: *const u8,
    lo: u64,
    last: u64,
    add: u64,
    row: *const u32,
    mask: *const u64,
    out: *mut T,
    lanes: u64,
    _: u64,
    _: u64,
) -> u32 {
    let n = lanes as usize;
    let fails = |l: usize| {
        let a = offset(row, add, l);
        acts(mask, l) && (a < lo || a > last)
    };
    if T::CHECK_FIRST && (0..n).any(fails) {
        return 0;
    }
    for l in 0..n {
        if fails(l) {
            return 0;
        }
        let word = |a: u64| base.add(a as usize).cast::<u32>().read_unaligned();
        T::put(out, l, acts(mask, l).then(|| word(offset(row, add, l))));
    }
    1
}

/// The SIMD gathers' walk over `n` lanes, `step` a time: when `T` checks first (a row must
/// stay untouched by a failing gather), every step's check before any put; then each step's
/// check and, when every acting lane of it passed, its put. Returns 1, or 0 at the first
/// step with a lane failing. `check(l)` gives what step `l` loads and whether it passed.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn steps<T: Out, X>(
    n: usize,
    step: usize,
    check: impl Fn(usize) -> (X, bool),
    put: impl Fn(usize, X),
) -> u32 {
    if T::CHECK_FIRST && !(0..n).step_by(step).all(|l| check(l).1) {
        return 0;
    }
    for l in (0..n).step_by(step) {
        let (x, ok) = check(l);
        if !ok {
            return 0;
        }
        put(l, x);
    }
    1
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Eight lanes from lane `l`: their offsets, which act (all ones), and which acting ones
    /// fail their check (all ones), for bounds already cut to 32 bits with their sign bits
    /// flipped (`lo`, `last`).
    ///
    /// # Safety
    /// AVX2; `row` and (when not null) `mask` hold lanes `l .. l + 8`.
    #[inline(always)]
    unsafe fn eight(
        row: *const u32,
        add: __m256i,
        mask: *const u64,
        l: usize,
        lo: __m256i,
        last: __m256i,
    ) -> (__m256i, __m256i, __m256i) {
        let a = _mm256_add_epi32(_mm256_loadu_si256(row.add(l).cast()), add);
        let on = if mask.is_null() {
            _mm256_set1_epi32(-1)
        } else {
            let one = _mm256_set1_epi64x(1);
            let half = |k: usize| {
                let m = _mm256_loadu_si256(mask.add(l + k).cast());
                let on = _mm256_cmpeq_epi64(_mm256_and_si256(m, one), one);
                // The four 32-bit halves of the 64-bit lanes, in the low 128 bits.
                let idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
                _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(on, idx))
            };
            _mm256_set_m128i(half(4), half(0))
        };
        // Unsigned compares as signed ones after flipping the sign bits.
        let af = _mm256_xor_si256(a, _mm256_set1_epi32(i32::MIN));
        let outside = _mm256_or_si256(_mm256_cmpgt_epi32(lo, af), _mm256_cmpgt_epi32(af, last));
        (a, on, _mm256_and_si256(on, outside))
    }

    /// The eight lanes' words: one load for eight acting lanes at consecutive or equal
    /// offsets, else a load per acting lane (0 for the others).
    ///
    /// # Safety
    /// AVX2; every acting lane's offset has passed its check.
    #[inline(always)]
    unsafe fn load8(base: *const u8, a: __m256i, on: __m256i) -> __m256i {
        let a0 = _mm256_extract_epi32::<0>(a) as u32 as usize;
        if _mm256_movemask_epi8(on) == -1 {
            let first = _mm256_set1_epi32(a0 as i32);
            let steps = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
            let all = |eq: __m256i| _mm256_movemask_epi8(eq) == -1;
            if all(_mm256_cmpeq_epi32(a, _mm256_add_epi32(first, steps))) {
                return _mm256_loadu_si256(base.add(a0).cast());
            }
            if all(_mm256_cmpeq_epi32(a, first)) {
                return _mm256_set1_epi32(base.add(a0).cast::<i32>().read_unaligned());
            }
        }
        let mut offs = [0u32; 8];
        _mm256_storeu_si256(offs.as_mut_ptr().cast(), a);
        let on = _mm256_movemask_ps(_mm256_castsi256_ps(on));
        let mut words = [0u32; 8];
        for (k, w) in words.iter_mut().enumerate() {
            if on & (1 << k) != 0 {
                *w = base.add(offs[k] as usize).cast::<u32>().read_unaligned();
            }
        }
        _mm256_loadu_si256(words.as_ptr().cast())
    }

    /// The bounds as [`eight`] takes them, or `None` when no offset can pass (`lo` above
    /// 32 bits).
    #[inline(always)]
    unsafe fn bounds(lo: u64, last: u64) -> Option<(__m256i, __m256i)> {
        let lo = u32::try_from(lo).ok()?;
        let last = u32::try_from(last).unwrap_or(u32::MAX);
        let flip = |x: u32| _mm256_set1_epi32((x ^ 0x8000_0000) as i32);
        Some((flip(lo), flip(last)))
    }

    /// Eight lanes' words into `out` from lane `l`: zero-extended into a result slot, or
    /// blended into a register row (the acting lanes only).
    pub(super) trait Out8: super::Out {
        /// # Safety
        /// AVX2; `out` holds lanes `l .. l + 8`.
        unsafe fn put8(out: *mut Self, l: usize, words: __m256i, on: __m256i);
    }

    impl Out8 for u64 {
        #[inline(always)]
        unsafe fn put8(out: *mut u64, l: usize, words: __m256i, on: __m256i) {
            let v = _mm256_and_si256(words, on);
            let low = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v));
            let high = _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(v));
            _mm256_storeu_si256(out.add(l).cast(), low);
            _mm256_storeu_si256(out.add(l + 4).cast(), high);
        }
    }

    impl Out8 for super::Packed {
        #[inline(always)]
        unsafe fn put8(out: *mut super::Packed, l: usize, words: __m256i, on: __m256i) {
            _mm256_storeu_si256(out.add(l).cast(), _mm256_and_si256(words, on));
        }
    }

    impl Out8 for u32 {
        #[inline(always)]
        unsafe fn put8(out: *mut u32, l: usize, words: __m256i, on: __m256i) {
            let old = _mm256_loadu_si256(out.add(l).cast());
            _mm256_storeu_si256(out.add(l).cast(), _mm256_blendv_epi8(old, words, on));
        }
    }

    /// The gather (see the module doc), eight lanes a step; the portable one for a lane count
    /// that is not a multiple of eight or a window that starts above 32 bits.
    ///
    /// # Safety
    /// As the portable one's, and the host has AVX2.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe extern "C" fn gather<T: Out8>(
        base: *const u8,
        lo: u64,
        last: u64,
        add: u64,
        row: *const u32,
        mask: *const u64,
        out: *mut T,
        lanes: u64,
        _: u64,
        _: u64,
    ) -> u32 {
        let n = lanes as usize;
        let Some((vlo, vlast)) = bounds(lo, last).filter(|_| n.is_multiple_of(8)) else {
            return super::portable::<T>(base, lo, last, add, row, mask, out, lanes, 0, 0);
        };
        let vadd = _mm256_set1_epi32(add as i32);
        super::steps::<T, _>(
            n,
            8,
            |l| {
                let (a, on, bad) = eight(row, vadd, mask, l, vlo, vlast);
                ((a, on), _mm256_testz_si256(bad, bad) != 0)
            },
            |l, (a, on)| T::put8(out, l, load8(base, a, on), on),
        )
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// Sixteen lanes' words into `out` from lane `l`: zero-extended into a result slot, or
    /// stored into a register row (the acting lanes only).
    pub(super) trait Out16: super::Out {
        /// # Safety
        /// AVX-512F; `out` holds lanes `l .. l + 16`.
        unsafe fn put16(out: *mut Self, l: usize, words: __m512i, on: __mmask16);
    }

    impl Out16 for u64 {
        #[inline(always)]
        unsafe fn put16(out: *mut u64, l: usize, words: __m512i, on: __mmask16) {
            let v = _mm512_maskz_mov_epi32(on, words);
            let low = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(v));
            let high = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64::<1>(v));
            _mm512_storeu_si512(out.add(l).cast(), low);
            _mm512_storeu_si512(out.add(l + 8).cast(), high);
        }
    }

    impl Out16 for super::Packed {
        #[inline(always)]
        unsafe fn put16(out: *mut super::Packed, l: usize, words: __m512i, on: __mmask16) {
            _mm512_storeu_si512(out.add(l).cast(), _mm512_maskz_mov_epi32(on, words));
        }
    }

    impl Out16 for u32 {
        #[inline(always)]
        unsafe fn put16(out: *mut u32, l: usize, words: __m512i, on: __mmask16) {
            _mm512_mask_storeu_epi32(out.add(l).cast(), on, words);
        }
    }

    /// Sixteen lanes from lane `l`: their offsets, which act, and which acting ones fail
    /// their check against the 32-bit bounds `lo ..= last`.
    ///
    /// # Safety
    /// AVX-512F; `row` and (when not null) `mask` hold lanes `l .. l + 16`.
    #[inline(always)]
    unsafe fn sixteen(
        row: *const u32,
        add: __m512i,
        mask: *const u64,
        l: usize,
        lo: __m512i,
        last: __m512i,
    ) -> (__m512i, __mmask16, __mmask16) {
        let a = _mm512_add_epi32(_mm512_loadu_si512(row.add(l).cast()), add);
        let on = if mask.is_null() {
            0xffff
        } else {
            let one = _mm512_set1_epi64(1);
            let half =
                |k: usize| _mm512_test_epi64_mask(_mm512_loadu_si512(mask.add(l + k).cast()), one);
            u16::from(half(0)) | u16::from(half(8)) << 8
        };
        let outside = _mm512_cmplt_epu32_mask(a, lo) | _mm512_cmpgt_epu32_mask(a, last);
        (a, on, on & outside)
    }

    /// The sixteen lanes' words: one load for sixteen acting lanes at consecutive or equal
    /// offsets, else a load per acting lane (0 for the others).
    ///
    /// # Safety
    /// AVX-512F; every acting lane's offset has passed its check.
    #[inline(always)]
    unsafe fn load16(base: *const u8, a: __m512i, on: __mmask16) -> __m512i {
        let a0 = _mm_cvtsi128_si32(_mm512_castsi512_si128(a)) as u32 as usize;
        if on == 0xffff {
            let first = _mm512_set1_epi32(a0 as i32);
            let steps =
                _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
            if _mm512_cmpeq_epi32_mask(a, _mm512_add_epi32(first, steps)) == 0xffff {
                return _mm512_loadu_si512(base.add(a0).cast());
            }
            if _mm512_cmpeq_epi32_mask(a, first) == 0xffff {
                return _mm512_set1_epi32(base.add(a0).cast::<i32>().read_unaligned());
            }
        }
        let mut offs = [0u32; 16];
        _mm512_storeu_si512(offs.as_mut_ptr().cast(), a);
        let mut words = [0u32; 16];
        for (k, w) in words.iter_mut().enumerate() {
            if on & (1 << k) != 0 {
                *w = base.add(offs[k] as usize).cast::<u32>().read_unaligned();
            }
        }
        _mm512_loadu_si512(words.as_ptr().cast())
    }

    /// The gather (see the module doc), sixteen lanes a step; the AVX2 one for a lane count
    /// that is not a multiple of sixteen, the portable one for a window that starts above
    /// 32 bits.
    ///
    /// # Safety
    /// As the portable one's, and the host has AVX-512F (and so AVX2).
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe extern "C" fn gather<T: Out16 + super::avx2::Out8>(
        base: *const u8,
        lo: u64,
        last: u64,
        add: u64,
        row: *const u32,
        mask: *const u64,
        out: *mut T,
        lanes: u64,
        _: u64,
        _: u64,
    ) -> u32 {
        let n = lanes as usize;
        if !n.is_multiple_of(16) {
            return super::avx2::gather::<T>(base, lo, last, add, row, mask, out, lanes, 0, 0);
        }
        let Ok(lo32) = u32::try_from(lo) else {
            return super::portable::<T>(base, lo, last, add, row, mask, out, lanes, 0, 0);
        };
        let vlo = _mm512_set1_epi32(lo32 as i32);
        let vlast = _mm512_set1_epi32(u32::try_from(last).unwrap_or(u32::MAX) as i32);
        let vadd = _mm512_set1_epi32(add as i32);
        super::steps::<T, _>(
            n,
            16,
            |l| {
                let (a, on, bad) = sixteen(row, vadd, mask, l, vlo, vlast);
                ((a, on), bad == 0)
            },
            |l, (a, on)| T::put16(out, l, load16(base, a, on), on),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::next;

    /// One random gather: window, row, offset added and mask.
    struct Case {
        lo: u64,
        last: u64,
        add: u64,
        row: Vec<u32>,
        mask: Option<Vec<u64>>,
    }

    impl Case {
        /// Mostly inside a 256-byte window; runs of consecutive or equal offsets (the shapes
        /// loaded at once); sometimes a lane just outside either end, far outside, or at an
        /// offset that only wraps into the window; sometimes bounds above 32 bits.
        fn new(s: &mut u64, round: usize) -> Case {
            let lanes = [64usize, 32, 16, 8, 12, 1][round % 6];
            let lo = next(s) % 32;
            let last = 251 - next(s) % 32;
            let add = [0u64, 4, 0xffff_fffc, 1 << 33][round / 6 % 4];
            let start = (lo + next(s) % 24).wrapping_sub(add) as u32;
            let row = (0..lanes)
                .map(|l| {
                    let r = next(s);
                    let inside = (lo + (r >> 8) % (last - lo + 1)).wrapping_sub(add) as u32;
                    match (round / 3 % 3, r % 89) {
                        (_, 0) => (lo.wrapping_sub(1)).wrapping_sub(add) as u32,
                        (_, 1) => (last + 1).wrapping_sub(add) as u32,
                        (_, 2) => 0x8000_0000,
                        (0, _) => start.wrapping_add(4 * l as u32),
                        (1, _) => start,
                        _ => inside,
                    }
                })
                .collect();
            let mask = round
                .is_multiple_of(2)
                .then(|| (0..lanes).map(|_| next(s) & 3).collect());
            let (lo, last) = match round % 11 {
                0 => (lo, last | (1 << 32)),
                1 => (lo | (1 << 32), last | (1 << 32)),
                _ => (lo, last),
            };
            Case {
                lo,
                last,
                add,
                row,
                mask,
            }
        }

        /// The definition, lane by lane: every acting lane's word, `None` when one fails.
        fn expected(&self, mem: &[u8]) -> Option<Vec<Option<u32>>> {
            let mut out = Vec::new();
            for (l, &r) in self.row.iter().enumerate() {
                if self.mask.as_ref().is_some_and(|m| m[l] & 1 == 0) {
                    out.push(None);
                    continue;
                }
                let a = u64::from(r.wrapping_add(self.add as u32));
                if a < self.lo || a > self.last {
                    return None;
                }
                let w = &mem[a as usize..][..4];
                out.push(Some(u32::from_le_bytes(w.try_into().unwrap())));
            }
            Some(out)
        }

        fn run<T>(&self, f: OffsetGatherInto<T>, mem: &[u8], out: &mut [T]) -> u32 {
            let mask = self.mask.as_ref().map_or(std::ptr::null(), |m| m.as_ptr());
            // SAFETY: the row, mask and out hold every lane; `mem` holds the window (the
            // bounds above 32 bits only widen it past what an offset can reach).
            unsafe {
                f(
                    mem.as_ptr(),
                    self.lo,
                    self.last,
                    self.add,
                    self.row.as_ptr(),
                    mask,
                    out.as_mut_ptr(),
                    self.row.len() as u64,
                    0,
                    0,
                )
            }
        }
    }

    /// Every version the host runs: the one compiled code calls, the AVX2 one under an
    /// AVX-512 host (which it then runs only for lane counts not a multiple of sixteen), and
    /// the portable one.
    fn variants<T: Out + Avx2Too>(
        chosen: OffsetGatherInto<T>,
        portable: OffsetGatherInto<T>,
    ) -> Vec<OffsetGatherInto<T>> {
        let mut v = vec![chosen, portable];
        v.extend(T::avx2());
        v
    }

    /// The AVX2 version, where the host has it.
    trait Avx2Too: Sized {
        fn avx2() -> Option<OffsetGatherInto<Self>>;
    }

    #[cfg(target_arch = "x86_64")]
    impl<T: avx2::Out8> Avx2Too for T {
        fn avx2() -> Option<OffsetGatherInto<T>> {
            std::is_x86_feature_detected!("avx2").then_some(avx2::gather::<T> as _)
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    impl<T> Avx2Too for T {
        fn avx2() -> Option<OffsetGatherInto<T>> {
            None
        }
    }

    #[test]
    fn offset_gathers_match_the_definition() {
        let mut s = 5u64;
        // Offsets that pass their checks reach at most `last + 4` below 2^32; the wrapped and
        // far ones fail, so the window's 256 bytes (and the bytes a 32-bit offset of a bound
        // above 2^32 could name, never loaded here) are all the memory needed.
        let mem: Vec<u8> = (0..256 + 4).map(|_| next(&mut s) as u8).collect();
        let mut checked = [0u32; 2];
        for round in 0..4000 {
            let c = Case::new(&mut s, round);
            let reach = |r: &u32| u64::from(r.wrapping_add(c.add as u32)) > 251;
            if c.last > u64::from(u32::MAX) && c.row.iter().any(reach) {
                // A bound above 32 bits admits offsets past the test's memory; such rows
                // are left to the rounds whose offsets stay inside it.
                continue;
            }
            let want = c.expected(&mem);
            let before: Vec<u32> = c.row.iter().map(|_| next(&mut s) as u32).collect();
            for f in variants(offset_gather_fn(), portable::<u64>) {
                let mut out = vec![0xdead_beef_u64; c.row.len()];
                let ok = c.run(f, &mem, &mut out);
                match &want {
                    Some(w) => {
                        assert_eq!(ok, 1, "round {round}");
                        let w: Vec<u64> = w.iter().map(|x| x.map_or(0, u64::from)).collect();
                        assert_eq!(out, w, "round {round}");
                    }
                    None => assert_eq!(ok, 0, "round {round}"),
                }
                checked[0] += 1;
            }
            for f in variants(offset_gather_packed_fn(), portable::<Packed>) {
                let mut out = vec![Packed(0xdead_beef); c.row.len()];
                let ok = c.run(f, &mem, &mut out);
                match &want {
                    Some(w) => {
                        assert_eq!(ok, 1, "round {round}");
                        let w: Vec<Packed> = w.iter().map(|x| Packed(x.unwrap_or(0))).collect();
                        assert_eq!(out, w, "round {round}");
                    }
                    None => assert_eq!(ok, 0, "round {round}"),
                }
                checked[0] += 1;
            }
            for f in variants(offset_gather_row_fn(), portable::<u32>) {
                let mut out = before.clone();
                let ok = c.run(f, &mem, &mut out);
                match &want {
                    Some(w) => {
                        assert_eq!(ok, 1, "round {round}");
                        let w: Vec<u32> = w
                            .iter()
                            .zip(&before)
                            .map(|(x, &b)| x.unwrap_or(b))
                            .collect();
                        assert_eq!(out, w, "round {round}");
                    }
                    None => {
                        assert_eq!(ok, 0, "round {round}");
                        assert_eq!(out, before, "round {round}: the row after a failure");
                    }
                }
                checked[1] += 1;
            }
        }
        assert!(checked.iter().all(|&n| n > 9000), "{checked:?}");
    }
}
