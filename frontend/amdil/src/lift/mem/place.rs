//! Where an access goes: a [`Place`] per resource kind, from the instruction's id, its
//! declaration and its address source.
//!
//! - Raw and arena UAVs: byte `src0.x` of the arena (L11419); every raw UAV id addresses the
//!   arena from its first byte (the OpenCL convention: pointer arguments are byte offsets into
//!   one heap).
//! - Private UAVs: byte `src0.x` of the lane's own bytes, in range below the declared length.
//! - Structured UAVs and SRVs: byte `src0.x * stride + src0.y` of the view (L12011), in range
//!   when the structure index is below the view's count and the offset plus the access's
//!   bytes within the stride (the seed leaves an offset past the stride undefined, L12015).
//! - Raw SRVs: byte `src0.x` of the view, in range below its size in bytes (L11098).
//! - Typed UAVs: the element at coordinates `src0.x`, `.y`, `.z` (as many as the dimension
//!   has, L11291: "the address (in elements)"), in range when each is below its extent
//!   (L11293: an index out of range loads 0).
//! - LDS and GDS: byte `src0.x`, or `src0.x * stride + offset` of a structured declaration
//!   (L3290-L3298; the offset is `src0.y`, or `src1.x` for the vector forms, L10362). Every
//!   LDS id addresses the work-group's LDS from byte 0 and every GDS id the GDS view from
//!   byte 0; the LDS range is the IR's, the GDS's the declared bytes (the seed gives no GDS
//!   rule; the LDS's is applied, as the GCN lift does).

