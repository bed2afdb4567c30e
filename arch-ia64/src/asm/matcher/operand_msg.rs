//! gas's words when no form of a known mnemonic takes the operands written (issue 13,
//! gas's operands test): a count no form has, or the operand that every form with the
//! right counts (the first, on a tie) wants as a general register.

use super::fits;
use crate::asm::syntax::{Located, Operand};
use crate::table::{table, OpClass};

/// gas's message for `mnemonic` with these operands, or `None` when gas would describe the
/// operand in words this module does not know.
pub(super) fn gas_operand_error(mnemonic: &str, outs: &[Located<Operand>], ins: &[Located<Operand>]) -> Option<String> {
    let forms: Vec<_> = table().forms.iter().filter(|f| f.match_mnemonic(mnemonic).is_some()).collect();
    if forms.is_empty() {
        return None;
    }
    if !forms.iter().any(|f| f.outs.len() == outs.len()) {
        return Some("Wrong number of output operands".to_string());
    }
    let counted: Vec<_> = forms.iter().filter(|f| f.outs.len() == outs.len() && f.ins.len() == ins.len()).collect();
    if counted.is_empty() {
        return Some("Wrong number of input operands".to_string());
    }
    let written: Vec<&Operand> = outs.iter().chain(ins).map(|o| &o.value).collect();
    // The furthest operand any form got to, as gas reports the best attempt.
    let failures: Vec<(usize, OpClass)> = counted
        .iter()
        .filter_map(|f| {
            let kinds: Vec<_> = f.operands().collect();
            written.iter().zip(&kinds).position(|(op, k)| !fits(op, *k)).map(|p| (p, kinds[p].spec().class))
        })
        .collect();
    let furthest = failures.iter().map(|(p, _)| *p).max()?;
    // On a tie gas describes what its first such form wants.
    let (_, class) = failures.iter().find(|(p, _)| *p == furthest)?;
    (*class == OpClass::Gr).then(|| format!("Operand {} of `{mnemonic}' should be a general register", furthest + 1))
}
