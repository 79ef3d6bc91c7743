//! The names of enumerated fields (applegpu.py's `EnumDesc` tables), of compare conditions
//! and of special registers: the value of a field is its meaning, the name is how both
//! applegpu and this crate call it. A value missing from a table has no known meaning;
//! applegpu prints it as a number. These tables are the one definition of each name: the
//! printer ([`crate::print`]) reads them forwards, the assembler ([`crate::asm`]) backwards,
//! and the Mesa-syntax printer ([`crate::mesa`]) respells them.

/// Values and their names.
pub type Names = &'static [(u64, &'static str)];

/// Integer compare conditions, by code ([`super::ICond::code`]: `cc` with `ccn` as bit 3;
/// bit 2 signed, bits 1:0 eq/lt/gt, bit 3 negating). Codes 3, 7, 11 and 15 have no name.
pub const ICONDITIONS: Names = &[
    (0b0000, "ueq"),
    (0b0001, "ult"),
    (0b0010, "ugt"),
    (0b0100, "seq"),
    (0b0101, "slt"),
    (0b0110, "sgt"),
    (0b1000, "nueq"),
    (0b1001, "ugte"),
    (0b1010, "ulte"),
    (0b1100, "nseq"),
    (0b1101, "sgte"),
    (0b1110, "slte"),
];

/// Float compare conditions, by code ([`super::FCond::code`], bit 3 negating). Codes 4 and 12
/// have no name.
pub const FCONDITIONS: Names = &[
    (0b0000, "eq"),
    (0b0001, "lt"),
    (0b0010, "gt"),
    (0b0011, "ltn"),
    (0b0101, "gte"),
    (0b0110, "lte"),
    (0b0111, "gtn"),
    (0b1000, "neq"),
    (0b1001, "nlt"),
    (0b1010, "ngt"),
    (0b1011, "nltn"),
    (0b1101, "ngte"),
    (0b1110, "nlte"),
    (0b1111, "ngtn"),
];

/// The special registers applegpu names (its SR_NAMES), by number.
const SPECIAL_REGISTERS: Names = &[
    (0, "threadgroup_position_in_grid.x"),
    (1, "threadgroup_position_in_grid.y"),
    (2, "threadgroup_position_in_grid.z"),
    (4, "threads_per_threadgroup.x"),
    (5, "threads_per_threadgroup.y"),
    (6, "threads_per_threadgroup.z"),
    (8, "dispatch_threads_per_threadgroup.x"),
    (9, "dispatch_threads_per_threadgroup.y"),
    (10, "dispatch_threads_per_threadgroup.z"),
    (20, "core_index"),
    (21, "vm_slot"),
    (48, "thread_position_in_threadgroup.x"),
    (49, "thread_position_in_threadgroup.y"),
    (50, "thread_position_in_threadgroup.z"),
    (51, "thread_index_in_threadgroup"),
    (52, "thread_index_in_simdgroup"),
    (53, "simdgroup_index_in_threadgroup"),
    (56, "active_thread_index_in_quadgroup"),
    (58, "active_thread_index_in_simdgroup"),
    (60, "internal_coverage_mask"),
    (62, "backfacing"),
    (63, "is_active_thread"),
    (80, "thread_position_in_grid.x"),
    (81, "thread_position_in_grid.y"),
    (82, "thread_position_in_grid.z"),
    (124, "input_sample_mask"),
    (144, "opfifo_cmd"),
    (146, "opfifo_data_l"),
    (147, "opfifo_data_h"),
];

/// The special register's name, where applegpu knows one.
pub fn special_name(n: u16) -> Option<&'static str> {
    find(SPECIAL_REGISTERS, u64::from(n))
}

/// The number of the special register named `name`.
pub fn special_number(name: &str) -> Option<u16> {
    SPECIAL_REGISTERS
        .iter()
        .find(|(_, n)| *n == name)
        .and_then(|&(v, _)| u16::try_from(v).ok())
}

/// Memory formats (`F` of the memory forms, applegpu's MEMORY_FORMATS; element sizes:
/// `i8`, the norm8 forms and the packed forms 1 byte, `i16`, `f16` and the norm16 forms 2,
/// `i32` 4). 9 and 11 are unknown.
const FORMATS: Names = &[
    (0, "i8"),
    (1, "i16"),
    (2, "i32"),
    (3, "f16"),
    (4, "u8norm"),
    (5, "s8norm"),
    (6, "u16norm"),
    (7, "s16norm"),
    (8, "rgb10a2"),
    (10, "srgba8"),
    (12, "rg11b10f"),
    (13, "rgb9e5"),
    (14, "rg11b10f.rtz"),
    (15, "rgb9e5.rtz"),
];

