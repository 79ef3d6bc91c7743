//! `wavejit ctm`: runs a CTM command stream (being written).

pub mod memory;

use crate::stream::StreamRequest;
use crate::Result;

pub fn run(req: &StreamRequest<'_>) -> Result<()> {
    let _ = memory::GpuMemory::new(memory::DEFAULT_SIZE)?;
    Err(crate::Error::Other(format!(
        "{}: the CTM executor is being written",
        req.file.display()
    )))
}
