//! Guest device memory (being written; the API below is the contract).

/// Device memory: one reserved arena; every access is checked.
pub struct GuestMemory {
    _private: (),
}
