//! All 35 binaries of the AMD APP SDK corpus load, and every kernel kernels.tsv lists (an
//! independent listing, made with other parsers: amd_appsdk_binaries.md [OBS]) is found with
//! the arguments, user elements and resources it gives, field by field. The places where the
//! listing and the loader legitimately differ are listed, each with its reason, and asserted
//! to be exactly those.

mod appsdk_common;

use appsdk_common::{corpus, dwords, kernels_tsv, read, sha1_hex, Row};
use std::collections::BTreeSet;
use wavejit_amdil::appsdk::metadata::{AddressSpace, ArgKind, ValueType};
use wavejit_amdil::appsdk::notes::ConstKind;
use wavejit_amdil::appsdk::proginfo::{EvergreenProgramInfo, SiProgramInfo};
use wavejit_amdil::appsdk::{
    self, Binary, Chip, DataClass, EncodingKind, Kernel, ProgramInfo, UserElement,
};

fn load(path: &str) -> Binary {
    appsdk::load(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn si(k: &Kernel) -> &SiProgramInfo {
    match &k.program {
        ProgramInfo::Si(p) => p,
        other => panic!("{}: {other:?}", k.name),
    }
}

fn evergreen(k: &Kernel) -> &EvergreenProgramInfo {
    match &k.program {
        ProgramInfo::Evergreen(p) => p,
        other => panic!("{}: {other:?}", k.name),
    }
}

/// Every binary loads, with the chip of its folder, an IL and an ISA encoding per kernel with
/// the machines §2.4 observed (Tahiti 25/26, Cypress 10/9), in that dictionary order, a 4736-
/// byte `.data`, the header `{0,0,0,hwlocal,0,1,0,0}` (§2.3) and the compiler's `.comment`.
#[test]
fn all_35_binaries_load() {
    let Some(files) = corpus() else { return };
    assert_eq!(
        files.len(),
        35,
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let mut kernels = 0;
    for (path, bytes) in &files {
        let b = appsdk::load(bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (chip, il, isa) = if path.starts_with("si/") {
            (Chip::Tahiti, 25, 26)
        } else {
            (Chip::Cypress, 10, 9)
        };
        assert_eq!(b.chip, chip, "{path}");
        assert!(
            b.comment
                .ends_with("@(#) OpenCL 1.1 AMD-APP (923.1).  Driver version: CAL 1.4.1720"),
            "{path}: {:?}",
            b.comment
        );
        assert!(b.comment.starts_with(&b.compile_options), "{path}");
        for k in &b.kernels {
            kernels += 1;
            let id = format!("{path} {}", k.name);
            let machines: Vec<u32> = k.image.dictionary.iter().map(|e| e.machine).collect();
            assert_eq!(machines, [il, isa], "{id}");
            assert!(k.image.dictionary.iter().all(|e| e.d_type == 4), "{id}");
            let il_enc = k.il().unwrap_or_else(|| panic!("{id}: no IL"));
            assert_eq!(
                (il_enc.kind, k.isa().kind),
                (EncodingKind::Il, EncodingKind::Isa)
            );
            assert_eq!((il_enc.entry.machine, k.isa().entry.machine), (il, isa));
            // §2.4: the IL encoding's PROGINFO is empty; the ISA's is not.
            assert!(il_enc.notes.prog_info.is_empty(), "{id}");
            assert!(!k.isa().notes.prog_info.is_empty(), "{id}");
            for e in [il_enc, k.isa()] {
                assert_eq!(e.data.len(), 4736, "{id}");
            }
            let hwlocal = k.metadata.memory.hw_local;
            assert_eq!(k.header, [0, 0, 0, hwlocal, 0, 1, 0, 0], "{id}");
            assert_eq!(k.metadata.device.as_deref(), Some(chip.name()), "{id}");
            assert_eq!(k.metadata.version, Some([3, 1, 104]), "{id}");
        }
    }
    // 54 in the 31 sample files, 2 in si/{vector-add,matrix-mul}.bin, 2 Evergreen.
    assert_eq!(kernels, 58);
}

/// The columns of kernels.tsv, compared with the loaded kernels (the ISA-derived columns are
/// compared in appsdk_isa.rs).
#[test]
fn kernels_tsv_agrees_field_by_field() {
    let (Some(_), Some(rows)) = (corpus(), kernels_tsv()) else {
        return;
    };
    assert_eq!(rows.len(), 54);
    let mut disagreements: BTreeSet<String> = BTreeSet::new();
    let mut listed: BTreeSet<(String, String)> = BTreeSet::new();
    for row in &rows {
        let path = row.path();
        let bytes = read(&path);
        let id = row.id();
        assert_eq!(
            sha1_hex(&bytes),
            row.get("sha1"),
            "{id}: not the file kernels.tsv lists"
        );
        let b = appsdk::load(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let k = b
            .kernel(row.get("kernel"))
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        listed.insert((path.clone(), k.name.clone()));
        compare(row, &b, k, &mut disagreements);
    }
    // Conversely, the 31 sample files hold no kernel the listing lacks.
    let mut found = BTreeSet::new();
    for row in &rows {
        for k in &load(&row.path()).kernels {
            found.insert((row.path(), k.name.clone()));
        }
    }
    assert_eq!(found, listed);

    // Where the listing and the loader differ, and why:
    // - "sampler in args": the listing puts the kernel's constant sampler (`sampler:…:1:22`,
    //   LOCATION 1) among the arguments; it is not a parameter (no reflection line, not
    //   counted in the listing's own n_args), so the loader keeps it in `samplers`.
    // - "class17 annotation": the listing writes data class 17 as
    //   `PTR_RESOURCE_TABLE(class17)`; CLRX's name is PTR_RESOURCE_TABLE.
    let expected: BTreeSet<String> = [
        "MatrixMulImage/mmmKernel: sampler in args",
        "MatrixMulImage/mmmKernel2: sampler in args",
        "MatrixMulImage/mmmKernel3: sampler in args",
        "SimpleImage/image2dCopy: sampler in args",
        "SimpleImage/image3dCopy: sampler in args",
        "MatrixMulImage/mmmKernel: class17 annotation",
        "MatrixMulImage/mmmKernel2: class17 annotation",
        "MatrixMulImage/mmmKernel3: class17 annotation",
        "SimpleImage/image2dCopy: class17 annotation",
        "SimpleImage/image3dCopy: class17 annotation",
    ]
    .map(String::from)
    .into();
    assert_eq!(disagreements, expected);
}

/// `NAME[slot]->s[a:b]`, the listing's spelling of a user element.
fn user_element(e: &UserElement) -> String {
    format!(
        "{}[{}]->s[{}:{}]",
        e.data_class.name(),
        e.api_slot,
        e.start_reg,
        e.start_reg + e.reg_count - 1
    )
}

fn flag(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

fn compare(row: &Row, b: &Binary, k: &Kernel, disagreements: &mut BTreeSet<String>) {
    let id = row.id();
    let md = &k.metadata;
    let p = si(k);

    assert_eq!(row.get("n_args"), md.args.len().to_string(), "{id}");

    // args: the listing's lines are ours, followed by the kernel's constant samplers.
    let listed: Vec<&str> = row
        .get("args(metadata, \";\"-separated)")
        .split(" ; ")
        .collect();
    let ours: Vec<String> = md.args.iter().map(|a| a.line.clone()).collect();
    let constant_samplers: Vec<String> = md
        .samplers
        .iter()
        .filter(|s| s.in_kernel)
        .map(|s| format!("sampler:{}:{}:1:{}", s.name, s.id, s.value))
        .collect();
    if constant_samplers.is_empty() {
        assert_eq!(listed, ours, "{id}");
    } else {
        let all: Vec<String> = ours.iter().chain(&constant_samplers).cloned().collect();
        assert_eq!(listed, all, "{id}");
        disagreements.insert(format!("{id}: sampler in args"));
    }

    let images = md.args.iter().any(|a| matches!(a.kind, ArgKind::Image(_)));
    assert_eq!(row.get("images"), flag(images), "{id}");
    assert_eq!(row.get("samplers"), flag(!md.samplers.is_empty()), "{id}");
    assert_eq!(
        row.get("runnable_no_tex"),
        if images { "no" } else { "yes" },
        "{id}"
    );
    assert_eq!(
        row.get("static_lds_bytes"),
        md.memory.hw_local.to_string(),
        "{id}"
    );
    let locals = md
        .args
        .iter()
        .filter(|a| matches!(&a.kind, ArgKind::Pointer(p) if p.space == AddressSpace::Local))
        .count();
    assert_eq!(row.get("local_ptr_args"), locals.to_string(), "{id}");
    assert_eq!(
        row.get("local_ptr_args"),
        md.args
            .iter()
            .filter(|a| a.kind_name() == "local")
            .count()
            .to_string()
    );

    // cb2_used: the notes declare CB2 and a user element reaches it (CB2's descriptor, or the
    // constant-buffer table). BoxFilter's box_filter* kernels declare CB2 without reaching it.
    let declares_cb2 = k.isa().notes.constant_buffer(2).is_some();
    let reaches_cb2 = p.user_elements.iter().any(|e| {
        (e.data_class == DataClass::ImmConstBuffer && e.api_slot == 2)
            || e.data_class == DataClass::PtrConstBufferTable
    });
    assert_eq!(
        row.get("cb2_used"),
        flag(declares_cb2 && reaches_cb2),
        "{id}"
    );
    if declares_cb2 {
        let global = b.global(2).unwrap_or_else(|| panic!("{id}: no CB2 data"));
        assert_eq!(
            Some(global.bytes.len().div_ceil(16) as u32),
            k.isa().notes.constant_buffer(2),
            "{id}: CB2's size in the notes"
        );
        assert!(md.memory.data_reqd, "{id}");
    }

    let ours: Vec<String> = p.user_elements.iter().map(user_element).collect();
    let listed: Vec<String> = row
        .get("user_elements")
        .split(", ")
        .map(String::from)
        .collect();
    let unannotated: Vec<String> = listed.iter().map(|e| e.replace("(class17)", "")).collect();
    assert_eq!(unannotated, ours, "{id}");
    if unannotated != listed {
        assert!(p
            .user_elements
            .iter()
            .any(|e| e.data_class == DataClass::PtrResourceTable));
        disagreements.insert(format!("{id}: class17 annotation"));
    }

    assert_eq!(
        row.get("pgm_rsrc2"),
        format!("{:#x}", p.pgm_rsrc2.0),
        "{id}"
    );
    assert_eq!(row.get("vgprs"), p.num_vgprs.to_string(), "{id}");
    assert_eq!(row.get("sgprs"), p.num_sgprs.to_string(), "{id}");
}

/// Values amd_appsdk_binaries.md quotes from particular files.
#[test]
fn values_the_notes_quote() {
    if corpus().is_none() {
        return;
    }
    // §2.1: BoxFilter's 7 kernels sit at .text+0, +20024, +50056, …
    let b = load("si/BoxFilter_Kernels.bin");
    let offsets: Vec<u32> = b.kernels.iter().map(|k| k.text_offset).collect();
    assert_eq!(offsets[..3], [0, 20024, 50056]);
    assert_eq!(b.kernels.len(), 7);

    // §2.1, §2.5: BlackScholes' __OpenCL_2_global is 1568 B = 98 vec4, and its
    // CONSTANT_BUFFERS note is {2,0x62},{1,4},{0,15}.
    let b = load("si/BlackScholes_Kernels.bin");
    assert_eq!(b.globals.len(), 1);
    assert_eq!((b.globals[0].cb, b.globals[0].bytes.len()), (2, 1568));
    let cbs: Vec<(u32, u32)> = b.kernels[0]
        .isa()
        .notes
        .constant_buffers
        .iter()
        .map(|c| (c.cb, c.vec4s))
        .collect();
    assert_eq!(cbs, [(2, 0x62), (1, 4), (0, 15)]);

    // §2.5: vector_add's CONSTANT_BUFFERS {1,3},{0,15}; SI buffers' UAV entries {id,4,0,5}.
    let b = load("si/vector-add.bin");
    let k = b.kernel("vector_add").unwrap();
    let notes = &k.isa().notes;
    let cbs: Vec<(u32, u32)> = notes
        .constant_buffers
        .iter()
        .map(|c| (c.cb, c.vec4s))
        .collect();
    assert_eq!(cbs, [(1, 3), (0, 15)]);
    assert!(notes.uavs.iter().all(|u| (u.f1, u.f2, u.kind) == (4, 0, 5)));
    // UAV_OP_MASK: UAVs 10, 11 and 12 (0x1C00), the same as UAV_RESOURCE_MASK_0.
    assert_eq!(notes.uav_op_mask[0], 0x1C00);
    assert!(notes.uav_used(10) && notes.uav_used(12) && !notes.uav_used(9));
    assert_eq!(notes.prog_info(0x8000_1843), Some(0x1C00));
    // §2.6: FLOAT_MODE 0xC0, IEEE 0, scratch 0, wavefront 64, 32 KiB LDS available.
    let p = si(k);
    assert_eq!((p.float_mode, p.ieee_mode, p.scratch_size), (0xC0, 0, 0));
    assert_eq!(notes.prog_info(0x8000_0078), Some(64));
    assert_eq!(notes.prog_info(0x8000_0081), Some(32768));
    assert_eq!(p.threads_per_group, Some([256, 0, 0]));

    // §2.3: hwlocal in the header: FFT 8704, HistogramAtomics 16384, URNG 4096.
    for (path, kernel, hwlocal) in [
        ("si/FFT_Kernels.bin", "kfft", 8704),
        ("si/HistogramAtomics_Kernels.bin", "histogramKernel", 16384),
        ("si/URNG_Kernels.bin", "noise_uniform", 4096),
    ] {
        let b = load(path);
        assert_eq!(b.kernel(kernel).unwrap().header[3], hwlocal, "{path}");
    }
    // §2.6: the cws values in NUM_THREAD_PER_GROUP (HistogramAtomics: cws 256,1,1).
    let b = load("si/HistogramAtomics_Kernels.bin");
    let k = b.kernel("histogramKernel").unwrap();
    assert_eq!(k.metadata.cws, Some([256, 1, 1]));
    assert_eq!(si(k).threads_per_group, Some([256, 1, 1]));

    // §2.2: `value:attrib:struct:112:1:0` is followed by the next argument at 112.
    let b = load("si/MonteCarloAsian_Kernels.bin");
    let args = &b.kernels[0].metadata.args;
    assert_eq!(args[0].kind, ArgKind::Struct { size: 112 });
    assert_eq!((args[0].size, args[1].slot.offset), (112, 112));
    assert_eq!(
        args[1].kind,
        ArgKind::Value {
            ty: ValueType::I32,
            width: 1
        }
    );
    // §2.2: SimpleConvolution's uint2 values, BinarySearch's sortedArray `const`.
    let b = load("si/SimpleConvolution_Kernels.bin");
    let a = b.kernels[0].metadata.arg("inputDimensions").unwrap();
    assert_eq!(
        (&a.kind, a.size, a.cl_type.as_str()),
        (
            &ArgKind::Value {
                ty: ValueType::U32,
                width: 2
            },
            8,
            "uint2"
        )
    );
    let b = load("si/BinarySearch_Kernels.bin");
    let args = &b.kernels[0].metadata.args;
    let consts: Vec<&str> = args
        .iter()
        .filter(|a| a.is_const)
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(consts, ["sortedArray"]);
    assert_eq!(args[0].cl_type, "uint4*");
    assert_eq!(args[0].size, 4);
    match &args[0].kind {
        ArgKind::Pointer(p) => {
            assert_eq!(
                (p.space, p.resource_id, p.elem_size),
                (AddressSpace::Global, 10, 16)
            );
            assert_eq!(p.pointee, "u32");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(b.kernels[0].metadata.private_id, Some(8));

    // §2.2: the constant sampler 22 = unnormalized, clamp, nearest; images take 32 B.
    let b = load("si/MatrixMulImage_Kernels.bin");
    let md = &b.kernels[0].metadata;
    assert_eq!(md.samplers.len(), 1);
    let s = &md.samplers[0];
    assert_eq!(
        (s.name.as_str(), s.id, s.in_kernel, s.value),
        ("unknown_22", 0, true, 22)
    );
    let kinds: Vec<&str> = md.args.iter().map(|a| a.kind_name()).collect();
    assert_eq!(kinds, ["image", "image", "image", "value", "value"]);
    assert_eq!(md.args[2].size, 32);
    assert_eq!(md.args[3].slot.offset, 96);
}

/// The Evergreen files: Cypress PROGINFO (§2.6), the INT32CONSTS entry of matrix-mul (§2.5,
/// §2.7), the metadata's uavid 11 and hwprivate (§2.2).
#[test]
fn evergreen_binaries() {
    if corpus().is_none() {
        return;
    }
    let b = load("evergreen/matrix-mul.bin");
    let k = b.kernel("matrix_mul").unwrap();
    let p = evergreen(k);
    assert_eq!(p.sq_pgm_resources, 0x3000_0307);
    assert_eq!((p.num_gprs, p.stack_size), (7, 3));
    assert_eq!(k.isa().notes.prog_info(0x8000_0080), Some(7));
    assert_eq!(k.isa().notes.prog_info(0x8000_0084), Some(3));
    assert_eq!(p.compute_input_cntl, 7);
    assert_eq!(p.lds_size_used, Some(0x2000));
    assert_eq!(
        (p.num_global_uav, p.rat_op_is_used),
        (Some(12), Some(0x800))
    );
    assert_eq!(p.cached_fetch_const[11], Some(153));
    assert_eq!(p.uncached_fetch_const[11], Some(173));
    assert_eq!(
        p.cached_fetch_const[..8],
        [144, 145, 146, 148, 149, 150, 151, 152].map(Some)
    );
    assert_eq!(k.isa().notes.prog_info(0x8000_009B), Some(174));
    assert_eq!(k.isa().notes.prog_info(0x8000_00AB), Some(175));
    let ranges: Vec<(u32, u32)> = k
        .isa()
        .notes
        .int32_consts
        .iter()
        .map(|r| (r.index, r.size))
        .collect();
    assert_eq!(ranges, [(0, 16)]);
    assert_eq!(k.isa().constants.len(), 1);
    let c = &k.isa().constants[0];
    assert_eq!((c.kind, c.index), (ConstKind::Int, 0));
    assert_eq!(dwords(&c.bytes)[0], 0xFFFF_FFFF);
    assert_eq!(dwords(&k.isa().data[4096..4100])[0], 0xFFFF_FFFF);
    let uavs: Vec<(u32, u32, u32, u32)> = k
        .isa()
        .notes
        .uavs
        .iter()
        .map(|u| (u.id, u.f1, u.f2, u.kind))
        .collect();
    assert_eq!(uavs, [(11, 0, 0, 5), (8, 3, 0, 5)]);
    let md = &k.metadata;
    assert_eq!((md.uav_id, md.private_id), (Some(11), Some(1)));
    assert_eq!(
        (md.memory.hw_private, md.memory.uav_private),
        (Some(0), None)
    );
    let locals = md.args.iter().filter(|a| a.kind_name() == "local").count();
    assert_eq!((md.args.len(), locals), (5, 2));

    let b = load("evergreen/vector-add.bin");
    let k = b.kernel("vector_add").unwrap();
    assert_eq!(k.metadata.args.len(), 3);
    assert!(k.isa().constants.is_empty());
    assert!(matches!(k.program, ProgramInfo::Evergreen(_)));
}

/// Every SI kernel of the corpus: the user elements lie inside USER_SGPR, the SI PROGINFO
/// constants of §2.6 hold, and `.data` is all zero (§2.7).
#[test]
fn si_invariants_across_the_corpus() {
    let Some(files) = corpus() else { return };
    for (path, bytes) in files.iter().filter(|f| f.0.starts_with("si/")) {
        let b = appsdk::load(bytes).unwrap();
        for k in &b.kernels {
            let id = format!("{path} {}", k.name);
            let p = si(k);
            let notes = &k.isa().notes;
            assert!(p.user_elements.len() <= 16, "{id}");
            for e in &p.user_elements {
                assert!(e.start_reg + e.reg_count <= p.pgm_rsrc2.user_sgpr(), "{id}");
            }
            assert_eq!(
                (p.float_mode, p.ieee_mode, p.scratch_size),
                (0xC0, 0, 0),
                "{id}"
            );
            assert_eq!(notes.scratch_dwords, Some(0), "{id}");
            assert!(!p.pgm_rsrc2.scratch_en(), "{id}");
            assert_eq!(notes.prog_info(0x8000_1863), Some(102), "{id}");
            assert_eq!(notes.prog_info(0x8000_1864), Some(256), "{id}");
            assert_eq!(p.lds_size_used, Some(p.pgm_rsrc2.lds_bytes()), "{id}");
            assert!(k.isa().data.iter().all(|&b| b == 0), "{id}");
            assert!(k.isa().constants.is_empty(), "{id}");
        }
    }
}
