//! Every kernel of the checked-in LLVM-compiled fixtures (tests/fixtures/gcn/*/) lifts and
//! its IR verifies.
use std::path::Path;
use wavejit_gcn::lift::{lift, LiftConfig};
use wavejit_gcn::loader;
use wavejit_gcn::Gen;

#[test]
fn every_fixture_kernel_lifts_and_verifies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcn");
    let mut lifted = 0;
    let mut failures = Vec::new();
    for dir in std::fs::read_dir(&root)
        .expect("fixture directory")
        .flatten()
    {
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "hsaco" && ext != "o" {
                continue;
            }
            let data = std::fs::read(&path).expect("read fixture");
            let obj = match loader::load(&data) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{}: load: {e}", path.display()));
                    continue;
                }
            };
            for k in &obj.kernels {
                let cfg = LiftConfig {
                    gen: match obj.target.gfx {
                        6 => Gen::Gfx6,
                        7 => Gen::Gfx7,
                        8 => Gen::Gfx8,
                        _ => Gen::Gfx9,
                    },
                    float_mode: k.float_mode,
                    ieee_mode: k.ieee_mode,
                    dx10_clamp: k.dx10_clamp,
                    base: k.code_address,
                    name: k.name.clone(),
                };
                match lift(&k.code, &cfg) {
                    Ok(f) => match wavejit_ir::verify::verify(&f) {
                        Ok(()) => lifted += 1,
                        Err(e) => {
                            failures.push(format!("{} {}: verify: {e}", path.display(), k.name))
                        }
                    },
                    Err(e) => failures.push(format!("{} {}: {e}", path.display(), k.name)),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(lifted >= 50, "only {lifted} kernels lifted");
}

/// One fixture kernel of tests/fixtures/gcn/manifest.json: grid, arguments (`zero:N`,
/// `buf:PATH` under data/, `u32:V`) and outputs (argument, element type, comparison,
/// tolerance, expected file under data/<kernel>/). Expected outputs come from the same
/// OpenCL source built natively for the host (the fixture builder's oracle).
struct K {
    name: &'static str,
    global: [u32; 3],
    local: [u32; 3],
    args: &'static [&'static str],
    outputs: &'static [(usize, &'static str, &'static str, f64, &'static str)],
}

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

