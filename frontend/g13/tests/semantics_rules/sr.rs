//! `get_sr` (lift/sr.rs): every special register number of a compute dispatch, read in a
//! wave whose geometry is not the lone wave's (threadgroup (5, 6, 7) of size 64 x 2 x 3,
//! SIMD-group 3) with some lanes inactive.

use super::common::{layout, Wave, LANES};
use wavejit_g13::lift::state::sr;

const EXEC: u32 = 0x7fef_ff3a;
const GROUP: [u32; 3] = [5, 6, 7];
const SIZE: [u32; 3] = [64, 2, 3];
const EXTENT: [u32; 3] = [40, 2, 1];
const SIMDGROUP: u32 = 3;

/// Lane `l`'s thread position in the threadgroup (threads in linear order, x fastest).
fn tid(l: u32) -> [u32; 3] {
    let i = 32 * SIMDGROUP + l;
    [i % SIZE[0], i / SIZE[0] % SIZE[1], i / (SIZE[0] * SIZE[1])]
}

#[test]
fn every_special_register_reads_the_dispatch() {
    let numbers = [
        0, 1, 2, 4, 5, 6, 8, 9, 10, 20, 48, 49, 50, 51, 52, 53, 56, 58, 63, 80, 81, 82,
    ];
    let mut w = Wave::new();
    let l = layout();
    for c in 0..3 {
        w.state.set_uniform(l.sr(sr::GROUP + c), GROUP[c as usize]);
        w.state
            .set_uniform(l.sr(sr::GROUP_SIZE + c), SIZE[c as usize]);
        w.state
            .set_uniform(l.sr(sr::EXTENT + c), EXTENT[c as usize]);
        for lane in 0..LANES {
            w.state.set_lane(l.tid(c), lane, tid(lane)[c as usize]);
        }
    }
    w.state.set_uniform(l.sr(sr::SIMDGROUP), SIMDGROUP);
    for (k, _) in numbers.iter().enumerate() {
        w.set_r_all(10 + k as u32, 0xdead_0000 + k as u32);
    }
    w.set_exec(EXEC);
    let text: String = numbers
        .iter()
        .enumerate()
        .map(|(k, n)| format!("get_sr r{}, sr{n}\n", 10 + k))
        .collect::<String>()
        + "stop";
    let out = w.go(&text);
    for lane in 0..LANES {
        let active = EXEC >> lane & 1 == 1;
        let below = EXEC & ((1u32 << lane) - 1);
        let quad_below = below & !((1u32 << (lane & !3)) - 1);
        for (k, &n) in numbers.iter().enumerate() {
            let c = (n % 4) as usize;
            let want = match n {
                0..=2 => GROUP[c],
                4..=6 => SIZE[c],
                8..=10 => EXTENT[(n - 8) as usize],
                20 => 0,
                48..=50 => tid(lane)[(n - 48) as usize],
                51 => 32 * SIMDGROUP + lane,
                52 => lane,
                53 => SIMDGROUP,
                56 => quad_below.count_ones(),
                58 => below.count_ones(),
                63 => 1,
                _ => {
                    GROUP[(n - 80) as usize] * SIZE[(n - 80) as usize]
                        + tid(lane)[(n - 80) as usize]
                }
            };
            let r = 10 + k as u32;
            let want = if active { want } else { 0xdead_0000 + k as u32 };
            assert_eq!(out.r(r, lane), want, "sr{n} lane {lane}");
        }
    }
}
