//! Dispatch: barriers (in loops, with finished waves), fuel, wall clock, fault reports,
//! thread-count independence, workgroup geometry.

mod common;

use common::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wavejit_ir::{
    Block, Function, FunctionBuilder, IntCC, MemSpace, MemWidth, Op, ScalarType::*, Terminator,
};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::*;

const LOCAL: u32 = 256;
const ROUNDS: u32 = 5;

/// Each round: lane i stores x at LDS[4i]; barrier; x = LDS[4((i+1) % 256)] + 1; barrier.
/// After the rounds, x goes to out[global id]. Lane 63 of each wave reads a value another
/// wave wrote, so this is only right if barriers really order the waves.
fn rotate_kernel() -> Arc<Function> {
    let mut b = FunctionBuilder::new("rotate", layout(64));
    let [entry, store, load, latch, exit, early] = [0; 6].map(|_| b.create_block());
    b.switch_to(entry);
    b.begin_guest_inst(0x0);
    // Waves whose s6 is non-zero return at once (they must not block the barrier).
    let quit = b.use_reg(s(6), I32);
    let zero = b.i32(0);
    let quit = b.op(Op::Icmp(IntCC::Ne), I1, &[quit, zero]);
    b.terminate(Terminator::Branch {
        cond: quit,
        then_to: early,
        else_to: store,
    });

    b.switch_to(store);
    b.begin_guest_inst(0x4);
    let lid = b.use_reg(v(0), I32);
    let two = b.i32(2);
    let addr = b.op(Op::Shl, I32, &[lid, two]);
    let x = b.use_reg(v(1), I32);
    let m = exec(&mut b);
    b.store(MemSpace::Lds, MemWidth::B32, addr, x, Some(m));
    b.terminate(Terminator::Barrier(load));

    b.switch_to(load);
    b.begin_guest_inst(0x8);
    let lid = b.use_reg(v(0), I32);
    let one = b.i32(1);
    let n = b.op(Op::Iadd, I32, &[lid, one]);
    let wrap = b.i32(LOCAL - 1);
    let n = b.op(Op::And, I32, &[n, wrap]);
    let two = b.i32(2);
    let addr = b.op(Op::Shl, I32, &[n, two]);
    let m = exec(&mut b);
    let y = b.load(MemSpace::Lds, MemWidth::B32, false, I32, addr, Some(m));
    let y = b.op(Op::Iadd, I32, &[y, one]);
    b.def_reg(v(1), y, Some(m));
    b.terminate(Terminator::Barrier(latch));

    b.switch_to(latch);
    b.begin_guest_inst(0xc);
    let c = b.use_reg(s(5), I32);
    let one = b.i32(1);
    let c = b.op(Op::Isub, I32, &[c, one]);
    b.def_reg(s(5), c, None);
    let zero = b.i32(0);
    let more = b.op(Op::Icmp(IntCC::Ne), I1, &[c, zero]);
    b.terminate(Terminator::Branch {
        cond: more,
        then_to: store,
        else_to: exit,
    });

    b.switch_to(exit);
    b.begin_guest_inst(0x10);
    let gid = b.use_reg(v(2), I32);
    let gid = b.op(Op::Zext, I64, &[gid]);
    let two = b.i64(2);
    let off = b.op(Op::Shl, I64, &[gid, two]);
    let base = b.use_reg(s(2), I64);
    let addr = b.op(Op::Iadd, I64, &[base, off]);
    let x = b.use_reg(v(1), I32);
    let m = exec(&mut b);
    b.store(MemSpace::Global, MemWidth::B32, addr, x, Some(m));
    b.terminate(Terminator::Return);

    b.switch_to(early);
    b.begin_guest_inst(0x14);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

/// Sets v0 = local id, v1 = 3 * local id, v2 = global id, s[2..4] = out, s5 = rounds,
/// s6 = quit flag, exec.
fn rotate_init(
    out: u64,
    quit: impl Fn(&WaveCoord) -> bool + Sync,
) -> impl Fn(&WaveCoord, &mut dyn RegSink) -> Result<(), String> + Sync {
    move |info, st| {
        for l in 0..info.lanes {
            let [x, _, _] = info.local_id(l).unwrap();
            st.set_lane(v(0), l, x);
            st.set_lane(v(1), l, 3 * x);
            st.set_lane(v(2), l, info.global_id(l).unwrap()[0]);
        }
        st.set_uniform(s(2), out as u32);
        st.set_uniform(s(3), (out >> 32) as u32);
        st.set_uniform(s(5), ROUNDS);
        st.set_uniform(s(6), quit(info) as u32);
        st.set_uniform(s(30), info.exec_mask() as u32);
        st.set_uniform(s(31), (info.exec_mask() >> 32) as u32);
        Ok(())
    }
}

fn launch<'a>(
    func: &Arc<Function>,
    grid: u32,
    threads: usize,
    init: &'a dyn WaveInit,
) -> Launch<'a> {
    Launch {
        kernel: func.name.clone(),
        func: func.clone(),
        program: Interpreter.prepare(func.clone()).unwrap(),
        grid: Grid {
            global: [grid, 1, 1],
            local: [LOCAL, 1, 1],
            wave_size: func.layout.wave_size,
            dims: 1,
        },
        lds_bytes: LOCAL * 4,
        private_lane_bytes: 0,
        threads,
        fuel: 1 << 20,
        time_limit: Duration::from_secs(60),
        init,
    }
}

