//! Pixel-shader programs (`il_ps`) on both engines: `vWinCoord0` lane by lane (seed 001 5.58:
//! x, y = the domain position plus the 0.5 of a pixel centre, L2319, L4649; `centered` and
//! `invert`, L4646-L4652; z = 0.0 and w = 1.0, the lift's documented choice), UAV and `g[]`
//! stores, and the refusals of what a domain launch has no meaning for. Expected values are
//! computed here from the domain position with the host's `f32` arithmetic.

mod lift_common;
use lift_common::*;
use wavejit_amdil::lift::{lift, LiftErrorKind};

const ONE: u32 = 0x3f80_0000;
/// The declaration CAL programs use, in the seed's spelling (usage pos, L4159).
const DCL: &str = "dcl_input_pos_interp(noperspective) vWinCoord0.xy__\n";

fn kernel(body: &str) -> &'static Kernel {
    let text = format!("il_ps_2_0\n{body}end\n");
    Box::leak(Box::new(Kernel::new(&text)))
}

/// The pixel centre's coordinate of domain position `p`, as the host computes it.
fn centre(p: u32) -> u32 {
    f(p as f32 + 0.5)
}

fn comps(d: &Done, n: u32, lane: u32) -> [u32; 4] {
    [0, 1, 2, 3].map(|c| d.r(n, c, lane))
}

#[test]
fn win_coord_is_the_pixel_centre_of_each_lane() {
    // The lone wave: lane l is the domain point (l, 0).
    let d = kernel(&format!("{DCL}mov r0, vWinCoord0\n")).launch().go();
    for lane in 0..LANES {
        assert_eq!(
            comps(&d, 0, lane),
            [centre(lane), centre(0), 0, ONE],
            "{lane}"
        );
    }
}

#[test]
fn win_coord_follows_the_tile() {
    // Tile (3, 2) of 8x8 points in a domain of 5x4 tiles: lane l is point
    // (24 + l % 8, 16 + l / 8).
    let k = kernel(&format!(
        "{DCL}mov r0.xy__, vWinCoord0\nmov r1, vWinCoord0.wzyx\n"
    ));
    let mut l = k.launch();
    l.set_grid([3, 2, 0], [8, 8, 1], [5, 4, 1]);
    for lane in 0..LANES {
        l.set_tid(lane, [lane % 8, lane / 8, 0]);
    }
    let d = l.go();
    for lane in 0..LANES {
        let (x, y) = (24 + lane % 8, 16 + lane / 8);
        assert_eq!(d.r(0, 0, lane), centre(x), "{lane}");
        assert_eq!(d.r(0, 1, lane), centre(y), "{lane}");
        assert_eq!(comps(&d, 1, lane), [ONE, 0, centre(y), centre(x)], "{lane}");
    }
}

#[test]
fn large_positions_round_to_nearest_even() {
    // Past 2^23 the centre is not exact; past 2^24 neither is the position.
    let k = kernel(&format!("{DCL}mov r0, vWinCoord0\n"));
    let mut l = k.launch();
    let base = (1 << 24) - 32;
    l.set_grid([0; 3], [LANES, 1, 1], [1, 1, 1]);
    for lane in 0..LANES {
        l.set_tid(lane, [base + lane, (1 << 23) + lane, 0]);
    }
    let d = l.go();
    for lane in 0..LANES {
        assert_eq!(d.r(0, 0, lane), centre(base + lane), "{lane}");
        assert_eq!(d.r(0, 1, lane), centre((1 << 23) + lane), "{lane}");
    }
}

