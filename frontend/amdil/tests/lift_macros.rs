//! Macros (seed 001 7.19, L13191-L13350) on both engines: `mcall` moves the actual inputs into
//! the formal `in#`, runs the body with temps and literals of its own, and moves the formal
//! `out#` into the actual outputs under their write masks. Expected values are host formulas.

mod appsdk_common;
mod lift_common;
use lift_common::*;

/// Runs `text` with r0.x = lane after `setup`.
fn run_with(text: &str, setup: impl Fn(&mut Launch)) -> Done<'static> {
    let k: &'static Kernel = Box::leak(Box::new(Kernel::new(text)));
    let mut l = k.launch();
    l.set_r(0, 0, |lane| lane);
    setup(&mut l);
    l.go()
}

/// A value of lane `lane` spread over the 32 bits (a multiplicative hash).
fn spread(lane: u32, k: u32) -> u32 {
    lane.wrapping_mul(0x9e37_79b9)
        .wrapping_add(k.wrapping_mul(0x85eb_ca6b))
        ^ (lane << 27)
}

/// The seed's own example (L13251-L13257): the carry of an unsigned add. The macro's r1, r2
/// and l1 are its own: the program's r1, r2 and l1 keep their values.
#[test]
fn the_seeds_carry_macro_has_its_own_temps_and_literals() {
    let text = format!(
        "mdef(0)_out(1)_in(2)
   INOT r1, in0
   ULT r2, r1, in1
   Dcl_literal l1, 1, 1, 1, 1
   IAND out0, r2, l1
mend
il_cs_2_0
{}mcall(0) (r5), (r3, r4)
iadd r6, r1, l1
end
",
        literal(1, [10, 20, 30, 40])
    );
    let d = run_with(&text, |l| {
        for c in 0..4 {
            l.set_r(3, c, |lane| spread(lane, c));
            l.set_r(4, c, |lane| spread(lane, c + 4));
            l.set_r(1, c, |lane| lane + c);
            l.set_r(2, c, |_| 0xdead);
        }
    });
    for lane in 0..LANES {
        for c in 0..4 {
            let (a, b) = (spread(lane, c), spread(lane, c + 4));
            let carry = u32::from(a.checked_add(b).is_none());
            assert_eq!(d.r(5, c, lane), carry, "lane {lane} c {c}");
            assert_eq!(d.r(1, c, lane), lane + c, "r1 kept");
            assert_eq!(d.r(2, c, lane), 0xdead, "r2 kept");
            assert_eq!(d.r(6, c, lane), lane + c + [10, 20, 30, 40][c as usize]);
        }
    }
}

/// A divide-like macro of our own: quotient and remainder of unsigned integers, two outputs;
/// the actual inputs carry swizzles and the outputs write masks.
#[test]
fn quotient_and_remainder_with_swizzles_and_write_masks() {
    let text = "mdef(3)_out(2)_in(2)
udiv r0, in0, in1
umod r1, in0, in1
mov out0, r0
mov out1, r1
mend
il_cs_2_0
mcall(3) (r5.x_z_, r6._y_w), (r3.yxwz, r4)
end
";
    let d = run_with(text, |l| {
        for c in 0..4 {
            l.set_r(3, c, |lane| spread(lane, c));
            l.set_r(4, c, |lane| (lane * 7 + c) % 13);
            l.set_r(5, c, |_| 0x55);
            l.set_r(6, c, |_| 0x66);
        }
    });
    // udiv and umod by 0 give 0xFFFFFFFF (lift/alu.rs's rule, DirectX's udiv).
    let div = |a: u32, b: u32| a.checked_div(b).unwrap_or(u32::MAX);
    let rem = |a: u32, b: u32| a.checked_rem(b).unwrap_or(u32::MAX);
    for lane in 0..LANES {
        for c in 0..4u32 {
            let a = spread(lane, [1, 0, 3, 2][c as usize]);
            let b = (lane * 7 + c) % 13;
            let q = if c % 2 == 0 { div(a, b) } else { 0x55 };
            let r = if c % 2 == 1 { rem(a, b) } else { 0x66 };
            assert_eq!(
                (d.r(5, c, lane), d.r(6, c, lane)),
                (q, r),
                "lane {lane} c {c}"
            );
        }
    }
}

