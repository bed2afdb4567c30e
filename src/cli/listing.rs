//! The assembler listing: one line per slot with address, bundle bytes, template,
//! disassembly and the source line it came from.

use arch_ia64::asm::ListingEntry;
use std::fmt::Write;

/// Renders `entries` as
/// `ADDR.SLOT  BUNDLE BYTES (slot 0 only)  [TEMPLATE]  DISASSEMBLY  ; FILE:LINE  SOURCE`.
pub fn render(entries: &[ListingEntry]) -> String {
    let text_width = entries.iter().map(|e| insn_text(&e.text).len()).max().unwrap_or(0);
    let mut out = String::new();
    for e in entries {
        let (bytes, template) = if e.slot == 0 {
            (e.bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(), format!("[{}]", e.template))
        } else {
            (String::new(), String::new())
        };
        let _ = write!(out, "{:>8x}.{}  {bytes:32}  {template:9}  {:text_width$}", e.addr, e.slot, insn_text(&e.text));
        if let Some(loc) = &e.loc {
            let _ = write!(out, "  ; {loc}");
            if let Some(src) = &e.source {
                let _ = write!(out, "  {}", src.trim());
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out
}

/// The slot text without objdump's `[MII]` marker and padding (the template has its own
/// column, with stops).
fn insn_text(text: &str) -> &str {
    let t = text.trim_start();
    let t = match t.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
        Some((_, after)) => after,
        None => t,
    };
    t.trim()
}
