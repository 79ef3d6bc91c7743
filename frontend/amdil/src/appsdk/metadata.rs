//! The `__OpenCL_<k>_metadata` text: the kernel's arguments and resources
//! (amd_appsdk_binaries.md §2.2; field layouts from Multi2Sim's `si-kernel.c` and CLRX's
//! `AmdBinGen.cpp` `generateMetadata`, as that section cites them).
//!
//! The text is `;`-prefixed lines of `:`-separated fields, from `;ARGSTART:__OpenCL_<k>_kernel`
//! to `;ARGEND:__OpenCL_<k>_kernel`. The arguments are the `value`, `pointer`, `image` and
//! `counter` lines, in text order, which is the kernel's parameter order. Invariants of a parsed
//! [`Metadata`]:
//! - there is one `reflection:IDX:TYPE` line per argument, IDX = 0, 1, … in order (it gives
//!   [`Arg::cl_type`]); so an argument line of a kind this parser does not know cannot go
//!   unnoticed;
//! - `sampler` lines are not arguments ([`Metadata::samplers`]): LOCATION 1 is a sampler the
//!   kernel declares; LOCATION 0 names a `sampler_t` argument, which has its own `value` line
//!   (CLRX writes a sampler argument as `value:NAME:u32:…` and adds the `sampler` line after the
//!   arguments), and that argument's kind is [`ArgKind::Sampler`];
//! - every `constarg:IDX:NAME` names argument IDX ([`Arg::is_const`]);
//! - lines with other keys are kept verbatim in [`Metadata::other`].

use std::fmt;

use wavejit_isa::printable;

/// A parsed metadata text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    /// The whole text as stored (trailing NULs removed).
    pub text: String,
    /// `version:A:B:C` (3:1:104 in the corpus).
    pub version: Option<[u32; 3]>,
    /// `device:NAME` (`tahiti`, `cypress`).
    pub device: Option<String>,
    /// `uniqueid:N`.
    pub unique_id: Option<u32>,
    /// `function:1:N`: N.
    pub function_id: Option<u32>,
    pub memory: Memory,
    /// The kernel's parameters, in order.
    pub args: Vec<Arg>,
    /// Every `sampler` line, in text order.
    pub samplers: Vec<Sampler>,
    /// `cws:X:Y:Z`: the `reqd_work_group_size`.
    pub cws: Option<[u32; 3]>,
    /// `uavid:N`: the default raw UAV (Evergreen: 11).
    pub uav_id: Option<u32>,
    /// `privateid:N`: the UAV of private memory (SI 8, Evergreen 1).
    pub private_id: Option<u32>,
    /// `printfid:N`.
    pub printf_id: Option<u32>,
    /// `cbid:N`.
    pub cb_id: Option<u32>,
    /// Lines with keys not listed above, without their `;`.
    pub other: Vec<String>,
}

/// The `memory:` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// `memory:uavprivate:N` (SI): private bytes per work-item.
    pub uav_private: Option<u32>,
    /// `memory:hwprivate:N` (Evergreen): private bytes per work-item.
    pub hw_private: Option<u32>,
    /// `memory:hwlocal:N`: bytes of statically declared `__local` memory (0 when absent).
    pub hw_local: u32,
    /// `memory:hwregion:N`: GDS bytes (0 when absent).
    pub hw_region: u32,
    /// `memory:datareqd`: the program has `__OpenCL_<N>_global` data.
    pub data_reqd: bool,
    /// `memory:64bitABI`: pointers are 64-bit.
    pub abi64: bool,
}

/// One kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub name: String,
    pub kind: ArgKind,
    /// Where the driver writes the argument: constant buffer `cb` (always 1 in the corpus),
    /// byte `offset`.
    pub slot: CbSlot,
    /// Bytes of the argument's value at its slot: a value's element size × its width (a
    /// 3-vector counts 4 elements), a struct's size, 4 for a pointer (8 under
    /// `memory:64bitABI`), a sampler or a counter, 32 for an image (its 8-dword descriptor
    /// block, §3.2).
    pub size: u32,
    /// The OpenCL type name from its `reflection` line (`uint*`, `float4*`, `int`).
    pub cl_type: String,
    /// A `constarg` line names it (declared `const`).
    pub is_const: bool,
    /// The metadata line, without its `;`.
    pub line: String,
}

