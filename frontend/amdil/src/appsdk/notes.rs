//! The "ATI CAL" notes of one encoding (amd_appsdk_binaries.md §2.5; type numbers and layouts
//! from Multi2Sim's `bin-file.c` and CLRX's `CALNOTE_ATI_*`, as that section cites them) and
//! the immediate constants of its `.data` (§2.7).
//!
//! Invariants of a parsed [`CalNotes`]: each known note type occurs at most once; every list
//! payload is a whole number of its entries; the single-dword notes (CONDOUT, EARLYEXIT,
//! SCRATCH_BUFFERS, UAV_MAILBOX_SIZE) hold 0 or 4 bytes. Notes of other types are kept in
//! [`CalNotes::other`].

/// Note type numbers (§2.5).
pub mod kind {
    pub const PROGINFO: u32 = 1;
    pub const INPUTS: u32 = 2;
    pub const OUTPUTS: u32 = 3;
    pub const CONDOUT: u32 = 4;
    pub const FLOAT32CONSTS: u32 = 5;
    pub const INT32CONSTS: u32 = 6;
    pub const BOOL32CONSTS: u32 = 7;
    pub const EARLYEXIT: u32 = 8;
    pub const GLOBAL_BUFFERS: u32 = 9;
    pub const CONSTANT_BUFFERS: u32 = 10;
    pub const INPUT_SAMPLERS: u32 = 11;
    pub const PERSISTENT_BUFFERS: u32 = 12;
    pub const SCRATCH_BUFFERS: u32 = 13;
    pub const SUB_CONSTANT_BUFFERS: u32 = 14;
    pub const UAV_MAILBOX_SIZE: u32 = 15;
    pub const UAV: u32 = 16;
    pub const UAV_OP_MASK: u32 = 17;

    /// The name of note type `t` (Multi2Sim's spelling without `ELF_NOTE_ATI_`).
    pub fn name(t: u32) -> Option<&'static str> {
        const NAMES: [&str; 17] = [
            "PROGINFO",
            "INPUTS",
            "OUTPUTS",
            "CONDOUT",
            "FLOAT32CONSTS",
            "INT32CONSTS",
            "BOOL32CONSTS",
            "EARLYEXIT",
            "GLOBAL_BUFFERS",
            "CONSTANT_BUFFERS",
            "INPUT_SAMPLERS",
            "PERSISTENT_BUFFERS",
            "SCRATCH_BUFFERS",
            "SUB_CONSTANT_BUFFERS",
            "UAV_MAILBOX_SIZE",
            "UAV",
            "UAV_OP_MASK",
        ];
        NAMES.get((t as usize).checked_sub(1)?).copied()
    }
}

/// Bytes of `.data` (Multi2Sim's `si_bin_enc_dict_entry_consts_t`): `float f[256][4]` at 0,
/// `uint i[32][4]` at 4096, `uint b[32]` at 4608.
pub const DATA_SIZE: usize = 4736;

/// The parsed notes of one encoding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CalNotes {
    /// The note types in file order.
    pub order: Vec<u32>,
    /// PROGINFO: `(address, value)` pairs as stored (§2.6; empty for the IL encoding).
    pub prog_info: Vec<(u32, u32)>,
    /// INPUTS: one resource id per read-only image.
    pub inputs: Vec<u32>,
    /// OUTPUTS.
    pub outputs: Vec<u32>,
    /// CONDOUT.
    pub cond_out: Option<u32>,
    /// FLOAT32CONSTS, INT32CONSTS, BOOL32CONSTS: the live entries of `.data`'s tables.
    pub float32_consts: Vec<ConstRange>,
    pub int32_consts: Vec<ConstRange>,
    pub bool32_consts: Vec<ConstRange>,
    /// EARLYEXIT.
    pub early_exit: Option<u32>,
    /// GLOBAL_BUFFERS.
    pub global_buffers: Vec<u32>,
    /// CONSTANT_BUFFERS: the constant buffers the program reads and their sizes.
    pub constant_buffers: Vec<ConstantBuffer>,
    /// INPUT_SAMPLERS.
    pub input_samplers: Vec<InputSampler>,
    /// PERSISTENT_BUFFERS.
    pub persistent_buffers: Vec<u32>,
    /// SCRATCH_BUFFERS: scratch dwords per work-item (CLRX).
    pub scratch_dwords: Option<u32>,
    /// SUB_CONSTANT_BUFFERS.
    pub sub_constant_buffers: Vec<u32>,
    /// UAV_MAILBOX_SIZE.
    pub uav_mailbox_size: Option<u32>,
    /// UAV: the UAVs the program declares.
    pub uavs: Vec<Uav>,
    /// UAV_OP_MASK: a bitmask of the UAVs used, bit `id % 32` of dword `id / 32`.
    pub uav_op_mask: Vec<u32>,
    /// Notes of other types: `(type, payload)`.
    pub other: Vec<(u32, Vec<u8>)>,
}

