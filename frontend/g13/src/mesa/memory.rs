//! Mesa's lines of the memory, atomic, stack, uniform-store, tile, varying, texture, image,
//! barrier and fragment forms.

use super::text::{self, enum_name, named, operand, value};
use super::{bits, Line};
use crate::inst::Inst;
use crate::operand::{Reg, RegRange, Value, Width};

/// A device or stack memory index: an immediate (zero-extended when bit 25, `Ou`, is set:
/// Mesa's reading, where applegpu sign-extends every immediate index) or a register (`.sx`
/// unless bit 25 is set).
fn index(inst: &Inst) -> String {
    let unsigned = bits(inst, 25, 1) != 0;
    match inst.operand("O") {
        Some(Value::Imm(n)) if unsigned => (*n as u16).to_string(),
        Some(Value::Reg(r)) if !unsigned => format!("{}.sx", text::reg(r)),
        Some(v) => value(v),
        None => String::new(),
    }
}

/// The memory modifiers Mesa prints after the operands: shift, format, mask.
fn layout(inst: &Inst, l: Line) -> Line {
    l.op(enum_name(text::SHIFT, inst.field("s")))
        .op(named(inst, "F"))
        .op(named(inst, "mask"))
}

/// The wait group (`g`, bit 30): `a` or `b`.
fn group(inst: &Inst, l: Line) -> Line {
    l.op(enum_name(text::GROUP, bits(inst, 30, 1)))
}

/// The stack forms (first byte 0x35 or 0xb5) by Mesa's constant bits: `stack_load`,
/// `stack_adjust` (bits 16 and 26 set, 36:38 = 2, 44:46 = 0) and `stack_store`.
fn stack(inst: &Inst) -> Option<Line> {
    let store = bits(inst, 7, 1) != 0;
    let access = bits(inst, 26, 1) == 1 && bits(inst, 36, 3) == 0 && bits(inst, 44, 3) == 4;
    if store && bits(inst, 16, 1) == 1 && bits(inst, 26, 1) == 1 && bits(inst, 36, 3) == 2 {
        return (bits(inst, 44, 3) == 0).then(|| Line::new("stack_adjust").op(index(inst)));
    }
    if !access || inst.try_field("R").is_none() {
        return None;
    }
    let m = if store { "stack_store" } else { "stack_load" };
    Some(group(
        inst,
        layout(inst, Line::new(m).op(operand(inst, "R")).op(index(inst))),
    ))
}

/// Mesa's `mov uN, rM`: a uniform store of 16-bit registers at an immediate index, with
/// the destination and source named by their size (`du`/`dr` for four halves at an even
/// start, `u`/`r` for two, else the halves).
fn uniform_mov(inst: &Inst) -> Option<Line> {
    let o = inst.field("O");
    let r = inst.field("R");
    let m = inst.field("mask");
    let name = |file: &str, at: u64| match m {
        0b1111 if at & 1 == 0 => format!("d{file}{}", at >> 1),
        0b0011 if at & 1 == 0 => format!("{file}{}", at >> 1),
        0b1111 | 0b0111 | 0b0011 | 0b0001 => {
            let uniform = file == "u";
            let count = m.count_ones() as u16;
            text::range(&RegRange {
                uniform,
                ..RegRange::halves(at as u16, count)
            })
        }
        _ => "XXX".into(),
    };
    Some(Line::new("mov").op(name("u", o)).op(name("r", r)))
}

/// Whether the uniform store has the constant fields of Mesa's `mov` alias (an `i16` store at
/// an immediate, sign-extended index, no shift, wait group `a`, the Rt bit clear).
fn is_uniform_mov(inst: &Inst) -> bool {
    bits(inst, 25, 3) == 0b110
        && bits(inst, 7, 3) == 1
        && bits(inst, 48, 1) == 0
        && bits(inst, 24, 1) == 1
        && bits(inst, 42, 2) == 0
        && bits(inst, 30, 1) == 0
}

