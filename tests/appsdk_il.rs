//! The IL encoding of AMD APP SDK binaries (`--encoding il`), run through the IL lifter under
//! the driver's convention for it (src/isa/amdapp/il.rs) on both engines.
//!
//! - Every corpus kernel test of tests/appsdk_kernels runs on the IL encoding of its binary and
//!   must end exactly as [`REFUSED`] says: with the host's result when the test is not listed,
//!   or with the listed one-line refusal. The table records what does not run; a test that
//!   then passes fails until its entry is removed.
//! - The convention itself is checked on IL written in the shape AMD's compiler gives it
//!   (arguments from CB1 at their metadata offsets, the ids from CB0's local size and global
//!   offset, raw UAVs over one arena, `__local` arguments after the static LDS), spliced into
//!   corpus binaries in place of their own IL and run from the command line.

mod appsdk_kernels;
mod cli_util;

use appsdk_kernels::{bytes_of, corpus, corpus_dir, words_of, Encoding, Refused};
use std::panic::{catch_unwind, resume_unwind};

/// The corpus kernel tests whose IL does not run, with the refusal (the first kernel of the
/// test that does not): MonteCarloAsianDP's calPriceVega uses IL opcode 550, past every
/// ILOpCode table there is (tests/il_corpus.rs in wavejit-amdil).
const REFUSED: &[(&str, &str)] = &[(
    "monte_carlo_asian",
    "kernel calPriceVega: IL encoding: unknown IL opcode 550 at token 7994",
)];

/// Runs the kernel test `test` on the IL encoding and checks its outcome against
/// [`REFUSED`].
fn outcome(test: &str, body: fn(Encoding)) {
    if corpus_dir().is_none() {
        return;
    }
    let expected = REFUSED.iter().find(|r| r.0 == test).map(|r| r.1);
    match catch_unwind(|| body(Encoding::Il)) {
        Ok(()) => assert!(
            expected.is_none(),
            "{test}: the IL now matches the host result; remove its entry from REFUSED"
        ),
        Err(payload) => match payload.downcast::<Refused>() {
            Ok(refused) => assert_eq!(
                Some(refused.0.as_str()),
                expected,
                "{test}: the IL lifter's refusal is not the one REFUSED records"
            ),
            Err(payload) => resume_unwind(payload),
        },
    }
}

/// One test per corpus kernel test, in the IL encoding.
macro_rules! il_tests {
    ($($module:ident :: $kernel:ident),* $(,)?) => {
        $(
            #[test]
            fn $kernel() {
                outcome(stringify!($kernel), appsdk_kernels::$module::$kernel);
            }
        )*

        /// Every entry of [`REFUSED`] names a kernel test, once.
        #[test]
        fn refusals_name_kernel_tests() {
            let tests = [$(stringify!($kernel)),*];
            for (i, (name, why)) in REFUSED.iter().enumerate() {
                assert!(tests.contains(name), "REFUSED names no kernel test {name}");
                assert!(
                    REFUSED[..i].iter().all(|r| r.0 != *name),
                    "REFUSED names {name} twice"
                );
                assert!(
                    why.starts_with("kernel ") && !why.contains('\n'),
                    "{name}: {why:?} is not a one-line kernel error"
                );
            }
        }
    };
}
appsdk_kernels::every_kernel!(il_tests);

