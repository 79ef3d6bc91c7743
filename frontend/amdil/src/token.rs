//! The 32-bit tokens of an IL binary stream (seed 001 Chapter 2, L410-L833): their fields, and
//! the register types' text names (Chapter 5, Table 5.8 L1292-L1361).
//!
//! Every `from_token` rejects a token whose reserved bits are set or whose enumerated fields
//! hold a value past their enumeration, so that a decoded token packs back to the same word:
//! `T::from_token(w)?.token() == w`.
//!
//! Layouts (il_map.md §2): IL_Lang client_type 7:0; IL_Version minor 7:0, major 15:8, shader
//! type 23:16, multipass 24, realtime 25; IL_Opcode code 15:0, control 31:16 (bits 30 and 31 of
//! most opcodes say the secondary/primary modifier dwords follow); IL_Dst/IL_Src register_num
//! 15:0, register_type 21:16, modifier_present 22, relative_address 24:23, dimension 25,
//! immediate_present 26, extended 31; IL_Dst_Mod four 2-bit components 7:0, clamp 8,
//! shift_scale 12:9; IL_Src_Mod four 3-bit selects each with a negate bit 15:0, invert 16,
//! bias 17, x2 18, sign 19, abs 20, divComp 23:21, clamp 24.

/// Bits `lo..lo+width` of `word`.
pub fn bits(word: u32, lo: u32, width: u32) -> u32 {
    (word >> lo) & ((1u64 << width) - 1) as u32
}

/// The IL_Lang token: the client language (`enums::LANG`).
pub fn lang_from_token(word: u32) -> Result<u8, &'static str> {
    if word >> 8 != 0 {
        return Err("IL_Lang reserved bits 31:8 set");
    }
    let lang = word as u8;
    if usize::from(lang) >= crate::table::enums::LANG.len() {
        return Err("IL_Lang client type past IL_LANG_DX11_DS");
    }
    Ok(lang)
}

/// The IL_Version token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u8,
    pub minor: u8,
    /// `IL_Shader_Type`: vertex 0, pixel 1, geometry 2, compute 3, hull 4, domain 5.
    pub shader: u8,
    pub multipass: bool,
    pub realtime: bool,
}

impl Version {
    pub const PIXEL: u8 = 1;
    pub const COMPUTE: u8 = 3;

    pub fn from_token(word: u32) -> Result<Version, &'static str> {
        if word >> 26 != 0 {
            return Err("IL_Version reserved bits 31:26 set");
        }
        let shader = bits(word, 16, 8) as u8;
        if usize::from(shader) >= crate::table::enums::SHADER.len() {
            return Err("IL_Version shader type past IL_SHADER_DOMAIN");
        }
        Ok(Version {
            minor: word as u8,
            major: bits(word, 8, 8) as u8,
            shader,
            multipass: bits(word, 24, 1) != 0,
            realtime: bits(word, 25, 1) != 0,
        })
    }

    pub fn token(&self) -> u32 {
        u32::from(self.minor)
            | u32::from(self.major) << 8
            | u32::from(self.shader) << 16
            | u32::from(self.multipass) << 24
            | u32::from(self.realtime) << 25
    }
}

/// The IL_Opcode token: the opcode and the 16 control bits above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpcodeToken {
    pub code: u16,
    pub control: u16,
}

impl OpcodeToken {
    pub fn from_token(word: u32) -> OpcodeToken {
        OpcodeToken {
            code: word as u16,
            control: (word >> 16) as u16,
        }
    }

    pub fn token(&self) -> u32 {
        u32::from(self.code) | u32::from(self.control) << 16
    }
}

/// `ILAddressing` (L14345-L14349; Table 6.1 lists them alphabetically).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addressing {
    Absolute = 0,
    /// Legacy `a0`/`aL` relative addressing through an IL_Rel_Addr token, whose layout the
    /// reference never gives.
    Relative = 1,
    /// Index source tokens follow.
    RegRelative = 2,
}

