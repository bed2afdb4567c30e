//! The assembler's state: sections, the bundle packer per code section, labels and their
//! addresses, data fixups; and the final encoding once every symbol has a value.

use super::assembler::{display_name, Assembler, Chunk, EarlyEnv, FinalEnv, InsnRec, SectionState, SymDef};
use super::bundler::{DiagnosticKind, PendingInsn, PlacedBundle, SlotFill};
use super::expr::{Expr, SymbolEnv};
use super::matcher::{match_insn, Value};
use super::reloc::{reloc_type, split, Field, Reloc};
use super::syntax::{InsnSyntax, Operand, Reg, Statement, StmtKind};
use super::{Assembly, ListingEntry};
use crate::bundle::{Bundle, SlotUnit};
use crate::decode::decode_bundle;
use crate::encode::encode;
use crate::format::{format_slot, NoSymbols};
use crate::table::{table, Raw};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::{Binding, Image, Section, SectionKind, SourceMap, Symbol, SymbolKind};
use emu_core::memory::Endian;
use std::collections::HashMap;

impl Assembler {
    pub fn statement(&mut self, stmt: Statement) {
        let loc = stmt.loc.clone();
        match stmt.kind {
            StmtKind::Label(name) => self.label(&name, &loc),
            StmtKind::Tag(name) => {
                let cur = self.current;
                let index = self.sections[cur].insns.len();
                self.define(&name, SymDef::Insn { section: cur, index, slot_offset: true }, &loc, false);
            }
            StmtKind::Assign(name, expr) => self.assign(&name, &expr, &loc),
            StmtKind::Insn(syn) => self.insn(&syn, &loc),
            StmtKind::Stop if !self.auto_stop(&loc) => {}
            StmtKind::Stop => {
                let sec = self.sec();
                if sec.kind == SectionKind::Code {
                    sec.bundler.stop();
                    self.dv.stop();
                }
            }
            StmtKind::Directive(name, args) => self.directive(&name, &args, &loc),
            StmtKind::BundleOpen | StmtKind::BundleClose => {
                let open = matches!(stmt.kind, StmtKind::BundleOpen);
                // gas's messages for unbalanced braces (warnings; a `{` left open is an error
                // at the end of input).
                let was_open = self.manual_open.is_some();
                if open == was_open {
                    let text = if open {
                        "Found '{' when manual bundling is already turned on"
                    } else {
                        "Found '}' when manual bundling is off"
                    };
                    self.warnings.push(Diagnostic::warning(loc.clone(), text));
                    return;
                }
                self.manual_open = open.then(|| loc.clone());
                let sec = self.sec();
                if sec.kind == SectionKind::Code {
                    if open {
                        sec.bundler.open_manual();
                    } else {
                        sec.bundler.close_manual();
                    }
                }
                self.brace_mode_switch(open, &loc);
                if !open {
                    self.manual_close();
                }
                // The unwind regions count a manual bundle's filler slots (issue 13).
                let cur = self.current;
                if !open && !self.sections[cur].insns.is_empty() {
                    let last = self.sections[cur].insns.len() - 1;
                    self.obj.manual_ends.insert((cur, last));
                }
            }
        }
    }

    fn label(&mut self, name: &str, loc: &SourceLoc) {
        let cur = self.current;
        if self.sections[cur].kind == SectionKind::Code {
            let index = self.sections[cur].insns.len();
            self.define(name, SymDef::Insn { section: cur, index, slot_offset: false }, loc, false);
            self.sections[cur].pending_labels.push(name.to_string());
            self.dv.label(display_name(name));
        } else {
            let at = self.sections[cur].size;
            self.define(name, SymDef::At(cur, at), loc, false);
        }
    }