/// `binary` (a corpus file's bytes) with kernel `kernel`'s IL replaced by `text`, encoded and
/// padded to the same length with a comment before its `end` (the IL's bytes are replaced
/// in place, so every offset of the file stays).
fn splice(binary: &[u8], kernel: &str, text: &str) -> Vec<u8> {
    let loaded = wavejit_amdil::appsdk::load(binary).expect("the corpus file loads");
    let old = &loaded.kernel(kernel).unwrap().il().unwrap().text;
    let at: Vec<usize> = (0..=binary.len() - old.len())
        .filter(|&i| binary[i..i + old.len()] == old[..])
        .collect();
    assert_eq!(at.len(), 1, "{kernel}'s IL is in the file once");
    let body = text.strip_suffix("end\n").expect("the IL ends with end");
    // Comments of CHUNK bytes (a comment holds at most 65535 dwords), then one of `pad`.
    const CHUNK: usize = 1 << 16;
    let encode = |chunks: usize, pad: usize| {
        let filler = format!("; {}\n", "p".repeat(CHUNK)).repeat(chunks);
        let padded = format!("{body}{filler}; {}\nend\n", "p".repeat(pad));
        let program = wavejit_amdil::parse::parse(&padded).expect("the IL parses");
        wavejit_amdil::encode::encode(&program).expect("the IL encodes")
    };
    let chunks = old.len().saturating_sub(encode(0, 0).len()) / (CHUNK + 64);
    // A comment's text takes a dword per 4 bytes: the pad is the missing bytes, give or take
    // the comment's own dwords and its terminator.
    let missing = old.len().saturating_sub(encode(chunks, 0).len());
    let tokens = (missing.saturating_sub(16)..missing + 16)
        .map(|pad| encode(chunks, pad))
        .find(|t| t.len() == old.len())
        .expect("the IL fits in the kernel's own IL encoding");
    let mut out = binary.to_vec();
    out[at[0]..at[0] + old.len()].copy_from_slice(&tokens);
    out
}

/// A corpus binary with `kernel`'s IL replaced by `text`, as a temporary file.
fn spliced_file(file: &str, kernel: &str, text: &str) -> Option<cli_util::TempFile> {
    let bytes = std::fs::read(corpus(file)?).unwrap();
    let name = format!("spliced_{kernel}_{}", file.replace('/', "_"));
    Some(cli_util::TempFile::new(&name, splice(&bytes, kernel, text)))
}

/// Runs `wavejit run FILE --encoding il` with `argv` after it on both engines; the saved
/// argument's bytes per engine.
fn run_il(file: &str, argv: &[&str], save: usize) -> Vec<Vec<u8>> {
    ["jit", "interp"]
        .iter()
        .map(|engine| {
            let out = cli_util::temp_path(&format!("il_save_{save}_{engine}.bin"));
            let save_spec = format!("{save}:{}", out.display());
            let mut args = vec!["run", file, "--encoding", "il", "--engine", engine];
            args.extend(argv);
            args.extend(["--save", &save_spec]);
            cli_util::succeeds(&args);
            let bytes = std::fs::read(&out).unwrap();
            std::fs::remove_file(&out).unwrap();
            bytes
        })
        .collect()
}

/// vector_add's arguments as AMD's compiler reads them: the global id from the group id, the
/// local size (`cb0[1]`) and the global offset (`cb0[6]`); each pointer's byte offset from its
/// CB1 slot; every raw UAV over the arena.
const VECTOR_ADD_IL: &str = "\
il_cs_2_0
dcl_cb cb0[15]
dcl_cb cb1[3]
dcl_max_thread_per_group 256
dcl_raw_uav_id(11)
dcl_literal l0, 0x00000002, 0x00000000, 0x00000000, 0x00000000
imad r0.x___, vThreadGrpId.x, cb0[1].x, vTidInGrp.x
iadd r0.x___, r0.x, cb0[6].x
ishl r0.x___, r0.x, l0.x
iadd r1.x___, r0.x, cb1[0].x
iadd r1._y__, r0.x, cb1[1].x
iadd r1.__z_, r0.x, cb1[2].x
uav_raw_load_id(11) r2.x___, r1.x
uav_raw_load_id(11) r3.x___, r1.y
iadd r2.x___, r2.x, r3.x
uav_raw_store_id(11) mem.x___, r1.z, r2.x
end
";

