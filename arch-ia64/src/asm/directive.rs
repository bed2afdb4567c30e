//! Directives: sections, alignment, symbols, data, predicate relations, template
//! selection; unwind and bookkeeping directives are accepted and have no effect on code.

use super::assembler::{display_name, Assembler, Chunk, EarlyEnv, Fixup, SectionState, SymDef};
use super::bundler::{AlignError, MAX_PADDING_BUNDLES};
use super::expr::Expr;
use super::syntax::{DirArg, Located, Reg};
use crate::bundle::Template;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;

/// Directives that describe symbols' types or file metadata: they do not change the code,
/// so they are accepted and ignored. (The unwind directives go to the object writer first:
/// `object/unwind_dirs.rs`.)
const IGNORED: &[&str] = &[
    ".type",
    ".size",
    ".file",
    ".ident",
    ".hidden",
    ".protected",
    ".internal",
    ".regstk",
    ".psr",
    ".loc",
    ".local",
    // kernel dialect (issue 13): rotating register names are the parser's; `.secalias`/`.alias`
    // rename symbols in the object file's symbol table.
    ".rotr",
    ".rotp",
    ".rotf",
];

const TEMPLATES: &[(&str, Template)] = &[
    (".mii", Template::MII),
    (".mlx", Template::MLX),
    (".mmi", Template::MMI),
    (".mfi", Template::MFI),
    (".mmf", Template::MMF),
    (".mib", Template::MIB),
    (".mbb", Template::MBB),
    (".bbb", Template::BBB),
    (".mmb", Template::MMB),
    (".mfb", Template::MFB),
];

fn data_size(name: &str) -> Option<usize> {
    let base = name.strip_suffix(".ua").unwrap_or(name);
    Some(match base {
        "data1" | ".byte" => 1,
        "data2" | ".short" | ".2byte" | ".hword" | ".half" => 2,
        "data4" | ".long" | ".int" | ".4byte" | ".word" => 4,
        "data8" | ".quad" | ".8byte" | ".xword" => 8,
        "data16" => 16,
        // Floating literals arrive as their IEEE bits (the parser converts them).
        "real4" | ".float" | ".single" => 4,
        "real8" | ".double" => 8,
        _ => return None,
    })
}

impl Assembler {
    /// `name = expr` (and `.set`/`.equ`): `.` is section-relative, other values must be
    /// absolute now or resolve at the end (`late_alias`).
    pub fn assign(&mut self, name: &str, expr: &Expr, loc: &SourceLoc) {
        let cur = self.current;
        let dot = self.sections[cur].dot();
        // `.` is section-relative; other symbols must already be absolute.
        if let Expr::Dot = expr {
            self.define(name, SymDef::At(cur, dot), loc, true);
            return;
        }
        match expr.eval(&EarlyEnv { asm: self }) {
            Ok(v) => self.define(name, SymDef::Abs(v as u64), loc, true),
            Err(_) if self.defer_alias(name, expr, loc) => {}
            Err(e) => self
                .errors
                .push(Diagnostic::error(loc.clone(), format!("cannot evaluate `{}`: {e}", display_name(name)))),
        }
    }

