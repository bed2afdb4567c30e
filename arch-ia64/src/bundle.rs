//! The 128-bit bundle: template, three 41-bit slots, and the template table
//! (SDM vol. 3, ch. 3.3, Table 3-10; `reference/ia64-encoding.md` section 1).

use std::fmt;

/// Mask of one 41-bit instruction slot.
pub const SLOT_MASK: u64 = (1 << 41) - 1;

/// The execution-unit type of one template slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotUnit {
    /// Memory unit (also runs A-type instructions).
    M,
    /// Integer unit (also runs A-type instructions).
    I,
    /// Floating-point unit.
    F,
    /// Branch unit.
    B,
    /// The long-immediate half (slot 1) of an MLX bundle.
    L,
    /// The instruction half (slot 2) of an MLX bundle.
    X,
}

impl SlotUnit {
    /// The letter objdump uses in a template marker such as `[MLX]`.
    pub fn letter(self) -> char {
        match self {
            SlotUnit::M => 'M',
            SlotUnit::I => 'I',
            SlotUnit::F => 'F',
            SlotUnit::B => 'B',
            SlotUnit::L => 'L',
            SlotUnit::X => 'X',
        }
    }
}

/// A bundle template: the five template bits, i.e. the unit of each slot and where
/// the instruction-group stops fall. Bit 0 is "stop after slot 2".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Template(u8);

/// Units and the mid-bundle stop position of each template pair (even code / odd code).
/// `None` marks reserved encodings (0x06/07, 0x14/15, 0x1A/1B, 0x1E/1F).
const TEMPLATES: [Option<([SlotUnit; 3], Option<usize>)>; 16] = {
    use SlotUnit::*;
    [
        Some(([M, I, I], None)),    // 0x00 MII
        Some(([M, I, I], Some(1))), // 0x02 MI;;I
        Some(([M, L, X], None)),    // 0x04 MLX
        None,                       // 0x06
        Some(([M, M, I], None)),    // 0x08 MMI
        Some(([M, M, I], Some(0))), // 0x0A M;;MI
        Some(([M, F, I], None)),    // 0x0C MFI
        Some(([M, M, F], None)),    // 0x0E MMF
        Some(([M, I, B], None)),    // 0x10 MIB
        Some(([M, B, B], None)),    // 0x12 MBB
        None,                       // 0x14
        Some(([B, B, B], None)),    // 0x16 BBB
        Some(([M, M, B], None)),    // 0x18 MMB
        None,                       // 0x1A
        Some(([M, F, B], None)),    // 0x1C MFB
        None,                       // 0x1E
    ]
};

impl Template {
    /// MII, no stops.
    pub const MII: Template = Template(0x00);
    /// MI;;I, no end stop.
    pub const MI_I: Template = Template(0x02);
    /// MLX, no stops.
    pub const MLX: Template = Template(0x04);
    /// MMI, no stops.
    pub const MMI: Template = Template(0x08);
    /// M;;MI, no end stop.
    pub const M_MI: Template = Template(0x0A);
    /// MFI, no stops.
    pub const MFI: Template = Template(0x0C);
    /// MMF, no stops.
    pub const MMF: Template = Template(0x0E);
    /// MIB, no stops.
    pub const MIB: Template = Template(0x10);
    /// MBB, no stops.
    pub const MBB: Template = Template(0x12);
    /// BBB, no stops.
    pub const BBB: Template = Template(0x16);
    /// MMB, no stops.
    pub const MMB: Template = Template(0x18);
    /// MFB, no stops.
    pub const MFB: Template = Template(0x1C);

    /// Every valid template code, in numeric order (24 of them).
    pub fn all() -> impl Iterator<Item = Template> {
        (0u8..32).filter_map(Template::from_code)
    }

    /// The template with this 5-bit code, or `None` for a reserved or out-of-range code.
    pub fn from_code(code: u8) -> Option<Template> {
        match TEMPLATES.get(usize::from(code >> 1)) {
            Some(Some(_)) if code < 32 => Some(Template(code)),
            _ => None,
        }
    }

    /// The 5-bit template code.
    pub fn code(self) -> u8 {
        self.0
    }

    fn row(self) -> ([SlotUnit; 3], Option<usize>) {
        // Construction only admits valid codes, so the row exists.
        TEMPLATES[usize::from(self.0 >> 1)].unwrap_or(([SlotUnit::M, SlotUnit::I, SlotUnit::I], None))
    }

    /// The unit of each of the three slots.
    pub fn units(self) -> [SlotUnit; 3] {
        self.row().0
    }

    /// Whether an instruction-group stop follows slot `slot` (0, 1 or 2).
    pub fn stop_after(self, slot: usize) -> bool {
        match slot {
            2 => self.0 & 1 == 1,
            s => self.row().1 == Some(s),
        }
    }

    /// The same units with the stop after slot 2 set or cleared.
    pub fn with_end_stop(self, stop: bool) -> Template {
        Template((self.0 & !1) | u8::from(stop))
    }

    /// The name objdump prints between brackets, e.g. `MII` (stops are not part of it).
    pub fn name(self) -> String {
        self.units().iter().map(|u| u.letter()).collect()
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units = self.units();
        for (slot, unit) in units.iter().enumerate() {
            write!(f, "{}", unit.letter())?;
            if self.stop_after(slot) {
                f.write_str(";;")?;
            }
        }
        Ok(())
    }
}

/// One raw bundle: a template and three 41-bit slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bundle {
    /// The template (units and stops).
    pub template: Template,
    /// The three slots, low 41 bits each, slot 0 first.
    pub slots: [u64; 3],
}

impl Bundle {
    /// Splits 16 little-endian bytes into template and slots; `None` for a reserved template.
    pub fn from_bytes(bytes: [u8; 16]) -> Option<Bundle> {
        let v = u128::from_le_bytes(bytes);
        let template = Template::from_code((v & 31) as u8)?;
        Some(Bundle { template, slots: slots_of(v) })
    }

    /// The 16 little-endian bytes of this bundle.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut v = u128::from(self.template.code());
        for (i, s) in self.slots.iter().enumerate() {
            v |= u128::from(s & SLOT_MASK) << (5 + 41 * i);
        }
        v.to_le_bytes()
    }
}

/// The three slots of a 128-bit bundle value, whatever its template.
pub fn slots_of(v: u128) -> [u64; 3] {
    let m = u128::from(SLOT_MASK);
    [((v >> 5) & m) as u64, ((v >> 46) & m) as u64, ((v >> 87) & m) as u64]
}
