//! GDS on both engines, on every generation: DS instructions with the `gds` bit go through
//! the M0 window (`M0[15:0]` size, `M0[31:16]` base, in bytes; CLRX doc/GcnInstrsDs.md, the
//! RDNA3 ISA's DS field table) into the dispatch's 64 KiB of GDS, out-of-range lanes reading 0
//! and writing nothing; `ds_ordered_count` and `ds_gws_*` stop the wave with a guest fault.
//! Expected values come from a byte-array model of that rule written here, applied lane by
//! lane in lane order (the order the IR gives one instruction's accesses), not from the lifter.
mod lift_common;

use lift_common::*;
use wavejit_gcn::lift::{lift, LiftError, LiftErrorKind};
use wavejit_gcn::tables::{self, Family};
use wavejit_gcn::{assemble, Gen, Opcode};
use wavejit_runtime::FaultKind;

const GDS: usize = 65536;

fn asm(gen: Gen, text: &str) -> Vec<u8> {
    assemble(gen, text).unwrap_or_else(|e| panic!("assemble: {e}\n{text}"))
}

/// The window rule: the GDS byte offset an `n`-byte access at DS address `a` reaches, or None
/// when it is out of range (outside the M0 window or past the end of GDS).
fn window(m0: u32, a: u32, n: u32) -> Option<usize> {
    let (size, base) = (u64::from(m0 & 0xffff), u64::from(m0 >> 16));
    let end = u64::from(a) + u64::from(n);
    (end <= size && base + end <= GDS as u64).then_some((base + u64::from(a)) as usize)
}

/// GDS contents as the model sees them.
struct Model(Vec<u8>);

impl Model {
    fn get(&self, at: Option<usize>, n: usize) -> u64 {
        at.map_or(0, |p| {
            (0..n).fold(0, |v, i| v | u64::from(self.0[p + i]) << (8 * i))
        })
    }
    fn put(&mut self, at: Option<usize>, n: usize, v: u64) {
        if let Some(p) = at {
            for i in 0..n {
                self.0[p + i] = (v >> (8 * i)) as u8;
            }
        }
    }
    /// An atomic: returns the old value (0 out of range) and stores `f(old)`.
    fn rmw(&mut self, at: Option<usize>, n: usize, f: impl Fn(u64) -> u64) -> u64 {
        let old = self.get(at, n);
        if at.is_some() {
            self.put(at, n, f(old));
        }
        old
    }
}

/// A wave with `init` as its GDS (the `gds` cells hold its address); returns the address.
fn with_gds(w: &mut Wave, init: &[u8]) -> u64 {
    assert_eq!(init.len(), GDS);
    let a = w.buffer(init);
    let r = w.g.gds();
    w.state.set_uniform(r, a as u32);
    w.state.set_uniform(r.offset(1), (a >> 32) as u32);
    a
}

fn read_gds(w: &Wave, a: u64) -> Vec<u8> {
    let mut b = vec![0u8; GDS];
    w.mem.read_bytes(a, &mut b).expect("read GDS");
    b
}

fn pattern() -> Vec<u8> {
    (0..GDS).map(|i| (i * 7 + 3) as u8).collect()
}

const EXEC: u64 = !(1u64 << 63 | 1 << 5);
const OLD: u32 = 0xdead_0000;

fn active(l: u32) -> bool {
    EXEC >> l & 1 != 0
}

