//! The names of enumerated fields (applegpu.py's `EnumDesc` tables): the value of a field is
//! its meaning, the name is how both applegpu and this crate call it. A value missing from a
//! table has no known meaning; applegpu prints it as a number.

/// Memory formats (`F` of the memory forms, applegpu's MEMORY_FORMATS; element sizes:
/// `i8`, the norm8 forms and the packed forms 1 byte, `i16`, `f16` and the norm16 forms 2,
/// `i32` 4). 9 and 11 are unknown.
const FORMATS: &[(u64, &str)] = &[
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
const CONVERT_MODES: &[(u64, &str)] = &[
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
const TEX_TYPES: &[(u64, &str)] = &[
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
const ATOMIC_OPS: &[(u64, &str)] = &[
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
const LOD_MODES: &[(u64, &str)] = &[
    (0, "auto_lod"),
    (1, "auto_lod_bias"),
    (2, "lod_min"),
    (4, "lod_grad"),
    (5, "auto_lod_bias"),
    (6, "lod_min"),
    (12, "lod_grad_min"),
];

/// Gather and compare modes of the texture forms (`q6`).
const GATHER: &[(u64, &str)] = &[
    (0, "none"),
    (1, "compare"),
    (2, "gather_r"),
    (3, "gather_depth"),
    (6, "gather_g"),
    (10, "gather_b"),
    (14, "gather_a"),
];

fn find(table: &[(u64, &'static str)], value: u64) -> Option<&'static str> {
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
