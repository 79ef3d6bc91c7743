//! The `NT_AMDGPU_METADATA` note of code objects v3/v4: a msgpack map (AMDGPUUsage, "Code
//! Object V3 Metadata"). Only the keys a launcher needs are read; unknown keys are ignored,
//! missing required keys are errors.

use rmpv::Value;
use wavejit_isa::printable;

use super::{ArgKind, KernelArg, LoadError};

/// The kernel-level metadata of one kernel.
pub struct KernelMeta {
    pub name: String,
    /// The kernel descriptor symbol, `<name>.kd`.
    pub symbol: String,
    pub args: Vec<KernelArg>,
    pub kernarg_segment_size: u32,
    pub kernarg_segment_align: u32,
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub sgpr_count: u32,
    pub vgpr_count: u32,
    pub wavefront_size: u32,
    pub reqd_workgroup_size: Option<[u32; 3]>,
}

fn err(msg: impl Into<String>) -> LoadError {
    LoadError::MalformedNote(msg.into())
}

fn get<'v>(map: &'v [(Value, Value)], key: &str) -> Option<&'v Value> {
    map.iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

fn as_map<'v>(v: &'v Value, what: &str) -> Result<&'v [(Value, Value)], LoadError> {
    v.as_map()
        .map(Vec::as_slice)
        .ok_or_else(|| err(format!("{what} is not a map")))
}

fn req<'v>(map: &'v [(Value, Value)], key: &str, ctx: &str) -> Result<&'v Value, LoadError> {
    get(map, key).ok_or_else(|| err(format!("{ctx}: missing {key}")))
}

fn u32_of(v: &Value, key: &str, ctx: &str) -> Result<u32, LoadError> {
    v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| err(format!("{ctx}: {key} is not a 32-bit unsigned integer")))
}

fn req_u32(map: &[(Value, Value)], key: &str, ctx: &str) -> Result<u32, LoadError> {
    u32_of(req(map, key, ctx)?, key, ctx)
}

fn opt_str(map: &[(Value, Value)], key: &str, ctx: &str) -> Result<Option<String>, LoadError> {
    match get(map, key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_string()))
            .ok_or_else(|| err(format!("{ctx}: {key} is not a string"))),
    }
}

fn req_str(map: &[(Value, Value)], key: &str, ctx: &str) -> Result<String, LoadError> {
    opt_str(map, key, ctx)?.ok_or_else(|| err(format!("{ctx}: missing {key}")))
}

fn arg_kind(kind: &str) -> ArgKind {
    match kind {
        "global_buffer" => ArgKind::GlobalBuffer,
        "by_value" => ArgKind::ByValue,
        "dynamic_shared_pointer" => ArgKind::DynamicSharedPointer,
        "hidden_global_offset_x" => ArgKind::HiddenGlobalOffset(0),
        "hidden_global_offset_y" => ArgKind::HiddenGlobalOffset(1),
        "hidden_global_offset_z" => ArgKind::HiddenGlobalOffset(2),
        "hidden_none" => ArgKind::HiddenNone,
        other => ArgKind::Other(other.to_string()),
    }
}

fn parse_arg(v: &Value, ctx: &str) -> Result<KernelArg, LoadError> {
    let m = as_map(v, ctx)?;
    Ok(KernelArg {
        name: opt_str(m, ".name", ctx)?,
        offset: req_u32(m, ".offset", ctx)?,
        size: req_u32(m, ".size", ctx)?,
        kind: arg_kind(&req_str(m, ".value_kind", ctx)?),
        type_name: opt_str(m, ".type_name", ctx)?,
        address_space: opt_str(m, ".address_space", ctx)?,
    })
}

fn parse_kernel(v: &Value, index: usize) -> Result<KernelMeta, LoadError> {
    let m = as_map(v, &format!("amdhsa.kernels[{index}]"))?;
    let name = req_str(m, ".name", &format!("amdhsa.kernels[{index}]"))?;
    let ctx = format!("kernel {}", printable(&name));
    let args = match get(m, ".args") {
        None => Vec::new(),
        Some(list) => {
            let list = list
                .as_array()
                .ok_or_else(|| err(format!("{ctx}: .args is not an array")))?;
            let mut args = list
                .iter()
                .enumerate()
                .map(|(i, a)| parse_arg(a, &format!("{ctx}: argument {i}")))
                .collect::<Result<Vec<_>, _>>()?;
            args.sort_by_key(|a| a.offset);
            args
        }
    };
    let reqd_workgroup_size = match get(m, ".reqd_workgroup_size") {
        None => None,
        Some(v) => {
            let dims = v.as_array().filter(|d| d.len() == 3);
            let dims =
                dims.ok_or_else(|| err(format!("{ctx}: .reqd_workgroup_size is not 3 integers")))?;
            Some([
                u32_of(&dims[0], ".reqd_workgroup_size", &ctx)?,
                u32_of(&dims[1], ".reqd_workgroup_size", &ctx)?,
                u32_of(&dims[2], ".reqd_workgroup_size", &ctx)?,
            ])
        }
    };
    Ok(KernelMeta {
        symbol: req_str(m, ".symbol", &ctx)?,
        args,
        kernarg_segment_size: req_u32(m, ".kernarg_segment_size", &ctx)?,
        kernarg_segment_align: req_u32(m, ".kernarg_segment_align", &ctx)?,
        group_segment_fixed_size: req_u32(m, ".group_segment_fixed_size", &ctx)?,
        private_segment_fixed_size: req_u32(m, ".private_segment_fixed_size", &ctx)?,
        sgpr_count: req_u32(m, ".sgpr_count", &ctx)?,
        vgpr_count: req_u32(m, ".vgpr_count", &ctx)?,
        wavefront_size: req_u32(m, ".wavefront_size", &ctx)?,
        reqd_workgroup_size,
        name,
    })
}

/// Parses the note descriptor into the kernels' metadata.
pub fn parse(desc: &[u8]) -> Result<Vec<KernelMeta>, LoadError> {
    let mut rd = desc;
    let root = rmpv::decode::read_value(&mut rd).map_err(|e| err(format!("msgpack: {e}")))?;
    let root = as_map(&root, "the metadata root")?;
    let kernels = req(root, "amdhsa.kernels", "the metadata root")?
        .as_array()
        .ok_or_else(|| err("amdhsa.kernels is not an array"))?;
    kernels
        .iter()
        .enumerate()
        .map(|(i, k)| parse_kernel(k, i))
        .collect()
}