#[test]
fn loads_and_stores_follow_the_m0_window() {
    // Window edges: a window inside GDS, a size that is not a multiple of 4, a window ending
    // exactly at the end of GDS (and one that would run past it), M0 = 0 (nothing in range)
    // and the whole of GDS from base 0.
    let m0s = [0x0100_0040, 0x0000_0043, 0xfff8_ffff, 0, 0x0000_ffff];
    // Read addresses: dword steps, then byte steps across 0x38..0x47 (around the 0x43 edge).
    let raddr = |l: u32| if l < 48 { 4 * l } else { 0x38 + (l - 48) };
    // Write addresses: disjoint dwords (b32 at 4l; b16/b8 at 0x100 + 4l and 0x102 + 4l).
    let waddr = |l: u32| 4 * l;
    for gen in Gen::ALL {
        let code = asm(
            gen,
            "ds_read_b32 v3, v1 gds
             ds_read_u8 v4, v1 offset:2 gds
             ds_read_u16 v5, v1 offset:1 gds
             ds_read_b64 v[6:7], v1 gds
             ds_write_b32 v2, v8 gds
             ds_write_b16 v2, v9 offset:256 gds
             ds_write_b8 v2, v9 offset:258 gds
             s_endpgm",
        );
        for m0 in m0s {
            let mut w = Wave::new();
            let gds = with_gds(&mut w, &pattern());
            w.set_m0(m0);
            w.set_exec(EXEC);
            w.set_v_all(1, raddr);
            w.set_v_all(2, waddr);
            w.set_v_all(8, |l| 0xa000_0000 | l);
            w.set_v_all(9, |l| 0x5a00 + 3 * l);
            for r in 3..8 {
                w.set_v_all(r, |l| OLD + l);
            }
            w.lift_run(&code, &config(gen, KEEP_ALL));

            let mut m = Model(pattern());
            for l in (0..64).filter(|&l| active(l)) {
                let a = raddr(l);
                let what = format!("{gen:?} m0 {m0:#x} lane {l} addr {a:#x}");
                assert_eq!(w.v(3, l) as u64, m.get(window(m0, a, 4), 4), "b32 {what}");
                assert_eq!(
                    w.v(4, l) as u64,
                    m.get(window(m0, a + 2, 1), 1),
                    "u8 {what}"
                );
                assert_eq!(
                    w.v(5, l) as u64,
                    m.get(window(m0, a + 1, 2), 2),
                    "u16 {what}"
                );
                assert_eq!(w.v64(6, l), m.get(window(m0, a, 8), 8), "b64 {what}");
            }
            for l in [5, 63] {
                assert_eq!(w.v(3, l), OLD + l, "{gen:?}: inactive lane {l} written");
            }
            for l in (0..64).filter(|&l| active(l)) {
                let a = waddr(l);
                m.put(window(m0, a, 4), 4, u64::from(0xa000_0000 | l));
                m.put(window(m0, a + 256, 2), 2, u64::from(0x5a00 + 3 * l));
                m.put(window(m0, a + 258, 1), 1, u64::from(0x5a00 + 3 * l));
            }
            let got = read_gds(&w, gds);
            let first = (0..GDS).find(|&i| got[i] != m.0[i]);
            assert_eq!(
                first, None,
                "{gen:?} m0 {m0:#x}: GDS differs from the model"
            );
            assert!(
                w.lds.iter().all(|&b| b == 0),
                "{gen:?}: a GDS access wrote LDS"
            );
        }
    }
}

#[test]
fn atomics_act_in_lane_order_inside_the_window() {
    let m0 = 0x0010_0080; // base 0x10, size 0x80
    for gen in Gen::ALL {
        let code = asm(
            gen,
            "ds_add_rtn_u32 v3, v1, v2 gds
             ds_max_rtn_i32 v4, v10, v11 offset:64 gds
             ds_cmpst_rtn_b32 v5, v12, v13, v14 offset:32 gds
             ds_add_rtn_u64 v[6:7], v15, v[16:17] offset:96 gds
             ds_append v8 offset:112 gds
             ds_consume v9 offset:117 gds
             s_endpgm",
        );
        let mut init = vec![0u8; GDS];
        init[0x80..0x84].copy_from_slice(&1000u32.to_le_bytes()); // append: base + 112
        init[0x84..0x88].copy_from_slice(&500u32.to_le_bytes()); // consume: base + 116
        let mut w = Wave::new();
        let gds = with_gds(&mut w, &init);
        w.set_m0(m0);
        w.set_exec(EXEC);
        // Lanes 40 and up address 0x80, the first byte past the window.
        let a1 = |l: u32| if l < 40 { (l % 4) * 4 } else { 0x80 };
        w.set_v_all(1, a1);
        w.set_v_all(2, |l| l + 1);
        w.set_v_all(10, |l| (l % 2) * 4);
        w.set_v_all(11, |l| ((l as i32 - 30) * 3) as u32);
        w.set_v_all(12, |_| 0);
        w.set_v_all(13, |l| l); // compare: succeeds when lane l finds l
        w.set_v_all(14, |l| l + 1);
        // 0x60 + 0x18 + 8 = 0x80: lanes >= 10 are just out of range.
        w.set_v_all(15, |l| if l < 10 { 0 } else { 0x18 });
        w.set_v_all(16, |l| 0xffff_ffc0 + l);
        w.set_v_all(17, |l| l);
        for r in 3..10 {
            w.set_v_all(r, |l| OLD + l);
        }
        w.lift_run(&code, &config(gen, KEEP_ALL));

        let mut m = Model(init);
        let lanes: Vec<u32> = (0..64).filter(|&l| active(l)).collect();
        let mut want = vec![[0u64; 6]; 64];
        for &l in &lanes {
            want[l as usize][0] = m.rmw(window(m0, a1(l), 4), 4, |o| {
                u64::from((o as u32).wrapping_add(l + 1))
            });
        }
        for &l in &lanes {
            let v = (l as i32 - 30) * 3;
            want[l as usize][1] = m.rmw(window(m0, (l % 2) * 4 + 64, 4), 4, |o| {
                (o as u32 as i32).max(v) as u32 as u64
            });
        }
        for &l in &lanes {
            want[l as usize][2] = m.rmw(window(m0, 32, 4), 4, |o| {
                if o == u64::from(l) {
                    u64::from(l + 1)
                } else {
                    o
                }
            });
        }
        for &l in &lanes {
            let a = if l < 10 { 96 } else { 96 + 0x18 };
            let d = u64::from(0xffff_ffc0 + l) | u64::from(l) << 32;
            want[l as usize][3] = m.rmw(window(m0, a, 8), 8, |o| o.wrapping_add(d));
        }
        let n = lanes.len() as u64;
        let app = m.rmw(window(m0, 112, 4), 4, |o| o + n);
        // ds_consume: offset 117 is used as 117 & ~3 = 116.
        let con = m.rmw(window(m0, 116, 4), 4, |o| o.wrapping_sub(n) & 0xffff_ffff);
        assert_eq!((app, con), (1000, 500), "model: counters at base + offset");
        for &l in &lanes {
            let what = format!("{gen:?} lane {l}");
            let w6 = want[l as usize];
            assert_eq!(w.v(3, l) as u64, w6[0], "add {what}");
            assert_eq!(w.v(4, l) as u64, w6[1], "max {what}");
            assert_eq!(w.v(5, l) as u64, w6[2], "cmpst {what}");
            assert_eq!(w.v64(6, l), w6[3], "add_u64 {what}");
            assert_eq!((w.v(8, l), w.v(9, l)), (1000, 500), "append/consume {what}");
        }
        assert_eq!(w.v(8, 63), OLD + 63, "{gen:?}: inactive lane written");
        assert_eq!(
            read_gds(&w, gds),
            m.0,
            "{gen:?}: GDS differs from the model"
        );
    }
}