    fn insn(&mut self, syn: &InsnSyntax, loc: &SourceLoc) {
        // `ld8.mov` is `ld8` plus a relocation (issue 13: `rest_reloc.rs`).
        let (syn, ldxmov) = match super::rest_reloc::ldxmov_pseudo(syn) {
            Ok(Some((plain, e))) => (std::borrow::Cow::Owned(plain), Some(e)),
            Ok(None) => (std::borrow::Cow::Borrowed(syn), None),
            Err(d) => {
                self.errors.push(d);
                return;
            }
        };
        let syn: &InsnSyntax = &syn;
        let cur = self.current;
        if self.sections[cur].kind != SectionKind::Code {
            self.errors.push(Diagnostic::error(
                loc.clone(),
                format!("instruction `{}` in non-code section `{}`", syn.mnemonic.value, self.sections[cur].name),
            ));
            return;
        }
        let mut matched = match match_insn(syn, &EarlyEnv { asm: self }) {
            Ok(m) => m,
            Err(d) => {
                self.errors.push(d);
                return;
            }
        };
        for v in &matched.values {
            if let Value::Later(e, _) = v {
                for s in e.symbols() {
                    self.obj.note(s);
                }
            }
        }
        // r0, f0 and f1 are constants; gas warns (and still assembles) when one is a target.
        for o in &syn.outputs {
            let name = match o.value {
                Operand::Reg(Reg::Gr(0)) if !matched.kind_is_compare() => "r0",
                Operand::Reg(Reg::Fr(0)) => "f0",
                Operand::Reg(Reg::Fr(1)) => "f1",
                _ => continue,
            };
            self.warnings.push(Diagnostic::warning(loc.clone(), format!("Invalid use of `{name}' as output operand")));
        }
        // The FP load pairs need f1 and f2 in different banks (one odd, one even). gas checks
        // only f2..f127: the same register twice, two static (f2-f31) or two rotating registers
        // of one parity are invalid; a static with a rotating one is "dangerous" whatever the
        // parity, since the rotation decides the physical register.
        let fr_out = |i: usize| match syn.outputs.get(i).map(|o| &o.value) {
            Some(Operand::Reg(Reg::Fr(n))) => Some(*n),
            _ => None,
        };
        if matched.is_fp_pair() {
            if let (Some(a), Some(b)) = (fr_out(0), fr_out(1)) {
                if a >= 2 && b >= 2 {
                    let text = if a == b {
                        Some(format!("Invalid duplicate use of `f{a}'"))
                    } else if (a < 32) != (b < 32) {
                        Some(format!("Dangerous simultaneous use of `f{a}' and `f{b}'"))
                    } else if (a ^ b) & 1 == 0 {
                        Some(format!("Invalid simultaneous use of `f{a}' and `f{b}'"))
                    } else {
                        None
                    };
                    if let Some(text) = text {
                        self.warnings.push(Diagnostic::warning(loc.clone(), text));
                    }
                }
            }
        }
        // gas keeps only the multiple of 64 of an lfetch.count stride, and says so.
        if matched.has_unaligned_stride() {
            self.warnings
                .push(Diagnostic::warning(loc.clone(), "stride must be a multiple of 64; lower 6 bits ignored"));
        }

        let template = self.user_template.take();
        self.manual_note_insn(template);
        self.sections[cur].pad_to_bundle();
        let placement = matched.placement;
        if placement == super::bundler::Placement::First && self.sections[cur].bundler.pending() > 0 {
            self.dv.stop();
        }
        // gas names `ld8.mov` in its dependency messages (issue 13, ltoff22x).
        if ldxmov.is_some() {
            matched.gas_name.push_str(".mov");
        }
        let facts = super::dv_feed::facts(&matched);
        // Automatic mode resolves the dependencies before the instruction is queued; a
        // must-be-first instruction's stop comes before what it inserts.
        let mut first_stop = true;
        if self.mode.automatic() {
            if let Some(n) = super::dv_feed::rotating_size(&matched) {
                self.dv.set_rotating(n);
            }
            if placement == super::bundler::Placement::First {
                self.sections[cur].bundler.stop();
                first_stop = false;
            }
            let actions = self.dv.auto_insn(&facts.insn(&matched, loc));
            self.apply_auto(&actions, loc);
        }
        let sec = &mut self.sections[cur];
        let labelled = !sec.pending_labels.is_empty();
        sec.pending_labels.clear();
        sec.bundler.push_inner(PendingInsn { class: matched.class, placement }, labelled, template, first_stop);
        if self.mode.warns() {
            let warnings = self.dv.insn(&facts.insn(&matched, loc));
            self.warnings.extend(warnings);
        }
        if placement == super::bundler::Placement::Last {
            self.dv.stop();
        }
        let sec = &mut self.sections[cur];
        sec.insns.push(InsnRec { matched, loc: loc.clone(), mnemonic: syn.mnemonic.value.clone(), ldxmov });
        let index = sec.insns.len() - 1;
        self.obj.insn_added(cur, index);
    }

