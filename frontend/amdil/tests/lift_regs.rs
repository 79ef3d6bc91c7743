//! The register model on both engines: swizzles and source modifiers (2.2.7), write masks and
//! result modifiers (2.2.5), literals, defined constants, indexed temps, the immediate constant
//! buffer, `g[]`, the thread-id registers (Chapter 5) and the exec mask; expected values by
//! the seed's formulas.

mod lift_common;
use lift_common::*;

const ONE: u32 = 0x3f80_0000;

fn run(body: &str, setup: impl Fn(&mut Launch)) -> Done<'static> {
    let text = format!("il_cs_2_0\n{body}end\n");
    let k: &'static Kernel = Box::leak(Box::new(Kernel::new(&text)));
    let mut l = k.launch();
    setup(&mut l);
    l.go()
}

/// r0 = (1.5, -2.0, 0.25, 8.0) in every lane.
fn vector(l: &mut Launch) {
    for (c, v) in [1.5f32, -2.0, 0.25, 8.0].into_iter().enumerate() {
        l.set_r(0, c as u32, move |_| f(v));
    }
}

fn comps(d: &Done, n: u32, lane: u32) -> [u32; 4] {
    [0, 1, 2, 3].map(|c| d.r(n, c, lane))
}

#[test]
fn swizzles_select_components_zero_and_one() {
    let d = run("mov r1, r0.wzyx\nmov r2, r0.x01y\n", vector);
    assert_eq!(comps(&d, 1, 5), [f(8.0), f(0.25), f(-2.0), f(1.5)]);
    assert_eq!(comps(&d, 2, 5), [f(1.5), 0, ONE, f(-2.0)]);
    // The 1 select inserts 1.0f's bits even for integer operations (L616).
    let d = run("iadd r1.x___, r0.x, r0.1\n", |l| l.set_r(0, 0, |lane| lane));
    assert_eq!(d.r(1, 0, 9), 9 + ONE);
}

#[test]
fn float_source_modifiers_in_precedence_order() {
    let d = run(
        "mov r1, r0_neg(xz)
mov r2, r0_abs
mov r3, r0_invert
mov r4, r0_bias
mov r5, r0_x2
mov r6, r0_bx2
mov r7, r0_sign
mov r8, r0_clamp
mov r9, r0_abs_neg(xyzw)
",
        vector,
    );
    let v = [1.5f32, -2.0, 0.25, 8.0];
    let each = |g: fn(f32) -> f32| v.map(|x| f(g(x)));
    assert_eq!(comps(&d, 1, 0), [f(-1.5), f(-2.0), f(-0.25), f(8.0)]);
    assert_eq!(comps(&d, 2, 0), each(f32::abs));
    assert_eq!(comps(&d, 3, 0), each(|x| 1.0 - x));
    assert_eq!(comps(&d, 4, 0), each(|x| x - 0.5));
    assert_eq!(comps(&d, 5, 0), each(|x| 2.0 * x));
    // bx2 = x2(bias(x)).
    assert_eq!(comps(&d, 6, 0), each(|x| 2.0 * (x - 0.5)));
    assert_eq!(comps(&d, 7, 0), each(f32::signum));
    assert_eq!(comps(&d, 8, 0), each(|x| x.clamp(0.0, 1.0)));
    // neg after abs: every component negative.
    assert_eq!(comps(&d, 9, 0), each(|x| -x.abs()));
}

#[test]
fn sign_of_zero_and_nan_is_zero_and_clamp_of_nan_is_zero() {
    let d = run("mov r1, r0_sign\nmov r2, r0_clamp\n", |l| {
        for (c, v) in [0x8000_0000u32, 0x7fc0_0000, 0x0000_0001, 0xff80_0000]
            .into_iter()
            .enumerate()
        {
            l.set_r(0, c as u32, move |_| v);
        }
    });
    assert_eq!(comps(&d, 1, 0), [0, 0, 0, f(-1.0)]);
    assert_eq!(comps(&d, 2, 0), [0, 0, 0, 0]);
}

#[test]
fn divcomp_divides_by_the_named_component() {
    let d = run(
        "mov r1, r0_divcomp(y)\nmov r2, r0_divcomp(z)\nmov r3, r0_divcomp(w)\n",
        vector,
    );
    assert_eq!(comps(&d, 1, 0), [f(1.5 / -2.0), f(-2.0), f(0.25), f(8.0)]);
    assert_eq!(
        comps(&d, 2, 0),
        [f(1.5 / 0.25), f(-2.0 / 0.25), f(0.25), f(8.0)]
    );
    assert_eq!(
        comps(&d, 3, 0),
        [f(1.5 / 8.0), f(-2.0 / 8.0), f(0.25 / 8.0), f(8.0)]
    );
}