#[test]
fn append_outside_the_window_does_nothing() {
    for gen in Gen::ALL {
        let code = asm(gen, "ds_append v8 offset:8 gds\ns_endpgm");
        let mut init = vec![0u8; GDS];
        init[8..12].copy_from_slice(&77u32.to_le_bytes());
        // Size 11: the dword at 8 ends at 12, one byte past the window.
        for (m0, want) in [(0x0000_000c, 77), (0x0000_000b, 0)] {
            let mut w = Wave::new();
            let gds = with_gds(&mut w, &init);
            w.set_m0(m0);
            w.set_v_all(8, |l| OLD + l);
            w.lift_run(&code, &config(gen, KEEP_ALL));
            assert_eq!(w.v(8, 17), want, "{gen:?} m0 {m0:#x}");
            let after = u32::from_le_bytes(read_gds(&w, gds)[8..12].try_into().unwrap());
            assert_eq!(
                after,
                if want == 0 { 77 } else { 77 + 64 },
                "{gen:?} m0 {m0:#x}"
            );
        }
    }
}

#[test]
fn two_address_forms_check_each_address() {
    let m0 = 0x0040_0020; // base 0x40, size 0x20
    for gen in Gen::ALL {
        let code = asm(
            gen,
            "ds_read2_b32 v[3:4], v1 offset0:2 offset1:7 gds
             ds_write2_b32 v2, v8, v9 offset0:1 offset1:6 gds
             s_endpgm",
        );
        let mut w = Wave::new();
        let gds = with_gds(&mut w, &pattern());
        w.set_m0(m0);
        w.set_v_all(1, |l| 4 * (l % 4));
        w.set_v_all(2, |l| if l == 0 { 0 } else { 0x100 });
        w.set_v_all(8, |_| 0x1111_1111);
        w.set_v_all(9, |_| 0x2222_2222);
        w.lift_run(&code, &config(gen, KEEP_ALL));
        let mut m = Model(pattern());
        for l in 0..64 {
            let a = 4 * (l % 4);
            assert_eq!(
                w.v(3, l) as u64,
                m.get(window(m0, a + 8, 4), 4),
                "{gen:?} {l}"
            );
            assert_eq!(
                w.v(4, l) as u64,
                m.get(window(m0, a + 28, 4), 4),
                "{gen:?} {l}"
            );
        }
        // Lane 0 writes 0x4 (in range) and 0x18 (in range); the others write past the window.
        m.put(window(m0, 4, 4), 4, 0x1111_1111);
        m.put(window(m0, 24, 4), 4, 0x2222_2222);
        assert_eq!(read_gds(&w, gds), m.0, "{gen:?}");
    }
}

