//! Memory and cross-lane instructions through `effects::run_effect` (driven by the
//! interpreter on hand-built IR). Expected values come from plain host models of the
//! documented rules: a byte array with zero/dropped bytes out of range, sequential lane
//! order for atomics, `% wave_size` for read_lane.

mod common;

use common::*;
use wavejit_ir::{AtomicOp, MemSpace, MemWidth, ScalarType::*};
use wavejit_runtime::{FaultKind, GuestMemory};

const PC: u32 = 0x100;

#[test]
fn lds_out_of_range_reads_zero_and_drops_writes() {
    // Lane l stores l + 1000 at 4l, then loads 4 bytes at 4l + 2; the LDS is 64 bytes.
    let f = one_block(64, |b| {
        let st_addr = b.use_reg(v(0), I32);
        let val = b.use_reg(v(1), I32);
        b.store(MemSpace::Lds, MemWidth::B32, st_addr, val, None);
        let ld_addr = b.use_reg(v(2), I32);
        let x = b.load(MemSpace::Lds, MemWidth::B32, false, I32, ld_addr, None);
        b.def_reg(v(3), x, None);
        // A uniform load far outside, and one at the last byte.
        let far = b.i32(0xffff_fffe);
        let y = b.load(MemSpace::Lds, MemWidth::B32, false, I32, far, None);
        b.def_reg(s(0), y, None);
        let last = b.i32(63);
        let z = b.load(MemSpace::Lds, MemWidth::B8, false, I32, last, None);
        b.def_reg(s(1), z, None);
    });
    let mem = memory();
    let mut w = Wave::new(&f, 64, 0);
    w.set_v(0, |l| 4 * l);
    w.set_v(1, |l| l + 1000);
    w.set_v(2, |l| 4 * l + 2);
    w.run(&f, &mem).unwrap();
    // Host model.
    let mut lds = [0u8; 64];
    for l in 0..16usize {
        lds[4 * l..4 * l + 4].copy_from_slice(&(l as u32 + 1000).to_le_bytes());
    }
    assert_eq!(w.lds, lds);
    let byte = |i: usize| lds.get(i).copied().unwrap_or(0);
    let expect: Vec<u32> = (0..64)
        .map(|l| u32::from_le_bytes([0, 1, 2, 3].map(|k| byte(4 * l + 2 + k))))
        .collect();
    assert_eq!(w.get_v(3), expect);
    assert_eq!(
        expect[15],
        u32::from_le_bytes([lds[62], lds[63], 0, 0]),
        "straddling load keeps its in-range bytes"
    );
    assert_eq!(w.state.uniform(s(0)), 0);
    assert_eq!(w.state.uniform(s(1)), lds[63] as u32);
}

#[test]
fn lds_sign_extension_and_widths() {
    let f = one_block(4, |b| {
        let a = b.use_reg(v(0), I32);
        let x = b.load(MemSpace::Lds, MemWidth::B8, true, I32, a, None);
        b.def_reg(v(1), x, None);
        let y = b.load(MemSpace::Lds, MemWidth::B16, true, I64, a, None);
        b.def_reg(v(2), y, None);
        let z = b.load(MemSpace::Lds, MemWidth::B16, false, I32, a, None);
        b.def_reg(v(4), z, None);
    });
    let mut w = Wave::new(&f, 8, 0);
    w.lds.copy_from_slice(&[0x80, 0xff, 0x7f, 0x01, 0, 0, 0, 0]);
    w.set_v(0, |l| l);
    w.run(&f, &memory()).unwrap();
    let h = &w.lds;
    assert_eq!(
        w.get_v(1),
        (0..4).map(|l| h[l] as i8 as i32 as u32).collect::<Vec<_>>()
    );
    let half = |l: usize| i16::from_le_bytes([h[l], h[l + 1]]);
    assert_eq!(
        w.get_v(2),
        (0..4).map(|l| half(l) as i64 as u32).collect::<Vec<_>>()
    );
    assert_eq!(
        w.get_v(3),
        (0..4)
            .map(|l| ((half(l) as i64) >> 32) as u32)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        w.get_v(4),
        (0..4).map(|l| half(l) as u16 as u32).collect::<Vec<_>>()
    );
}

