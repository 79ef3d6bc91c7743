//! Differential smoke test: seeded random functions (`wavejit_ir::random`) run by the reference
//! interpreter and by the JIT from the same random state and memory must end the same way
//! (same fault, or none) with identical register state, global memory, LDS and private
//! memory. Time-boxed; a failure names the seed and the option set.

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use wavejit_ir::random::{edge_cells, generate, GlobalBuffer, Options};
use wavejit_ir::FileKind;
use wavejit_ir::Function;
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{Engine, GuestMemory};

const BUF_LEN: u64 = 4096;

struct Outcome {
    blocks: u32,
    end: String,
    state: Vec<u8>,
    global: Vec<u8>,
    lds: Vec<u8>,
    private: Vec<u8>,
}

fn run(engine: &dyn Engine, func: &Function, seed: u64, opts: &Options) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut mem = GuestMemory::with_reserve(1 << 20).expect("reserve");
    let init: Vec<u8> = (0..BUF_LEN).map(|_| rng.gen()).collect();
    let base = mem.alloc_bytes(&init, 256).expect("alloc");
    assert_eq!(Some(base), opts.global.map(|g| g.base).or(Some(base)));
    let lds = opts.lds_bytes.unwrap_or(0) as usize;
    let plb = opts.private_bytes.unwrap_or(0);
    let mut w = Wave::new(&func.layout, lds, plb);
    for b in w.lds.iter_mut().chain(w.private.iter_mut()) {
        *b = rng.gen();
    }
    // Random cells in the data files; the counter file starts at zero (block 0 sets it).
    for (fi, f) in func.layout.files.iter().enumerate() {
        if f.name == "c" {
            continue;
        }
        let reg = |i| wavejit_ir::Reg::new(wavejit_ir::FileId(fi as u16), i);
        match f.kind {
            FileKind::Uniform => {
                for (i, c) in edge_cells(&mut rng, f.cells as usize)
                    .into_iter()
                    .enumerate()
                {
                    w.state.set_uniform(reg(i as u32), c);
                }
            }
            FileKind::Lane => {
                for l in 0..func.layout.wave_size {
                    for (i, c) in edge_cells(&mut rng, f.cells as usize)
                        .into_iter()
                        .enumerate()
                    {
                        w.state.set_lane(reg(i as u32), l, c);
                    }
                }
            }
        }
    }
    let prog = prepare(engine, func);
    let n = func.blocks.len() as u32;
    let max = n * (1 + n * opts.max_loop_trips) + 4;
    let (blocks, end) = w.run(&*prog, &mem, max);
    let mut global = vec![0; BUF_LEN as usize];
    mem.read_bytes(base, &mut global).expect("read back");
    Outcome {
        blocks,
        end: format!("{end:?}"),
        state: w.state.bytes().to_vec(),
        global,
        lds: w.lds,
        private: w.private,
    }
}

fn option_sets(base: u64) -> Vec<(&'static str, Options)> {
    let g = Some(GlobalBuffer { base, len: BUF_LEN });
    vec![
        (
            "pure wave64",
            Options {
                ..Options::default()
            },
        ),
        (
            "pure wave32",
            Options {
                wave_size: 32,
                ..Options::default()
            },
        ),
        (
            "memory wave64",
            Options {
                global: g,
                lds_bytes: Some(1024),
                private_bytes: Some(64),
                ..Options::default()
            },
        ),
        (
            "memory+faults wave32",
            Options {
                wave_size: 32,
                global: g,
                lds_bytes: Some(512),
                private_bytes: Some(32),
                faults: true,
                ..Options::default()
            },
        ),
        (
            "long blocks",
            Options {
                max_block_insts: 120,
                max_blocks: 2,
                global: g,
                ..Options::default()
            },
        ),
    ]
}

