//! Completers: the dotted suffixes of a mnemonic that select a value of one field.

use super::field::Field;

/// A completer set: the spellings that may stand at one `{}` of a row's name, each with
/// the value it puts in `field`.
#[derive(Debug, Clone, Copy)]
pub struct Comp {
    /// The slot field the completer selects.
    pub field: Field,
    /// Spelling and value of each option, in display preference order. An empty spelling
    /// is the form written without this completer.
    pub opts: &'static [(&'static str, u64)],
    /// The value used when the source omits the completer and no option is spelled "".
    pub implied: Option<u64>,
}

impl Comp {
    /// The spelling objdump prints for `value`, if any option has it.
    pub fn text_of(&self, value: u64) -> Option<&'static str> {
        self.opts.iter().find(|(_, v)| *v == value).map(|(t, _)| *t)
    }
}

/// Matches `text` against name pieces interleaved with completers, returning the completer
/// bits. Tries every spelling (completers such as `.c.clr` and `.c.clr.acq` share prefixes).
pub(super) fn match_pieces(pieces: &[&str], comps: &[Comp], text: &str, bits: u64) -> Option<u64> {
    let (first, rest_pieces) = pieces.split_first()?;
    let text = text.strip_prefix(first)?;
    let Some((comp, rest_comps)) = comps.split_first() else {
        return text.is_empty().then_some(bits);
    };
    for (spelling, value) in comp.opts {
        if let Some(after) = text.strip_prefix(spelling) {
            if let Some(b) = match_pieces(rest_pieces, rest_comps, after, bits | comp.field.put(*value)) {
                return Some(b);
            }
        }
    }
    if let Some(value) = comp.implied {
        return match_pieces(rest_pieces, rest_comps, text, bits | comp.field.put(value));
    }
    None
}
