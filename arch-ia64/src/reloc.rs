//! IA-64 relocation rules for [`emu_core::elf`] and [`emu_core::link`]: the values of the
//! psABI's relocation expressions and their installation into instruction slots or data
//! words (`/work/shared/reference/ia64-elf.md` section 2; the field layouts are the
//! instruction formats of `ia64-encoding.md`).
//!
//! Conventions (as GNU ld 2.40 applies them, read in BFD's `elfNN_ia64_relocate_section`):
//! an instruction relocation's offset is bundle + slot, and the slot bits of P are cleared for
//! the pc-relative instruction types; an MLX relocation (IMM64, the `*64I` types, PCREL60B)
//! names slot 1 and patches slot 2 with the L slot. LDXMOV is a no-op: no relaxation is done,
//! so the `ld8` keeps loading the address from the linkage-table slot LTOFF22X made. An
//! @fptr value is the address of the descriptor of S + A. SEGREL is relative to the link
//! base (one segment), 0 for a value below it as BFD does. TPREL is relative to the TLS
//! segment start minus 16 rounded up to its alignment (variant I, a 16-byte TCB);
//! DTPREL to the TLS segment start; DTPMOD64 is module 1 (the one executable).

use emu_core::elf::{patch, ElfError, Reloc, RelocCtx, Relocations};
use emu_core::link::{GotContent, GpLayout, LinkValues, Relaxation, SHF_SHORT};
use emu_core::memory::Endian;

/// `e_machine` of IA-64.
pub const EM_IA_64: u16 = 50;

/// The bundle ld fills gaps in code with.
const CODE_FILL: [u8; 16] =
    [0x00, 0x30, 0x00, 0x00, 0x01, 0x00, 0x70, 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00, 0x04, 0x00];

/// The IA-64 rules (little-endian objects, as Linux makes them).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ia64Relocations;

/// Where a value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    /// A4 `adds` imm14.
    Imm14,
    /// A5 `addl` imm22.
    Imm22,
    /// X2 `movl` imm64 (slot 2 + L slot).
    Imm64,
    /// B-unit imm20b + s: a 21-bit bundle displacement.
    Tgt21B,
    /// M20/M21/I20 imm7a + imm13c + s.
    Tgt21M,
    /// M22/M23/F14 imm20a + s.
    Tgt21F,
    /// X3/X4 imm20b + L slot + i: a 60-bit displacement.
    Tgt60B,
    /// A 32-bit data word.
    Data32(Endian),
    /// A 64-bit data word.
    Data64(Endian),
    /// Nothing to write (LDXMOV).
    None,
}

/// What a relocation computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expr {
    /// S + A.
    Direct,
    /// S + A - GP.
    GpRel,
    /// Linkage-table slot of S + A, minus GP.
    LtOff,
    /// Descriptor of S + A.
    Fptr,
    /// Linkage-table slot holding the descriptor of S + A, minus GP.
    LtOffFptr,
    /// The function's official descriptor, minus GP (`@pltoff`). ld places that descriptor
    /// in `.IA_64.pltoff`; this link uses the function's one descriptor (the one `@fptr`
    /// names), so the value differs from ld's while the call through it is the same.
    PltOff,
    /// Linkage-table slot holding a TLS value of S + A (tprel, dtpmod, dtprel), minus GP.
    LtOffTls(GotContent),
    /// S + A - P (instruction: P with the slot bits cleared).
    PcRel,
    /// S + A - segment base.
    SegRel,
    /// S + A - output section start.
    SecRel,
    /// S + A - thread pointer.
    TpRel,
    /// S + A - TLS segment start.
    DtpRel,
    /// The module id: 1.
    DtpMod,
    /// Nothing.
    None,
}

fn le(big: bool) -> Endian {
    if big {
        Endian::Big
    } else {
        Endian::Little
    }
}