/// The register token of a destination or a source (the two share one layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegToken {
    pub num: u16,
    pub ty: RegType,
    pub modifier: bool,
    pub addressing: Addressing,
    pub dimension: bool,
    pub immediate: bool,
    /// The next dword holds the high 16 bits of the register number.
    pub extended: bool,
}

impl RegToken {
    pub fn from_token(word: u32) -> Result<RegToken, &'static str> {
        if bits(word, 27, 4) != 0 {
            return Err("register token reserved bits 30:27 set");
        }
        let addressing = match bits(word, 23, 2) {
            0 => Addressing::Absolute,
            1 => Addressing::Relative,
            2 => Addressing::RegRelative,
            _ => return Err("register token addressing mode 3"),
        };
        Ok(RegToken {
            num: word as u16,
            ty: RegType::new(bits(word, 16, 6) as u8)
                .ok_or("register type 63 (IL_REGTYPE_LAST)")?,
            modifier: bits(word, 22, 1) != 0,
            addressing,
            dimension: bits(word, 25, 1) != 0,
            immediate: bits(word, 26, 1) != 0,
            extended: bits(word, 31, 1) != 0,
        })
    }

    pub fn token(&self) -> u32 {
        u32::from(self.num)
            | u32::from(self.ty.0) << 16
            | u32::from(self.modifier) << 22
            | (self.addressing as u32) << 23
            | u32::from(self.dimension) << 25
            | u32::from(self.immediate) << 26
            | u32::from(self.extended) << 31
    }
}

/// The extended dword after a register token with `extended`: the register number's high 16
/// bits in bits 15:0, bits 31:16 reserved (L507 says "the high 16-bits and 16-bits reserved"
/// without their order; this order is our reading).
pub fn extended_from_token(word: u32) -> Result<u16, &'static str> {
    if word >> 16 != 0 {
        return Err("extended register dword reserved bits 31:16 set");
    }
    if word == 0 {
        return Err("extended register number with a zero high half");
    }
    Ok(word as u16)
}

/// `ILModDstComponent`: what a destination component receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DstComp {
    NoWrite = 0,
    Write = 1,
    Zero = 2,
    One = 3,
}

/// The IL_Dst_Mod token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DstMod {
    pub comp: [DstComp; 4],
    /// Clamp to [0, 1] (`_sat`).
    pub clamp: bool,
    /// `ILShiftScale`: none, x2, x4, x8, d2, d4, d8.
    pub shift: u8,
}

/// `ILShiftScale`'s text, by value (none prints nothing).
pub const SHIFT_NAMES: [&str; 7] = ["", "x2", "x4", "x8", "d2", "d4", "d8"];

impl DstMod {
    pub const IDENTITY: DstMod = DstMod {
        comp: [DstComp::Write; 4],
        clamp: false,
        shift: 0,
    };

    pub fn from_token(word: u32) -> Result<DstMod, &'static str> {
        if word >> 13 != 0 {
            return Err("IL_Dst_Mod reserved bits 31:13 set");
        }
        let shift = bits(word, 9, 4) as u8;
        if usize::from(shift) >= SHIFT_NAMES.len() {
            return Err("IL_Dst_Mod shift_scale past IL_SHIFT_D8");
        }
        let comp = |i: u32| match bits(word, 2 * i, 2) {
            0 => DstComp::NoWrite,
            1 => DstComp::Write,
            2 => DstComp::Zero,
            _ => DstComp::One,
        };
        Ok(DstMod {
            comp: [comp(0), comp(1), comp(2), comp(3)],
            clamp: bits(word, 8, 1) != 0,
            shift,
        })
    }

    pub fn token(&self) -> u32 {
        let comps = (0..4).fold(0, |w, i| w | (self.comp[i] as u32) << (2 * i));
        comps | u32::from(self.clamp) << 8 | u32::from(self.shift) << 9
    }
}

