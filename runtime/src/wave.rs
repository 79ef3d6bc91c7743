//! The state of one wave and the per-value storage engines share.
//!
//! Invariants:
//! - [`WaveState`]'s bytes are exactly the layout [`StateLayout`] documents (uniform cells
//!   packed, then one row of `wave_size` cells per lane register), in host byte order, so the
//!   JIT can address them through [`WaveState::as_mut_ptr`] with the layout's offsets.
//! - A 64-bit register value occupies two consecutive cells, low half first; the register
//!   helpers here are the one place that splits and joins them.
//! - Values read from registers are canonical: masked to their scalar type's width.

use std::sync::Arc;
use wavejit_ir::{FileKind, Reg, ScalarType, StateLayout};

/// Storage of one IR value over a wave: a lane value uses entries `0..wave_size`, a uniform
/// value entry 0 only. Entries hold the value's bits zero-extended (a mask: 0 or 1 per lane).
/// This is the exchange format between the interpreter, the JIT's wave-op helpers and
/// [`crate::effects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Lanes(pub [u64; 64]);

impl Default for Lanes {
    fn default() -> Self {
        Lanes([0; 64])
    }
}

impl Lanes {
    /// All entries zero.
    pub const ZERO: Lanes = Lanes([0; 64]);

    /// Entry `lane` of a value of the given shape: a uniform value is the same in every lane.
    #[inline]
    pub fn get(&self, uniform: bool, lane: usize) -> u64 {
        if uniform {
            self.0[0]
        } else {
            self.0[lane]
        }
    }

    /// A lane value whose lane `l` is `f(l)` for `l < wave_size` (other entries zero).
    pub fn from_fn(wave_size: u32, f: impl Fn(u32) -> u64) -> Lanes {
        let mut l = Lanes::ZERO;
        for (i, e) in l.0.iter_mut().enumerate().take(wave_size as usize) {
            *e = f(i as u32);
        }
        l
    }

    /// A uniform value.
    pub fn uniform(v: u64) -> Lanes {
        let mut l = Lanes::ZERO;
        l.0[0] = v;
        l
    }
}

/// Guest register state of one wave, laid out as [`StateLayout`] describes.
#[derive(Clone, Debug)]
pub struct WaveState {
    pub layout: Arc<StateLayout>,
    /// 8-byte aligned backing store of `layout.state_bytes()` bytes.
    words: Vec<u64>,
    /// Per register file, the cell index of its register 0 (lane files: lane 0 of row 0),
    /// so that a register's cell is found without walking the layout.
    bases: Arc<[usize]>,
}

impl WaveState {
    pub fn new(layout: Arc<StateLayout>) -> WaveState {
        let words = vec![0u64; layout.state_bytes().div_ceil(8)];
        let bases = (0..layout.files.len())
            .map(|f| {
                let reg = Reg::new(wavejit_ir::FileId(f as u16), 0);
                match layout.files[f].kind {
                    FileKind::Uniform => layout.uniform_cell(reg) as usize,
                    FileKind::Lane => layout.lane_cell_offset(reg, 0) / 4,
                }
            })
            .collect();
        WaveState {
            layout,
            words,
            bases,
        }
    }