fn run_rotate(groups: u32, threads: usize) -> (Vec<u8>, DispatchStats) {
    let f = rotate_kernel();
    let mut mem = memory();
    let out = mem.alloc(4 * (groups * LOCAL) as u64, 4).unwrap();
    let init = rotate_init(out, |_| false);
    let stats = dispatch(&launch(&f, groups * LOCAL, threads, &init), &mem).unwrap();
    let mut bytes = vec![0u8; 4 * (groups * LOCAL) as usize];
    mem.read_bytes(out, &mut bytes).unwrap();
    (bytes, stats)
}

/// out[g] = 3 * ((i + ROUNDS) % 256) + ROUNDS with i the local id: the rotation done on the host.
fn rotate_expected(groups: u32) -> Vec<u8> {
    (0..groups * LOCAL)
        .flat_map(|g| (3 * ((g % LOCAL + ROUNDS) % LOCAL) + ROUNDS).to_le_bytes())
        .collect()
}

#[test]
fn barrier_in_a_loop_orders_the_waves() {
    let (bytes, stats) = run_rotate(1, 1);
    assert_eq!(bytes, rotate_expected(1));
    assert_eq!(stats.waves, 4);
    assert_eq!(stats.workgroups, 1);
    // Per wave: entry, ROUNDS x (store, load, latch), exit: 1 guest instruction each.
    assert_eq!(stats.blocks, 4 * (2 + 3 * ROUNDS as u64));
    assert_eq!(stats.guest_insts, stats.blocks);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let (one, _) = run_rotate(6, 1);
    let (two, _) = run_rotate(6, 2);
    let (three, _) = run_rotate(6, 3);
    assert_eq!(one, rotate_expected(6));
    assert_eq!(one, two);
    assert_eq!(one, three);
}

#[test]
fn finished_waves_do_not_block_a_barrier() {
    // Wave 1 returns at once; waves 0, 2, 3 loop over barriers. Lanes 0..63 of wave 0 then
    // read what wave 1 never wrote for lane 63 (LDS zero) - the expected values below model
    // exactly that on the host.
    let f = rotate_kernel();
    let mut mem = memory();
    let out = mem.alloc(4 * LOCAL as u64, 4).unwrap();
    let init = rotate_init(out, |i| i.wave == 1);
    let stats = dispatch(&launch(&f, LOCAL, 1, &init), &mem).unwrap();
    assert_eq!(stats.waves, 4);
    let mut lds = [0u32; 256];
    let mut x: Vec<u32> = (0..256).map(|i| 3 * i).collect();
    let alive = |i: usize| !(64..128).contains(&i);
    for _ in 0..ROUNDS {
        for i in (0..256).filter(|&i| alive(i)) {
            lds[i] = x[i];
        }
        for i in (0..256).filter(|&i| alive(i)) {
            x[i] = lds[(i + 1) % 256] + 1;
        }
    }
    let mut bytes = vec![0u8; 4 * 256];
    mem.read_bytes(out, &mut bytes).unwrap();
    for i in 0..256 {
        let want = if alive(i) { x[i] } else { 0 };
        assert_eq!(
            u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()),
            want,
            "item {i}"
        );
    }
}