#[test]
fn private_memory_is_per_lane_and_faults_precisely() {
    let store = |masked: bool| {
        one_block(64, |b| {
            let a = b.use_reg(v(0), I32);
            let val = b.use_reg(v(1), I32);
            let m = masked.then(|| exec(b));
            b.store(MemSpace::Private, MemWidth::B32, a, val, m);
            let x = b.load(MemSpace::Private, MemWidth::B32, false, I32, a, m);
            b.def_reg(v(2), x, None);
        })
    };
    let mem = memory();
    // In range: lane l's value lands in its own 16-byte segment.
    let f = store(false);
    let mut w = Wave::new(&f, 0, 16);
    w.set_v(0, |_| 12);
    w.set_v(1, |l| l * 3);
    w.run(&f, &mem).unwrap();
    for l in 0..64usize {
        assert_eq!(
            w.private[16 * l + 12..16 * l + 16],
            (l as u32 * 3).to_le_bytes()
        );
    }
    assert_eq!(w.get_v(2), (0..64).map(|l| l * 3).collect::<Vec<_>>());

    // Lanes 9 and 5 reach past their segment: the fault names lane 5; nothing was stored.
    let mut w = Wave::new(&f, 0, 16);
    w.set_v(0, |l| if l == 9 || l == 5 { 14 } else { 0 });
    w.set_v(1, |l| l + 1);
    let e = w.run(&f, &mem).unwrap_err();
    assert_eq!(
        e.kind,
        FaultKind::OutOfBounds {
            space: MemSpace::Private,
            write: true
        }
    );
    assert_eq!((e.lane, e.addr, e.pc), (Some(5), Some(14), PC));
    assert!(
        w.private.iter().all(|&b| b == 0),
        "a faulting store writes no lane"
    );

    // The same lanes masked off: no fault, inactive lanes load 0.
    let f = store(true);
    let mut w = Wave::new(&f, 0, 16);
    w.set_v(0, |l| if l == 9 || l == 5 { 14 } else { 0 });
    w.set_v(1, |l| l + 1);
    w.set_v(2, |_| 0xdead);
    w.set_exec(!((1 << 9) | (1 << 5)));
    w.run(&f, &mem).unwrap();
    let expect: Vec<u32> = (0..64)
        .map(|l| if l == 9 || l == 5 { 0 } else { l + 1 })
        .collect();
    assert_eq!(w.get_v(2), expect);
}

fn global_copy() -> std::sync::Arc<wavejit_ir::Function> {
    one_block(64, |b| {
        let m = exec(b);
        let src = b.use_reg(v(0), I64);
        let x = b.load(MemSpace::Global, MemWidth::B32, false, I32, src, Some(m));
        let dst = b.use_reg(v(2), I64);
        b.store(MemSpace::Global, MemWidth::B32, dst, x, Some(m));
        b.def_reg(v(4), x, None);
    })
}

fn set_addr(w: &mut Wave, r: u32, f: impl Fn(u32) -> u64) {
    w.set_v(r, |l| f(l) as u32);
    w.set_v(r + 1, |l| (f(l) >> 32) as u32);
}

#[test]
fn global_masked_lanes_never_access_memory() {
    let f = global_copy();
    let mut mem = memory();
    let src_data: Vec<u8> = (0..256u32).map(|i| (i * 13) as u8).collect();
    let src = mem.alloc_bytes(&src_data, 4).unwrap();
    let dst = mem.alloc(256, 4).unwrap();
    let mut w = Wave::new(&f, 0, 0);
    let odd_wild = |l: u32, base: u64| {
        if l % 2 == 1 {
            8 * l as u64
        } else {
            base + 4 * l as u64
        }
    };
    set_addr(&mut w, 0, |l| odd_wild(l, src));
    set_addr(&mut w, 2, |l| odd_wild(l, dst));
    w.set_exec(0x5555_5555_5555_5555);
    w.run(&f, &mem).unwrap();
    let word = |l: usize| u32::from_le_bytes(src_data[4 * l..4 * l + 4].try_into().unwrap());
    let expect: Vec<u32> = (0..64)
        .map(|l| if l % 2 == 0 { word(l) } else { 0 })
        .collect();
    assert_eq!(w.get_v(4), expect);
    let mut out = vec![0u8; 256];
    mem.read_bytes(dst, &mut out).unwrap();
    for l in 0..64 {
        let want = if l % 2 == 0 { word(l) } else { 0 };
        assert_eq!(
            u32::from_le_bytes(out[4 * l..4 * l + 4].try_into().unwrap()),
            want
        );
    }
}