#[test]
fn integer_neg_is_twos_complement() {
    let d = run("iadd r2.x___, r0.x, r1.x_neg(x)\n", |l| {
        l.set_r(0, 0, |lane| lane);
        l.set_r(1, 0, |lane| 3 * lane + 0x8000_0000);
    });
    for lane in 0..LANES {
        assert_eq!(d.r(2, 0, lane), lane.wrapping_sub(3 * lane + 0x8000_0000));
    }
}

#[test]
fn write_masks_write_zero_and_one_and_skip_the_rest() {
    let d = run("mov r1.x0_1, r0\n", |l| {
        vector(l);
        for c in 0..4 {
            l.set_r(1, c, |_| 0x5555_5555);
        }
    });
    assert_eq!(comps(&d, 1, 3), [f(1.5), 0, 0x5555_5555, ONE]);
}

#[test]
fn result_shift_scale_then_clamp() {
    let d = run(
        "add_x2 r1.x___, r0.x, r0.y
add_d4 r2.x___, r0.x, r0.w
mul_ieee_x8 r3.x___, r0.z, r0.z
add_sat r4.x___, r0.x, r0.z
add_x2_sat r5.xy__, r0.zw, r0.zx
mov_sat r6, r0
",
        vector,
    );
    assert_eq!(d.r(1, 0, 0), f((1.5 - 2.0) * 2.0));
    assert_eq!(d.r(2, 0, 0), f((1.5 + 8.0) / 4.0));
    assert_eq!(d.r(3, 0, 0), f(0.25 * 0.25 * 8.0));
    assert_eq!(d.r(4, 0, 0), ONE);
    // shift_scale before clamp: (0.25 + 0.25) * 2 = 1.0, (8 + 1.5) * 2 -> 1.0.
    assert_eq!([d.r(5, 0, 0), d.r(5, 1, 0)], [ONE, ONE]);
    assert_eq!(comps(&d, 6, 0), [ONE, 0, f(0.25), ONE]);
}

#[test]
fn literals_are_read_as_declared() {
    let d = run(
        &format!(
            "{}mov r1, l3.wzyx\n",
            literal(3, [1, 0xdead_beef, f(2.5), 0xffff_ffff])
        ),
        |_| {},
    );
    assert_eq!(comps(&d, 1, 0), [0xffff_ffff, f(2.5), 0xdead_beef, 1]);
}

#[test]
fn indexed_temps_absolute_and_relative() {
    // x0[lane % 4] = (lane, 2*lane, ...) written relatively, then read back relatively
    // shifted by one and absolutely.
    let body = format!(
        "dcl_indexed_temp_array x0[4]
{}mov x0[0], l0.yyyy
mov x0[1], l0.yyyy
mov x0[2], l0.yyyy
mov x0[3], l0.yyyy
mov x0[r1.x], r0
mov r2, x0[r1.x+1]
mov r3, x0[2]
mov r4.x___, x0[r1.x].y
",
        literal(0, [1, 0x77, 0, 0])
    );
    let d = run(&body, |l| {
        l.set_r(0, 0, |lane| lane);
        l.set_r(0, 1, |lane| 2 * lane);
        l.set_r(1, 0, |lane| if lane < 8 { 0 } else { 2 });
    });
    // Lanes 0-7 wrote x0[0] and read x0[1] (0x77); lanes 8-63 wrote x0[2] and read x0[3].
    for lane in 0..LANES {
        assert_eq!(d.r(2, 0, lane), 0x77, "lane {lane}");
        let x2 = if lane < 8 { 0x77 } else { lane };
        assert_eq!(d.r(3, 0, lane), x2, "lane {lane}");
        assert_eq!(d.r(4, 0, lane), 2 * lane, "lane {lane}");
    }
}

/// A relative index outside the array reads 0 and writes nothing (the seed gives no rule;
/// lift/regs.rs's, the same as a constant buffer's): no lane faults.
#[test]
fn indexed_temp_out_of_range_reads_zero_and_writes_nothing() {
    let body = "dcl_indexed_temp_array x0[2]
mov x0[0], r0
mov x0[1], r0.yyyy
mov x0[r1.x], r3
mov r2, x0[r1.x]
mov r4, x0[0]
mov r5, x0[1]
";
    let d = run(body, |l| {
        l.set_r(0, 0, |lane| lane + 100);
        l.set_r(0, 1, |lane| lane + 200);
        l.set_r(1, 0, |lane| {
            [0, 1, 2, 0xffff_ffff, 0x4000_0000][lane as usize % 5]
        });
        l.set_r(3, 0, |lane| lane + 300);
    });
    for lane in 0..LANES {
        let index = lane % 5;
        let (x0, x1) = match index {
            0 => (lane + 300, lane + 200),
            1 => (lane + 100, lane + 300),
            _ => (lane + 100, lane + 200),
        };
        let read = match index {
            0 => x0,
            1 => x1,
            _ => 0,
        };
        let got = (d.r(2, 0, lane), d.r(4, 0, lane), d.r(5, 0, lane));
        assert_eq!(got, (read, x0, x1), "lane {lane}");
    }
}