/// The expression and field of `r_type`, for the types a static link applies.
fn kind(r_type: u32) -> Option<(Expr, Field)> {
    use Expr as E;
    use Field as F;
    let data = |t: u32, e: Expr| -> (Expr, Field) {
        // The low 3 bits: 4/5 = 32 MSB/LSB, 6/7 = 64 MSB/LSB.
        let big = t & 1 == 0;
        if t & 2 == 0 {
            (e, F::Data32(le(big)))
        } else {
            (e, F::Data64(le(big)))
        }
    };
    Some(match r_type {
        0x21 => (E::Direct, F::Imm14),
        0x22 => (E::Direct, F::Imm22),
        0x23 => (E::Direct, F::Imm64),
        0x24..=0x27 => data(r_type, E::Direct),
        0x2a => (E::GpRel, F::Imm22),
        0x2b => (E::GpRel, F::Imm64),
        0x2c..=0x2f => data(r_type, E::GpRel),
        0x32 | 0x86 => (E::LtOff, F::Imm22),
        0x33 => (E::LtOff, F::Imm64),
        0x87 => (E::None, F::None),
        0x3a => (E::PltOff, F::Imm22),
        0x3b => (E::PltOff, F::Imm64),
        0x3e => (E::PltOff, F::Data64(Endian::Big)),
        0x3f => (E::PltOff, F::Data64(Endian::Little)),
        0x43 => (E::Fptr, F::Imm64),
        0x44..=0x47 => data(r_type, E::Fptr),
        0x48 => (E::PcRel, F::Tgt60B),
        0x49 | 0x79 => (E::PcRel, F::Tgt21B),
        0x4a => (E::PcRel, F::Tgt21M),
        0x4b => (E::PcRel, F::Tgt21F),
        0x4c..=0x4f => data(r_type, E::PcRel),
        0x52 => (E::LtOffFptr, F::Imm22),
        0x53 => (E::LtOffFptr, F::Imm64),
        0x54..=0x57 => data(r_type, E::LtOffFptr),
        0x5c..=0x5f => data(r_type, E::SegRel),
        0x64..=0x67 => data(r_type, E::SecRel),
        0x74..=0x77 => data(r_type, E::Direct),
        0x7a => (E::PcRel, F::Imm22),
        0x7b => (E::PcRel, F::Imm64),
        0x91 => (E::TpRel, F::Imm14),
        0x92 => (E::TpRel, F::Imm22),
        0x93 => (E::TpRel, F::Imm64),
        0x96 => (E::TpRel, F::Data64(Endian::Big)),
        0x97 => (E::TpRel, F::Data64(Endian::Little)),
        0x9a => (E::LtOffTls(GotContent::TpRel), F::Imm22),
        0xaa => (E::LtOffTls(GotContent::DtpMod), F::Imm22),
        0xba => (E::LtOffTls(GotContent::DtpRel), F::Imm22),
        0xa6 => (E::DtpMod, F::Data64(Endian::Big)),
        0xa7 => (E::DtpMod, F::Data64(Endian::Little)),
        0xb1 => (E::DtpRel, F::Imm14),
        0xb2 => (E::DtpRel, F::Imm22),
        0xb3 => (E::DtpRel, F::Imm64),
        0xb4..=0xb7 => data(r_type, E::DtpRel),
        _ => return None,
    })
}

impl Relocations for Ia64Relocations {
    fn machine(&self) -> u16 {
        EM_IA_64
    }

    fn endian(&self) -> Endian {
        Endian::Little
    }