/// An argument's constant-buffer slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CbSlot {
    pub cb: u32,
    pub offset: u32,
}

/// What an argument is, with the fields of its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// `value:NAME:TYPE:NELEM:CB:OFFSET`, TYPE not `struct`.
    Value { ty: ValueType, width: u32 },
    /// `value:NAME:struct:SIZE:CB:OFFSET`: a by-value struct of SIZE bytes.
    Struct { size: u32 },
    /// `pointer:NAME:TYPE:1:CB:OFFSET:SPACE:RESID:ESIZE:ACCESS:VOLATILE:RESTRICT`.
    Pointer(Pointer),
    /// `image:NAME:DIM:ACCESS:RESID:CB:OFFSET`.
    Image(Image),
    /// A `sampler_t` parameter: its `value` line and a `sampler:NAME:ID:0:…` line.
    Sampler { id: u32 },
    /// `counter:NAME:BITS:RESID:CB:OFFSET` (CLRX's generator; not in the corpus).
    Counter { bits: u32, resource_id: u32 },
}

/// A pointer parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// The pointee type as written (`u32`, `float`, `opaque`, `struct`).
    pub pointee: String,
    pub space: AddressSpace,
    /// `uav`: the UAV id; `hc`/`c`: the constant buffer id; `hl`: 1.
    pub resource_id: u32,
    /// ESIZE: the pointee's size in bytes (Multi2Sim's "alignment").
    pub elem_size: u32,
    pub access: Access,
    pub volatile: bool,
    pub restrict: bool,
}

/// A pointer's address space (the SPACE field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressSpace {
    /// `uav`: `__global`, through UAV `resource_id`.
    Global,
    /// `hc` (`c` in newer drivers): `__constant`, constant buffer `resource_id`.
    Constant,
    /// `hl`: `__local`; the slot receives the LDS byte offset the launch gives it.
    Local,
}

/// An image parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// `1D`, `1DA`, `1DB`, `2D`, `2DA`, `3D`.
    pub dim: String,
    pub access: Access,
    /// RO: the resource-table index; WO: the UAV id.
    pub resource_id: u32,
}

/// RO/WO/RW.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// A `sampler:NAME:ID:LOCATION:VALUE` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampler {
    pub name: String,
    pub id: u32,
    /// LOCATION 1: declared in the kernel (a constant sampler); 0: a parameter.
    pub in_kernel: bool,
    /// bit 0 normalized coordinates, bits 1-3 addressing mode, bits 4-5 filter.
    pub value: u32,
}

/// The scalar type of a `value` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Float,
    Double,
}

impl ValueType {
    pub const ALL: [ValueType; 10] = [
        ValueType::I8,
        ValueType::I16,
        ValueType::I32,
        ValueType::I64,
        ValueType::U8,
        ValueType::U16,
        ValueType::U32,
        ValueType::U64,
        ValueType::Float,
        ValueType::Double,
    ];

    /// The metadata spelling.
    pub fn name(self) -> &'static str {
        match self {
            ValueType::I8 => "i8",
            ValueType::I16 => "i16",
            ValueType::I32 => "i32",
            ValueType::I64 => "i64",
            ValueType::U8 => "u8",
            ValueType::U16 => "u16",
            ValueType::U32 => "u32",
            ValueType::U64 => "u64",
            ValueType::Float => "float",
            ValueType::Double => "double",
        }
    }

    pub fn bytes(self) -> u32 {
        match self {
            ValueType::I8 | ValueType::U8 => 1,
            ValueType::I16 | ValueType::U16 => 2,
            ValueType::I32 | ValueType::U32 | ValueType::Float => 4,
            ValueType::I64 | ValueType::U64 | ValueType::Double => 8,
        }
    }

    fn from_name(name: &str) -> Option<ValueType> {
        ValueType::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl Arg {
    /// `value`, `struct`, `pointer`, `local` (a pointer to `__local`), `image`, `sampler` or
    /// `counter`.
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            ArgKind::Value { .. } => "value",
            ArgKind::Struct { .. } => "struct",
            ArgKind::Pointer(p) if p.space == AddressSpace::Local => "local",
            ArgKind::Pointer(_) => "pointer",
            ArgKind::Image(_) => "image",
            ArgKind::Sampler { .. } => "sampler",
            ArgKind::Counter { .. } => "counter",
        }
    }
}

