//! The r0l execution-mask stack and control flow (lift/exec.rs): `if`, `else`, `while` with
//! integer and float compares and `pop_exec`, with n = 0..3, nested, against a model of the
//! documented per-thread rules (every thread's counter updated, exec = (r0l == 0) within the
//! live lanes, a direct write of r0l taking effect at the next exec-stack instruction);
//! `jmp_exec_any`/`jmp_exec_none` forward and backward; `call` and `ret`.

use super::common::{Wave, LANES};
use super::num::f;

/// One step of an exec-stack program: its text and its effect on the model.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// `if_icmp r0l, ult, r1, r2, n` (`fcmp`: `if_fcmp r0l, lt, r3, r4, n`).
    If {
        float: bool,
        n: u16,
    },
    Else {
        float: bool,
        n: u16,
    },
    While {
        float: bool,
        n: u16,
    },
    Pop(u16),
    /// `mov_imm rN, k`: marks the active lanes.
    Mark(u32, u32),
    /// `mov_imm r0l, k` in the active lanes (how Mesa emits break).
    SetR0l(u16),
}

impl Step {
    fn text(self) -> String {
        let cmp = |float| {
            if float {
                "fcmp r0l, lt, r3, r4"
            } else {
                "icmp r0l, ult, r1, r2"
            }
        };
        match self {
            Step::If { float, n } => format!("if_{}, {n}", cmp(float)),
            Step::Else { float, n } => format!("else_{}, {n}", cmp(float)),
            Step::While { float, n } => format!("while_{}, {n}", cmp(float)),
            Step::Pop(n) => format!("pop_exec r0l, {n}"),
            Step::Mark(r, k) => format!("mov_imm r{r}, {k}, 0b0"),
            Step::SetR0l(k) => format!("mov_imm r0l, {k}"),
        }
    }
}

/// The documented rules on the wave's start.
struct Model {
    r0l: Vec<u16>,
    exec: u32,
    live: u32,
    marks: Vec<Vec<u32>>,
    cmp_int: Vec<bool>,
    cmp_float: Vec<bool>,
}

impl Model {
    fn step(&mut self, s: Step) {
        let recompute = |m: &mut Model| {
            m.exec = (0..LANES)
                .filter(|&l| m.r0l[l as usize] == 0)
                .fold(0, |e, l| e | 1 << l)
                & m.live;
        };
        for l in 0..LANES as usize {
            let v = self.r0l[l];
            let cmp = |float: bool| {
                if float {
                    self.cmp_float[l]
                } else {
                    self.cmp_int[l]
                }
            };
            self.r0l[l] = match s {
                Step::If { n, .. } if v != 0 => v.wrapping_add(n),
                Step::If { float, .. } => u16::from(!cmp(float)),
                Step::Else { n, .. } if v == 0 => n,
                Step::Else { float, .. } if v == 1 => u16::from(!cmp(float)),
                Step::Else { .. } => v,
                Step::While { float, n } if v < n => {
                    if cmp(float) {
                        0
                    } else {
                        n
                    }
                }
                Step::While { .. } => v,
                Step::Pop(n) => v.saturating_sub(n),
                Step::SetR0l(k) if self.exec >> l & 1 == 1 => k,
                _ => v,
            };
            if let Step::Mark(r, k) = s {
                if self.exec >> l & 1 == 1 {
                    self.marks[r as usize - 20][l] = k;
                }
            }
        }
        if !matches!(s, Step::Mark(..) | Step::SetR0l(_)) {
            recompute(self);
        }
    }
}

/// Runs `steps` from counters `r0l` (exec = `exec`, live = `live`) and checks r0, the marks
/// (r20..) and the exec mask against the model.
fn check(steps: &[Step], r0l: &[u16], exec: u32, live: u32) {
    let marks = steps
        .iter()
        .filter_map(|s| match s {
            Step::Mark(r, _) => Some(*r),
            _ => None,
        })
        .max()
        .map_or(0, |r| r - 19);
    let mut w = Wave::new();
    w.set_live(live);
    w.set_exec(exec);
    let floats = [f(1.0), f(2.0), 0x7fc0_0000, f(-0.0), 0, f(3.0)];
    for l in 0..LANES {
        w.set_r(0, l, 0xabcd_0000 | u32::from(r0l[l as usize]));
        w.set_r(1, l, (l * 7) % 5);
        w.set_r(2, l, (l * 3) % 4);
        w.set_r(3, l, floats[(l % 6) as usize]);
        w.set_r(4, l, floats[(l * 5 % 6) as usize]);
    }
    let mut m = Model {
        r0l: r0l.to_vec(),
        exec,
        live,
        marks: vec![vec![0; LANES as usize]; marks as usize],
        cmp_int: (0..LANES).map(|l| w.r(1, l) < w.r(2, l)).collect(),
        cmp_float: (0..LANES)
            .map(|l| f32::from_bits(w.r(3, l)) < f32::from_bits(w.r(4, l)))
            .collect(),
    };
    let mut text = String::new();
    for &s in steps {
        text += &s.text();
        text.push('\n');
        m.step(s);
    }
    text += "stop";
    let out = w.go(&text);
    for l in 0..LANES {
        assert_eq!(
            out.r(0, l),
            0xabcd_0000 | u32::from(m.r0l[l as usize]),
            "r0 lane {l}\n{text}"
        );
        for (k, mark) in m.marks.iter().enumerate() {
            let r = 20 + k as u32;
            assert_eq!(out.r(r, l), mark[l as usize], "r{r} lane {l}\n{text}");
        }
    }
    assert_eq!(out.exec(), m.exec, "exec\n{text}");
}