fn campaign(jit: &Jit, budget: Duration, first_seed: u64) -> u32 {
    // The buffer address every run gets (allocation is deterministic).
    let base = GuestMemory::with_reserve(1 << 20)
        .expect("reserve")
        .alloc(BUF_LEN, 256)
        .expect("alloc");
    let sets = option_sets(base);
    let start = Instant::now();
    let mut done = 0;
    let mut seed = first_seed;
    while start.elapsed() < budget || done < sets.len() as u32 {
        let (name, opts) = &sets[(seed as usize) % sets.len()];
        let func = generate(seed, opts);
        let a = run(&Interpreter, &func, seed, opts);
        let b = run(jit, &func, seed, opts);
        let what = format!("seed {seed} ({name})");
        assert_eq!(a.end, b.end, "{what}: end");
        assert_eq!(a.blocks, b.blocks, "{what}: blocks run");
        if a.state != b.state {
            let i = a
                .state
                .iter()
                .zip(&b.state)
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            panic!(
                "{what}: state differs first at byte {i} (cell {}): interp {:02x?} jit {:02x?}\n{}",
                i / 4,
                &a.state[i & !3..(i & !3) + 4],
                &b.state[i & !3..(i & !3) + 4],
                wavejit_ir::text::print(&func)
            );
        }
        assert!(a.global == b.global, "{what}: global memory differs");
        assert!(a.lds == b.lds, "{what}: LDS differs");
        assert!(a.private == b.private, "{what}: private memory differs");
        done += 1;
        seed += 1;
    }
    eprintln!("{done} random functions agree");
    done
}

#[test]
fn random_functions_match_the_interpreter() {
    let n = campaign(&jit(), Duration::from_secs(3), 0);
    assert!(n >= 5);
}

/// A threshold of 2 switches blocks to tier 2 in the middle of a run, so one run mixes the
/// tiers' code.
#[test]
fn random_functions_match_across_tier_up() {
    let j = jit_with(JitOptions {
        tier_up_after: Some(2),
        ..JitOptions::default()
    });
    let n = campaign(&j, Duration::from_secs(1), 20_000);
    assert!(n >= 5);
    assert!(j.stats().tier_ups > 0, "no block reached the threshold");
}

#[test]
fn random_functions_match_without_fast_path_or_lazy_blending() {
    let j = jit_with(JitOptions {
        fast_path: false,
        lazy_blend: false,
        ..JitOptions::default()
    });
    let n = campaign(&j, Duration::from_secs(1), 10_000);
    assert!(n >= 5);
}

/// `drop_unread_writes` (what a dispatch runs) on random functions: the stripped function
/// ends the same way as the lifted one on the interpreter, after the same blocks, with the
/// same global memory, LDS and private memory (registers may differ: that is the point), it
/// passes the verifier, and the JIT runs it exactly as the interpreter does.
#[test]
fn dropping_unread_writes_keeps_memory_and_faults() {
    let base = GuestMemory::with_reserve(1 << 20)
        .expect("reserve")
        .alloc(BUF_LEN, 256)
        .expect("alloc");
    // The usual sets, and indirect jumps (after which every register counts as read).
    let mut sets = option_sets(base);
    sets.push((
        "indirect jumps",
        Options {
            indirect_jumps: true,
            faults: true,
            global: Some(GlobalBuffer { base, len: BUF_LEN }),
            ..Options::default()
        },
    ));
    let jit = jit();
    let start = Instant::now();
    let (mut done, mut dropped, mut seed) = (0u32, 0usize, 40_000u64);
    while start.elapsed() < Duration::from_secs(3) || done < sets.len() as u32 {
        let (name, opts) = &sets[(seed as usize) % sets.len()];
        let func = generate(seed, opts);
        let mut stripped = func.clone();
        wavejit_ir::drop_unread_writes(&mut stripped);
        let what = format!("seed {seed} ({name})");
        wavejit_ir::verify::verify(&stripped).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let count = |f: &Function| f.blocks.iter().map(|b| b.insts.len()).sum::<usize>();
        dropped += count(&func) - count(&stripped);
        let a = run(&Interpreter, &func, seed, opts);
        let b = run(&Interpreter, &stripped, seed, opts);
        assert_eq!(a.end, b.end, "{what}: end");
        assert_eq!(a.blocks, b.blocks, "{what}: blocks run");
        assert!(a.global == b.global, "{what}: global memory differs");
        assert!(a.lds == b.lds, "{what}: LDS differs");
        assert!(a.private == b.private, "{what}: private memory differs");
        let c = run(&jit, &stripped, seed, opts);
        assert_eq!((&b.end, b.blocks), (&c.end, c.blocks), "{what}: JIT end");
        assert!(b.state == c.state, "{what}: JIT state");
        assert!(b.global == c.global && b.lds == c.lds && b.private == c.private);
        done += 1;
        seed += 1;
    }
    eprintln!("{done} random functions, {dropped} instructions dropped");
    assert!(dropped > 0, "no random function had an unread write");
}