impl Metadata {
    /// The argument called `name`.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.name == name)
    }
}

/// A line's fields after its key, with the line for messages.
struct Fields<'a> {
    line: &'a str,
    fields: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    fn expect(&self, n: usize) -> Result<(), String> {
        if self.fields.len() == n {
            Ok(())
        } else {
            Err(format!(
                "{}: {} fields, expected {n}",
                quoted(self.line),
                self.fields.len()
            ))
        }
    }

    fn num(&self, i: usize) -> Result<u32, String> {
        self.fields[i].parse::<u32>().map_err(|_| {
            format!(
                "{}: field {} ({}) is not a number",
                quoted(self.line),
                i + 1,
                quoted(self.fields[i])
            )
        })
    }

    fn flag(&self, i: usize) -> Result<bool, String> {
        match self.num(i)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(format!(
                "{}: field {} is {v}, not 0 or 1",
                quoted(self.line),
                i + 1
            )),
        }
    }

    fn access(&self, i: usize) -> Result<Access, String> {
        match self.fields[i] {
            "RO" => Ok(Access::ReadOnly),
            "WO" => Ok(Access::WriteOnly),
            "RW" => Ok(Access::ReadWrite),
            a => Err(format!(
                "{}: access {} is not RO, WO or RW",
                quoted(self.line),
                quoted(a)
            )),
        }
    }

    fn slot(&self, cb: usize) -> Result<CbSlot, String> {
        Ok(CbSlot {
            cb: self.num(cb)?,
            offset: self.num(cb + 1)?,
        })
    }
}

/// A text for a one-line message: printable and at most 80 characters.
fn quoted(s: &str) -> String {
    let p = printable(s);
    if p.chars().count() > 80 {
        format!("\"{}…\"", p.chars().take(80).collect::<String>())
    } else {
        format!("\"{p}\"")
    }
}

/// An argument line before the whole text is read (sizes and kinds depend on later lines).
struct Pending {
    arg: Arg,
    /// The element size of a `value` line (0 otherwise).
    value_elems: u32,
}

