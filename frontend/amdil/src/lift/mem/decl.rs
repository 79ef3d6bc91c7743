//! The memory declarations (L9833-L10102, L12221-L12260) as the lift uses them: what each UAV,
//! SRV, LDS and GDS id is, read by `scan` before lifting.
//!
//! - `dcl_raw_uav_id(n)` (L9977), `dcl_arena_uav_id(n)` (L9900) and AMD's post-v2.4
//!   `dcl_typeless_uav_id(n)_stride(s)_length(l)_access(a)` declare raw UAVs: byte-addressed
//!   dwords of the arena. A typeless UAV with `_access(private)` is AMD's compiler's scratch
//!   ("uavprivate" in the kernel metadata): `length` bytes per work-item (AMD's LLVM AMDIL
//!   back end prints the private stack size there, `AMDILKernelManager.cpp`
//!   `getIntrinsicSetup`), in the IR's private space. The typeless stride is 4 in every
//!   declaration AMD's compiler writes; another stride is refused (no document says what it
//!   would change). `_ctl(n)` (bits 31:28) is undocumented; it is accepted and changes nothing
//!   the lift models (see `mod.rs`).
//! - `dcl_struct_uav_id(n) k` (L10066) and `dcl_struct_srv_id(n) k` (L10048): structures of `k`
//!   bytes (`> 0`, a multiple of 4, L10069); `dcl_raw_srv_id(n)` (L9953): bytes; `dcl_uav_id(n)`
//!   (L10087): a typed UAV of a dimension (buffer, 1d, 1darray, 2d, 2darray, 3d; the
//!   multisampled, cube and `plusw` dimensions are refused). These are views of the launch.
//! - `dcl_lds_id(n) size` (L9914, size a multiple of 4) and `dcl_struct_lds_id(n) stride,
//!   count` (L10020); `dcl_gds_id(n) size` and `dcl_struct_gds_id(n) stride, count`
//!   (L12225, L12240). A structured LDS or GDS addresses `index * stride + offset`.
//! - An id declared twice must be declared the same way; `dcl_typed_uav` (post-v2.4, no entry:
//!   the layout of its dword is undocumented) is refused.

use crate::inst::Inst;
use crate::lift::state::{Bindings, View};
use crate::table::Row;
use std::collections::BTreeMap;
use wavejit_isa::LiftErrorKind;

/// A typed UAV's dimension: the coordinates its addresses have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lift) enum Dim {
    Buffer,
    D1,
    D1Array,
    D2,
    D2Array,
    D3,
}

impl Dim {
    /// Address components (x, then y, then z).
    pub(in crate::lift) fn coords(self) -> usize {
        match self {
            Dim::Buffer | Dim::D1 => 1,
            Dim::D1Array | Dim::D2 => 2,
            Dim::D2Array | Dim::D3 => 3,
        }
    }
}

/// What a UAV id is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lift) enum Uav {
    /// Raw, typeless or arena: the arena.
    Raw,
    /// Each work-item's own `bytes` (the IR's private space).
    Private {
        bytes: u32,
    },
    Struct {
        stride: u32,
    },
    Typed {
        dim: Dim,
    },
}

/// What an SRV id is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lift) enum Srv {
    Raw,
    Struct { stride: u32 },
}

/// What an LDS or GDS id is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lift) enum Shared {
    Raw { bytes: u32 },
    Struct { stride: u32, count: u32 },
}

impl Shared {
    fn bytes(self) -> u32 {
        match self {
            Shared::Raw { bytes } => bytes,
            Shared::Struct { stride, count } => stride.saturating_mul(count),
        }
    }
}

/// The memory declarations of a program, by id.
#[derive(Debug, Default)]
pub(in crate::lift) struct Resources {
    pub uavs: BTreeMap<u32, Uav>,
    pub srvs: BTreeMap<u32, Srv>,
    pub lds: BTreeMap<u32, Shared>,
    pub gds: BTreeMap<u32, Shared>,
}

/// Why a declaration is refused: its kind and the reason.
pub(in crate::lift) type Refusal = (LiftErrorKind, String);

fn invalid(why: String) -> Refusal {
    (LiftErrorKind::Invalid, why)
}

/// Whether `mnemonic` is a declaration [`Resources::declare`] reads.
pub(in crate::lift) fn is_memory_declaration(mnemonic: &str) -> bool {
    matches!(
        mnemonic,
        "dcl_raw_uav"
            | "dcl_arena_uav"
            | "dcl_typeless_uav"
            | "dcl_typed_uav"
            | "dcl_struct_uav"
            | "dcl_uav"
            | "dcl_raw_srv"
            | "dcl_struct_srv"
            | "dcl_lds"
            | "dcl_struct_lds"
            | "dcl_gds"
            | "dcl_struct_gds"
    )
}