fn sync_ops(gen: Gen) -> Vec<(&'static str, &'static str)> {
    let gws = "GWS resources are not allocated to compute dispatches";
    let mut v = vec![
        ("ds_gws_init v1 gds", gws),
        ("ds_gws_sema_v gds", gws),
        ("ds_gws_sema_br v1 gds", gws),
        ("ds_gws_sema_p gds", gws),
        ("ds_gws_barrier v1 gds", gws),
        (
            "ds_ordered_count v2, v1 gds",
            "ordered append is not enabled for compute dispatches",
        ),
    ];
    if gen != Gen::Gfx6 {
        v.push(("ds_gws_sema_release_all gds", gws));
    }
    v
}

#[test]
fn gws_and_ordered_count_stop_the_wave_with_a_fault() {
    for gen in Gen::ALL {
        for (text, why) in sync_ops(gen) {
            let code = asm(
                gen,
                &format!("s_mov_b32 s20, 7\n{text}\ns_mov_b32 s21, 9\ns_endpgm"),
            );
            let f = lift_ok(&code, &config(gen, KEEP_ALL));
            let mut w = Wave::new();
            with_gds(&mut w, &vec![0; GDS]);
            w.set_v_all(2, |l| OLD + l);
            let e = w.run(&f).expect_err(text);
            let name = text.split(' ').next().unwrap();
            assert_eq!(
                e.kind,
                FaultKind::Trap(format!("{name}: {why}")),
                "{gen:?} {text}"
            );
            assert_eq!(
                e.pc, 4,
                "{gen:?} {text}: the fault names the instruction's pc"
            );
            assert_eq!(
                (w.s(20), w.s(21)),
                (7, 0),
                "{gen:?} {text}: ran past the fault"
            );
            assert_eq!(w.v(2, 0), OLD, "{gen:?} {text}: wrote its destination");
        }
    }
}

/// Every DS row of every generation with the `gds` bit set lifts and runs without a fault
/// (M0 covering all of GDS, 8-aligned addresses), except: the synchronisation instructions
/// (a trap), `addtid` (unsupported: M0[15:0] means two things) and the lane permutes (`gds`
/// is invalid there, as llvm-mc says).
#[test]
fn every_ds_row_with_gds_lifts() {
    let mut ran = 0;
    for gen in Gen::ALL {
        for r in tables::rows(Family::Ds) {
            let Some(op) = r.opcode_in(gen) else { continue };
            let op = u32::from(op);
            let (opf, gdsf) = if gen >= Gen::Gfx8 {
                (op << 17, 1 << 16)
            } else {
                (op << 18, 1 << 17)
            };
            // offset0 8, offset1 2 (offset 0x208); addr v1, data0 v2, data1 v4, vdst v10.
            let d0: u32 = 0b110110 << 26 | opf | gdsf | 0x0208;
            let d1: u32 = 1 | 2 << 8 | 4 << 16 | 10 << 24;
            let code: Vec<u8> = [d0, d1, 0xbf81_0000]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect();
            let name = r.name(gen);
            let res = lift(&code, &config(gen, KEEP_ALL));
            match r.opcode {
                Opcode::DS_READ_ADDTID_B32 | Opcode::DS_WRITE_ADDTID_B32 => {
                    assert!(
                        matches!(
                            res,
                            Err(LiftError {
                                kind: LiftErrorKind::Unsupported,
                                ..
                            })
                        ),
                        "{gen:?} {name}: {res:?}"
                    );
                    continue;
                }
                Opcode::DS_PERMUTE_B32 | Opcode::DS_BPERMUTE_B32 => {
                    assert!(
                        matches!(
                            res,
                            Err(LiftError {
                                kind: LiftErrorKind::Invalid,
                                ..
                            })
                        ),
                        "{gen:?} {name}: {res:?}"
                    );
                    continue;
                }
                _ => {}
            }
            let f = res.unwrap_or_else(|e| panic!("{gen:?} {name}: {e}"));
            wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("{gen:?} {name}: {e}"));
            let mut w = Wave::new();
            with_gds(&mut w, &pattern());
            w.set_m0(0xffff);
            w.set_v_all(1, |l| 8 * l);
            w.set_v_all(2, |l| l);
            w.set_v_all(3, |l| l);
            w.set_v_all(4, |l| l);
            w.set_v_all(5, |l| l);
            let out = w.run(&f);
            let sync = name.starts_with("ds_gws") || name == "ds_ordered_count";
            match out {
                Err(e) if sync && matches!(e.kind, FaultKind::Trap(_)) => {}
                Ok(()) if !sync => {}
                other => panic!("{gen:?} {name}: {other:?}"),
            }
            assert!(w.lds.iter().all(|&b| b == 0), "{gen:?} {name} wrote LDS");
            ran += 1;
        }
    }
    assert!(ran > 400, "only {ran} rows ran");
}
