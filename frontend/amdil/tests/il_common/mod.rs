//! What the IL tests share: a representative instruction for every table row, programs around
//! instructions, the hand-written IL text programs, and the seed's path.
#![allow(dead_code)]

pub mod programs;

use std::path::PathBuf;
use wavejit_amdil::decode::operand_counts;
use wavejit_amdil::inst::{Dim2, Dst, Index, Inst, Program, Reg, Src};
use wavejit_amdil::table::{self, op, Form, Kind, Radix, Row, TEX_AOFFSET_BIT, TEX_EXT_BIT};
use wavejit_amdil::token::{DstComp, DstMod, RegType, Sel, SrcMod, Version};

/// IL 2.0 compute (`il_cs_2_0`).
pub const CS_2_0: Version = Version {
    major: 2,
    minor: 0,
    shader: Version::COMPUTE,
    multipass: false,
    realtime: false,
};

/// A compute program of `code` then `end`.
pub fn program(code: Vec<Inst>) -> Program {
    let mut code = code;
    code.push(Inst::new(op::END));
    Program {
        macros: Vec::new(),
        lang: 0,
        version: CS_2_0,
        code,
    }
}

/// The program that holds a row's sample: macro rows as a macro block, `end` alone.
pub fn row_program(inst: Inst) -> Program {
    match inst.op {
        op::MACRODEF | op::MACROEND => {
            let (def, end) = if inst.op == op::MACRODEF {
                (inst, Inst::new(op::MACROEND))
            } else {
                (sample(table::row(op::MACRODEF).unwrap(), false), inst)
            };
            let mut p = program(Vec::new());
            p.macros = vec![def, mov(), end];
            p.lang = 12;
            p
        }
        op::END => program(Vec::new()),
        _ => program(vec![inst]),
    }
}

fn mov() -> Inst {
    let mut m = Inst::new(71);
    m.dst.push(Dst {
        reg: Reg::new(RegType::OUTPUT_ARG, 0),
        modifier: None,
    });
    m.src.push(Src::reg(RegType::INPUT_ARG, 1));
    m
}

/// The sample of every instruction row: plain (fields zero, plain registers) and full (every
/// field, modifier dword, texture dword, operand modifier and index form the row allows).
pub fn samples() -> Vec<(&'static Row, Inst)> {
    table::rows()
        .iter()
        .filter(|r| r.is_instruction())
        .flat_map(|r| [(r, sample(r, false)), (r, sample(r, true))])
        .collect()
}

pub fn sample(row: &Row, full: bool) -> Inst {
    let mut inst = Inst::new(row.value);
    for (k, f) in row.fields.iter().enumerate() {
        let max = (1u32 << f.width) - 1;
        let v = match f.kind {
            Kind::Count => {
                if full {
                    3
                } else {
                    1
                }
            }
            _ if !full => 0,
            Kind::Flag => 1,
            Kind::Num | Kind::Opt | Kind::Paren | Kind::Arg => (3 + 7 * k as u32).min(max),
            Kind::Words(e) => (1 << e.len().min(usize::from(f.width))) - 1,
            _ => (f.names().unwrap().len() as u32 - 1).min(max),
        };
        inst.control = f.set(inst.control, v as u16);
    }
    if full && row.takes_pri() && row.form != Form::ConstBuffer {
        inst.pri = Some(0x1234);
    }
    if full && row.takes_sec() {
        inst.sec = Some(5);
    }
    if row.form == Form::Texture && full {
        inst.control |= TEX_AOFFSET_BIT;
        if inst.control & TEX_EXT_BIT != 0 {
            inst.pre.push(9);
        }
        inst.pre.push(0x00fe_0302);
    }
    match row.form {
        Form::Tail(n, radix) => {
            inst.extra = (0..u32::from(n))
                .map(|i| match radix {
                    Radix::Hex => 0x3f80_0000 + i,
                    Radix::Int => (i as i32 - 5) as u32,
                    Radix::Dec => 1024 + i,
                })
                .collect()
        }
        Form::Named(names) => inst.extra = (0..names.len() as u32).map(|i| 4 + 4 * i).collect(),
        Form::Dims => inst.extra = if full { vec![64, 2, 1] } else { vec![256] },
        Form::Comment => {
            let bytes: &[u8] = if full {
                b" ABI data\\ x\x00\x38\xc3\xc8"
            } else {
                b" Constant buffer that holds ABI data\x00\x00\x00\x00"
            };
            inst.extra = bytes
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
        }
        Form::ConstBuffer if full => {
            inst.pri = Some(3);
            inst.extra = vec![0x3f80_0000, 0x4000_0000, 0xbf80_0000];
        }
        Form::MacroDef => inst.extra = vec![if full { 0x0001_0302 } else { 0x0102 }],
        Form::FunctionTable => inst.extra = if full { vec![0, 3, 7] } else { Vec::new() },
        Form::InterfacePtr => {
            inst.extra = vec![1, 2];
            if full {
                inst.extra.extend([0, 1, 2]);
            }
        }
        Form::Resource => {
            inst.extra = vec![[5u32, 4, 3, 2]
                .iter()
                .enumerate()
                .fold(0, |w, (i, f)| w | f << (20 + 3 * i))]
        }
        Form::Prefix => inst.control = if full { 0b0101 } else { 0xf },
        _ => {}
    }
    let (dsts, srcs) = if row.form == Form::MacroCall {
        (2, 3)
    } else {
        operand_counts(row, inst.control, inst.pri)
    };
    for i in 0..dsts {
        inst.dst.push(dst(
            i + usize::from(row.value),
            full && row.form != Form::MacroCall,
        ));
    }
    for i in 0..srcs {
        inst.src.push(if full {
            full_src(i + row.value as usize)
        } else {
            Src::reg(RegType::TEMP, 2 + i as u32)
        });
    }
    inst
}