/// `ILComponentSelect`: x, y, z, w, 0.0, 1.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sel {
    X = 0,
    Y = 1,
    Z = 2,
    W = 3,
    Zero = 4,
    One = 5,
}

impl Sel {
    pub const ALL: [Sel; 6] = [Sel::X, Sel::Y, Sel::Z, Sel::W, Sel::Zero, Sel::One];

    pub fn char(self) -> char {
        b"xyzw01"[self as usize] as char
    }
}

/// The IL_Src_Mod token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SrcMod {
    pub swizzle: [Sel; 4],
    /// Negate each component (after the swizzle).
    pub neg: [bool; 4],
    pub invert: bool,
    pub bias: bool,
    pub x2: bool,
    pub sign: bool,
    pub abs: bool,
    /// `ILDivComp`: none, y, z, w, unknown.
    pub divcomp: u8,
    pub clamp: bool,
}

impl SrcMod {
    pub const IDENTITY: SrcMod = SrcMod {
        swizzle: [Sel::X, Sel::Y, Sel::Z, Sel::W],
        neg: [false; 4],
        invert: false,
        bias: false,
        x2: false,
        sign: false,
        abs: false,
        divcomp: 0,
        clamp: false,
    };

    /// The modifier that replicates one component (`r0.x`).
    pub fn replicate(sel: Sel) -> SrcMod {
        SrcMod {
            swizzle: [sel; 4],
            ..SrcMod::IDENTITY
        }
    }

    pub fn from_token(word: u32) -> Result<SrcMod, &'static str> {
        if word >> 25 != 0 {
            return Err("IL_Src_Mod reserved bits 31:25 set");
        }
        let mut swizzle = [Sel::X; 4];
        for (i, s) in swizzle.iter_mut().enumerate() {
            *s = *Sel::ALL
                .get(bits(word, 4 * i as u32, 3) as usize)
                .ok_or("IL_Src_Mod component select past IL_COMPSEL_1")?;
        }
        let divcomp = bits(word, 21, 3) as u8;
        if usize::from(divcomp) >= crate::table::enums::DIVCOMP.len() {
            return Err("IL_Src_Mod divComp past IL_DIVCOMP_UNKNOWN");
        }
        Ok(SrcMod {
            swizzle,
            neg: [0, 1, 2, 3].map(|i| bits(word, 4 * i + 3, 1) != 0),
            invert: bits(word, 16, 1) != 0,
            bias: bits(word, 17, 1) != 0,
            x2: bits(word, 18, 1) != 0,
            sign: bits(word, 19, 1) != 0,
            abs: bits(word, 20, 1) != 0,
            divcomp,
            clamp: bits(word, 24, 1) != 0,
        })
    }

    pub fn token(&self) -> u32 {
        let comps = (0..4).fold(0, |w, i| {
            w | (self.swizzle[i] as u32) << (4 * i) | u32::from(self.neg[i]) << (4 * i + 3)
        });
        comps
            | u32::from(self.invert) << 16
            | u32::from(self.bias) << 17
            | u32::from(self.x2) << 18
            | u32::from(self.sign) << 19
            | u32::from(self.abs) << 20
            | u32::from(self.divcomp) << 21
            | u32::from(self.clamp) << 24
    }
}

/// `ILRegType` (L14031-L14110, with il_map.md §3's repairs: THREAD_GROUP_ID_FLAT once,
/// INPUT_ARG 61); 63 (`IL_REGTYPE_LAST`) is not a register type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegType(u8);

/// How a register type is written.
struct RegName {
    /// As a source (and as a destination unless `dst` is given).
    src: &'static str,
    /// As a destination, for the types Table 5.8 spells differently there (`oT#`, `vT#`).
    dst: Option<&'static str>,
    /// Whether register 0 prints its number (`r0`, but `vAbsTid`).
    numbered: bool,
}

const fn n(src: &'static str) -> RegName {
    RegName {
        src,
        dst: None,
        numbered: true,
    }
}

const fn s(src: &'static str) -> RegName {
    RegName {
        src,
        dst: None,
        numbered: false,
    }
}

