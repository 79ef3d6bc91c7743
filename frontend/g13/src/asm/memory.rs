//! Memory operands: the registers a load or store moves, base addresses and indices of
//! device, threadgroup, stack and async accesses, atomic sources and destinations, and the
//! plain register fields of the state and stack forms. Encodings are the inverse of
//! applegpu's decodings (its `MemoryRegDesc`, `MemoryBaseDesc`, `MemoryIndexDesc`, ...).

use super::fields::Fields;
use super::scalar::signed;
use super::text::{numbered, regs, File, Regs};

/// Registers without hints or modifiers.
pub(super) fn plain(text: &str) -> Result<Regs, String> {
    let r = regs(text)?.ok_or_else(|| format!("`{text}` is not a register"))?;
    r.flags.only(&[])?;
    Ok(r)
}

/// One general register word `rN`.
fn word(text: &str) -> Result<u32, String> {
    let r = plain(text)?;
    if !r.is(File::R, false, 1) {
        return Err(format!("`{text}` is not a 32-bit register"));
    }
    Ok(r.first)
}

/// One general register half `rNl`/`rNh`: its number in halves.
pub(super) fn half(text: &str) -> Result<u32, String> {
    let r = plain(text)?;
    if !r.is(File::R, true, 1) {
        return Err(format!("`{text}` is not a 16-bit register"));
    }
    Ok(r.first)
}

/// The registers a memory access moves (`MemoryReg`, `SampleReg`,
/// `ThreadgroupMemoryReg`): consecutive halves (`t` 0, value the first half) or words (`t`
/// 1, value `2n`), as many as the `mask` field has bits; nothing when it has none.
/// `ThreadgroupMemoryReg` with a presence bit (`a`, the threadgroup atomic's result) is one
/// register, or `None` when absent.
pub(super) fn transfer(f: &mut Fields, name: &str, text: Option<&str>) -> Result<(), String> {
    let present = format!("{name}a");
    let count = if f.has(&present) {
        if text == Some("None") {
            return f.put(&present, 0);
        }
        f.put(&present, 1)?;
        1
    } else {
        f.get("mask").count_ones()
    };
    let Some(text) = text else {
        return if count == 0 {
            Ok(())
        } else {
            Err(format!(
                "{count} registers are missing (the mask has {count} bits)"
            ))
        };
    };
    let r = plain(text)?;
    if r.file != File::R {
        return Err("memory registers are general registers".into());
    }
    if r.count != count {
        return Err(format!(
            "{} registers where the mask gives {count}",
            r.count
        ));
    }
    f.put(name, u64::from(r.value()))?;
    f.put(&format!("{name}t"), u64::from(!r.half))
}

/// A 64-bit base address (`MemoryBase`): a pair of general (`t` 0) or uniform (`t` 1)
/// registers, value `2n`.
pub(super) fn base(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    if r.half || r.count != 2 {
        return Err(format!(
            "`{text}` is not a register pair (rN_rN+1 or uN_uN+1)"
        ));
    }
    f.put(name, u64::from(r.first << 1))?;
    f.put(&format!("{name}t"), u64::from(r.file == File::U))
}

/// A device or stack index (`MemoryIndex`): a 32-bit register (`t` 0, value `2n`) or a
/// signed 16-bit immediate (`t` 1).
pub(super) fn index(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (value, t) = match regs(text)? {
        Some(_) => (u64::from(word(text)? << 1), 0),
        None => (signed(text, 16)?, 1),
    };
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)
}

/// A threadgroup index (`ThreadgroupIndex`): a 16-bit register (`t` 0, value its number in
/// halves) or a signed 16-bit immediate (`t` 1).
pub(super) fn threadgroup_index(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (value, t) = match regs(text)? {
        Some(_) => (u64::from(half(text)?), 0),
        None => (signed(text, 16)?, 1),
    };
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)
}

/// A threadgroup base (`ThreadgroupMemoryBase`): a 16-bit register (`t` 00), the immediate
/// 0 (`t` 10), or a uniform half (`t` x1, `x` the value's ninth bit).
pub(super) fn threadgroup_base(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (value, t) = match regs(text)? {
        None if text == "0" => (0, 0b10),
        None => {
            return Err(format!(
                "`{text}` is not a 16-bit register, a uniform half or 0"
            ))
        }
        Some(_) => {
            let r = plain(text)?;
            if !r.half || r.count != 1 {
                return Err(format!("`{text}` is not a 16-bit register"));
            }
            match r.file {
                File::R => (u64::from(r.first), 0b00),
                File::U => (
                    u64::from(r.first & 0xff),
                    0b01 | u64::from(r.first >> 8) << 1,
                ),
            }
        }
    };
    f.put(name, value)?;
    f.put(&format!("{name}t"), t)
}

/// An async copy's register pair (`AsyncMemoryReg`): general (`t` 0) or uniform (`t` 1),
/// value `2n`.
pub(super) fn async_reg(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    base(f, name, text)
}

/// An async copy's descriptor (`AsyncMemoryBase`): 3 consecutive words (5 for `copy_2d`,
/// field `F`), general (`t` 0) or uniform (`t` 1), value the first's number.
pub(super) fn async_base(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    let count = if f.get("F") != 0 { 5 } else { 3 };
    if r.half || r.count != count {
        return Err(format!(
            "`{text}` is not {count} consecutive 32-bit registers"
        ));
    }
    f.put(name, u64::from(r.first))?;
    f.put(&format!("{name}t"), u64::from(r.file == File::U))
}

/// An atomic's source (`AtomicSource`): a word, or a pair for `cmpxchg` (op 3); value `2n`.
pub(super) fn atomic_source(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    let count = if f.get("op") == 3 { 2 } else { 1 };
    if !r.is(File::R, false, count) {
        return Err(format!(
            "`{text}` is not {}",
            if count == 2 {
                "a register pair (cmpxchg)"
            } else {
                "a 32-bit register"
            }
        ));
    }
    f.put(name, u64::from(r.first << 1))
}

/// An atomic's result (`AtomicDestination`): a word (`t` 1, value `2n`) or `None` (`t` 0).
pub(super) fn atomic_destination(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    if text == "None" {
        return f.put(&format!("{name}t"), 0);
    }
    f.put(name, u64::from(word(text)? << 1))?;
    f.put(&format!("{name}t"), 1)
}

/// A word whose field holds `2n` (`StackReg32`, `Reg32_4_4_`).
pub(super) fn word_doubled(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    f.put(name, u64::from(word(text)? << 1))
}

/// A word whose field holds `n` (`Reg32`, `ExReg32`).
pub(super) fn word_number(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    f.put(name, u64::from(word(text)?))
}

/// A half whose field holds its number in halves (`TileToMemoryReg`).
pub(super) fn half_number(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    f.put(name, u64::from(half(text)?))
}

/// A uniform pair `uN_uN+1` whose field holds `n` (`UReg64`).
pub(super) fn uniform_pair(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let r = plain(text)?;
    if !r.is(File::U, false, 2) {
        return Err(format!("`{text}` is not a uniform pair uN_uN+1"));
    }
    f.put(name, u64::from(r.first))
}

/// A numbered state register (`ts5`, `ss3`) whose field holds its number.
pub(super) fn state_register(
    f: &mut Fields,
    name: &str,
    text: &str,
    prefix: &str,
) -> Result<(), String> {
    let v = numbered(text, prefix).ok_or_else(|| format!("`{text}` is not {prefix}N"))?;
    f.put(name, v)
}