/// The driver's convention for global pointers and the ABI data: `dst[i] = src1[i] +
/// src2[i]` in vector-add's own metadata and argument slots, on Southern Islands (UAVs 10-12)
/// and Evergreen (every pointer in UAV 11).
#[test]
fn il_in_the_compilers_shape_runs_vector_add() {
    for binary in ["si/vector-add.bin", "evergreen/vector-add.bin"] {
        let Some(file) = spliced_file(binary, "vector_add", VECTOR_ADD_IL) else {
            return;
        };
        let a: Vec<u32> = (0..512).map(|i| i * 3 + 1).collect();
        let b: Vec<u32> = (0..512).map(|i| u32::MAX - i).collect();
        let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        let (fa, fb) = (
            cli_util::TempFile::new("il_a.bin", bytes_of(&a)),
            cli_util::TempFile::new("il_b.bin", bytes_of(&b)),
        );
        let (sa, sb) = (format!("buf:{}", &*fa), format!("buf:{}", &*fb));
        let argv = [
            "--kernel",
            "vector_add",
            "--global",
            "512",
            "--local",
            "128",
            "--arg",
            &sa,
            "--arg",
            &sb,
            "--arg",
            "zero:2048",
        ];
        for got in run_il(&file, &argv, 2) {
            assert_eq!(words_of(&got), want, "{binary}");
        }
    }
}

/// binomial_options' arguments (numSteps, randArray, output, callA, callB): a value in CB1,
/// two global pointers and two `__local` pointers whose LDS offsets the launch chose. Each
/// work-item stores `rand[gid] + numSteps` in callB at its local id, and after the barrier
/// writes its neighbour's (local id + 1 modulo the local size) plus callB's LDS offset.
const LOCAL_IL: &str = "\
il_cs_2_0
dcl_cb cb0[15]
dcl_cb cb1[5]
dcl_max_thread_per_group 256
dcl_raw_uav_id(11)
dcl_lds_id(1) 32768
dcl_literal l0, 0x00000002, 0x00000001, 0x00000000, 0x00000000
mov r0.x___, vTidInGrpFlat.x
imad r1.x___, vThreadGrpId.x, cb0[1].x, vTidInGrp.x
iadd r1.x___, r1.x, cb0[6].x
ishl r2.x___, r1.x, l0.x
iadd r3.x___, r2.x, cb1[1].x
uav_raw_load_id(11) r4.x___, r3.x
iadd r4.x___, r4.x, cb1[0].x
ishl r5.x___, r0.x, l0.x
iadd r5.x___, r5.x, cb1[4].x
lds_store_id(1) r5.x, r4.x
fence_threads_lds
iadd r6.x___, r0.x, l0.y
umod r6.x___, r6.x, cb0[1].x
ishl r6.x___, r6.x, l0.x
iadd r6.x___, r6.x, cb1[4].x
lds_load_id(1) r7.x___, r6.x
iadd r7.x___, r7.x, cb1[4].x
iadd r8.x___, r2.x, cb1[2].x
uav_raw_store_id(11) mem.x___, r8.x, r7.x
end
";

/// `__local` arguments under `--encoding il`: callA (1000 bytes) at LDS offset 0 (the kernel
/// has no static `__local` bytes), callB at the next multiple of its 16-byte element, 1008.
#[test]
fn il_local_arguments_follow_the_metadata() {
    let Some(file) = spliced_file(
        "si/BinomialOption_Kernels.bin",
        "binomial_options",
        LOCAL_IL,
    ) else {
        return;
    };
    let (n, group, steps, call_b) = (256usize, 64usize, 254u32, 1008u32);
    let rand: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let want: Vec<u32> = (0..n)
        .map(|gid| {
            let neighbour = gid / group * group + (gid % group + 1) % group;
            rand[neighbour].wrapping_add(steps).wrapping_add(call_b)
        })
        .collect();
    let fr = cli_util::TempFile::new("il_rand.bin", bytes_of(&rand));
    let sr = format!("buf:{}", &*fr);
    let out = format!("zero:{}", 4 * n);
    let steps_arg = format!("i32:{steps}");
    let path: &str = &file;
    let argv = [
        "--kernel",
        "binomial_options",
        "--global",
        "256",
        "--local",
        "64",
        "--arg",
        &steps_arg,
        "--arg",
        &sr,
        "--arg",
        &out,
        "--arg",
        "local:1000",
        "--arg",
        "local:1024",
    ];
    for got in run_il(path, &argv, 2) {
        assert_eq!(words_of(&got), want);
    }
}

