//! Every LDS, GDS and UAV atomic row on both engines against a host model of the seed's rule
//! for it (the table in `lift/mem/atomic.rs`, written again here from the entries): the active
//! lanes hit three dwords in ascending lane order, three lanes are inactive and (LDS and GDS)
//! one is out of range; the old values each lane gets back and the final memory must be the
//! model's.

mod lift_common;
use lift_common::*;
use wavejit_amdil::lift::state::{view, View};

/// Values with the edges of every rule: 0, the signed and unsigned extremes, small numbers.
const V: [u32; 8] = [
    0,
    1,
    3,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    2,
    0xffff_fffe,
];
/// The dwords' initial values.
const INIT: [u32; 3] = [0, 3, 0xffff_ffff];
/// Lanes that do not run.
const INACTIVE: [u32; 3] = [4, 33, 60];
/// The lane whose address is past the LDS or GDS.
const OUTSIDE: u32 = 62;

fn src1(lane: u32) -> u32 {
    V[(lane as usize * 5 + 1) % 8]
}

fn src2(lane: u32) -> u32 {
    V[(lane as usize * 3) % 8]
}

/// What the seed says each OP stores, and which case of a conditional rule it took.
fn rule(family: &str, op: &str, old: u32, a: u32, b: u32) -> (u32, Option<bool>) {
    let s = |x: u32| x as i32;
    match op {
        "add" => (old.wrapping_add(a), None),
        "sub" => (old.wrapping_sub(a), None),
        "rsub" => (a.wrapping_sub(old), None),
        "min" => (s(old).min(s(a)) as u32, None),
        "max" => (s(old).max(s(a)) as u32, None),
        "umin" => (old.min(a), None),
        "umax" => (old.max(a), None),
        "and" => (old & a, None),
        "or" => (old | a, None),
        "xor" => (old ^ a, None),
        "xchg" => (a, None),
        "inc" | "uinc" => {
            let wrap = old >= a;
            (if wrap { 0 } else { old + 1 }, Some(wrap))
        }
        "dec" | "udec" => {
            let reload = old == 0 || old > a;
            (if reload { a } else { old - 1 }, Some(reload))
        }
        "mskor" => ((old & !a) | b, None),
        // LDS and GDS compare src1 and store src2 (L10147, L12312); UAVs store src1 when the
        // dword equals src2 (L11257).
        "cmp" | "cmp_xchg" | "cmp_store" if family == "uav" => {
            (if old == b { a } else { old }, Some(old == b))
        }
        "cmp" | "cmp_xchg" | "cmp_store" => (if old == a { b } else { old }, Some(old == a)),
        _ => panic!("no rule for {op}"),
    }
}

/// The atomic rows: (family, OP, returns).
fn rows() -> Vec<(&'static str, &'static str, bool)> {
    const OPS: [&str; 18] = [
        "add",
        "sub",
        "rsub",
        "min",
        "max",
        "umin",
        "umax",
        "and",
        "or",
        "xor",
        "xchg",
        "inc",
        "dec",
        "uinc",
        "udec",
        "mskor",
        "cmp_xchg",
        "cmp_store",
    ];
    let mut out = Vec::new();
    for row in wavejit_amdil::table::rows() {
        let m = row.mnemonic;
        let Some((family, rest)) = m.split_once('_') else {
            continue;
        };
        if !["lds", "gds", "uav"].contains(&family) {
            continue;
        }
        let (returns, op) = match rest.strip_prefix("read_") {
            Some(op) => (true, op),
            None => (false, rest),
        };
        if OPS.contains(&op) || op == "cmp" {
            out.push((family, op, returns));
        }
    }
    out
}

/// The address of `lane`: one of three dwords, or past the 64 bytes of LDS or GDS.
fn address(family: &str, lane: u32) -> u32 {
    if lane == OUTSIDE && family != "uav" {
        64
    } else {
        4 * (lane % 3)
    }
}