    /// Handles one directive statement.
    pub fn directive(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) {
        if let Some((_, t)) = TEMPLATES.iter().find(|(n, _)| *n == name) {
            match args.first() {
                Some(a) => self.error(&a.loc, format!("`{name}` takes no operands")),
                None => self.user_template = Some(*t),
            }
            return;
        }
        if name == ".save" && args.len() != 2 {
            self.error(loc, "`.save` needs the saved register and where it is saved (`.save ar.pfs, r34`)");
            return;
        }
        // gas's checks of where unwind directives may stand (issue 13: `rest_unwind.rs`).
        if self.unwind_context(name, args, loc) {
            return;
        }
        // ELF object writer (issue 13): unwind records, symbol attributes, natural data alignment.
        if self.object_directive(name, args, loc) {
            return;
        }
        // remaining directives (issue 13): byte order, `.xreal*`/`.xstring*`, `real10`/`real16`...
        if self.rest_directive(name, args, loc) {
            return;
        }
        if IGNORED.contains(&name) {
            return;
        }
        if let Some(size) = data_size(name) {
            // gas aligns data to its size, except the `.ua` and `.Nbyte` spellings and the
            // generic float directives (`.float`, `.single`, `.double`; `real4`/`real8` align).
            let aligned = !name.ends_with(".ua")
                && !matches!(name, ".2byte" | ".4byte" | ".8byte" | ".float" | ".single" | ".double");
            self.data(size, aligned, args, loc);
            return;
        }
        match name {
            ".text" => self.switch_to(".text", None, loc),
            ".data" => self.switch_to(".data", None, loc),
            ".bss" => self.switch_to(".bss", None, loc),
            ".rodata" => self.switch_to(".rodata", None, loc),
            ".section" | ".pushsection" => {
                let Some(sec_name) = args.first().and_then(|a| section_name(&a.value)) else {
                    self.error(loc, format!("`{name}` needs a section name"));
                    return;
                };
                let flags = args.get(1).and_then(|a| match &a.value {
                    DirArg::Str(s) => Some(s.clone()),
                    _ => None,
                });
                if name == ".pushsection" {
                    self.section_stack.push(self.current);
                }
                self.switch_to(&sec_name, flags.as_deref(), loc);
            }
            ".popsection" => match self.section_stack.pop() {
                Some(s) => self.switch_index(s),
                None => self.error(loc, "`.popsection` without `.pushsection`"),
            },
            ".previous" => self.switch_index(self.previous),
            ".align" | ".balign" | ".p2align" => {
                let Some(n) = self.const_arg(args, 0, loc, name) else {
                    return;
                };
                let bytes = if name == ".p2align" {
                    // gas: "alignment too large"; 1 << 64 and up does not exist.
                    match u32::try_from(n).ok().and_then(|s| 1u64.checked_shl(s)) {
                        Some(b) => b,
                        None => {
                            self.error(loc, format!("`.p2align` {n} out of range: expected 0..63"));
                            return;
                        }
                    }
                } else {
                    n as u64
                };
                self.align(bytes, loc, name);
            }
            ".proc" => {
                // gas's checks of the names (issue 13: `rest_unwind.rs`).
                let names = self.proc_names(args, loc);
                self.align(16, loc, name);
                self.proc_begin(&names);
            }
            ".endp" => {
                self.flush();
                self.settle_labels();
                self.proc_end();
            }
            ".global" | ".globl" | ".weak" => {
                for a in args {
                    if let DirArg::Expr(Expr::Sym(s)) = &a.value {
                        self.obj.note(s);
                        self.globals.insert(s.clone());
                    }
                }
            }
            ".set" | ".equ" | ".equiv" => match (args.first().map(|a| &a.value), args.get(1)) {
                (Some(DirArg::Expr(Expr::Sym(sym))), Some(val)) => match &val.value {
                    DirArg::Expr(e) => {
                        let sym = sym.clone();
                        let e = e.clone();
                        self.assign(&sym, &e, loc);
                    }
                    _ => self.error(&val.loc, format!("`{name}` needs an expression")),
                },
                _ => self.error(loc, format!("`{name}` needs a symbol and an expression")),
            },
            ".secalias" | ".alias" => {
                let target = args.first().and_then(|a| section_name(&a.value));
                let alias = match args.get(1).map(|a| &a.value) {
                    Some(DirArg::Str(s)) => Some(s.clone()),
                    _ => None,
                };
                match (target, alias) {
                    // gas's duplicate checks (issue 13): `alias_dup.rs`.
                    (Some(t), Some(a)) => self.set_alias(name == ".secalias", t, a, loc),
                    _ => self.error(loc, format!("`{name}` needs a name and a string (`{name} name, \"alias\"`)")),
                }
            }
            ".xdata1" | ".xdata2" | ".xdata4" | ".xdata8" | ".xdata16" => self.xdata(name, args, loc),
            ".org" => self.org(args, loc),
            ".fill" => self.fill(args, loc),
            ".incbin" => self.incbin(args, loc),
            ".skip" | ".space" => {
                let Some(n) = self.const_arg(args, 0, loc, name) else {
                    return;
                };
                let fill = if args.len() > 1 { self.const_arg(args, 1, loc, name).unwrap_or(0) } else { 0 };
                if !(0..=(1 << 24)).contains(&n) {
                    self.error(loc, format!("`{name}` size {n} out of range: expected 0..16777216"));
                    return;
                }
                if self.reserve_output(n as u64, loc, name) {
                    self.raw_data(vec![fill as u8; n as usize], loc);
                }
            }
            ".ascii" | ".asciz" | ".string" | "string" | "stringz" => {
                self.string_data(name, args, name != ".ascii" && name != "string", loc)
            }
            ".pred.rel" | ".pred.rel.mutex" | ".pred.rel.clear" | ".pred.rel.imply" | ".pred.safe_across_calls" => {
                self.pred_rel(name, args, loc)
            }
            ".auto" | ".explicit" | ".default" => self.mode_directive(name, loc),
            ".serialize.data" | ".serialize.instruction" => self.dv.serialize(name == ".serialize.instruction"),
            ".mem.offset" => {
                if let Some(off) = self.const_arg(args, 0, loc, name) {
                    self.dv.mem_offset(off as u64);
                }
            }
            _ => self.error(loc, format!("unknown directive `{name}`")),
        }
    }