impl Resources {
    /// Records the declaration `inst` of row `row` (one of [`is_memory_declaration`]).
    pub(in crate::lift) fn declare(&mut self, row: &Row, inst: &Inst) -> Result<(), Refusal> {
        let field = |name: &str| row.field(name).map_or(0, |f| f.get(inst.control));
        let id = u32::from(field("id"));
        let extra = |n: usize| -> Result<u32, Refusal> {
            inst.extra
                .get(n)
                .copied()
                .ok_or_else(|| invalid(format!("{} lacks its dword {}", row.mnemonic, n + 1)))
        };
        match row.mnemonic {
            "dcl_raw_uav" | "dcl_arena_uav" => add(&mut self.uavs, "UAV", id, Uav::Raw),
            "dcl_typeless_uav" => {
                let (stride, length) = (extra(0)?, extra(1)?);
                if stride != 4 {
                    return Err((
                        LiftErrorKind::Unsupported,
                        format!("a typeless UAV of stride {stride}: only stride 4 is lifted"),
                    ));
                }
                // IL_UAV_ACCESS_TYPE_PRIVATE (App. B).
                let uav = if field("access") == 3 {
                    if !length.is_multiple_of(4) {
                        return Err(invalid(format!(
                            "private length {length} is not a multiple of 4"
                        )));
                    }
                    Uav::Private { bytes: length }
                } else {
                    Uav::Raw
                };
                add(&mut self.uavs, "UAV", id, uav)
            }
            "dcl_typed_uav" => Err((
                LiftErrorKind::Unsupported,
                "dcl_typed_uav has no entry in the seed (the layout of its dword is \
                 undocumented); declare typed UAVs with dcl_uav"
                    .into(),
            )),
            "dcl_struct_uav" => {
                let stride = stride(extra(0)?)?;
                add(&mut self.uavs, "UAV", id, Uav::Struct { stride })
            }
            "dcl_uav" => {
                let dim = match crate::table::enums::PIXTEX.get(usize::from(field("type"))) {
                    Some(&"buffer") => Dim::Buffer,
                    Some(&"1d") => Dim::D1,
                    Some(&"1darray") => Dim::D1Array,
                    Some(&"2d") => Dim::D2,
                    Some(&"2darray") => Dim::D2Array,
                    Some(&"3d") => Dim::D3,
                    other => {
                        return Err((
                            LiftErrorKind::Unsupported,
                            format!(
                                "a typed UAV of dimension {}: only buffer, 1d, 1darray, 2d, \
                                 2darray and 3d are lifted",
                                other.unwrap_or(&"?")
                            ),
                        ))
                    }
                };
                add(&mut self.uavs, "UAV", id, Uav::Typed { dim })
            }
            "dcl_raw_srv" => add(&mut self.srvs, "SRV", id, Srv::Raw),
            "dcl_struct_srv" => {
                let stride = stride(extra(0)?)?;
                add(&mut self.srvs, "SRV", id, Srv::Struct { stride })
            }
            "dcl_lds" | "dcl_gds" => {
                let bytes = extra(0)?;
                if !bytes.is_multiple_of(4) {
                    return Err(invalid(format!(
                        "{bytes} bytes: the size must be four-byte aligned (L9918, L12227)"
                    )));
                }
                let (map, what) = self.shared(row.mnemonic);
                add(map, what, id, Shared::Raw { bytes })
            }
            "dcl_struct_lds" | "dcl_struct_gds" => {
                let (stride, count) = (stride(extra(0)?)?, extra(1)?);
                let (map, what) = self.shared(row.mnemonic);
                add(map, what, id, Shared::Struct { stride, count })
            }
            m => Err(invalid(format!("{m} is not a memory declaration"))),
        }
    }

    fn shared(&mut self, mnemonic: &str) -> (&mut BTreeMap<u32, Shared>, &'static str) {
        if mnemonic.ends_with("gds") {
            (&mut self.gds, "GDS")
        } else {
            (&mut self.lds, "LDS")
        }
    }

    /// What the launch must provide for these declarations.
    pub(in crate::lift) fn bindings(&self) -> Bindings {
        let mut views: Vec<View> = (self.uavs.iter())
            .filter(|(_, u)| matches!(u, Uav::Struct { .. } | Uav::Typed { .. }))
            .map(|(&id, _)| View::Uav(id))
            .collect();
        views.extend(self.srvs.keys().map(|&id| View::Srv(id)));
        if !self.gds.is_empty() {
            views.push(View::Gds);
        }
        let most = |m: &BTreeMap<u32, Shared>| m.values().map(|s| s.bytes()).max().unwrap_or(0);
        Bindings {
            views,
            private_lane_bytes: (self.uavs.values())
                .map(|u| match u {
                    Uav::Private { bytes } => *bytes,
                    _ => 0,
                })
                .max()
                .unwrap_or(0),
            gds_bytes: most(&self.gds),
            lds_bytes: most(&self.lds),
        }
    }
}

/// A structure stride: "> 0 and a multiple of 4" (L10069, L10050, L10026).
fn stride(k: u32) -> Result<u32, Refusal> {
    if k > 0 && k.is_multiple_of(4) {
        Ok(k)
    } else {
        Err(invalid(format!(
            "stride {k}: a stride is > 0 and a multiple of 4 (L10069)"
        )))
    }
}

/// Records `id` as `what`, refusing a different earlier declaration of it.
fn add<T: Copy + PartialEq + std::fmt::Debug>(
    map: &mut BTreeMap<u32, T>,
    what: &str,
    id: u32,
    v: T,
) -> Result<(), Refusal> {
    match map.insert(id, v) {
        Some(old) if old != v => Err(invalid(format!(
            "{what} {id} is declared twice, differently ({old:?}, then {v:?})"
        ))),
        _ => Ok(()),
    }
}
