//! Programs with flow control and their host models.
