//! The PE's performance counters (seed 003 §2.1.2 and the perf-counter commands of §2.2.1):
//! total clocks, and clocks during which at least one processor was active, since the last
//! reset.
//!
//! An emulator has no clocks, so the counters are a documented model, the same for both
//! engines and any thread count: a SIMD group (a wave: the executor's 16x4 tiles of index
//! pairs) issuing one guest instruction per clock for all its processors, and the PE taking
//! one clock per command.
//! - Each command that arrives while the counters run adds 1 to total clocks, charged before
//!   the command's effect (so `stop_perf_counters` counts its own clock and
//!   `start_perf_counters` resets after its own).
//! - Each `start_program` run while they run adds, to both counters, the guest instructions
//!   its SIMD groups executed, summed over the groups ([`PerfCounters::program_done`]; every
//!   group of the domain's tiles counts, whatever its coverage, as it runs the program).
//!   Hence active <= total, and total - active is the number of commands.
//! - `init_perf_counters` enables (bit 0 = 1) or disables them, stops them and zeroes them;
//!   while disabled, the other perf-counter commands have no effect (the seed) and
//!   `read_perf_counters` writes nothing. Initially they are disabled.
//! - `read_perf_counters` writes total then active as 32-bit unsigned integers (the seed's
//!   order), each the count modulo 2^32.

/// The counters' state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerfCounters {
    pub enabled: bool,
    pub running: bool,
    pub total: u64,
    pub active: u64,
}

impl PerfCounters {
    /// A command arrived.
    pub fn clock(&mut self) {
        if self.running {
            self.total += 1;
        }
    }

    /// `init_perf_counters` with `flags`.
    pub fn init(&mut self, flags: u32) {
        *self = PerfCounters {
            enabled: flags & 1 != 0,
            ..PerfCounters::default()
        };
    }

    /// `start_perf_counters`.
    pub fn start(&mut self) {
        if self.enabled {
            self.total = 0;
            self.active = 0;
            self.running = true;
        }
    }

    /// `stop_perf_counters`.
    pub fn stop(&mut self) {
        self.running = false;
    }

    /// A program run finished after its SIMD groups executed `instructions` guest
    /// instructions, summed over the groups.
    pub fn program_done(&mut self, instructions: u64) {
        if self.running {
            self.total += instructions;
            self.active += instructions;
        }
    }

    /// What `read_perf_counters` writes: [total, active], or nothing while disabled.
    pub fn read(&self) -> Option<[u32; 2]> {
        self.enabled
            .then_some([self.total as u32, self.active as u32])
    }
}
