//! The rest of gas's ia64 directives (issue 13): per-section byte order (`.lsb`/`.msb`),
//! the extended-format data (`real10`/`real16`), the unaligned and floating/string forms of
//! the cross-section data directives (`.xdataN.ua`, `.xrealN[.ua]`, `.xstring[z]`), and
//! `.radix`, which gas's ia64 port accepts only as `C`.

use super::expr::Expr;
use super::layout::{Assembler, EarlyEnv, SectionState, SymDef};
use super::matcher::Value;
use super::object::{Created, ObjGroup};
use super::reloc::{split, Field, Reloc, RelocType};
use super::syntax::{DirArg, InsnSyntax, Located, Operand, Reg};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;

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

fn has_dot(e: &Expr) -> bool {
    match e {
        Expr::Dot => true,
        Expr::Unary(_, x) | Expr::RelocFn(_, x) => has_dot(x),
        Expr::Binary(_, a, b) => has_dot(a) || has_dot(b),
        _ => false,
    }
}

/// The name gas gives the relocation operators `funcs` would need in `field` when no such
/// relocation exists (`@gprel` in `adds`'s 14 bits is "GPREL14"); gas then warns "Cannot
/// express ... relocation" and relocates the plain value instead (gas's `reloc-bad.s`).
/// `None` for operators gas does not know or fields that take no plain relocation either.
pub(super) fn inexpressible(funcs: &[String], field: Field, minus_dot: bool) -> Option<String> {
    let f: Vec<&str> = funcs.iter().map(String::as_str).collect();
    let base = match (f.as_slice(), minus_dot) {
        ([], true) => "PCREL",
        (_, true) => return None,
        (["gprel"], _) => "GPREL",
        (["ltoff"], _) | (["ltoffx"], _) => "LTOFF",
        (["pltoff"], _) => "PLTOFF",
        (["fptr"], _) => "FPTR",
        (["pcrel"], _) => "PCREL",
        (["ltoff", "fptr"], _) => "LTOFF_FPTR",
        (["segrel"], _) => "SEGREL",
        (["secrel"], _) => "SECREL",
        (["ltv"], _) => "LTV",
        (["iplt"], _) => "IPLT",
        (["tprel"], _) => "TPREL",
        (["ltoff", "tprel"], _) => "LTOFF_TPREL",
        (["dtpmod"], _) => "DTPMOD",
        (["ltoff", "dtpmod"], _) => "LTOFF_DTPMOD",
        (["dtprel"], _) => "DTPREL",
        (["ltoff", "dtprel"], _) => "LTOFF_DTPREL",
        _ => return None,
    };
    let size = match field {
        Field::Imm14 => "14",
        Field::Imm22 => "22",
        Field::Imm64 => "64I",
        Field::Data(4) => "32LSB",
        Field::Data(8) => "64LSB",
        _ => return None,
    };
    let x = if f.as_slice() == ["ltoffx"] { "X" } else { "" };
    Some(format!("{base}{size}{x}"))
}

