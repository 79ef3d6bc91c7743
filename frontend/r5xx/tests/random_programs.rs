//! The random program generator: deterministic per seed; listings assemble back to the same
//! slots; every slot keeps to what the lifter takes (checked field by field here, against
//! the rules written out from the lifter's documented refusals and seed 003); flow control
//! always ends with balanced stacks (a one-processor model of seed 003 §3.5 run with random
//! decisions); the generator covers every defined value; reductions stay valid and shrink.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_r5xx::inst::{Body, Inst, Src};
use wavejit_r5xx::parse::parse_program;
use wavejit_r5xx::random::{generate, RandomProgram, INPUTS};
use wavejit_r5xx::table::{AOp, AlphaOp, BOp, FcOp, Omod, PredSel, RgbOp, Swizzle, TexOp};

const SEEDS: u64 = 400;

#[test]
fn programs_are_deterministic_and_seeds_differ() {
    assert_eq!(generate(7), generate(7));
    assert_eq!(generate(7).listing(), generate(7).listing());
    let distinct: BTreeSet<String> = (0..20).map(|s| generate(s).listing()).collect();
    assert_eq!(distinct.len(), 20);
}

#[test]
fn listings_assemble_to_the_same_slots() {
    for seed in 0..SEEDS {
        let p = generate(seed);
        let back = parse_program(&p.listing()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back, p.slots(), "seed {seed}");
    }
}

fn selects(op: RgbOp) -> bool {
    matches!(op, RgbOp::Min | RgbOp::Max | RgbOp::Cnd | RgbOp::Cmp)
}

/// What the lifter refuses (its module docs) and the generator's own register rules.
fn check_slot(i: &Inst, pc: usize, len: usize, full: bool) -> Result<(), String> {
    let c = &i.cmn;
    for p in [c.rgb_pred, c.alpha_pred] {
        if p.sel.bits() > 5 {
            return Err("reserved predicate select".into());
        }
    }
    match &i.body {
        Body::Alu(a) | Body::Output(a) => {
            if !a.rgb_op.defined() || !a.alpha_op.defined() {
                return Err("reserved op".into());
            }
            if a.rgb_op == RgbOp::Sop && a.alpha_op.bits() < AlphaOp::Ex2.bits() {
                return Err("SOP without a transcendental".into());
            }
            if a.rgb_op == RgbOp::Sop && a.alpha_op.bits() > AlphaOp::Cos.bits() {
                return Err("SOP without a transcendental".into());
            }
            if a.alpha_op == AlphaOp::Dp
                && !matches!(a.rgb_op, RgbOp::Dp3 | RgbOp::Dp4 | RgbOp::D2a)
            {
                return Err("DP without a dot product".into());
            }
            if a.rgb_omod == Omod::Disable && !selects(a.rgb_op) {
                return Err("OMOD_DISABLE on another op".into());
            }
            let alpha_selects = matches!(
                a.alpha_op,
                AlphaOp::Min | AlphaOp::Max | AlphaOp::Cnd | AlphaOp::Cmp
            );
            if a.alpha_omod == Omod::Disable && !alpha_selects {
                return Err("alpha OMOD_DISABLE on another op".into());
            }
            for s in a.rgb_src.iter().chain(&a.alpha_src) {
                if let Src::Inline { rel: true, .. } = s {
                    return Err("REL inline constant".into());
                }
            }
            let swizzles = a
                .rgb_in
                .iter()
                .flat_map(|x| x.swiz)
                .chain(a.alpha_in.iter().map(|x| x.swiz));
            if swizzles.into_iter().any(|s| s == Swizzle::Unused) {
                return Err("swizzle 7".into());
            }
            if (c.rgb_wmask != 0 && a.rgb_dest.addr == 0)
                || (c.alpha_wmask && a.alpha_dest.addr == 0)
            {
                return Err("writes r0".into());
            }
            if a.w_omask {
                return Err("W_OMASK".into());
            }
            if c.last != (pc + 1 == len) {
                return Err("LAST on another slot than the last".into());
            }
        }
        Body::Tex(t) => {
            if !t.op.defined() || t.op == TexOp::Nop || !t.unscaled || t.id >= INPUTS {
                return Err("TEX op, scaling or input".into());
            }
            if t.op != TexOp::Texkill && (t.src.addr != 0 || t.src.rel) {
                return Err("lookup not at r0".into());
            }
            if t.dst.addr == 0 || (t.sem_acquire && !c.tex_sem_wait) {
                return Err("TEX writes r0 or acquires without waiting".into());
            }
        }
        Body::Fc(f) => {
            if !f.a_op.defined() || !f.b_op0.defined() || !f.b_op1.defined() {
                return Err("A_OP or B_OP 3".into());
            }
            if c.rgb_pred.sel == PredSel::Rgba {
                return Err("FC predicate not replicated".into());
            }
            if usize::from(f.jump_addr) >= len {
                return Err("jump outside the program".into());
            }
            if !full && (f.op != FcOp::Jump || f.a_op != AOp::None) {
                return Err("loop or call in partial mode".into());
            }
        }
    }
    Ok(())
}

