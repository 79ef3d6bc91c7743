//! The launch ABI (`lift::launch`): each tile's r0 = (i, j, 0, 1), its covered, alive and
//! active lanes, W = the PE's conditional value, the memory base; the `wavejit wave` cells.

mod lift_common;

use lift_common::*;
use std::sync::Arc;
use wavejit_r5xx::lift::state::mask;
use wavejit_r5xx::lift::{lift, DomainInit, Tiles};
use wavejit_runtime::{WaveInit, WaveState};

fn bits64(s: &WaveState, r: wavejit_ir::Reg) -> u64 {
    u64::from(s.uniform(r)) | u64::from(s.uniform(r.offset(1))) << 32
}

#[test]
fn each_tile_starts_with_its_pairs_and_masks() {
    let mut m = Machine::new(vec![set(1, 1.0).inst()]);
    m.setup.bindings.cond.value = 0x4242_4242;
    let lifted = lift(&m.setup).unwrap();
    let l = &lifted.layout;
    let tiles = Tiles::new(5, 2, 40, 9).unwrap();
    let grid = tiles.grid();
    assert_eq!(grid.groups(), [3, 3, 1]);
    // PE coverage: in tile (1, 1) only lane 63 passed.
    let mut coverage = vec![u64::MAX; 9];
    coverage[tiles.linear([1, 1, 0])] = 1 << 63;
    let init = DomainInit::new(l, tiles, Some(coverage), 0x1_2345_0000, &m.setup).unwrap();
    for gy in 0..3 {
        for gx in 0..3 {
            let wave = grid.wave([gx, gy, 0], 0);
            let mut s = WaveState::new(Arc::new(l.layout.clone()));
            init.init(&wave, &mut s).unwrap();
            let mut covered = 0u64;
            for lane in 0..64 {
                let (i, j) = (16 * gx + lane % 16, 4 * gy + lane / 16);
                assert_eq!(s.lane(l.temp(0, 0), lane), f(i as f32));
                assert_eq!(s.lane(l.temp(0, 1), lane), f(j as f32));
                assert_eq!(s.lane(l.temp(0, 2), lane), 0);
                assert_eq!(s.lane(l.temp(0, 3), lane), f(1.0));
                assert_eq!(s.lane(l.w(), lane), 0x4242_4242);
                let inside = (5..=40).contains(&i) && (2..=9).contains(&j);
                let passed = (gx, gy) != (1, 1) || lane == 63;
                if inside && passed {
                    covered |= 1 << lane;
                }
            }
            assert_eq!(
                bits64(&s, l.mask(mask::COVERED)),
                covered,
                "tile ({gx}, {gy})"
            );
            // Alive: every lane of a quad holding a covered lane.
            let mut alive = 0u64;
            for lane in 0..64u32 {
                let quad = [0, 1, 16, 17].map(|d| (lane & !17) + d);
                if quad.iter().any(|&q| covered >> q & 1 == 1) {
                    alive |= 1 << lane;
                }
            }
            assert_eq!(bits64(&s, l.mask(mask::ALIVE)), alive);
            assert_eq!(bits64(&s, l.mask(mask::ACTIVE)), alive);
            assert_eq!(bits64(&s, l.mem_base()), 0x1_2345_0000);
            assert_eq!(s.uniform(l.tile_origin()), 16 * gx);
            assert_eq!(s.uniform(l.tile_origin().offset(1)), 4 * gy);
        }
    }
    // One coverage mask a tile, or the launch is refused.
    assert!(DomainInit::new(l, tiles, Some(vec![0; 4]), 0, &m.setup).is_err());
}

#[test]
fn a_lone_wave_runs_its_exec_lanes() {
    let m = Machine::new(vec![set(1, 1.0).inst()]);
    let lifted = lift(&m.setup).unwrap();
    let l = &lifted.layout;
    let mut s = WaveState::new(Arc::new(l.layout.clone()));
    for (r, v) in l.lone_wave(0xf0f0) {
        s.set_uniform(r, v);
    }
    assert_eq!(l.exec(|r| s.uniform(r)), 0xf0f0);
    assert_eq!(bits64(&s, l.mask(mask::COVERED)), 0xf0f0);
    let names = l.names();
    assert!(names.iter().any(|(n, ..)| n == "r0.w"));
    assert!(names.iter().any(|(n, ..)| n == "aL"));
}