#[test]
fn global_faults_name_the_lowest_lane_and_its_address() {
    let f = global_copy();
    let mut mem = memory();
    let src = mem.alloc(256, 4).unwrap();
    let dst = mem.alloc(256, 4).unwrap();
    let mut w = Wave::new(&f, 0, 0);
    w.set_exec(u64::MAX);
    set_addr(&mut w, 0, |l| src + 4 * l as u64);
    // Lane 40 writes one byte past dst's end, lane 57 to null.
    set_addr(&mut w, 2, |l| match l {
        40 => dst + 253,
        57 => 0,
        _ => dst + 4 * l as u64,
    });
    mem.write_bytes(src, &[7u8; 256]).unwrap();
    let e = w.run(&f, &mem).unwrap_err();
    assert_eq!(
        e.kind,
        FaultKind::OutOfBounds {
            space: MemSpace::Global,
            write: true
        }
    );
    assert_eq!((e.lane, e.addr, e.pc), (Some(40), Some(dst + 253), PC));
    let mut out = vec![1u8; 256];
    mem.read_bytes(dst, &mut out).unwrap();
    assert!(
        out.iter().all(|&b| b == 0),
        "no lane stored before the fault"
    );
    // A load fault is reported the same way.
    set_addr(&mut w, 0, |l| if l >= 3 { 0x10 } else { src });
    let e = w.run(&f, &mem).unwrap_err();
    assert_eq!(
        e.kind,
        FaultKind::OutOfBounds {
            space: MemSpace::Global,
            write: false
        }
    );
    assert_eq!((e.lane, e.addr), (Some(3), Some(0x10)));
}

/// Runs one atomic over a wave with a uniform global address and per-lane data.
fn atomic_run(
    op: AtomicOp,
    width: MemWidth,
    init: u64,
    data: impl Fn(u32) -> u64,
    cmp: Option<&dyn Fn(u32) -> u64>,
    exec_bits: u64,
) -> (Vec<u64>, u64) {
    let ty = if width == MemWidth::B64 { I64 } else { I32 };
    let ty = match op {
        AtomicOp::Fadd | AtomicOp::Fmin | AtomicOp::Fmax if ty == I32 => F32,
        _ => ty,
    };
    let f = one_block(64, |b| {
        let m = exec(b);
        let addr = b.use_reg(s(0), I64);
        let d = b.use_reg(v(0), ty);
        let c = cmp.is_some().then(|| b.use_reg(v(2), ty));
        let old = b.atomic(op, MemSpace::Global, width, addr, d, c, Some(m));
        b.def_reg(v(4), old, None);
    });
    let mut mem = memory();
    let a = mem.alloc(8, 8).unwrap();
    mem.store(a, width, init).unwrap();
    let mut w = Wave::new(&f, 0, 0);
    w.state.set_uniform(s(0), a as u32);
    w.state.set_uniform(s(1), (a >> 32) as u32);
    set_addr(&mut w, 0, &data);
    if let Some(c) = cmp {
        set_addr(&mut w, 2, c);
    }
    w.set_exec(exec_bits);
    w.run(&f, &mem).unwrap();
    let olds = (0..64)
        .map(|l| {
            w.state.lane(v(4), l) as u64
                | if ty.bits() == 64 {
                    (w.state.lane(v(5), l) as u64) << 32
                } else {
                    0
                }
        })
        .collect();
    (olds, mem.load(a, width).unwrap())
}

#[test]
fn atomics_run_in_ascending_lane_order() {
    // Add: lane l sees the sum of the data of the active lanes below it.
    let exec_bits = !0u64 ^ (1 << 3) ^ (1 << 60);
    let (olds, fin) = atomic_run(
        AtomicOp::Add,
        MemWidth::B32,
        5,
        |l| l as u64 + 1,
        None,
        exec_bits,
    );
    let mut acc = 5u64;
    for (l, &old) in olds.iter().enumerate() {
        if exec_bits >> l & 1 == 1 {
            assert_eq!(old, acc, "lane {l}");
            acc += l as u64 + 1;
        } else {
            assert_eq!(old, 0, "inactive lane {l} yields 0");
        }
    }
    assert_eq!(fin, acc);

    // CmpXchg chain: lane l expects l and writes l + 1; lane 3 inactive breaks the chain.
    let (olds, fin) = atomic_run(
        AtomicOp::CmpXchg,
        MemWidth::B32,
        0,
        |l| l as u64 + 1,
        Some(&|l| l as u64),
        !(1u64 << 3),
    );
    assert_eq!(&olds[..6], &[0, 1, 2, 0, 3, 3]);
    assert_eq!(fin, 3);

    // Inc wraps at the data value: 0, 1, 2, 3, 0, ...
    let (olds, fin) = atomic_run(AtomicOp::Inc, MemWidth::B32, 0, |_| 3, None, u64::MAX);
    assert_eq!(olds, (0..64).map(|l| l % 4).collect::<Vec<_>>());
    assert_eq!(fin, 0);

    // Dec: 2, 1, 0, then wraps to the data value 5: 5, 4, 3, 2, 1, 0, 5, ...
    let (olds, _) = atomic_run(AtomicOp::Dec, MemWidth::B32, 2, |_| 5, None, u64::MAX);
    assert_eq!(&olds[..10], &[2, 1, 0, 5, 4, 3, 2, 1, 0, 5]);

    // 64-bit Sub across the 32-bit boundary.
    let (olds, fin) = atomic_run(AtomicOp::Sub, MemWidth::B64, 1 << 32, |_| 1, None, 0b11);
    assert_eq!(&olds[..3], &[1 << 32, (1 << 32) - 1, 0]);
    assert_eq!(fin, (1 << 32) - 2);

    // Smax on i32: -1 (0xffffffff) loses to 1.
    let (_, fin) = atomic_run(
        AtomicOp::Smax,
        MemWidth::B32,
        0xffff_ffff,
        |l| if l == 0 { 1 } else { 0xffff_fff0 },
        None,
        u64::MAX,
    );
    assert_eq!(fin, 1);
}

