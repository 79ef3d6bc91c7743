//! Loads and stores of dwords, shorts and bytes (the places: `place.rs`).
//!
//! - Up to four dwords: `uav_raw_load_id(n) dst, src0.x` (L11417), `uav_struct_load_id(n)
//!   dst, src0.xy` (L12008), `srv_raw_load` (L11098), `srv_struct_load` (L11106) and
//!   `lds_load_vec_id(n) dst, src0, src1` (L10354) read dword `c` at byte `4c` of the place
//!   for each component `c` the mask writes (the others are not read). `uav_raw_store_id(n)
//!   mem, src0.x, src1` (L11455), `uav_struct_store` (L12029) and `lds_store_vec_id(n) mem,
//!   src0, src1, src2` (L10915) write dword `c` of the data source for each component of the
//!   `mem` mask, gaps allowed (L11465; lds_store_vec's "only .x, .xy, .xyzw", L10931, is
//!   contradicted by its own example `mem.xyz_`, so gaps are allowed there too).
//! - One value, into dst.x (the entries give only dst.x): `lds_load` (L10216), `gds_load`
//!   (L12414), the LDS byte and short loads (L10247-L10352: byte and short sign-extend, ubyte
//!   zero-extends; `lds_load_ushort` "an unsigned short, sign-extended" (L10330) is read as
//!   its name says: zero-extended) and AMD's post-v2.4 `uav_byte_load`, `uav_ubyte_load`,
//!   `uav_short_load`, `uav_ushort_load` (no entry; AMD's LLVM AMDIL back end prints them as
//!   `$dst, $addy` loads of one 32-bit register for sign- and zero-extending i8/i16 loads,
//!   `AMDILMultiClass.td` `UAVRawLSInst`).
//! - One value stored: `lds_store_id(n) src0, src1` (L10853), `lds_store_byte` and
//!   `lds_store_short` (L10881, L10898) store the low bytes of src1.x; `gds_store_id(n) dst,
//!   src0, src1` (L12957) stores src1.x (its destination must be `mem`; the entry does not use
//!   it); `uav_byte_store_id(n) mem, src0.x, src1` and `uav_short_store` (no entry; AMD's back
//!   end prints `$mem, $addy, $src`) store the low bytes of source 1's component that `mem`'s
//!   mask writes, which must be exactly one.
//! - Arena UAVs (L11213-L11252): `uav_arena_load_id(n)_size(s) dst, src0.x` reads one dword,
//!   short or byte, zero-extended (the seed does not say; AMD's compiler extends every
//!   sub-dword arena load itself with a shift pair, `AMDILIOExpansion.cpp`
//!   `expandExtendLoad`), into the one component the mask writes (L11217).
//!   `uav_arena_store_id(n)_size(s) addr, src0.x` stores the low bytes of src0.x at the
//!   address in the destination register's written component: the seed's text is damaged
//!   (L11239-L11241, "Src0.x specifies the address" next to a lost line about the data), and
//!   AMD's compiler makes the destination the address (`AMDILMultiClass.td` `ArenaLSInst`:
//!   `(outs reg:$addy)`, printed `$addy, $src`), as GPUOcelot's PTX-to-IL translator does
//!   (`_translateSt`). The address register must be a temp.

use super::decl::Uav;
use super::{width_of, Place};
use crate::inst::Index;
use crate::lift::regs::Kind;
use crate::lift::Lifter;
use crate::token::{DstComp, DstMod, RegType};
use wavejit_ir::{MemWidth, ScalarType};
use wavejit_isa::LiftError;

/// A single-value load or store: its resource, its bytes, sign extension.
#[derive(Clone, Copy)]
enum One {
    Lds(u32, bool),
    Gds,
    Uav(u32, bool),
}

