//! Instructions to text, exactly as `ia64-linux-gnu-objdump -d` prints them.

use crate::bundle::SlotUnit;
use crate::decode::{DecodedBundle, Insn, Slot};
use crate::regs::{ar_name, cr_name};
use crate::table::{Flags, OpClass, OpKind};
use std::fmt::Write;

/// Gives the symbol at or before an address, as objdump's `<name+0xoff>`.
pub trait Symbolizer {
    /// The nearest symbol at or before `addr` and the offset from it. An offset that is
    /// negative as `i64` (wrapped) names a symbol after `addr`, shown as `<sym-0x..>`.
    fn symbolize(&self, addr: u64) -> Option<(&str, u64)>;
}

/// A symbolizer that knows no symbols.
pub struct NoSymbols;

impl Symbolizer for NoSymbols {
    fn symbolize(&self, _addr: u64) -> Option<(&str, u64)> {
        None
    }
}

impl Symbolizer for emu_core::image::Image {
    fn symbolize(&self, addr: u64) -> Option<(&str, u64)> {
        emu_core::image::Image::symbolize(self, addr)
    }
}

/// Writes the mnemonic and operands of `insn` (no predicate, no stop) into `out`.
/// `ip` is the address of the bundle holding it.
pub fn format_insn(out: &mut String, insn: &Insn, ip: u64, syms: &dyn Symbolizer) {
    let form = insn.form();
    match form.mnemonic(insn.raw.slot) {
        Some(m) => out.push_str(&m),
        None => out.push_str(form.name),
    }
    let mut first = true;
    let sep = |out: &mut String, first: &mut bool, s: &str| {
        out.push_str(if *first { " " } else { s });
        *first = false;
    };
    for kind in form.outs {
        sep(out, &mut first, ",");
        format_operand(out, *kind, insn, ip, syms);
    }
    let mut first_in = true;
    for kind in form.ins {
        if first_in && !form.outs.is_empty() {
            out.push('=');
        } else {
            sep(out, &mut first, ",");
        }
        first_in = false;
        first = false;
        format_operand(out, *kind, insn, ip, syms);
    }
}

fn format_operand(out: &mut String, kind: OpKind, insn: &Insn, ip: u64, syms: &dyn Symbolizer) {
    let v = insn.operand(kind, ip);
    let _ = match kind.spec().class {
        OpClass::Gr => write!(out, "r{v}"),
        OpClass::Fr => write!(out, "f{v}"),
        OpClass::Pr => write!(out, "p{v}"),
        OpClass::Br => write!(out, "b{v}"),
        OpClass::Ar => match ar_name(v as u8) {
            Some(n) => write!(out, "{n}"),
            None => write!(out, "ar{v}"),
        },
        OpClass::Cr => match cr_name(v as u8) {
            Some(n) => write!(out, "{n}"),
            None => write!(out, "cr{v}"),
        },
        OpClass::Mem => write!(out, "[r{v}]"),
        OpClass::Ind(file) => write!(out, "{file}[r{v}]"),
        OpClass::Dahr => write!(out, "dahr{v}"), // later forms (issue 12)
        OpClass::Fixed(text) => write!(out, "{text}"),
        OpClass::Dec => match kind {
            OpKind::Sor => write!(out, "{v}"),
            _ => write!(out, "{v}"),
        },
        OpClass::Hex => write!(out, "0x{:x}", v),
        // multimedia (issue 12): mux1's permutation by name, a reserved value in hex.
        OpClass::Named(names) => match names.iter().find(|(_, n)| *n == v) {
            Some((text, _)) => write!(out, "{text}"),
            None => write!(out, "0x{:x}", v),
        },
        OpClass::Target => {
            let addr = v as u64;
            match syms.symbolize(addr) {
                Some((name, 0)) => write!(out, "{addr:x} <{name}>"),
                // A wrapped offset means the nearest symbol lies after `addr` (objdump's
                // `<sym-0x10>` when nothing precedes the target).
                Some((name, off)) if (off as i64) < 0 => {
                    write!(out, "{addr:x} <{name}-0x{:x}>", off.wrapping_neg())
                }
                Some((name, off)) => write!(out, "{addr:x} <{name}+0x{off:x}>"),
                // objdump's form when the object has no symbols at all.
                None => write!(out, "0x{addr:x}"),
            }
        }
    };
}