#[test]
fn each_exec_stack_instruction_with_n_0_to_3() {
    let counters: Vec<u16> = (0..LANES as u16)
        .map(|l| [0, 0, 1, 2, 3, 4, 5, 0xffff, 0xfffe][usize::from(l % 9)])
        .collect();
    for n in 0..4 {
        for float in [false, true] {
            for s in [
                Step::If { float, n },
                Step::Else { float, n },
                Step::While { float, n },
                Step::Pop(n),
            ] {
                check(&[s, Step::Mark(20, 1)], &counters, 0x0f0f_f00f, 0xffff_fff7);
            }
        }
    }
}

#[test]
fn nested_regions_and_a_break_through_r0l() {
    use Step::*;
    let start = vec![0u16; LANES as usize];
    for n in 1..4 {
        let steps = [
            If { float: false, n: 1 },
            Mark(20, 1),
            If { float: true, n },
            Mark(21, 2),
            Else { float: false, n },
            Mark(22, 3),
            Pop(n),
            Mark(23, 4),
            While { float: true, n },
            Mark(24, 5),
            SetR0l(2),
            Mark(25, 6),
            Pop(0),
            Mark(26, 7),
            Else { float: true, n: 1 },
            Mark(27, 8),
            Pop(1),
            Mark(28, 9),
            Pop(3),
            Mark(29, 10),
        ];
        check(&steps, &start, u32::MAX, 0xefff_ffff);
    }
}

#[test]
fn jumps_on_the_exec_mask_forward_and_backward() {
    let mut w = Wave::new();
    w.set_r_with(2, |l| l % 9);
    let out = w.go("    if_icmp r0l, ult, r2, 0, 1
             jmp_exec_none pc+l1
             pop_exec r0l, 1
             mov_imm r20, 1, 0b0
         l1: pop_exec r0l, 1
             mov_imm r21, 2, 0b0
             if_icmp r0l, ult, r2, 5, 1
             jmp_exec_none pc+l2
             mov_imm r22, 3, 0b0
         l2: jmp_exec_any pc+l3
             pop_exec r0l, 1
             mov_imm r23, 4, 0b0
         l3: pop_exec r0l, 1
             mov_imm r24, 5, 0b0
         loop:
             iadd r5, r5, 1
             while_icmp r0l, ult, r5, r2, 1
             jmp_exec_any pc+loop
             pop_exec r0l, 1
             stop");
    for l in 0..LANES {
        let b = l % 9;
        assert_eq!(out.r(20, l), 0, "jmp_exec_none taken: lane {l}");
        assert_eq!(out.r(21, l), 2, "lane {l}");
        assert_eq!(
            out.r(22, l),
            if b < 5 { 3 } else { 0 },
            "not taken: lane {l}"
        );
        assert_eq!(out.r(23, l), 0, "jmp_exec_any taken: lane {l}");
        assert_eq!(out.r(24, l), 5, "lane {l}");
        assert_eq!(out.r(5, l), b.max(1), "loop count: lane {l}");
        assert_eq!(out.r(0, l) & 0xffff, 0, "r0l: lane {l}");
    }
    assert_eq!(out.exec(), u32::MAX);
}

#[test]
fn call_writes_the_return_address_and_ret_follows_the_lowest_active_lane() {
    let mut w = Wave::new();
    w.set_exec(0xffff_fff0);
    // Only lane 4, the lowest active one, holds a return address in r7 and the subroutine's
    // address in r8: the others would jump outside the code.
    w.set_r_with(7, |l| if l == 4 { 6 } else { 0x40 });
    w.set_r_with(8, |l| if l == 4 { 16 } else { 0x41 });
    let direct = w.go("    call pc+sub
             mov_imm r20, 1, 0b0
             stop
         sub:
             mov_imm r21, 2, 0b0
             ret r1");
    let by_r7 = w.go("    call pc+sub
             mov_imm r22, 3, 0b0
             stop
         sub:
             ret r7");
    // jmp_exec_none is never taken here; it makes `sub` (at 16) code that `call r8` reaches.
    let by_r8 = w.go("    jmp_exec_none pc+sub
             call r8
             mov_imm r23, 4, 0b0
             stop
         sub:
             mov_imm r24, 5, 0b0
             ret r1");
    for l in 0..LANES {
        let on = |v: u32| if l >= 4 { v } else { 0 };
        assert_eq!(direct.r(1, l), on(6), "call: r1 in lane {l}");
        assert_eq!(direct.r(20, l), on(1), "lane {l}");
        assert_eq!(direct.r(21, l), on(2), "lane {l}");
        assert_eq!(by_r7.r(22, l), on(3), "ret r7: lane {l}");
        assert_eq!(by_r8.r(1, l), on(8), "call r8: r1 in lane {l}");
        assert_eq!(by_r8.r(23, l), on(4), "lane {l}");
        assert_eq!(by_r8.r(24, l), on(5), "lane {l}");
    }
}