/// Macros call macros (each expansion with temps of its own, the inner one called twice);
/// bodies hold control flow, a loop whose break is the macro's own, and run in the caller's
/// divergent lanes.
#[test]
fn nested_macros_with_control_flow_in_divergent_lanes() {
    // mdef(1): out0 = in0 * in0. mdef(2): out0 = sum of sq(i) for i in 1..=min(in0, 5),
    // through mdef(1) in a loop, plus sq(in1).
    let text = "mdef(1)_out(1)_in(1)
imul r0, in0, in0
mov out0, r0
mend
mdef(2)_out(1)_in(2)
dcl_literal l0, 1, 5, 0, 0
mov r0, l0.z
mov r1, l0.z
whileloop
    iadd r1, r1, l0.x
    ilt r2, in0, r1
    break_logicalnz r2.x
    mcall(1) (r3), (r1)
    iadd r0, r0, r3
    ieq r2, r1, l0.y
    break_logicalnz r2.x
endloop
mcall(1) (r3), (in1)
iadd out0, r0, r3
mend
il_cs_2_0
dcl_literal l0, 2, 0, 0, 0
iand r1.x___, r0.x, l0.x
if_logicalnz r1.x
    mcall(2) (r2.x___), (r0, r0)
else
    mov r2.x___, l0.x
endif
end
";
    let d = run_with(text, |_| {});
    for lane in 0..LANES {
        let want = if lane & 2 != 0 {
            (1..=lane.min(5)).map(|i| i * i).sum::<u32>() + lane * lane
        } else {
            2
        };
        assert_eq!(d.r(2, 0, lane), want, "lane {lane}");
    }
    assert_eq!(d.exec(), u64::MAX);
}

/// A call inside a macro: each expansion returns to its own site. The macro's temps are its
/// own, so it hands the function its value through the program's indexed temp x0.
#[test]
fn a_macro_may_call_a_function() {
    let text = "mdef(4)_out(1)_in(1)
mov x0[0], in0
call 9
mov out0, x0[0]
mend
il_cs_2_0
dcl_literal l0, 3, 0, 0, 0
dcl_indexed_temp_array x0[1]
mcall(4) (r1), (r0)
mcall(4) (r2), (r1)
endmain
func 9
imul x0[0], x0[0], l0.x
endfunc
end
";
    let d = run_with(text, |_| {});
    for lane in 0..LANES {
        assert_eq!((d.r(1, 0, lane), d.r(2, 0, lane)), (lane * 3, lane * 9));
    }
}

/// The single-precision divide of `div_zeroop(infinity)` (seed L7791 and lift/alu.rs): IEEE
/// division of non-denormal operands; a zero divisor gives infinity, negative when x < 0.
fn div_infinity(x: f32, y: f32) -> f32 {
    if y == 0.0 {
        if x < 0.0 {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        }
    } else {
        x / y
    }
}

fn dividends(lane: u32) -> (f32, f32) {
    let x = [1.0f32, -3.5, 100.0, 0.0, -0.0, 7.25, 1e30, -2.0][lane as usize % 8];
    let y = [3.0f32, 0.0, -0.0, 0.5, -7.0, 1e-30, 2.5, 1e20][lane as usize / 8];
    (x, y)
}

/// AMD's compiler puts its divide macro, mdef(16383), in every OpenCL kernel's IL. Read in
/// place from the corpus (shared/corpora/amd-app-sdk), it is called here with our own code
/// and its quotients are checked against host division.
#[test]
fn the_corpus_divide_macro_divides() {
    let path = "si/BinarySearch_Kernels.bin";
    let file = appsdk_common::corpus_dir().join(path);
    if !file.exists() {
        eprintln!("NOT RUN: {} absent", file.display());
        return;
    }
    let binary = wavejit_amdil::appsdk::load(&appsdk_common::read(path)).unwrap();
    let il = &binary.kernels[0].il().expect("an IL encoding").text;
    let corpus = wavejit_amdil::decode::decode(il).unwrap();
    let mut p =
        wavejit_amdil::parse::parse("il_cs_2_0\nmcall(16383) (r2), (r0, r1)\nend\n").unwrap();
    p.macros = corpus.macros;
    let text = wavejit_amdil::print::print(&p);
    assert!(text.starts_with("mdef(16383)_out(1)_in(2)\n"), "{text}");
    let d = run_with(&text, |l| {
        l.set_r(0, 0, |lane| dividends(lane).0.to_bits());
        l.set_r(1, 0, |lane| dividends(lane).1.to_bits());
        l.set_r(0, 1, |lane| lane + 5);
    });
    for lane in 0..LANES {
        let (x, y) = dividends(lane);
        let q = div_infinity(x, y);
        assert_eq!(d.r(2, 0, lane), q.to_bits(), "{x} / {y}: {q}");
        // The macro moves all of in0 and writes only x: the rest of r0 comes through.
        assert_eq!(d.r(2, 1, lane), lane + 5);
    }
}