fn dst(i: usize, full: bool) -> Dst {
    if !full {
        return Dst {
            reg: Reg::new(RegType::TEMP, 1 + i as u32),
            modifier: None,
        };
    }
    let mut reg = Reg::new(RegType::TEMP, 1000 + (i % 7) as u32);
    if i % 3 == 1 {
        reg = Reg::new(RegType::ITEMP, 3);
        reg.index = Index::Rel(Box::new(replicated(RegType::TEMP, 0, Sel::X)), Some(2));
    }
    Dst {
        reg,
        modifier: Some(DstMod {
            comp: [
                DstComp::Write,
                DstComp::NoWrite,
                DstComp::Zero,
                DstComp::One,
            ],
            clamp: true,
            shift: 2,
        }),
    }
}

fn replicated(ty: RegType, num: u32, sel: Sel) -> Src {
    Src {
        reg: Reg::new(ty, num),
        modifier: Some(SrcMod::replicate(sel)),
    }
}

/// Sources of every shape: modifiers of every kind, literals, constant buffers with absolute,
/// register-relative and two-dimensional indices, thread ids, extended numbers.
pub fn full_src(i: usize) -> Src {
    let mut m = SrcMod {
        swizzle: [Sel::Y, Sel::X, Sel::W, Sel::One],
        neg: [true, false, false, true],
        abs: true,
        ..SrcMod::IDENTITY
    };
    match i % 9 {
        0 => Src {
            reg: Reg::new(RegType::TEMP, 1),
            modifier: Some(m),
        },
        1 => Src::reg(RegType::LITERAL, 4),
        2 => {
            let mut reg = Reg::new(RegType::CONST_BUFF, 0);
            reg.index = Index::Imm(7);
            Src {
                reg,
                modifier: Some(SrcMod::replicate(Sel::Y)),
            }
        }
        3 => {
            let mut reg = Reg::new(RegType::CONST_BUFF, 1);
            reg.index = Index::Rel(Box::new(replicated(RegType::TEMP, 2, Sel::X)), Some(13));
            m = SrcMod {
                invert: true,
                bias: true,
                x2: true,
                sign: true,
                divcomp: 4,
                clamp: true,
                ..SrcMod::IDENTITY
            };
            Src {
                reg,
                modifier: Some(m),
            }
        }
        4 => replicated(RegType::ABSOLUTE_THREAD_ID, 0, Sel::X),
        5 => {
            let mut reg = Reg::new(RegType::GLOBAL, 0);
            reg.index = Index::Rel(
                Box::new(replicated(RegType::TEMP, 9, Sel::Z)),
                Some(-4i32 as u32),
            );
            Src {
                reg,
                modifier: None,
            }
        }
        6 => Src {
            reg: Reg::new(RegType::TEMP, 70000),
            modifier: Some(SrcMod::IDENTITY),
        },
        7 => {
            let mut reg = Reg::new(RegType::CONST_BUFF, 0);
            reg.index = Index::Rel(Box::new(replicated(RegType::TEMP, 6, Sel::W)), Some(2));
            reg.dim2 = Some(Dim2::Rel(
                Box::new(replicated(RegType::TEMP, 2, Sel::X)),
                Some(4),
            ));
            Src {
                reg,
                modifier: Some(SrcMod::replicate(Sel::Y)),
            }
        }
        _ => {
            let mut reg = Reg::new(RegType::VERTEX, 1);
            reg.dim2 = Some(Dim2::Abs(2));
            Src {
                reg,
                modifier: None,
            }
        }
    }
}

/// The seed, read in place (`None` after saying NOT RUN when absent).
pub fn seed() -> Option<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/seeds/001_ad105e733e076148.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text.lines().map(str::to_string).collect()),
        Err(_) => {
            eprintln!("NOT RUN: {} absent", path.display());
            None
        }
    }
}

/// A file of ../shared/notes, read in place.
pub fn note(name: &str) -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/notes")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!("NOT RUN: {} absent", path.display());
            None
        }
    }
}

/// Little-endian bytes of tokens.
pub fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