/// An entry of FLOAT32CONSTS, INT32CONSTS or BOOL32CONSTS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstRange {
    /// Entry index in its `.data` table.
    pub index: u32,
    /// Bytes.
    pub size: u32,
}

/// An entry of CONSTANT_BUFFERS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantBuffer {
    pub cb: u32,
    /// Size in 16-byte vec4 entries.
    pub vec4s: u32,
}

/// An entry of INPUT_SAMPLERS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputSampler {
    pub input: u32,
    pub sampler: u32,
}

/// An entry of the UAV note: `{id, f1, f2, type}` (SI buffers `{id, 4, 0, 5}`; Evergreen
/// `{11, 0, 0, 5}`, `{8, 3, 0, 5}`; CLRX writes write-only images as `{id, 2, dim, 3}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uav {
    pub id: u32,
    pub f1: u32,
    pub f2: u32,
    pub kind: u32,
}

impl CalNotes {
    /// The PROGINFO value at `address`.
    pub fn prog_info(&self, address: u32) -> Option<u32> {
        self.prog_info
            .iter()
            .find(|(a, _)| *a == address)
            .map(|&(_, v)| v)
    }

    /// The size in vec4s CONSTANT_BUFFERS gives constant buffer `cb`.
    pub fn constant_buffer(&self, cb: u32) -> Option<u32> {
        self.constant_buffers
            .iter()
            .find(|c| c.cb == cb)
            .map(|c| c.vec4s)
    }

    /// Whether UAV_OP_MASK marks UAV `id` used.
    pub fn uav_used(&self, id: u32) -> bool {
        self.uav_op_mask
            .get((id / 32) as usize)
            .is_some_and(|w| w >> (id % 32) & 1 != 0)
    }
}

/// Parses the `(type, payload)` notes of one encoding.
pub fn parse(notes: &[(u32, &[u8])]) -> Result<CalNotes, String> {
    let mut out = CalNotes::default();
    for &(t, desc) in notes {
        let Some(name) = kind::name(t) else {
            out.other.push((t, desc.to_vec()));
            continue;
        };
        if out.order.contains(&t) {
            return Err(format!("two {name} notes"));
        }
        out.order.push(t);
        let words = |per_entry: usize| words(desc, per_entry, name);
        let pairs = |per_entry| -> Result<Vec<(u32, u32)>, String> {
            Ok(words(per_entry)?.chunks(2).map(|p| (p[0], p[1])).collect())
        };
        match t {
            kind::PROGINFO => {
                out.prog_info = pairs(2)?;
                let mut seen: Vec<u32> = out.prog_info.iter().map(|p| p.0).collect();
                seen.sort_unstable();
                if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
                    return Err(format!("PROGINFO gives address {:#x} twice", w[0]));
                }
            }
            kind::INPUTS => out.inputs = words(1)?,
            kind::OUTPUTS => out.outputs = words(1)?,
            kind::CONDOUT => out.cond_out = single(desc, name)?,
            kind::FLOAT32CONSTS | kind::INT32CONSTS | kind::BOOL32CONSTS => {
                let ranges = pairs(2)?
                    .into_iter()
                    .map(|(index, size)| ConstRange { index, size })
                    .collect();
                match t {
                    kind::FLOAT32CONSTS => out.float32_consts = ranges,
                    kind::INT32CONSTS => out.int32_consts = ranges,
                    _ => out.bool32_consts = ranges,
                }
            }
            kind::EARLYEXIT => out.early_exit = single(desc, name)?,
            kind::GLOBAL_BUFFERS => out.global_buffers = words(1)?,
            kind::CONSTANT_BUFFERS => {
                out.constant_buffers = pairs(2)?
                    .into_iter()
                    .map(|(cb, vec4s)| ConstantBuffer { cb, vec4s })
                    .collect()
            }
            kind::INPUT_SAMPLERS => {
                out.input_samplers = pairs(2)?
                    .into_iter()
                    .map(|(input, sampler)| InputSampler { input, sampler })
                    .collect()
            }
            kind::PERSISTENT_BUFFERS => out.persistent_buffers = words(1)?,
            kind::SCRATCH_BUFFERS => out.scratch_dwords = single(desc, name)?,
            kind::SUB_CONSTANT_BUFFERS => out.sub_constant_buffers = words(1)?,
            kind::UAV_MAILBOX_SIZE => out.uav_mailbox_size = single(desc, name)?,
            kind::UAV => {
                out.uavs = words(4)?
                    .chunks(4)
                    .map(|u| Uav {
                        id: u[0],
                        f1: u[1],
                        f2: u[2],
                        kind: u[3],
                    })
                    .collect()
            }
            _ => out.uav_op_mask = words(1)?,
        }
    }
    Ok(out)
}