    fn name(&self, r_type: u32) -> Option<&'static str> {
        crate::elf::reloc_name(r_type)
    }

    fn needs_got(&self, r_type: u32) -> bool {
        matches!(kind(r_type), Some((Expr::LtOff | Expr::LtOffFptr | Expr::LtOffTls(_), _)))
    }

    fn got_content(&self, r_type: u32) -> GotContent {
        match kind(r_type) {
            Some((Expr::LtOffFptr, _)) => GotContent::Descriptor,
            Some((Expr::LtOffTls(c), _)) => c,
            _ => GotContent::Address,
        }
    }

    fn tls_got_value(&self, content: GotContent, value: u64, link: &LinkValues) -> Result<u64, String> {
        let base = || link.tls_base.ok_or_else(|| "the link has no TLS section".to_string());
        match content {
            GotContent::TpRel => Ok(value.wrapping_sub(base()?.wrapping_sub(tcb_size(link.tls_align)))),
            GotContent::DtpRel => Ok(value.wrapping_sub(base()?)),
            GotContent::DtpMod => Ok(1),
            GotContent::Address | GotContent::Descriptor => Ok(value),
        }
    }

    fn got_holds_descriptor(&self, r_type: u32) -> bool {
        matches!(kind(r_type), Some((Expr::LtOffFptr, _)))
    }

    fn needs_descriptor(&self, r_type: u32) -> bool {
        matches!(kind(r_type), Some((Expr::Fptr | Expr::LtOffFptr | Expr::PltOff, _)))
    }

    fn got_slot_includes_addend(&self) -> bool {
        true
    }

    fn descriptor(&self, entry: u64, gp: u64) -> Option<Vec<u8>> {
        let mut d = entry.to_le_bytes().to_vec();
        d.extend(gp.to_le_bytes());
        Some(d)
    }

    fn stub_size(&self) -> u64 {
        16
    }

    fn choose_gp(&self, layout: &GpLayout) -> Result<Option<u64>, String> {
        choose_gp(layout).map(Some)
    }

    fn small_common_limit(&self) -> u64 {
        // ld's IA-64 default `-G 8`: smaller COMMONs go to `.scommon` within gp's reach.
        8
    }

    fn code_fill(&self, name: &str) -> Option<Vec<u8>> {
        // ld's default script fills `.init`, `.text` and `.fini` with
        // `=0x00300000010070000002000001000400`, the bundle `[MII] nop.m 0x6; nop.i 0x7;
        // nop.i 0x8`; other (orphan) code sections get zeros.
        matches!(name, ".text" | ".init" | ".fini").then(|| CODE_FILL.to_vec())
    }

    fn finish_section(&self, name: &str, data: &mut Vec<u8>) {
        // ld sorts the linked unwind table's 24-byte entries by their start address (BFD
        // `elfNN_ia64_final_link`), which the unwinder's binary search needs.
        if name == ".IA_64.unwind" && data.len().is_multiple_of(24) {
            let mut entries: Vec<[u8; 24]> =
                data.chunks_exact(24).filter_map(|c| <[u8; 24]>::try_from(c).ok()).collect();
            entries.sort_by_key(|e| u64::from_le_bytes([e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]]));
            *data = entries.concat();
        }
    }

    fn relaxation(&self, r_type: u32) -> Relaxation {
        match r_type {
            0x2a => Relaxation::ShortReference,
            0x86 => Relaxation::ToGpRelative(0x2a),
            0x87 => Relaxation::Load,
            _ => Relaxation::None,
        }
    }

    fn relax_load(&self, image_bytes: &mut [u8], offset: u64, ctx: &RelocCtx) -> Result<(), ElfError> {
        relax_ldxmov(image_bytes, offset, ctx)
    }

    fn apply(&self, r: &Reloc, image_bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError> {
        self.apply_linked(r, &LinkValues::default(), image_bytes, ctx)
    }

    fn apply_linked(
        &self,
        r: &Reloc,
        link: &LinkValues,
        image_bytes: &mut [u8],
        ctx: &RelocCtx,
    ) -> Result<(), ElfError> {
        let unsupported = || ElfError::UnsupportedRelocation {
            type_name: ctx.type_name.clone(),
            symbol: ctx.symbol.clone(),
            section: ctx.section.clone(),
            offset: r.offset,
        };
        let (expr, field) = kind(r.r_type).ok_or_else(unsupported)?;
        let missing = |what: &str| ElfError::UnsupportedRelocation {
            type_name: format!("{} (needs {what}, which this load has not)", ctx.type_name),
            symbol: ctx.symbol.clone(),
            section: ctx.section.clone(),
            offset: r.offset,
        };
        let s_a = r.symbol.wrapping_add(r.addend as u64);
        let gp = || link.gp.ok_or_else(|| missing("a global pointer"));
        let value = match expr {
            Expr::None => return Ok(()),
            Expr::Direct => s_a,
            Expr::GpRel => s_a.wrapping_sub(gp()?),
            Expr::LtOff | Expr::LtOffFptr | Expr::LtOffTls(_) => {
                r.got.ok_or_else(|| missing("a linkage-table slot"))?.wrapping_sub(gp()?)
            }
            Expr::Fptr => link.descriptor.ok_or_else(|| missing("a function descriptor"))?,
            Expr::PltOff => link.descriptor.ok_or_else(|| missing("a function descriptor"))?.wrapping_sub(gp()?),
            Expr::PcRel => {
                let p = if matches!(field, Field::Data32(_) | Field::Data64(_)) { r.place } else { r.place & !3 };
                s_a.wrapping_sub(p)
            }
            Expr::SegRel => s_a.saturating_sub(link.segment_base),
            Expr::SecRel => s_a.wrapping_sub(link.section_base.unwrap_or(0)),
            Expr::TpRel => {
                let base = link.tls_base.ok_or_else(|| missing("a TLS section"))?;
                s_a.wrapping_sub(base.wrapping_sub(tcb_size(link.tls_align)))
            }
            Expr::DtpRel => s_a.wrapping_sub(link.tls_base.ok_or_else(|| missing("a TLS section"))?),
            Expr::DtpMod => 1,
        };
        install(field, value, r.offset, image_bytes, ctx)
    }
}