fn endless() -> Arc<Function> {
    let mut b = FunctionBuilder::new("spin", layout(64));
    let b0 = b.create_block();
    let b1 = b.create_block();
    b.switch_to(b0);
    b.begin_guest_inst(0x40);
    b.begin_guest_inst(0x44);
    b.terminate(Terminator::Jump(b1));
    b.set_guest_pc(b1, 0x48);
    b.switch_to(b1);
    b.begin_guest_inst(0x48);
    b.terminate(Terminator::Jump(b1));
    Arc::new(b.finish())
}

fn no_init(_: &WaveCoord, _: &mut dyn RegSink) -> Result<(), String> {
    Ok(())
}

#[test]
fn endless_loop_runs_out_of_fuel() {
    let f = endless();
    let mem = memory();
    let mut l = launch(&f, 64, 1, &no_init);
    l.grid.local = [64, 1, 1];
    l.fuel = 10_000;
    match dispatch(&l, &mem) {
        Err(ExecError::FuelExhausted {
            kernel,
            wave,
            pc,
            executed,
        }) => {
            assert_eq!(kernel, "spin");
            assert_eq!(
                wave,
                WaveId {
                    group: [0, 0, 0],
                    wave: 0
                }
            );
            assert_eq!(pc, 0x48);
            assert_eq!(executed, 10_000);
        }
        other => panic!("expected FuelExhausted, got {other:?}"),
    }
}

#[test]
fn endless_loop_hits_the_wall_clock_limit() {
    let f = endless();
    let mem = memory();
    let mut l = launch(&f, 128, 2, &no_init);
    l.grid.local = [64, 1, 1];
    l.fuel = u64::MAX;
    l.time_limit = Duration::from_millis(50);
    let t = std::time::Instant::now();
    let e = dispatch(&l, &mem).unwrap_err();
    assert!(matches!(e, ExecError::Timeout { pc: 0x48, .. }), "{e}");
    assert!(t.elapsed() < Duration::from_secs(10));
    assert!(e.to_string().contains("wall-clock limit"), "{e}");
}

/// Lane l loads from s[2..4] + 4 (l + 1): a valid buffer, except in wave 1 of groups 3 and 6,
/// whose base is 0x40 (lane 0 faults at 0x44).
fn faulting_groups(threads: usize) -> ExecError {
    let f = one_block(64, |b| {
        let base = b.use_reg(s(2), I64);
        let id = b.use_reg(v(0), I32);
        let id = b.op(Op::Zext, I64, &[id]);
        let two = b.i64(2);
        let off = b.op(Op::Shl, I64, &[id, two]);
        let a = b.op(Op::Iadd, I64, &[base, off]);
        let x = b.load(MemSpace::Global, MemWidth::B32, false, I32, a, None);
        b.def_reg(v(1), x, None);
    });
    let mut mem = memory();
    let buf = mem.alloc(4 * 65, 4).unwrap();
    let init = move |info: &WaveCoord, st: &mut dyn RegSink| {
        let bad = info.wave == 1 && (info.group[0] == 3 || info.group[0] == 6);
        let base = if bad { 0x40 } else { buf };
        st.set_uniform(s(2), base as u32);
        st.set_uniform(s(3), (base >> 32) as u32);
        for l in 0..64 {
            st.set_lane(v(0), l, l + 1);
        }
        Ok(())
    };
    let mut l = launch(&f, 8 * 128, threads, &init);
    l.grid.local = [128, 1, 1];
    dispatch(&l, &mem).unwrap_err()
}

#[test]
fn faults_name_kernel_pc_wave_lane_and_address_deterministically() {
    for threads in [1, 2, 2, 3] {
        match faulting_groups(threads) {
            ExecError::GuestFault {
                kernel,
                pc,
                wave,
                lane,
                addr,
                kind,
            } => {
                assert_eq!(kernel, "test");
                assert_eq!(pc, 0x100);
                assert_eq!(
                    wave,
                    WaveId {
                        group: [3, 0, 0],
                        wave: 1
                    },
                    "threads {threads}"
                );
                assert_eq!(lane, Some(0));
                assert_eq!(addr, Some(0x44));
                assert_eq!(
                    kind,
                    FaultKind::OutOfBounds {
                        space: MemSpace::Global,
                        write: false
                    }
                );
            }
            other => panic!("expected a guest fault, got {other}"),
        }
    }
}

