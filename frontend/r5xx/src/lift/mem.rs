//! GPU memory as the lifted code sees it: the memory controller's address translation and
//! data-format conversions ([`crate::mc`]) instantiated with IR values ([`Ir`]), so that the
//! host and the lifted code share one definition of both, and the three constant clients.
//!
//! GPU address `a` (32-bit) is guest address `mem + a`, `mem` being the uniform base the
//! launch stores ([`super::state::R5xxLayout::mem_base`]); the executor maps GPU memory as one
//! guest buffer, so an access past its end is a guest fault that names the address, and no
//! access reaches anything else.
//!
//! # Constants (seed 003 §2.1.4: "the index pair for each of the constants is (c, 0)")
//! - Float constant c (0-255; with REL, `(c + aL) mod 256`, the address field's range) is
//!   element (c, 0) of the `set_constf_fmt` surface, its four channels converted as the
//!   surface's format says ([`crate::mc::read_element`]).
//! - Integer constant c (INT_ADDR, 0-31) is element (c, 0) of the `set_consti_fmt` surface
//!   read as raw integers: channel k's bytes zero-extended (UINT8_4: byte k; UINT16_1: the
//!   16-bit value; FLOAT32_*: the dword's bits), a channel the format lacks 0. Its R is the
//!   iteration count and G the initial aL (both the low 8 bits, unsigned), B the aL step (the
//!   low 8 bits, signed): r5xx_sources.md §3 (`US_FC_INT_CONST` KR/KG/KB are bytes).
//! - Boolean constant c (BOOL_ADDR, 0-31) is element (c, 0) of the `set_constb_fmt` surface:
//!   true when channel R's raw bits are nonzero.
//!
//! A constant is read whenever its instruction runs (the whole group fetches it, even with no
//! processor active), so a constant outside GPU memory faults then.

use crate::mc::{read_element, translate, BitOps, FloatOps, Surface};
use wavejit_ir::{FunctionBuilder, MemSpace, MemWidth, Op, ScalarType, Value};

use ScalarType::{F32, I32, I64};

/// [`crate::mc`]'s operations on IR values: `i32` values (uniform or per lane) holding
/// addresses, raw channel bits or f32 bit patterns.
pub struct Ir<'a> {
    pub b: &'a mut FunctionBuilder,
}

impl BitOps for Ir<'_> {
    type V = Value;
    fn constant(&mut self, value: u32) -> Value {
        self.b.i32(value)
    }
    fn field(&mut self, v: Value, hi: u32, lo: u32) -> Value {
        let off = self.b.i32(lo);
        let width = self.b.i32(hi - lo + 1);
        self.b.op(Op::Ubfe, I32, &[v, off, width])
    }
    fn shl(&mut self, v: Value, n: u32) -> Value {
        let n = self.b.i32(n);
        self.b.op(Op::Shl, I32, &[v, n])
    }
    fn or(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Or, I32, &[a, b])
    }
    fn xor(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Xor, I32, &[a, b])
    }
    fn add(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Iadd, I32, &[a, b])
    }
    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Imul, I32, &[a, b])
    }
}

impl Ir<'_> {
    fn float(&mut self, v: Value) -> Value {
        self.b.op(Op::Bitcast, F32, &[v])
    }
    fn bits(&mut self, v: Value) -> Value {
        self.b.op(Op::Bitcast, I32, &[v])
    }
    fn float_op(&mut self, op: Op, args: &[Value]) -> Value {
        let f: Vec<Value> = args.iter().map(|&a| self.float(a)).collect();
        let r = self.b.op(op, F32, &f);
        self.bits(r)
    }
}

impl FloatOps for Ir<'_> {
    fn u_to_f(&mut self, v: Value) -> Value {
        let f = self.b.op(Op::UtoF, F32, &[v]);
        self.bits(f)
    }
    fn f_div(&mut self, a: Value, b: Value) -> Value {
        self.float_op(Op::Fdiv, &[a, b])
    }
    fn f_mul(&mut self, a: Value, b: Value) -> Value {
        self.float_op(Op::Fmul, &[a, b])
    }
    fn f_clamp01(&mut self, v: Value) -> Value {
        self.float_op(Op::Fclamp { dx10: true }, &[v])
    }
    fn f_rint(&mut self, v: Value) -> Value {
        self.float_op(Op::Frint, &[v])
    }
    fn f_to_u(&mut self, v: Value) -> Value {
        let f = self.float(v);
        self.b.op(Op::FtoU, I32, &[f])
    }
}