/// A texture operation's compare value and offsets as Mesa prints them: the compare word
/// alone, the offsets half alone, or both as three halves.
fn compare_offset(v: Option<&Value>) -> String {
    match v {
        Some(Value::CompareOffset {
            compare: Some(c),
            offset: Some(_),
        }) => text::range(&RegRange::halves(2 * c.index, 3)),
        Some(Value::CompareOffset {
            compare: Some(r), ..
        })
        | Some(Value::CompareOffset {
            offset: Some(r), ..
        }) => text::reg(r),
        _ => String::new(),
    }
}

/// Texture coordinates as Mesa prints them: the first register only, a half if `Cs` is set
/// and a word otherwise (whatever the texture type), `^` when discarded (`Ct`).
fn coords(inst: &Inst) -> String {
    let c = inst.field("C") as u16;
    let first = if inst.field("Cs") != 0 {
        RegRange::halves(c, 1)
    } else {
        RegRange::words(c >> 1, 1)
    };
    text::range(&RegRange {
        discard: inst.field("Ct") != 0,
        ..first
    })
}

/// An atomic's source: a pair for `cmpxchg`, which Mesa names as two registers.
fn atomic_src(inst: &Inst) -> String {
    match inst.operand("S") {
        Some(Value::Reg(r)) if r.width == Width::Pair => text::range(&RegRange::words(r.index, 2)),
        Some(v) => value(v),
        None => String::new(),
    }
}

/// A threadgroup base: Mesa prints nothing for the constant 0 (`At` = 2).
fn local_base(inst: &Inst) -> String {
    match inst.operand("A") {
        Some(Value::Imm(0)) | None => String::new(),
        Some(v) => value(v),
    }
}

/// The level of detail as Mesa prints it: gradients as two words (`lod_grad`) or five halves
/// (`lod_grad_min`) from the first register, others as read.
fn lod(inst: &Inst) -> String {
    match (inst.field("lod"), inst.operand("D")) {
        (4, Some(Value::Regs(r))) => text::range(&RegRange { count: 2, ..*r }),
        (12, Some(Value::Regs(r))) => text::range(&RegRange::halves(2 * r.first, 5)),
        (_, Some(v)) => value(v),
        _ => String::new(),
    }
}

/// `smpf`/`smpi`: the sampled registers, bindless heap, texture, sampler, coordinates, level
/// of detail and compare/offset registers, then the flags.
fn sample(inst: &Inst) -> Option<Line> {
    if bits(inst, 45, 2) != 3 {
        return None;
    }
    let m = if bits(inst, 6, 1) != 0 {
        "smpi"
    } else {
        "smpf"
    };
    let flag = |l: Line, bit, name| l.flag(bits(inst, bit, 1) != 0, name);
    let l = Line::new(m)
        .op(operand(inst, "R"))
        .op(operand(inst, "U"))
        .op(operand(inst, "T"))
        .op(operand(inst, "S"))
        .op(coords(inst))
        .op(lod(inst))
        .op(compare_offset(inst.operand("O")));
    let l = flag(l, 23, "shadow");
    let l = flag(l, 31, "query_lod");
    let l = flag(l, 43, "rw");
    let l = flag(l, 44, "coherent");
    let l = flag(l, 70, "sparse");
    let l = flag(l, 69, "kill");
    Some(
        l.op(named(inst, "n"))
            .op(named(inst, "mask"))
            .op(named(inst, "lod"))
            .op(enum_name(text::GATHER, bits(inst, 87, 4)))
            .op(enum_name(text::GROUP, bits(inst, 63, 1))),
    )
}

/// The tile accesses: registers, coordinates (a pair of halves when bit 55 is set, which
/// applegpu leaves unnamed, else an immediate), samples, offset, flags.
fn tile(inst: &Inst) -> Option<Line> {
    let load = bits(inst, 6, 1) != 0;
    if load && bits(inst, 35, 1) != 1 {
        return None;
    }
    let c = inst.field("C");
    let coord = if bits(inst, 55, 1) != 0 {
        text::range(&RegRange::halves(c as u16, 2))
    } else {
        c.to_string()
    };
    let m = if load { "ld_tile" } else { "st_tile" };
    let l = Line::new(m)
        .op(operand(inst, "R"))
        .op(coord)
        .op(operand(inst, "S"))
        .op(inst.field("O").to_string())
        .flag(!load && bits(inst, 35, 1) != 0, "explicit_coords");
    Some(l.op(named(inst, "F")).op(named(inst, "mask")))
}

