//! Every kernel of the checked-in LLVM-compiled fixtures (tests/fixtures/gcn/*/) lifts and
//! its IR verifies. Running them against the host-native outputs, under both engines, is the
//! root package's tests/fixtures_gcn.rs.
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
