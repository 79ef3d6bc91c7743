//! Kernel argument specifications of `wavejit run --arg SPEC` (a contract: scripts depend on it).
//!
//! ```text
//! buf:PATH     a buffer holding the file's bytes (the kernel gets its address)
//! zero:N       a zero-filled buffer of N bytes
//! local:N      a __local (LDS) pointer argument of N bytes (AMD OpenCL binaries, IL)
//! u32:V i32:V u64:V i64:V f32:V f64:V   a value (decimal, or 0x-hex for integers)
//! struct:PATH  a by-value argument whose bytes are the file's (structs, vectors such as
//!              uint2/float4; AMD OpenCL binaries, IL)
//! ```
//!
//! `local:` and `struct:` name OpenCL's argument kinds, which only the launch conventions of
//! AMD OpenCL binaries and IL files have ([`crate::frontend::Module::takes_local_and_struct_args`]);
//! with those a value argument may also be given by any spec of its size.

use std::fmt;
use std::path::PathBuf;

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A buffer initialised from a file.
    File(PathBuf),
    /// A zero-filled buffer.
    Zero(u64),
    /// A buffer holding these bytes (programmatic use; no SPEC spelling).
    Data(Vec<u8>),
    /// A value passed by value, as little-endian bytes of its width.
    Value { kind: ValueKind, bits: u64 },
    /// A `__local` pointer argument of this many bytes of LDS.
    Local(u64),
    /// A by-value argument whose bytes are the file's.
    Struct(PathBuf),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
}

impl ValueKind {
    pub fn bytes(self) -> usize {
        match self {
            ValueKind::U32 | ValueKind::I32 | ValueKind::F32 => 4,
            ValueKind::U64 | ValueKind::I64 | ValueKind::F64 => 8,
        }
    }
}

/// Why a SPEC was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

fn parse_uint(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

fn parse_int(s: &str) -> Option<i64> {
    match s.strip_prefix('-') {
        Some(rest) => parse_uint(rest).and_then(|u| {
            if u == 1 << 63 {
                Some(i64::MIN)
            } else {
                i64::try_from(u).ok().map(|v| -v)
            }
        }),
        None => parse_uint(s).and_then(|u| i64::try_from(u).ok()),
    }
}

impl std::str::FromStr for ArgSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<ArgSpec, SpecError> {
        let bad = |why: &str| SpecError(format!("bad argument spec '{spec}': {why}"));
        let (kind, val) = spec
            .split_once(':')
            .ok_or_else(|| bad("expected KIND:VALUE"))?;
        let value = |kind, bits| Ok(ArgSpec::Value { kind, bits });
        match kind {
            "buf" if !val.is_empty() => Ok(ArgSpec::File(PathBuf::from(val))),
            "buf" => Err(bad("empty path")),
            "zero" => parse_uint(val)
                .map(ArgSpec::Zero)
                .ok_or_else(|| bad("not a byte count")),
            "local" => parse_uint(val)
                .map(ArgSpec::Local)
                .ok_or_else(|| bad("not a byte count")),
            "struct" if !val.is_empty() => Ok(ArgSpec::Struct(PathBuf::from(val))),
            "struct" => Err(bad("empty path")),
            "u32" => match parse_uint(val) {
                Some(v) if v <= u32::MAX as u64 => value(ValueKind::U32, v),
                _ => Err(bad("not a u32")),
            },
            "i32" => match parse_int(val) {
                Some(v) if i32::try_from(v).is_ok() => {
                    value(ValueKind::I32, v as i32 as u32 as u64)
                }
                _ => Err(bad("not an i32")),
            },
            "u64" => parse_uint(val).map_or(Err(bad("not a u64")), |v| value(ValueKind::U64, v)),
            "i64" => {
                parse_int(val).map_or(Err(bad("not an i64")), |v| value(ValueKind::I64, v as u64))
            }
            "f32" => val.parse::<f32>().map_or(Err(bad("not an f32")), |v| {
                value(ValueKind::F32, v.to_bits() as u64)
            }),
            "f64" => val.parse::<f64>().map_or(Err(bad("not an f64")), |v| {
                value(ValueKind::F64, v.to_bits())
            }),
            _ => Err(bad(
                "unknown kind (buf zero local u32 i32 u64 i64 f32 f64 struct)",
            )),
        }
    }
}