/// Mesa's names of the barrier encodings, by (a, b, c).
fn barrier(inst: &Inst) -> Option<Line> {
    let key = (inst.field("a"), inst.field("b"), inst.field("c"));
    let name = match key {
        (1, 2, 9) => "memory_barrier",
        (2, 2, 10) => "image_barrier_1",
        (3, 2, 10) => "image_barrier_2",
        (2, 1, 10) => "image_barrier_3",
        (3, 1, 10) => "image_barrier_4",
        (0, 0, 4) => "flush_memory_to_texture",
        (2, 2, 9) => "memory_barrier_2",
        (2, 1, 9) => "memory_barrier_3",
        (0, 3, 3) => "unknown_barrier_1",
        (0, 3, 0) => "unknown_barrier_2",
        (3, 1, 9) => "device_barrier_1",
        (3, 2, 9) => "device_barrier_2",
        _ => return None,
    };
    Some(Line::trivial(name))
}

/// The destination of an atomic: the register, or `_` when the old value is not returned.
fn atomic_dst(inst: &Inst) -> String {
    match inst.operand("R") {
        Some(Value::Absent) | None => "_".into(),
        Some(v) => value(v),
    }
}

pub(super) fn line(inst: &Inst) -> Option<Line> {
    let name = inst.row.name;
    let l = Line::new;
    Some(match name {
        "device_load" | "device_store" | "device_load.TODO" | "device_store.TODO" => {
            if bits(inst, 26, 1) != 1 || bits(inst, 46, 1) != 1 {
                return None;
            }
            let m = if name.starts_with("device_load") {
                "load"
            } else {
                "store"
            };
            let l = l(m)
                .op(operand(inst, "R"))
                .op(operand(inst, "A"))
                .op(index(inst));
            group(
                inst,
                layout(inst, l).op(enum_name(text::COHERENT, bits(inst, 44, 2))),
            )
        }
        "stack_load" | "stack_store" | "TODO.stack_adjust" | "TODO.stack_adjust2" => {
            return stack(inst)
        }
        "uniform_store" if is_uniform_mov(inst) => return uniform_mov(inst),
        "uniform_store" => group(
            inst,
            layout(
                inst,
                l("uniform_store_unk")
                    .op(operand(inst, "R"))
                    .op(index(inst)),
            ),
        ),
        "atomic" => {
            if bits(inst, 26, 1) != 1 || bits(inst, 31, 1) != 1 || bits(inst, 46, 1) != 1 {
                return None;
            }
            let l = l("atomic")
                .op(atomic_dst(inst))
                .op(atomic_src(inst))
                .op(operand(inst, "A"))
                .op(index(inst))
                .op(named(inst, "op"))
                .op(enum_name(text::COHERENT, bits(inst, 44, 2)));
            group(inst, l)
        }
        "threadgroup_atomic" => {
            if bits(inst, 36, 1) != 1 || bits(inst, 47, 1) != 1 {
                return None;
            }
            l("latomic")
                .op(atomic_dst(inst))
                .op(atomic_src(inst))
                .op(local_base(inst))
                .op(operand(inst, "O"))
                .op(named(inst, "op"))
        }
        "threadgroup_load" | "threadgroup_store" => {
            let m = if name == "threadgroup_load" {
                "lload"
            } else {
                "lstore"
            };
            l(m).op(operand(inst, "R"))
                .op(local_base(inst))
                .op(operand(inst, "O"))
                .op(named(inst, "F"))
                .op(named(inst, "mask"))
        }
        "TODO.ld/st_tile" => return tile(inst),
        "texture_sample" | "texture_load" => return sample(inst),
        "image_write" | "image_write_block" => {
            let block = name == "image_write_block";
            let m = if block { "imgwblk" } else { "imgw" };
            let heap = if !block {
                operand(inst, "U")
            } else if bits(inst, 39, 1) != 0 {
                // The block form's heap index is bits 48:52, zero in applegpu's form.
                "du0".to_string()
            } else {
                String::new()
            };
            let l = l(m)
                .op(operand(inst, "R"))
                .op(heap)
                .op(operand(inst, "T"))
                .op(coords(inst))
                .op(operand(inst, "D"))
                .flag(block && bits(inst, 23, 1) != 0, "explicit_coords")
                .op(named(inst, "n"));
            if block {
                l.op(named(inst, "F")).flag(bits(inst, 53, 1) != 0, "rtz")
            } else {
                l.flag(bits(inst, 53, 1) != 0, "rtz")
                    .op(enum_name(text::COHERENT, bits(inst, 44, 2)))
            }
        }
        "iter" | "iterproj" => l("iter")
            .op(operand(inst, "D"))
            .op(operand(inst, "I"))
            .op(operand(inst, "J"))
            .op(operand(inst, "S"))
            .flag(inst.field("forwarding") != 0, "fwd")
            .flag(inst.field("elide") != 0, "elide")
            .op(named(inst, "interpolation"))
            .flag(inst.field("kill") != 0, "kill"),
        "TODO.ldcf" => {
            if inst.field("count") != 1 {
                return None;
            }
            let sample = match bits(inst, 48, 2) {
                3 => text::reg(&Reg::half(bits(inst, 32, 8) as u16)),
                1 => bits(inst, 32, 8).to_string(),
                _ => String::new(),
            };
            l("ldcf")
                .op(operand(inst, "D"))
                .op(operand(inst, "I"))
                .op(sample)
        }
        "st_var" | "st_var_final" => l("st_var")
            .op(operand(inst, "r"))
            .op(operand(inst, "I"))
            .flag(name == "st_var_final", "last"),
        "no_var" => Line::trivial(name),
        "wait" => l(name).op(enum_name(text::GROUP, inst.field("i"))),
        "wait_pix" | "signal_pix" => {
            let m = if name == "wait_pix" {
                "pixwait"
            } else {
                "pixrel"
            };
            l(m).op(inst.field("i").to_string())
                .op(inst.field("j").to_string())
        }
        // Mesa reads bit 58 as "the offset is an immediate in bits 26:56" and the base as
        // bits 59:63 times 4; applegpu reads the base as bits 58:63 and the offset as a
        // register. Where bit 58 is clear the two agree.
        "tex_state_store" | "sampler_state_store" => l("load")
            .op(operand(
                inst,
                if name == "tex_state_store" {
                    "TS"
                } else {
                    "SS"
                },
            ))
            .op(operand(inst, "B"))
            .op(operand(inst, "O"))
            .op(enum_name(text::GROUP, bits(inst, 16, 1))),
        "threadgroup_barrier" => Line::trivial("barrier"),
        "memory_barrier" => return barrier(inst),
        "doorbell" => l(name).op(inst.field("imm").to_string()),
        "map" => {
            let m = match inst.field("op") {
                0 => "unmap",
                1 => "map",
                _ => return None,
            };
            l(m).op(operand(inst, "R"))
                .op(inst.field("target").to_string())
                .op(inst.field("v").to_string())
        }
        "sample_mask" => l(name).op(operand(inst, "S")).op(operand(inst, "M")),
        "zs_emit" => {
            // Depth alone is one 32-bit register to Mesa.
            let t = match inst.operand("T") {
                Some(Value::Regs(r)) if r.count == 2 => text::reg(&Reg {
                    width: Width::Word,
                    ..Reg::half(r.first)
                }),
                Some(Value::Regs(r)) if r.count == 0 => String::new(),
                Some(v) => value(v),
                None => String::new(),
            };
            l(name).op(operand(inst, "S")).op(t)
        }
        _ => return None,
    })
}
