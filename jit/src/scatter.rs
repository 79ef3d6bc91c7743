//! Lane stores with per-lane addresses and values ("scatters") run by host code that compiled
//! blocks call: one call checks every acting lane, then stores them in lane order.
//!
//! The contract is the inline lane loops' ([`crate::emit`]'s memory module): a lane acts when
//! its mask bit (bit 0 of its mask slot entry) is set, or always without a mask; an acting
//! lane's address (cut to 32 bits for the LDS and private memory) must satisfy
//! `lo <= a <= last`, the window's bounds for an access of this width. If any acting lane
//! fails, nothing is written and the result is 0 (the caller runs the instruction's exact
//! slow path, which reports the fault); else every acting lane `l`, in ascending order, writes
//! the low `W` bytes of its value at `base + l * stride + a` (the stride is a private
//! segment's size, else 0) and the result is 1. Lanes writing the same bytes leave the last
//! one's, the helper's order.
//!
//! The scratch slots hold one `u64` per lane ([`wavejit_runtime::Lanes`]).

/// The signature compiled code calls: `(base, lo, last, cut, addrs, mask, values, lanes,
/// stride) -> ok`, `mask` null when every lane acts.
pub(crate) type ScatterFn = unsafe extern "C" fn(
    *mut u8,
    u64,
    u64,
    u64,
    *const u64,
    *const u64,
    *const u64,
    u64,
    u64,
) -> u32;

/// The scatter of `width` bytes (1, 2, 4 or 8).
pub(crate) fn scatter_fn(width: u32) -> ScatterFn {
    match width {
        1 => scatter::<1>,
        2 => scatter::<2>,
        4 => scatter::<4>,
        _ => scatter::<8>,
    }
}

/// See the module doc.
///
/// # Safety
/// `addrs`, `values` and (when not null) `mask` hold `lanes` entries; for every lane `l`,
/// `base + l * stride + lo ..= base + l * stride + last + W` is writable host memory that no
/// other thread accesses except through atomics (the caller's memory model: plain stores to
/// global memory race only with other work-groups' plain stores, as on a GPU).
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn scatter<const W: usize>(
    base: *mut u8,
    lo: u64,
    last: u64,
    cut: u64,
    addrs: *const u64,
    mask: *const u64,
    values: *const u64,
    lanes: u64,
    stride: u64,
) -> u32 {
    let n = lanes as usize;
    let on = |l: usize| mask.is_null() || mask.add(l).read() & 1 != 0;
    // Pass 1: every acting lane's access is in the window (a branch-free fold, so the
    // compiler vectorises it).
    let mut bad = false;
    for l in 0..n {
        let a = addrs.add(l).read() & cut;
        bad |= on(l) & ((a < lo) | (a > last));
    }
    if bad {
        return 0;
    }
    // Pass 2: the stores, in lane order.
    for l in 0..n {
        if !on(l) {
            continue;
        }
        let a = addrs.add(l).read() & cut;
        let p = base.add(l * stride as usize + a as usize);
        let v = values.add(l).read().to_le_bytes();
        std::ptr::copy_nonoverlapping(v.as_ptr(), p, W);
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::next;

    #[test]
    fn every_scatter_matches_the_definition() {
        let mut s = 11u64;
        for round in 0..2000 {
            let width = [1u32, 2, 4, 8][round % 4];
            let lanes = [64u64, 32, 7, 1][round / 4 % 4];
            let stride = if round % 5 == 0 { 64 } else { 0 };
            let cut = if round % 3 == 0 {
                0xffff_ffff
            } else {
                u64::MAX
            };
            let lo = next(&mut s) % 8;
            let last = 63 - u64::from(width) - next(&mut s) % 8;
            let addrs: Vec<u64> = (0..lanes)
                .map(|l| {
                    let r = next(&mut s);
                    match (round / 4 % 3, r % 101) {
                        (_, 0) => lo.wrapping_sub(1),
                        (_, 1) => last + 1,
                        (_, 2) => lo + (r >> 8) % (last - lo + 1) + (1 << 32),
                        (0, _) => lo + (l * u64::from(width)) % (last - lo + 1),
                        (1, _) => lo,
                        _ => lo + (r >> 8) % (last - lo + 1),
                    }
                })
                .collect();
            let mask: Option<Vec<u64>> =
                (round % 2 == 1).then(|| (0..lanes).map(|_| next(&mut s) & 3).collect());
            let values: Vec<u64> = (0..lanes).map(|_| next(&mut s)).collect();
            let start: Vec<u8> = (0..64 * 65).map(|_| next(&mut s) as u8).collect();

            // The definition, lane by lane.
            let mut want = start.clone();
            let acting = |l: usize| mask.as_ref().is_none_or(|m| m[l] & 1 != 0);
            let inside = (0..lanes as usize).all(|l| {
                let a = addrs[l] & cut;
                !acting(l) || (lo..=last).contains(&a)
            });
            if inside {
                for l in 0..lanes as usize {
                    if acting(l) {
                        let at = l * stride as usize + (addrs[l] & cut) as usize;
                        let bytes = values[l].to_le_bytes();
                        want[at..at + width as usize].copy_from_slice(&bytes[..width as usize]);
                    }
                }
            }

            let mut got = start.clone();
            let ok = unsafe {
                scatter_fn(width)(
                    got.as_mut_ptr(),
                    lo,
                    last,
                    cut,
                    addrs.as_ptr(),
                    mask.as_ref().map_or(std::ptr::null(), |m| m.as_ptr()),
                    values.as_ptr(),
                    lanes,
                    stride,
                )
            };
            assert_eq!(ok == 1, inside, "round {round}");
            assert_eq!(got, want, "round {round}");
        }
    }
}
