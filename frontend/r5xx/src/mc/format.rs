//! Data formats: where each channel of an element lies and how its bytes convert to and
//! from the f32 a program sees, written once over [`FloatOps`] (host: [`Host`]; lifter: IR).
//!
//! The seed names the formats (§2.2.2) but not their conversions. The choices:
//! - channel c of an element is at byte offset `c * size` (little-endian), one per channel
//!   the format has ([`Channel`], [`DataFormat::channels`]);
//! - UINT8_4 and UINT16_1 are unsigned normalised: a read gives `f32(v) / 255.0`
//!   (`/ 65535.0`), one IEEE division rounded to nearest even; a write clamps to [0, 1]
//!   (NaN gives +0), multiplies by 255.0 (65535.0) rounded to f32, rounds that to the
//!   nearest integer with ties to even, and stores the integer. This is the DX9/D3D UNORM
//!   rule, the natural reading of a graphics part's 8- and 16-bit formats;
//! - FLOAT32 channels are raw bits both ways: the MC does not flush denormals or quiet NaNs
//!   (the processors' float rules apply to arithmetic, not to memory);
//! - channels a format lacks read as [`MISSING`]: G = 0, B = 0, A = 1.0, as in DX9;
//! - a write stores only the channels the format has whose bit in the output mask is set,
//!   each with its own store of `size` bytes, so masked channels keep their bytes.
//!
//! A lifter mirrors exactly [`read_input`], [`read_element`] and [`write_element`] by
//! implementing [`FloatOps`] (and [`BitOps`]) for its values: the loads and stores are its
//! closures; everything else it must not re-derive.

use super::translate::{translate, BitOps, Host};
use super::{DataFormat, McError, Surface};

/// How a channel's raw bytes encode its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// 8-bit unsigned normalised (UINT8_4).
    Unorm8,
    /// 16-bit unsigned normalised (UINT16_1).
    Unorm16,
    /// IEEE single, raw bits (FLOAT32_*).
    Float32,
}

impl Kind {
    /// Bytes of one channel.
    pub fn size(self) -> u32 {
        match self {
            Kind::Unorm8 => 1,
            Kind::Unorm16 => 2,
            Kind::Float32 => 4,
        }
    }

    /// The f32 bits of the unorm scale, 255.0 or 65535.0.
    fn scale(self) -> u32 {
        match self {
            Kind::Unorm8 => 255.0f32.to_bits(),
            _ => 65535.0f32.to_bits(),
        }
    }
}

/// One channel of an element: its byte offset in the element and its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Channel {
    pub offset: u32,
    pub kind: Kind,
}

const fn ch(offset: u32, kind: Kind) -> Channel {
    Channel { offset, kind }
}

const UINT16_1: [Channel; 1] = [ch(0, Kind::Unorm16)];
const UINT8_4: [Channel; 4] = [
    ch(0, Kind::Unorm8),
    ch(1, Kind::Unorm8),
    ch(2, Kind::Unorm8),
    ch(3, Kind::Unorm8),
];
const FLOAT32_4: [Channel; 4] = [
    ch(0, Kind::Float32),
    ch(4, Kind::Float32),
    ch(8, Kind::Float32),
    ch(12, Kind::Float32),
];

/// The f32 bits a read gives for channels the format lacks (index = channel): (_, 0, 0, 1).
pub const MISSING: [u32; 4] = [0, 0, 0, 0x3f80_0000];

/// The 2x2 superfine reads (seed 003 §2.1.4): channel k of the result is channel 0 of
/// element (x + dx, y + dy), k = 0..3 (coordinates wrap modulo 4096 like any other).
pub const SUPERFINE: [(u32, u32); 4] = [(1, 0), (0, 1), (1, 1), (0, 0)];

impl DataFormat {
    /// The channels an element holds, channel 0 first.
    pub fn channels(self) -> &'static [Channel] {
        match self {
            DataFormat::Uint16x1 => &UINT16_1,
            DataFormat::Uint8x4 => &UINT8_4,
            DataFormat::Float32x1 => &FLOAT32_4[..1],
            DataFormat::Float32x2 => &FLOAT32_4[..2],
            DataFormat::Float32x4 => &FLOAT32_4,
        }
    }
}

