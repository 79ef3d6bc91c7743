//! AMD APP SDK OpenCL binaries for Southern Islands (../shared/corpora/amd-app-sdk/si, read in
//! place) run through the `amdapp` frontend in their ISA encoding under the driver's launch
//! ABI, on both engines: every corpus kernel against its host implementation
//! (tests/appsdk_kernels, which says where the expected outputs come from), and the command
//! line's `info`, `disasm`, `run` and its one-line refusals.

mod appsdk_kernels;
mod cli_util;

use appsdk_kernels::{bytes_of, corpus, words_of, Encoding};

/// One test per corpus kernel, in the ISA encoding.
macro_rules! isa_tests {
    ($($module:ident :: $kernel:ident),* $(,)?) => {
        $(
            #[test]
            fn $kernel() {
                appsdk_kernels::$module::$kernel(Encoding::Isa);
            }
        )*
    };
}
appsdk_kernels::every_kernel!(isa_tests);

/// The corpus file as a command-line argument, or `None` after saying it is absent.
fn corpus_arg(file: &str) -> Option<String> {
    corpus(file).map(|p| p.to_str().expect("a UTF-8 path").to_string())
}

/// The mnemonics of Multi2Sim's golden disassembly of si/vector-add.bin (m2s-client-kit
/// f580f07, local-tests/test-auto/si-asm-vector-add/test.out), in order.
const VECTOR_ADD_GOLDEN: [&str; 24] = [
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_load_dwordx4",
    "s_load_dwordx4",
    "s_load_dwordx4",
    "s_waitcnt",
    "s_min_u32",
    "v_mov_b32",
    "v_mul_i32_i24",
    "v_add_i32",
    "v_add_i32",
    "v_lshlrev_b32",
    "v_add_i32",
    "v_add_i32",
    "v_add_i32",
    "tbuffer_load_format_x",
    "tbuffer_load_format_x",
    "s_waitcnt",
    "v_add_i32",
    "tbuffer_store_format_x",
    "s_endpgm",
];

/// `info` names the kernel's arguments with their CB1 offsets and UAVs and its user
/// elements; `disasm` prints the ISA encoding in the GCN syntax, instruction for instruction
/// as Multi2Sim's golden listing.
#[test]
fn cli_info_and_disasm() {
    let Some(file) = corpus_arg("si/vector-add.bin") else {
        return;
    };
    let info = cli_util::succeeds(&["info", &file]);
    for line in [
        "target: tahiti (Southern Islands, GCN gfx6)",
        "kernel vector_add:",
        "user element PTR_UAV_TABLE[0] -> s[2:3]",
        "user element IMM_CONST_BUFFER[1] -> s[8:11]",
        "arg 1: cb1+16  4 bytes, int* src2: global pointer, uav 12",
        "arg 2: cb1+32  4 bytes, int* dst: global pointer, uav 10",
    ] {
        assert!(info.contains(line), "info lacks {line:?}:\n{info}");
    }
    let listing = cli_util::succeeds(&["disasm", &file, "--kernel", "vector_add"]);
    let mnemonics: Vec<&str> = listing
        .lines()
        .filter(|l| l.starts_with('\t'))
        .map(|l| l.trim().split(' ').next().unwrap_or(""))
        .map(|m| {
            m.strip_suffix("_e32")
                .or(m.strip_suffix("_e64"))
                .unwrap_or(m)
        })
        .collect();
    assert_eq!(mnemonics, VECTOR_ADD_GOLDEN, "{listing}");
    assert!(
        listing.contains("s_load_dwordx4 s[8:11], s[2:3], 0x58"),
        "{listing}"
    );
}

/// `run` from the command line: files in, `--save` out, exit 0; the SI and the Evergreen
/// builds of vector-add (`dst[i] = src1[i] + src2[i]`), on both engines.
#[test]
fn cli_run_vector_add() {
    let a: Vec<u32> = (0..256).collect();
    let b: Vec<u32> = (0..256).map(|i| 1000 * i + 7).collect();
    let (fa, fb) = (
        cli_util::TempFile::new("a.bin", bytes_of(&a)),
        cli_util::TempFile::new("b.bin", bytes_of(&b)),
    );
    let out = cli_util::temp_path("c.bin");
    let out_s = out.to_str().unwrap();
    for binary in ["si/vector-add.bin", "evergreen/vector-add.bin"] {
        let Some(file) = corpus_arg(binary) else {
            return;
        };
        for engine in ["jit", "interp"] {
            cli_util::succeeds(&[
                "run",
                &file,
                "--kernel",
                "vector_add",
                "--global",
                "256",
                "--local",
                "64",
                "--engine",
                engine,
                "--arg",
                &format!("buf:{}", &*fa),
                "--arg",
                &format!("buf:{}", &*fb),
                "--arg",
                "zero:1024",
                "--save",
                &format!("2:{out_s}"),
            ]);
            let got = words_of(&std::fs::read(&out).unwrap());
            std::fs::remove_file(&out).unwrap();
            let want: Vec<u32> = (0..256).map(|i| 1001 * i + 7).collect();
            assert_eq!(got, want, "{binary} {engine}");
        }
    }
}