    /// The instructions the packer could not place as a template directive demanded.
    fn report_packing_errors(&mut self, section: usize) {
        let diagnostics = self.sections[section].bundler.take_diagnostics();
        for d in diagnostics {
            let Some(rec) = self.sections[section].insns.get(d.index) else { continue };
            if self.manual.suppressed(section, d.index) {
                continue;
            }
            // gas's wording (issue 13: `manual_checks.rs`).
            let message = match d.kind {
                DiagnosticKind::DoesNotFitTemplate { template } => {
                    format!("`{}' does not fit into {} template", rec.mnemonic, template.name())
                }
                DiagnosticKind::HintInBUnit => "`hint` cannot be used in a B slot".to_string(),
                DiagnosticKind::DoesNotFitBundle => self.leftover_message(section, d.index, &rec.mnemonic),
            };
            self.errors.push(Diagnostic::error(rec.loc.clone(), message));
        }
    }

    /// Whether `e` needs a relocation in an object file: it uses a section address other than
    /// as the difference of two addresses in one section.
    fn relocatable(&self, e: &Expr) -> bool {
        // After layout: the value must not change when the sections move (each by a different
        // amount), as for `add r=(end - 16 - start),r2` with both labels in one section.
        if !self.placed.is_empty() && !e.has_dot() {
            let at = |shift: u64| {
                let env = PlacedEnv { asm: self, shift };
                e.eval(&env)
            };
            if let (Ok(a), Ok(b)) = (at(0), at(1 << 40)) {
                return a != b;
            }
        }
        let section_of = |name: &str| match self.symbols.get(name).map(|(d, _)| d) {
            Some(SymDef::At(s, _)) | Some(SymDef::Insn { section: s, .. }) => Some(*s),
            _ => None,
        };
        if let Expr::Binary(super::expr::BinOp::Sub, a, b) = e {
            if let (Expr::Sym(x), Expr::Sym(y)) = (a.as_ref(), b.as_ref()) {
                if section_of(x).is_some() && section_of(x) == section_of(y) {
                    return false;
                }
            }
        }
        e.symbols().iter().any(|s| section_of(s).is_some())
    }

    /// Whether `name` is defined nowhere in this file: an external for the linker, as in gas
    /// (declared `.global` or not). Numeric local labels (`1f` never defined) are not.
    pub fn is_external(&self, name: &str) -> bool {
        !self.symbols.contains_key(name) && !name.contains('\u{2}')
    }

    /// Whether the field for `e` is left to the linker: it names an external symbol or uses a
    /// relocation operator; in the object file also when it needs a section's address
    /// (`target`: a branch to another section; otherwise any address not taken as a difference
    /// within one section).
    fn needs_reloc(&self, e: &Expr, object: bool, target: Option<crate::table::OpKind>, section: usize) -> bool {
        if e.symbols().iter().any(|s| self.is_external(s)) || has_reloc_fn(e) {
            return true;
        }
        if !object {
            return false;
        }
        // gas keeps a relocation against a global symbol even in its own section, so that
        // the linker may preempt it; only local symbols of the same section resolve here.
        let elsewhere =
            |s: &&str| self.globals.contains(*s) || self.placed.get(*s).is_some_and(|(sec, _)| *sec != section);
        if let Some(kind) = target {
            // A branch hint's tag has no relocation: gas resolves it within the section.
            if matches!(kind, crate::table::OpKind::Tag13 | crate::table::OpKind::Tag13b) {
                return e.symbols().iter().any(|s| self.placed.get(*s).is_some_and(|(sec, _)| *sec != section));
            }
            return e.symbols().iter().any(elsewhere);
        }
        // `x - .` with a local `x` in this section is a constant distance.
        if let Some(parts) = split(e, &EarlyEnv { asm: self }) {
            if parts.minus_dot && parts.funcs.is_empty() {
                return elsewhere(&parts.symbol.as_str());
            }
        }
        self.relocatable(e)
    }