/// calPriceVega's by-value struct (112 bytes at CB1 offset 0, given as `struct:PATH`), values
/// after it, and the program-scope constants bound as cb2: each work-item writes
/// `(attrib vec4 k).x + (attrib vec4 k).w + noOfSum` XOR `cb2[k].y`, k = gid mod 7.
const STRUCT_IL: &str = "\
il_cs_2_0
dcl_cb cb0[15]
dcl_cb cb1[12]
dcl_cb cb2[7]
dcl_raw_uav_id(11)
dcl_literal l0, 0x00000002, 0x00000007, 0x00000000, 0x00000000
imad r1.x___, vThreadGrpId.x, cb0[1].x, vTidInGrp.x
iadd r1.x___, r1.x, cb0[6].x
umod r2.x___, r1.x, l0.y
mov r3, cb1[r2.x+0]
iadd r3.x___, r3.x, r3.w
iadd r3.x___, r3.x, cb1[7].x
ixor r3.x___, r3.x, cb2[r2.x+0].y
ishl r4.x___, r1.x, l0.x
iadd r4.x___, r4.x, cb1[10].x
uav_raw_store_id(11) mem.x___, r4.x, r3.x
end
";

/// A `struct:` argument and program-scope constants under `--encoding il`.
#[test]
fn il_struct_arguments_and_program_constants() {
    let Some(path) = corpus("si/MonteCarloAsian_Kernels.bin") else {
        return;
    };
    let binary = wavejit_amdil::appsdk::load(&std::fs::read(&path).unwrap()).unwrap();
    let cb2 = words_of(&binary.global(2).expect("the program has cb2").bytes);
    assert!(cb2.len() >= 28, "cb2 holds 7 vec4");
    let Some(file) = spliced_file("si/MonteCarloAsian_Kernels.bin", "calPriceVega", STRUCT_IL)
    else {
        return;
    };
    let attrib: Vec<u32> = (0..28)
        .map(|i| 0x0101_0101u32.wrapping_mul(i + 1))
        .collect();
    let n = 128usize;
    let sum = 12u32;
    let want: Vec<u32> = (0..n)
        .map(|gid| {
            let k = gid % 7;
            (attrib[4 * k]
                .wrapping_add(attrib[4 * k + 3])
                .wrapping_add(sum))
                ^ cb2[4 * k + 1]
        })
        .collect();
    let fs = cli_util::TempFile::new("il_attrib.bin", bytes_of(&attrib));
    let s_attrib = format!("struct:{}", &*fs);
    let s_sum = format!("i32:{sum}");
    let out = format!("zero:{}", 4 * n);
    let path: &str = &file;
    let argv = [
        "--kernel",
        "calPriceVega",
        "--global",
        "128",
        "--local",
        "64",
        "--arg",
        &s_attrib,
        "--arg",
        &s_sum,
        "--arg",
        "i32:64",
        "--arg",
        "zero:64",
        "--arg",
        &out,
        "--arg",
        "zero:64",
    ];
    for got in run_il(path, &argv, 4) {
        assert_eq!(words_of(&got), want);
    }
}

/// `wavejit wave --encoding il` on a binary: the IL's temps by name, CB0 and CB1 from
/// "constants", the buffers at their arena offsets (the arena starts at the lowest memory
/// range, rounded down to 64 KiB); the lone wave's global id is its lane.
#[test]
fn il_wave_runs_a_binarys_il() {
    let Some(file) = spliced_file("si/vector-add.bin", "vector_add", VECTOR_ADD_IL) else {
        return;
    };
    let base = 0x1_0000_0000u64;
    let hex = |w: &[u32]| -> String { bytes_of(w).iter().map(|b| format!("{b:02x}")).collect() };
    let a: Vec<u32> = (0..64).map(|i| 7 * i).collect();
    let b: Vec<u32> = (0..64).map(|i| 1 << (i % 32)).collect();
    let mut cb0 = vec![0u32; 60];
    cb0[4] = 64;
    let cb1 = [0x100, 0, 0, 0, 0x200, 0, 0, 0, 0x300, 0, 0, 0];
    let state = serde_json::json!({
        "memory": [
            {"address": base + 0x100, "bytes": hex(&a)},
            {"address": base + 0x200, "bytes": hex(&b)},
            {"address": base + 0x300, "bytes": hex(&[0; 64])},
        ],
        "constants": {"cb0": hex(&cb0), "cb1": hex(&cb1)},
    });
    let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    let state = cli_util::TempFile::new("il_state.json", state.to_string());
    for engine in ["jit", "interp"] {
        let out = cli_util::succeeds(&[
            "wave",
            &file,
            "--state",
            &state,
            "--encoding",
            "il",
            "--kernel",
            "vector_add",
            "--engine",
            engine,
        ]);
        let out: serde_json::Value = serde_json::from_str(&out).unwrap();
        let c = out["memory"][2]["bytes"].as_str().unwrap();
        let c: Vec<u8> = (0..c.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&c[i..i + 2], 16).unwrap())
            .collect();
        assert_eq!(words_of(&c), want, "{engine}");
        assert_eq!(cli_util::lanes(&out["vector"]["r2.x"]), want, "{engine}");
        assert!(out.get("fault").is_none(), "{out}");
    }
}

