//! Whole-image disassembly in the exact text of `ia64-linux-gnu-objdump -d`.
//!
//! objdump's rules, reproduced here (checked against binutils 2.40):
//! - Every non-empty code section gets `Disassembly of section NAME:`, in image order.
//! - The section is cut into regions at symbol addresses; each region starts with a
//!   header `ADDR <sym>:` naming the preferred symbol at that address (see
//!   [`objdump_order`]). Before the first symbol the header is `<first-0x..>`; a section
//!   without symbols is headed `<.text>`, and branch targets in it print `<.text+0x..>`.
//!   Absolute and undefined symbols never name anything; `.L` labels are not in the
//!   object at all.
//! - Regions of an `STT_OBJECT` symbol are dumped as bytes (16 a line, with ASCII), not
//!   disassembled.
//! - A run of 16 or more zero bytes at an instruction start prints `\t...` and is skipped
//!   (to the region end, or by a multiple of 4 bytes when non-zero bytes follow).
//! - The slot at an address is `(addr & 15) / 6` of the bundle at `addr & !15`; slots
//!   take 6, 6 and 4 bytes, so after a skip that is not a multiple of 16 objdump goes on
//!   off the bundle grid, and so does this module.
//! - The address column is as wide as the section's end address needs, rounded up to
//!   4, 8, 12 or 16 hex digits.
//! - objdump reads a slot's whole bundle but never past the region's end (the next symbol
//!   or the section's end): when the bundle runs past it, the line is
//!   `ADDR:\tAddress 0xBUNDLE is out of bounds.` and a blank line, and the region ends.
//!   A slot line cut by the region's end shows a blank for each byte past it. A zero run
//!   of 1 or 2 bytes that ends a region is skipped (`...`) like a long one.
//!
//! - With `-r` ([`objdump_object`]), each relocation is printed as
//!   `\t\t\tOFFSET: HOWTO\tSYMBOL+0xADDEND` after the first line whose end passes its
//!   offset (see [`crate::object_relocs`]): an instruction relocation (bundle + slot)
//!   always after its bundle's slot-0 line.
//!
//! [`objdump_object`] reads an ELF object as objdump does, each section at its own
//! address (all at 0 in a relocatable object). [`objdump`] shows an [`Image`] as loaded;
//! for an image from [`crate::elf::load`] a relocatable object with several allocated
//! sections is laid out one section after another, so only its first code section's
//! addresses match objdump. A branch target outside the section being disassembled is
//! named only from that section's symbols (objdump does the same in a relocatable object).

use crate::elf::{self, ElfError};
use crate::format::{format_raw_slot, Symbolizer};
use crate::object_relocs::{self, ShownReloc};
use emu_core::image::{Binding, Image, Section, SectionKind, Symbol, SymbolKind};
use std::cell::Cell;
use std::cmp::Ordering;
use std::fmt::Write;

/// objdump skips zero runs at least this long (the IA-64 disassembler's `skip_zeroes`).
const SKIP_ZEROES: usize = 16;

/// A zero run this short that ends a region is skipped too (objdump's `skip_zeroes_at_end`).
const SKIP_ZEROES_AT_END: usize = 3;

/// Bytes objdump shows per slot line.
const SLOT_BYTES: [usize; 3] = [6, 6, 4];

/// The text of `objdump -d FILE` for `image`, loaded from the file called `file_name`.
pub fn objdump(file_name: &str, image: &Image) -> String {
    objdump_with(file_name, image, &[])
}

/// The text of `objdump -d FILE` (`-dr` when `relocs`) for the ELF object `bytes` read
/// from the file called `file_name`: every section at its own address, as objdump shows it.
///
/// # Errors
/// What [`elf::load`] reports, and [`ElfError::CorruptRelocation`] for a relocation
/// `-r` cannot name.
pub fn objdump_object(file_name: &str, bytes: &[u8], relocs: bool) -> Result<String, ElfError> {
    let (image, index_of, parsed) = elf::load_unplaced(bytes)?;
    let lists = if relocs { object_relocs::read(&parsed, &index_of, image.sections.len())? } else { Vec::new() };
    Ok(objdump_with(file_name, &image, &lists))
}