/// Parses the metadata `bytes` of kernel `kernel` (the OpenCL name).
pub fn parse(bytes: &[u8], kernel: &str) -> Result<Metadata, String> {
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let text =
        std::str::from_utf8(&bytes[..end]).map_err(|e| format!("the text is not UTF-8 ({e})"))?;
    let symbol = format!("__OpenCL_{kernel}_kernel");
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    if first != format!(";ARGSTART:{symbol}") {
        return Err(format!(
            "the first line {} is not \";ARGSTART:{}\"",
            quoted(first),
            printable(&symbol)
        ));
    }
    let body: Vec<&str> = lines.collect();
    let Some((last, body)) = body.split_last() else {
        return Err("no ;ARGEND line".into());
    };
    if *last != format!(";ARGEND:{symbol}") {
        return Err(format!(
            "the last line {} is not \";ARGEND:{}\"",
            quoted(last),
            printable(&symbol)
        ));
    }

    let mut md = Metadata {
        text: text.to_string(),
        version: None,
        device: None,
        unique_id: None,
        function_id: None,
        memory: Memory::default(),
        args: Vec::new(),
        samplers: Vec::new(),
        cws: None,
        uav_id: None,
        private_id: None,
        printf_id: None,
        cb_id: None,
        other: Vec::new(),
    };
    let mut pending: Vec<Pending> = Vec::new();
    let mut reflection: Vec<(u32, String)> = Vec::new();
    let mut const_args: Vec<(u32, String)> = Vec::new();
    for line in body {
        let Some(line) = line.strip_prefix(';') else {
            return Err(format!("line {} does not start with ';'", quoted(line)));
        };
        let mut parts = line.split(':');
        let key = parts.next().unwrap_or("");
        let f = Fields {
            line,
            fields: parts.collect(),
        };
        match key {
            "version" => {
                f.expect(3)?;
                md.version = Some([f.num(0)?, f.num(1)?, f.num(2)?]);
            }
            "device" => {
                f.expect(1)?;
                md.device = Some(f.fields[0].to_string());
            }
            "uniqueid" => {
                f.expect(1)?;
                md.unique_id = Some(f.num(0)?);
            }
            "function" => {
                f.expect(2)?;
                md.function_id = Some(f.num(1)?);
            }
            "memory" => memory_line(&f, &mut md.memory)?,
            "cws" => {
                f.expect(3)?;
                md.cws = Some([f.num(0)?, f.num(1)?, f.num(2)?]);
            }
            "uavid" | "privateid" | "printfid" | "cbid" => {
                f.expect(1)?;
                let v = Some(f.num(0)?);
                match key {
                    "uavid" => md.uav_id = v,
                    "privateid" => md.private_id = v,
                    "printfid" => md.printf_id = v,
                    _ => md.cb_id = v,
                }
            }
            "reflection" | "constarg" => {
                if f.fields.len() < 2 {
                    return Err(format!("{} is not {key}:INDEX:NAME", quoted(line)));
                }
                let index = f.num(0)?;
                // An OpenCL type name may itself hold ':' (none in the corpus).
                let name = f.fields[1..].join(":");
                if key == "reflection" {
                    reflection.push((index, name));
                } else {
                    const_args.push((index, name));
                }
            }
            "sampler" => {
                f.expect(4)?;
                md.samplers.push(Sampler {
                    name: f.fields[0].to_string(),
                    id: f.num(1)?,
                    in_kernel: f.flag(2)?,
                    value: f.num(3)?,
                });
            }
            "value" | "pointer" | "image" | "counter" => pending.push(arg_line(key, &f)?),
            _ => md.other.push(line.to_string()),
        }
    }

    let pointer_size = if md.memory.abi64 { 8 } else { 4 };
    for p in &mut pending {
        p.arg.size = match &p.arg.kind {
            // A 3-vector occupies 4 elements (OpenCL's sizeof).
            ArgKind::Value { width, .. } => p.value_elems * if *width == 3 { 4 } else { *width },
            ArgKind::Struct { size } => *size,
            ArgKind::Pointer(_) => pointer_size,
            ArgKind::Image(_) => 32,
            ArgKind::Sampler { .. } | ArgKind::Counter { .. } => 4,
        };
    }
    for s in md.samplers.iter().filter(|s| !s.in_kernel) {
        let Some(p) = pending.iter_mut().find(|p| p.arg.name == s.name) else {
            return Err(format!(
                "sampler {} is a parameter (LOCATION 0) but no argument has that name",
                quoted(&s.name)
            ));
        };
        p.arg.kind = ArgKind::Sampler { id: s.id };
    }
    if reflection.len() != pending.len()
        || reflection
            .iter()
            .enumerate()
            .any(|(i, (index, _))| *index as usize != i)
    {
        return Err(format!(
            "{} argument lines but reflection indices {:?}: every argument has one reflection line, in order",
            pending.len(),
            reflection.iter().map(|r| r.0).collect::<Vec<_>>()
        ));
    }
    for (p, (_, ty)) in pending.iter_mut().zip(reflection) {
        p.arg.cl_type = ty;
    }
    for (index, name) in const_args {
        match pending.get_mut(index as usize) {
            Some(p) if p.arg.name == name => p.arg.is_const = true,
            _ => {
                return Err(format!(
                    "constarg:{index}:{} names no argument {index} of that name",
                    printable(&name)
                ))
            }
        }
    }
    md.args = pending.into_iter().map(|p| p.arg).collect();
    Ok(md)
}