#[test]
fn float_atomics() {
    // Fadd of 0.5 per lane: every partial sum is exact in f32.
    let (olds, fin) = atomic_run(
        AtomicOp::Fadd,
        MemWidth::B32,
        1.0f32.to_bits() as u64,
        |_| 0.5f32.to_bits() as u64,
        None,
        u64::MAX,
    );
    for (l, o) in olds.iter().enumerate() {
        assert_eq!(f32::from_bits(*o as u32), 1.0 + 0.5 * l as f32);
    }
    assert_eq!(f32::from_bits(fin as u32), 33.0);
    // Fmin ignores a quiet NaN operand (IEEE minNum).
    let data = |l: u32| {
        if l == 7 {
            f32::NAN.to_bits() as u64
        } else {
            (100.0 - l as f32).to_bits() as u64
        }
    };
    let (_, fin) = atomic_run(
        AtomicOp::Fmin,
        MemWidth::B32,
        1000f32.to_bits() as u64,
        data,
        None,
        u64::MAX,
    );
    assert_eq!(f32::from_bits(fin as u32), 37.0);
}

#[test]
fn lds_and_private_atomics() {
    let f = one_block(4, |b| {
        let a = b.use_reg(v(0), I32);
        let d = b.use_reg(v(1), I32);
        let x = b.atomic(
            AtomicOp::Add,
            MemSpace::Lds,
            MemWidth::B32,
            a,
            d,
            None,
            None,
        );
        b.def_reg(v(2), x, None);
        let p = b.use_reg(v(3), I32);
        let y = b.atomic(
            AtomicOp::Xchg,
            MemSpace::Private,
            MemWidth::B32,
            p,
            d,
            None,
            None,
        );
        b.def_reg(v(4), y, None);
    });
    let mut w = Wave::new(&f, 16, 8);
    // Lanes 0-2 hit LDS word 4; lane 3 is out of range (returns 0, writes nothing).
    w.set_v(0, |l| if l < 3 { 4 } else { 14 });
    w.set_v(1, |l| 10 + l);
    w.set_v(3, |_| 4);
    w.private[4..8].copy_from_slice(&99u32.to_le_bytes());
    w.run(&f, &memory()).unwrap();
    assert_eq!(w.get_v(2), vec![0, 10, 21, 0]);
    assert_eq!(w.lds[4..8], 33u32.to_le_bytes());
    assert_eq!(w.lds[14..16], [0, 0]);
    assert_eq!(w.get_v(4), vec![99, 0, 0, 0]);
    for l in 0..4usize {
        assert_eq!(
            w.private[8 * l + 4..8 * l + 8],
            (10 + l as u32).to_le_bytes()
        );
    }
}

#[test]
fn misaligned_global_atomic_faults() {
    let f = one_block(4, |b| {
        let a = b.use_reg(v(0), I64);
        let d = b.use_reg(v(2), I32);
        let x = b.atomic(
            AtomicOp::Add,
            MemSpace::Global,
            MemWidth::B32,
            a,
            d,
            None,
            None,
        );
        b.def_reg(v(3), x, None);
    });
    let mut mem = memory();
    let buf = mem.alloc(64, 8).unwrap();
    let mut w = Wave::new(&f, 0, 0);
    set_addr(&mut w, 0, |l| buf + if l == 2 { 6 } else { 0 });
    let e = w.run(&f, &mem).unwrap_err();
    assert_eq!(
        e.kind,
        FaultKind::Misaligned {
            space: MemSpace::Global
        }
    );
    assert_eq!((e.lane, e.addr), (Some(2), Some(buf + 6)));
    assert_eq!(
        mem.load(buf, MemWidth::B32),
        Ok(0),
        "checked before any lane acted"
    );
}