impl Lifter<'_> {
    /// Lifts a load or store of this module; `false` if `m` is not one.
    pub(super) fn lift_access(&mut self, m: &str) -> Result<bool, LiftError> {
        match m {
            "uav_raw_load" | "uav_struct_load" | "srv_raw_load" | "srv_struct_load"
            | "lds_load_vec" => self.load_dwords(m)?,
            "uav_raw_store" | "uav_struct_store" | "lds_store_vec" => self.store_dwords(m)?,
            "lds_load" => self.load_one(One::Lds(4, false), "L10228")?,
            "lds_load_byte" => self.load_one(One::Lds(1, true), "L10251")?,
            "lds_load_ubyte" => self.load_one(One::Lds(1, false), "L10302")?,
            "lds_load_short" => self.load_one(One::Lds(2, true), "L10276")?,
            "lds_load_ushort" => self.load_one(One::Lds(2, false), "L10330")?,
            "gds_load" => self.load_one(One::Gds, "L12415")?,
            "uav_byte_load" => self.load_one(One::Uav(1, true), "a byte load")?,
            "uav_ubyte_load" => self.load_one(One::Uav(1, false), "a byte load")?,
            "uav_short_load" => self.load_one(One::Uav(2, true), "a short load")?,
            "uav_ushort_load" => self.load_one(One::Uav(2, false), "a short load")?,
            "lds_store" => self.store_one(One::Lds(4, false))?,
            "lds_store_byte" => self.store_one(One::Lds(1, false))?,
            "lds_store_short" => self.store_one(One::Lds(2, false))?,
            "gds_store" => self.store_one(One::Gds)?,
            "uav_byte_store" => self.store_one(One::Uav(1, false))?,
            "uav_short_store" => self.store_one(One::Uav(2, false))?,
            "uav_arena_load" => self.arena_load()?,
            "uav_arena_store" => self.arena_store()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The place of a dword-vector access `m`, address in source 0.
    fn dwords_place(&mut self, m: &str) -> Result<Place, LiftError> {
        match m {
            "uav_raw_load" | "uav_raw_store" => self.raw_uav_place(4),
            "uav_struct_load" | "uav_struct_store" => match self.uav_decl()? {
                (id, uav @ Uav::Struct { .. }) => self.uav_place(id, uav, 4),
                (id, _) => {
                    Err(self.invalid(format!("UAV {id} is not declared structured (L12011)")))
                }
            },
            "srv_raw_load" => self.srv_place(false),
            "srv_struct_load" => self.srv_place(true),
            // The vector forms' structure offset is src1.x (L10362, L10925).
            _ => self.shared_place(false, (1, 0), 4),
        }
    }

    fn load_dwords(&mut self, m: &str) -> Result<(), LiftError> {
        if m == "srv_struct_load" && self.field("ext") != 0 {
            return Err(self.unsupported("an indexed resource id (_ext, L11134) is not lifted"));
        }
        self.operands(1, if m == "lds_load_vec" { 2 } else { 1 })?;
        let comps = self.dst_comps()?;
        let p = self.dwords_place(m)?;
        let mut vals = [None; 4];
        for (c, v) in vals.iter_mut().enumerate() {
            if comps[c] == DstComp::Write {
                *v = Some(self.load_at(&p, 4 * c as u32, MemWidth::B32, false));
            }
        }
        self.write_dst(vals, [None; 4], Kind::Bits)
    }

    fn store_dwords(&mut self, m: &str) -> Result<(), LiftError> {
        let vec = m == "lds_store_vec";
        self.operands(1, if vec { 3 } else { 2 })?;
        let mask = self.mem_mask()?;
        let p = self.dwords_place(m)?;
        let data = self.store_values(mask, if vec { 2 } else { 1 })?;
        for (c, v) in data.iter().enumerate() {
            if let Some(v) = *v {
                self.store_at(&p, 4 * c as u32, MemWidth::B32, v);
            }
        }
        Ok(())
    }

    /// The place and width of a single-value access; a structured LDS or GDS takes its offset
    /// from src0.y (L10226).
    fn one_place(&mut self, one: One) -> Result<(Place, MemWidth, bool), LiftError> {
        Ok(match one {
            One::Lds(bytes, signed) => (
                self.shared_place(false, (0, 1), bytes)?,
                width_of(bytes),
                signed,
            ),
            One::Gds => (self.shared_place(true, (0, 1), 4)?, MemWidth::B32, false),
            One::Uav(bytes, signed) => (self.raw_uav_place(bytes)?, width_of(bytes), signed),
        })
    }

    fn load_one(&mut self, one: One, entry: &str) -> Result<(), LiftError> {
        self.operands(1, 1)?;
        let (p, width, signed) = self.one_place(one)?;
        let why = format!("{} returns one value ({entry})", self.row().mnemonic);
        self.write_x(|s| s.load_at(&p, 0, width, signed), &why)
    }

    fn store_one(&mut self, one: One) -> Result<(), LiftError> {
        let data = match one {
            One::Lds(..) => {
                self.operands(0, 2)?;
                self.src(1, 0, Kind::Bits)?
            }
            One::Gds => {
                self.operands(1, 2)?;
                self.mem_mask()?;
                self.src(1, 0, Kind::Bits)?
            }
            One::Uav(..) => {
                self.operands(1, 2)?;
                let mask = self.mem_mask()?;
                let c = self.one_component(&mask)?;
                self.src(1, c, Kind::Bits)?
            }
        };
        let (p, width, _) = self.one_place(one)?;
        self.store_at(&p, 0, width, data);
        Ok(())
    }

    /// The bytes of an arena access's `_size(...)` (IL_LOAD_STORE_DATA_SIZE: dword, short,
    /// byte).
    fn arena_size(&self) -> Result<u32, LiftError> {
        match self.field("size") {
            0 => Ok(4),
            1 => Ok(2),
            2 => Ok(1),
            s => Err(self.invalid(format!("data size {s} (IL_LOAD_STORE_DATA_SIZE ends at 2)"))),
        }
    }

    /// Checks that the instruction names a raw (or arena) UAV.
    fn arena_uav(&self) -> Result<(), LiftError> {
        match self.uav_decl() {
            Ok((_, Uav::Raw)) => Ok(()),
            _ => Err(self.invalid(format!(
                "UAV {} is not declared an arena UAV (L11215)",
                self.res_id()
            ))),
        }
    }

    fn arena_load(&mut self) -> Result<(), LiftError> {
        self.operands(1, 1)?;
        self.arena_uav()?;
        let bytes = self.arena_size()?;
        let mask = self.dst_comps()?;
        let c = self.one_component(&mask)?;
        let a = self.address_comp(0, 0)?;
        let p = self.arena_place(a, bytes);
        let v = self.load_at(&p, 0, width_of(bytes), false);
        let mut vals = [None; 4];
        vals[c] = Some(v);
        self.write_dst(vals, [None; 4], Kind::Bits)
    }

    fn arena_store(&mut self) -> Result<(), LiftError> {
        self.operands(1, 1)?;
        self.arena_uav()?;
        let bytes = self.arena_size()?;
        let dst = &self.inst().dst[0];
        let m = dst.modifier.unwrap_or(DstMod::IDENTITY);
        let c = self.one_component(&m.comp)?;
        if dst.reg.ty != RegType::TEMP || dst.reg.index != Index::None || dst.reg.dim2.is_some() {
            return Err(self
                .unsupported("the address register of uav_arena_store is lifted only as a temp"));
        }
        if m.shift != 0 || m.clamp {
            return Err(self.invalid("the address register takes a write mask only"));
        }
        let r = self.l.temp(dst.reg.num, c as u32);
        let a = self.b.use_reg(r, ScalarType::I32);
        let data = self.src(0, 0, Kind::Bits)?;
        let p = self.arena_place(a, bytes);
        self.store_at(&p, 0, width_of(bytes), data);
        Ok(())
    }
}