/// Kernels taking images stop with one line naming the image argument.
#[test]
fn image_kernels_are_refused_naming_the_image() {
    for (file, kernel, arg) in [
        ("si/MatrixMulImage_Kernels.bin", "mmmKernel", "matrixA"),
        ("si/MatrixMulImage_Kernels.bin", "mmmKernel2", "matrixA"),
        ("si/MatrixMulImage_Kernels.bin", "mmmKernel3", "matrixA"),
        ("si/SimpleImage_Kernels.bin", "image2dCopy", "input"),
        ("si/SimpleImage_Kernels.bin", "image3dCopy", "input"),
    ] {
        let Some(file) = corpus_arg(file) else {
            return;
        };
        let line = cli_util::fails(&[
            "run", &file, "--kernel", kernel, "--global", "64", "--local", "64", "--arg",
            "zero:256", "--arg", "zero:256",
        ]);
        assert!(
            line.contains(&format!("kernel {kernel}: argument 0 ({arg}, "))
                && line.contains("is an image"),
            "{line}"
        );
    }
}

/// The IL encoding prints as IL text, which parses and encodes back to the binary's tokens.
#[test]
fn il_encoding_prints_as_il_text() {
    use wavejit::frontend::Module;
    use wavejit_amdil::appsdk::EncodingKind;
    let Some(path) = corpus("si/vector-add.bin") else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let module =
        wavejit::isa::amdapp::load_encoding(&bytes, EncodingKind::Il, None).expect("loads");
    let text = module.disassemble("vector_add").expect("prints");
    let program = wavejit_amdil::parse::parse(&text).expect("the IL text parses back");
    assert!(text.lines().any(|l| l == "il_cs_2_0"), "{text}");
    let binary = wavejit_amdil::appsdk::load(&bytes).unwrap();
    let tokens = &binary.kernel("vector_add").unwrap().il().unwrap().text;
    assert_eq!(
        &wavejit_amdil::encode::encode(&program).unwrap(),
        tokens,
        "the printed IL encodes back to the binary's tokens"
    );
}

/// matrix-mul from the command line with its two `__local` tiles given as `local:N`:
/// `C = A x A` (both tiles read A; see appsdk_kernels::ints::matrix_mul).
#[test]
fn cli_run_local_arguments() {
    let Some(file) = corpus_arg("si/matrix-mul.bin") else {
        return;
    };
    let (dim, ldim) = (20usize, 10usize);
    let a: Vec<u32> = (0..dim * dim).map(|i| (i * 7 % 23) as u32).collect();
    let mut want = vec![0u32; dim * dim];
    for row in 0..dim {
        for col in 0..dim {
            want[row * dim + col] = (0..dim)
                .map(|k| a[row * dim + k].wrapping_mul(a[k * dim + col]))
                .fold(0, u32::wrapping_add);
        }
    }
    let fa = cli_util::TempFile::new("mm_a.bin", bytes_of(&a));
    let out = cli_util::temp_path("mm_c.bin");
    let tile = format!("local:{}", 4 * ldim * ldim);
    let size = format!("{dim},{dim}");
    let group = format!("{ldim},{ldim}");
    for engine in ["jit", "interp"] {
        cli_util::succeeds(&[
            "run",
            &file,
            "--kernel",
            "matrix_mul",
            "--global",
            &size,
            "--local",
            &group,
            "--engine",
            engine,
            "--arg",
            &format!("buf:{}", &*fa),
            "--arg",
            &format!("buf:{}", &*fa),
            "--arg",
            &format!("zero:{}", 4 * dim * dim),
            "--arg",
            &tile,
            "--arg",
            &tile,
            "--save",
            &format!("2:{}", out.display()),
        ]);
        let got = words_of(&std::fs::read(&out).unwrap());
        std::fs::remove_file(&out).unwrap();
        assert_eq!(got, want, "{engine}");
    }
}