fn check(p: &RandomProgram, seed: u64) {
    let slots = p.slots();
    let info = p.info();
    assert_eq!(
        (info.start, info.end as usize),
        (0, slots.len() - 1),
        "seed {seed}"
    );
    assert!(slots.len() <= 512);
    for (pc, i) in slots.iter().enumerate() {
        if let Err(e) = check_slot(i, pc, slots.len(), info.full_fc) {
            panic!("seed {seed} slot {pc}: {e}\n{}", p.listing());
        }
    }
    let last = slots.last().unwrap();
    assert!(matches!(last.body, Body::Output(_)) && last.cmn.tex_sem_wait && last.cmn.last);
}

#[test]
fn every_slot_keeps_to_what_the_lifter_takes() {
    for seed in 0..SEEDS {
        check(&generate(seed), seed);
    }
}

/// One processor through seed 003 §3.5: active or branch-inactive with a counter, the loop
/// stack (iterations left), the address stack; each test's outcome drawn at random. Returns
/// the executed slots, or what went wrong.
fn run_one_processor(p: &RandomProgram, rng: &mut ChaCha8Rng) -> Result<usize, String> {
    simulate(&p.slots(), &p.int_consts, p.info().full_fc, rng)
}

fn simulate(
    slots: &[Inst],
    int_consts: &[u32],
    full: bool,
    rng: &mut ChaCha8Rng,
) -> Result<usize, String> {
    let limit = if full { 31 } else { 3 };
    let (mut pc, mut steps) = (0usize, 0usize);
    let (mut active, mut counter) = (true, 0i32);
    let mut loops: Vec<u32> = Vec::new();
    let mut calls: Vec<usize> = Vec::new();
    loop {
        steps += 1;
        if steps > 100_000 {
            return Err("no end after 100000 slots".into());
        }
        let inst = &slots[pc];
        let Body::Fc(f) = &inst.body else {
            if inst.cmn.last {
                return Ok(steps);
            }
            pc += 1;
            continue;
        };
        let mut b_else_off = false;
        if f.b_else {
            if active {
                (active, counter, b_else_off) = (false, 0, true);
            } else if counter == 0 {
                active = true;
            }
        }
        let want = b_else_off || (active && f.jump_func >> rng.gen_range(0..8) & 1 == 1);
        let voter = active || b_else_off;
        let mut jump = if f.jump_any {
            voter && want
        } else {
            !voter || want
        };
        let count = int_consts[usize::from(f.int_addr)] & 0xff;
        match f.op {
            FcOp::Loop | FcOp::Rep if count == 0 => jump = true,
            FcOp::EndLoop | FcOp::EndRep => {
                let left = loops.last_mut().ok_or("ENDLOOP without a loop")?;
                *left -= 1;
                if *left == 0 {
                    jump = false;
                }
            }
            _ => {}
        }
        let bop = if jump { f.b_op1 } else { f.b_op0 };
        match bop {
            BOp::Incr if !active => counter += 1,
            BOp::Incr if want != jump => (active, counter) = (false, 0),
            BOp::Decr if !active => {
                counter -= i32::from(f.b_pop_cnt);
                active = counter < 0;
            }
            _ => {}
        }
        if !active && counter > limit {
            return Err(format!("branch counter {counter} past {limit}"));
        }
        match (f.op, jump) {
            (FcOp::Loop | FcOp::Rep, false) => loops.push(count),
            (FcOp::EndLoop | FcOp::EndRep, false) | (FcOp::BreakLoop | FcOp::BreakRep, true) => {
                loops.pop().ok_or("loop stack empty")?;
            }
            _ => {}
        }
        if loops.len() > 4 {
            return Err("loop stack past 4".into());
        }
        let mut next = if jump {
            usize::from(f.jump_addr)
        } else {
            pc + 1
        };
        if jump {
            match f.a_op {
                AOp::Push => calls.push(pc + 1),
                AOp::Pop => next = calls.pop().ok_or("address stack empty")?,
                _ => {}
            }
        }
        if calls.len() > 4 {
            return Err("address stack past 4".into());
        }
        pc = next;
        if pc >= slots.len() {
            return Err(format!("jump to {pc}"));
        }
    }
}