/// `ld`'s choice of `__gp` for a link without relaxation (BFD `elfNN_ia64_choose_gp`,
/// facts in the module documentation of [`emu_core::link`] and reference section 3.2):
/// a defined `__gp` wins; else the start of `.got`; else the start of the lowest short
/// section; else the image start when the image spans under 2 MiB, else its end - 2 MiB + 8.
/// Then: if the image spans under 4 MiB but the choice leaves part of it out of reach
/// (2 MiB or more above, more than 2 MiB below), gp = start + 2 MiB; otherwise, when short data
/// ends 2 MiB or more above gp, gp = short start + 2 MiB, and gp past the image end becomes
/// end - 2 MiB + 8. The short sections must then lie in reach.
///
/// # Errors
/// The short data spans 4 MiB or more, or is not covered.
pub fn choose_gp(layout: &GpLayout) -> Result<u64, String> {
    const HALF: u64 = 0x20_0000;
    let mut min_vma = u64::MAX;
    let mut max_vma = 0u64;
    let mut min_short = u64::MAX;
    let mut max_short = 0u64;
    for (_, start, size, flags) in &layout.sections {
        let hi = start.checked_add(*size).unwrap_or(u64::MAX);
        min_vma = min_vma.min(*start);
        max_vma = max_vma.max(hi);
        if flags & SHF_SHORT != 0 {
            min_short = min_short.min(*start);
            max_short = max_short.max(hi);
        }
    }
    if min_vma == u64::MAX {
        min_vma = 0;
    }
    // Relaxed and in-range gp-relative targets widen the short range (ld's min_short_sec).
    for p in &layout.points {
        min_short = min_short.min(*p);
        max_short = max_short.max(*p);
    }
    let gp = if let Some(g) = layout.defined {
        g
    } else {
        let mut gp = if !layout.points.is_empty() {
            let range = max_short - min_short;
            if range >= 2 * HALF {
                return Err(format!("short data segment overflowed ({range:#x} >= 0x400000)"));
            }
            min_short + range / 2
        } else if let Some(got) = layout.got {
            got
        } else if max_short != 0 {
            min_short
        } else if max_vma - min_vma < HALF {
            min_vma
        } else {
            max_vma - HALF + 8
        };
        if max_vma - min_vma < 2 * HALF && (max_vma.wrapping_sub(gp) >= HALF || gp.wrapping_sub(min_vma) > HALF) {
            gp = min_vma + HALF;
        } else if max_short != 0 {
            if max_short.wrapping_sub(gp) >= HALF {
                gp = min_short + HALF;
            }
            if gp > max_vma {
                gp = max_vma - HALF + 8;
            }
        }
        gp
    };
    if max_short != 0 {
        if max_short - min_short >= 2 * HALF {
            return Err(format!("short data segment overflowed ({:#x} >= 0x400000)", max_short - min_short));
        }
        if (gp > min_short && gp - min_short > HALF) || (gp < max_short && max_short - gp >= HALF) {
            return Err(format!("__gp ({gp:#x}) does not cover the short data segment {min_short:#x}..{max_short:#x}"));
        }
    }
    Ok(gp)
}

/// ld's LDXMOV relaxation: the `ld8 r1 = [r3]` at `offset` (bundle + slot) becomes
/// `(qp) mov r1 = r3` (A4 `adds r1 = 0, r3`), or `nop.m 0` when r1 = r3.
fn relax_ldxmov(bytes: &mut [u8], offset: u64, ctx: &RelocCtx) -> Result<(), ElfError> {
    let (word, mut bundle, slot) = bundle_at(bytes, offset, ctx)?;
    let shift = 5 + 41 * slot;
    let mask = ((1u128 << 41) - 1) << shift;
    let insn = ((bundle & mask) >> shift) as u64;
    let (r1, r3) = ((insn >> 6) & 0x7F, (insn >> 20) & 0x7F);
    let new = if r1 == r3 { 0x800_0000 } else { (insn & 0x7F0_1FFF) | 0x108_0000_0000 };
    bundle = (bundle & !mask) | (u128::from(new) << shift);
    word.copy_from_slice(&bundle.to_le_bytes());
    Ok(())
}

