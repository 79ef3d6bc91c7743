//! Subroutines (seed 001 7.4: call, callnz, call_logicalz/nz, func, ret, ret_dyn,
//! ret_logicalz/nz, endfunc, endmain) on both engines with divergent lanes. Each expected
//! value comes from the program's algorithm written as ordinary Rust for one lane, with the
//! seed's rules spelled out there: only the lanes whose condition holds enter, every lane
//! that entered comes back after the call, and a call made with 32 calls already on the
//! return stack is skipped (L3487).

mod lift_common;
use lift_common::*;

/// Runs `text` (a whole program) with r0.x = lane under `exec` after `setup`.
fn run_with(text: &str, exec: u64, setup: impl Fn(&mut Launch)) -> Done<'static> {
    let k: &'static Kernel = Box::leak(Box::new(Kernel::new(text)));
    let mut l = k.launch();
    l.set_r(0, 0, |lane| lane);
    l.set_exec(exec);
    setup(&mut l);
    l.go()
}

fn run(text: &str) -> Done<'static> {
    run_with(text, u64::MAX, |_| {})
}

/// Literals l0 (1, 2, 3, 32) and l1 (100, 1000, 5, 0).
fn ints() -> String {
    literal(0, [1, 2, 3, 32]) + &literal(1, [100, 1000, 5, 0])
}

#[test]
fn main_calls_a_function_that_calls_another() {
    // AMD's shape: main calls the kernel wrapper 1024, which calls the kernel 1027.
    let text = format!(
        "il_cs_2_0
{}call 1024
endmain
func 1024
imul r1.x___, r0.x, l0.z
call 1027
ret
endfunc
func 1027
iadd r2.x___, r1.x, l1.x
ret_dyn
iadd r2.x___, r2.x, l1.x
ret
iadd r2.x___, r2.x, l1.x
endfunc
end
",
        ints()
    );
    let d = run(&text);
    for lane in 0..LANES {
        assert_eq!(d.r(1, 0, lane), lane * 3, "lane {lane}");
        assert_eq!(d.r(2, 0, lane), lane * 3 + 100, "lane {lane}");
    }
    assert_eq!(d.exec(), u64::MAX);
}

/// The conditional calls: only the lanes whose src0.x has a bit set (call_logicalnz) or none
/// (call_logicalz) enter; ret_logicalnz, ret_logicalz and ret_dyn in a block return some lanes
/// early, and every lane is back after the call.
#[test]
fn conditional_calls_enter_with_their_lanes_and_all_come_back() {
    let text = format!(
        "il_cs_2_0
{}iand r2.x___, r0.x, l0.x
call_logicalnz r2.x, 1
call_logicalz r2.x, 2
iadd r5.x___, r5.x, l0.x
endmain
func 1
iadd r3.x___, r3.x, l1.x
ilt r4.x___, r0.x, l1.z
ret_logicalnz r4.x
if_logicalnz r4.y
    ret_dyn
endif
iadd r3.x___, r3.x, l1.y
endfunc
func 2
iand r9.x___, r0.x, l0.y
ret_logicalz r9.x
iadd r3.x___, r3.x, l0.w
ret
endfunc
end
",
        ints()
    );
    let exec = 0xffff_0000_ffff_fff0u64;
    let d = run_with(&text, exec, |l| {
        l.set_r(4, 1, |lane| u32::from(lane % 3 == 0));
        l.set_r(5, 0, |_| 7);
    });
    for lane in 0..LANES {
        let active = exec >> lane & 1 == 1;
        let r3 = if !active {
            0
        } else if lane & 1 == 1 {
            // func 1: +100, then lanes below 5 return, then lanes with lane % 3 == 0.
            if lane < 5 || lane % 3 == 0 {
                100
            } else {
                1100
            }
        } else if lane & 2 != 0 {
            // func 2: the lanes with bit 1 clear return before the add.
            32
        } else {
            0
        };
        assert_eq!(d.r(3, 0, lane), r3, "lane {lane}");
        assert_eq!(d.r(5, 0, lane), if active { 8 } else { 7 }, "lane {lane}");
    }
    assert_eq!(d.exec(), exec);
}

#[test]
fn a_call_no_lane_makes_is_skipped() {
    let text = format!(
        "il_cs_2_0
{}call_logicalnz r2.x, 1
mov r3.x___, l0.y
endmain
func 1
mov r4.x___, l0.x
endfunc
end
",
        ints()
    );
    let d = run(&text);
    for lane in 0..LANES {
        assert_eq!((d.r(3, 0, lane), d.r(4, 0, lane)), (2, 0), "lane {lane}");
    }
}

/// `callnz b#` tests a boolean constant, which only `defb` can give a value (L3538, L4933).
#[test]
fn callnz_tests_a_defb_boolean() {
    let text = format!(
        "il_cs_2_0
{}defb b0, 1
defb b1, 0
callnz b0, 1
callnz b1, 2
endmain
func 1
iadd r3.x___, r3.x, l0.x
endfunc
func 2
iadd r3.x___, r3.x, l1.x
endfunc
end
",
        ints()
    );
    let d = run(&text);
    assert_eq!(d.row(3, 0), vec![1; LANES as usize]);
}