/// The float operations the conversions need, on f32 bit patterns held in [`BitOps::V`].
/// Each is the IEEE operation with round to nearest even and no denormal flushing.
pub trait FloatOps: BitOps {
    /// The f32 of an unsigned integer (exact: callers pass values below 2^16).
    fn u_to_f(&mut self, v: Self::V) -> Self::V;
    fn f_div(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn f_mul(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Clamp to [0.0, 1.0]; NaN gives +0.0 (the IR's `fclamp` with `dx10`).
    fn f_clamp01(&mut self, v: Self::V) -> Self::V;
    /// Round to the nearest integer, ties to even (the IR's `frint`).
    fn f_rint(&mut self, v: Self::V) -> Self::V;
    /// The unsigned integer of an integral f32 in [0, 65535] (the IR's `ftou`).
    fn f_to_u(&mut self, v: Self::V) -> Self::V;
}

impl FloatOps for Host {
    fn u_to_f(&mut self, v: u32) -> u32 {
        (v as f32).to_bits()
    }
    fn f_div(&mut self, a: u32, b: u32) -> u32 {
        (f32::from_bits(a) / f32::from_bits(b)).to_bits()
    }
    fn f_mul(&mut self, a: u32, b: u32) -> u32 {
        (f32::from_bits(a) * f32::from_bits(b)).to_bits()
    }
    fn f_clamp01(&mut self, v: u32) -> u32 {
        let f = f32::from_bits(v);
        if f.is_nan() {
            0
        } else {
            f.clamp(0.0, 1.0).to_bits()
        }
    }
    fn f_rint(&mut self, v: u32) -> u32 {
        f32::from_bits(v).round_ties_even().to_bits()
    }
    fn f_to_u(&mut self, v: u32) -> u32 {
        f32::from_bits(v) as u32
    }
}

/// The f32 bits of a channel's raw value (its `size` bytes, zero-extended).
pub fn to_float<B: FloatOps>(b: &mut B, kind: Kind, raw: B::V) -> B::V {
    match kind {
        Kind::Float32 => raw,
        Kind::Unorm8 | Kind::Unorm16 => {
            let f = b.u_to_f(raw);
            let scale = b.constant(kind.scale());
            b.f_div(f, scale)
        }
    }
}

/// The raw value (in its low `size` bytes) a channel stores for the f32 bits `v`.
pub fn from_float<B: FloatOps>(b: &mut B, kind: Kind, v: B::V) -> B::V {
    match kind {
        Kind::Float32 => v,
        Kind::Unorm8 | Kind::Unorm16 => {
            let c = b.f_clamp01(v);
            let scale = b.constant(kind.scale());
            let scaled = b.f_mul(c, scale);
            let r = b.f_rint(scaled);
            b.f_to_u(r)
        }
    }
}

/// Reads channel `c` of the element at `addr`: `load(b, address, size)` gives `size` bytes
/// at `address`, zero-extended.
fn read_channel<B, L>(b: &mut B, format: DataFormat, addr: B::V, c: usize, load: &mut L) -> B::V
where
    B: FloatOps,
    L: FnMut(&mut B, B::V, u32) -> B::V,
{
    match format.channels().get(c) {
        Some(ch) => {
            let off = b.constant(ch.offset);
            let a = b.add(addr, off);
            let raw = load(b, a, ch.kind.size());
            to_float(b, ch.kind, raw)
        }
        None => b.constant(MISSING[c]),
    }
}

/// The four channels (f32 bits) of element (x, y): the read of constants, instructions'
/// clients other than inputs, and the conditional buffer (superfine tiling is ignored).
pub fn read_element<B, L>(b: &mut B, s: &Surface, x: B::V, y: B::V, load: &mut L) -> [B::V; 4]
where
    B: FloatOps,
    L: FnMut(&mut B, B::V, u32) -> B::V,
{
    let addr = translate(b, s, x, y);
    std::array::from_fn(|c| read_channel(b, s.format, addr, c, load))
}

/// An input read at (x, y): [`read_element`], or with a superfine tiling the four
/// single-channel elements of [`SUPERFINE`] in channels 0-3.
pub fn read_input<B, L>(b: &mut B, s: &Surface, x: B::V, y: B::V, load: &mut L) -> [B::V; 4]
where
    B: FloatOps,
    L: FnMut(&mut B, B::V, u32) -> B::V,
{
    if !s.tiling.superfine() {
        return read_element(b, s, x, y, load);
    }
    std::array::from_fn(|k| {
        let (dx, dy) = SUPERFINE[k];
        let dx = b.constant(dx);
        let dy = b.constant(dy);
        let xk = b.add(x, dx);
        let yk = b.add(y, dy);
        let addr = translate(b, s, xk, yk);
        read_channel(b, s.format, addr, 0, load)
    })
}

/// Writes `value` (four f32 bit patterns) to element (x, y): each channel the format has
/// whose bit in `mask` is set, as `store(b, address, size, raw)` (the low `size` bytes of
/// `raw`, little-endian). Superfine tiling is ignored, as for every client but inputs.
pub fn write_element<B, S>(
    b: &mut B,
    s: &Surface,
    x: B::V,
    y: B::V,
    mask: u8,
    value: [B::V; 4],
    store: &mut S,
) where
    B: FloatOps,
    S: FnMut(&mut B, B::V, u32, B::V),
{
    let addr = translate(b, s, x, y);
    for (c, ch) in s.format.channels().iter().enumerate() {
        if mask >> c & 1 == 0 {
            continue;
        }
        let raw = from_float(b, ch.kind, value[c]);
        let off = b.constant(ch.offset);
        let a = b.add(addr, off);
        store(b, a, ch.kind.size(), raw);
    }
}

/// The bytes `[addr, addr + size)` of `mem`, or the out-of-memory error.
fn span(mem_len: usize, addr: u32, size: u32) -> Result<std::ops::Range<usize>, McError> {
    let end = addr as u64 + size as u64;
    if end > mem_len as u64 {
        return Err(McError::OutOfMemory(addr as u64));
    }
    Ok(addr as usize..end as usize)
}

impl Surface {
    /// The host read of element (x, y) from `mem` (GPU address 0 at index 0), as an input
    /// (`input`: superfine tiling honoured) or any other client.
    pub fn read(&self, mem: &[u8], x: u32, y: u32, input: bool) -> Result<[u32; 4], McError> {
        let mut fault = None;
        let mut load = |_: &mut Host, addr: u32, size: u32| match span(mem.len(), addr, size) {
            Ok(r) => mem[r]
                .iter()
                .rev()
                .fold(0u32, |v, &byte| v << 8 | byte as u32),
            Err(e) => {
                fault.get_or_insert(e);
                0
            }
        };
        let v = if input {
            read_input(&mut Host, self, x, y, &mut load)
        } else {
            read_element(&mut Host, self, x, y, &mut load)
        };
        fault.map_or(Ok(v), Err)
    }

    /// The host write of `value` to element (x, y) of `mem` under the channel `mask`.
    /// Nothing is written when any channel's bytes lie outside `mem`.
    pub fn write(
        &self,
        mem: &mut [u8],
        x: u32,
        y: u32,
        mask: u8,
        value: [u32; 4],
    ) -> Result<(), McError> {
        let mut stores = Vec::new();
        let mut store =
            |_: &mut Host, addr: u32, size: u32, raw: u32| stores.push((addr, size, raw));
        write_element(&mut Host, self, x, y, mask, value, &mut store);
        let spans = stores
            .iter()
            .map(|&(addr, size, raw)| span(mem.len(), addr, size).map(|r| (r, raw)))
            .collect::<Result<Vec<_>, _>>()?;
        for (r, raw) in spans {
            let n = r.len();
            mem[r].copy_from_slice(&raw.to_le_bytes()[..n]);
        }
        Ok(())
    }
}