/// Two-dimensional constant buffer operands `cb[b][n]` (2.2.8 example 5, L776-L832): the
/// buffer from the first index, the element from the second; an undeclared buffer or an
/// element past the declared ones reads 0.
#[test]
fn constant_buffers_chosen_per_lane() {
    let body = "dcl_cb cb0[2]
dcl_cb cb3[3]
mov r1, cb[r0.x][r0.y+1]
mov r2, cb[3][r0.y]
mov r3, cb[r0.x][1].wzyx
";
    let k = Kernel::new(&format!("il_cs_2_0\n{body}end\n"));
    let mut l = k.launch();
    let cb0: Vec<u32> = (0..8).map(|i| 0x100 + i).collect();
    let cb3: Vec<u32> = (0..12).map(|i| 0x300 + i).collect();
    l.set_cb(0, &cb0);
    l.set_cb(3, &cb3);
    let buffer = |lane: u32| [0, 3, 1, 15, 0xffff_ffff][lane as usize % 5];
    let element = |lane: u32| (lane / 5 % 5).wrapping_sub(1);
    l.set_r(0, 0, buffer);
    l.set_r(0, 1, element);
    let d = l.go();
    let read = |b: u32, n: u32, c: u32| match b {
        0 if n < 2 => cb0[(4 * n + c) as usize],
        3 if n < 3 => cb3[(4 * n + c) as usize],
        _ => 0,
    };
    for lane in 0..LANES {
        let (b, n) = (buffer(lane), element(lane));
        for c in 0..4 {
            assert_eq!(
                d.r(1, c, lane),
                read(b, n.wrapping_add(1), c),
                "lane {lane}"
            );
            assert_eq!(d.r(2, c, lane), read(3, n, c), "lane {lane}");
            assert_eq!(d.r(3, c, lane), read(b, 1, 3 - c), "lane {lane}");
        }
    }
}

/// The immediate constant buffer (`dcl_cb` with its primary modifier, L4060): `icb[n]` is
/// dwords 4n..4n+3 of its data; past the data, or at an index past its elements, 0.
#[test]
fn immediate_constant_buffer_absolute_and_relative() {
    let data: Vec<u32> = (0..10).map(|i| 0x1000 + i).collect();
    let list: Vec<String> = data.iter().map(|w| format!("0x{w:X}")).collect();
    let body = format!(
        "dcl_cb icb[10] = {{{}}}
mov r1, icb[1]
mov r2, icb[2]
mov r3, icb[r0.x]
mov r4, icb[r0.x+1].wzyx
",
        list.join(", ")
    );
    let d = run(&body, |l| l.set_r(0, 0, |lane| lane.wrapping_sub(1)));
    let dword = |n: u32, c: u32| {
        if n < 3 {
            data.get((4 * n + c) as usize).copied().unwrap_or(0)
        } else {
            0
        }
    };
    for lane in 0..LANES {
        let n = lane.wrapping_sub(1);
        for c in 0..4 {
            assert_eq!(d.r(1, c, lane), dword(1, c));
            assert_eq!(d.r(2, c, lane), dword(2, c));
            assert_eq!(d.r(3, c, lane), dword(n, c), "lane {lane}");
            assert_eq!(
                d.r(4, c, lane),
                dword(n.wrapping_add(1), 3 - c),
                "lane {lane}"
            );
        }
    }
}

/// `g[a]` (L1568-L1590): 128-bit location `a` of global memory, here the arena: dword `c` at
/// byte 16a + 4c, read and written like a register, in the lanes of the exec mask.
#[test]
fn global_registers_address_the_arena() {
    let body = "dcl_literal l0, 1, 0, 0, 0
mov r1, g[r0.x]
iadd r2, r1, l0.xxxx
mov g[r0.y].x_z_, r2
mov r3, g[1]
";
    let arena: Vec<u32> = (0..4 * 80).map(|i| 0xa000 + i).collect();
    let k = Kernel::new(&format!(
        "il_cs_2_0
{body}end
"
    ));
    let mut l = k.launch();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| lane + 2);
    l.set_r(0, 1, |lane| lane + 16);
    let exec = 0x0000_00ff_ffff_00ffu64;
    l.set_exec(exec);
    let d = l.go();
    let mut want = arena.clone();
    for lane in (0..LANES).filter(|&lane| exec >> lane & 1 == 1) {
        for c in [0, 2] {
            want[(4 * (lane + 16) + c) as usize] = arena[(4 * (lane + 2) + c) as usize] + 1;
        }
        for c in 0..4 {
            assert_eq!(d.r(1, c, lane), arena[(4 * (lane + 2) + c) as usize]);
            assert_eq!(d.r(3, c, lane), arena[4 + c as usize]);
        }
    }
    assert_eq!(d.arena, want);
}