/// The bundle holding the instruction at `offset` (bundle address + slot): its bytes, its
/// value and the slot; slot 3 or a bundle past the section's end is out of the section.
fn bundle_at<'a>(bytes: &'a mut [u8], offset: u64, ctx: &RelocCtx) -> Result<(&'a mut [u8], u128, u32), ElfError> {
    let out = || ElfError::OutOfSection { type_name: ctx.type_name.clone(), section: ctx.section.clone(), offset };
    let slot = (offset & 3) as u32;
    if slot == 3 {
        return Err(out());
    }
    let start = usize::try_from(offset & !0xF).map_err(|_| out())?;
    let word = bytes.get_mut(start..start.checked_add(16).ok_or_else(out)?).ok_or_else(out)?;
    let mut b = [0u8; 16];
    b.copy_from_slice(word);
    let bundle = u128::from_le_bytes(b);
    Ok((word, bundle, slot))
}

/// The thread control block below the TLS block (variant I): 16 bytes rounded up to the
/// TLS segment's alignment (BFD `elfNN_ia64_tprel_base`).
fn tcb_size(align: u64) -> u64 {
    let align = align.max(1);
    16u64.div_ceil(align) * align
}

/// Whether `v` fits a signed field of `bits` bits.
fn fits_signed(v: u64, bits: u32) -> bool {
    let s = v as i64;
    let half = 1i64 << (bits - 1);
    (-half..half).contains(&s)
}

