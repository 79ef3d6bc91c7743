//! One `start_program`: the program read from GPU memory, lifted for the launch's setup,
//! and run over the domain on the chosen engine.
//!
//! 1. The program: the `program` directive placed at the instruction base gives the program
//!    info; slots `0..=end` are read from memory at the base (24 bytes a slot, contiguously:
//!    no data format holds a six-dword slot) and decoded, so a stream that wrote over its
//!    program runs what memory holds. Slots outside memory are an error.
//! 2. The setup ([`wavejit_r5xx::stream::Launch::setup`]) is lifted ([`wavejit_r5xx::lift`])
//!    and prepared on the engine once: the prepared function is cached per identical setup,
//!    so a stream that runs one program many times under the same surfaces lifts it once.
//! 3. Conditional execution at the PE (`set_cond_loc` 1): for every pair of the domain the
//!    host runs the CO's test ([`wavejit_r5xx::setup::CondTest::passes`], the PE's value
//!    against channel R of the conditional buffer at (i, j), read through the memory
//!    controller's one definition) and, when it passes and `set_cond_out_mask` bit 0 is set,
//!    writes the PE's value to channel R of that element, before any processor runs (the CO
//!    precedes the DPP). The passing pairs are the coverage the waves start with.
//! 4. The dispatch: one work-group of one 64-lane wave per 16x4 tile
//!    ([`wavejit_r5xx::lift::Tiles`]), each starting as [`DomainInit`] says (r0 = (i, j,
//!    0.0, 1.0)), on `--threads` threads, with `--fuel` per wave and `--timeout` per run. Waves
//!    write disjoint outputs, so results do not depend on the thread count.
//!
//! The guest instructions a run reports (for the performance counters) are the dispatch's:
//! the slots each wave (SIMD group) executed, summed over the waves. Both engines count the
//! same blocks, so the sum is the same on both and on every thread count.

use super::memory::GpuMemory;
use super::Placed;
use crate::stream::{StreamRequest, StreamSeconds};
use crate::{Error, Result};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wavejit_ir::MemWidth;
use wavejit_r5xx::decode::{decode_words, words_of_bytes, SLOT_WORDS};
use wavejit_r5xx::lift::{DomainInit, R5xxLayout, Tiles};
use wavejit_r5xx::mc::{read_element, write_element, Host, Surface};
use wavejit_r5xx::setup::{CondLoc, CondTest, Setup};
use wavejit_r5xx::stream::Launch;
use wavejit_runtime::{Engine, Program};

/// A setup lifted and prepared on the engine.
struct Ready {
    layout: R5xxLayout,
    func: Arc<wavejit_ir::Function>,
    program: Arc<dyn Program>,
}

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ran {
    pub waves: u64,
    pub guest_instructions: u64,
}

/// Runs the `start_program`s of one stream.
pub struct Runner<'a> {
    mem: &'a GpuMemory,
    engine: Arc<dyn Engine>,
    threads: usize,
    fuel: u64,
    timeout: Duration,
    cache: HashMap<Setup, Arc<Ready>>,
    /// Lift, compile and execute seconds so far.
    pub seconds: StreamSeconds,
}

