//! Disassembly in Mesa's syntax (the Asahi driver's `src/asahi/isa`, whose printer is
//! generated from AGX2.xml), the syntax of Mesa's single-instruction vectors
//! (shared/corpora/g13/mesa-isa-cases.txt).
//!
//! A line is Mesa's mnemonic, padded to 8 columns when the instruction has operands, then
//! ` ` and the operands joined by `, `: destinations, sources, immediates, then modifiers
//! (enumerated names, or a flag's name when it is set; an enum's default value prints
//! nothing). Registers print as `r5l`, `r6`, `dr6` (a 64-bit pair), `u5`, `du4`, ranges as
//! `r0_r1_r2`, with `$` before a cached and `^` before a discarded register and `.abs`,
//! `.neg`, `.sx` after; a missing atomic destination is `_`.
//!
//! Mesa's instructions are applegpu's forms under other names and operand orders (`ldimm`,
//! `csel`, `load`/`store`, `lload`/`lstore`, `if`/`else`/`while`, `jmp_any`, `smpf`, ...),
//! and several of Mesa's are aliases picked by constant fields before the general form
//! (`imul`, `shl`/`shr`, the one-source bit operations, `update_exec`, `ballot`,
//! `stack_adjust`, the uniform store's `mov`). Operands print from the decoded values
//! ([`crate::operand`]), so the vectors check the decoder; a few details that applegpu leaves
//! unnamed are read from the instruction's bits where Mesa names them (the cache-coherency
//! bits, the wait group of the memory forms, the shuffle and SIMD-group operation bits, the
//! tile coordinates' register flag, the texture flags). Forms Mesa does not know print
//! `<unknown instr>`, as Mesa does; Mesa's diagnostics for unknown bits are not reproduced.

mod alu;
mod memory;
mod text;

use crate::inst::Inst;

/// `inst` in Mesa's syntax.
pub fn mesa(inst: &Inst) -> String {
    match alu::line(inst).or_else(|| memory::line(inst)) {
        Some(line) => line.render(),
        None => "<unknown instr>".into(),
    }
}

/// `size` bits of `inst` from bit `start`.
fn bits(inst: &Inst, start: u32, size: u32) -> u64 {
    ((inst.word >> start) & ((1u128 << size) - 1)) as u64
}

/// One line being built: the mnemonic and the operand texts (empty ones are left out).
struct Line {
    mnem: String,
    ops: Vec<String>,
    /// An instruction without operands in Mesa's table: its mnemonic is not padded.
    trivial: bool,
}

impl Line {
    fn new(mnem: &str) -> Line {
        Line {
            mnem: mnem.to_string(),
            ops: Vec::new(),
            trivial: false,
        }
    }

    fn trivial(mnem: &str) -> Line {
        Line {
            trivial: true,
            ..Line::new(mnem)
        }
    }

    fn op(mut self, text: String) -> Line {
        if !text.is_empty() {
            self.ops.push(text);
        }
        self
    }

    /// A flag modifier: its name when set.
    fn flag(self, on: bool, name: &str) -> Line {
        self.op(if on { name.to_string() } else { String::new() })
    }

    fn render(&self) -> String {
        if self.trivial {
            self.mnem.clone()
        } else if self.ops.is_empty() {
            format!("{:<8}", self.mnem)
        } else {
            format!("{:<8} {}", self.mnem, self.ops.join(", "))
        }
    }
}
