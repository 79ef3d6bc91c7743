//! Every IL encoding of the AMD APP SDK corpus (../shared/corpora/amd-app-sdk, read in place
//! through the appsdk loader) goes through the lifter: each lifts and verifies, or is refused
//! with exactly the reason [`REFUSED`] lists. The list is data: as the lifter grows, a kernel
//! that starts to lift is taken out of it (the test names it), and a new refusal goes in.
//! One kernel also runs on both engines through its calls (main calls the wrapper 1024,
//! which calls the kernel 1027).

mod appsdk_common;
mod lift_common;

use std::collections::BTreeMap;
use wavejit_amdil::{appsdk, decode, lift, print};

/// (corpus file, kernel, the refusal's message) for every kernel whose IL does not lift, in
/// corpus order. A message is the whole one-line error: offset, instruction, reason.
const REFUSED: &[(&str, &str, &str)] = &[
    ("si/MatrixMulImage_Kernels.bin", "mmmKernel", "offset 0x1d0: `dcl_resource_id(0)_type(2d)_fmtx(unknown)_fmty(unknown)_fmtz(unknown)_fmtw(unknown)`: unsupported: IL_DCL_RESOURCE: texture resources and sampling (OpenCL images) are not modelled"),
    ("si/MatrixMulImage_Kernels.bin", "mmmKernel2", "offset 0x1d0: `dcl_resource_id(0)_type(2d)_fmtx(unknown)_fmty(unknown)_fmtz(unknown)_fmtw(unknown)`: unsupported: IL_DCL_RESOURCE: texture resources and sampling (OpenCL images) are not modelled"),
    ("si/MatrixMulImage_Kernels.bin", "mmmKernel3", "offset 0x1d0: `dcl_resource_id(0)_type(2d)_fmtx(unknown)_fmty(unknown)_fmtz(unknown)_fmtw(unknown)`: unsupported: IL_DCL_RESOURCE: texture resources and sampling (OpenCL images) are not modelled"),
    ("si/SimpleImage_Kernels.bin", "image2dCopy", "offset 0x1d4: `dcl_resource_id(0)_type(2d)_fmtx(unknown)_fmty(unknown)_fmtz(unknown)_fmtw(unknown)`: unsupported: IL_DCL_RESOURCE: texture resources and sampling (OpenCL images) are not modelled"),
    ("si/SimpleImage_Kernels.bin", "image3dCopy", "offset 0x1d4: `dcl_resource_id(0)_type(3d)_fmtx(unknown)_fmty(unknown)_fmtz(unknown)_fmtw(unknown)`: unsupported: IL_DCL_RESOURCE: texture resources and sampling (OpenCL images) are not modelled"),
];

/// Streams the decoder refuses (tests/il_corpus.rs says why); they have no program to lift.
const UNDECODED: &[(&str, &str)] = &[("si/MonteCarloAsianDP_Kernels.bin", "calPriceVega")];

#[test]
fn corpus_il_lifts_or_is_refused_as_listed() {
    let Some(corpus) = appsdk_common::corpus() else {
        return;
    };
    let mut refused = BTreeMap::new();
    let mut lifted = Vec::new();
    for (path, bytes) in corpus {
        let binary = appsdk::load(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        for k in &binary.kernels {
            let il = &k
                .il()
                .unwrap_or_else(|| panic!("{path} {}: no IL", k.name))
                .text;
            let Ok(program) = decode::decode(il) else {
                assert!(
                    UNDECODED.contains(&(path.as_str(), k.name.as_str())),
                    "{path} {} does not decode",
                    k.name
                );
                continue;
            };
            match lift::lift(&program, &k.name) {
                Ok(f) => {
                    if let Err(e) = wavejit_ir::verify::verify(&f) {
                        panic!(
                            "{path} {}: the lifted function does not verify: {e:?}",
                            k.name
                        );
                    }
                    lifted.push(format!("{path} {}", k.name));
                }
                Err(e) => {
                    let line = e.to_string();
                    assert!(!line.contains('\n'), "{path} {}: {line}", k.name);
                    refused.insert((path.clone(), k.name.clone()), line);
                }
            }
        }
    }
    let want: BTreeMap<(String, String), String> = REFUSED
        .iter()
        .map(|(p, k, e)| ((p.to_string(), k.to_string()), e.to_string()))
        .collect();
    let lines = |m: &BTreeMap<(String, String), String>| -> Vec<String> {
        m.iter()
            .map(|((p, k), e)| format!("    ({p:?}, {k:?}, {e:?}),"))
            .collect()
    };
    if refused != want {
        panic!(
            "the refusals differ from REFUSED; now {} lift ({}), and the refusals are:\n{}",
            lifted.len(),
            lifted.join(", "),
            lines(&refused).join("\n")
        );
    }
    eprintln!(
        "{} kernels lift, {} are refused as listed",
        lifted.len(),
        refused.len()
    );
}

/// The SI `vector_add` (dst[i] = src1[i] + src2[i], README of the corpus) through its IL: main,
/// the ABI wrapper and the kernel, one work-group of 64, arguments as arena byte offsets in
/// cb1's slots (metadata: src1, src2, dst).
#[test]
fn corpus_vector_add_runs_through_its_calls() {
    let path = "si/vector-add.bin";
    let file = appsdk_common::corpus_dir().join(path);
    if !file.exists() {
        eprintln!("NOT RUN: {} absent", file.display());
        return;
    }
    let binary = appsdk::load(&appsdk_common::read(path)).unwrap();
    let k = binary.kernel("vector_add").unwrap();
    let program = decode::decode(&k.il().expect("an IL encoding").text).unwrap();
    let kernel = lift_common::Kernel::new(&print::print(&program));
    let mut l = kernel.launch();
    // cb0 (DESIGN.md): global size, work_dim, local size, groups, 0.0 0.5 1.0 2.0; the 15
    // elements the kernel declares.
    let mut cb0 = vec![0u32; 60];
    cb0[..4].copy_from_slice(&[64, 1, 1, 1]);
    cb0[4..7].copy_from_slice(&[64, 1, 1]);
    cb0[8..11].copy_from_slice(&[1, 1, 1]);
    cb0[20..24].copy_from_slice(&[0, 0x3f00_0000, 0x3f80_0000, 0x4000_0000]);
    l.set_cb(0, &cb0);
    l.set_cb(1, &[0, 0, 0, 0, 256, 0, 0, 0, 512, 0, 0, 0]);
    let mut arena = vec![0u32; 3 * 64];
    for i in 0..64 {
        arena[i] = 1000 * i as u32;
        arena[64 + i] = (7 - i as i32) as u32;
        arena[128 + i] = 0xcccc;
    }
    l.set_arena(&arena);
    let d = l.go();
    for i in 0..64 {
        let want = arena[i].wrapping_add(arena[64 + i]);
        assert_eq!(d.arena[128 + i], want, "work-item {i}");
    }
    assert_eq!(d.exec(), u64::MAX);
}
