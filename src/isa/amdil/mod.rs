//! AMD IL (`frontend/amdil`) behind the one frontend interface.

pub mod fuzz;