#[test]
fn centered_and_invert_move_the_origin() {
    // centered: pixel centres at integers (L4650, L4652); invert: y multiplied by -1 (L4646).
    let k = kernel(
        "dcl_input_pos_interp(noperspective)_invert_centered vWinCoord0.xy__\n\
         mov r0, vWinCoord0\n",
    );
    let mut l = k.launch();
    for lane in 0..LANES {
        l.set_tid(lane, [lane, lane / 4, 0]);
    }
    let d = l.go();
    for lane in 0..LANES {
        let want = [f(lane as f32), f(-((lane / 4) as f32)), 0, ONE];
        assert_eq!(comps(&d, 0, lane), want, "{lane}");
    }
    let k =
        kernel("dcl_input_pos_interp(noperspective)_invert vWinCoord0.xy__\nmov r0, vWinCoord0\n");
    let d = k.launch().go();
    assert_eq!(d.r(0, 1, 7), f(-0.5));
    assert_eq!(d.r(0, 0, 7), centre(7));
}

#[test]
fn dclpi_declares_the_window_coordinate() {
    // The text reader has no spelling for dclpi's import components, so the declaration is
    // rewritten in the program: dclpi (opcode 22) with centered (control bit 11).
    let mut p =
        wavejit_amdil::parse::parse(&format!("il_ps_2_0\n{DCL}mov r0, vWinCoord0\nend\n")).unwrap();
    let dclpi = wavejit_amdil::table::by_mnemonic("dclpi").unwrap();
    p.code[0].op = dclpi.value;
    p.code[0].control = 1 << 11;
    let func = lift(&p, "dclpi").unwrap_or_else(|e| panic!("{e}"));
    let layout = wavejit_amdil::lift::layout(&p, LANES).unwrap();
    let k: &'static Kernel = Box::leak(Box::new(Kernel {
        layout,
        func: std::sync::Arc::new(func),
    }));
    let d = k.launch().go();
    assert_eq!(comps(&d, 0, 9), [f(9.0), f(0.0), 0, ONE]);
}

#[test]
fn results_go_through_uavs_and_g() {
    // UAV 11 at byte 4x: (x + 0.5) * cb0[0].x; g[64 + x].y: vWinCoord0.y.
    let text = format!(
        "il_ps_2_0\n{}{DCL}dcl_cb cb0[1]\ndcl_raw_uav_id(11)\n\
         mul r0.x___, vWinCoord0.x, cb0[0].x\n\
         ftoi r1.x___, vWinCoord0.x\n\
         ishl r2.x___, r1.x, l0.x\n\
         uav_raw_store_id(11) mem.x___, r2.x, r0.x\n\
         mov g[r1.x+64]._y__, vWinCoord0.y\nend\n",
        literal(0, [2, 0, 0, 0])
    );
    let k: &'static Kernel = Box::leak(Box::new(Kernel::new(&text)));
    let mut l = k.launch();
    l.set_cb(0, &[f(3.0), 0, 0, 0]);
    l.set_arena(&vec![0; 64 * 4 + 64 * 4]);
    let d = l.go();
    for x in 0..LANES {
        assert_eq!(d.arena[x as usize], f((x as f32 + 0.5) * 3.0), "{x}");
        assert_eq!(d.arena[64 * 4 + 4 * x as usize + 1], centre(0), "{x}");
    }
}

