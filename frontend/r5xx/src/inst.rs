//! (being written) A decoded instruction slot.

/// One instruction slot (six words).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub words: [u32; 6],
}