    /// Records the relocation for `e` in `field` at `offset` of section `section` (object pass
    /// only), or reports why gas could not represent it.
    fn record_reloc(
        &mut self,
        e: &Expr,
        field: Option<Field>,
        section: usize,
        offset: u64,
        loc: &SourceLoc,
        object: bool,
    ) {
        let Some(field) = field else {
            let msg = match e.symbols().into_iter().find(|s| self.is_external(s)) {
                Some(sym) => format!(
                    "undefined symbol `{}`: this operand needs a constant and cannot take a relocation",
                    display_name(sym)
                ),
                None => "this operand needs a constant and cannot take a relocation".to_string(),
            };
            self.errors.push(Diagnostic::error(loc.clone(), msg));
            return;
        };
        let Some(parts) = split(e, &EarlyEnv { asm: self }) else {
            self.errors.push(Diagnostic::error(
                loc.clone(),
                "expression is too complex for a relocation: expected symbol + constant (or symbol - .)",
            ));
            return;
        };
        // An operator the field has no relocation for: gas warns and relocates the plain value
        // (issue 13: `rest_reloc.rs`).
        let chosen = match reloc_type(&parts.funcs, field, parts.minus_dot) {
            Err(m) => match super::rest_reloc::inexpressible(&parts.funcs, field, parts.minus_dot) {
                Some(name) => {
                    if object {
                        self.warnings
                            .push(Diagnostic::warning(loc.clone(), format!("Cannot express {name} relocation")));
                    }
                    reloc_type(&[], field, false).map_err(|_| m)
                }
                None => Err(m),
            },
            ok => ok,
        };
        match chosen {
            Ok(r_type) if object => {
                let local = self.placed.get(&parts.symbol).copied();
                let global = self.globals.contains(&parts.symbol);
                self.relocs.push(Reloc {
                    global,
                    section,
                    offset,
                    r_type,
                    symbol: parts.symbol,
                    local,
                    addend: parts.addend,
                    loc: loc.clone(),
                });
            }
            Ok(_) => {}
            Err(m) => self.errors.push(Diagnostic::error(loc.clone(), m)),
        }
    }

