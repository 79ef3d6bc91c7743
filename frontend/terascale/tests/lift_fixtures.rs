//! The r600-family fixture kernels (tests/fixtures/terascale/<chip>/K.o, built by llc-14 from
//! tests/fixtures/src) run through the loader, the launch ABI, the lifter and the runtime's
//! dispatcher, and must produce the expected outputs (computed from the OpenCL sources on the
//! host by the fixture builder; comparison rules of src/fixtures.rs). The interpreter and the
//! JIT must also agree byte for byte.
use std::path::Path;
use std::sync::Arc;
use wavejit_runtime::{dispatch, Engine, GuestMemory, Interpreter, Launch, GUEST_BASE};
use wavejit_terascale::launch::{self, ArgValue, Dispatch};
use wavejit_terascale::lift::{lift, LiftConfig, TsLayout};
use wavejit_terascale::{decode_program, loader, Chip};

struct K {
    name: &'static str,
    global: [u32; 3],
    local: [u32; 3],
    args: &'static [&'static str],
    outputs: &'static [(usize, &'static str, &'static str, f64, &'static str)],
}

/// tests/fixtures/terascale/manifest.json (the same kernels and data as the GCN fixtures).
#[rustfmt::skip]
const KERNELS: &[K] = &[
    K { name: "atomics", global: [512, 1, 1], local: [128, 1, 1], args: &["zero:64", "buf:atomics/stats.bin", "buf:atomics/in.bin"], outputs: &[(0, "u32", "exact", 0.0, "hist.expected.bin"), (1, "u32", "exact", 0.0, "stats.expected.bin")] },
    K { name: "branches", global: [256, 1, 1], local: [64, 1, 1], args: &["buf:branches/out.bin", "buf:branches/in.bin", "u32:200"], outputs: &[(0, "i32", "exact", 0.0, "out.expected.bin")] },
    K { name: "collatz", global: [256, 1, 1], local: [64, 1, 1], args: &["zero:1024", "buf:collatz/start.bin", "u32:200"], outputs: &[(0, "u32", "exact", 0.0, "steps.expected.bin")] },
    K { name: "f32_arith", global: [256, 1, 1], local: [64, 1, 1], args: &["zero:5120", "buf:f32_arith/a.bin", "buf:f32_arith/b.bin", "buf:f32_arith/c.bin", "u32:250"], outputs: &[(0, "f32", "exact", 0.0, "out.expected.bin")] },
    K { name: "float_conv", global: [256, 1, 1], local: [64, 1, 1], args: &["zero:10240", "buf:float_conv/f.bin", "buf:float_conv/u.bin", "u32:250"], outputs: &[(0, "u32", "exact", 0.0, "out.expected.bin")] },
    K { name: "grid2d", global: [40, 24, 1], local: [8, 8, 1], args: &["zero:3404", "buf:grid2d/in.bin", "u32:37", "u32:23"], outputs: &[(0, "u32", "exact", 0.0, "out.expected.bin")] },
    K { name: "int64_ops", global: [128, 1, 1], local: [64, 1, 1], args: &["zero:8192", "buf:int64_ops/a.bin", "buf:int64_ops/b.bin", "u32:120"], outputs: &[(0, "u64", "exact", 0.0, "out.expected.bin")] },
    K { name: "int_alu", global: [256, 1, 1], local: [64, 1, 1], args: &["zero:12288", "buf:int_alu/a.bin", "buf:int_alu/b.bin", "u32:250"], outputs: &[(0, "u32", "exact", 0.0, "out.expected.bin")] },
    K { name: "lds_reduce", global: [1024, 1, 1], local: [256, 1, 1], args: &["zero:16", "zero:16", "buf:lds_reduce/in.bin"], outputs: &[(0, "f32", "exact", 0.0, "fsum.expected.bin"), (1, "u32", "exact", 0.0, "usum.expected.bin")] },
    K { name: "math_f32", global: [256, 1, 1], local: [64, 1, 1], args: &["zero:1024", "zero:1024", "zero:1024", "zero:1024", "zero:1024", "zero:1024", "zero:1024", "buf:math_f32/a.bin", "buf:math_f32/b.bin", "u32:250"], outputs: &[(0, "f32", "ulp", 3.0, "q.expected.bin"), (1, "f32", "ulp", 2.0, "sqrt.expected.bin"), (2, "f32", "ulp", 2.0, "rsqrt.expected.bin"), (3, "f32", "ulp", 3.0, "exp2.expected.bin"), (4, "f32", "abs", 1e-05, "log2.expected.bin"), (5, "f32", "abs", 1e-05, "sin.expected.bin"), (6, "f32", "abs", 1e-05, "cos.expected.bin")] },
    K { name: "matmul_tiled", global: [48, 32, 1], local: [16, 16, 1], args: &["zero:6144", "buf:matmul_tiled/a.bin", "buf:matmul_tiled/b.bin", "u32:32", "u32:48", "u32:32"], outputs: &[(0, "f32", "exact", 0.0, "c.expected.bin")] },
    K { name: "private_array", global: [128, 1, 1], local: [64, 1, 1], args: &["zero:512", "buf:private_array/in.bin", "buf:private_array/idx.bin"], outputs: &[(0, "u32", "exact", 0.0, "out.expected.bin")] },
    K { name: "uniform_loop", global: [256, 1, 1], local: [64, 1, 1], args: &["zero:1024", "zero:1024", "buf:uniform_loop/x.bin", "buf:uniform_loop/coef.bin", "u32:13"], outputs: &[(0, "f32", "exact", 0.0, "out.expected.bin"), (1, "u32", "exact", 0.0, "sums.expected.bin")] },
];

