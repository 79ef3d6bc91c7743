//! The ISA modules: each implements [`crate::frontend::Frontend`] for one ISA crate and is
//! listed once in [`crate::registry::FRONTENDS`]. Nothing else in this package names an ISA.

pub mod amdapp;
pub mod amdil;
pub mod g13;
pub mod gcn;
pub mod r5xx;
pub mod terascale;
