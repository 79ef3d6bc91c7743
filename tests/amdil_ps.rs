//! Pixel-shader IL files (`tests/programs/amdil/ps_*.il`) run by the real `wavejit run` over a
//! domain (README "AMD IL files": one invocation per point of `--global X[,Y]`, tiles of
//! `--local`, `vWinCoord0` = (x + 0.5, y + 0.5, 0.0, 1.0), or (x, y, ...) when declared
//! `centered`), on both engines, with domains that tiles do not divide, and checked against
//! the fixtures' formulas computed here in host `f32` arithmetic.

mod cli_util;

use cli_util::{fails, succeeds, temp_path, words_of, TempFile};

const ENGINES: [&str; 2] = ["jit", "interp"];

/// Runs fixture `name` over the domain `w`x`h` in tiles of `local` with `extra` arguments after
/// the output buffer (16 bytes a point), and returns the output's words.
fn run(name: &str, w: u32, h: u32, local: &str, extra: &[&str], more: &[&str]) -> Vec<u32> {
    let file = format!("tests/programs/amdil/{name}.il");
    let out = temp_path(&format!("{name}_out.bin"));
    let global = format!("{w},{h}");
    let zero = format!("zero:{}", 16 * w * h);
    let save = format!("0:{}", out.display());
    let mut args = vec![
        "run", &file, "--kernel", name, "--global", &global, "--local", local, "--arg", &zero,
    ];
    for a in extra {
        args.extend(["--arg", a]);
    }
    args.extend(["--save", &save]);
    args.extend(more);
    succeeds(&args);
    let words = words_of(&std::fs::read(&out).unwrap());
    let _ = std::fs::remove_file(&out);
    words
}

/// ps_wincoord's record of point (x, y): (cx, cy, cx * a - cy * b, 1.0) with the pixel
/// centres c = position + 0.5.
fn wincoord_record(x: u32, y: u32, a: f32, b: f32) -> [u32; 4] {
    let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
    [cx, cy, cx * a - cy * b, 1.0].map(f32::to_bits)
}

#[test]
fn win_coord_reaches_every_point_of_the_domain() {
    let (w, h, a, b) = (37u32, 11u32, 1.25f32, -0.375f32);
    let want: Vec<u32> = (0..h)
        .flat_map(|y| (0..w).flat_map(move |x| wincoord_record(x, y, a, b)))
        .collect();
    let (fa, fb) = (format!("f32:{a}"), format!("f32:{b}"));
    // Square tiles, strips, a tile wider than the domain; 64- and 32-lane waves.
    for (local, target) in [("8,4", "cypress"), ("16,1", "cypress"), ("64,2", "cedar")] {
        for engine in ENGINES {
            let got = run(
                "ps_wincoord",
                w,
                h,
                local,
                &[&fa, &fb],
                &["--engine", engine, "--target", target],
            );
            assert_eq!(got, want, "{engine} {local} {target}");
        }
    }
}

#[test]
fn a_centered_domain_writes_g_with_control_flow() {
    let (w, h) = (29u32, 13u32);
    let want: Vec<u32> = (0..h)
        .flat_map(|y| {
            (0..w).flat_map(move |x| {
                let (fx, fy) = (x as f32, y as f32);
                if x > y {
                    [fx * fx + fy, fy, 1.0, 0.0]
                } else {
                    [fx - fy, fx, 2.0, 0.0]
                }
                .map(f32::to_bits)
            })
        })
        .collect();
    for engine in ENGINES {
        let got = run("ps_global", w, h, "8,8", &[], &["--engine", engine]);
        assert_eq!(got, want, "{engine}");
    }
}

#[test]
fn the_domain_is_two_dimensional() {
    let e = fails(&[
        "run",
        "tests/programs/amdil/ps_global.il",
        "--kernel",
        "ps_global",
        "--global",
        "8,8,2",
        "--local",
        "8,8",
        "--arg",
        "zero:2048",
    ]);
    assert!(e.contains("two-dimensional"), "{e}");
}

#[test]
fn info_states_the_domain_convention() {
    let out = succeeds(&["info", "tests/programs/amdil/ps_wincoord.il"]);
    assert!(out.contains("IL: il_ps_2_0"), "{out}");
    assert!(out.contains("IL lifts:"), "{out}");
    assert!(
        out.contains("vWinCoord0 = (x + 0.5, y + 0.5, 0.0, 1.0)"),
        "{out}"
    );
}

#[test]
fn pixel_outputs_are_refused_in_one_line() {
    let file = TempFile::new(
        "ps_output.il",
        "il_ps_2_0\ndcl_input_pos_interp(noperspective) vWinCoord0.xy__\n\
         dcl_output_generic o0\nmov o0, vWinCoord0\nend\n",
    );
    let stem = std::path::Path::new(&*file)
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap();
    let e = fails(&[
        "run", &file, "--kernel", stem, "--global", "8,8", "--local", "8,8",
    ]);
    assert!(e.contains("pixel outputs are not modelled"), "{e}");
}