/// vector_add with src2 declared a `__constant` pointer of constant buffer 3 (its metadata
/// line rewritten in place, `uav:12` to `hc:003`): the IL reads its buffer as cb3, element
/// by element from the pointer's CB1 value (0).
const CONSTANT_IL: &str = "\
il_cs_2_0
dcl_cb cb0[15]
dcl_cb cb1[3]
dcl_cb cb3[64]
dcl_raw_uav_id(11)
dcl_literal l0, 0x00000002, 0x00000000, 0x00000000, 0x00000000
imad r0.x___, vThreadGrpId.x, cb0[1].x, vTidInGrp.x
iadd r0.x___, r0.x, cb0[6].x
ishl r1.x___, r0.x, l0.x
iadd r2.x___, r1.x, cb1[0].x
uav_raw_load_id(11) r3.x___, r2.x
iadd r4.x___, r0.x, cb1[1].x
mov r5, cb3[r4.x+0]
iadd r3.x___, r3.x, r5.y
iadd r2.x___, r1.x, cb1[2].x
uav_raw_store_id(11) mem.x___, r2.x, r3.x
end
";

/// A `__constant` pointer argument's buffer is the constant buffer its metadata names.
#[test]
fn il_constant_pointers_are_constant_buffers() {
    let Some(path) = corpus("si/vector-add.bin") else {
        return;
    };
    let (from, to): (&[u8], &[u8]) = (
        b"pointer:src2:i32:1:1:16:uav:12:4:RO:0:0",
        b"pointer:src2:i32:1:1:16:hc:003:4:RO:0:0",
    );
    let mut bytes = std::fs::read(path).unwrap();
    let mut found = 0;
    for i in 0..=bytes.len() - from.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + to.len()].copy_from_slice(to);
            found += 1;
        }
    }
    assert!(found > 0, "vector_add's metadata names src2");
    let file = cli_util::TempFile::new("const_ptr.bin", splice(&bytes, "vector_add", CONSTANT_IL));
    let info = cli_util::succeeds(&["info", &file]);
    assert!(info.contains("int* src2: constant pointer, cb3"), "{info}");
    let a: Vec<u32> = (0..64).map(|i| 5 * i + 1).collect();
    let c: Vec<[u32; 4]> = (0..64).map(|i| [0xdead, 1000 * i, 0xbeef, 7]).collect();
    let want: Vec<u32> = (0..64).map(|i| a[i] + c[i][1]).collect();
    let (fa, fc) = (
        cli_util::TempFile::new("const_a.bin", bytes_of(&a)),
        cli_util::TempFile::new("const_c.bin", bytes_of(&c.concat())),
    );
    let (sa, sc) = (format!("buf:{}", &*fa), format!("buf:{}", &*fc));
    let argv = [
        "--kernel",
        "vector_add",
        "--global",
        "64",
        "--local",
        "64",
        "--arg",
        &sa,
        "--arg",
        &sc,
        "--arg",
        "zero:256",
    ];
    for got in run_il(&file, &argv, 2) {
        assert_eq!(words_of(&got), want);
    }
}