/// [`objdump`] with each section's relocations (indexed like `image.sections`; missing
/// entries have none).
fn objdump_with(file_name: &str, image: &Image, relocs: &[Vec<ShownReloc>]) -> String {
    let mut out = format!("\n{file_name}:     file format elf64-ia64-little\n\n");
    for (idx, sec) in image.sections.iter().enumerate() {
        if sec.kind != SectionKind::Code || sec.data.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\nDisassembly of section {}:", sec.name);
        let mut syms: Vec<&Symbol> =
            image.symbols.iter().filter(|s| s.section == Some(idx) && s.kind != SymbolKind::Absolute).collect();
        syms.sort_by(|a, b| objdump_order(a, b));
        let relocs = relocs.get(idx).map_or(&[][..], Vec::as_slice);
        disassemble_section(&mut out, sec, &SectionSyms { section: sec, syms, any: !image.symbols.is_empty() }, relocs);
    }
    out
}

/// objdump's lines for raw bundle bytes loaded at `base` (a `.bin` file): no headers and
/// no symbols, zero runs skipped as in [`objdump`].
pub fn disassemble_bytes(bytes: &[u8], base: u64) -> String {
    let sec = Section { name: String::new(), addr: base, data: bytes.to_vec(), kind: SectionKind::Code, align: 16 };
    let mut out = String::new();
    let region = Region {
        sec: &sec,
        width: addr_width(&sec),
        syms: &NoNames,
        relocs: &[],
        next_reloc: Cell::new(0),
        bounded: false,
    };
    region.instructions(&mut out, 0, bytes.len());
    out
}

/// The order objdump sorts symbols in (`compare_symbols`): by value; then names that look
/// like compiler markers or file names last; functions, then objects, then globals before
/// locals; larger sizes first; names starting with `.` last; then by name.
pub fn objdump_order(a: &Symbol, b: &Symbol) -> Ordering {
    let marker = |s: &Symbol| s.name.contains("gnu_compiled") || s.name.contains("gcc2_compiled");
    let file = |s: &Symbol| s.name.len() > 2 && (s.name.ends_with(".o") || s.name.ends_with(".a"));
    a.value
        .cmp(&b.value)
        .then_with(|| marker(a).cmp(&marker(b)))
        .then_with(|| file(a).cmp(&file(b)))
        .then_with(|| (b.kind == SymbolKind::Function).cmp(&(a.kind == SymbolKind::Function)))
        .then_with(|| (b.kind == SymbolKind::Object).cmp(&(a.kind == SymbolKind::Object)))
        .then_with(|| (a.binding == Binding::Local).cmp(&(b.binding == Binding::Local)))
        .then_with(|| b.size.cmp(&a.size))
        .then_with(|| a.name.starts_with('.').cmp(&b.name.starts_with('.')))
        .then_with(|| a.name.cmp(&b.name))
}

/// The symbols of one section in objdump order, which also name branch targets.
struct SectionSyms<'a> {
    section: &'a Section,
    syms: Vec<&'a Symbol>,
    /// Whether the object has any symbol at all (absolute ones count): without any,
    /// objdump prints bare `0x..` targets instead of `<.text+0x..>`.
    any: bool,
}

impl SectionSyms<'_> {
    /// Index of the symbol objdump picks for `addr`: the first (in order) of those with
    /// the highest value not above `addr`, else the first one after `addr`.
    fn find(&self, addr: u64) -> Option<usize> {
        let after = self.syms.partition_point(|s| s.value <= addr);
        match after.checked_sub(1).and_then(|last| self.syms.get(last)) {
            Some(best) => Some(self.syms.partition_point(|s| s.value < best.value)),
            None => (!self.syms.is_empty()).then_some(0),
        }
    }
}

impl Symbolizer for SectionSyms<'_> {
    fn symbolize(&self, addr: u64) -> Option<(&str, u64)> {
        match self.find(addr).and_then(|i| self.syms.get(i)) {
            Some(s) => Some((s.name.as_str(), addr.wrapping_sub(s.value))),
            None if !self.any => None,
            None => Some((self.section.name.as_str(), addr.wrapping_sub(self.section.addr))),
        }
    }
}

/// Raw bytes have nothing to name targets by.
struct NoNames;

impl Symbolizer for NoNames {
    fn symbolize(&self, _addr: u64) -> Option<(&str, u64)> {
        None
    }
}

