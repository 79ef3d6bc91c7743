//! Structured control flow (seed 001 7.4) on both engines with divergent lanes: each program's
//! expected result per lane comes from the same algorithm written as ordinary Rust control
//! flow, run for that lane alone.

mod lift_common;
use lift_common::*;

/// Runs `body` with r0.x = lane (unless `setup` changes it) under `exec`, and returns the
/// final state.
fn run_with(body: &str, exec: u64, setup: impl Fn(&mut Launch)) -> Done<'static> {
    let text = format!("il_cs_2_0\n{body}end\n");
    let k: &'static Kernel = Box::leak(Box::new(Kernel::new(&text)));
    let mut l = k.launch();
    l.set_r(0, 0, |lane| lane);
    l.set_exec(exec);
    setup(&mut l);
    l.go()
}

fn run(body: &str) -> Done<'static> {
    run_with(body, u64::MAX, |_| {})
}

/// Literals l0-l3: small integers used by the programs.
fn ints() -> String {
    [
        literal(0, [20, 1, 1000, 2000]),
        literal(1, [3, 1, 0, 30]),
        literal(2, [10, 100, 10000, 100_000]),
        literal(3, [7, 2, 5, 0xffff_ffff]),
    ]
    .concat()
}

#[test]
fn if_else_nested_and_exec_restored() {
    let body = format!(
        "{}ilt r1.x___, r0.x, l0.x
if_logicalnz r1.x
    iand r2.x___, r0.x, l0.y
    if_logicalz r2.x
        iadd r3.x___, r0.x, l0.z
    else
        iadd r3.x___, r0.x, l0.w
    endif
else
    imul r3.x___, r0.x, l1.x
endif
iadd r4.x___, r3.x, l1.y
",
        ints()
    );
    let expect = |lane: u32| {
        let r3 = if lane < 20 {
            if lane & 1 == 0 {
                lane + 1000
            } else {
                lane + 2000
            }
        } else {
            lane * 3
        };
        r3 + 1
    };
    let d = run(&body);
    for lane in 0..LANES {
        assert_eq!(d.r(4, 0, lane), expect(lane), "lane {lane}");
    }
    assert_eq!(d.exec(), u64::MAX);
    // Lanes inactive at launch stay so and keep their registers.
    let exec = 0xf0f0_f0f0_0000_ffffu64;
    let d = run_with(&body, exec, |l| l.set_r(4, 0, |_| 0xdead));
    for lane in 0..LANES {
        let want = if exec >> lane & 1 == 1 {
            expect(lane)
        } else {
            0xdead
        };
        assert_eq!(d.r(4, 0, lane), want, "lane {lane}");
    }
    assert_eq!(d.exec(), exec);
}

#[test]
fn parts_no_lane_runs_are_skipped_and_the_other_part_still_runs() {
    // Every lane takes the then part (the else is skipped), then none does (the then part
    // is skipped).
    let body = format!(
        "{}ilt r1.x___, r0.x, l0.z
if_logicalnz r1.x
    mov r2.x___, l0.y
else
    mov r2.x___, l1.z
endif
if_logicalz r1.x
    mov r3.x___, l0.y
else
    mov r3.x___, l1.x
endif
",
        ints()
    );
    let d = run(&body);
    for lane in 0..LANES {
        assert_eq!((d.r(2, 0, lane), d.r(3, 0, lane)), (1, 3), "lane {lane}");
    }
}

/// IFC's float compare (L3901): denormals flushed, false on NaN for every relop.
#[test]
fn ifc_relops_with_nan_and_signed_zero() {
    let vals = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(1),
        2.5,
    ];
    type Rel = fn(f32, f32) -> bool;
    let relops: [(&str, Rel); 6] = [
        ("ne", |a, b| a != b && !a.is_nan() && !b.is_nan()),
        ("eq", |a, b| a == b),
        ("ge", |a, b| a >= b),
        ("gt", |a, b| a > b),
        ("le", |a, b| a <= b),
        ("lt", |a, b| a < b),
    ];
    let flush = |x: f32| if x.is_subnormal() { 0.0 } else { x };
    for (op, rel) in relops {
        let body = format!(
            "{}ifc_relop({op}) r0.y, r1.x
    mov r2.x___, l0.y
else
    mov r2.x___, l1.x
endif
",
            ints()
        );
        let d = run_with(&body, u64::MAX, |l| {
            l.set_r(0, 1, |lane| f(vals[lane as usize % 8]));
            l.set_r(1, 0, |lane| f(vals[lane as usize / 8]));
        });
        for lane in 0..LANES {
            let (a, b) = (vals[lane as usize % 8], vals[lane as usize / 8]);
            let want = if rel(flush(a), flush(b)) { 1 } else { 3 };
            assert_eq!(d.r(2, 0, lane), want, "{op} {a} {b}");
        }
    }
}

