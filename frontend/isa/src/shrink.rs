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

/// An item of a structured random program (an instruction, or a block such as an if, a loop
/// or a switch holding bodies of items), as [`reduce_structured`] reduces it. Each ISA's
/// generator implements it for its own item type; the rules of what stays valid (a `break`
/// needs its loop, ...) are the ISA's, in [`Structured::hoist`] and [`Structured::variants`].
pub trait Structured: Clone {
    /// The item's bodies, in order (an if's then and else, a loop's body, a switch's arms).
    fn bodies(&self) -> Vec<&[Self]>;

    /// The item with body `k` replaced by `body`.
    fn with_body(&self, k: usize, body: Vec<Self>) -> Self;

    /// What replacing the item by its body `k` leaves (a loop body without the `break`s that
    /// need the loop); the body itself by default.
    fn hoist(&self, k: usize) -> Vec<Self> {
        self.bodies()[k].to_vec()
    }

    /// The item's own smaller forms besides those (an if without its else, a switch without
    /// one arm, an instruction with fewer modifiers); none by default.
    fn variants(&self) -> Vec<Self> {
        Vec::new()
    }

    /// Whether the item at `index` of a top-level or nested list must stay (a prologue the
    /// program needs); none by default.
    fn pinned(&self, _index: usize) -> bool {
        false
    }
}

/// Calls `emit` with every one-step reduction of `items`, biggest first at each level: an
/// item dropped, an item replaced by one of its bodies ([`Structured::hoist`]) or by one of
/// its [`Structured::variants`]; then the same inside each body of the item.
pub fn reduce_structured<T: Structured>(items: &[T], emit: &mut dyn FnMut(Vec<T>)) {
    for (i, item) in items.iter().enumerate() {
        if item.pinned(i) {
            continue;
        }
        let with = |replacement: Vec<T>| {
            let mut v = items[..i].to_vec();
            v.extend(replacement);
            v.extend_from_slice(&items[i + 1..]);
            v
        };
        emit(with(Vec::new()));
        let bodies = item.bodies().len();
        for k in 0..bodies {
            emit(with(item.hoist(k)));
        }
        for v in item.variants() {
            emit(with(vec![v]));
        }
        for k in 0..bodies {
            reduce_structured(item.bodies()[k], &mut |inner| {
                emit(with(vec![item.with_body(k, inner)]))
            });
        }
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

    /// A toy structured program: leaves, and blocks of two bodies whose hoist drops the
    /// leaf 0 (as a loop body drops its breaks), with one variant (the block's first body
    /// only) and leaf 9 pinned at index 0.
    #[derive(Clone, Debug, PartialEq)]
    enum Toy {
        Leaf(u32),
        Block(Vec<Toy>, Vec<Toy>),
    }

    impl Structured for Toy {
        fn bodies(&self) -> Vec<&[Toy]> {
            match self {
                Toy::Leaf(_) => vec![],
                Toy::Block(a, b) => vec![a, b],
            }
        }
        fn with_body(&self, k: usize, body: Vec<Toy>) -> Toy {
            match self {
                Toy::Block(a, b) if k == 0 => Toy::Block(body, b.clone()),
                Toy::Block(a, _) => Toy::Block(a.clone(), body),
                leaf => leaf.clone(),
            }
        }
        fn hoist(&self, k: usize) -> Vec<Toy> {
            self.bodies()[k]
                .iter()
                .filter(|t| **t != Toy::Leaf(0))
                .cloned()
                .collect()
        }
        fn variants(&self) -> Vec<Toy> {
            match self {
                Toy::Block(a, b) if !b.is_empty() => vec![Toy::Block(a.clone(), vec![])],
                _ => vec![],
            }
        }
        fn pinned(&self, index: usize) -> bool {
            index == 0 && *self == Toy::Leaf(9)
        }
    }

    #[test]
    fn structured_reductions_drop_hoist_vary_then_recurse() {
        use Toy::{Block, Leaf};
        let items = vec![
            Leaf(9),
            Block(vec![Leaf(0), Leaf(1)], vec![Leaf(2)]),
            Leaf(3),
        ];
        let mut out = Vec::new();
        reduce_structured(&items, &mut |v| out.push(v));
        let block = |a: Vec<Toy>, b: Vec<Toy>| vec![Leaf(9), Block(a, b), Leaf(3)];
        assert_eq!(
            out,
            [
                // The block: dropped, hoisted (body 0 without leaf 0, body 1), its variant.
                vec![Leaf(9), Leaf(3)],
                vec![Leaf(9), Leaf(1), Leaf(3)],
                vec![Leaf(9), Leaf(2), Leaf(3)],
                block(vec![Leaf(0), Leaf(1)], vec![]),
                // Inside body 0, then body 1.
                block(vec![Leaf(1)], vec![Leaf(2)]),
                block(vec![Leaf(0)], vec![Leaf(2)]),
                block(vec![Leaf(0), Leaf(1)], vec![]),
                // Leaf 3 dropped; leaf 9 (pinned) never.
                vec![Leaf(9), Block(vec![Leaf(0), Leaf(1)], vec![Leaf(2)])],
            ]
        );
    }
}
