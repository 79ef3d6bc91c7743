//! The memory instructions the kernels and format tests do not reach, against lift/mem.rs's
//! rules on both engines: `stack_store`/`stack_load` (byte addresses in the thread's own
//! private segment, mask bits choosing elements while registers stay consecutive, halves and
//! words), `uniform_store` (16-bit registers to the uniform file at a half index, from the
//! lowest active thread), and `wait` and `memory_barrier`, which change nothing.

mod common;

use common::{Wave, LANES};

/// Private bytes per lane the stack tests give.
const STACK: u32 = 64;

fn run_stack(w: &Wave, text: &str) -> (Wave, Vec<u8>) {
    let p = wavejit_g13::asm::assemble(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    w.run_with_stack(&p.bytes, STACK)
        .unwrap_or_else(|e| panic!("{text}\n{e}"))
}

/// Lane `l`'s private bytes.
fn lane_bytes(private: &[u8], l: u32) -> &[u8] {
    &private[(l * STACK) as usize..((l + 1) * STACK) as usize]
}

#[test]
fn stack_stores_words_at_byte_offsets_and_loads_them_back() {
    let mut w = Wave::new();
    w.set_r_with(4, |l| 0x1000_0000 + l);
    w.set_r_with(5, |l| 0x2000_0000 + l);
    w.set_r_with(6, |l| 0x3000_0000 + l);
    // Three words from offset 8: elements x, y and w (z skipped), then read back with a
    // full mask into r8-r11.
    let (r, private) = run_stack(
        &w,
        "stack_store i32, 0, 0, xyw, 0, r4_r5_r6, 8, 0\n\
         stack_load r8_r9_r10_r11, i32, 0, 0, xyzw, 0, 8, 0\n\
         stop",
    );
    for l in 0..LANES {
        let m = lane_bytes(&private, l);
        let word = |off: usize| u32::from_le_bytes(m[off..off + 4].try_into().unwrap());
        assert_eq!(word(8), 0x1000_0000 + l, "lane {l} x");
        assert_eq!(word(12), 0x2000_0000 + l, "lane {l} y");
        assert_eq!(word(16), 0, "lane {l} z untouched");
        assert_eq!(word(20), 0x3000_0000 + l, "lane {l} w");
        assert_eq!(
            (r.r(8, l), r.r(9, l), r.r(10, l), r.r(11, l)),
            (0x1000_0000 + l, 0x2000_0000 + l, 0, 0x3000_0000 + l)
        );
    }
}

#[test]
fn stack_halves_and_bytes_zero_extend_into_their_registers() {
    let mut w = Wave::new();
    w.set_r_with(4, |l| 0xabcd_0000 | (0x8000 + l));
    w.set_r_all(7, 0xffff_ffff);
    let (r, private) = run_stack(
        &w,
        "stack_store i16, 0, 0, x, 0, r4l, 2, 0\n\
         stack_load r7, i8, 0, 0, x, 0, 2, 0\n\
         stack_load r7h, i16, 0, 0, x, 0, 2, 0\n\
         stop",
    );
    for l in 0..LANES {
        let m = lane_bytes(&private, l);
        assert_eq!(u16::from_le_bytes([m[2], m[3]]), 0x8000 + l as u16);
        // The byte load wrote all of r7 (zero-extended), the halfword load its high half.
        assert_eq!(r.r(7, l), (0x8000 + l) << 16 | (l & 0xff));
    }
}

#[test]
fn stack_accesses_only_active_lanes_and_faults_past_the_segment() {
    let mut w = Wave::new();
    w.set_exec(0x0000_ffff);
    w.set_r_all(4, 7);
    let (_, private) = run_stack(&w, "stack_store i32, 0, 0, x, 0, r4, 0, 0\nstop");
    for l in 0..LANES {
        let v = lane_bytes(&private, l)[0];
        assert_eq!(v, if l < 16 { 7 } else { 0 }, "lane {l}");
    }
    let p = wavejit_g13::asm::assemble("stack_load r4, i32, 0, 0, x, 0, 64, 0\nstop").unwrap();
    match Wave::new().run_with_stack(&p.bytes, STACK) {
        Err(e) => assert!(e.contains("Fault"), "{e}"),
        Ok(_) => panic!("a load past the segment ran"),
    }
}

#[test]
fn uniform_store_writes_halves_from_the_lowest_active_thread() {
    let mut w = Wave::new();
    w.set_exec(0xffff_fff0);
    w.set_r_with(4, |l| 0x0101_0000 * (l + 1) + l);
    w.set_u(3, 0xdead_beef);
    // r4l of lane 4 to half index 6 (u3l); then r4 (two halves) to half index 10 (u5).
    let r = w.go("uniform_store 2, i16, x, 0, r4l, 6\n\
         uniform_store 2, i16, xy, 0, r4l_r4h, 10\n\
         stop");
    let v = 0x0101_0000 * 5 + 4;
    assert_eq!(
        r.u(3),
        0xdead_0000 | (v & 0xffff),
        "u3l from lane 4, u3h kept"
    );
    assert_eq!(r.u(5), v, "u5 from lane 4's halves");
}

#[test]
fn wait_and_memory_barrier_change_nothing() {
    let mut w = Wave::new();
    w.set_r_with(4, |l| l * 3);
    let r = w.go("wait 0\nwait 1\nmemory_barrier 0, 0, 0\niadd r5, r4, 1\nstop");
    for l in 0..LANES {
        assert_eq!(r.r(5, l), l * 3 + 1);
    }
}