#[test]
fn whileloop_with_break_and_continue_forms() {
    // i counts up; lanes leave at i >= lane (break_logicalnz), odd i skip the sum
    // (continue_logicalnz), a sum of 30 or more leaves (breakc on floats of the sum), i == 7
    // skips through continue_logicalz's inverse test, unconditional break at i == 9.
    let body = format!(
        "{}mov r1.x___, l1.z
mov r2.x___, l1.z
whileloop
    ige r3.x___, r1.x, r0.x
    break_logicalnz r3.x
    iadd r1.x___, r1.x, l1.y
    iand r3.x___, r1.x, l1.y
    continue_logicalnz r3.x
    ine r3.x___, r1.x, l3.x
    continue_logicalz r3.x
    iadd r2.x___, r2.x, r1.x
    itof r4.x___, r2.x
    itof r5.x___, l1.w
    breakc_relop(ge) r4.x, r5.x
    ieq r3.x___, r1.x, l2.x
    if_logicalnz r3.x
        break
    endif
endloop
iadd r6.x___, r2.x, l2.w
",
        ints()
    );
    let expect = |lane: u32| {
        let (mut i, mut sum) = (0u32, 0u32);
        loop {
            if i >= lane {
                break;
            }
            i += 1;
            if i & 1 != 0 {
                continue;
            }
            if i == 7 {
                continue;
            }
            sum += i;
            if sum >= 30 {
                break;
            }
            if i == 10 {
                break;
            }
        }
        sum + 100_000
    };
    let d = run(&body);
    for lane in 0..LANES {
        assert_eq!(d.r(6, 0, lane), expect(lane), "lane {lane}");
    }
}

#[test]
fn continue_inside_nested_ifs_and_continuec() {
    // for (i = 0; i < 10; i++) { if (i < lane) { if ((i & 1) == 0) continue; } acc += i;
    // continuec(i == 5.0); acc += 100 }
    let body = format!(
        "{}mov r1.x___, l1.z
mov r2.x___, l1.z
whileloop
    ige r3.x___, r1.x, l2.x
    break_logicalnz r3.x
    mov r7.x___, r1.x
    iadd r1.x___, r1.x, l1.y
    ilt r3.x___, r7.x, r0.x
    if_logicalnz r3.x
        iand r4.x___, r7.x, l1.y
        if_logicalz r4.x
            continue
        endif
    endif
    iadd r2.x___, r2.x, r7.x
    itof r5.x___, r7.x
    itof r6.x___, l3.z
    continuec_relop(eq) r5.x, r6.x
    iadd r2.x___, r2.x, l2.y
endloop
",
        ints()
    );
    let expect = |lane: u32| {
        let mut acc = 0;
        for i in 0..10 {
            if i < lane && i & 1 == 0 {
                continue;
            }
            acc += i;
            if i == 5 {
                continue;
            }
            acc += 100;
        }
        acc
    };
    let d = run(&body);
    for lane in 0..LANES {
        assert_eq!(d.r(2, 0, lane), expect(lane), "lane {lane}");
    }
}

