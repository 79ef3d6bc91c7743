//! The chips an AMD APP SDK binary can be built for, and the machine numbers that name them:
//! the outer ELF's `e_machine` and the inner CAL image's encoding machines
//! (amd_appsdk_binaries.md §2.1 and §2.4).
//!
//! Only chips whose outer and ISA machine numbers are both documented are listed: Cypress
//! (Multi2Sim's check, 0x3F1, and its encoding machine 9) and the Southern Islands chips of
//! CLRX's `gpuDeviceCodeTable` / `gpuDeviceInnerCodeTable` that are gfx6 (Tahiti, Pitcairn,
//! Cape Verde, Oland, Hainan). No source gives the numbers of the other Evergreen, Northern
//! Islands or Cayman chips. The IL encoding's machine is known only where the corpus shows it
//! (Tahiti 25, Cypress 10, [OBS] in §2.4); for the other chips an encoding that is not the ISA
//! one cannot be named and is refused.

/// The ISA family of a chip: which decoder reads its ISA encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Evergreen (TeraScale 2, VLIW5): the r600-family CF/ALU/fetch program.
    Evergreen,
    /// Southern Islands: GCN gfx6 machine code.
    SouthernIslands,
}

/// A chip an AMD APP SDK binary targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    Cypress,
    Tahiti,
    Pitcairn,
    CapeVerde,
    Oland,
    Hainan,
}

/// What the tables say about one chip.
struct Row {
    /// The outer ELF's `e_machine`.
    e_machine: u16,
    isa_machine: u32,
    il_machine: Option<u32>,
    /// The metadata `device:` spelling.
    name: &'static str,
    family: Family,
}

impl Chip {
    pub const ALL: [Chip; 6] = [
        Chip::Cypress,
        Chip::Tahiti,
        Chip::Pitcairn,
        Chip::CapeVerde,
        Chip::Oland,
        Chip::Hainan,
    ];

    fn row(self) -> Row {
        let (e_machine, isa_machine, il_machine, name, family) = match self {
            Chip::Cypress => (0x3F1, 9, Some(10), "cypress", Family::Evergreen),
            Chip::Tahiti => (0x3FD, 0x1A, Some(25), "tahiti", Family::SouthernIslands),
            Chip::Pitcairn => (0x3FE, 0x1B, None, "pitcairn", Family::SouthernIslands),
            Chip::CapeVerde => (0x3FF, 0x1C, None, "capeverde", Family::SouthernIslands),
            Chip::Oland => (0x402, 0x20, None, "oland", Family::SouthernIslands),
            Chip::Hainan => (0x407, 0x25, None, "hainan", Family::SouthernIslands),
        };
        Row {
            e_machine,
            isa_machine,
            il_machine,
            name,
            family,
        }
    }

    /// The chip whose binaries have outer `e_machine` `machine`.
    pub fn from_e_machine(machine: u16) -> Option<Chip> {
        Chip::ALL.into_iter().find(|c| c.e_machine() == machine)
    }

    /// The outer ELF's `e_machine`.
    pub fn e_machine(self) -> u16 {
        self.row().e_machine
    }

    /// The encoding-dictionary `d_machine` of the ISA encoding.
    pub fn isa_machine(self) -> u32 {
        self.row().isa_machine
    }

    /// The encoding-dictionary `d_machine` of the IL encoding, where the corpus shows it.
    pub fn il_machine(self) -> Option<u32> {
        self.row().il_machine
    }

    /// The name as the metadata's `device:` line spells it (lower case).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    pub fn family(self) -> Family {
        self.row().family
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_numbers_are_unique_and_round_trip() {
        for c in Chip::ALL {
            assert_eq!(Chip::from_e_machine(c.e_machine()), Some(c));
            let others = Chip::ALL.iter().filter(|o| **o != c);
            for o in others {
                assert_ne!(o.isa_machine(), c.isa_machine());
                assert_ne!(Some(o.isa_machine()), c.il_machine());
            }
        }
        assert_eq!(Chip::from_e_machine(0x3F0), None);
        assert_eq!(Chip::from_e_machine(0x7D), None);
    }
}