use super::align_down;
use super::decl::{Dim, Shared, Srv, Uav};
use crate::lift::state::{view, View};
use crate::lift::Lifter;
use wavejit_ir::{IntCC, MemSpace, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::{I1, I32, I64};

/// The addressing of one access before the byte offset of its element.
pub(in crate::lift) struct Place {
    pub space: MemSpace,
    /// For the global space: the uniform `i64` guest address `at` counts from.
    pub base: Option<Value>,
    /// The byte address: an `i32` in the LDS and private spaces, an `i64` from `base`.
    pub at: Value,
    /// The bound: an access of `width` bytes at byte `k` is in range when
    /// `rel + k + width <= limit` (both `i64`, unsigned).
    pub check: Option<(Value, Value)>,
    /// The lanes in range by what `check` does not cover.
    pub ok: Option<Value>,
}

impl Lifter<'_> {
    /// The instruction's UAV id and its declaration.
    pub(super) fn uav_decl(&self) -> Result<(u32, Uav), LiftError> {
        let id = self.res_id();
        match self.decls.res.uavs.get(&id) {
            Some(&u) => Ok((id, u)),
            None => Err(self.invalid(format!("UAV {id} is not declared"))),
        }
    }

    /// The place of a raw UAV access (raw, arena or private) of `align`-byte elements.
    pub(super) fn raw_uav_place(&mut self, align: u32) -> Result<Place, LiftError> {
        let (id, uav) = self.uav_decl().map_err(|_| self.not_raw(self.res_id()))?;
        match uav {
            Uav::Raw | Uav::Private { .. } => self.uav_place(id, uav, align),
            _ => Err(self.not_raw(id)),
        }
    }

    fn not_raw(&self, id: u32) -> LiftError {
        self.invalid(format!("UAV {id} is not declared raw (L11423)"))
    }

    /// The place of an access to UAV `id` declared `uav`, address in source 0.
    pub(super) fn uav_place(&mut self, id: u32, uav: Uav, align: u32) -> Result<Place, LiftError> {
        Ok(match uav {
            Uav::Raw => {
                let a = self.address_comp(0, 0)?;
                self.arena_place(a, align)
            }
            Uav::Private { bytes } => {
                let a = self.address_comp(0, 0)?;
                let at = align_down(&mut self.b, a, align);
                let rel = self.b.op(Op::Zext, I64, &[at]);
                let limit = self.b.i64(u64::from(bytes));
                Place {
                    space: MemSpace::Private,
                    base: None,
                    at,
                    check: Some((rel, limit)),
                    ok: None,
                }
            }
            Uav::Struct { stride } => self.struct_place(View::Uav(id), stride)?,
            Uav::Typed { dim } => self.typed_place(id, dim)?,
        })
    }

    /// Byte `a` (aligned down to `align`) of the arena.
    pub(super) fn arena_place(&mut self, a: Value, align: u32) -> Place {
        let a = align_down(&mut self.b, a, align);
        let base = self.b.use_reg(self.l.arena(), I64);
        let at = self.b.op(Op::Zext, I64, &[a]);
        Place {
            space: MemSpace::Global,
            base: Some(base),
            at,
            check: None,
            ok: None,
        }
    }

    /// The place of an SRV access, address in source 0.
    pub(super) fn srv_place(&mut self, structured: bool) -> Result<Place, LiftError> {
        let id = self.res_id();
        match (self.decls.res.srvs.get(&id), structured) {
            (Some(Srv::Raw), false) => {
                let a = self.address_comp(0, 0)?;
                let a = align_down(&mut self.b, a, 4);
                let at = self.b.op(Op::Zext, I64, &[a]);
                let size = self.view_cell(View::Srv(id), view::SIZE)?;
                let limit = self.b.op(Op::Zext, I64, &[size]);
                Ok(Place {
                    check: Some((at, limit)),
                    ..self.view_place(View::Srv(id), at)?
                })
            }
            (Some(&Srv::Struct { stride }), true) => self.struct_place(View::Srv(id), stride),
            (Some(_), _) => Err(self.invalid(format!(
                "SRV {id} is not declared {} (L11098, L11114)",
                if structured { "structured" } else { "raw" }
            ))),
            (None, _) => Err(self.invalid(format!("SRV {id} is not declared"))),
        }
    }

    /// Cell `cell` of view `v`, as a uniform `i32`.
    pub(super) fn view_cell(&mut self, v: View, cell: u32) -> Result<Value, LiftError> {
        let r = self
            .l
            .view(v, cell)
            .ok_or_else(|| self.invalid(format!("{v:?} has no view cells")))?;
        Ok(self.b.use_reg(r, I32))
    }

    /// A global place `at` bytes into view `v`.
    fn view_place(&mut self, v: View, at: Value) -> Result<Place, LiftError> {
        let offset = self.view_cell(v, view::OFFSET)?;
        let arena = self.b.use_reg(self.l.arena(), I64);
        let offset = self.b.op(Op::Zext, I64, &[offset]);
        let base = self.b.op(Op::Iadd, I64, &[arena, offset]);
        Ok(Place {
            space: MemSpace::Global,
            base: Some(base),
            at,
            check: None,
            ok: None,
        })
    }

    /// `src0.x * stride + src0.y` of a structured view.
    fn struct_place(&mut self, v: View, stride: u32) -> Result<Place, LiftError> {
        let index = self.address_comp(0, 0)?;
        let offset = self.address_comp(0, 1)?;
        let offset = align_down(&mut self.b, offset, 4);
        let count = self.view_cell(v, view::SIZE)?;
        let b = &mut self.b;
        let in_count = b.op(Op::Icmp(IntCC::Ult), I1, &[index, count]);
        let index = b.op(Op::Zext, I64, &[index]);
        let k = b.i64(u64::from(stride));
        let start = b.op(Op::Imul, I64, &[index, k]);
        let offset = b.op(Op::Zext, I64, &[offset]);
        let at = b.op(Op::Iadd, I64, &[start, offset]);
        let limit = b.i64(u64::from(stride));
        Ok(Place {
            check: Some((offset, limit)),
            ok: Some(in_count),
            ..self.view_place(v, at)?
        })
    }

    /// The element of typed UAV `id` at the coordinates in source 0.
    pub(super) fn typed_place(&mut self, id: u32, dim: Dim) -> Result<Place, LiftError> {
        const AXES: [(u32, u32); 3] = [
            (view::SIZE, view::ELEMENT_BYTES),
            (view::HEIGHT, view::ROW_PITCH),
            (view::DEPTH, view::SLICE_PITCH),
        ];
        let v = View::Uav(id);
        let mut at = self.b.i64(0);
        let mut ok: Option<Value> = None;
        for (c, &(extent, pitch)) in AXES.iter().enumerate().take(dim.coords()) {
            let x = self.address_comp(0, c)?;
            let extent = self.view_cell(v, extent)?;
            let pitch = self.view_cell(v, pitch)?;
            let b = &mut self.b;
            let inside = b.op(Op::Icmp(IntCC::Ult), I1, &[x, extent]);
            ok = Some(match ok {
                Some(o) => b.op(Op::And, I1, &[o, inside]),
                None => inside,
            });
            let x = b.op(Op::Zext, I64, &[x]);
            let pitch = b.op(Op::Zext, I64, &[pitch]);
            let part = b.op(Op::Imul, I64, &[x, pitch]);
            at = b.op(Op::Iadd, I64, &[at, part]);
        }
        Ok(Place {
            ok,
            ..self.view_place(v, at)?
        })
    }

    /// The place of an LDS (or, with `gds`, GDS) access of `align`-byte elements: address in
    /// source 0, a structured declaration's offset in source `offset.0` component `offset.1`.
    pub(super) fn shared_place(
        &mut self,
        gds: bool,
        offset: (usize, usize),
        align: u32,
    ) -> Result<Place, LiftError> {
        let id = self.res_id();
        let decls = if gds {
            &self.decls.res.gds
        } else {
            &self.decls.res.lds
        };
        let Some(&decl) = decls.get(&id) else {
            return Err(self.invalid(if gds {
                format!("GDS {id} is not declared (dcl_gds, L12225)")
            } else {
                format!("LDS {id} is not declared (dcl_lds, L9914)")
            }));
        };
        let a = self.address_comp(0, 0)?;
        let a = match decl {
            Shared::Raw { .. } => a,
            Shared::Struct { stride, .. } => {
                let off = self.address_comp(offset.0, offset.1)?;
                let k = self.b.i32(stride);
                let start = self.b.op(Op::Imul, I32, &[a, k]);
                self.b.op(Op::Iadd, I32, &[start, off])
            }
        };
        let a = align_down(&mut self.b, a, align);
        if !gds {
            return Ok(Place {
                space: MemSpace::Lds,
                base: None,
                at: a,
                check: None,
                ok: None,
            });
        }
        let at = self.b.op(Op::Zext, I64, &[a]);
        let limit = self.b.i64(u64::from(self.l.bindings.gds_bytes));
        Ok(Place {
            check: Some((at, limit)),
            ..self.view_place(View::Gds, at)?
        })
    }
}