/// The payload as dwords, a whole number of `per_entry`-dword entries.
fn words(desc: &[u8], per_entry: usize, name: &str) -> Result<Vec<u32>, String> {
    if !desc.len().is_multiple_of(4 * per_entry) {
        return Err(format!(
            "{name} note: {} bytes is not a whole number of {}-byte entries",
            desc.len(),
            4 * per_entry
        ));
    }
    Ok(desc
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

/// A note of one dword (or none).
fn single(desc: &[u8], name: &str) -> Result<Option<u32>, String> {
    match words(desc, 1, name)?[..] {
        [] => Ok(None),
        [v] => Ok(Some(v)),
        _ => Err(format!("{name} note: {} bytes, not one dword", desc.len())),
    }
}

/// Which table of `.data` a constant is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstKind {
    /// `float f[256][4]` at byte 0 (FLOAT32CONSTS).
    Float,
    /// `uint i[32][4]` at byte 4096 (INT32CONSTS).
    Int,
    /// `uint b[32]` at byte 4608 (BOOL32CONSTS).
    Bool,
}

impl ConstKind {
    /// Byte offset of the table in `.data`, its entry size and its entry count.
    pub fn table(self) -> (u32, u32, u32) {
        match self {
            ConstKind::Float => (0, 16, 256),
            ConstKind::Int => (4096, 16, 32),
            ConstKind::Bool => (4608, 4, 32),
        }
    }
}

/// A live immediate constant of `.data`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImmediateConst {
    pub kind: ConstKind,
    pub index: u32,
    /// `size` bytes from entry `index` of its table.
    pub bytes: Vec<u8>,
}