/// A function's loops, breaks and continues are its own; the caller's loop around the call
/// keeps its masks across it.
#[test]
fn calls_inside_loops_and_loops_inside_functions() {
    // main: for i in 0..3 { if lane % 2 == i % 2 { r2 += f(lane) } }, with f summing the
    // odd numbers below lane % 8 in a loop that continues past even ones and breaks at 5.
    let text = format!(
        "il_cs_2_0
{}mov r6.x___, l1.w
whileloop
    ige r7.x___, r6.x, l0.z
    break_logicalnz r7.x
    iand r7.x___, r0.x, l0.x
    iand r8.x___, r6.x, l0.x
    ieq r7.x___, r7.x, r8.x
    if_logicalnz r7.x
        call 5
        iadd r2.x___, r2.x, r3.x
    endif
    iadd r6.x___, r6.x, l0.x
endloop
endmain
func 5
mov r3.x___, l1.w
mov r4.x___, l1.w
iand r9.x___, r0.x, l9.x
whileloop
    iadd r4.x___, r4.x, l0.x
    ige r7.x___, r4.x, r9.x
    break_logicalnz r7.x
    ieq r7.x___, r4.x, l1.z
    break_logicalnz r7.x
    iand r7.x___, r4.x, l0.x
    continue_logicalz r7.x
    iadd r3.x___, r3.x, r4.x
endloop
ret_dyn
endfunc
end
",
        ints() + &literal(9, [7, 0, 0, 0])
    );
    let d = run(&text);
    let f = |lane: u32| {
        let (mut sum, mut i) = (0, 0);
        loop {
            i += 1;
            if i >= lane % 8 || i == 5 {
                break;
            }
            if i & 1 == 0 {
                continue;
            }
            sum += i;
        }
        sum
    };
    for lane in 0..LANES {
        let calls = (0..3).filter(|i| lane % 2 == i % 2).count() as u32;
        assert_eq!(d.r(2, 0, lane), calls * f(lane), "lane {lane}");
    }
    assert_eq!(d.exec(), u64::MAX);
}

/// Recursion to the stack's 32 levels (L3487): each activation counts itself in r3 and
/// recurses while r3 < lane, inside an if whose else counts in r6 and whose then part counts
/// in r5 after the call; a call from the 32nd level is skipped and that lane's then part goes
/// on. The if's masks survive every inner activation.
#[test]
fn recursion_stops_at_32_levels_and_keeps_each_activations_blocks() {
    let text = format!(
        "il_cs_2_0
{}call 3
endmain
func 3
iadd r3.x___, r3.x, l0.x
ilt r4.x___, r3.x, r0.x
if_logicalnz r4.x
    call 3
    iadd r5.x___, r5.x, l0.x
else
    iadd r6.x___, r6.x, l0.x
endif
endfunc
end
",
        ints()
    );
    let d = run(&text);
    // One lane's run, the seed's rules spelled out: depth counts the stack's entries.
    fn activation(limit: u32, depth: u32, r: &mut [u32; 3]) {
        r[0] += 1;
        if r[0] < limit {
            if depth < 32 {
                activation(limit, depth + 1, r);
            }
            r[1] += 1;
        } else {
            r[2] += 1;
        }
    }
    for lane in 0..LANES {
        let mut r = [0; 3];
        activation(lane, 1, &mut r);
        let got = [d.r(3, 0, lane), d.r(5, 0, lane), d.r(6, 0, lane)];
        assert_eq!(got, r, "lane {lane}");
    }
    assert_eq!(d.exec(), u64::MAX);
}

/// Indirect recursion through a loop: f calls g inside a loop, g calls f; the loop's break and
/// continue masks are saved and restored across the calls.
#[test]
fn indirect_recursion_inside_a_loop() {
    let text = format!(
        "il_cs_2_0
{}mov r1.x___, r0.x
call 1
endmain
func 1
mov r7.x___, l1.w
whileloop
    iadd r7.x___, r7.x, l0.x
    ilt r8.x___, l0.y, r7.x
    break_logicalnz r8.x
    iand r8.x___, r1.x, l0.x
    continue_logicalz r8.x
    call 2
endloop
endfunc
func 2
iadd r2.x___, r2.x, l0.x
ushr r1.x___, r1.x, l0.x
call_logicalnz r1.x, 1
endfunc
end
",
        ints()
    );
    // r7 is a global temp: an inner activation's loop changes the outer one's counter, which
    // the model follows as the program does.
    struct S {
        r1: u32,
        r2: u32,
        r7: u32,
    }
    fn f(s: &mut S, depth: u32) {
        s.r7 = 0;
        loop {
            s.r7 += 1;
            if 2 < s.r7 {
                break;
            }
            if s.r1 & 1 == 0 {
                continue;
            }
            if depth < 32 {
                g(s, depth + 1);
            }
        }
    }
    fn g(s: &mut S, depth: u32) {
        s.r2 += 1;
        s.r1 >>= 1;
        if s.r1 != 0 && depth < 32 {
            f(s, depth + 1);
        }
    }
    let d = run(&text);
    for lane in 0..LANES {
        let mut s = S {
            r1: lane,
            r2: 0,
            r7: 0,
        };
        f(&mut s, 1);
        let got = (d.r(1, 0, lane), d.r(2, 0, lane), d.r(7, 0, lane));
        assert_eq!(got, (s.r1, s.r2, s.r7), "lane {lane}");
    }
}

/// An endless loop in a function ends the run by fuel, with an error, not a hang.
#[test]
fn an_endless_loop_in_a_function_runs_out_of_fuel() {
    let text = format!(
        "il_cs_2_0
{}call 1
endmain
func 1
whileloop
    iadd r1.x___, r1.x, l0.x
endloop
endfunc
end
",
        ints()
    );
    let k = Kernel::new(&text);
    let e = k.launch().run().err().expect("the run ends by fuel");
    assert!(e.contains("OutOfFuel"), "{e}");
}
