//! Typed UAVs: `uav_load_id(n) dst, src0` (L11281) reads the element at the coordinates in
//! src0 "and converts it" to up to four 32-bit components, written per the mask;
//! `uav_store_id(n) src0, src1` (L11988) converts src1.xyzw to the element's format and
//! writes it. The conversions are the IR's element formats (`wavejit_ir::format`), with the
//! format a run-time code from the view's FORMAT cell (`state::view`).
//!
//! The format is the binding's, not the declaration's: `dcl_uav`'s `fmtx` names the kind of
//! the data (L10097) but not the layout, and AMD's compiler writes `fmtx(uint)` for images it
//! stores floats into (`MatrixMulImage` `mmmKernel` declares `dcl_uav_id(0)_fmtx(uint)_type(2d)`
//! and stores `write_imagef` data), so the launcher's format code decides the whole
//! conversion and `fmtx` changes nothing. Out of range (a coordinate past its extent) a load
//! gives 0 in every component (L11293) and a store writes nothing (L11995). An invalid format
//! code accesses nothing (the IR's rule): a load gives 0, or one in a component whose select is
//! one, and a store writes nothing.

use super::decl::Uav;
use crate::lift::regs::Kind;
use crate::lift::state::{view, View};
use crate::lift::Lifter;
use crate::token::DstComp;
use wavejit_ir::{FormatSrc, MemSpace, Op, ScalarType};
use wavejit_isa::LiftError;

use ScalarType::I32;

impl Lifter<'_> {
    /// Lifts `uav_load` or `uav_store`; `false` if `m` is neither.
    pub(super) fn lift_typed(&mut self, m: &str) -> Result<bool, LiftError> {
        let load = match m {
            "uav_load" => true,
            "uav_store" => false,
            _ => return Ok(false),
        };
        if load {
            self.operands(1, 1)?;
        } else {
            self.operands(0, 2)?;
        }
        let (id, dim) = match self.uav_decl()? {
            (id, Uav::Typed { dim }) => (id, dim),
            (id, _) => return Err(self.invalid(format!("UAV {id} is not declared typed (L11289)"))),
        };
        let p = self.typed_place(id, dim)?;
        let (addr, ok) = self.target(&p, 0, 0);
        let mask = self.acting(ok);
        let code = self.view_cell(View::Uav(id), view::FORMAT)?;
        let format = FormatSrc::Dynamic(code);
        if load {
            let comps = self.dst_comps()?;
            let mut vals = [None; 4];
            for (c, v) in vals.iter_mut().enumerate() {
                if comps[c] != DstComp::Write {
                    continue;
                }
                let x =
                    self.b
                        .load_format(MemSpace::Global, format, c as u8, false, addr, Some(mask));
                *v = Some(match ok {
                    Some(ok) => {
                        let zero = self.b.i32(0);
                        self.b.op(Op::Select, I32, &[ok, x, zero])
                    }
                    None => x,
                });
            }
            self.write_dst(vals, [None; 4], Kind::Bits)?;
        } else {
            let mut data = Vec::with_capacity(4);
            for c in 0..4 {
                data.push(self.src(1, c, Kind::Bits)?);
            }
            self.b
                .store_format(MemSpace::Global, format, addr, &data, Some(mask));
        }
        Ok(true)
    }
}