/// `ld8.mov r1 = [r2], sym`: gas's pseudo-op for the `ld8` of a `@ltoffx` sequence, which
/// the linker may relax into a `mov` (R_IA64_LDXMOV against `sym`). Gives the plain `ld8`
/// and the symbol; `None` for any other instruction.
pub(super) fn ldxmov_pseudo(syn: &InsnSyntax) -> Result<Option<(InsnSyntax, Expr)>, Diagnostic> {
    if !syn.mnemonic.value.eq_ignore_ascii_case("ld8.mov") {
        return Ok(None);
    }
    match syn.inputs.as_slice() {
        [mem @ Located { value: Operand::Mem(_), .. }, Located { value: Operand::Expr(e), .. }] => {
            let mut plain = syn.clone();
            plain.mnemonic.value = "ld8".into();
            plain.inputs = vec![mem.clone()];
            Ok(Some((plain, e.clone())))
        }
        _ => Err(Diagnostic::error(
            syn.mnemonic.loc.clone(),
            "`ld8.mov` takes a register, an address and a symbol (`ld8.mov r3 = [r2], sym`)",
        )),
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

/// What this file's directives keep for the object writer.
#[derive(Debug, Default)]
pub(super) struct RestState {
    /// Section groups in order of first use: signature, GRP_COMDAT, member sections.
    groups: Vec<(String, bool, Vec<usize>)>,
    /// Group members named like a section outside their group (see `ObjGroup::late_symbols`).
    late: Vec<usize>,
    /// `.handlerdata` sections made so far.
    handlers: usize,
    /// The unwind region the open procedure is in: none yet, a prologue (false) or a body.
    region: Option<bool>,
    /// Misplaced unwind directives are errors, not warnings: gas's unwind check turns strict
    /// after an `.endp` outside of any procedure.
    strict_unwind: bool,
}

impl RestState {
    /// Whether section `i` belongs to a section group.
    pub(super) fn grouped(&self, i: usize) -> bool {
        self.groups.iter().any(|g| g.2.contains(&i))
    }
}

/// The groups as the object writer takes them.
pub(super) fn object_groups(asm: &Assembler, sections: &[SectionState]) -> Vec<ObjGroup> {
    // Sections some fixup's symbol is defined in (gas makes their section symbols then).
    let mut referenced = std::collections::HashSet::new();
    let mut note = |e: &Expr| {
        for s in e.symbols() {
            match asm.symbols.get(s).map(|d| &d.0) {
                Some(SymDef::At(sec, _)) | Some(SymDef::Insn { section: sec, .. }) => {
                    referenced.insert(*sec);
                }
                _ => {}
            }
        }
    };
    for sec in sections {
        for f in &sec.fixups {
            note(&f.expr);
        }
        for rec in &sec.insns {
            for v in &rec.matched.values {
                if let Value::Later(e, _) = v {
                    note(e);
                }
            }
        }
    }
    asm.rest
        .groups
        .iter()
        .map(|(signature, comdat, members)| {
            let late = |m: &&usize| asm.rest.late.contains(m);
            ObjGroup {
                signature: signature.clone(),
                comdat: *comdat,
                members: members.clone(),
                late_symbols: members.iter().filter(late).filter(|m| !referenced.contains(*m)).copied().collect(),
                early_symbols: members.iter().filter(late).filter(|m| referenced.contains(*m)).copied().collect(),
            }
        })
        .collect()
}

fn name_arg(a: Option<&Located<DirArg>>) -> Option<String> {
    match a.map(|a| &a.value) {
        Some(DirArg::Expr(Expr::Sym(s))) | Some(DirArg::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

/// `e` with the one subtracted label `L` of section `section` (at offset `off`) written as
/// `. - (place - off)`: gas turns `sym - L` into a PC-relative relocation whose addend is the
/// distance from the field's place back to `L` (gas's `pcrel.s`: `esym - _mov` in a `mov` at
/// 0x20 of `.mov` is PCREL22 esym+0x20). The second value counts replaced labels.
fn label_to_dot(e: &Expr, neg: bool, local: &dyn Fn(&str) -> Option<u64>, place: u64) -> (Expr, u32) {
    use super::expr::{BinOp, UnaryOp};
    match e {
        Expr::Sym(s) if neg => match local(s) {
            Some(off) => {
                let back = Expr::Num(place.wrapping_sub(off));
                (Expr::Binary(BinOp::Sub, Box::new(Expr::Dot), Box::new(back)), 1)
            }
            None => (e.clone(), 0),
        },
        Expr::Unary(UnaryOp::Neg, x) => {
            let (x, n) = label_to_dot(x, !neg, local, place);
            (Expr::Unary(UnaryOp::Neg, Box::new(x)), n)
        }
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (a, na) = label_to_dot(a, neg, local, place);
            let (b, nb) = label_to_dot(b, if *op == BinOp::Sub { !neg } else { neg }, local, place);
            (Expr::Binary(*op, Box::new(a), Box::new(b)), na + nb)
        }
        _ => (e.clone(), 0),
    }
}

impl Assembler {
    /// `sym - L` with `L` a local label of `section` and `sym` not resolvable there (external,
    /// global or in another section): the same value as `sym - . + (place - L)`, which the
    /// relocation code takes as PC-relative (issue 13). `place` is the field's offset in the
    /// section (a bundle's for an instruction). `None` when `e` has no such form.
    pub(super) fn label_difference(&self, e: &Expr, section: usize, place: u64) -> Option<Expr> {
        if !matches!(e, Expr::Binary(..) | Expr::Unary(..)) || has_dot(e) {
            return None;
        }
        let local = |s: &str| match self.placed.get(s) {
            Some(&(sec, off)) if sec == section && !self.globals.contains(s) => Some(off),
            _ => None,
        };
        let (out, n) = label_to_dot(e, false, &local, place);
        let elsewhere = e.symbols().iter().any(|s| local(s).is_none());
        (n == 1 && elsewhere).then_some(out)
    }

    /// gas's placement rules for the unwind directives: each needs an open procedure (and
    /// none after `.handlerdata`, which ends its unwind information); the frame and save
    /// directives a prologue region, `.label_state`/`.copy_state`/`.restore` a body region.
    /// True when `name` was refused (reported as gas words it).
    pub(super) fn unwind_context(&mut self, name: &str, loc: &SourceLoc) -> bool {
        const PROLOGUE: &[&str] = &[
            ".fframe",
            ".vframe",
            ".vframesp",
            ".vframepsp",
            ".spill",
            ".save",
            ".savesp",
            ".savepsp",
            ".save.g",
            ".save.gf",
            ".save.f",
            ".save.b",
            ".altrp",
        ];
        const BODY: &[&str] = &[".label_state", ".copy_state", ".restore"];
        const ANYWHERE: &[&str] = &[
            ".endp",
            ".personality",
            ".unwentry",
            ".unwabi",
            ".handlerdata",
            ".prologue",
            ".body",
            ".spillreg",
            ".spillreg.p",
            ".spillsp",
            ".spillsp.p",
            ".spillpsp",
            ".spillpsp.p",
            ".restorereg",
            ".restorereg.p",
        ];
        if name == ".proc" {
            self.rest.region = None;
            return false;
        }
        let (prologue, body) = (PROLOGUE.contains(&name), BODY.contains(&name));
        if !prologue && !body && !ANYWHERE.contains(&name) {
            return false;
        }
        let word = name.trim_start_matches('.');
        let open = self.obj.proc.as_ref().filter(|p| name == ".endp" || p.handler.is_none());
        let Some(p) = open else {
            // gas: a warning by default, and the directive is then without effect here; an
            // error for `.endp`, after which every such check is an error.
            if name == ".endp" {
                self.rest.strict_unwind = true;
            }
            self.misplaced(loc, format!(".{word} outside of procedure"));
            return true;
        };
        let any_insn = self.sections.get(p.section).is_some_and(|s| s.insns.len() > p.first_insn);
        match name {
            ".prologue" if self.rest.region == Some(false) => {
                self.error(loc, ".prologue within prologue");
                return true;
            }
            ".prologue" | ".body" => {
                if self.rest.region.is_none() && any_insn {
                    let what = if name == ".body" { "body" } else { "prologue" };
                    self.warnings.push(Diagnostic::warning(
                        loc.clone(),
                        format!("Initial .{what} should precede any instructions"),
                    ));
                }
                self.rest.region = Some(name == ".body");
            }
            // As a warning gas still takes the directive.
            _ if prologue && self.rest.region != Some(false) => {
                return self.misplaced(loc, format!(".{word} outside of prologue"));
            }
            _ if body && self.rest.region != Some(true) => {
                return self.misplaced(loc, format!(".{word} outside of body region"));
            }
            _ => {}
        }
        false
    }

    /// Reports a misplaced unwind directive as gas's unwind check does; true when it is an
    /// error (the directive is then dropped).
    fn misplaced(&mut self, loc: &SourceLoc, msg: String) -> bool {
        if self.rest.strict_unwind {
            self.error(loc, msg);
            true
        } else {
            self.warnings.push(Diagnostic::warning(loc.clone(), msg));
            false
        }
    }

    /// `.proc NAME, ...`: the names that may start the procedure. gas refuses an empty list
    /// and a name already defined (which then is no name of the procedure).
    pub(super) fn proc_names(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) -> Vec<Located<DirArg>> {
        if args.is_empty() {
            self.error(loc, "Empty argument of .proc");
        }
        let mut keep = Vec::new();
        for a in args {
            match name_arg(Some(a)) {
                Some(n) if self.symbols.contains_key(&n) => {
                    self.error(&a.loc, format!("`{n}' was already defined"));
                }
                _ => keep.push(a.clone()),
            }
        }
        keep
    }

    /// `.endp NAME, ...`: each name should be one `.proc` named (else gas warns), and those
    /// must be defined by now (else an error); an empty list is a warning.
    fn endp_names(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) {
        if self.obj.proc.is_none() {
            return;
        }
        if args.is_empty() {
            self.warnings.push(Diagnostic::warning(loc.clone(), "Empty argument of .endp"));
        }
        for a in args {
            let Some(n) = name_arg(Some(a)) else { continue };
            if !self.obj.proc_names.contains(&n) {
                self.warnings
                    .push(Diagnostic::warning(a.loc.clone(), format!("`{n}' was not specified with previous .proc")));
            } else if !self.symbols.contains_key(&n) && !self.sections[self.current].pending_labels.contains(&n) {
                self.error(&a.loc, format!("`{n}' was not defined within procedure"));
            }
        }
    }

    /// Records `ld8.mov`'s LDXMOV relocation for the slot at `offset` of `section`.
    pub(super) fn ldxmov_reloc(&mut self, e: &Expr, section: usize, offset: u64, loc: &SourceLoc) {
        let Some(parts) = split(e, &EarlyEnv { asm: self }).filter(|p| p.funcs.is_empty() && !p.minus_dot) else {
            self.errors.push(Diagnostic::error(loc.clone(), "`ld8.mov` needs a symbol (plus a constant)"));
            return;
        };
        self.relocs.push(Reloc {
            global: self.globals.contains(&parts.symbol),
            section,
            offset,
            r_type: RelocType { name: "R_IA64_LDXMOV", number: 0x87 },
            local: self.placed.get(&parts.symbol).copied(),
            symbol: parts.symbol,
            addend: parts.addend,
            loc: loc.clone(),
        });
    }

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
                self.emit_into_section(name, args, loc, |asm, rest| {
                    let mut bytes = Vec::new();
                    for a in rest {
                        match &a.value {
                            DirArg::Str(s) => {
                                bytes.extend(s.chars().map(|c| c as u32 as u8));
                                if zero {
                                    bytes.push(0);
                                }
                            }
                            _ => asm.error(&a.loc, format!("`{name}` needs strings")),
                        }
                    }
                    asm.raw_data(bytes, loc);
                });
            }
            _ => return false,
        }
        true
    }

    /// `.section NAME, "...G...", @type, GROUP[, comdat]`: a section of group GROUP, distinct
    /// from a section of the same name outside it (gas's `group-1.s` has two `.text`s).
    /// False for a section without the G flag (the ordinary `.section`).
    fn group_section(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        let flags = match args.get(1).map(|a| &a.value) {
            Some(DirArg::Str(f)) if f.contains('G') => f.clone(),
            _ => return false,
        };
        let (Some(sec_name), Some(group)) = (name_arg(args.first()), name_arg(args.get(3))) else {
            self.error(loc, format!("`{name}` with flag G needs a type and a group name (`{name} NAME, \"axG\", @progbits, GROUP, comdat`)"));
            return true;
        };
        let comdat = match name_arg(args.get(4)).as_deref() {
            None => false,
            Some("comdat") => true,
            Some(other) => {
                self.error(&args[4].loc, format!("expected `comdat` after the group name, found `{other}`"));
                return true;
            }
        };
        let key = format!("{sec_name}\u{1}{group}");
        let fresh = !self.section_index.contains_key(&key);
        let idx = self.section_id(&key, Some(&flags));
        if fresh {
            // gas's `.text`, `.data` and `.bss` exist from the start.
            let taken = matches!(sec_name.as_str(), ".text" | ".data" | ".bss")
                || self.sections.iter().enumerate().any(|(i, s)| i != idx && s.name == sec_name);
            if taken {
                self.rest.late.push(idx);
            }
            self.sections[idx].name = sec_name;
            match self.rest.groups.iter_mut().find(|g| g.0 == group) {
                Some(g) => {
                    if g.1 != comdat {
                        self.warnings.push(Diagnostic::warning(
                            loc.clone(),
                            format!("assuming all members of group `{group}' are COMDAT"),
                        ));
                    }
                    g.1 |= comdat;
                    g.2.push(idx);
                }
                None => self.rest.groups.push((group, comdat, vec![idx])),
            }
        }
        if name == ".pushsection" {
            self.section_stack.push(self.current);
        }
        self.switch_index(idx);
        true
    }

    /// `.personality NAME` and `.handlerdata` (the data up to `.endp` follows the routine's
    /// pointer in the procedure's unwind info). gas refuses both outside a procedure.
    pub(super) fn personality_directive(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        if self.obj.proc.is_none() {
            self.error(loc, format!("{name} outside of procedure"));
            return true;
        }
        if name == ".personality" {
            let Some(routine) = name_arg(args.first()) else {
                self.error(loc, "`.personality` needs the routine's name");
                return true;
            };
            self.obj.note(&routine);
            if let Some(p) = self.obj.proc.as_mut() {
                p.personality = Some(routine);
                p.has_info = true;
            }
            return true;
        }
        if let Some(a) = args.first() {
            self.error(&a.loc, "`.handlerdata` takes no operands");
            return true;
        }
        if self.obj.proc.as_ref().is_some_and(|p| p.handler.is_some()) {
            return true;
        }
        self.rest.handlers += 1;
        // Hidden: "\u{2}" names no symbol or section of the object file.
        let hidden = format!("\u{2}handlerdata.{}", self.rest.handlers);
        let idx = self.section_id(&hidden, Some("a"));
        self.obj.created.retain(|c| *c != Created::Section(idx));
        let back = self.current;
        if let Some(p) = self.obj.proc.as_mut() {
            p.handler = Some((idx, back));
            p.has_info = true;
        }
        // gas emits the pending instructions without the stop of a flush point, then writes
        // the unwind info (the regions end here) and stays in it for the handler's data.
        let code = &mut self.sections[back];
        if code.kind == SectionKind::Code {
            code.bundler.emit_pending();
            code.sync();
        }
        self.settle_labels();
        self.current = idx;
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

    /// Runs `emit` with the arguments after the first, in the section the first names, then
    /// comes back (no flush point, like `.xdataN`).
    fn emit_into_section(
        &mut self,
        name: &str,
        args: &[Located<DirArg>],
        loc: &SourceLoc,
        emit: impl FnOnce(&mut Assembler, &[Located<DirArg>]),
    ) {
        let sec_name = match args.first().map(|a| &a.value) {
            Some(DirArg::Expr(Expr::Sym(s))) | Some(DirArg::Str(s)) => s.clone(),
            _ => {
                self.error(loc, format!("`{name}` needs a section name"));
                return;
            }
        };
        // gas's `.data` and `.bss` exist from the start (issue 13: no warning for them).
        if !self.section_index.contains_key(&sec_name) && !matches!(sec_name.as_str(), ".data" | ".bss") {
            self.warnings.push(Diagnostic::warning(
                loc.clone(),
                "Creating sections with .xdataN/.xrealN/.xstringZ is deprecated.",
            ));
        }
        let target = self.section_id(&sec_name, None);
        if self.sections[target].kind == SectionKind::Code {
            self.error(loc, format!("`{name}` into code section `{sec_name}` is not supported"));
            return;
        }
        let back = self.current;
        self.current = target;
        emit(self, args.get(1..).unwrap_or_default());
        self.current = back;
    }
}