    /// Ends assembly: flush, lay sections out, assign symbol values, encode.
    pub fn finish(mut self) -> (Assembly, Vec<Diagnostic>) {
        if let Some(loc) = self.manual_open.take() {
            self.errors.push(Diagnostic::error(loc, "Missing '}' at end of file: this '{' is never closed"));
        }
        for i in 0..self.sections.len() {
            self.current = i;
            self.flush();
            self.settle_labels();
            self.report_packing_errors(i);
        }
        self.resolve_late_aliases();
        // .text at 0, the others after it in order of first use, each aligned.
        let mut bases = vec![0u64; self.sections.len()];
        let mut next = 0u64;
        let order: Vec<usize> = std::iter::once(0).chain(1..self.sections.len()).collect();
        for &i in &order {
            let a = self.sections[i].align.max(1);
            next = next.div_ceil(a) * a;
            bases[i] = next;
            next += self.sections[i].size;
        }
        let mut values = HashMap::new();
        for (name, (def, _)) in &self.symbols {
            let v = match *def {
                SymDef::Abs(v) => Some(v),
                SymDef::At(s, off) => Some(bases[s] + off),
                SymDef::Insn { section, index, slot_offset } => {
                    let sec = &self.sections[section];
                    sec.bundler.location(index).and_then(|l| {
                        let off = sec.bundle_offsets.get(l.bundle)?;
                        Some(bases[section] + off + if slot_offset { l.slot as u64 } else { 0 })
                    })
                }
            };
            if let Some(v) = v {
                values.insert(name.clone(), v);
                let sec = match def {
                    SymDef::Abs(_) => None,
                    SymDef::At(s, _) | SymDef::Insn { section: s, .. } => Some(*s),
                };
                if let Some(s) = sec {
                    self.placed.insert(name.clone(), (s, v.wrapping_sub(bases[s])));
                }
            }
        }
        let unwind = super::object::resolve::resolve_unwind(&self.obj.procs, &self.sections, &self.obj.manual_ends);
        let mut image = Image::new(Endian::Little);
        let mut listing = Vec::new();
        let mut source_map = SourceMap::new();
        let sections = std::mem::take(&mut self.sections);
        let mut object = Vec::new();
        for (si, sec) in sections.iter().enumerate() {
            let data = self.render(si, sec, bases[si], &values, &mut listing, &mut source_map, false);
            let errors = self.errors.len();
            // Encoded at the image addresses so that displacements within the section come out
            // the same; relocation offsets are taken relative to the section.
            let obj = self.render(si, sec, bases[si], &values, &mut Vec::new(), &mut SourceMap::new(), true);
            self.errors.truncate(errors);
            image.sections.push(Section {
                name: sec.name.clone(),
                addr: bases[si],
                data,
                kind: sec.kind,
                align: sec.align,
            });
            // The object file names sections and symbols by their `.secalias`/`.alias` names.
            let obj_name = self.sec_aliases.get(&sec.name).unwrap_or(&sec.name).clone();
            object.push(Section { name: obj_name, addr: 0, data: obj, kind: sec.kind, align: sec.align });
        }
        let mut names: Vec<&String> = values.keys().collect();
        names.sort_by_key(|n| (values.get(*n).copied().unwrap_or(0), (*n).clone()));
        for name in names {
            if name.contains('\u{2}') {
                continue;
            }
            let Some((def, _)) = self.symbols.get(name) else {
                continue;
            };
            let section = match def {
                SymDef::Abs(_) => None,
                SymDef::At(s, _) | SymDef::Insn { section: s, .. } => Some(*s),
            };
            let value = values.get(name).copied().unwrap_or(0);
            let global = self.globals.contains(name);
            image.symbols.push(Symbol {
                name: name.clone(),
                value,
                section,
                binding: if global { Binding::Global } else { Binding::Local },
                kind: if section.is_none() { SymbolKind::Absolute } else { SymbolKind::Label },
                size: 0,
            });
        }
        image.source_map = source_map;
        let errors = std::mem::take(&mut self.errors);
        let mut relocs = std::mem::take(&mut self.relocs);
        for r in &mut relocs {
            if let Some(a) = self.sym_aliases.get(&r.symbol) {
                r.symbol = a.clone();
            }
        }
        // The object writer consumes the same relocations (one model for both).
        let (elf, elf_errors) =
            super::object::resolve::parts(&mut self, &sections, &object, &bases, &values, unwind, &relocs);
        let warnings = std::mem::take(&mut self.warnings);
        (Assembly { image, object, warnings, listing, relocs, elf, elf_errors }, errors)
    }

