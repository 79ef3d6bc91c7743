//! GCN `.s` files: LLVM 14 AMDGPU assembly text run under a fixed launch convention (the GCN
//! part of the contract in [`crate::asm_file`], repeated in README.md "Assembly files").
//!
//! - **Target**: a GCN chip name (`gfx900`, `tahiti`, `gfx8`, ...).
//! - **Kernels** (named by the shared rule of [`crate::asm_file`]): a kernel enters at its `.globl`
//!   label, or at the first instruction of a file declaring none, and runs from there to the
//!   end of the file; a branch outside that range is a guest fault. Other labels are branch
//!   targets.
//! - **Addresses**: the entry is placed at guest address 0, so `s_getpc_b64` and every pc in
//!   a message are byte offsets from the kernel's entry, as `wavejit disasm` prints them.
//! - **Initial state** (HSA-like, one user SGPR pair):
//!   `s[0:1]` = kernarg segment address; `s2`, `s3`, `s4` = work-group id x, y, z;
//!   `v0`, `v1`, `v2` = work-item id x, y, z within the work-group; EXEC = the lanes holding
//!   work-items (work-items are numbered x fastest, 64 per wave; groups at the edge of a grid
//!   that is not a multiple of the local size are partial). Every other register is 0.
//! - **Kernarg segment**: the `--arg` values in order, each at its natural alignment from
//!   offset 0: buffers (`buf:`, `zero:`) are 8-byte global addresses, `u32`/`i32`/`f32` 4 bytes,
//!   `u64`/`i64`/`f64` 8 bytes. Reads past the last argument return 0 (the segment has slack).
//! - **Mode**: FLOAT_MODE 0xf0 (round to nearest even, f32/f64/f16 denormals kept), IEEE_MODE
//!   and DX10_CLAMP on; 64 KiB of LDS per work-group (gfx6 hardware allows a work-group only
//!   32 KiB; the emulator gives 64 KiB on every generation); no scratch (private segment).
//! - **GDS**: 64 KiB, zero-filled before each dispatch and shared by all its work-groups (as
//!   for every kernel, see `wavejit_gcn::launch`). DS instructions with `gds` reach it through
//!   M0 (`[15:0]` window size, `[31:16]` window base, in bytes); M0 starts at 0 (an empty
//!   window), so a program sets it first, e.g. `s_mov_b32 m0, 0xffff`. `ds_gws_*` and
//!   `ds_ordered_count` stop the wave with a fault.
//!
//! Override keys: `float_mode` (the RSRC1 FLOAT_MODE byte, e.g. `0xc0` flushes f32
//! denormals), `ieee_mode` (0 or 1), `dx10_clamp` (0 or 1), `lds_size` (bytes, at most 65536).
//!
//! The kernels become synthetic [`loader::Kernel`]s launched like kernels of code objects
//! ([`super::GcnModule`]).

use crate::asm_file::{self, declared_kernels, line_error, overrides};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use std::fmt::Write;
use std::path::Path;
use wavejit_gcn::loader::{self, ArgKind, KernelArg, SystemSgprs, UserSgpr, UserSgprSlot};
use wavejit_gcn::Gen;
use wavejit_isa::KernelNotFound;

/// LDS bytes a work-group gets unless `lds_size` says otherwise (the gfx7-gfx9 maximum).
pub const DEFAULT_LDS_BYTES: u32 = 64 << 10;
/// FLOAT_MODE at wave start unless `float_mode` says otherwise: round to nearest even,
/// denormals kept for every type.
pub const DEFAULT_FLOAT_MODE: u8 = 0xf0;
/// SGPRs a program may name (s0-s101 on gfx8/gfx9, s0-s103 on gfx6/gfx7), for `info` only: no
/// allocation is declared, the whole file is available.
fn sgpr_file(gen: Gen) -> u32 {
    match gen {
        Gen::Gfx6 | Gen::Gfx7 => 104,
        Gen::Gfx8 | Gen::Gfx9 => 102,
    }
}
const VGPR_FILE: u32 = 256;

/// Launch settings of every kernel of a file (defaults overridden by `; wavejit:` comments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    pub float_mode: u8,
    pub ieee_mode: bool,
    pub dx10_clamp: bool,
    pub lds_size: u32,
}

impl Default for Mode {
    fn default() -> Mode {
        Mode {
            float_mode: DEFAULT_FLOAT_MODE,
            ieee_mode: true,
            dx10_clamp: true,
            lds_size: DEFAULT_LDS_BYTES,
        }
    }
}

/// An assembled GCN `.s` file.
#[derive(Clone, Debug)]
pub struct GcnAsm {
    pub gen: Gen,
    /// The whole file's code.
    pub code: Vec<u8>,
    /// (kernel name, entry offset in `code`), in the file's order.
    pub entries: Vec<(String, usize)>,
    pub mode: Mode,
}

