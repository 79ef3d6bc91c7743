//! Dispatch (being written).