const fn io(src: &'static str, dst: &'static str, numbered: bool) -> RegName {
    RegName {
        src,
        dst: Some(dst),
        numbered,
    }
}

/// Table 5.8's syntax by type value. VERTEX (5) is `vVertex#`, our spelling: Table 5.8 gives
/// it `v#`, which is INPUT's (33), and a text form must name one type.
const REG_NAMES: [RegName; 63] = [
    n("b"),
    n("c"),
    n("i"),
    n("a"),
    n("r"),
    n("vVertex"),
    n("vIndex"),
    s("vObjIndex"),
    s("vBaryCoord"),
    s("vPrimIndex"),
    s("vQuadIndex"),
    n("oVtxOut"),
    n("vPixIn"),
    s("oSprite"),
    s("oPos"),
    io("vInterp", "oInterp", true),
    io("vFog", "oFog", false),
    io("vT", "oT", true),
    io("vPriColor", "oPriColor", true),
    io("vSecColor", "oSecColor", true),
    s("vSpriteCoord"),
    s("vFace"),
    s("vWinCoord"),
    s("vPrimCoord"),
    s("vPrimType"),
    n("oC"),
    s("oDepth"),
    s("oStencil"),
    n("oClip"),
    s("vPrim"),
    n("x"),
    n("cb"),
    n("l"),
    n("v"),
    n("o"),
    s("icb"),
    s("oMask"),
    s("p"),
    s("g"),
    n("oPsFog"),
    n("sr"),
    s("vTidInGrp"),
    s("vTidInGrpFlat"),
    s("vAbsTid"),
    s("vAbsTidFlat"),
    s("vThreadGrpId"),
    s("vThreadGrpIdFlat"),
    s("mem"),
    s("vicp"),
    s("vpc"),
    s("vDomain"),
    s("vocp"),
    s("vOutputControlPointId"),
    s("vInstanceID"),
    s("this"),
    s("oEdgeFlag"),
    s("oDepthLE"),
    s("oDepthGE"),
    s("vCoverageMask"),
    s("Tmr"),
    s("vLineStipple"),
    n("in"),
    n("out"),
];

/// Older or alternative spellings the parser also reads (il_map.md §5, il_sources.md §2).
const REG_ALIASES: [(&str, u8); 4] = [
    ("vaTid", 44),
    ("vTid", 42),
    ("vTGroupid", 46),
    ("vThreadGrpIDFlat", 46),
];

impl RegType {
    pub const CONST_BOOL: RegType = RegType(0);
    pub const CONST_FLOAT: RegType = RegType(1);
    pub const CONST_INT: RegType = RegType(2);
    pub const ADDR: RegType = RegType(3);
    pub const TEMP: RegType = RegType(4);
    pub const VERTEX: RegType = RegType(5);
    pub const WINCOORD: RegType = RegType(22);
    pub const ITEMP: RegType = RegType(30);
    pub const CONST_BUFF: RegType = RegType(31);
    pub const LITERAL: RegType = RegType(32);
    pub const INPUT: RegType = RegType(33);
    pub const OUTPUT: RegType = RegType(34);
    pub const IMMED_CONST_BUFF: RegType = RegType(35);
    pub const GLOBAL: RegType = RegType(38);
    pub const THREAD_ID_IN_GROUP: RegType = RegType(41);
    pub const THREAD_ID_IN_GROUP_FLAT: RegType = RegType(42);
    pub const ABSOLUTE_THREAD_ID: RegType = RegType(43);
    pub const ABSOLUTE_THREAD_ID_FLAT: RegType = RegType(44);
    pub const THREAD_GROUP_ID: RegType = RegType(45);
    pub const THREAD_GROUP_ID_FLAT: RegType = RegType(46);
    pub const GENERIC_MEM: RegType = RegType(47);
    pub const INPUT_ARG: RegType = RegType(61);
    pub const OUTPUT_ARG: RegType = RegType(62);
    /// Every register type.
    pub const COUNT: u8 = 63;

