//! Delta debugging: the smallest case that still fails, found by trying reductions.
//!
//! An ISA says how a case can be reduced (drop a run of instructions, replace an operand by
//! a constant, clear a register of the initial state...), biggest reductions first; the
//! minimiser keeps the first reduction that still fails and starts over from it, until no
//! reduction fails or [`MAX_TRIES`] predicate calls are spent. Dropping runs of halving
//! length ([`chunk_removals`]) gives the ddmin schedule (Zeller and Hildebrandt, 2002) over
//! a flat list of instructions.

/// Predicate calls a minimisation makes at most.
pub const MAX_TRIES: usize = 4000;

/// The smallest case reachable from `case` through `reductions` that keeps `fails` true
/// (`case` itself if none does). `reductions` lists the candidate one-step reductions of a
/// case, biggest first.
pub fn minimise<C: Clone>(
    case: &C,
    reductions: impl Fn(&C) -> Vec<C>,
    mut fails: impl FnMut(&C) -> bool,
) -> C {
    let mut best = case.clone();
    let mut tries = 0;
    'outer: while tries < MAX_TRIES {
        for candidate in reductions(&best) {
            tries += 1;
            if fails(&candidate) {
                best = candidate;
                continue 'outer;
            }
            if tries >= MAX_TRIES {
                break 'outer;
            }
        }
        break;
    }
    best
}

/// The runs `start..end` of a list of `len` items to try dropping: half the list at a time,
/// then quarters, down to single items (ddmin's schedule).
pub fn chunk_removals(len: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if len == 0 {
        return out;
    }
    let mut chunk = (len / 2).max(1);
    loop {
        let mut start = 0;
        while start < len {
            out.push((start, (start + chunk).min(len)));
            start += chunk;
        }
        if chunk == 1 {
            return out;
        }
        chunk = (chunk / 2).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_halves_down_to_single_items() {
        assert_eq!(chunk_removals(0), []);
        assert_eq!(chunk_removals(1), [(0, 1)]);
        assert_eq!(
            chunk_removals(5),
            [
                (0, 2),
                (2, 4),
                (4, 5),
                (0, 1),
                (1, 2),
                (2, 3),
                (3, 4),
                (4, 5)
            ]
        );
    }

    #[test]
    fn minimising_keeps_exactly_what_the_failure_needs() {
        // Fails while the list holds both 3 and 7.
        let case: Vec<u32> = (0..20).collect();
        let reductions = |c: &Vec<u32>| {
            chunk_removals(c.len())
                .into_iter()
                .map(|(a, b)| [&c[..a], &c[b..]].concat())
                .collect()
        };
        let small = minimise(&case, reductions, |c| c.contains(&3) && c.contains(&7));
        assert_eq!(small, [3, 7]);
        let same = minimise(&case, reductions, |_| false);
        assert_eq!(same, case);
    }
}