fn memory_line(f: &Fields, m: &mut Memory) -> Result<(), String> {
    let what = f.fields.first().copied().unwrap_or("");
    match what {
        "datareqd" | "64bitABI" => {
            f.expect(1)?;
            if what == "datareqd" {
                m.data_reqd = true;
            } else {
                m.abi64 = true;
            }
        }
        "uavprivate" | "hwprivate" | "hwlocal" | "hwregion" => {
            f.expect(2)?;
            let v = f.num(1)?;
            match what {
                "uavprivate" => m.uav_private = Some(v),
                "hwprivate" => m.hw_private = Some(v),
                "hwlocal" => m.hw_local = v,
                _ => m.hw_region = v,
            }
        }
        _ => return Err(format!("unknown memory line {}", quoted(f.line))),
    }
    Ok(())
}

/// An argument line (`value`, `pointer`, `image`, `counter`); its size is set later.
fn arg_line(key: &str, f: &Fields) -> Result<Pending, String> {
    let name = f.fields.first().copied().unwrap_or("").to_string();
    let mut value_elems = 0;
    let (kind, slot) = match key {
        "value" => {
            f.expect(5)?;
            let kind = if f.fields[1] == "struct" {
                ArgKind::Struct { size: f.num(2)? }
            } else {
                let ty = ValueType::from_name(f.fields[1]).ok_or_else(|| {
                    format!(
                        "{}: unknown value type {}",
                        quoted(f.line),
                        quoted(f.fields[1])
                    )
                })?;
                let width = f.num(2)?;
                if ![1, 2, 3, 4, 8, 16].contains(&width) {
                    return Err(format!(
                        "{}: vector width {width} is not 1, 2, 3, 4, 8 or 16",
                        quoted(f.line)
                    ));
                }
                value_elems = ty.bytes();
                ArgKind::Value { ty, width }
            };
            (kind, f.slot(3)?)
        }
        "pointer" => {
            f.expect(11)?;
            let space = match f.fields[5] {
                "uav" => AddressSpace::Global,
                "hc" | "c" => AddressSpace::Constant,
                "hl" => AddressSpace::Local,
                s => {
                    return Err(format!(
                        "{}: address space {} is not uav, hc, c or hl",
                        quoted(f.line),
                        quoted(s)
                    ))
                }
            };
            let p = Pointer {
                pointee: f.fields[1].to_string(),
                space,
                resource_id: f.num(6)?,
                elem_size: f.num(7)?,
                access: f.access(8)?,
                volatile: f.flag(9)?,
                restrict: f.flag(10)?,
            };
            (ArgKind::Pointer(p), f.slot(3)?)
        }
        "image" => {
            f.expect(6)?;
            let image = Image {
                dim: f.fields[1].to_string(),
                access: f.access(2)?,
                resource_id: f.num(3)?,
            };
            (ArgKind::Image(image), f.slot(4)?)
        }
        _ => {
            f.expect(5)?;
            let kind = ArgKind::Counter {
                bits: f.num(1)?,
                resource_id: f.num(2)?,
            };
            (kind, f.slot(3)?)
        }
    };
    Ok(Pending {
        arg: Arg {
            name,
            kind,
            slot,
            size: 0,
            cl_type: String::new(),
            is_const: false,
            line: f.line.to_string(),
        },
        value_elems,
    })
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Access::ReadOnly => "RO",
            Access::WriteOnly => "WO",
            Access::ReadWrite => "RW",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> Vec<u8> {
        let mut t = String::from(";ARGSTART:__OpenCL_k_kernel\n");
        for l in lines {
            t += &format!(";{l}\n");
        }
        t += ";ARGEND:__OpenCL_k_kernel\n\0\0";
        t.into_bytes()
    }

    /// CLRX's forms that the corpus lacks: a sampler parameter (its `value` line and a
    /// LOCATION 0 `sampler` line), a counter, `hc` and `c` constant pointers, a 3-vector,
    /// 64-bit pointers, and keys this parser does not know.
    #[test]
    fn forms_outside_the_corpus() {
        let md = parse(
            &text(&[
                "value:s:u32:1:1:0",
                "counter:n:32:3:1:16",
                "pointer:p:float:1:1:32:hc:2:4:RO:0:1",
                "pointer:q:opaque:1:1:48:c:3:4:RO:1:0",
                "value:v:float:3:1:64",
                "memory:64bitABI",
                "sampler:s:0:0:0",
                "printf_fmt:0:1:2",
                "reflection:0:sampler_t",
                "reflection:1:counter32_t",
                "reflection:2:float*",
                "reflection:3:struct x*",
                "reflection:4:float3",
            ]),
            "k",
        )
        .unwrap();
        let kinds: Vec<&str> = md.args.iter().map(Arg::kind_name).collect();
        assert_eq!(kinds, ["sampler", "counter", "pointer", "pointer", "value"]);
        assert_eq!(md.args[0].kind, ArgKind::Sampler { id: 0 });
        assert_eq!(
            md.args[1].kind,
            ArgKind::Counter {
                bits: 32,
                resource_id: 3
            }
        );
        let sizes: Vec<u32> = md.args.iter().map(|a| a.size).collect();
        assert_eq!(sizes, [4, 4, 8, 8, 16]);
        match (&md.args[2].kind, &md.args[3].kind) {
            (ArgKind::Pointer(p), ArgKind::Pointer(q)) => {
                assert_eq!(
                    (p.space, p.resource_id, p.restrict),
                    (AddressSpace::Constant, 2, true)
                );
                assert_eq!(
                    (q.space, q.pointee.as_str(), q.volatile),
                    (AddressSpace::Constant, "opaque", true)
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(md.args[3].cl_type, "struct x*");
        assert_eq!(md.args[4].slot, CbSlot { cb: 1, offset: 64 });
        assert_eq!(md.other, ["printf_fmt:0:1:2"]);
        assert!(md.memory.abi64);
        assert_eq!(md.samplers.len(), 1);
    }

    #[test]
    fn malformed_texts() {
        let err = |lines: &[&str]| parse(&text(lines), "k").unwrap_err();
        assert_eq!(
            parse(b";ARGSTART:__OpenCL_k_kernel\n", "k"),
            Err("no ;ARGEND line".into())
        );
        assert_eq!(
            parse(b"\xff", "k"),
            Err("the text is not UTF-8 (invalid utf-8 sequence of 1 bytes from index 0)".into())
        );
        assert_eq!(
            parse(&text(&[]), "j"),
            Err("the first line \";ARGSTART:__OpenCL_k_kernel\" is not \";ARGSTART:__OpenCL_j_kernel\"".into())
        );
        assert_eq!(
            err(&["sampler:s:0:0:0"]),
            "sampler \"s\" is a parameter (LOCATION 0) but no argument has that name"
        );
        assert_eq!(
            err(&["value:a:u32:1:1:0", "reflection:0:uint", "constarg:0:b"]),
            "constarg:0:b names no argument 0 of that name"
        );
        assert_eq!(
            err(&["value:a:u32:1:1:0"]),
            "1 argument lines but reflection indices []: every argument has one reflection line, in order"
        );
        assert_eq!(
            err(&["value:a:half:1:1:0"]),
            "\"value:a:half:1:1:0\": unknown value type \"half\""
        );
        assert_eq!(
            err(&["value:a:u32:5:1:0"]),
            "\"value:a:u32:5:1:0\": vector width 5 is not 1, 2, 3, 4, 8 or 16"
        );
        assert_eq!(
            err(&["image:i:2D:RX:0:1:0"]),
            "\"image:i:2D:RX:0:1:0\": access \"RX\" is not RO, WO or RW"
        );
        assert_eq!(
            err(&["pointer:p:u32:1:1:0:uav:10:4:RW:0:2"]),
            "\"pointer:p:u32:1:1:0:uav:10:4:RW:0:2\": field 11 is 2, not 0 or 1"
        );
        assert_eq!(err(&["cws:1:2"]), "\"cws:1:2\": 2 fields, expected 3");
        assert_eq!(
            err(&["memory:hwlocal"]),
            "\"memory:hwlocal\": 1 fields, expected 2"
        );
        assert_eq!(
            err(&["reflection:x"]),
            "\"reflection:x\" is not reflection:INDEX:NAME"
        );
        assert_eq!(
            parse(
                b";ARGSTART:__OpenCL_k_kernel\nx\n;ARGEND:__OpenCL_k_kernel",
                "k"
            ),
            Err("line \"x\" does not start with ';'".into())
        );
    }
}