/// Float constants a `def` defines read as its four values (L4883); `ifnz` tests a `defb`
/// boolean (L3916, L4933).
#[test]
fn defined_constants_read_as_defined() {
    let body = "def c2, 1.5, 0x80000000, 7, 0xffffffff
defb b1, 5
defb b2, 0
mov r1, c2.wzyx
ifnz b1
    mov r2.x___, c2.z
endif
ifnz b2
    mov r2._y__, c2.z
endif
";
    let d = run(body, |_| {});
    assert_eq!(comps(&d, 1, 7), [0xffff_ffff, 7, 0x8000_0000, f(1.5)]);
    assert_eq!((d.r(2, 0, 3), d.r(2, 1, 3)), (7, 0));
}

#[test]
fn thread_ids_by_their_formulas() {
    let body = "mov r1, vTidInGrp
mov r2, vThreadGrpId
mov r3, vAbsTid
mov r4, vTidInGrpFlat
mov r5, vThreadGrpIdFlat
mov r6, vAbsTidFlat
mov r7.x___, vaTid.x
";
    let (id, size, groups) = ([2u32, 1, 0], [8u32, 4, 2], [3u32, 2, 1]);
    let tid = |lane: u32| [lane % 8, (lane / 8) % 4, lane / 32];
    let d = run(body, |l| {
        l.set_grid(id, size, groups);
        for lane in 0..LANES {
            l.set_tid(lane, tid(lane));
        }
    });
    let flat_group = id[2] * groups[0] * groups[1] + id[1] * groups[0] + id[0];
    for lane in 0..LANES {
        let t = tid(lane);
        let flat_local = t[2] * size[0] * size[1] + t[1] * size[0] + t[0];
        let abs = [0, 1, 2].map(|c| id[c] * size[c] + t[c]);
        let abs_flat = flat_group * size[0] * size[1] * size[2] + flat_local;
        assert_eq!(comps(&d, 1, lane), [t[0], t[1], t[2], 0]);
        assert_eq!(comps(&d, 2, lane), [id[0], id[1], id[2], 0]);
        assert_eq!(comps(&d, 3, lane), [abs[0], abs[1], abs[2], 0]);
        assert_eq!(comps(&d, 4, lane), [flat_local; 4]);
        assert_eq!(comps(&d, 5, lane), [flat_group; 4]);
        assert_eq!(comps(&d, 6, lane), [abs_flat; 4]);
        assert_eq!(d.r(7, 0, lane), abs_flat);
    }
}

#[test]
fn inactive_lanes_keep_their_registers() {
    let exec = 0x0f0f_00ff_ff00_1234u64;
    let text = "il_cs_2_0\nmov r1, r0\niadd r2.x___, r0.x, r0.x\nend\n";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_exec(exec);
    l.set_r(0, 0, |lane| lane + 1);
    l.set_r(1, 0, |_| 0xaaaa);
    l.set_r(2, 0, |_| 0xbbbb);
    let d = l.go();
    for lane in 0..LANES {
        let on = exec >> lane & 1 == 1;
        assert_eq!(
            d.r(1, 0, lane),
            if on { lane + 1 } else { 0xaaaa },
            "lane {lane}"
        );
        assert_eq!(
            d.r(2, 0, lane),
            if on { 2 * lane + 2 } else { 0xbbbb },
            "lane {lane}"
        );
    }
    assert_eq!(d.exec(), exec);
}

/// A value computed from uniforms alone (a 0/1 mask component, a literal) written through a
/// register-relative array index reaches every lane's element (found by the IL fuzzer: the
/// lift once wrote it unsplatted, which the IR verifier refused).
#[test]
fn uniform_values_write_through_relative_array_indices() {
    let d = run(
        "dcl_indexed_temp_array x0[8]
dcl_literal l0, 0x00000003, 0x00000007, 0x00000001, 0x00000000
mov x0[r0.x+1], l0.y
mov x0[l0.x+4].___1, l0
mov r1.x___, x0[r0.x+1].x
mov r1._y__, x0[7].w
",
        |l| l.set_r(0, 0, |lane| lane % 6),
    );
    for lane in 0..64 {
        assert_eq!(d.r(1, 0, lane), 7, "lane {lane}");
        assert_eq!(d.r(1, 1, lane), ONE, "lane {lane}");
    }
}
