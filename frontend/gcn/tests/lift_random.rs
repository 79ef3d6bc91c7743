//! Seeded random programs (the ISA crate's generator: every table row can be picked, with
//! loops, divergence, memory and MODE changes) lift, verify and run to completion under the
//! interpreter and the JIT (which must agree bit for bit) from a random initial state. A
//! time-boxed smoke; long campaigns run elsewhere.
mod lift_common;

use lift_common::*;
use wavejit_gcn::lift::{LiftError, LiftErrorKind};
use wavejit_gcn::random::{self, GenConfig, InitState, BUFFER_BYTES};
use wavejit_gcn::Gen;

#[test]
fn random_programs_lift_verify_and_run() {
    let mut ran = 0;
    let mut unsupported = 0;
    for gen in Gen::ALL {
        for seed in 0..100u64 {
            let prog = random::generate(gen, seed, &GenConfig::default()).expect("generate");
            let mut init = InitState::random(seed);
            let mut cfg = config(gen, init.float_mode);
            cfg.ieee_mode = init.ieee_mode;
            let f = match wavejit_gcn::lift::lift(&prog.code, &cfg) {
                Ok(f) => f,
                Err(LiftError {
                    kind: LiftErrorKind::Unsupported,
                    why,
                    text,
                    ..
                }) => {
                    eprintln!("{gen:?} seed {seed}: unsupported `{text}`: {why}");
                    unsupported += 1;
                    continue;
                }
                Err(e) => panic!("{gen:?} seed {seed}: {e}\n{}", prog.text()),
            };
            if let Err(e) = wavejit_ir::verify::verify(&f) {
                panic!("{gen:?} seed {seed}: {e}\n{}", prog.text());
            }
            let mut w = Wave::new();
            let buf = w.buffer(&vec![0u8; BUFFER_BYTES as usize]);
            init.set_buffers(buf);
            for (i, &s) in init.sgprs.iter().enumerate() {
                w.set_s(i as u32, s);
            }
            for (r, lanes) in init.vgprs.iter().enumerate() {
                w.set_v_all(r as u32, |l| lanes[l as usize]);
            }
            w.set_exec(init.exec);
            w.set_vcc(init.vcc);
            w.set_scc(init.scc as u32);
            // M0-relative register moves with a random M0 may leave the register file: a guest
            // fault the ISA leaves undefined, not a lifter error.
            let ran_ok = w
                .try_run(&f)
                .unwrap_or_else(|why| panic!("{gen:?} seed {seed}: {why}\n{}", prog.text()));
            if let Err(e) = ran_ok {
                if e.kind == wavejit_runtime::FaultKind::RegisterIndex {
                    continue;
                }
                panic!("{gen:?} seed {seed}: fault {e}\n{}", prog.text());
            }
            ran += 1;
        }
    }
    assert!(
        ran >= 300,
        "only {ran} programs ran ({unsupported} unsupported)"
    );
}