impl<'a> Runner<'a> {
    pub fn new(req: &StreamRequest<'_>, mem: &'a GpuMemory) -> Result<Runner<'a>> {
        Ok(Runner {
            mem,
            engine: req.engine.engine()?,
            threads: req.threads.max(1),
            fuel: req.fuel,
            timeout: req.timeout,
            cache: HashMap::new(),
            seconds: StreamSeconds::default(),
        })
    }

    /// Runs the program of `launch` over its domain (module doc).
    pub fn start_program(
        &mut self,
        launch: &Launch,
        programs: &HashMap<u32, Placed>,
    ) -> Result<Ran> {
        let base = launch.inst.base;
        let placed = programs.get(&base).ok_or_else(|| {
            Error::Load(format!(
                "no program at the instruction base {base:#x} (a `program` directive or --program places one there)"
            ))
        })?;
        let t = Instant::now();
        let compiled = self.seconds.compile;
        let slots = placed.info.end as u64 + 1;
        let bytes = self.mem.read(
            u64::from(base),
            slots * 4 * SLOT_WORDS as u64,
            &format!("the program's {slots} instruction slots"),
        )?;
        let words = words_of_bytes(&bytes).map_err(|e| Error::Load(e.to_string()))?;
        let insts = decode_words(&words).map_err(|e| Error::Load(e.to_string()))?;
        let setup = launch.setup(insts, placed.info);
        let ready = self.ready(setup.clone(), &placed.name)?;
        self.seconds.lift += t.elapsed().as_secs_f64() - (self.seconds.compile - compiled);

        let t = Instant::now();
        let d = launch.domain;
        let tiles = Tiles::new(d.i0, d.j0, d.i1, d.j1).map_err(Error::Load)?;
        let coverage = match setup.bindings.cond.loc {
            CondLoc::Pe => Some(self.pe_test(&setup, &tiles)?),
            CondLoc::Dpp => None,
        };
        let init =
            DomainInit::new(&ready.layout, tiles, coverage, 0, &setup).map_err(Error::Other)?;
        let run = wavejit_runtime::Launch {
            kernel: placed.name.clone(),
            func: ready.func.clone(),
            program: ready.program.clone(),
            grid: tiles.grid(),
            lds_bytes: 0,
            private_lane_bytes: 0,
            threads: self.threads,
            fuel: self.fuel,
            time_limit: self.timeout,
            init: &init,
        };
        let stats = wavejit_runtime::dispatch(&run, self.mem.guest())?;
        self.seconds.execute += t.elapsed().as_secs_f64();
        Ok(Ran {
            waves: stats.waves,
            guest_instructions: stats.guest_insts,
        })
    }

    /// The setup's program lifted and prepared, from the cache when it was before.
    fn ready(&mut self, setup: Setup, name: &str) -> Result<Arc<Ready>> {
        if let Some(r) = self.cache.get(&setup) {
            return Ok(r.clone());
        }
        let lifted = super::super::lift_setup(&setup, name)?;
        // A dispatch keeps memory, not the waves' registers: writes nothing reads go.
        let mut func = lifted.func;
        wavejit_ir::drop_unread_writes(&mut func);
        let func = Arc::new(func);
        let t = Instant::now();
        let program = self.engine.prepare(func.clone())?;
        self.seconds.compile += t.elapsed().as_secs_f64();
        let ready = Arc::new(Ready {
            layout: lifted.layout,
            func,
            program,
        });
        self.cache.insert(setup, ready.clone());
        Ok(ready)
    }

    /// The CO's test at the PE for every pair of the domain, with its conditional writes:
    /// the passing lanes of each tile, in [`Tiles::linear`] order.
    fn pe_test(&self, setup: &Setup, tiles: &Tiles) -> Result<Vec<u64>> {
        let cond = setup.bindings.cond;
        let mut coverage = vec![0u64; tiles.count() as usize];
        for y in 0..tiles.ny {
            for x in 0..tiles.nx {
                let group = [x, y, 0];
                let mut mask = 0u64;
                for lane in 0..64 {
                    let (i, j) = tiles.pair(group, lane);
                    if !(tiles.i0..=tiles.i1).contains(&i) || !(tiles.j0..=tiles.j1).contains(&j) {
                        continue;
                    }
                    let pass = match cond.test {
                        CondTest::Never => false,
                        CondTest::Always => true,
                        test => {
                            let buffer = cond.buffer.ok_or_else(|| {
                                Error::Load("the conditional test needs set_cond_out_fmt".into())
                            })?;
                            test.passes(cond.value, self.cond_read(&buffer, i, j)?)
                        }
                    };
                    if pass {
                        mask |= 1 << lane;
                        if cond.write {
                            if let Some(buffer) = cond.buffer {
                                self.cond_write(&buffer, i, j, cond.value)?;
                            }
                        }
                    }
                }
                coverage[tiles.linear(group)] = mask;
            }
        }
        Ok(coverage)
    }

    /// Channel R (f32 bits) of element (i, j) of the conditional buffer.
    fn cond_read(&self, s: &Surface, i: u32, j: u32) -> Result<u32> {
        let mut fault = None;
        let mut load = |_: &mut Host, addr: u32, size: u32| {
            let width = if size == 2 {
                MemWidth::B16
            } else {
                MemWidth::B32
            };
            match self.mem.check(u64::from(addr), u64::from(size), "") {
                Ok(()) => self.mem.guest().load(u64::from(addr), width).unwrap_or(0) as u32,
                Err(_) => {
                    fault.get_or_insert(addr);
                    0
                }
            }
        };
        let [r, ..] = read_element(&mut Host, s, i, j, &mut load);
        match fault {
            None => Ok(r),
            Some(addr) => Err(outside("read", i, j, addr, self.mem.size())),
        }
    }

    /// Writes `value` (f32 bits) to channel R of element (i, j) of the conditional buffer.
    fn cond_write(&self, s: &Surface, i: u32, j: u32, value: u32) -> Result<()> {
        let mut stores = Vec::new();
        let mut store =
            |_: &mut Host, addr: u32, size: u32, raw: u32| stores.push((addr, size, raw));
        write_element(&mut Host, s, i, j, 1, [value, 0, 0, 0], &mut store);
        for (addr, size, raw) in stores {
            let bytes = &raw.to_le_bytes()[..size as usize];
            self.mem
                .write(u64::from(addr), bytes, "")
                .map_err(|_| outside("write", i, j, addr, self.mem.size()))?;
        }
        Ok(())
    }
}

fn outside(what: &str, i: u32, j: u32, addr: u32, size: u64) -> Error {
    Error::Load(format!(
        "the conditional buffer's {what} of element ({i}, {j}) at {addr:#x} is outside the {size}-byte GPU memory"
    ))
}