    #[allow(clippy::too_many_arguments)] // the two passes differ only in base and `object`
    fn render(
        &mut self,
        si: usize,
        sec: &SectionState,
        base: u64,
        values: &HashMap<String, u64>,
        listing: &mut Vec<ListingEntry>,
        map: &mut SourceMap,
        object: bool,
    ) -> Vec<u8> {
        let mut out = Vec::with_capacity(sec.size as usize);
        self.render_base = base;
        for chunk in &sec.chunks {
            match chunk {
                Chunk::Data(bytes) => out.extend_from_slice(bytes),
                Chunk::Bundle(b) => {
                    let ip = base + out.len() as u64;
                    let bytes = self.encode_bundle(si, sec, b, ip, values, object);
                    if let Ok(decoded) = decode_bundle(bytes) {
                        for slot in 0..3u8 {
                            let rec = match b.slots[slot as usize] {
                                SlotFill::Insn { index, unit } if unit != SlotUnit::X => sec.insns.get(index),
                                _ => None,
                            };
                            if let Some(r) = rec {
                                map.insert(ip + u64::from(slot), r.loc.clone());
                            }
                            listing.push(ListingEntry {
                                addr: ip,
                                slot,
                                bytes,
                                template: b.template,
                                text: format_slot(&decoded, slot as usize, ip, &NoSymbols).unwrap_or_default(),
                                loc: rec.map(|r| r.loc.clone()),
                                source: None,
                            });
                        }
                    }
                    out.extend_from_slice(&bytes);
                }
            }
        }
        for fx in &sec.fixups {
            let env = FinalEnv { values, dot: base + fx.offset };
            // `sym - L` (issue 13: `rest_reloc.rs`).
            let pcrel = self.label_difference(&fx.expr, si, fx.offset);
            let expr = pcrel.as_ref().unwrap_or(&fx.expr);
            if self.needs_reloc(expr, object, None, si) {
                let before = self.relocs.len();
                self.record_reloc(expr, Some(Field::Data(fx.size)), si, fx.offset, &fx.loc, object);
                if fx.big_endian {
                    super::rest::to_msb_relocs(&mut self.relocs[before..], &mut self.errors, &fx.loc);
                }
                continue;
            }
            match fx.expr.eval(&env) {
                Ok(v) => {
                    // data16 holds the value sign-extended to 128 bits.
                    let mut le = (i128::from(v) as u128).to_le_bytes();
                    if fx.big_endian {
                        le[..fx.size.min(16)].reverse();
                    }
                    let start = fx.offset as usize;
                    if let (Some(dst), Some(src)) = (out.get_mut(start..start + fx.size), le.get(..fx.size)) {
                        dst.copy_from_slice(src);
                    }
                }
                Err(e) => self.errors.push(Diagnostic::error(fx.loc.clone(), e.to_string())),
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)] // as `render`
    fn encode_bundle(
        &mut self,
        si: usize,
        sec: &SectionState,
        b: &PlacedBundle,
        ip: u64,
        values: &HashMap<String, u64>,
        object: bool,
    ) -> [u8; 16] {
        let units = b.template.units();
        let mut slots = [0u64; 3];
        for s in 0..3 {
            let unit = units[s];
            let raw = match b.slots[s] {
                SlotFill::Nop => match unit {
                    SlotUnit::L => continue,
                    _ => filler_nop(unit),
                },
                SlotFill::Insn { unit: SlotUnit::L, .. } => continue,
                SlotFill::Insn { index, unit } => match sec.insns.get(index) {
                    Some(rec) => match self.encode_insn(si, rec, (unit, s), ip, values, object) {
                        Some(raw) => raw,
                        None => continue,
                    },
                    None => continue,
                },
            };
            if unit == SlotUnit::X {
                slots[1] = raw.long;
            }
            slots[s] = raw.slot;
        }
        Bundle { template: b.template, slots }.to_bytes()
    }

    fn encode_insn(
        &mut self,
        si: usize,
        rec: &InsnRec,
        (unit, slot): (SlotUnit, usize),
        ip: u64,
        values: &HashMap<String, u64>,
        object: bool,
    ) -> Option<Raw> {
        let Some(row) = rec.matched.rows.for_unit(unit) else {
            self.errors
                .push(Diagnostic::error(rec.loc.clone(), format!("instruction does not fit a {} slot", unit.letter())));
            return None;
        };
        let env = FinalEnv { values, dot: ip };
        let kinds: Vec<crate::table::OpKind> = table().form(row).operands().collect();
        let mut vals = Vec::with_capacity(rec.matched.values.len());
        for (i, v) in rec.matched.values.iter().enumerate() {
            match v {
                // gas takes a plain number as a branch target for the displacement itself
                // (`br.few 0x40` at 0x20 goes to 0x60; objdump shows `(p6) brl.cond.sptk.few
                // 0x10` for `brl.cond.sptk.few 0` at 0x10), so the target is ip + value.
                Value::Known(k) if kinds.get(i).is_some_and(|k| k.spec().class == crate::table::OpClass::Target) => {
                    vals.push((ip as i64).wrapping_add(*k))
                }
                Value::Known(k) => vals.push(*k),
                // A field for the linker (an external symbol, a relocation operator; in the
                // object file also a section address) holds zero as in gas: no displacement
                // for an IP-relative one. `movl`/`brl` relocate slot 1, as gas counts them.
                Value::Later(e, loc)
                    if self.needs_reloc(
                        self.label_difference(e, si, ip - self.render_base).as_ref().unwrap_or(e),
                        object,
                        kinds.get(i).copied().filter(|k| k.spec().class == crate::table::OpClass::Target),
                        si,
                    ) =>
                {
                    let kind = kinds.get(i).copied();
                    let target = kind.is_some_and(|k| k.spec().class == crate::table::OpClass::Target);
                    let field = kind.and_then(|k| Field::of_operand(k, unit));
                    let at = if unit == SlotUnit::X { 1 } else { slot as u64 };
                    // `sym - L` (issue 13: `rest_reloc.rs`).
                    let pcrel = self.label_difference(e, si, ip - self.render_base);
                    self.record_reloc(pcrel.as_ref().unwrap_or(e), field, si, ip - self.render_base + at, loc, object);
                    vals.push(if target { ip as i64 } else { 0 });
                }
                Value::Later(e, loc) => match e.eval(&env) {
                    Ok(k) => vals.push(k),
                    Err(err) => {
                        self.errors.push(Diagnostic::error(loc.clone(), undefined_message(&err)));
                        return None;
                    }
                },
            }
        }
        if let (Some(e), true) = (&rec.ldxmov, object) {
            self.ldxmov_reloc(e, si, ip - self.render_base + slot as u64, &rec.loc);
        }
        match encode(row, rec.matched.comp_bits, rec.matched.qp, &vals, ip) {
            Ok(raw) => Some(raw),
            Err(e) => {
                let loc = match &e {
                    crate::encode::EncodeError::Operand { index, .. } => rec
                        .matched
                        .values
                        .get(*index)
                        .and_then(|v| match v {
                            Value::Later(_, l) => Some(l.clone()),
                            Value::Known(_) => None,
                        })
                        .unwrap_or_else(|| rec.loc.clone()),
                    _ => rec.loc.clone(),
                };
                self.errors.push(Diagnostic::error(loc, e.to_string()));
                None
            }
        }
    }
}

/// Symbol values with every section `s` moved by `(s + 1) * shift`.
struct PlacedEnv<'a> {
    asm: &'a Assembler,
    shift: u64,
}

