//! One operand of a form, by its applegpu kind: which encoder reads it, whether applegpu
//! may print it as nothing, and whether its reading depends on another field of the form
//! (those are encoded after all the others).

use super::fields::Fields;
use super::{alu, memory, scalar, texture, Labels};
use crate::table::{Operand, Row};

/// Whether applegpu may print `op` as nothing (dropping it from the operand list).
pub(super) fn may_be_empty(row: &'static Row, op: &Operand) -> bool {
    match op.kind {
        "Shift" | "Mask" | "MemoryShift" | "IterSampleID" | "SampleCompareOff" => true,
        "MemoryReg" | "SampleReg" => true,
        // Without a presence bit (`a`) its count comes from the mask, which may be 0.
        "ThreadgroupMemoryReg" => !row
            .fields
            .iter()
            .any(|f| f.name.strip_prefix(op.name) == Some("a")),
        "Enum" => super::names::enum_may_be_empty(&Fields::new(row), op.name),
        _ => false,
    }
}

/// Whether `kind` reads another field of the form (`Dt`, `mask`, `F`, `n`, `lod`, `op`,
/// `compare`, `interpolation`, `Tt`).
pub(super) fn dependent(kind: &str) -> bool {
    matches!(
        kind,
        "CmpselSrc"
            | "MemoryReg"
            | "SampleReg"
            | "ThreadgroupMemoryReg"
            | "AsyncMemoryBase"
            | "AtomicSource"
            | "IterSampleID"
            | "Coords"
            | "Lod"
            | "SampleCompareOff"
            | "SampleUReg"
    )
}

/// Encodes `op` from `text` (`None`: printed as nothing) into `f`.
pub(super) fn encode(
    f: &mut Fields,
    op: &Operand,
    text: Option<&str>,
    pc: u64,
    labels: &Labels,
) -> Result<(), String> {
    let name = op.name;
    match (op.kind, text) {
        ("Shift", t) => scalar::shift(f, "s", t),
        ("MemoryShift", t) => scalar::shift(f, name, t),
        ("Mask", t) => scalar::mask(f, name, t),
        ("Enum", t) => scalar::enumeration(f, name, t),
        ("MemoryReg" | "SampleReg" | "ThreadgroupMemoryReg", t) => memory::transfer(f, name, t),
        ("IterSampleID", t) => texture::sample_id(f, name, t),
        ("SampleCompareOff", t) => texture::compare_offset(f, name, t),
        (kind, None) => Err(format!("the {kind} operand {name} is missing")),
        (kind, Some(t)) => encode_text(f, kind, name, t, pc, labels),
    }
}

fn encode_text(
    f: &mut Fields,
    kind: &str,
    name: &str,
    t: &str,
    pc: u64,
    labels: &Labels,
) -> Result<(), String> {
    match kind {
        "ALUDst" | "ALUDst64" | "FloatDst" | "FloatDst16" | "PairedALUDst" => {
            alu::dst(f, kind, name, t)
        }
        "ALUSrc" | "ALUSrc64" | "ALUSrc16" | "MulSrc" | "AddSrc" | "FloatSrc" | "FloatSrc16"
        | "PairedFloatSrc" => alu::src(f, kind, name, t),
        "CmpselSrc" => alu::cmpsel_src(f, name, t),
        "ImplicitR0L" => alu::implicit_r0l(f, name, t),
        "Immediate" | "Binary" => scalar::number(f, name, t),
        "ICondition" | "FCondition" => scalar::condition(f, kind, t),
        "TruthTable" => scalar::truth_table(f, name, t),
        "SReg32" => scalar::special_register(f, name, t),
        "StackAdjustment" => scalar::stack_adjustment(f, name, t),
        "BranchOffset" => scalar::branch(f, name, t, pc, labels),
        "MemoryBase" => memory::base(f, name, t),
        "MemoryIndex" => memory::index(f, name, t),
        "ThreadgroupIndex" => memory::threadgroup_index(f, name, t),
        "ThreadgroupMemoryBase" => memory::threadgroup_base(f, name, t),
        "AsyncMemoryReg" => memory::async_reg(f, name, t),
        "AsyncMemoryBase" => memory::async_base(f, name, t),
        "AtomicSource" => memory::atomic_source(f, name, t),
        "AtomicDestination" => memory::atomic_destination(f, name, t),
        "StackReg32" | "Reg32_4_4_" => memory::word_doubled(f, name, t),
        "Reg32" | "ExReg32" => memory::word_number(f, name, t),
        "TileToMemoryReg" => memory::half_number(f, name, t),
        "UReg64" => memory::uniform_pair(f, name, t),
        "TextureStateDest" => memory::state_register(f, name, t, "ts"),
        "SamplerStateDest" => memory::state_register(f, name, t, "ss"),
        "SampleMask" | "DiscardMask" | "UVSIndex" | "PBELod" => {
            texture::half_or_byte(f, kind, name, t)
        }
        "ZS" => texture::zs(f, name, t),
        "VarRegister" | "VarTripleRegister" => texture::varying(f, kind, name, t),
        "CF" | "CFPerspective" => texture::coefficient(f, kind, name, t),
        "Texture" => texture::texture(f, name, t),
        "Sampler" => texture::sampler(f, name, t),
        "Coords" => texture::coords(f, name, t),
        "Lod" => texture::lod(f, name, t),
        "SampleUReg" => texture::sample_uniform(f, name, t),
        "PBESourceReg" => texture::pbe_source(f, name, t),
        _ => Err(format!("operand kind {kind} has no encoder")),
    }
}