    pub fn new(value: u8) -> Option<RegType> {
        (value < Self::COUNT).then_some(RegType(value))
    }

    pub fn value(self) -> u8 {
        self.0
    }

    /// Its text name as a source, or as a destination.
    pub fn name(self, dst: bool) -> &'static str {
        let n = &REG_NAMES[usize::from(self.0)];
        match n.dst {
            Some(d) if dst => d,
            _ => n.src,
        }
    }

    /// Whether register 0 of this type prints its number.
    pub fn numbered(self) -> bool {
        REG_NAMES[usize::from(self.0)].numbered
    }

    /// The type a register name (without its number) names, ignoring case.
    pub fn from_name(name: &str) -> Option<RegType> {
        let names = REG_NAMES.iter().enumerate().flat_map(|(i, n)| {
            std::iter::once((n.src, i as u8)).chain(n.dst.map(|d| (d, i as u8)))
        });
        names
            .chain(REG_ALIASES)
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| RegType(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example_tokens_pack_as_laid_out() {
        // x5[r2.x+6].y (L716-L748): ITEMP 5, modifier, register-relative, immediate.
        let x5 = RegToken {
            num: 5,
            ty: RegType::ITEMP,
            modifier: true,
            addressing: Addressing::RegRelative,
            dimension: false,
            immediate: true,
            extended: false,
        };
        assert_eq!(x5.token(), 0x0540_0000 | 30 << 16 | 5);
        assert_eq!(RegToken::from_token(x5.token()), Ok(x5));
        // .y replicated: every select 1; .x of r2: every select 0.
        assert_eq!(SrcMod::replicate(Sel::Y).token(), 0x1111);
        assert_eq!(SrcMod::replicate(Sel::X).token(), 0);
        // il_cs_2_0 as AMD's compiler writes it (il_sources.md §1: 0x00030200).
        let v = Version::from_token(0x0003_0200).unwrap();
        assert_eq!((v.major, v.minor, v.shader), (2, 0, Version::COMPUTE));
        assert_eq!(v.token(), 0x0003_0200);
    }

    #[test]
    fn tokens_round_trip_or_are_rejected() {
        for w in [
            0u32,
            1,
            0x7fff_ffff,
            0xffff_ffff,
            0x0123_4567,
            0x8765_4321,
            0x1ff_ffff,
        ] {
            for word in [w, w.rotate_left(7), w ^ 0x5555_5555] {
                if let Ok(t) = RegToken::from_token(word) {
                    assert_eq!(t.token(), word);
                }
                if let Ok(t) = DstMod::from_token(word) {
                    assert_eq!(t.token(), word);
                }
                if let Ok(t) = SrcMod::from_token(word) {
                    assert_eq!(t.token(), word);
                }
                if let Ok(t) = Version::from_token(word) {
                    assert_eq!(t.token(), word);
                }
                assert_eq!(OpcodeToken::from_token(word).token(), word);
            }
        }
        assert!(RegToken::from_token(63 << 16).is_err());
        assert!(RegToken::from_token(3 << 23).is_err());
        assert!(SrcMod::from_token(6).is_err());
        assert!(SrcMod::from_token(5 << 21).is_err());
        assert!(DstMod::from_token(7 << 9).is_err());
    }

    #[test]
    fn register_names_are_unique_and_read_back() {
        for v in 0..RegType::COUNT {
            let t = RegType(v);
            for dst in [false, true] {
                assert_eq!(RegType::from_name(t.name(dst)), Some(t), "{}", t.name(dst));
            }
        }
        assert_eq!(
            RegType::from_name("vaTid"),
            Some(RegType::ABSOLUTE_THREAD_ID_FLAT)
        );
        assert_eq!(
            RegType::from_name("vThreadGrpID"),
            Some(RegType::THREAD_GROUP_ID)
        );
        assert_eq!(RegType::from_name("q"), None);
    }
}