/// Assembles `text` (the file `path`, whose stem names the kernel of a file declaring no
/// `.globl`) for `gen`.
pub fn parse(path: &Path, text: &str, gen: Gen) -> Result<GcnAsm> {
    let (shown, stem) = asm_file::names(path);
    let path = shown.as_str();
    let fail = |(line, msg): (usize, String)| line_error(path, line, msg);
    let mode = directives(text).map_err(fail)?;
    let (code, labels) = wavejit_gcn::assemble_with_labels(gen, text)
        .map_err(|e| line_error(path, e.line, e.msg))?;
    let mut entries =
        declared_kernels(text, code_part, |name| labels.get(name).copied()).map_err(fail)?;
    if entries.is_empty() {
        entries.push((stem, 0));
    }
    if code.is_empty() {
        return Err(Error::Other(format!("{path}: no instructions")));
    }
    Ok(GcnAsm {
        gen,
        code,
        entries,
        mode,
    })
}

/// The text of a line before its comment (`;`, `//` or `#`, as the assembler reads it).
fn code_part(line: &str) -> &str {
    let end = [";", "//", "#"]
        .iter()
        .filter_map(|c| line.find(c))
        .min()
        .unwrap_or(line.len());
    &line[..end]
}

/// The launch settings of a file: the defaults, with its `; wavejit:` overrides.
fn directives(text: &str) -> Result<Mode, (usize, String)> {
    let mut mode = Mode::default();
    let keys = ["float_mode", "ieee_mode", "dx10_clamp", "lds_size"];
    for o in overrides(text, &keys)? {
        let flag = || match o.value {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(o.bad("expected 0 or 1")),
        };
        match o.key {
            "float_mode" => {
                mode.float_mode =
                    u8::try_from(o.value).map_err(|_| o.bad("FLOAT_MODE is one byte"))?
            }
            "ieee_mode" => mode.ieee_mode = flag()?,
            "dx10_clamp" => mode.dx10_clamp = flag()?,
            _ if o.value <= u64::from(DEFAULT_LDS_BYTES) => mode.lds_size = o.value as u32,
            _ => return Err(o.bad("at most 65536 bytes")),
        }
    }
    Ok(mode)
}

/// The kernel argument metadata the convention gives `args`: natural offsets from 0.
fn kernarg_layout(args: &[PlacedArg]) -> Vec<KernelArg> {
    let sizes: Vec<u32> = args.iter().map(|a| a.value().size()).collect();
    args.iter()
        .zip(wavejit_isa::natural_offsets(&sizes, 0))
        .zip(sizes)
        .map(|((a, offset), size)| KernelArg {
            name: None,
            offset,
            size,
            kind: match a {
                PlacedArg::Buffer { .. } => ArgKind::GlobalBuffer,
                PlacedArg::Value { .. } | PlacedArg::Local { .. } | PlacedArg::Struct { .. } => {
                    ArgKind::ByValue
                }
            },
            type_name: None,
            address_space: None,
        })
        .collect()
}