/// Writes `value` into `field` at `offset` (bundle + slot for instruction fields).
fn install(field: Field, value: u64, offset: u64, bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError> {
    let overflow = || ElfError::Overflow {
        type_name: ctx.type_name.clone(),
        symbol: ctx.symbol.clone(),
        section: ctx.section.clone(),
        offset,
        value: i128::from(value as i64),
    };
    match field {
        Field::None => return Ok(()),
        Field::Data32(endian) => {
            if value >> 32 != 0 && !fits_signed(value, 32) {
                return Err(overflow());
            }
            return patch(bytes, offset, 4, value, endian, ctx);
        }
        Field::Data64(endian) => return patch(bytes, offset, 8, value, endian, ctx),
        _ => {}
    }
    let (word, mut bundle, slot) = bundle_at(bytes, offset, ctx)?;
    // Instruction bit k of slot n is bundle bit 5 + 41n + k.
    let put = |bundle: &mut u128, slot: u32, at: u32, width: u32, bits: u64| {
        let shift = 5 + 41 * slot + at;
        let mask = ((1u128 << width) - 1) << shift;
        *bundle = (*bundle & !mask) | ((u128::from(bits) << shift) & mask);
    };
    let bit = |v: u64, lo: u32, width: u32| (v >> lo) & ((1u64 << width) - 1);
    match field {
        Field::Imm14 => {
            if !fits_signed(value, 14) {
                return Err(overflow());
            }
            put(&mut bundle, slot, 13, 7, bit(value, 0, 7));
            put(&mut bundle, slot, 27, 6, bit(value, 7, 6));
            put(&mut bundle, slot, 36, 1, bit(value, 13, 1));
        }
        Field::Imm22 => {
            if !fits_signed(value, 22) {
                return Err(overflow());
            }
            put(&mut bundle, slot, 13, 7, bit(value, 0, 7));
            put(&mut bundle, slot, 27, 9, bit(value, 7, 9));
            put(&mut bundle, slot, 22, 5, bit(value, 16, 5));
            put(&mut bundle, slot, 36, 1, bit(value, 21, 1));
        }
        Field::Imm64 => {
            put(&mut bundle, 2, 13, 7, bit(value, 0, 7));
            put(&mut bundle, 2, 27, 9, bit(value, 7, 9));
            put(&mut bundle, 2, 22, 5, bit(value, 16, 5));
            put(&mut bundle, 2, 21, 1, bit(value, 21, 1));
            put(&mut bundle, 2, 36, 1, bit(value, 63, 1));
            put(&mut bundle, 1, 0, 41, bit(value, 22, 41));
        }
        Field::Tgt21B | Field::Tgt21M | Field::Tgt21F => {
            if value & 0xF != 0 || !fits_signed(value, 25) {
                return Err(overflow());
            }
            let d = value >> 4;
            match field {
                Field::Tgt21B => put(&mut bundle, slot, 13, 20, bit(d, 0, 20)),
                Field::Tgt21M => {
                    put(&mut bundle, slot, 6, 7, bit(d, 0, 7));
                    put(&mut bundle, slot, 20, 13, bit(d, 7, 13));
                }
                _ => put(&mut bundle, slot, 6, 20, bit(d, 0, 20)),
            }
            put(&mut bundle, slot, 36, 1, bit(d, 20, 1));
        }
        Field::Tgt60B => {
            if value & 0xF != 0 {
                return Err(overflow());
            }
            let d = value >> 4;
            put(&mut bundle, 2, 13, 20, bit(d, 0, 20));
            put(&mut bundle, 1, 2, 39, bit(d, 20, 39));
            put(&mut bundle, 2, 36, 1, bit(d, 59, 1));
        }
        Field::Data32(_) | Field::Data64(_) | Field::None => {}
    }
    word.copy_from_slice(&bundle.to_le_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(sections: &[(&str, u64, u64, bool)], got: Option<u64>, points: &[u64]) -> GpLayout {
        GpLayout {
            sections: sections
                .iter()
                .map(|(n, a, s, short)| ((*n).to_string(), *a, *s, if *short { SHF_SHORT } else { 0 }))
                .collect(),
            got,
            defined: None,
            points: points.to_vec(),
        }
    }

    #[test]
    fn gp_follows_lds_rule() {
        const MB: u64 = 0x10_0000;
        // A small image without short data: its start.
        assert_eq!(choose_gp(&layout(&[(".text", 0x1000, 0x100, false)], None, &[])), Ok(0x1000));
        // The .got start, when the image is small enough to reach from it.
        let l = layout(&[(".text", 0, 0x100, false), (".got", 0x200, 0x10, true)], Some(0x200), &[]);
        assert_eq!(choose_gp(&l), Ok(0x200));
        // An image of 3 MiB whose .got is at its end: start + 2 MiB covers it all.
        let l = layout(&[(".text", 0, 3 * MB, false), (".got", 3 * MB, 0x10, true)], Some(3 * MB), &[]);
        assert_eq!(choose_gp(&l), Ok(2 * MB));
        // A big image without short data: end - 2 MiB + 8.
        assert_eq!(choose_gp(&layout(&[(".text", 0, 8 * MB, false)], None, &[])), Ok(6 * MB + 8));
        // Relaxed targets: the middle of short data and targets.
        let l = layout(&[(".text", 0, 8 * MB, false), (".sdata", 7 * MB, 0x100, true)], None, &[6 * MB]);
        assert_eq!(choose_gp(&l), Ok(6 * MB + (MB + 0x100) / 2));
        // Short data spanning 4 MiB cannot be covered.
        let l = layout(&[(".sdata", 0, 5 * MB, true)], None, &[]);
        assert!(choose_gp(&l).is_err_and(|e| e.contains("short data segment overflowed")));
    }

    fn ctx() -> RelocCtx {
        RelocCtx { section: ".text".into(), symbol: "f".into(), type_name: "R_IA64_PCREL21B".into() }
    }

    #[test]
    fn fields_reject_what_does_not_fit() {
        let mut bundle = [0u8; 16];
        assert!(install(Field::Imm14, 0x2000, 0, &mut bundle, &ctx()).is_err());
        assert!(install(Field::Imm14, (-0x2000i64) as u64, 0, &mut bundle, &ctx()).is_ok());
        assert!(install(Field::Imm22, 0x20_0000, 1, &mut bundle, &ctx()).is_err());
        assert!(install(Field::Tgt21B, 0x100_0000, 2, &mut bundle, &ctx()).is_err());
        assert!(install(Field::Tgt21B, 0x8, 2, &mut bundle, &ctx()).is_err(), "not a bundle address");
        assert!(install(Field::Imm14, 0, 3, &mut bundle, &ctx()).is_err(), "slot 3");
        assert!(install(Field::Imm14, 0, 0x10, &mut bundle, &ctx()).is_err(), "past the section");
        assert!(install(Field::Data32(Endian::Little), 0x1_0000_0000, 0, &mut bundle, &ctx()).is_err());
    }
}