    /// The string directives (`.ascii`, `.string`, `.xstring`, ...): each string's bytes, NUL
    /// terminated when `zero`; a non-string argument is an error naming the directive.
    pub(super) fn string_data(&mut self, name: &str, args: &[Located<DirArg>], zero: bool, loc: &SourceLoc) {
        let mut bytes = Vec::new();
        for a in args {
            match &a.value {
                DirArg::Str(s) => {
                    bytes.extend(s.chars().map(|c| c as u32 as u8));
                    if zero {
                        bytes.push(0);
                    }
                }
                _ => self.error(&a.loc, format!("`{name}` needs strings")),
            }
        }
        self.raw_data(bytes, loc);
    }

    pub(super) fn error(&mut self, loc: &SourceLoc, msg: impl Into<String>) {
        self.errors.push(Diagnostic::error(loc.clone(), msg));
    }

    pub(super) fn const_arg(&mut self, args: &[Located<DirArg>], i: usize, loc: &SourceLoc, name: &str) -> Option<i64> {
        let Some(arg) = args.get(i) else {
            self.error(loc, format!("`{name}` needs an argument"));
            return None;
        };
        let DirArg::Expr(e) = &arg.value else {
            self.error(&arg.loc, format!("`{name}` needs a constant expression"));
            return None;
        };
        // Looked up in place: collecting the symbols per directive made a file with many
        // labels and many `.skip`s quadratic.
        let value = e.eval(&EarlyEnv { asm: self });
        match value {
            Ok(v) => Some(v),
            // A difference of addresses in the current section is a constant too
            // (`.space table + 8*N - ., 0`).
            Err(_) if self.section_constant(e).is_some() => self.section_constant(e),
            Err(err) => {
                self.error(&arg.loc, format!("`{name}` needs a constant: {err}"));
                None
            }
        }
    }

    /// Counts `bytes` more of output against the output size limit; past it, reports the
    /// directive at `loc` and returns false so the caller adds nothing.
    fn reserve_output(&mut self, bytes: u64, loc: &SourceLoc, name: &str) -> bool {
        let total = self.output_bytes.saturating_add(bytes);
        if total > self.max_output {
            let limit = self.max_output;
            self.error(
                loc,
                format!(
                    "`{name}` would bring the output to {total} bytes, over the output size limit of {limit} bytes \
                     (raise it with --max-output-size)"
                ),
            );
            return false;
        }
        self.output_bytes = total;
        true
    }

    fn switch_to(&mut self, name: &str, flags: Option<&str>, _loc: &SourceLoc) {
        let idx = self.section_id(name, flags);
        self.switch_index(idx);
    }

    /// The index of section `name`, created (with `flags` deciding its kind) on first use.
    pub(super) fn section_id(&mut self, name: &str, flags: Option<&str>) -> usize {
        // By name through an index: searching the list made many sections quadratic.
        match self.section_index.get(name) {
            Some(&i) => i,
            None => {
                let code = name.starts_with(".text") || flags.is_some_and(|f| f.contains('x'));
                let kind = if code {
                    SectionKind::Code
                } else if name.starts_with(".bss") || name.starts_with(".sbss") {
                    SectionKind::Bss
                } else {
                    SectionKind::Data
                };
                self.sections.push(SectionState::new_named(name, kind));
                self.section_index.insert(name.to_string(), self.sections.len() - 1);
                let idx = self.sections.len() - 1;
                self.obj.created.push(super::object::Created::Section(idx));
                if let Some(f) = flags {
                    self.obj.flags.insert(idx, f.to_string());
                }
                self.sections.len() - 1
            }
        }
    }

