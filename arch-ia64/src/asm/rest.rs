//! The rest of gas's ia64 directives (issue 13): per-section byte order (`.lsb`/`.msb`),
//! the extended-format data (`real10`/`real16`), the unaligned and floating/string forms of
//! the cross-section data directives (`.xdataN.ua`, `.xrealN[.ua]`, `.xstring[z]`), and
//! `.radix`, which gas's ia64 port accepts only as `C`, `.reg.val`, `.eqv`. The directive
//! families around them have their own files: `rest_group.rs` (section groups),
//! `rest_unwind.rs` (unwind placement, `.proc`/`.endp` names, `.personality`/`.handlerdata`)
//! and `rest_reloc.rs` (`sym - label`, "Cannot express", `ld8.mov`).

use super::assembler::Assembler;
use super::expr::Expr;
use super::reloc::{Reloc, RelocType};
use super::syntax::{DirArg, Located, Reg};
use emu_core::error::{Diagnostic, SourceLoc};

/// The MSB twin of each little-endian data relocation gas can emit (its number is one less).
const MSB: &[(u32, &str)] = &[
    (0x25, "R_IA64_DIR32MSB"),
    (0x27, "R_IA64_DIR64MSB"),
    (0x2d, "R_IA64_GPREL32MSB"),
    (0x2f, "R_IA64_GPREL64MSB"),
    (0x3f, "R_IA64_PLTOFF64MSB"),
    (0x45, "R_IA64_FPTR32MSB"),
    (0x47, "R_IA64_FPTR64MSB"),
    (0x4d, "R_IA64_PCREL32MSB"),
    (0x4f, "R_IA64_PCREL64MSB"),
    (0x55, "R_IA64_LTOFF_FPTR32MSB"),
    (0x57, "R_IA64_LTOFF_FPTR64MSB"),
    (0x5d, "R_IA64_SEGREL32MSB"),
    (0x5f, "R_IA64_SEGREL64MSB"),
    (0x65, "R_IA64_SECREL32MSB"),
    (0x67, "R_IA64_SECREL64MSB"),
    (0x75, "R_IA64_LTV32MSB"),
    (0x77, "R_IA64_LTV64MSB"),
    (0x81, "R_IA64_IPLTMSB"),
    (0x97, "R_IA64_TPREL64MSB"),
    (0xa7, "R_IA64_DTPMOD64MSB"),
    (0xb5, "R_IA64_DTPREL32MSB"),
    (0xb7, "R_IA64_DTPREL64MSB"),
];

/// Turns the data relocations just recorded for a `.msb` field into their MSB types.
pub(super) fn to_msb_relocs(relocs: &mut [Reloc], errors: &mut Vec<Diagnostic>, loc: &SourceLoc) {
    for r in relocs {
        match MSB.iter().find(|(n, _)| *n == r.r_type.number) {
            Some((n, name)) => r.r_type = RelocType { name, number: n - 1 },
            None => errors
                .push(Diagnostic::error(loc.clone(), format!("{} has no big-endian (`.msb`) form", r.r_type.name))),
        }
    }
}

/// Size and alignment of the extended-format data directives.
fn real_size(base: &str) -> Option<usize> {
    match base {
        "real10" => Some(10),
        "real16" => Some(16),
        _ => None,
    }
}

/// A name written as a symbol or a string.
pub(super) fn name_arg(a: Option<&Located<DirArg>>) -> Option<String> {
    match a.map(|a| &a.value) {
        Some(DirArg::Expr(Expr::Sym(s))) | Some(DirArg::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

impl Assembler {
    /// Handles the directives of this file; false when `name` is not one of them.
    pub(super) fn rest_directive(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        if matches!(name, ".section" | ".pushsection") {
            return self.group_section(name, args, loc);
        }
        if name == ".endp" {
            self.endp_names(args, loc);
            // `.endp` after `.handlerdata` goes back to the procedure's section first.
            if let Some((h, back)) = self.obj.proc.as_ref().and_then(|p| p.handler) {
                if self.current == h {
                    self.current = back;
                }
            }
            return false;
        }
        let unaligned = name.ends_with(".ua");
        let base = name.strip_suffix(".ua").unwrap_or(name);
        if let Some(size) = real_size(base) {
            self.data(size, !unaligned, args, loc);
            return true;
        }
        match base {
            ".lsb" | ".msb" => {
                if let Some(a) = args.first() {
                    self.error(&a.loc, format!("`{name}` takes no operands"));
                }
                let cur = self.current;
                self.sections[cur].big_endian = name == ".msb";
            }
            ".radix" => self.radix(args),
            ".reg.val" => self.reg_val(args, loc),
            // `name == expr` (the parser substitutes its uses): only the symbols' order of
            // creation matters here.
            ".eqv" => {
                for a in args {
                    if let DirArg::Expr(e) = &a.value {
                        for s in e.symbols() {
                            self.obj.note(s);
                        }
                    }
                }
            }
            ".xdata2" | ".xdata4" | ".xdata8" | ".xdata16" if unaligned => {
                let size = base.strip_prefix(".xdata").and_then(|n| n.parse().ok()).unwrap_or(1);
                self.emit_into_section(name, args, loc, |asm, rest| asm.data(size, false, rest, loc));
            }
            ".xreal4" | ".xreal8" | ".xreal10" | ".xreal16" => {
                let size = base.strip_prefix(".xreal").and_then(|n| n.parse().ok()).unwrap_or(4);
                self.emit_into_section(name, args, loc, |asm, rest| asm.data(size, !unaligned, rest, loc));
            }
            ".xstring" | ".xstringz" if !unaligned => {
                let zero = base == ".xstringz";
                self.emit_into_section(name, args, loc, |asm, rest| asm.string_data(name, rest, zero, loc));
            }
            _ => return false,
        }
        true
    }

    /// `.reg.val grN, value`: a dependency-checking hint naming a register's value (gas uses
    /// it to tell apart indirect-file entries such as `pkr[r1]`/`pkr[r2]`). The checker here
    /// does not track register values, so the hint only is validated; it never changes code.
    fn reg_val(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) {
        match args {
            [reg, value] => {
                if !matches!(value.value, DirArg::Expr(_)) {
                    self.error(&value.loc, "`.reg.val` needs a value expression");
                } else if !matches!(reg.value, DirArg::Reg(Reg::Gr(n)) if n != 0) {
                    self.warnings.push(Diagnostic::warning(reg.loc.clone(), "Register value annotation ignored"));
                }
            }
            _ => self.error(loc, "Comma expected"),
        }
    }

    /// `.radix C`: gas's ia64 port knows only C's notation (`0x`, leading `0` octal).
    fn radix(&mut self, args: &[Located<DirArg>]) {
        let Some(a) = args.first() else { return };
        let word = match &a.value {
            DirArg::Expr(Expr::Sym(s)) => s.trim_end_matches('#').to_string(),
            DirArg::Str(s) => s.clone(),
            DirArg::At(s) => format!("@{s}"),
            DirArg::Expr(Expr::Num(n)) => n.to_string(),
            _ => String::from("?"),
        };
        if !word.eq_ignore_ascii_case("c") {
            self.error(&a.loc, format!("Radix `{word}' unsupported or invalid"));
        }
    }
}