#[test]
fn ballot_read_lane_shuffle() {
    for ws in [64u32, 32] {
        let f = one_block(ws, |b| {
            let x = b.use_reg(v(0), I32);
            let m = b.op(wavejit_ir::Op::Trunc, I1, &[x]);
            let bits = b.ballot(m);
            b.def_reg(s(0), bits, None);
            let which = b.use_reg(s(4), I32);
            let r = b.read_lane(x, which);
            b.def_reg(s(2), r, None);
            let src = b.use_reg(v(1), I32);
            let sh = b.shuffle(x, src);
            b.def_reg(v(2), sh, None);
        });
        let vals: Vec<u32> = (0..ws)
            .map(|l| l.wrapping_mul(0x9e37_79b9) ^ 0x55)
            .collect();
        for which in [0u32, 6, 70, 0xffff_ffff] {
            let mut w = Wave::new(&f, 0, 0);
            w.set_v(0, |l| vals[l as usize]);
            w.set_v(1, |l| (l * 5 + 3) % 80);
            w.state.set_uniform(s(4), which);
            w.run(&f, &mem_once()).unwrap();
            let ballot = (0..ws)
                .filter(|&l| vals[l as usize] & 1 == 1)
                .fold(0u64, |b, l| b | 1 << l);
            let got = w.state.uniform(s(0)) as u64 | (w.state.uniform(s(1)) as u64) << 32;
            assert_eq!(got, ballot);
            assert_eq!(
                w.state.uniform(s(2)),
                vals[(which % ws) as usize],
                "read_lane {which} wave{ws}"
            );
            let expect: Vec<u32> = (0..ws)
                .map(|l| {
                    let from = (l * 5 + 3) % 80;
                    if from < ws {
                        vals[from as usize]
                    } else {
                        0
                    }
                })
                .collect();
            assert_eq!(w.get_v(2), expect);
        }
    }
}

fn mem_once() -> GuestMemory {
    GuestMemory::with_reserve(1 << 20).unwrap()
}

#[test]
fn indexed_registers() {
    let f = one_block(8, |b| {
        let idx = b.use_reg(v(0), I32);
        let x = b.read_reg_indexed(V, 2, idx, I32);
        b.def_reg(v(1), x, None);
        let uidx = b.use_reg(s(0), I32);
        let y = b.read_reg_indexed(S, 10, uidx, I64);
        b.def_reg(s(2), y, None);
        let val = b.use_reg(v(15), I32);
        let m = exec(b);
        b.write_reg_indexed(V, 8, idx, val, Some(m));
    });
    let mut w = Wave::new(&f, 0, 0);
    for r in 2..16 {
        w.set_v(r, |l| r * 100 + l);
    }
    w.set_v(0, |l| l % 5);
    w.set_v(15, |l| 7000 + l);
    w.state.set_uniform(s(0), 3);
    w.state.set_uniform(s(13), 0x1111);
    w.state.set_uniform(s(14), 0x2222);
    w.set_exec(0b1011_0111);
    w.run(&f, &memory()).unwrap();
    assert_eq!(
        w.get_v(1),
        (0..8).map(|l| (2 + l % 5) * 100 + l).collect::<Vec<_>>()
    );
    assert_eq!(
        (w.state.uniform(s(2)), w.state.uniform(s(3))),
        (0x1111, 0x2222)
    );
    for r in 8..13 {
        let expect: Vec<u32> = (0..8)
            .map(|l| {
                if 0b1011_0111 >> l & 1 == 1 && 8 + l % 5 == r {
                    7000 + l
                } else {
                    r * 100 + l
                }
            })
            .collect();
        assert_eq!(w.get_v(r), expect, "v{r}");
    }

    // Out of the file: lane 4 asks for v[2 + 14] = v16 (16 cells); a negative index too.
    let mut w = Wave::new(&f, 0, 0);
    w.set_v(0, |l| match l {
        4 => 14,
        6 => 0xffff_ffff,
        _ => 0,
    });
    let e = w.run(&f, &memory()).unwrap_err();
    assert_eq!(e.kind, FaultKind::RegisterIndex);
    assert_eq!((e.lane, e.addr), (Some(4), Some(16)));
    // A 64-bit read needs both cells inside: s[10 + 21] = s31 is the last cell.
    let mut w = Wave::new(&f, 0, 0);
    w.state.set_uniform(s(0), 21);
    let e = w.run(&f, &memory()).unwrap_err();
    assert_eq!(
        (e.kind, e.lane, e.addr),
        (FaultKind::RegisterIndex, None, Some(31))
    );
}
