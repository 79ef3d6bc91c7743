//! The programs of the tests, assembled: tests/programs/r5xx/NAME.s through
//! `wavejit_r5xx::parse` into a CTM ELF (`elf::write_elf`) whose program info a
//! `# proginfo: WORD...` comment line of the text asks for (`full_fc`, `exports_cond`; the
//! program runs from slot 0 to its last slot) and whose notes list the inputs, outputs and
//! constants its slots name.

use super::programs_dir;
use wavejit_r5xx::elf::{write_elf, Notes};
use wavejit_r5xx::inst::{Body, Inst, Src};
use wavejit_r5xx::setup::ProgInfo;
use wavejit_r5xx::table::{FcOp, TexOp};

/// A program assembled for a test.
pub struct Program {
    pub words: Vec<u32>,
    pub info: ProgInfo,
    /// The slots a SIMD group executes when the program has no flow control (for the perf
    /// counters).
    pub straight: Option<u64>,
}

/// Assembles tests/programs/r5xx/NAME.s.
pub fn assemble(name: &str) -> (Program, Vec<u8>) {
    let path = programs_dir().join(format!("{name}.s"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let insts = wavejit_r5xx::parse::parse_program(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let words = wavejit_r5xx::encode::encode_words(&insts);
    let words_of_info: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# proginfo:"))
        .flat_map(str::split_whitespace)
        .collect();
    for w in &words_of_info {
        assert!(
            ["full_fc", "exports_cond"].contains(w),
            "{name}.s: unknown proginfo word `{w}`"
        );
    }
    let info = ProgInfo {
        exports_cond: words_of_info.contains(&"exports_cond"),
        full_fc: words_of_info.contains(&"full_fc"),
        pixsize: largest_temp(&insts),
        start: 0,
        end: insts.len() as u32 - 1,
        ..ProgInfo::default()
    };
    let notes = notes(&insts, info.exports_cond);
    let elf = write_elf(&words, &info, &notes);
    let has_fc = insts.iter().any(|i| matches!(i.body, Body::Fc(_)));
    let program = Program {
        words,
        info,
        straight: (!has_fc).then_some(insts.len() as u64),
    };
    (program, elf)
}

/// US_PIXSIZE: the largest temporary a slot names.
fn largest_temp(insts: &[Inst]) -> u32 {
    let mut top = 0u8;
    for inst in insts {
        match &inst.body {
            Body::Alu(a) | Body::Output(a) => {
                for s in a.rgb_src.iter().chain(&a.alpha_src) {
                    if let Src::Temp { index, .. } = s {
                        top = top.max(*index);
                    }
                }
                top = top.max(a.rgb_dest.addr).max(a.alpha_dest.addr);
            }
            Body::Tex(t) => top = top.max(t.src.addr).max(t.dst.addr),
            Body::Fc(_) => {}
        }
    }
    u32::from(top)
}

/// The notes of a program: the inputs, outputs and constants its slots name.
fn notes(insts: &[Inst], cond_out: bool) -> Notes {
    let mut n = Notes {
        cond_out,
        ..Notes::default()
    };
    let add = |v: &mut Vec<u32>, x: u32| {
        if !v.contains(&x) {
            v.push(x)
        }
    };
    for inst in insts {
        match &inst.body {
            Body::Tex(t) if t.op != TexOp::Nop && t.op != TexOp::Texkill => {
                add(&mut n.inputs, u32::from(t.id))
            }
            Body::Output(a) => {
                if inst.cmn.rgb_omask != 0 {
                    add(&mut n.outputs, u32::from(a.rgb_target));
                }
                if inst.cmn.alpha_omask {
                    add(&mut n.outputs, u32::from(a.alpha_target));
                }
            }
            Body::Fc(f) if matches!(f.op, FcOp::Loop | FcOp::Rep) => {
                add(&mut n.int32_consts, u32::from(f.int_addr))
            }
            _ => {}
        }
        if let Some(a) = inst.alu() {
            for s in a.rgb_src.iter().chain(&a.alpha_src) {
                if let Src::Const { index, .. } = s {
                    add(&mut n.float32_consts, u32::from(*index));
                }
            }
        }
    }
    n
}

/// The programs of these tests (tests/programs/r5xx holds others too).
pub const PROGRAMS: [&str; 11] = [
    "elementwise",
    "matrix_multiply",
    "escape_time",
    "loops",
    "branches",
    "cond_plain",
    "cond_w",
    "tiled",
    "formats",
    "subroutine",
    "derivatives",
];

/// Every program of [`PROGRAMS`] assembles, and its CTM ELF loads back to the same words and
/// program info.
pub fn assemble_all() {
    for name in PROGRAMS {
        let (prog, elf) = assemble(name);
        let back = wavejit_r5xx::elf::load(&elf).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.words, prog.words, "{name}");
        assert_eq!(back.info, prog.info, "{name}");
    }
}
