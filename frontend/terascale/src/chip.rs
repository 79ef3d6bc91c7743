//! The chips wavejit runs and what distinguishes them.
//!
//! Every instruction table has one column per [`ChipClass`]: Evergreen (cedar, redwood, juniper,
//! cypress, sumo) and Northern Islands (barts, turks, caicos) share the VLIW5 ISA with a fifth,
//! transcendental slot T; Cayman is VLIW4 (no T slot; transcendentals are replicated across the
//! vector slots). Differences between chips of one class are not columns: every chip runs its
//! class's instruction set, so an FMA decodes and runs on juniper too, although LLVM gives
//! only cypress (and cayman) the FMA feature and never emits it elsewhere; what differs is the
//! launch (the wave size, [`crate::launch::wave_size`]: 32 lanes on cedar).
//!
//! Sources: the ELF machine numbers are LLVM's `EF_AMDGPU_MACH_R600_*` (BinaryFormat/ELF.h);
//! wave sizes and features are LLVM 14's R600 processor definitions (R600Processors.td).

/// The column of the instruction tables a chip reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChipClass {
    /// Evergreen and Northern Islands: VLIW5 (slots x, y, z, w and the transcendental t).
    Evergreen,
    /// Cayman: VLIW4 (slots x, y, z, w).
    Cayman,
}

impl ChipClass {
    pub const ALL: [ChipClass; 2] = [ChipClass::Evergreen, ChipClass::Cayman];

    /// Index of this class's column in the tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// ALU slots of one instruction group (4 vector slots, plus T on VLIW5).
    pub fn alu_slots(self) -> usize {
        match self {
            ChipClass::Evergreen => 5,
            ChipClass::Cayman => 4,
        }
    }
}

/// A chip of the R600 family that wavejit runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chip {
    Cedar,
    Redwood,
    Sumo,
    Juniper,
    Cypress,
    Barts,
    Turks,
    Caicos,
    Cayman,
}

impl Chip {
    pub const ALL: [Chip; 9] = [
        Chip::Cedar,
        Chip::Redwood,
        Chip::Sumo,
        Chip::Juniper,
        Chip::Cypress,
        Chip::Barts,
        Chip::Turks,
        Chip::Caicos,
        Chip::Cayman,
    ];

    pub fn class(self) -> ChipClass {
        match self {
            Chip::Cayman => ChipClass::Cayman,
            _ => ChipClass::Evergreen,
        }
    }

    /// The name LLVM's `-mcpu` takes.
    pub fn name(self) -> &'static str {
        match self {
            Chip::Cedar => "cedar",
            Chip::Redwood => "redwood",
            Chip::Sumo => "sumo",
            Chip::Juniper => "juniper",
            Chip::Cypress => "cypress",
            Chip::Barts => "barts",
            Chip::Turks => "turks",
            Chip::Caicos => "caicos",
            Chip::Cayman => "cayman",
        }
    }

    /// A chip by its `-mcpu` name or one of LLVM's aliases (palm = cedar, hemlock = cypress,
    /// aruba = cayman).
    pub fn from_name(name: &str) -> Option<Chip> {
        let name = name.to_ascii_lowercase();
        let alias = match name.as_str() {
            "palm" => "cedar",
            "hemlock" => "cypress",
            "aruba" => "cayman",
            n => n,
        };
        Chip::ALL.into_iter().find(|c| c.name() == alias)
    }

    /// The ELF header's `e_flags` machine number (`EF_AMDGPU_MACH_R600_*`).
    pub fn elf_mach(self) -> u32 {
        match self {
            Chip::Cedar => 0x08,
            Chip::Cypress => 0x09,
            Chip::Juniper => 0x0a,
            Chip::Redwood => 0x0b,
            Chip::Sumo => 0x0c,
            Chip::Barts => 0x0d,
            Chip::Caicos => 0x0e,
            Chip::Cayman => 0x0f,
            Chip::Turks => 0x10,
        }
    }

    /// The chip an ELF `e_flags` names (machine number in bits `[7:0]`).
    pub fn from_elf_flags(flags: u32) -> Option<Chip> {
        Chip::ALL.into_iter().find(|c| c.elf_mach() == flags & 0xff)
    }
}