#[test]
fn wave_info_geometry_with_partial_workgroups() {
    let f = one_block(64, |_| {});
    let infos = Mutex::new(Vec::new());
    let init = |i: &WaveCoord, _: &mut dyn RegSink| {
        infos.lock().unwrap().push(*i);
        Ok(())
    };
    let mem = memory();
    let mut l = launch(&f, 0, 1, &init);
    l.grid.global = [10, 3, 1];
    l.grid.local = [8, 2, 1];
    let stats = dispatch(&l, &mem).unwrap();
    let infos = infos.into_inner().unwrap();
    // Groups: x in {0, 1} (sizes 8, 2), y in {0, 1} (sizes 2, 1): 4 groups of one wave each.
    assert_eq!((stats.workgroups, stats.waves), (4, 4));
    let sizes: Vec<([u32; 3], [u32; 3], u32)> =
        infos.iter().map(|i| (i.group, i.extent, i.lanes)).collect();
    assert_eq!(
        sizes,
        vec![
            ([0, 0, 0], [8, 2, 1], 16),
            ([1, 0, 0], [2, 2, 1], 4),
            ([0, 1, 0], [8, 1, 1], 8),
            ([1, 1, 0], [2, 1, 1], 2)
        ]
    );
    let g = infos[1];
    assert_eq!(g.groups, [2, 2, 1]);
    assert_eq!(g.local_id(3), Some([1, 1, 0]));
    assert_eq!(g.global_id(3), Some([9, 1, 0]));
    assert_eq!(g.local_id(4), None);
    assert_eq!(g.exec_mask(), 0b1111);
    // Every work-item of the grid appears exactly once.
    let mut seen: Vec<[u32; 3]> = infos
        .iter()
        .flat_map(|i| (0..i.lanes).map(|l| i.global_id(l).unwrap()))
        .collect();
    seen.sort();
    let mut all: Vec<[u32; 3]> = (0..3)
        .flat_map(|y| (0..10).map(move |x| [x, y, 0]))
        .collect();
    all.sort();
    assert_eq!(seen, all);
}

#[test]
fn several_waves_per_group_cover_the_local_ids() {
    let f = one_block(64, |_| {});
    let infos = Mutex::new(Vec::new());
    let init = |i: &WaveCoord, _: &mut dyn RegSink| {
        infos.lock().unwrap().push(*i);
        Ok(())
    };
    let mut l = launch(&f, 150, 1, &init);
    l.grid.local = [150, 1, 1];
    dispatch(&l, &memory()).unwrap();
    let infos = infos.into_inner().unwrap();
    let w: Vec<(u32, u32, u32, u32)> = infos
        .iter()
        .map(|i| (i.wave, i.waves_in_group, i.first_item, i.lanes))
        .collect();
    assert_eq!(w, vec![(0, 3, 0, 64), (1, 3, 64, 64), (2, 3, 128, 22)]);
    assert_eq!(infos[2].exec_mask(), (1 << 22) - 1);
    assert_eq!(infos[0].exec_mask(), u64::MAX);
}

#[test]
fn setup_errors_are_reported() {
    let f = one_block(64, |_| {});
    let mem = memory();
    let mut l = launch(&f, 64, 1, &no_init);
    l.grid.global = [0, 1, 1];
    assert!(matches!(dispatch(&l, &mem), Err(ExecError::Setup(_))));
    l.grid.global = [64, 1, 1];
    l.threads = 0;
    assert!(matches!(dispatch(&l, &mem), Err(ExecError::Setup(_))));
    l.threads = 1;
    l.grid.local = [1024, 1024, 1];
    assert!(matches!(dispatch(&l, &mem), Err(ExecError::Setup(_))));
    // An init error stops the dispatch and is returned as is.
    let failing = |_: &WaveCoord, _: &mut dyn RegSink| Err("no such argument".to_string());
    let mut l = launch(&f, 64, 1, &failing);
    l.grid.local = [64, 1, 1];
    assert!(
        matches!(dispatch(&l, &mem), Err(ExecError::Setup(m)) if m.ends_with(": no such argument"))
    );
}

struct Panicky;
impl Program for Panicky {
    fn run_block(&self, _: Block, _: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        panic!("engine bug")
    }
}

#[test]
fn an_engine_panic_becomes_an_emulator_error() {
    let f = one_block(64, |_| {});
    let mut l = launch(&f, 64, 2, &no_init);
    l.grid.local = [64, 1, 1];
    l.program = Arc::new(Panicky);
    match dispatch(&l, &memory()) {
        Err(ExecError::Emulator(m)) => assert!(m.contains("engine bug"), "{m}"),
        other => panic!("expected an emulator error, got {other:?}"),
    }
}