#[test]
fn every_atomic_row_against_the_seeds_rule() {
    let rows = rows();
    assert_eq!(rows.len(), 85, "{rows:?}");
    let mut cases = [0u32; 2];
    for &(family, op, returns) in &rows {
        let takes3 = matches!(op, "mskor" | "cmp" | "cmp_xchg" | "cmp_store");
        let (dcl, id) = match family {
            "lds" => ("dcl_lds_id(1) 64", 1),
            "gds" => ("dcl_gds_id(0) 64", 0),
            _ => ("dcl_raw_uav_id(11)", 11),
        };
        // UAVs return into the one component the mask writes (y here), the LDS and GDS
        // into dst.x.
        let dst = match (returns, family) {
            (false, _) => "",
            (true, "uav") => "r2._y__, ",
            (true, _) => "r2.x___, ",
        };
        let read = if returns { "read_" } else { "" };
        let third = if takes3 { ", r3.x" } else { "" };
        let text =
            format!("il_cs_2_0\n{dcl}\n{family}_{read}{op}_id({id}) {dst}r0.x, r1.x{third}\nend\n");
        let k = Kernel::new(&text);
        let mut l = k.launch();
        let exec = INACTIVE.iter().fold(u64::MAX, |m, &n| m & !(1 << n));
        l.set_exec(exec);
        l.set_r(0, 0, |lane| address(family, lane));
        l.set_r(1, 0, src1);
        if takes3 {
            l.set_r(3, 0, src2);
        }
        if returns {
            l.set_r(2, 0, |_| 0xdead);
            l.set_r(2, 1, |_| 0xbeef);
        }
        // The three dwords: at LDS byte 0, arena byte 0, or GDS byte 0 = arena byte 64.
        let mut arena = vec![0x5a5a_5a5a; 48];
        let first = match family {
            "lds" => {
                let lds: Vec<u8> = INIT.iter().flat_map(|w| w.to_le_bytes()).collect();
                let mut bytes = vec![0; 64];
                bytes[..12].copy_from_slice(&lds);
                l.set_lds_bytes(&bytes);
                None
            }
            "gds" => {
                l.set_view(View::Gds, &[(view::OFFSET, 64)]);
                Some(16)
            }
            _ => Some(0),
        };
        if let Some(f) = first {
            arena[f..f + 3].copy_from_slice(&INIT);
        }
        l.set_arena(&arena);
        let d = l.run().unwrap_or_else(|e| panic!("{text}{e}"));

        let mut mem = INIT;
        let mut old = [0u32; 64];
        for lane in (0..64).filter(|&n| exec >> n & 1 == 1) {
            let a = address(family, lane);
            if a >= 12 {
                continue;
            }
            let w = &mut mem[a as usize / 4];
            old[lane as usize] = *w;
            let (new, case) = rule(family, op, *w, src1(lane), src2(lane));
            if let Some(c) = case {
                cases[usize::from(c)] += 1;
            }
            *w = new;
        }
        let got = match first {
            None => [0, 1, 2].map(|i| d.lds_word(i)),
            Some(f) => [0, 1, 2].map(|i| d.arena[f + i]),
        };
        assert_eq!(got, mem, "{text}memory");
        for lane in (0..64u32).filter(|_| returns) {
            let active = exec >> lane & 1 == 1;
            let want = match active {
                true => old[lane as usize],
                false if family == "uav" => 0xbeef,
                false => 0xdead,
            };
            let (c, other) = if family == "uav" {
                (1, (0, 0xdead))
            } else {
                (0, (1, 0xbeef))
            };
            assert_eq!(d.r(2, c, lane), want, "{text}lane {lane}");
            assert_eq!(d.r(2, other.0, lane), other.1, "{text}lane {lane}");
        }
    }
    // The conditional rules (inc, dec, compare-exchange) took both of their cases.
    assert!(cases[0] > 20 && cases[1] > 20, "{cases:?}");
}

#[test]
fn uav_atomics_on_private_uavs_act_on_the_lanes_own_bytes() {
    // Every lane adds to its own private dword 1; lane 9's address 8 is past the 8 bytes:
    // nothing changes and 0 comes back.
    let text = "il_cs_2_0
dcl_typeless_uav_id(8)_stride(4)_length(8)_access(private)
uav_read_add_id(8) r2.x___, r0.x, r1.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_r(0, 0, |lane| if lane == 9 { 8 } else { 4 });
    l.set_r(1, 0, |lane| lane + 1);
    let init = |lane: u32| -> Vec<u8> {
        [lane, 1000 + lane]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    };
    let (s, private) = run_private(&l, 8, init).unwrap();
    for lane in 0..64u32 {
        let back = s.lane(k.layout.temp(2, 0), lane);
        let p = &private[8 * lane as usize..][..8];
        if lane == 9 {
            assert_eq!(back, 0);
            assert_eq!(p, &init(lane)[..]);
        } else {
            assert_eq!(back, 1000 + lane, "lane {lane}");
            assert_eq!(p[4..], (1000 + 2 * lane + 1).to_le_bytes());
        }
    }
}

#[test]
fn uav_atomics_on_structured_and_typed_uavs() {
    // uav_read_add on structure l % 4, offset 4, of a structured UAV (lanes >= 40 name
    // structure 9, past the count: nothing changes, 0 back), and uav_read_umax on the
    // element (l % 2, l % 3) of a typed 2d UAV of dwords, 2 x 2 (y = 2 is past the height).
    let text = "il_cs_2_0
dcl_struct_uav_id(3) 8
dcl_uav_id(5)_fmtx(uint)_type(2d)
uav_read_add_id(3) r3.___w, r0.xy, r1.x
uav_read_umax_id(5) r4.x___, r0.zw, r1.y
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    // The structures at arena byte 0, the elements at byte 64 with rows 16 bytes apart.
    l.set_view(View::Uav(3), &[(view::OFFSET, 0), (view::SIZE, 4)]);
    l.set_view(
        View::Uav(5),
        &[
            (view::OFFSET, 64),
            (view::SIZE, 2),
            (view::HEIGHT, 2),
            (view::ROW_PITCH, 16),
            (view::ELEMENT_BYTES, 4),
        ],
    );
    let arena: Vec<u32> = (0..32).map(|i| 100 * i).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| if lane >= 40 { 9 } else { lane % 4 });
    l.set_r(0, 1, |_| 4);
    l.set_r(0, 2, |lane| lane % 2);
    l.set_r(0, 3, |lane| lane % 3);
    l.set_r(1, 0, |lane| lane + 1);
    l.set_r(1, 1, |lane| 7 * lane);
    let d = l.go();
    let mut mem = arena.clone();
    for lane in 0..64u32 {
        if lane < 40 {
            let w = 2 * (lane % 4) as usize + 1;
            assert_eq!(d.r(3, 3, lane), mem[w], "structured, lane {lane}");
            mem[w] += lane + 1;
        } else {
            assert_eq!(d.r(3, 3, lane), 0, "structure 9 is past the count");
        }
        let (x, y) = (lane % 2, lane % 3);
        if y < 2 {
            let w = 16 + 4 * y as usize + x as usize;
            assert_eq!(d.r(4, 0, lane), mem[w], "typed, lane {lane}");
            mem[w] = mem[w].max(7 * lane);
        } else {
            assert_eq!(d.r(4, 0, lane), 0, "row 2 is past the height");
        }
    }
    assert_eq!(d.arena, mem);
}