    pub(super) fn switch_index(&mut self, idx: usize) {
        if idx == self.current {
            return;
        }
        // R11: a section switch is a flush point; held .align padding stays undecided.
        let sec = self.sec();
        if sec.kind == SectionKind::Code {
            let had = sec.bundler.pending() > 0;
            sec.bundler.switch_section();
            sec.sync();
            if had {
                self.dv.stop();
            }
        }
        self.settle_labels();
        self.previous = self.current;
        self.current = idx;
    }

    pub(super) fn align(&mut self, bytes: u64, loc: &SourceLoc, name: &str) {
        /// The most padding one alignment directive may add (16 MiB, as in code sections).
        const MAX_PADDING_BYTES: u64 = MAX_PADDING_BUNDLES * 16;
        fn too_much_padding(bytes: u64) -> String {
            format!("alignment {bytes:#x} needs more than {MAX_PADDING_BYTES} bytes of padding")
        }
        if bytes == 0 {
            return;
        }
        if !bytes.is_power_of_two() {
            self.error(loc, format!("alignment {bytes} is not a power of 2"));
            return;
        }
        let cur = self.current;
        self.obj.note_align(cur, bytes);
        self.sections[cur].align = self.sections[cur].align.max(bytes);
        if self.sections[cur].kind == SectionKind::Code {
            self.flush();
            // R5: a label before `.align` keeps the address before the padding.
            self.settle_labels();
            if bytes > 1 {
                self.sections[cur].pad_to_bundle();
            }
            let addr = self.sections[cur].dot();
            let pad = (bytes - addr % bytes) % bytes;
            if pad <= MAX_PADDING_BYTES && !self.reserve_output(pad, loc, name) {
                return;
            }
            let sec = &mut self.sections[cur];
            match sec.bundler.align(addr, bytes) {
                Ok(_) => {}
                Err(AlignError::TooLarge(_)) => self.error(loc, too_much_padding(bytes)),
                Err(AlignError::NotPowerOfTwo(_)) => self.error(loc, format!("alignment {bytes} is not a power of 2")),
            }
        } else {
            let sec = &mut self.sections[cur];
            let pad = (bytes - sec.size % bytes) % bytes;
            // Like the code path's bound: refuse instead of allocating gigabytes of zeros
            // (`.data` then `.align 1<<62` would otherwise abort the process).
            if pad > MAX_PADDING_BYTES {
                self.error(loc, too_much_padding(bytes));
                return;
            }
            if !self.reserve_output(pad, loc, name) {
                return;
            }
            let sec = &mut self.sections[cur];
            sec.chunks.push(Chunk::Data(vec![0; pad as usize]));
            sec.size += pad;
        }
    }

    /// Appends bytes; in a code section this is a flush point and must keep bundles aligned.
    pub(super) fn raw_data(&mut self, bytes: Vec<u8>, _loc: &SourceLoc) {
        let cur = self.current;
        if self.sections[cur].kind == SectionKind::Code {
            self.flush();
        }
        self.settle_labels();
        let sec = &mut self.sections[cur];
        sec.size += bytes.len() as u64;
        sec.chunks.push(Chunk::Data(bytes));
    }