/// Kernels the lifter does not run yet (an unsupported instruction, named by the error the
/// test checks for).
const NOT_YET: &[(&str, &str)] = &[];

fn compare(got: &[u8], want: &[u8], elem: &str, how: &str, tol: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("size {} vs {}", got.len(), want.len()));
    }
    let w = if elem == "u64" { 8 } else { 4 };
    for (i, (g, e)) in got.chunks(w).zip(want.chunks(w)).enumerate() {
        let ok = match how {
            "exact" => g == e,
            _ => {
                let gf = f32::from_le_bytes([g[0], g[1], g[2], g[3]]);
                let ef = f32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                if gf.is_nan() || ef.is_nan() {
                    gf.is_nan() && ef.is_nan()
                } else if how == "ulp" {
                    let (a, b) = (gf.to_bits() as i32, ef.to_bits() as i32);
                    gf == ef || (a ^ b) >= 0 && (a - b).unsigned_abs() as f64 <= tol
                } else {
                    (gf as f64 - ef as f64).abs() <= tol
                }
            }
        };
        if !ok {
            return Err(format!("element {i}: got {g:02x?}, want {e:02x?}"));
        }
    }
    Ok(())
}

/// Runs one kernel on `engine`; returns every output buffer's bytes.
fn run(
    path: &Path,
    chip: Chip,
    k: &K,
    data: &Path,
    engine: &dyn Engine,
) -> Result<Vec<Vec<u8>>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let obj = loader::load(&bytes).map_err(|e| e.to_string())?;
    let kernel = obj.kernel(k.name).map_err(|e| e.to_string())?;
    let program = decode_program(chip.class(), &kernel.code).map_err(|e| e.to_string())?;
    let cfg = LiftConfig {
        chip,
        name: k.name.to_string(),
        base: 0x1000,
    };
    let func = Arc::new(lift(&program, &cfg).map_err(|e| e.to_string())?);
    wavejit_ir::verify::verify(&func).map_err(|e| format!("verify: {e}"))?;
    let prepared = engine.prepare(func.clone()).map_err(|e| e.to_string())?;
    let d = Dispatch {
        global: k.global,
        local: k.local,
    };
    let mut mem = GuestMemory::with_reserve(1 << 28).map_err(|e| e.to_string())?;
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for a in k.args {
        let (kind, v) = a.split_once(':').unwrap();
        let addr = match kind {
            "zero" => {
                let n: u64 = v.parse().unwrap();
                let addr = mem.alloc(n, 256).map_err(|e| e.to_string())?;
                bufs.push(Some((addr, n)));
                addr
            }
            "buf" => {
                let b = std::fs::read(data.join(v)).map_err(|e| e.to_string())?;
                let addr = mem.alloc_bytes(&b, 256).map_err(|e| e.to_string())?;
                bufs.push(Some((addr, b.len() as u64)));
                addr
            }
            _ => {
                bufs.push(None);
                args.push(ArgValue::U32(v.parse().unwrap()));
                continue;
            }
        };
        args.push(ArgValue::Pointer((addr - GUEST_BASE) as u32));
    }
    let cb0 = launch::constant_buffer0(&d, &args);
    let cb0 = mem.alloc_bytes(&cb0, 256).map_err(|e| e.to_string())?;
    let l = TsLayout::new(launch::wave_size(chip));
    let init = |w: &mut wavejit_runtime::WaveState, info: &wavejit_runtime::WaveInfo| {
        let st = launch::wave_state(chip, &d, info.group, info.wave)
            .map_err(|e| wavejit_runtime::ExecError::Setup(e.to_string()))?;
        for (lane, t0) in st.t0.iter().enumerate() {
            for c in 0..4 {
                w.set_lane(l.gpr(0, c), lane as u32, t0[c as usize]);
                w.set_lane(l.gpr(1, c), lane as u32, st.t1[c as usize]);
            }
        }
        let act = l.active();
        w.set_uniform(act, st.exec as u32);
        w.set_uniform(act.offset(1), (st.exec >> 32) as u32);
        let pool = l.pool_base();
        w.set_uniform(pool, GUEST_BASE as u32);
        w.set_uniform(pool.offset(1), (GUEST_BASE >> 32) as u32);
        let cb = l.const_buffer(0);
        w.set_uniform(cb, cb0 as u32);
        w.set_uniform(cb.offset(1), (cb0 >> 32) as u32);
        Ok(())
    };
    let launch = Launch {
        kernel: k.name.to_string(),
        func,
        program: prepared,
        grid: k.global,
        local: k.local,
        lds_bytes: kernel.lds_size.max(4),
        private_lane_bytes: 4,
        threads: 1,
        fuel: 10_000_000,
        time_limit: std::time::Duration::from_secs(60),
        init: &init,
    };
    dispatch(&launch, &mem).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for &(arg, ..) in k.outputs {
        let (addr, n) = bufs[arg].unwrap();
        let mut got = vec![0u8; n as usize];
        mem.read_bytes(addr, &mut got).map_err(|e| e.to_string())?;
        out.push(got);
    }
    Ok(out)
}

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

