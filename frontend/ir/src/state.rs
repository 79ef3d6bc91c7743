//! Guest register state, described as data.
//!
//! Every ISA's registers are 32-bit *cells* grouped in *files*. A lane file holds one cell per
//! lane per register (GCN VGPRs, TeraScale GPR components, G13 registers); a uniform file holds
//! one cell per register (SGPRs, EXEC, VCC, M0, SCC, the TeraScale active-mask stack, ...).
//! A 64-bit value occupies two consecutive cells, low half first. 8- and 16-bit register
//! halves are not a state concept: lifters read the 32-bit cell and use bit operations.
//!
//! Layout in memory (the runtime and the JIT share it, see [`StateLayout::lane_cell_offset`]):
//! all uniform cells first, packed, then every lane file as structure-of-arrays rows of
//! `wave_size` cells, so register `r` of a lane file is one contiguous row.

use std::fmt;

/// Index of a register file in a [`StateLayout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u16);

/// A register: a file and the index of its first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    pub file: FileId,
    pub index: u32,
}

impl Reg {
    pub const fn new(file: FileId, index: u32) -> Reg {
        Reg { file, index }
    }
    /// The register `n` cells further in the same file.
    pub const fn offset(self, n: u32) -> Reg {
        Reg {
            file: self.file,
            index: self.index + n,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    Uniform,
    Lane,
}

/// One register file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegFile {
    /// Name used by the text form (`v`, `s`, `exec`, ...).
    pub name: String,
    pub kind: FileKind,
    /// Number of 32-bit cells.
    pub cells: u32,
    /// No result of a wave depends on a cell of this file the wave has not written itself: a
    /// stack whose pops the lifter guards against underflow reads only frames pushed before,
    /// and the cells a frame's kind leaves unwritten only to discard them. A fresh wave's
    /// values here are never observed, so a dispatcher reusing a wave's storage need not zero
    /// them. Text form: the word `written_first` after the file.
    pub written_first: bool,
}

/// The guest state of one wave, as a list of register files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateLayout {
    /// Lanes per wave: 64 (AMD) or 32 (Apple G13). Always a multiple of 4.
    pub wave_size: u32,
    pub files: Vec<RegFile>,
}

impl StateLayout {
    pub fn new(wave_size: u32) -> StateLayout {
        assert!(wave_size.is_multiple_of(4) && (4..=64).contains(&wave_size));
        StateLayout {
            wave_size,
            files: Vec::new(),
        }
    }

    /// Adds a file and returns its id.
    pub fn add_file(&mut self, name: &str, kind: FileKind, cells: u32) -> FileId {
        let id = FileId(self.files.len() as u16);
        self.files.push(RegFile {
            name: name.to_string(),
            kind,
            cells,
            written_first: false,
        });
        id
    }

    /// Marks file `id` [`RegFile::written_first`].
    pub fn set_written_first(&mut self, id: FileId) {
        self.files[id.0 as usize].written_first = true;
    }

    pub fn file(&self, id: FileId) -> &RegFile {
        &self.files[id.0 as usize]
    }

    pub fn file_by_name(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .map(|i| FileId(i as u16))
    }

    /// Total uniform cells.
    pub fn uniform_cells(&self) -> u32 {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::Uniform)
            .map(|f| f.cells)
            .sum()
    }

    /// Total lane registers (rows).
    pub fn lane_rows(&self) -> u32 {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::Lane)
            .map(|f| f.cells)
            .sum()
    }

    /// Index of a uniform cell in the packed uniform area.
    pub fn uniform_cell(&self, reg: Reg) -> u32 {
        let mut base = 0;
        for (i, f) in self.files.iter().enumerate() {
            if i == reg.file.0 as usize {
                debug_assert_eq!(f.kind, FileKind::Uniform);
                return base + reg.index;
            }
            if f.kind == FileKind::Uniform {
                base += f.cells;
            }
        }
        unreachable!("register file {} not in layout", reg.file.0)
    }

    /// Index of a lane register's row among all lane rows.
    pub fn lane_row(&self, reg: Reg) -> u32 {
        let mut base = 0;
        for (i, f) in self.files.iter().enumerate() {
            if i == reg.file.0 as usize {
                debug_assert_eq!(f.kind, FileKind::Lane);
                return base + reg.index;
            }
            if f.kind == FileKind::Lane {
                base += f.cells;
            }
        }
        unreachable!("register file {} not in layout", reg.file.0)
    }

    /// Byte offset of a uniform cell from the start of the wave state.
    pub fn uniform_cell_offset(&self, reg: Reg) -> usize {
        self.uniform_cell(reg) as usize * 4
    }

    /// Byte offset of the lane area (uniform area rounded up to 64 bytes).
    pub fn lane_area_offset(&self) -> usize {
        (self.uniform_cells() as usize * 4).next_multiple_of(64)
    }

    /// Byte offset of lane `lane` of a lane register from the start of the wave state.
    pub fn lane_cell_offset(&self, reg: Reg, lane: u32) -> usize {
        self.lane_area_offset() + (self.lane_row(reg) * self.wave_size + lane) as usize * 4
    }

    /// Size in bytes of one wave's state.
    pub fn state_bytes(&self) -> usize {
        self.lane_area_offset() + (self.lane_rows() * self.wave_size) as usize * 4
    }

    /// Whether `reg` .. `reg + cells` lies inside its file.
    pub fn contains(&self, reg: Reg, cells: u32) -> bool {
        (reg.file.0 as usize) < self.files.len()
            && reg
                .index
                .checked_add(cells)
                .is_some_and(|end| end <= self.file(reg.file).cells)
    }
}

impl fmt::Display for StateLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wave {}", self.wave_size)?;
        for file in &self.files {
            let kind = match file.kind {
                FileKind::Uniform => "uniform",
                FileKind::Lane => "lane",
            };
            write!(f, "; {kind} {}[{}]", file.name, file.cells)?;
        }
        Ok(())
    }
}