/// Component masks of the memory forms: bit 0 `x` to bit 3 `w`; 0 is the empty mask.
const MASKS: [&str; 16] = [
    "", "x", "y", "xy", "z", "xz", "yz", "xyz", "w", "xw", "yw", "xyw", "zw", "xzw", "yzw", "xyzw",
];

/// `convert`'s modes: the source and destination types.
const CONVERT_MODES: Names = &[
    (0, "u8_to_f"),
    (1, "s8_to_f"),
    (4, "f_to_u16"),
    (5, "f_to_s16"),
    (6, "u16_to_f"),
    (7, "s16_to_f"),
    (8, "f_to_u32"),
    (9, "f_to_s32"),
    (10, "u32_to_f"),
    (11, "s32_to_f"),
];

/// Texture types (`n`, 4 bits).
const TEX_TYPES: Names = &[
    (0, "tex_1d"),
    (1, "tex_1d_array"),
    (2, "tex_2d"),
    (3, "tex_2d_array"),
    (4, "tex_2d_ms"),
    (5, "tex_3d"),
    (6, "tex_cube"),
    (7, "tex_cube_array"),
    (8, "tex_2d_ms_array"),
];

/// Atomic operations (`op` of `atomic` and `threadgroup_atomic`).
const ATOMIC_OPS: Names = &[
    (0, "add"),
    (1, "sub"),
    (2, "xchg"),
    (3, "cmpxchg"),
    (4, "umin"),
    (5, "imin"),
    (6, "umax"),
    (7, "imax"),
    (8, "and"),
    (9, "or"),
    (10, "xor"),
];

/// Level-of-detail modes of the texture forms (`lod`).
const LOD_MODES: Names = &[
    (0, "auto_lod"),
    (1, "auto_lod_bias"),
    (2, "lod_min"),
    (4, "lod_grad"),
    (5, "auto_lod_bias"),
    (6, "lod_min"),
    (12, "lod_grad_min"),
];

/// Gather and compare modes of the texture forms (`q6`).
const GATHER: Names = &[
    (0, "none"),
    (1, "compare"),
    (2, "gather_r"),
    (3, "gather_depth"),
    (6, "gather_g"),
    (10, "gather_b"),
    (14, "gather_a"),
];

/// The name of `value` in `table`.
pub fn find(table: Names, value: u64) -> Option<&'static str> {
    table.iter().find(|(v, _)| *v == value).map(|(_, n)| *n)
}

/// The name of value `value` of enumerated operand `operand` in form `row`, or `None` when
/// the value has none (or the operand is not enumerated).
pub fn name(row: &str, operand: &str, value: u64) -> Option<&'static str> {
    let texture = matches!(row, "texture_sample" | "texture_load");
    let pair = |a, b| match value {
        0 => Some(a),
        1 => Some(b),
        _ => None,
    };
    match operand {
        "F" if row.starts_with("async_") => pair("copy_1d", "copy_2d"),
        "F" => find(FORMATS, value),
        // Texture forms name no empty mask.
        "mask" if texture && value == 0 => None,
        "mask" => MASKS.get(value as usize).copied(),
        "mode" if texture => match value {
            0 => Some(""),
            2 => Some("query_lod"),
            _ => None,
        },
        "mode" => find(CONVERT_MODES, value),
        // Rounding: `convert` has 0 toward zero, the image writes 0 to nearest even.
        "round" if row == "convert" => pair("rtz", "rte"),
        "round" => pair("rte", "rtz"),
        "Ou" => pair("signed", "unsigned"),
        "op" if row == "map" => pair("unmap", "map"),
        "op" => find(ATOMIC_OPS, value),
        "target" => pair("target0", "target1"),
        "n" => find(TEX_TYPES, value),
        "lod" => find(LOD_MODES, value),
        "q6" => find(GATHER, value),
        "forwarding" => pair("", "forward"),
        "elide" => pair("", "elide"),
        "interpolation" => ["center", "sample", "centroid", "sample"]
            .get(value as usize)
            .copied(),
        _ => None,
    }
}