/// Hex digits of the address column: the end address's digits, leading zeros dropped in
/// groups of four (objdump's `skip_addr_chars`).
fn addr_width(sec: &Section) -> usize {
    let end = sec.addr.wrapping_add(sec.size());
    if end == 0 {
        // Empty at 0 prints like a small section; a wrapped end keeps every digit.
        return if sec.addr == 0 { 4 } else { 16 };
    }
    // objdump drops leading zero digits in groups of 4 but always keeps one zero: an end of
    // 0x4400 prints 8 digits wide, not 4.
    let zeros = (end.leading_zeros() / 4) as usize;
    16 - zeros.saturating_sub(1) / 4 * 4
}

/// objdump's region loop over one section.
fn disassemble_section(out: &mut String, sec: &Section, names: &SectionSyms<'_>, relocs: &[ShownReloc]) {
    let region = Region { sec, width: addr_width(sec), syms: names, relocs, next_reloc: Cell::new(0), bounded: true };
    let end = sec.data.len();
    let mut off = 0usize;
    let mut cur = names.find(sec.addr);
    while off < end {
        // A section placed near the top of the address space wraps as objdump's `bfd_vma`
        // arithmetic does (an object's `sh_addr` is whatever the file says).
        let addr = sec.addr.wrapping_add(off as u64);
        let sym = cur.and_then(|i| names.syms.get(i).map(|s| (i, *s)));
        let next = match sym {
            Some((_, s)) if s.value > addr => cur,
            None => None,
            Some((i, s)) => {
                let j = i + names.syms.iter().skip(i).take_while(|n| n.value <= s.value).count();
                (j < names.syms.len()).then_some(j)
            }
        };
        let _ = write!(out, "\n{addr:016x} <");
        match sym {
            Some((_, s)) => push_name_offset(out, &s.name, addr.wrapping_sub(s.value)),
            None => push_name_offset(out, &sec.name, addr.wrapping_sub(sec.addr)),
        }
        out.push_str(">:\n");
        let stop_addr = match (sym, next.and_then(|j| names.syms.get(j))) {
            (Some((_, s)), _) if s.value > addr => s.value,
            (_, Some(n)) => n.value,
            _ => sec.addr.wrapping_add(end as u64),
        };
        let mut stop = usize::try_from(stop_addr.wrapping_sub(sec.addr)).unwrap_or(end);
        if stop > end || stop <= off {
            stop = end;
        }
        let is_object = matches!(sym, Some((_, s)) if s.kind == SymbolKind::Object && s.value <= addr);
        if is_object {
            region.data(out, off, stop);
        } else {
            region.instructions(out, off, stop);
        }
        off = stop;
        cur = next;
    }
}

/// `name`, `name+0x10` or `name-0x10` (a wrapped offset is negative).
fn push_name_offset(out: &mut String, name: &str, off: u64) {
    out.push_str(name);
    if (off as i64) < 0 {
        let _ = write!(out, "-0x{:x}", off.wrapping_neg());
    } else if off != 0 {
        let _ = write!(out, "+0x{off:x}");
    }
}

/// One stretch of a section printed with one symbolizer.
struct Region<'a> {
    sec: &'a Section,
    width: usize,
    syms: &'a dyn Symbolizer,
    /// The section's relocations, sorted by offset (empty without `-r`).
    relocs: &'a [ShownReloc],
    /// The first relocation not printed yet.
    next_reloc: Cell<usize>,
    /// Whether reads stop at the region's end as objdump's do on an object (raw input
    /// reads bytes past the end as zero).
    bounded: bool,
}