#[test]
fn the_model_catches_endless_loops_and_unbalanced_stacks() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let run = |text: &str, rng: &mut ChaCha8Rng| {
        let slots = parse_program(text).unwrap();
        simulate(&slots, &[2, 0], true, rng)
    };
    let end = "out _ = mad [last]\n";
    assert_eq!(
        run(&format!("top: fc jump top [func=0xff]\n{end}"), &mut rng).unwrap_err(),
        "no end after 100000 slots"
    );
    assert_eq!(
        run(&format!("fc jump 1 [func=0xff, a_op=pop]\n{end}"), &mut rng).unwrap_err(),
        "address stack empty"
    );
    assert_eq!(
        run(&format!("fc endloop 0 [int=0]\n{end}"), &mut rng).unwrap_err(),
        "ENDLOOP without a loop"
    );
    // A loop of count 2 around an ALU slot: LOOP, body, ENDLOOP, the output: 1 + 2 * 2 + 1.
    let ok = format!("fc loop 3 [int=0]\nalu _ = mad\nfc endloop 1 [func=0xff, any]\n{end}");
    assert_eq!(run(&ok, &mut rng), Ok(6));
}

#[test]
fn flow_control_always_ends_with_balanced_stacks() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xf10);
    for seed in 0..SEEDS {
        let p = generate(seed);
        for _ in 0..20 {
            if let Err(e) = run_one_processor(&p, &mut rng) {
                panic!("seed {seed}: {e}\n{}", p.listing());
            }
        }
    }
}

#[test]
fn the_generator_covers_every_defined_value() {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for seed in 0..SEEDS {
        for i in generate(seed).slots() {
            let c = &i.cmn;
            seen.insert(format!("pred {:?}", c.rgb_pred.sel));
            match &i.body {
                Body::Alu(a) | Body::Output(a) => {
                    seen.insert(format!("rgb {:?}", a.rgb_op));
                    seen.insert(format!("alpha {:?}", a.alpha_op));
                    seen.insert(format!("omod {:?}", a.rgb_omod));
                    seen.insert(format!("presub {:?}", a.rgb_srcp));
                    for x in &a.rgb_in {
                        seen.insert(format!("mod {:?}", x.modifier));
                        seen.insert(format!("sel {:?}", x.sel));
                        for s in x.swiz {
                            seen.insert(format!("swiz {s:?}"));
                        }
                    }
                    if a.alu_wmask {
                        seen.insert(format!("result {:?}", c.alu_result_op));
                    }
                    if c.rgb_omask != 0 {
                        seen.insert(format!("{} target {}", i.kind().asm(), a.rgb_target));
                    }
                }
                Body::Tex(t) => {
                    seen.insert(format!("tex {:?}", t.op));
                }
                Body::Fc(f) => {
                    seen.insert(format!("fc {:?}", f.op));
                    seen.insert(format!(
                        "a_op {:?} b_op {:?} {:?}",
                        f.a_op, f.b_op0, f.b_op1
                    ));
                    seen.insert(format!("func {:#x}", f.jump_func));
                    if f.ignore_uncovered {
                        seen.insert(format!("{:?} ignore_uncovered", f.op));
                    }
                }
            }
        }
    }
    let mut want: Vec<String> = Vec::new();
    for r in wavejit_r5xx::table::RGB_OPS.iter().filter(|r| r.defined) {
        want.push(format!("rgb {:?}", r.item));
    }
    for r in wavejit_r5xx::table::ALPHA_OPS.iter().filter(|r| r.defined) {
        want.push(format!("alpha {:?}", r.item));
    }
    for op in [
        TexOp::Ld,
        TexOp::Texkill,
        TexOp::Proj,
        TexOp::Lodbias,
        TexOp::Lod,
        TexOp::Dxdy,
    ] {
        want.push(format!("tex {op:?}"));
    }
    for op in wavejit_r5xx::table::FC_OPS {
        want.push(format!("fc {:?}", op.item));
    }
    for k in 0..8 {
        want.push(format!("omod {:?}", Omod::from_bits(k)));
    }
    for k in 0..6 {
        want.push(format!("pred {:?}", PredSel::from_bits(k)));
    }
    for k in 0..7 {
        want.push(format!("swiz {:?}", Swizzle::from_bits(k)));
    }
    for k in 0..4 {
        want.push(format!("out target {k}"));
        want.push(format!("alu target {k}"));
    }
    // The §3.5.4 encodings: IF b/p/c, BREAK/CALL b/p/c, ELSE and ENDIF, CALL, RETURN.
    for func in [0x55, 0x33, 0x0f, 0xaa, 0xcc, 0xf0, 0xff, 0x00] {
        want.push(format!("func {func:#x}"));
    }
    want.push(format!(
        "a_op {:?} b_op {:?} {:?}",
        AOp::Push,
        BOp::None,
        BOp::Incr
    ));
    want.push(format!(
        "a_op {:?} b_op {:?} {:?}",
        AOp::Pop,
        BOp::None,
        BOp::Decr
    ));
    for w in want {
        assert!(seen.contains(&w), "never generated: {w}");
    }
}

#[test]
fn reductions_stay_valid_and_shrink() {
    for seed in 0..60 {
        let p = generate(seed);
        let n = p.slots().len();
        let reductions = p.reductions();
        assert!(!reductions.is_empty() || n == 1);
        for r in reductions {
            assert!(r.slots().len() < n, "seed {seed}");
            check(&r, seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            run_one_processor(&r, &mut rng).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}