impl GcnAsm {
    /// The entry offset of kernel `name`, or the loader's "not found" error listing the kernels.
    fn entry(&self, name: &str) -> Result<usize> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, o)| o)
            .ok_or_else(|| {
                KernelNotFound::new(name, self.entries.iter().map(|(n, _)| n.as_str())).into()
            })
    }

    /// Kernel `name` as a code-object kernel launched under the convention, with the argument
    /// layout `args` implies.
    pub fn kernel(&self, name: &str, args: &[PlacedArg]) -> Result<loader::Kernel> {
        let entry = self.entry(name)?;
        let m = self.mode;
        let sgpr_count = sgpr_file(self.gen);
        // RSRC1: granulated VGPR [5:0] and SGPR [9:6] counts, FLOAT_MODE [19:12], DX10_CLAMP
        // [21], IEEE_MODE [23] (notes/amd_launch_abi.md §3.1).
        let rsrc1 = (VGPR_FILE / 4 - 1)
            | (sgpr_count.div_ceil(8) - 1).min(15) << 6
            | u32::from(m.float_mode) << 12
            | u32::from(m.dx10_clamp) << 21
            | u32::from(m.ieee_mode) << 23;
        // RSRC2: USER_SGPR [5:1] = 2, TGID_{X,Y,Z}_EN [9:7], TIDIG_COMP_CNT [12:11] = 2.
        let rsrc2 = 2 << 1 | 0b111 << 7 | 2 << 11;
        let args = kernarg_layout(args);
        let kernarg_size = args.last().map_or(0, |a| a.offset + a.size);
        Ok(loader::Kernel {
            name: name.to_string(),
            code: self.code[entry..].to_vec(),
            code_address: 0,
            sgpr_count,
            vgpr_count: VGPR_FILE,
            lds_size: m.lds_size,
            private_segment_size: 0,
            kernarg_size,
            kernarg_align: 8,
            implicit_kernarg_bytes: 0,
            rsrc1,
            rsrc2,
            float_mode: m.float_mode,
            ieee_mode: m.ieee_mode,
            dx10_clamp: m.dx10_clamp,
            user_sgprs: vec![UserSgprSlot {
                kind: UserSgpr::KernargSegmentPtr,
                first: 0,
            }],
            user_sgpr_count: 2,
            system_sgprs: SystemSgprs {
                workgroup_id: [true; 3],
                ..SystemSgprs::default()
            },
            tidig_comp_cnt: 2,
            wavefront_size: 64,
            args,
            scratch_relocs: Vec::new(),
            reqd_workgroup_size: None,
        })
    }

    /// `wavejit info`: target, kernels and the launch convention.
    pub fn describe(&self, target: &str) -> String {
        let m = self.mode;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "target: {target} ({}), assembly file (launch convention: README.md \"Assembly files\")",
            self.gen.name()
        );
        for (name, entry) in &self.entries {
            let _ = writeln!(s, "kernel {name}:");
            let _ = writeln!(
                s,
                "  code: {} bytes at offset {entry:#x} of {} assembled bytes; sgprs {}, vgprs {VGPR_FILE}, wave64",
                self.code.len() - entry,
                self.code.len(),
                sgpr_file(self.gen)
            );
            let _ = writeln!(
                s,
                "  lds: {} bytes; scratch: none; float mode {:#04x}, ieee {}, dx10_clamp {}",
                m.lds_size, m.float_mode, m.ieee_mode, m.dx10_clamp
            );
            let _ = writeln!(s, "  initial state: s[0:1] kernarg address, s2-s4 work-group id x/y/z, v0-v2 work-item id x/y/z");
            let _ = writeln!(s, "  kernarg: the --arg values at natural offsets from 0 (buffers are 8-byte addresses)");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::ValueKind;

    #[test]
    fn arguments_sit_at_natural_offsets() {
        let v = |kind| PlacedArg::Value { kind, bits: 0 };
        let args = [
            v(ValueKind::U32),
            PlacedArg::Buffer { addr: 0, size: 4 },
            v(ValueKind::F32),
            v(ValueKind::F64),
            v(ValueKind::I32),
        ];
        let layout: Vec<(u32, u32)> = kernarg_layout(&args)
            .iter()
            .map(|a| (a.offset, a.size))
            .collect();
        assert_eq!(layout, [(0, 4), (8, 8), (16, 4), (24, 8), (32, 4)]);
    }

    #[test]
    fn directives_override_the_defaults() {
        let m =
            directives("; wavejit: float_mode 0xc0\n s_endpgm ; wavejit: lds_size 1024\n").unwrap();
        assert_eq!(
            m,
            Mode {
                float_mode: 0xc0,
                lds_size: 1024,
                ..Mode::default()
            }
        );
        for bad in [
            "; wavejit: fast 1",
            "; wavejit: ieee_mode 2",
            "; wavejit: lds_size 65537",
            "; wavejit: float_mode",
        ] {
            assert_eq!(directives(bad).unwrap_err().0, 1, "{bad}");
        }
        assert_eq!(
            directives("; wavejit: ieee_mode 0\n; wavejit: ieee_mode 0")
                .unwrap_err()
                .0,
            2
        );
    }

    #[test]
    fn kernels_are_globl_labels_or_the_file() {
        let text = "\t.globl\tsecond // entry\nfirst:\n s_nop 0\nsecond:\n s_endpgm\n";
        let f = parse(Path::new("t.s"), text, Gen::Gfx9).unwrap();
        assert_eq!(f.entries, [("second".to_string(), 4)]);
        let k = f.kernel("second", &[]).unwrap();
        assert_eq!(k.code, f.code[4..]);
        assert!(f.kernel("first", &[]).is_err());
        let f = parse(Path::new("t.s"), "s_endpgm\n", Gen::Gfx9).unwrap();
        assert_eq!(f.entries, [("t".to_string(), 0)]);
        assert!(parse(Path::new("t.s"), ".globl missing\ns_endpgm\n", Gen::Gfx9).is_err());
    }

    #[test]
    fn rsrc_words_agree_with_the_fields() {
        let f = parse(
            Path::new("t.s"),
            "; wavejit: float_mode 0xc0\n; wavejit: dx10_clamp 0\ns_endpgm\n",
            Gen::Gfx6,
        )
        .unwrap();
        let k = f.kernel("t", &[]).unwrap();
        let cfg = wavejit_gcn::lift::LiftConfig::from_rsrc1(Gen::Gfx6, k.rsrc1, 0, "t");
        assert_eq!(
            (cfg.float_mode, cfg.ieee_mode, cfg.dx10_clamp),
            (0xc0, true, false)
        );
        assert_eq!((k.rsrc2 >> 1) & 0x1f, u32::from(k.user_sgpr_count));
    }
}