/// `--save I:PATH`: after the run, write buffer argument I to PATH.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveSpec {
    pub arg: usize,
    pub path: PathBuf,
}

impl std::str::FromStr for SaveSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<SaveSpec, SpecError> {
        let bad = || SpecError(format!("bad save spec '{s}': expected I:PATH"));
        let (i, p) = s.split_once(':').ok_or_else(bad)?;
        let arg = i.parse().map_err(|_| bad())?;
        if p.is_empty() {
            return Err(bad());
        }
        Ok(SaveSpec {
            arg,
            path: PathBuf::from(p),
        })
    }
}

/// `X[,Y[,Z]]`, missing dimensions are 1.
pub fn parse_dims(s: &str) -> Result<[u32; 3], SpecError> {
    let bad = || {
        SpecError(format!(
            "bad size '{s}': expected X[,Y[,Z]] of positive integers"
        ))
    };
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p.trim().parse().map_err(|_| bad())?;
        if d[i] == 0 {
            return Err(bad());
        }
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_contract() {
        let v = |s: &str| s.parse::<ArgSpec>().unwrap();
        assert_eq!(
            v("u32:0x10"),
            ArgSpec::Value {
                kind: ValueKind::U32,
                bits: 16
            }
        );
        assert_eq!(
            v("i32:-1"),
            ArgSpec::Value {
                kind: ValueKind::I32,
                bits: 0xffff_ffff
            }
        );
        assert_eq!(
            v("i64:-0x8000000000000000"),
            ArgSpec::Value {
                kind: ValueKind::I64,
                bits: 1 << 63
            }
        );
        assert_eq!(
            v("f32:1.5"),
            ArgSpec::Value {
                kind: ValueKind::F32,
                bits: 0x3fc0_0000
            }
        );
        assert_eq!(
            v("f64:-2"),
            ArgSpec::Value {
                kind: ValueKind::F64,
                bits: 0xc000_0000_0000_0000
            }
        );
        assert_eq!(v("zero:4096"), ArgSpec::Zero(4096));
        assert_eq!(v("buf:a:b.bin"), ArgSpec::File("a:b.bin".into()));
        assert_eq!(v("local:0x100"), ArgSpec::Local(256));
        assert_eq!(v("struct:s.bin"), ArgSpec::Struct("s.bin".into()));
    }

    #[test]
    fn bad_specs_are_rejected() {
        for s in [
            "u32:-1",
            "u32:4294967296",
            "i32:2147483648",
            "zero:x",
            "buf:",
            "q:1",
            "nocolon",
            "f32:abc",
            "local:",
            "local:-4",
            "struct:",
        ] {
            assert!(s.parse::<ArgSpec>().is_err(), "{s} accepted");
        }
    }

    #[test]
    fn dims_default_to_one() {
        assert_eq!(parse_dims("64").unwrap(), [64, 1, 1]);
        assert_eq!(parse_dims("8,4").unwrap(), [8, 4, 1]);
        assert!(parse_dims("0").is_err());
        assert!(parse_dims("1,2,3,4").is_err());
        assert!(parse_dims("").is_err());
    }

    #[test]
    fn save_specs() {
        assert_eq!(
            "2:out.bin".parse::<SaveSpec>().unwrap(),
            SaveSpec {
                arg: 2,
                path: "out.bin".into()
            }
        );
        assert!("x:out".parse::<SaveSpec>().is_err());
        assert!("1:".parse::<SaveSpec>().is_err());
    }
}