    pub(super) fn data(&mut self, size: usize, aligned: bool, args: &[Located<DirArg>], loc: &SourceLoc) {
        let start = {
            let cur = self.current;
            if self.sections[cur].kind == SectionKind::Code {
                self.flush();
            }
            self.settle_labels();
            // The padding comes after labels defined before the directive (gas: `x:` before a
            // misaligned `data8` keeps the unaligned address).
            let sec = &mut self.sections[cur];
            if aligned && size > 1 && !args.is_empty() {
                // `real10` aligns to 16 like `real16`.
                let a = (size as u64).next_power_of_two();
                let pad = (a - sec.size % a) % a;
                if pad > 0 {
                    sec.chunks.push(Chunk::Data(vec![0; pad as usize]));
                    sec.size += pad;
                }
                sec.align = sec.align.max(a);
                // The object's sh_addralign counts only what the source asked for.
                self.obj.note_align(cur, a);
            }
            self.sections[cur].size
        };
        let mut bytes = Vec::with_capacity(size * args.len());
        let big_endian = self.sections[self.current].big_endian;
        for (i, a) in args.iter().enumerate() {
            if let DirArg::Bytes(b) = &a.value {
                // `.msb` writes the whole value most significant byte first, padding after it.
                let mut v = b.clone();
                if big_endian {
                    v.reverse();
                }
                v.resize(size, 0);
                bytes.extend(v);
                continue;
            }
            let DirArg::Expr(e) = &a.value else {
                self.error(&a.loc, "data directives take expressions");
                continue;
            };
            bytes.extend(std::iter::repeat_n(0, size));
            for s in e.symbols() {
                self.obj.note(s);
            }
            let cur = self.current;
            self.sections[cur].fixups.push(Fixup {
                offset: start + (i * size) as u64,
                size,
                expr: e.clone(),
                loc: a.loc.clone(),
                big_endian,
            });
        }
        let _ = loc;
        let sec = self.sec();
        sec.size += bytes.len() as u64;
        sec.chunks.push(Chunk::Data(bytes));
    }

    /// The value of `e` if it does not depend on where the current section is placed: it is
    /// evaluated with two different section bases and must agree. Only symbols already placed
    /// (in this section) and absolute ones take part.
    fn section_constant(&mut self, e: &Expr) -> Option<i64> {
        self.flush();
        let a = e.eval(&super::assembler::SectionEnv { asm: self, base: 0 }).ok()?;
        let b = e.eval(&super::assembler::SectionEnv { asm: self, base: 1 << 40 }).ok()?;
        (a == b).then_some(a)
    }

    /// `.xdataN "section", values`: data into another section without leaving this one.
    /// Unlike a section switch it is no flush point: instructions pending here stay pending
    /// (gas bundles `[99:] ld1 ;; .xdata4 "__ex_table", 99b-. ; st1` as `ld1 ;; · st1`).
    fn xdata(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) {
        let size: usize = name.strip_prefix(".xdata").and_then(|n| n.parse().ok()).unwrap_or(1);
        self.emit_into_section(name, args, loc, |asm, rest| asm.data(size, true, rest, loc));
    }