/// Where GPU memory is and which lanes access it.
#[derive(Clone, Copy, Debug)]
pub struct Gpu {
    /// The guest address of GPU address 0 (uniform `i64`).
    pub base: Value,
    /// The lanes that access memory (`None`: a uniform access).
    pub mask: Option<Value>,
}

fn width(size: u32) -> MemWidth {
    match size {
        1 => MemWidth::B8,
        2 => MemWidth::B16,
        _ => MemWidth::B32,
    }
}

impl Gpu {
    fn guest(&self, b: &mut FunctionBuilder, addr: Value) -> Value {
        let wide = b.op(Op::Zext, I64, &[addr]);
        b.op(Op::Iadd, I64, &[self.base, wide])
    }

    /// `size` bytes (1, 2 or 4) at GPU address `addr`, zero-extended to `i32`.
    pub fn load(&self, b: &mut FunctionBuilder, addr: Value, size: u32) -> Value {
        let a = self.guest(b, addr);
        b.load(MemSpace::Global, width(size), false, I32, a, self.mask)
    }

    /// Stores the low `size` bytes of `value` at GPU address `addr`.
    pub fn store(&self, b: &mut FunctionBuilder, addr: Value, size: u32, value: Value) {
        let a = self.guest(b, addr);
        b.store(MemSpace::Global, width(size), a, value, self.mask);
    }
}

/// The four f32 channels of element (`x`, 0) of `s` (a float constant).
pub fn read_constant(b: &mut FunctionBuilder, gpu: Gpu, s: &Surface, x: Value) -> [Value; 4] {
    let mut ir = Ir { b };
    let y = ir.b.i32(0);
    let mut load = |ir: &mut Ir, addr: Value, size: u32| gpu.load(ir.b, addr, size);
    let v = read_element(&mut ir, s, x, y, &mut load);
    v.map(|c| b.op(Op::Bitcast, F32, &[c]))
}

/// The raw channels R, G, B of element (`x`, 0) of `s` (an integer or boolean constant):
/// each channel's bytes zero-extended, 0 for a channel the format lacks.
pub fn read_raw(b: &mut FunctionBuilder, gpu: Gpu, s: &Surface, x: Value) -> [Value; 3] {
    let mut ir = Ir { b };
    let y = ir.b.i32(0);
    let addr = translate(&mut ir, s, x, y);
    let channels = s.format.channels();
    std::array::from_fn(|c| match channels.get(c) {
        Some(ch) => {
            let off = ir.b.i32(ch.offset);
            let a = ir.b.op(Op::Iadd, I32, &[addr, off]);
            gpu.load(ir.b, a, ch.kind.size())
        }
        None => ir.b.i32(0),
    })
}

impl super::Lifter<'_> {
    /// Float constant `x` (uniform `i32`, 0-255): its four channels as f32.
    pub(super) fn float_constant(&mut self, x: Value) -> Result<[Value; 4], super::LiftError> {
        let s = self.setup.bindings.constf.ok_or_else(|| {
            self.invalid("reads a float constant, but no set_constf_fmt was given")
        })?;
        let gpu = self.gpu_uniform();
        Ok(read_constant(&mut self.b, gpu, &s, x))
    }

    /// Integer constant `c`: its iteration count, initial aL and aL step (uniform `i32`).
    pub(super) fn int_constant(
        &mut self,
        c: u8,
    ) -> Result<(Value, Value, Value), super::LiftError> {
        let s = self.setup.bindings.consti.ok_or_else(|| {
            self.invalid("reads an integer constant, but no set_consti_fmt was given")
        })?;
        let gpu = self.gpu_uniform();
        let x = self.b.i32(u32::from(c));
        let [r, g, b] = read_raw(&mut self.b, gpu, &s, x);
        let byte = self.b.i32(0xff);
        let count = self.b.op(Op::And, I32, &[r, byte]);
        let init = self.b.op(Op::And, I32, &[g, byte]);
        let zero = self.b.i32(0);
        let eight = self.b.i32(8);
        let step = self.b.op(Op::Sbfe, I32, &[b, zero, eight]);
        Ok((count, init, step))
    }

    /// Boolean constant `c` (uniform `i1`).
    pub(super) fn bool_constant(&mut self, c: u8) -> Result<Value, super::LiftError> {
        let s = self.setup.bindings.constb.ok_or_else(|| {
            self.invalid("reads a boolean constant, but no set_constb_fmt was given")
        })?;
        let gpu = self.gpu_uniform();
        let x = self.b.i32(u32::from(c));
        let [r, ..] = read_raw(&mut self.b, gpu, &s, x);
        let zero = self.b.i32(0);
        Ok(self
            .b
            .op(Op::Icmp(wavejit_ir::IntCC::Ne), ScalarType::I1, &[r, zero]))
    }
}