impl Region<'_> {
    /// The relocation lines of every field before section offset `end` not printed yet
    /// (objdump's loop after each line and after each `...`).
    fn relocs_before(&self, out: &mut String, end: usize) {
        let mut i = self.next_reloc.get();
        while let Some(r) = self.relocs.get(i) {
            if r.offset >= end as u64 {
                break;
            }
            let _ = write!(out, "\t\t\t{:x}: {}\t{}", self.sec.addr.wrapping_add(r.offset), r.howto, r.symbol);
            match r.addend {
                0 => {}
                a if a < 0 => {
                    let _ = write!(out, "-0x{:x}", a.unsigned_abs());
                }
                a => {
                    let _ = write!(out, "+0x{a:x}");
                }
            }
            out.push('\n');
            i += 1;
        }
        self.next_reloc.set(i);
    }

    /// Length of the zero run at `off` if objdump would skip it, and where to resume.
    fn zero_skip(&self, off: usize, stop: usize) -> Option<usize> {
        let bytes = self.sec.data.get(off..stop)?;
        let run = bytes.iter().take_while(|b| **b == 0).count();
        // objdump also skips a run of fewer than 3 zero bytes that ends the region
        // (`skip_zeroes_at_end`), which only a region ending inside a slot can have.
        let short_tail = self.bounded && run > 0 && off + run == stop && run < SKIP_ZEROES_AT_END;
        if run < SKIP_ZEROES && !short_tail {
            return None;
        }
        Some(if off + run == stop { stop } else { off + (run & !3) })
    }

    fn address(&self, out: &mut String, off: usize) {
        let _ = write!(out, "{:>w$x}:\t", self.sec.addr.wrapping_add(off as u64), w = self.width);
    }

    /// Slot lines from `off` to `stop`.
    fn instructions(&self, out: &mut String, mut off: usize, stop: usize) {
        while off < stop {
            if let Some(next) = self.zero_skip(off, stop) {
                out.push_str("\t...\n");
                off = next;
                self.relocs_before(out, off);
                continue;
            }
            let addr = self.sec.addr.wrapping_add(off as u64);
            let bundle_addr = addr & !15;
            let slot = ((addr & 15) / 6) as usize;
            let octets = SLOT_BYTES.get(slot).copied().unwrap_or(4);
            self.address(out, off);
            if self.bounded {
                // objdump reads the whole bundle, and only up to the region's end (the next
                // symbol or the section's end): past it, the read fails, objdump prints the
                // error and leaves the region.
                let bundle_off = off.checked_sub((addr & 15) as usize);
                if !matches!(bundle_off, Some(b) if b.saturating_add(16) <= stop) {
                    let _ = writeln!(out, "Address 0x{bundle_addr:x} is out of bounds.\n");
                    return;
                }
            }
            // A slot that runs past the region's end shows its bytes up to the end (a blank
            // for each byte after it), as objdump does; unbounded raw input stops at the end.
            let len = if self.bounded { octets } else { octets.min(stop - off) };
            for j in off..off + len {
                match self.sec.data.get(j).filter(|_| j < stop) {
                    Some(b) => {
                        let _ = write!(out, "{b:02x} ");
                    }
                    None => out.push(' '),
                }
            }
            match format_raw_slot(self.bundle(bundle_addr), slot, bundle_addr, self.syms) {
                Some(text) => {
                    for _ in len..6 {
                        out.push_str("   ");
                    }
                    let _ = writeln!(out, "\t{}", text.trim_end());
                }
                None => out.push('\n'),
            }
            off += len.max(1);
            self.relocs_before(out, off);
        }
    }

    /// The 16 bytes of the bundle at `addr`; bytes outside the section read as zero.
    fn bundle(&self, addr: u64) -> [u8; 16] {
        let mut b = [0u8; 16];
        for (i, byte) in b.iter_mut().enumerate() {
            let a = addr.wrapping_add(i as u64).wrapping_sub(self.sec.addr);
            if let Some(v) = usize::try_from(a).ok().and_then(|a| self.sec.data.get(a)) {
                *byte = *v;
            }
        }
        b
    }

    /// Data lines (16 bytes and their ASCII) from `off` to `stop`, for object symbols.
    fn data(&self, out: &mut String, mut off: usize, stop: usize) {
        while off < stop {
            if let Some(next) = self.zero_skip(off, stop) {
                out.push_str("\t...\n");
                off = next;
                self.relocs_before(out, off);
                continue;
            }
            let len = 16.min(stop - off);
            self.address(out, off);
            let shown = self.sec.data.get(off..off + len).unwrap_or(&[]);
            for b in shown {
                let _ = write!(out, "{b:02x} ");
            }
            for _ in shown.len()..16 {
                out.push_str("   ");
            }
            out.push_str("    ");
            out.extend(shown.iter().map(|b| if (0x20..0x7f).contains(b) { char::from(*b) } else { '.' }));
            out.push('\n');
            off += len;
            self.relocs_before(out, off);
        }
    }
}