    pub fn wave_size(&self) -> u32 {
        self.layout.wave_size
    }

    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.words.as_mut_ptr() as *mut u8
    }

    /// Sets every register to zero (the state of a fresh wave).
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Sets the cells of `footprint` to zero: for a function whose footprint it is, the same
    /// as [`WaveState::clear`] (the function reads no other cell), at a fraction of the cost
    /// for a large register file.
    pub fn clear_footprint(&mut self, footprint: &Footprint) {
        let cells = self.cells_mut();
        for r in &footprint.ranges {
            if let Some(c) = cells.get_mut(r.clone()) {
                c.fill(0);
            }
        }
    }

    /// The state as 32-bit cells (index = byte offset / 4).
    pub fn cells(&self) -> &[u32] {
        // SAFETY: `words` is a live, 8-byte aligned allocation of `2 * len` initialised u32s;
        // every bit pattern is a valid u32.
        unsafe {
            std::slice::from_raw_parts(self.words.as_ptr() as *const u32, self.words.len() * 2)
        }
    }

    /// The state as mutable 32-bit cells.
    pub fn cells_mut(&mut self) -> &mut [u32] {
        // SAFETY: as in `cells`, and the borrow of `self` is exclusive.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.words.as_mut_ptr() as *mut u32,
                self.words.len() * 2,
            )
        }
    }

    /// The cell index of a uniform register.
    fn uniform_at(&self, reg: Reg) -> usize {
        self.bases[reg.file.0 as usize] + reg.index as usize
    }

    /// The cell index of one lane of a lane register.
    fn lane_at(&self, reg: Reg, lane: u32) -> usize {
        let ws = self.layout.wave_size as usize;
        self.bases[reg.file.0 as usize] + reg.index as usize * ws + lane as usize
    }

    /// A uniform cell.
    pub fn uniform(&self, reg: Reg) -> u32 {
        self.cells()[self.uniform_at(reg)]
    }

    pub fn set_uniform(&mut self, reg: Reg, v: u32) {
        let i = self.uniform_at(reg);
        self.cells_mut()[i] = v
    }

    /// One lane of a lane cell.
    pub fn lane(&self, reg: Reg, lane: u32) -> u32 {
        self.cells()[self.lane_at(reg, lane)]
    }

    pub fn set_lane(&mut self, reg: Reg, lane: u32, v: u32) {
        let i = self.lane_at(reg, lane);
        self.cells_mut()[i] = v
    }

    /// The raw bytes (for comparisons between engines).
    pub fn bytes(&self) -> &[u8] {
        let n = self.layout.state_bytes();
        // SAFETY: `words` holds at least `n` initialised bytes; u64 -> u8 view is always valid.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, n) }
    }

    /// Cell index of register `reg` (the first of its cells); for a lane register, of lane 0
    /// (lane `l` is `+ l`, the next register `+ wave_size`). `None` if `reg .. reg + cells`
    /// is not inside its file.
    pub fn cell_index(&self, reg: Reg, cells: u32) -> Option<(FileKind, usize)> {
        if !self.layout.contains(reg, cells) {
            return None;
        }
        Some(match self.layout.file(reg.file).kind {
            FileKind::Uniform => (FileKind::Uniform, self.layout.uniform_cell(reg) as usize),
            FileKind::Lane => (
                FileKind::Lane,
                self.layout.lane_area_offset() / 4
                    + (self.layout.lane_row(reg) * self.layout.wave_size) as usize,
            ),
        })
    }

    /// Reads a register as `ty` (one or two cells) into `out`: a lane register fills entries
    /// `0..wave_size`, a uniform register entry 0. Returns `false` (and leaves `out` alone) if
    /// the register lies outside its file.
    pub fn read_reg(&self, reg: Reg, ty: ScalarType, out: &mut Lanes) -> bool {
        let Some((kind, base)) = self.cell_index(reg, ty.cells()) else {
            return false;
        };
        let cells = self.cells();
        let mask = ty.bit_mask();
        match kind {
            FileKind::Uniform => out.0[0] = join(cells, base, base + 1, ty) & mask,
            FileKind::Lane => {
                let ws = self.layout.wave_size as usize;
                for (l, e) in out.0.iter_mut().enumerate().take(ws) {
                    *e = join(cells, base + l, base + ws + l, ty) & mask;
                }
            }
        }
        true
    }

    /// Writes `value` (of type `ty`; `value_uniform` says whether only entry 0 is meaningful)
    /// to a register. A lane register takes `mask` (`Some((mask, mask_uniform))`: lanes whose
    /// entry is 0 keep their cells); a uniform register ignores the mask and takes entry 0.
    /// Returns `false` (and writes nothing) if the register lies outside its file.
    pub fn write_reg(
        &mut self,
        reg: Reg,
        ty: ScalarType,
        value: &Lanes,
        value_uniform: bool,
        mask: Option<(&Lanes, bool)>,
    ) -> bool {
        let Some((kind, base)) = self.cell_index(reg, ty.cells()) else {
            return false;
        };
        let ws = self.layout.wave_size as usize;
        let cells = self.cells_mut();
        match kind {
            FileKind::Uniform => split(cells, base, base + 1, ty, value.0[0]),
            FileKind::Lane => {
                for l in 0..ws {
                    if mask.is_some_and(|(m, mu)| m.get(mu, l) & 1 == 0) {
                        continue;
                    }
                    split(
                        cells,
                        base + l,
                        base + ws + l,
                        ty,
                        value.get(value_uniform, l),
                    );
                }
            }
        }
        true
    }
}

/// A value from its low cell `lo` and (for 64-bit types) high cell `hi`.
#[inline]
fn join(cells: &[u32], lo: usize, hi: usize, ty: ScalarType) -> u64 {
    let low = cells[lo] as u64;
    if ty.cells() == 2 {
        low | (cells[hi] as u64) << 32
    } else {
        low
    }
}

/// Stores a value into its low cell `lo` and (for 64-bit types) high cell `hi`.
#[inline]
fn split(cells: &mut [u32], lo: usize, hi: usize, ty: ScalarType, v: u64) {
    cells[lo] = v as u32;
    if ty.cells() == 2 {
        cells[hi] = (v >> 32) as u32;
    }
}

