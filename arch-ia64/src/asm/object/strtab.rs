//! String tables as BFD 2.40 builds them (`.strtab`, `.shstrtab`): each distinct string once,
//! a string that ends another one stored as that one's tail, the rest in first-added order
//! after the leading NUL.

use std::collections::HashMap;

/// A string table under construction.
#[derive(Debug, Default)]
pub(super) struct StrTab {
    strings: Vec<String>,
    index: HashMap<String, usize>,
}

/// The finished table: bytes and each string's offset.
pub(super) struct Finished {
    pub bytes: Vec<u8>,
    offsets: HashMap<String, u32>,
}

impl Finished {
    /// The offset of `s` (0 for the empty string).
    pub fn offset(&self, s: &str) -> u32 {
        self.offsets.get(s).copied().unwrap_or(0)
    }
}

impl StrTab {
    /// Adds `s` (once); the empty string is the leading NUL.
    pub fn add(&mut self, s: &str) {
        if s.is_empty() || self.index.contains_key(s) {
            return;
        }
        self.index.insert(s.to_string(), self.strings.len());
        self.strings.push(s.to_string());
    }

    /// Lays the table out. BFD sorts the strings by their reversed text, so that a string
    /// sits right before the strings it ends; walking that order from the end, each string
    /// that ends the last kept one becomes its tail.
    pub fn finish(self) -> Finished {
        let n = self.strings.len();
        let mut sorted: Vec<usize> = (0..n).collect();
        sorted.sort_by(|&a, &b| {
            let (x, y) = (self.strings[a].as_bytes(), self.strings[b].as_bytes());
            x.iter().rev().cmp(y.iter().rev())
        });
        // parent[i] = the kept string that string i is the tail of.
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut kept: Option<usize> = None;
        for &i in sorted.iter().rev() {
            match kept {
                Some(k)
                    if self.strings[k].len() > self.strings[i].len() && self.strings[k].ends_with(&self.strings[i]) =>
                {
                    parent[i] = Some(k)
                }
                _ => kept = Some(i),
            }
        }
        let mut bytes = vec![0u8];
        let mut at = vec![0u32; n];
        for i in 0..n {
            if parent[i].is_none() {
                at[i] = bytes.len() as u32;
                bytes.extend_from_slice(self.strings[i].as_bytes());
                bytes.push(0);
            }
        }
        let mut offsets = HashMap::new();
        for i in 0..n {
            let off = match parent[i] {
                Some(p) => at[p] + (self.strings[p].len() - self.strings[i].len()) as u32,
                None => at[i],
            };
            offsets.insert(self.strings[i].clone(), off);
        }
        Finished { bytes, offsets }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tail_shares_the_longer_string() {
        let mut t = StrTab::default();
        for s in [".symtab", ".strtab", ".shstrtab", ".text", ".rela.text", ".data", ".bss"] {
            t.add(s);
        }
        let f = t.finish();
        // As in GNU as's branch_long.o.
        assert_eq!(f.bytes, b"\0.symtab\0.strtab\0.shstrtab\0.rela.text\0.data\0.bss\0");
        assert_eq!(f.offset(".text"), 0x1b + 5);
        assert_eq!(f.offset(".strtab"), 9);
    }
}
