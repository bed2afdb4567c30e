//! What a link tells a relocation set ([`crate::elf::Relocations`]) and asks of it: the values
//! only a link knows, the GOT slot kinds, the relaxations and where gp may go. Both the
//! relocation rules (`elf`) and the linker (`link`) use these, so they live below both.

/// What [`Relocations::choose_gp`](crate::elf::Relocations::choose_gp) sees of a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpLayout {
    /// Output sections: name, start, size, flags (`sh_flags` of the first input section).
    pub sections: Vec<(String, u64, u64, u64)>,
    /// The linkage table's start, if there is one.
    pub got: Option<u64>,
    /// `__gp` when an object defines it.
    pub defined: Option<u64>,
    /// Targets of relaxed or in-range gp-relative references (ld's `min_short_sec` range).
    pub points: Vec<u64>,
}

/// Values only a link knows, handed to [`Relocations::apply_linked`](crate::elf::Relocations::apply_linked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinkValues {
    /// The global pointer.
    pub gp: Option<u64>,
    /// Address of the function descriptor of S + A, when the type asked for one.
    pub descriptor: Option<u64>,
    /// Base of the segment (the link base).
    pub segment_base: u64,
    /// Start of the output section holding the symbol (None: absolute or undefined).
    pub section_base: Option<u64>,
    /// Start of the TLS segment, if any.
    pub tls_base: Option<u64>,
    /// Alignment of the TLS segment.
    pub tls_align: u64,
}

/// How a link may relax a relocation whose target lies within reach of the global pointer
/// (±2 MiB), as ld does for IA-64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relaxation {
    /// Never relaxed.
    None,
    /// A gp-relative reference: its target joins the short-data range gp must cover.
    ShortReference,
    /// Becomes this gp-relative type (LTOFF22X -> GPREL22); its target joins the range.
    ToGpRelative(u32),
    /// The load it marks is rewritten ([`Relocations::relax_load`](crate::elf::Relocations::relax_load); LDXMOV).
    Load,
}

/// What a GOT slot holds for a symbol value V (S, or S + A).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GotContent {
    /// V itself.
    Address,
    /// The address of V's function descriptor.
    Descriptor,
    /// V's offset from the thread pointer ([`Relocations::tls_got_value`](crate::elf::Relocations::tls_got_value)).
    TpRel,
    /// V's module id.
    DtpMod,
    /// V's offset in its module's TLS block.
    DtpRel,
}
