//! The memory profile of the generator (the mixed profile is tested in `tests/`).
use super::*;
use crate::opcode::AluOp;

const SEEDS: u64 = 300;

fn memory_programs(class: ChipClass) -> impl Iterator<Item = (u64, RandomProgram)> {
    (0..SEEDS).map(move |seed| {
        let p = generate(seed, class, &GenOptions::memory_heavy())
            .unwrap_or_else(|e| panic!("{class:?} seed {seed}: {e}"));
        (seed, p)
    })
}

/// Every lane-pattern address instruction (`ADD_INT Rd.c, R[LANE_GPR].p, base`) of a
/// program: (destination GPR, pattern channel, base).
fn lane_addresses(p: &RandomProgram) -> Vec<(u8, u8, u32)> {
    let mut out = Vec::new();
    walk_clauses(&p.nodes, &mut |c, _| {
        for g in &c.groups {
            for i in &g.insts {
                if i.op == AluOp::ADD_INT && i.src[0].sel == u16::from(LANE_GPR) {
                    let base = g.literals[i.src[1].chan as usize];
                    out.push((i.dst_gpr, i.src[0].chan, base));
                }
            }
        }
    });
    out
}

#[test]
fn memory_profile_programs_are_valid() {
    for class in [ChipClass::Evergreen, ChipClass::Cayman] {
        for (seed, p) in memory_programs(class) {
            check(&p).unwrap_or_else(|e| panic!("{class:?} seed {seed}: {e}"));
        }
    }
}

/// Memory instructions (fetches, CF memory instructions, LDS ops) are the majority; fetch,
/// RAT and LDS addresses come from every lane pattern, with bases inside and at or past the
/// ends (and across the wrap).
#[test]
fn memory_profile_is_mostly_memory_on_lane_patterns_and_edges() {
    for class in [ChipClass::Evergreen, ChipClass::Cayman] {
        let (mut memory, mut alu) = (0, 0);
        let mut chans = [[false; 4]; 3];
        let (mut inside, mut edge, mut wrap) = ([false; 3], [false; 3], false);
        for (_, p) in memory_programs(class) {
            let (m, all) = memory_instructions(&p.lower().expect("lays out"));
            memory += m;
            alu += all - m;
            for (gpr, chan, base) in lane_addresses(&p) {
                let (k, limit, unit) = match gpr {
                    FETCH_GPR => (0, POOL_BYTES, 1),
                    RAT_GPR => (1, POOL_BYTES, 1),
                    LDS_ADDR_GPR => (2, LDS_BYTES, 1),
                    _ => panic!("lane address into R{gpr}"),
                };
                chans[k][chan as usize] = true;
                let top = base.wrapping_add(LANE_TOPS[chan as usize]) * unit;
                wrap |= base > 0x8000_0000;
                if base < 0x8000_0000 {
                    // Byte-addressed fetches and LDS: the top lane's dword at or past the end.
                    if top + 4 >= limit {
                        edge[k] = true;
                    } else {
                        inside[k] = true;
                    }
                }
            }
        }
        assert!(
            2 * memory > memory + alu,
            "{class:?}: {memory} memory instructions, {alu} ALU"
        );
        assert_eq!(chans, [[true; 4]; 3], "{class:?}: fetch, RAT, LDS channels");
        assert!(wrap, "{class:?}: no base across the wrap");
        assert_eq!(inside, [true; 3], "{class:?}");
        // RAT indices count elements for most forms, so only fetches and LDS are checked.
        assert!(edge[0] && edge[2], "{class:?}: edges {edge:?}");
    }
}

/// The lane patterns: within their tops, x and y consecutive up to their top on the last
/// lane (a wave32 too), z at its top on some lane, the rest of the state untouched.
#[test]
fn lane_patterns_follow_their_rules() {
    for lanes in [64, 32] {
        for seed in 0..50 {
            let plain = InitialState::random(seed, lanes);
            let mut st = plain.clone();
            st.set_lane_patterns(seed);
            let row = |c: u32| -> Vec<u32> {
                (0..lanes)
                    .map(|l| st.gpr(u32::from(LANE_GPR), c, l))
                    .collect()
            };
            for (c, &top) in LANE_TOPS.iter().enumerate() {
                assert!(
                    row(c as u32).iter().all(|&v| v <= top),
                    "seed {seed} chan {c}"
                );
            }
            let (x, y, z) = (row(0), row(1), row(2));
            assert_eq!(x[lanes as usize - 1], LANE_TOPS[0]);
            assert!(x.windows(2).all(|w| w[1] == w[0] + 1));
            assert!(x.iter().zip(&y).all(|(x, y)| 4 * x == *y));
            assert!(z.contains(&LANE_TOPS[2]));
            for n in (0..GPR_ROWS).filter(|&n| n != u32::from(LANE_GPR)) {
                for c in 0..4 {
                    for l in 0..lanes {
                        assert_eq!(st.gpr(n, c, l), plain.gpr(n, c, l));
                    }
                }
            }
        }
    }
}

/// The mixed profile never reads the lane patterns.
#[test]
fn mixed_profile_has_no_lane_addresses() {
    for seed in 0..SEEDS {
        let p = generate(seed, ChipClass::Cayman, &GenOptions::default()).expect("generates");
        assert!(lane_addresses(&p).is_empty(), "seed {seed}");
    }
}