const CHIPS: [(&str, Chip); 5] = [
    ("cayman", Chip::Cayman),
    ("cypress", Chip::Cypress),
    ("juniper", Chip::Juniper),
    ("redwood", Chip::Redwood),
    ("barts", Chip::Barts),
];

/// Runs `k` on the interpreter and the JIT; Ok if the interpreter's outputs match the
/// expected ones and the JIT's match the interpreter's.
fn check(path: &Path, chip: Chip, k: &K, data: &Path, jit: &dyn Engine) -> Result<(), String> {
    let got = run(path, chip, k, data, &Interpreter)?;
    for (g, &(_, elem, how, tol, file)) in got.iter().zip(k.outputs) {
        let want = std::fs::read(data.join(k.name).join(file)).map_err(|e| e.to_string())?;
        compare(g, &want, elem, how, tol).map_err(|e| format!("{file}: {e}"))?;
    }
    let j = run(path, chip, k, data, jit).map_err(|e| format!("JIT: {e}"))?;
    if j != got {
        return Err("the JIT's outputs differ from the interpreter's".into());
    }
    Ok(())
}

#[test]
fn fixture_kernels_compute_the_expected_outputs_on_both_engines() {
    let root = fixtures();
    let data = root.join("gcn/data");
    let jit = wavejit_jit::Jit::new().expect("host supported by Cranelift");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (dir, chip) in CHIPS {
        for k in KERNELS {
            let path = root
                .join("terascale")
                .join(dir)
                .join(format!("{}.o", k.name));
            if !path.exists() {
                // manifest.json lists f32_arith as missing for juniper, redwood, barts.
                assert!(k.name == "f32_arith" && dir != "cayman" && dir != "cypress");
                continue;
            }
            let outcome = check(&path, chip, k, &data, &jit);
            let not_yet = NOT_YET.iter().find(|n| n.0 == k.name);
            match (outcome, not_yet) {
                (Ok(()), None) => ran += 1,
                (Err(e), None) => failures.push(format!("{dir} {}: {e}", k.name)),
                (Ok(()), Some(_)) => {
                    failures.push(format!("{dir} {}: passes now: move it off NOT_YET", k.name))
                }
                (Err(e), Some((_, why))) => {
                    if !e.contains(why) {
                        failures.push(format!("{dir} {}: fails differently: {e}", k.name));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed ({ran} passed):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