impl wavejit_isa::RegSink for WaveState {
    fn set_uniform(&mut self, reg: Reg, value: u32) {
        WaveState::set_uniform(self, reg, value);
    }

    fn set_uniforms(&mut self, reg: Reg, values: &[u32]) {
        let start = self.uniform_at(reg);
        self.cells_mut()[start..start + values.len()].copy_from_slice(values);
    }

    fn set_uniform64(&mut self, reg: Reg, value: u64) {
        let start = self.uniform_at(reg);
        self.cells_mut()[start..start + 2].copy_from_slice(&[value as u32, (value >> 32) as u32]);
    }

    fn set_lane(&mut self, reg: Reg, lane: u32, value: u32) {
        WaveState::set_lane(self, reg, lane, value);
    }

    fn set_row(&mut self, reg: Reg, values: &[u32]) {
        let start = self.lane_at(reg, 0);
        let n = values.len().min(self.layout.wave_size as usize);
        self.cells_mut()[start..start + n].copy_from_slice(&values[..n]);
    }

    fn fill_row(&mut self, reg: Reg, lanes: u32, value: u32) {
        let start = self.lane_at(reg, 0);
        let n = lanes.min(self.layout.wave_size) as usize;
        self.cells_mut()[start..start + n].fill(value);
    }
}

/// The 32-bit cells of a wave state a function can read or write, as sorted, merged ranges of
/// cell indices: every register its `ReadReg`/`WriteReg` instructions name (as many cells as
/// their types take) and every file an indexed access names. Files the layout marks
/// [`written_first`](wavejit_ir::RegFile::written_first) are left out: the function writes
/// each of their cells before it reads it, so their old contents are never observed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub ranges: Vec<std::ops::Range<usize>>,
    /// The same cells as a bit set (bit `c % 64` of word `c / 64`), to test a row without a
    /// search.
    bits: Vec<u64>,
}

impl Footprint {
    pub fn of(func: &wavejit_ir::Function) -> Footprint {
        use wavejit_ir::{FileKind, InstKind};
        let l = &func.layout;
        let lane_base = l.lane_area_offset() / 4;
        let ws = l.wave_size as usize;
        let cells_of = |reg: Reg, n: u32| -> std::ops::Range<usize> {
            match l.file(reg.file).kind {
                FileKind::Uniform => {
                    let c = l.uniform_cell(reg) as usize;
                    c..c + n as usize
                }
                FileKind::Lane => {
                    let row = l.lane_row(reg) as usize;
                    lane_base + row * ws..lane_base + (row + n as usize) * ws
                }
            }
        };
        let whole = |file: wavejit_ir::FileId| {
            let cells = l.file(file).cells;
            cells_of(Reg::new(file, 0), cells)
        };
        let mut ranges = Vec::new();
        for b in &func.blocks {
            for i in &b.insts {
                let file = match i.kind {
                    InstKind::ReadReg(reg) | InstKind::WriteReg { reg, .. } => reg.file,
                    InstKind::ReadRegIndexed { file, .. }
                    | InstKind::WriteRegIndexed { file, .. } => file,
                    _ => continue,
                };
                if l.file(file).written_first {
                    continue;
                }
                match i.kind {
                    InstKind::ReadReg(reg) => {
                        let n = i.ty.map_or(1, |t| t.scalar.cells());
                        ranges.push(cells_of(reg, n));
                    }
                    InstKind::WriteReg { reg, value, .. } => {
                        let n = b.value_type(value).map_or(1, |t| t.scalar.cells());
                        ranges.push(cells_of(reg, n));
                    }
                    InstKind::ReadRegIndexed { file, .. }
                    | InstKind::WriteRegIndexed { file, .. } => ranges.push(whole(file)),
                    _ => {}
                }
            }
        }
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        let end = merged.last().map_or(0, |r| r.end);
        let mut bits = vec![0u64; end.div_ceil(64)];
        for c in merged.iter().cloned().flatten() {
            bits[c / 64] |= 1 << (c % 64);
        }
        Footprint {
            ranges: merged,
            bits,
        }
    }

    /// Whether cell `c` is in the footprint.
    pub fn contains(&self, c: usize) -> bool {
        self.bits
            .get(c / 64)
            .is_some_and(|w| w & (1 << (c % 64)) != 0)
    }
}

/// A wave state just cleared to its function's footprint ([`WaveState::clear_footprint`]),
/// as a wave's initial registers reach it: a lane row outside the footprint is dropped (the
/// function never reads or writes it, so what a wave before left there is never observed)
/// and a row of zeros inside it is already there. A TeraScale wave starts with eight rows
/// of ids, of which a kernel reads one or two and most are zero; writing them all was most
/// of a short kernel's start. Uniform cells are written as they come (four bytes each,
/// cheaper than a test).
pub struct Fresh<'a> {
    pub state: &'a mut WaveState,
    pub footprint: &'a Footprint,
}

