//! GDS through the facade: a `.s` kernel whose work-groups each use their own M0 window of the
//! dispatch's GDS, run by the interpreter and the JIT on 1 and 3 threads with three work-groups
//! (the last one partial). Expected values are computed here from the program's comments and
//! the GDS window rule (`frontend/gcn/src/lift/ds_gds.rs`); every run must equal them bit for
//! bit, and so must a second dispatch of the same launcher (GDS is zeroed before each one).
use std::time::Duration;
use wavejit::launch::RunRequest;
use wavejit::spec::ArgSpec;
use wavejit::EngineKind;

const GLOBAL: u32 = 360;
const LOCAL: u32 = 128;

/// out[gid] = {first read, neighbour's value, counter} as the program's comments define them.
fn expected() -> Vec<u8> {
    let size = 0x1f0u32;
    let in_window = |lid: u32| 4 * lid + 4 <= size;
    let mut out = Vec::new();
    for gid in 0..GLOBAL {
        let (g, lid) = (gid / LOCAL, gid % LOCAL);
        let n = (GLOBAL - g * LOCAL).min(LOCAL); // work-items in the group
        let written = |l: u32| l < n && in_window(l);
        let value = |l: u32| (g * LOCAL + l) * 3 + 1;
        let neighbour = if in_window(lid + 1) && written(lid + 1) {
            value(lid + 1)
        } else {
            0
        };
        let last = 0x1ec / 4; // the counter dword, also the last in-window work-item's
        let counter = if written(last) { value(last) } else { 0 } + n;
        for v in [0, neighbour, counter] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

#[test]
fn gds_program_gives_the_same_bits_on_both_engines_and_any_thread_count() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = wavejit::registry::load(&root.join("tests/programs/gds_groups.s"), Some("gfx900"))
        .expect("assemble");
    let args = [ArgSpec::Zero(12 * u64::from(GLOBAL))];
    let want = expected();
    for engine in [EngineKind::Interp, EngineKind::Jit] {
        for threads in [1, 3] {
            let req = RunRequest {
                kernel: "gds_groups",
                global: [GLOBAL, 1, 1],
                work_dim: None,
                local: [LOCAL, 1, 1],
                engine,
                threads,
                args: &args,
                fuel: 1 << 24,
                timeout: Duration::from_secs(60),
            };
            let launcher = wavejit::launch::prepare(&*file, &req).expect("prepare");
            for run in 0..2 {
                launcher.dispatch().expect("dispatch");
                let got = launcher.buffer(0).expect("out");
                let first = (0..want.len()).find(|&i| got[i] != want[i]);
                assert_eq!(
                    first,
                    None,
                    "{} on {threads} threads, dispatch {run}: first differing byte",
                    engine.name()
                );
            }
        }
    }
}