fn refusal(text: &str) -> wavejit_amdil::lift::LiftError {
    let p = wavejit_amdil::parse::parse(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    let e = lift(&p, "t")
        .err()
        .unwrap_or_else(|| panic!("{text}\nlifted"));
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

fn assert_refused(text: &str, kind: LiftErrorKind, has: &[&str]) {
    let e = refusal(text);
    assert_eq!(e.kind, kind, "{e}");
    let s = e.to_string();
    for h in has {
        assert!(s.contains(h), "{s:?} lacks {h:?}");
    }
}

fn ps(body: &str) -> String {
    format!("il_ps_2_0\n{body}end\n")
}

#[test]
fn pixel_outputs_and_inputs_are_refused() {
    use LiftErrorKind::Unsupported;
    assert_refused(
        &ps("dcl_output_generic o0\nmov o0, r0\n"),
        Unsupported,
        &["`dcl_output_generic o0`", "pixel outputs are not modelled"],
    );
    assert_refused(
        &ps(&format!("{DCL}mov o0, vWinCoord0\n")),
        Unsupported,
        &["`mov o0, vWinCoord`", "o0: pixel outputs are not modelled"],
    );
    assert_refused(&ps("mov oC0, r0\n"), Unsupported, &["oC0: pixel outputs"]);
    assert_refused(
        &ps("dcl_input_generic_interp(linear) v0\nmov r0, v0\n"),
        Unsupported,
        &[
            "`dcl_input_generic_interp(linear) v0`",
            "interpolated pixel inputs",
        ],
    );
    assert_refused(
        &ps("mov r0, v1\n"),
        Unsupported,
        &["v1: interpolated pixel inputs"],
    );
    assert_refused(
        &ps("mov r0, vFace\n"),
        Unsupported,
        &["vFace: interpolated"],
    );
    assert_refused(
        &ps(&format!("{DCL}dsx r0, vWinCoord0\n")),
        Unsupported,
        &["IL_OP_DSX: derivatives"],
    );
    assert_refused(
        &ps("discard_logicalnz r0.x\n"),
        Unsupported,
        &["IL_OP_DISCARD_LOGICALNZ", "L5137-L5139"],
    );
    assert_refused(
        &ps("dcl_input_pos_interp(noperspective)_bias vWinCoord0.xy__\n"),
        Unsupported,
        &["bias", "SC_CONS_SRC_VIEWPORT_BIAS"],
    );
    assert_refused(
        &ps("dcl_input_generic vWinCoord0.xy__\n"),
        Unsupported,
        &["usage generic", "L4159"],
    );
}

#[test]
fn compute_only_things_are_invalid_in_a_pixel_shader() {
    use LiftErrorKind::Invalid;
    assert_refused(
        &ps("mov r0, vTidInGrp\n"),
        Invalid,
        &["vTidInGrp in a pixel shader (L2203", "vWinCoord0"],
    );
    assert_refused(
        &ps("dcl_raw_uav_id(11)\nuav_raw_store_id(11) mem.x___, vAbsTidFlat.x, r0.x\n"),
        Invalid,
        &["vAbsTidFlat in a pixel shader (L1400"],
    );
    assert_refused(
        &ps("mov r0, x0[vThreadGrpId.x]\n"),
        Invalid,
        &["vThreadGrpId"],
    );
    assert_refused(&ps("dcl_num_thread_per_group 64\n"), Invalid, &["L4341"]);
    assert_refused(
        &ps("dcl_lds_id(0) 256\n"),
        Invalid,
        &["IL_DCL_LDS", "L3270"],
    );
    assert_refused(&ps("fence_threads\n"), Invalid, &["L5271"]);
}

#[test]
fn win_coord_misuse_is_invalid() {
    use LiftErrorKind::{Invalid, Unsupported};
    assert_refused(
        &ps("mov r0, vWinCoord0\n"),
        Invalid,
        &["used before its declaration"],
    );
    assert_refused(
        &ps(&format!("mov r0, vWinCoord0\n{DCL}")),
        Invalid,
        &["used before its declaration"],
    );
    assert_refused(&ps(&format!("{DCL}{DCL}")), Invalid, &["declared twice"]);
    assert_refused(
        &ps(&format!("{DCL}mov vWinCoord0, r0\n")),
        Invalid,
        &["read-only"],
    );
    assert_refused(
        &ps(&format!("{DCL}mov r0, vWinCoord1\n")),
        Invalid,
        &["vWinCoord1"],
    );
    // A compute program has no window position.
    assert_refused(
        "il_cs_2_0\nmov r0, vWinCoord0\nend\n",
        Unsupported,
        &["vWinCoord: a pixel shader's window position"],
    );
    assert_refused(
        "il_vs_2_0\nmov r0, r1\nend\n",
        Unsupported,
        &["an il_vs program"],
    );
}