impl wavejit_isa::RegSink for Fresh<'_> {
    fn set_uniform(&mut self, reg: Reg, value: u32) {
        self.state.set_uniform(reg, value);
    }

    fn set_uniforms(&mut self, reg: Reg, values: &[u32]) {
        wavejit_isa::RegSink::set_uniforms(self.state, reg, values);
    }

    fn set_uniform64(&mut self, reg: Reg, value: u64) {
        wavejit_isa::RegSink::set_uniform64(self.state, reg, value);
    }

    fn set_lane(&mut self, reg: Reg, lane: u32, value: u32) {
        self.state.set_lane(reg, lane, value);
    }

    fn set_row(&mut self, reg: Reg, values: &[u32]) {
        if self.observes_row(reg) {
            wavejit_isa::RegSink::set_row(self.state, reg, values);
        }
    }

    fn fill_row(&mut self, reg: Reg, lanes: u32, value: u32) {
        if value != 0 && self.observes_row(reg) {
            wavejit_isa::RegSink::fill_row(self.state, reg, lanes, value);
        }
    }

    /// A row is in the footprint whole or not at all (a register's cells are its row).
    fn observes_row(&self, reg: Reg) -> bool {
        self.footprint.contains(self.state.lane_at(reg, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn footprint_of(layout: &str) -> (Footprint, StateLayout) {
        let src = format!(
            "function \"f\" wave 4 {{ {layout} }}\n\nblock0:\n  %0 = const 1 : i32\n  \
             write a[1], %0\n  write b[0 + %0], %0\n  %3 = read b[0 + %0] : i32\n  return\n"
        );
        let f = wavejit_ir::text::parse(&src).expect("parses");
        (Footprint::of(&f), f.layout)
    }

    #[test]
    fn a_written_first_file_is_left_out_of_the_footprint() {
        // Cells: a[0..2] are 0..2, b's 4 cells 2..6.
        let (plain, _) = footprint_of("uniform a[2], uniform b[4]");
        assert_eq!(plain.ranges, vec![1..6]);
        let (stack, layout) = footprint_of("uniform a[2], uniform b[4] written_first");
        assert!(layout.files[1].written_first);
        assert_eq!(stack.ranges, vec![1..2]);
    }

    /// A function reading rows v0 and v2 and writing v3, of a state left full of 7s by a
    /// wave before: a fresh start writes v0's ids and v3's nonzero fill, finds v2's zeros
    /// already there, and leaves v1 and v4, which the function never touches, alone.
    #[test]
    fn a_fresh_start_writes_only_the_rows_the_function_observes_and_not_zeros() {
        use wavejit_isa::RegSink;
        let src = "function \"f\" wave 4 { uniform s[1], lane v[5] }\n\nblock0:\n  \
                   %0 = read v[0] : lane i32\n  %1 = read v[2] : lane i32\n  \
                   %2 = iadd %0, %1 : lane i32\n  write v[3], %2\n  return\n";
        let f = wavejit_ir::text::parse(src).expect("parses");
        let fp = Footprint::of(&f);
        let layout = Arc::new(f.layout.clone());
        let mut state = WaveState::new(layout);
        state.words.fill(0x0000_0007_0000_0007);
        state.clear_footprint(&fp);
        let v = |i| Reg::new(wavejit_ir::FileId(1), i);
        let mut fresh = Fresh {
            state: &mut state,
            footprint: &fp,
        };
        assert!(fresh.observes_row(v(0)) && !fresh.observes_row(v(1)));
        fresh.set_row(v(0), &[10, 11, 12, 13]);
        fresh.set_row(v(1), &[20, 21, 22, 23]);
        fresh.fill_row(v(2), 4, 0);
        fresh.fill_row(v(3), 4, 5);
        fresh.fill_row(v(4), 4, 9);
        fresh.set_uniform(Reg::new(wavejit_ir::FileId(0), 0), 3);
        let row = |r| (0..4).map(|l| state.lane(v(r), l)).collect::<Vec<_>>();
        assert_eq!(row(0), [10, 11, 12, 13]);
        assert_eq!(row(1), [7; 4], "not observed: left as it was");
        assert_eq!(row(2), [0; 4], "cleared, and zeros are not written again");
        assert_eq!(row(3), [5; 4]);
        assert_eq!(row(4), [7; 4], "not observed: left as it was");
        assert_eq!(state.uniform(Reg::new(wavejit_ir::FileId(0), 0)), 3);
    }
}