/// The constants the F/I/B CONSTS notes mark live, read from `data` (which is [`DATA_SIZE`]
/// bytes). A range must lie inside its table.
pub fn immediate_constants(notes: &CalNotes, data: &[u8]) -> Result<Vec<ImmediateConst>, String> {
    let lists = [
        (ConstKind::Float, &notes.float32_consts, "FLOAT32CONSTS"),
        (ConstKind::Int, &notes.int32_consts, "INT32CONSTS"),
        (ConstKind::Bool, &notes.bool32_consts, "BOOL32CONSTS"),
    ];
    let mut out = Vec::new();
    for (kind, ranges, name) in lists {
        let (base, entry, count) = kind.table();
        for r in ranges.iter() {
            let start = u64::from(r.index) * u64::from(entry);
            let end = start + u64::from(r.size);
            if end > u64::from(entry * count) {
                return Err(format!(
                    "{name} entry {} of {} bytes runs past its {count}-entry table",
                    r.index, r.size
                ));
            }
            let at = (u64::from(base) + start) as usize..(u64::from(base) + end) as usize;
            let bytes = data
                .get(at)
                .ok_or_else(|| format!("{name} entry {} is past the end of .data", r.index))?;
            out.push(ImmediateConst {
                kind,
                index: r.index,
                bytes: bytes.to_vec(),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn payloads_are_whole_entries() {
        let cbs = le(&[1, 3, 0, 15]);
        let n = parse(&[(kind::CONSTANT_BUFFERS, &cbs)]).unwrap();
        assert_eq!(n.constant_buffer(0), Some(15));
        assert_eq!(n.constant_buffer(1), Some(3));
        assert_eq!(n.constant_buffer(2), None);
        assert_eq!(
            parse(&[(kind::CONSTANT_BUFFERS, &cbs[..12])]),
            Err("CONSTANT_BUFFERS note: 12 bytes is not a whole number of 8-byte entries".into())
        );
        assert_eq!(
            parse(&[(kind::UAV, &le(&[11, 4, 0]))]),
            Err("UAV note: 12 bytes is not a whole number of 16-byte entries".into())
        );
        assert_eq!(
            parse(&[(kind::INPUTS, &[1, 2])]),
            Err("INPUTS note: 2 bytes is not a whole number of 4-byte entries".into())
        );
    }

    #[test]
    fn single_dword_notes() {
        let n = parse(&[(kind::SCRATCH_BUFFERS, &le(&[7])), (kind::CONDOUT, &[])]).unwrap();
        assert_eq!((n.scratch_dwords, n.cond_out), (Some(7), None));
        assert_eq!(
            parse(&[(kind::EARLYEXIT, &le(&[0, 1]))]),
            Err("EARLYEXIT note: 8 bytes, not one dword".into())
        );
    }

    #[test]
    fn repeats_are_errors_and_unknown_types_are_kept() {
        let one = le(&[1]);
        assert_eq!(
            parse(&[(kind::INPUTS, &one), (kind::INPUTS, &one)]),
            Err("two INPUTS notes".into())
        );
        let n = parse(&[
            (0, &one),
            (18, &one),
            (kind::UAV_OP_MASK, &le(&[0x1c00, 1])),
        ])
        .unwrap();
        assert_eq!(n.other, [(0, one.clone()), (18, one)]);
        assert_eq!(n.order, [kind::UAV_OP_MASK]);
        assert!(n.uav_used(10) && n.uav_used(12) && n.uav_used(32));
        assert!(!n.uav_used(9) && !n.uav_used(33) && !n.uav_used(1000));
        assert_eq!(kind::name(17), Some("UAV_OP_MASK"));
        assert_eq!((kind::name(0), kind::name(18)), (None, None));
    }

    #[test]
    fn proginfo_pairs_and_repeated_addresses() {
        let n = parse(&[(kind::PROGINFO, &le(&[0x2e13, 0x98, 0x8000_1000, 3]))]).unwrap();
        assert_eq!(n.prog_info(0x2e13), Some(0x98));
        assert_eq!(n.prog_info(0x2e14), None);
        assert_eq!(
            parse(&[(kind::PROGINFO, &le(&[5, 1, 6, 2, 5, 3]))]),
            Err("PROGINFO gives address 0x5 twice".into())
        );
    }

    /// The tables of .data: floats at 0 (16-byte entries), ints at 4096, bools at 4608
    /// (4-byte entries); a range must stay inside its table.
    #[test]
    fn immediate_constants_come_from_their_tables() {
        let mut data = vec![0u8; DATA_SIZE];
        data[16..20].copy_from_slice(&1.5f32.to_le_bytes());
        data[4096..4100].copy_from_slice(&u32::MAX.to_le_bytes());
        data[4608 + 31 * 4] = 1;
        let notes = parse(&[
            (kind::FLOAT32CONSTS, &le(&[1, 16])),
            (kind::INT32CONSTS, &le(&[0, 16])),
            (kind::BOOL32CONSTS, &le(&[31, 4])),
        ])
        .unwrap();
        let c = immediate_constants(&notes, &data).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!((c[0].kind, c[0].index), (ConstKind::Float, 1));
        assert_eq!(c[0].bytes[..4], 1.5f32.to_le_bytes());
        assert_eq!(c[1].bytes[..4], [0xff; 4]);
        assert_eq!(
            (c[2].kind, c[2].bytes.as_slice()),
            (ConstKind::Bool, &[1, 0, 0, 0][..])
        );
        for (t, range, name, entries) in [
            (kind::FLOAT32CONSTS, [255, 17], "FLOAT32CONSTS", 256),
            (kind::INT32CONSTS, [32, 1], "INT32CONSTS", 32),
            (kind::BOOL32CONSTS, [u32::MAX, 4], "BOOL32CONSTS", 32),
        ] {
            let notes = parse(&[(t, &le(&range))]).unwrap();
            assert_eq!(
                immediate_constants(&notes, &data),
                Err(format!(
                    "{name} entry {} of {} bytes runs past its {entries}-entry table",
                    range[0], range[1]
                ))
            );
        }
        let notes = parse(&[(kind::BOOL32CONSTS, &le(&[0, 4]))]).unwrap();
        assert_eq!(
            immediate_constants(&notes, &data[..4608]),
            Err("BOOL32CONSTS entry 0 is past the end of .data".into())
        );
    }
}