/// Runs one fixture kernel through the loader, the launch ABI, the lifter and the runtime's
/// dispatcher with the reference interpreter; returns the output buffers' mismatches.
fn run_fixture(path: &Path, k: &K, data: &Path) -> Result<(), String> {
    use std::sync::Arc;
    use wavejit_gcn::launch::{self, ArgValue, Dispatch, WaveAddresses};
    use wavejit_runtime::{dispatch, Engine, GuestMemory, Interpreter, Launch};
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let obj = loader::load(&bytes).map_err(|e| e.to_string())?;
    let kernel = obj.kernel(k.name).map_err(|e| e.to_string())?;
    let gfx = obj.target.gfx;
    let gen = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9][(gfx.clamp(6, 9) - 6) as usize];
    let d = Dispatch {
        global: k.global,
        local: k.local,
    };
    let mut mem = GuestMemory::with_reserve(1 << 28).map_err(|e| e.to_string())?;
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for a in k.args {
        let (kind, v) = a.split_once(':').unwrap();
        match kind {
            "zero" => {
                let n: u64 = v.parse().unwrap();
                let addr = mem.alloc(n, 256).map_err(|e| e.to_string())?;
                bufs.push(Some((addr, n)));
                args.push(ArgValue::Pointer(addr));
            }
            "buf" => {
                let b = std::fs::read(data.join(v)).map_err(|e| e.to_string())?;
                let addr = mem.alloc_bytes(&b, 256).map_err(|e| e.to_string())?;
                bufs.push(Some((addr, b.len() as u64)));
                args.push(ArgValue::Pointer(addr));
            }
            _ => {
                bufs.push(None);
                args.push(ArgValue::U32(v.parse().unwrap()));
            }
        }
    }
    let kernarg = launch::padded_kernarg(
        launch::build_kernarg(kernel, &d, &args).map_err(|e| e.to_string())?,
    );
    let kernarg = mem.alloc_bytes(&kernarg, 256).map_err(|e| e.to_string())?;
    let packet = launch::dispatch_packet(kernel, &d, 0, kernarg);
    let packet = mem.alloc_bytes(&packet, 64).map_err(|e| e.to_string())?;
    let groups = d.groups();
    let waves_per_group = d.waves_in_group([0, 0, 0]);
    let total_waves = groups.iter().product::<u32>() * waves_per_group;
    let stride = launch::scratch_lane_stride(kernel);
    let scratch_bytes = (total_waves as u64 * 64 * stride as u64).max(1);
    let scratch = mem.alloc(scratch_bytes, 256).map_err(|e| e.to_string())?;
    let rsrc = launch::scratch_rsrc(gfx, scratch, stride);
    let code = launch::relocated_code(kernel, rsrc);
    let cfg = LiftConfig {
        gen,
        float_mode: kernel.float_mode,
        ieee_mode: kernel.ieee_mode,
        dx10_clamp: kernel.dx10_clamp,
        base: kernel.code_address,
        name: kernel.name.clone(),
    };
    let func = Arc::new(lift(&code, &cfg).map_err(|e| e.to_string())?);
    let program = Interpreter
        .prepare(func.clone())
        .map_err(|e| e.to_string())?;
    let layout = wavejit_gcn::lift::GcnLayout::new();
    let init = |w: &mut wavejit_runtime::WaveState, info: &wavejit_runtime::WaveInfo| {
        let addrs = WaveAddresses {
            kernarg,
            dispatch_packet: packet,
            queue: 0,
            dispatch_id: 0,
            scratch_base: scratch,
            scratch_wave_offset: launch::scratch_wave_offset(
                kernel,
                launch::dispatch_wave_index(
                    info.groups,
                    info.group,
                    info.waves_per_group,
                    info.wave,
                ),
            ) as u32,
            gds: 0,
        };
        let st = launch::wave_state(kernel, &d, &addrs, gfx, info.group, info.wave)
            .map_err(|e| wavejit_runtime::ExecError::Setup(e.to_string()))?;
        st.apply(&layout, |reg, lane, v| match lane {
            None => w.set_uniform(reg, v),
            Some(l) => w.set_lane(reg, l, v),
        });
        Ok(())
    };
    let run = Launch {
        kernel: kernel.name.clone(),
        func,
        program,
        grid: k.global,
        local: k.local,
        lds_bytes: kernel.lds_size.max(4),
        private_lane_bytes: stride,
        threads: 1,
        fuel: 10_000_000,
        time_limit: std::time::Duration::from_secs(60),
        init: &init,
    };
    dispatch(&run, &mem).map_err(|e| e.to_string())?;
    for &(arg, elem, how, tol, file) in k.outputs {
        let (addr, n) = bufs[arg].unwrap();
        let mut got = vec![0u8; n as usize];
        mem.read_bytes(addr, &mut got).map_err(|e| e.to_string())?;
        let want = std::fs::read(data.join(k.name).join(file)).map_err(|e| e.to_string())?;
        compare(&got, &want, elem, how, tol).map_err(|e| format!("{file}: {e}"))?;
    }
    Ok(())
}

#[test]
fn fixture_kernels_compute_the_expected_outputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcn");
    let data = root.join("data");
    let mut failures = Vec::new();
    let mut ran = 0;
    for target in [
        "tahiti",
        "bonaire",
        "hawaii",
        "tonga",
        "fiji",
        "gfx900",
        "legacy-tahiti",
        "legacy-gfx900",
    ] {
        for k in KERNELS {
            let ext = if target.starts_with("legacy") {
                "o"
            } else {
                "hsaco"
            };
            let path = root.join(target).join(format!("{}.{ext}", k.name));
            if !path.exists() {
                failures.push(format!("{target} {}: missing {}", k.name, path.display()));
                continue;
            }
            // Legacy objects use the 36-byte kernarg header, which build_kernarg writes.
            match run_fixture(&path, k, &data) {
                Ok(()) => ran += 1,
                Err(e) => failures.push(format!("{target} {}: {e}", k.name)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        failures.len() + ran,
        failures.join("\n")
    );
}