/// Launches the ABI cannot make stop with one line saying why.
#[test]
fn bad_launches_are_one_line_errors() {
    let (Some(add), Some(hist), Some(mc), Some(search), Some(mm)) = (
        corpus_arg("si/vector-add.bin"),
        corpus_arg("si/HistogramAtomics_Kernels.bin"),
        corpus_arg("si/MonteCarloAsian_Kernels.bin"),
        corpus_arg("si/BinarySearch_Kernels.bin"),
        corpus_arg("si/matrix-mul.bin"),
    ) else {
        return;
    };
    let run = |file: &str, kernel: &str, global: &str, local: &str, args: &[&str]| {
        let mut argv = vec![
            "run", file, "--kernel", kernel, "--global", global, "--local", local,
        ];
        for a in args {
            argv.extend(["--arg", a]);
        }
        cli_util::fails(&argv)
    };
    let z = "zero:256";
    for (line, want) in [
        (
            run(&add, "vector_add", "64", "64", &[z, z]),
            "takes 3 arguments (src1, src2, dst), got 2",
        ),
        (
            run(&add, "vector_add", "64", "64", &[z, z, "u32:1"]),
            "argument 2 (dst, int*) is a __global pointer: give a buffer",
        ),
        (
            run(&add, "vector_add", "64", "64", &[z, z, "local:256"]),
            "argument 2 (dst, int*) is a __global pointer: give a buffer",
        ),
        (
            run(
                &search,
                "binarySearch",
                "64",
                "64",
                &[z, z, "local:4", z, z, z],
            ),
            "argument 2 (findMe, uint) is a value of 4 bytes, not a __local pointer",
        ),
        (
            run(
                &mm,
                "matrix_mul",
                "20,20",
                "10,10",
                &[z, z, z, "local:400", "local:40000"],
            ),
            "exceed the 32768 bytes of a work-group",
        ),
        (
            run(
                &add,
                "vector_add",
                "64",
                "64",
                &[z, z, "struct:/nonexistent.bin"],
            ),
            "/nonexistent.bin",
        ),
        (
            run(&add, "vector_add", "100", "64", &[z, z, z]),
            "is not a multiple of local size",
        ),
        (
            run(&add, "vector_add", "512", "512", &[z, z, z]),
            "at most 256 (NUM_THREAD_PER_GROUP)",
        ),
        (
            run(&add, "vectorAdd", "64", "64", &[z, z, z]),
            "kernel vectorAdd not found",
        ),
        (
            run(&hist, "histogramKernel", "128", "128", &[z, z, "u32:1"]),
            "requires work-group size [256, 1, 1]",
        ),
        (
            run(
                &mc,
                "calPriceVega",
                "64",
                "64",
                &["zero:100", "i32:2", "i32:64", z, z, z],
            ),
            "argument 0 (attrib, MonteCarloAttrib) is 112 bytes; the value given is 100 bytes",
        ),
    ] {
        assert!(line.contains(want), "{line:?} lacks {want:?}");
    }
}

/// `disasm` prints the image kernels' MIMG instructions (they only refuse to run). The
/// expected lines were checked with LLVM 14 on the same bytes: `llvm-mc -mcpu=tahiti
/// -show-encoding` assembles each to the 8 bytes the kernel holds (e.g. image2dCopy's sample
/// is 00 1f 80 f0 02 02 24 00), and `llvm-mc -mcpu=tonga --disassemble` (which shares these
/// opcodes; LLVM 14 cannot disassemble gfx6) prints those bytes as the same text.
#[test]
fn cli_disasm_prints_image_instructions() {
    for (file, kernel, samples, stores, lines) in [
        (
            "si/SimpleImage_Kernels.bin",
            "image2dCopy",
            1,
            1,
            [
                "image_sample v[2:5], v2, s[16:23], s[4:7] dmask:0xf unorm",
                "image_store v[2:5], v0, s[0:7] dmask:0xf unorm glc",
            ],
        ),
        (
            "si/SimpleImage_Kernels.bin",
            "image3dCopy",
            2,
            1,
            [
                "image_sample v[4:7], v8, s[20:27], s[4:7] dmask:0xf unorm",
                "image_sample v[8:11], v8, s[20:27], s[4:7] dmask:0xf unorm",
            ],
        ),
        (
            "si/MatrixMulImage_Kernels.bin",
            "mmmKernel",
            8,
            4,
            [
                "image_sample v[27:30], v10, s[12:19], s[4:7] dmask:0xf unorm",
                "image_store v[62:65], v21, s[0:7] dmask:0xf unorm glc",
            ],
        ),
        (
            "si/MatrixMulImage_Kernels.bin",
            "mmmKernel2",
            12,
            8,
            [
                "image_sample v[51:54], v19, s[12:19], s[4:7] dmask:0xf unorm",
                "image_store v[104:107], v22, s[0:7] dmask:0xf unorm glc",
            ],
        ),
        (
            "si/MatrixMulImage_Kernels.bin",
            "mmmKernel3",
            24,
            8,
            [
                "image_sample v[14:17], v13, s[16:23], s[4:7] dmask:0xf unorm",
                "image_store v[9:12], v41, s[0:7] dmask:0xf unorm glc",
            ],
        ),
    ] {
        let Some(file) = corpus_arg(file) else {
            return;
        };
        let listing = cli_util::succeeds(&["disasm", &file, "--kernel", kernel]);
        let count = |m: &str| {
            listing
                .lines()
                .filter(|l| l.trim_start().starts_with(m))
                .count()
        };
        assert_eq!(
            (count("image_sample "), count("image_store ")),
            (samples, stores),
            "{kernel}:\n{listing}"
        );
        for line in lines {
            assert!(
                listing.lines().any(|l| l == format!("\t{line}")),
                "{kernel} lacks {line:?}:\n{listing}"
            );
        }
        assert!(listing.trim_end().ends_with("s_endpgm"), "{kernel}");
    }
}
