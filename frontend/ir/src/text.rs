//! Text form (being written).