#[test]
fn nested_loops_break_only_the_inner_one() {
    // for (i = 0; i < lane % 5; i++) for (j = 0; ; j++) { if (j >= i) break; n++ }
    let body = format!(
        "{}mov r1.x___, l1.z
mov r5.x___, l1.z
umod r6.x___, r0.x, l3.z
whileloop
    ige r3.x___, r1.x, r6.x
    break_logicalnz r3.x
    mov r2.x___, l1.z
    whileloop
        ige r3.x___, r2.x, r1.x
        break_logicalnz r3.x
        iadd r5.x___, r5.x, l1.y
        iadd r2.x___, r2.x, l1.y
    endloop
    iadd r1.x___, r1.x, l1.y
endloop
",
        ints()
    );
    let d = run(&body);
    for lane in 0..LANES {
        let n: u32 = (0..lane % 5).sum();
        assert_eq!(d.r(5, 0, lane), n, "lane {lane}");
    }
}

#[test]
fn switch_falls_through_with_default_in_the_middle() {
    let body = format!(
        "{}iand r1.x___, r0.x, l3.x
mov r2.x___, l1.z
switch r1.x
case 0
    iadd r2.x___, r2.x, l1.y
    break
case 1
    iadd r2.x___, r2.x, l2.x
case 2
    iadd r2.x___, r2.x, l2.y
    break
default
    iadd r2.x___, r2.x, l0.z
case 5
    iadd r2.x___, r2.x, l2.z
endswitch
iadd r2.x___, r2.x, l2.w
",
        ints()
    );
    let d = run(&body);
    for lane in 0..LANES {
        let v = match lane & 7 {
            0 => 1,
            1 => 110,
            2 => 100,
            5 => 10_000,
            _ => 11_000,
        };
        assert_eq!(d.r(2, 0, lane), v + 100_000, "lane {lane}");
    }
}

#[test]
fn switch_without_default_skips_unmatched_lanes() {
    // A negative case value; lanes matching nothing run on after endswitch.
    let body = format!(
        "{}mov r2.x___, l1.z
switch r1.x
case -1
    mov r2.x___, l2.x
    break
case 3
    mov r2.x___, l2.y
endswitch
iadd r2.x___, r2.x, l1.y
",
        ints()
    );
    let d = run_with(&body, u64::MAX, |l| {
        l.set_r(1, 0, |lane| [0xffff_ffff, 3, 4][lane as usize % 3])
    });
    for lane in 0..LANES {
        let v = [10, 100, 0][lane as usize % 3];
        assert_eq!(d.r(2, 0, lane), v + 1, "lane {lane}");
    }
}

#[test]
fn switch_inside_a_loop_break_leaves_the_switch_continue_the_iteration() {
    // for (i = 0; i < 4; i++) { switch (i) { case 1: continue; case 2: acc += 10; break;
    // default: acc += 1; } acc += 100 * (lane & 1 ? 1 : 2) }
    let body = format!(
        "{}mov r1.x___, l1.z
mov r2.x___, l1.z
iand r3.x___, r0.x, l1.y
whileloop
    ige r4.x___, r1.x, l2.x
    break_logicalnz r4.x
    mov r5.x___, r1.x
    iadd r1.x___, r1.x, l1.y
    ilt r4.x___, r5.x, l1.x
    if_logicalz r4.x
        break
    endif
    switch r5.x
    case 1
        continue
    case 2
        iadd r2.x___, r2.x, l2.x
        break
    default
        iadd r2.x___, r2.x, l1.y
    endswitch
    if_logicalnz r3.x
        iadd r2.x___, r2.x, l2.y
    else
        iadd r2.x___, r2.x, l2.y
        iadd r2.x___, r2.x, l2.y
    endif
endloop
",
        ints()
    );
    let d = run(&body);
    for lane in 0..LANES {
        let mut acc = 0;
        for i in 0..10 {
            if i >= 3 {
                break;
            }
            match i {
                1 => continue,
                2 => acc += 10,
                _ => acc += 1,
            }
            acc += if lane & 1 == 1 { 100 } else { 200 };
        }
        assert_eq!(d.r(2, 0, lane), acc, "lane {lane}");
    }
}