/// The text of one slot as objdump shows it after the bytes: template marker (slot 0),
/// predicate, instruction, and `;;` when a stop follows. `None` for the L slot of MLX
/// (objdump prints only its bytes).
pub fn format_slot(bundle: &DecodedBundle, slot: usize, ip: u64, syms: &dyn Symbolizer) -> Option<String> {
    let mut out = String::with_capacity(48);
    let tpl = bundle.template;
    if slot == 0 {
        let _ = write!(out, "[{}] ", tpl.name());
    } else {
        out.push_str("      ");
    }
    // The X instruction of MLX is shown on slot 1's line; its stop is the bundle's.
    let (shown, stop) = match (tpl.units()[slot.min(2)], slot) {
        (SlotUnit::L, _) => (2, tpl.stop_after(2)),
        (SlotUnit::X, _) => return None,
        _ => (slot, tpl.stop_after(slot)),
    };
    match bundle.slots.get(shown) {
        Some(Slot::Insn(insn)) => {
            // objdump drops the qp field of a form that cannot be predicated (alloc,
            // br.cloop, rfi, ...), whatever bits it holds.
            if insn.qp != 0 && !insn.form().flags.has(Flags::NO_QP) {
                let _ = write!(out, "(p{:02}) ", insn.qp);
            } else {
                out.push_str("      ");
            }
            format_insn(&mut out, insn, ip, syms);
        }
        Some(Slot::Unknown { bits, .. }) => {
            // objdump gives up on the slot: no predicate, no stop.
            push_data8(&mut out, *bits);
            return Some(out);
        }
        _ => out.push_str("      "),
    }
    if stop {
        out.push_str(";;");
    }
    Some(out)
}

/// `      data8 0x...` as objdump prints a slot it cannot decode: C's `%#011lx`, which
/// writes zero without the `0x`.
fn push_data8(out: &mut String, bits: u64) {
    if bits == 0 {
        out.push_str("      data8 00000000000");
    } else {
        let _ = write!(out, "      data8 {bits:#011x}");
    }
}

/// The text of slot `slot` (0, 1 or 2) of the raw bundle `bytes` at `ip`, like
/// [`format_slot`] but also for reserved templates, which objdump shows as `[-3-]`
/// (the template code halved, in hex) with every slot as `data8`.
pub fn format_raw_slot(bytes: [u8; 16], slot: usize, ip: u64, syms: &dyn Symbolizer) -> Option<String> {
    match crate::decode::decode_bundle(bytes) {
        Ok(bundle) => format_slot(&bundle, slot, ip, syms),
        Err(_) => {
            let code = bytes[0] & 31;
            let mut out = if slot == 0 { format!("[-{:x}-] ", code >> 1) } else { "      ".to_string() };
            let bits = crate::bundle::slots_of(u128::from_le_bytes(bytes)).get(slot).copied().unwrap_or(0);
            push_data8(&mut out, bits);
            Some(out)
        }
    }
}

/// objdump's disassembly lines for the bundles of `bytes` loaded at `base`: for each
/// bundle, three lines of address, bytes (6, 6, 4) and slot text. Symbol headers
/// (`0000000000000040 <name>:`) are the caller's business.
pub fn format_bundle_lines(
    out: &mut String,
    bundle: &DecodedBundle,
    bytes: &[u8; 16],
    addr: u64,
    syms: &dyn Symbolizer,
) {
    const SPANS: [(usize, usize); 3] = [(0, 6), (6, 12), (12, 16)];
    for (slot, (lo, hi)) in SPANS.iter().enumerate() {
        let _ = write!(out, "{:>4x}:\t", addr + *lo as u64);
        for b in &bytes[*lo..*hi] {
            let _ = write!(out, "{b:02x} ");
        }
        match format_slot(bundle, slot, addr, syms) {
            Some(text) => {
                for _ in (hi - lo)..6 {
                    out.push_str("   ");
                }
                let _ = writeln!(out, "\t{}", text.trim_end());
            }
            None => out.push('\n'),
        }
    }
}