    /// Runs `emit` with the arguments after the first, in the section the first names, then
    /// comes back (no flush point, as `.xdataN`).
    pub(super) fn emit_into_section(
        &mut self,
        name: &str,
        args: &[Located<DirArg>],
        loc: &SourceLoc,
        emit: impl FnOnce(&mut Assembler, &[Located<DirArg>]),
    ) {
        let Some(sec_name) = args.first().and_then(|a| section_name(&a.value)) else {
            self.error(loc, format!("`{name}` needs a section name"));
            return;
        };
        // gas creates .text, .data and .bss before reading the source.
        let predefined = matches!(sec_name.as_str(), ".data" | ".bss");
        if !predefined && !self.section_index.contains_key(&sec_name) {
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

    /// `.org expr[, fill]`: move the location counter forward to `expr`, an offset in the
    /// current section (`.org ia64_ivt+0x400`); padding is the fill byte (0), never nops.
    fn org(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) {
        let Some(arg) = args.first() else {
            self.error(loc, "`.org` needs an address");
            return;
        };
        let DirArg::Expr(e) = &arg.value else {
            self.error(&arg.loc, "`.org` needs an expression");
            return;
        };
        let fill = if args.len() > 1 { self.const_arg(args, 1, loc, ".org").unwrap_or(0) } else { 0 };
        self.flush();
        let base = 1u64 << 40;
        let at0 = e.eval(&super::assembler::SectionEnv { asm: self, base: 0 });
        let at1 = e.eval(&super::assembler::SectionEnv { asm: self, base });
        let target = match (at0, at1) {
            (Ok(a), Ok(b)) if b.wrapping_sub(a) as u64 == base || a == b => a as u64,
            (Err(err), _) | (_, Err(err)) => {
                self.error(&arg.loc, format!("`.org` needs an address in this section: {err}"));
                return;
            }
            _ => {
                self.error(&arg.loc, "`.org` needs an address in this section or a constant");
                return;
            }
        };
        let here = self.sections[self.current].dot();
        if target < here {
            self.error(
                &arg.loc,
                format!("`.org` {target:#x} moves the location counter backwards (it is at {here:#x})"),
            );
            return;
        }
        let pad = target - here;
        if pad > 1 << 24 {
            self.error(&arg.loc, format!("`.org` would add {pad} bytes of padding, more than 16777216"));
            return;
        }
        if self.reserve_output(pad, loc, ".org") {
            self.raw_data(vec![fill as u8; pad as usize], loc);
        }
    }

    /// `.fill repeat[, size[, value]]`: `repeat` copies of `value` in `size` bytes (size at most
    /// 8; gas writes the low 4 bytes of the value and zeros above them, little-endian).
    fn fill(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) {
        let Some(repeat) = self.const_arg(args, 0, loc, ".fill") else { return };
        let size = if args.len() > 1 { self.const_arg(args, 1, loc, ".fill").unwrap_or(1) } else { 1 };
        let value = if args.len() > 2 { self.const_arg(args, 2, loc, ".fill").unwrap_or(0) } else { 0 };
        let (Ok(repeat), Ok(size)) = (u64::try_from(repeat), usize::try_from(size)) else {
            self.error(loc, "`.fill` repeat count and size must not be negative");
            return;
        };
        let size = size.min(8);
        let total = repeat.saturating_mul(size as u64);
        if total > 1 << 24 {
            self.error(loc, format!("`.fill` of {total} bytes is more than 16777216"));
            return;
        }
        if !self.reserve_output(total, loc, ".fill") {
            return;
        }
        let mut unit = [0u8; 8];
        unit[..4].copy_from_slice(&(value as u32).to_le_bytes());
        let one = unit.get(..size).unwrap_or_default().to_vec();
        let bytes: Vec<u8> = one.iter().copied().cycle().take(total as usize).collect();
        self.raw_data(bytes, loc);
    }

    fn incbin(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) {
        let Some(DirArg::Str(file)) = args.first().map(|a| &a.value) else {
            self.error(loc, "`.incbin` needs a file name in quotes");
            return;
        };
        let skip = if args.len() > 1 { self.const_arg(args, 1, loc, ".incbin") } else { Some(0) };
        let count = if args.len() > 2 { self.const_arg(args, 2, loc, ".incbin").map(Some) } else { Some(None) };
        let (Some(skip), Some(count)) = (skip, count) else { return };
        let selected = match self.incbin_files.get(file.as_str()) {
            Some(Ok(bytes)) => super::incbin::select(bytes, skip, count).map(<[u8]>::to_vec),
            Some(Err(e)) => Err(e.clone()),
            None => Err(format!("file not found: {file}")),
        };
        match selected {
            Ok(bytes) => {
                if self.reserve_output(bytes.len() as u64, loc, ".incbin") {
                    self.raw_data(bytes, loc);
                }
            }
            Err(e) => self.error(loc, e),
        }
    }

    fn pred_rel(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) {
        let mut kind = name.strip_prefix(".pred.rel").unwrap_or("").trim_start_matches('.').to_string();
        let mut preds = Vec::new();
        for a in args {
            match &a.value {
                DirArg::Str(s) if kind.is_empty() => kind = s.clone(),
                DirArg::At(s) if kind.is_empty() => kind = s.clone(),
                DirArg::Reg(Reg::Pr(0)) => {
                    self.error(&a.loc, "p0 is always 1 and cannot be in a predicate relation");
                    return;
                }
                DirArg::Reg(Reg::Pr(p)) => preds.push(*p),
                _ => {
                    self.error(&a.loc, format!("`{name}` takes predicate registers"));
                    return;
                }
            }
        }
        if name == ".pred.safe_across_calls" {
            self.dv.pred_safe_across_calls(&preds);
            return;
        }
        match kind.as_str() {
            "mutex" => self.dv.pred_rel_mutex(&preds),
            "clear" => self.dv.pred_rel_clear(&preds),
            "imply" => {}
            other => self.error(loc, format!("unknown predicate relation `{other}`")),
        }
    }
}

fn section_name(arg: &DirArg) -> Option<String> {
    match arg {
        DirArg::Expr(Expr::Sym(s)) => Some(s.clone()),
        DirArg::Str(s) => Some(s.clone()),
        _ => None,
    }
}