impl SymbolEnv for PlacedEnv<'_> {
    fn symbol(&self, name: &str) -> Option<u64> {
        if let Some(&(s, off)) = self.asm.placed.get(name) {
            return Some(off.wrapping_add((s as u64 + 1).wrapping_mul(self.shift)));
        }
        match self.asm.symbols.get(name)?.0 {
            SymDef::Abs(v) => Some(v),
            _ => None,
        }
    }
    fn dot(&self) -> Option<u64> {
        None
    }
}

/// Whether `e` uses a relocation operator (`@gprel(x)` ...).
fn has_reloc_fn(e: &Expr) -> bool {
    match e {
        Expr::RelocFn(..) => true,
        Expr::Unary(_, x) => has_reloc_fn(x),
        Expr::Binary(_, a, b) => has_reloc_fn(a) || has_reloc_fn(b),
        _ => false,
    }
}

fn undefined_message(err: &super::expr::ExprError) -> String {
    match err {
        super::expr::ExprError::UndefinedSymbol(name) => {
            format!("undefined symbol `{}`", display_name(name))
        }
        other => other.to_string(),
    }
}

/// The encoding of the filler nop of `unit` (`nop.m 0` ...).
fn filler_nop(unit: SlotUnit) -> Raw {
    let name = match unit {
        SlotUnit::M => "nop.m",
        SlotUnit::I => "nop.i",
        SlotUnit::F => "nop.f",
        SlotUnit::B => "nop.b",
        SlotUnit::L | SlotUnit::X => "nop.x",
    };
    let t = table();
    let idx = t.forms.iter().position(|f| f.name == name).unwrap_or(0);
    // `nop.<unit> 0` has only fixed bits and a zero immediate, so it cannot fail to encode.
    encode(idx as u16, 0, 0, &[0], 0).unwrap_or_default()
}