#[test]
fn returns_end_the_lanes_that_take_them() {
    // Lanes with lane % 3 == 0 return at once (ret_logicalnz); in a loop counting up from
    // 0, the others return when the count reaches lane % 4 + 2 and leave by break at 3
    // (the return is tested first); of those left, lanes from 40 up return through a
    // ret_dyn inside an if.
    let body = format!(
        "{}umod r1.x___, r0.x, l1.x
ieq r1.x___, r1.x, l1.z
ret_logicalnz r1.x
mov r2.x___, l1.y
umod r3.x___, r0.x, l4.x
iadd r3.x___, r3.x, l4.z
mov r4.x___, l1.z
whileloop
    ieq r5.x___, r4.x, r3.x
    ret_logicalnz r5.x
    ige r5.x___, r4.x, l1.x
    break_logicalnz r5.x
    iadd r4.x___, r4.x, l1.y
endloop
mov r6.x___, l1.y
ilt r5.x___, r0.x, l4.y
if_logicalz r5.x
    ret_dyn
endif
mov r7.x___, l1.y
",
        [ints(), literal(4, [4, 40, 2, 0])].concat()
    );
    let d = run_with(&body, u64::MAX, |l| {
        for n in [2, 6, 7] {
            l.set_r(n, 0, |_| 0x5555);
        }
    });
    let mut finished = 0u64;
    for lane in 0..LANES {
        let first = lane % 3 == 0;
        let after_loop = !first && lane % 4 + 2 > 3;
        let last = after_loop && lane < 40;
        let one_if = |c: bool| if c { 1 } else { 0x5555 };
        assert_eq!(d.r(2, 0, lane), one_if(!first), "lane {lane}");
        assert_eq!(d.r(6, 0, lane), one_if(after_loop), "lane {lane}");
        assert_eq!(d.r(7, 0, lane), one_if(last), "lane {lane}");
        finished |= u64::from(last) << lane;
    }
    assert_eq!(d.exec(), finished);
}

#[test]
fn ret_outside_every_block_ends_the_wave() {
    let body = format!("{}mov r1.x___, l1.y\nret\nmov r1.x___, l1.x\n", ints());
    let d = run(&body);
    assert_eq!(d.row(1, 0), vec![1; LANES as usize]);
}

#[test]
fn an_endless_loop_runs_out_of_fuel() {
    let k = Kernel::new("il_cs_2_0\nwhileloop\nendloop\nend\n");
    let e = k.launch().run().err().expect("no way out of the loop");
    assert!(e.contains("OutOfFuel"), "{e}");
    // With no lane active the loop is never entered.
    let mut l = k.launch();
    l.set_exec(0);
    assert!(l.run().is_ok());
}

/// DX9 `loop i#` (L3932-L3960) counts the iterations of its integer constant, which `def`
/// gives (L4883): `break` leaves it, `continue` waits for the next iteration, and the lanes
/// still running when the count runs out go on after it, with those that broke (ENDLOOP's
/// counted operation, L3790). A count of 0 skips the body, as LOOP_START does on the
/// hardware (seed 000 L1255).
#[test]
fn dx9_loops_count_their_iterations() {
    for (count, repeat) in [(5u32, ""), (0, ""), (3, "_repeat"), (9, "")] {
        let body = format!(
            "{}dcl_literal l4, 7, 1000, 0, 0
def i0, {count}, 0, 1, 0
def i1, 2, 0, 0, 0
umod r5.x___, r0.x, l4.x
loop{repeat} i0
    iadd r2.x___, r2.x, l1.y
    ilt r6.x___, r5.x, r2.x
    break_logicalnz r6.x
    iand r6.x___, r2.x, l1.y
    continue_logicalnz r6.x
    loop i1
        iadd r1.x___, r1.x, r2.x
    endloop
endloop
iadd r3.x___, r1.x, l4.y
",
            ints()
        );
        let d = run(&body);
        for lane in 0..LANES {
            let (mut r1, mut r2) = (0, 0);
            for _ in 0..count {
                r2 += 1;
                if r2 > lane % 7 {
                    break;
                }
                if r2 & 1 == 1 {
                    continue;
                }
                for _ in 0..2 {
                    r1 += r2;
                }
            }
            let got = (d.r(1, 0, lane), d.r(2, 0, lane), d.r(3, 0, lane));
            assert_eq!(
                got,
                (r1, r2, r1 + 1000),
                "loop{repeat} {count}: lane {lane}"
            );
        }
        assert_eq!(d.exec(), u64::MAX);
    }
}
