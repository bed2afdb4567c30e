//! Matching the instruction groups of two versions by content, not by position: per label, a
//! longest common subsequence of the groups' instruction texts, so that one inserted stop or
//! instruction yields rows only where the code changed, and the groups around it, however
//! their ordinals shifted, are compared with their own counterparts.

use super::{GroupCost, GroupDelta};
use std::collections::BTreeMap;

/// A group's text as code to compare: its nops left out (bundling moves them when code
/// around them changes; they do nothing) and the addresses that move when code moves taken
/// out (a branch target or a symbolized constant is `b4b0 <skip_rbs_switch>` in one version
/// and `b4d0 <skip_rbs_switch>` in the other, and is the same instruction).
pub(crate) fn content_key(text: &str) -> String {
    let insns: Vec<String> = text
        .split(" ; ")
        .map(str::trim)
        .filter(|i| !i.split_whitespace().next().is_some_and(|m| m.starts_with("nop")))
        .map(without_addresses)
        .collect();
    insns.join(" ; ")
}

/// One instruction's text without the addresses `<symbol>`s name.
fn without_addresses(text: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let words: Vec<&str> = text.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let bare = w.rsplit('=').next().unwrap_or(w);
        let hex = bare.trim_start_matches("0x");
        let is_addr = !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
        if is_addr && words.get(i + 1).is_some_and(|n| n.starts_with('<')) {
            let keep = &w[..w.len() - bare.len()];
            if !keep.is_empty() {
                out.push(keep);
            }
            continue;
        }
        out.push(w);
    }
    out.join(" ")
}

/// The pairs of equal groups of `a` and `b` (indices), in order: a longest common
/// subsequence by [`content_key`].
fn lcs(a: &[&GroupCost], b: &[&GroupCost]) -> Vec<(usize, usize)> {
    let ka: Vec<String> = a.iter().map(|g| content_key(&g.text)).collect();
    let kb: Vec<String> = b.iter().map(|g| content_key(&g.text)).collect();
    let (n, m) = (ka.len(), kb.len());
    // len[i][j]: the LCS length of ka[i..] and kb[j..].
    let mut len = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[i][j] = if ka[i] == kb[j] { len[i + 1][j + 1] + 1 } else { len[i + 1][j].max(len[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if ka[i] == kb[j] {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if len[i + 1][j] >= len[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// `#3` for one ordinal, `#3-5` for a run of them, empty for none.
fn ordinals(groups: &[&GroupCost]) -> String {
    match (groups.first(), groups.last()) {
        (Some(f), Some(l)) if f.index == l.index => format!("#{}", f.index),
        (Some(f), Some(l)) => format!("#{}-{}", f.index, l.index),
        _ => String::new(),
    }
}

/// One row: the groups `a` of A against the groups `b` of B (a matched pair, or the changed
/// run between two matches), costs per system call.
fn row(label: &str, a: &[&GroupCost], b: &[&GroupCost], per_a: f64, per_b: f64) -> GroupDelta {
    let (oa, ob) = (ordinals(a), ordinals(b));
    let place = match (oa.is_empty(), ob.is_empty()) {
        (false, false) if oa == ob => format!("{label}{oa}"),
        (false, false) => format!("{label}{oa}->{ob}"),
        (true, _) => format!("{label}{ob}"),
        (false, true) => format!("{label}{oa}"),
    };
    let join = |gs: &[&GroupCost], f: fn(&GroupCost) -> &str, sep: &str| {
        gs.iter().map(|g| f(g)).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(sep)
    };
    let cycles = |gs: &[&GroupCost], per: f64| gs.iter().fold(0.0, |sum, g| sum + g.cycles as f64) * per;
    let same_code = !a.is_empty()
        && a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| content_key(&x.text) == content_key(&y.text));
    GroupDelta {
        place,
        a_text: join(a, |g| g.text.as_str(), " ;; "),
        b_text: join(b, |g| g.text.as_str(), " ;; "),
        a: cycles(a, per_a),
        b: cycles(b, per_b),
        a_why: join(a, |g| g.why.as_str(), "; "),
        b_why: join(b, |g| g.why.as_str(), "; "),
        groups: a.len().max(b.len()),
        same_code,
    }
}

/// Every group of A and B as rows: per label (in name order), the groups both have with the
/// same code paired one to one; between two such pairs, the changed groups one to one when
/// both sides have as many, each group its own row when only one side has any, else the run
/// as one row (a stop inserted or removed, code rewritten). `per_a`/`per_b` scale a side's
/// cycles (1 / its system calls). Rows keep the labels' and the code's order; the caller
/// sorts and folds them.
pub fn align(a: &[GroupCost], b: &[GroupCost], per_a: f64, per_b: f64) -> Vec<GroupDelta> {
    let mut labels: BTreeMap<&str, (Vec<&GroupCost>, Vec<&GroupCost>)> = BTreeMap::new();
    for g in a {
        labels.entry(&g.label).or_default().0.push(g);
    }
    for g in b {
        labels.entry(&g.label).or_default().1.push(g);
    }
    let mut out = Vec::new();
    for (label, (mut ga, mut gb)) in labels {
        ga.sort_by_key(|g| g.index);
        gb.sort_by_key(|g| g.index);
        let (mut i, mut j) = (0, 0);
        for (mi, mj) in lcs(&ga, &gb).into_iter().chain([(ga.len(), gb.len())]) {
            let (gap_a, gap_b) = (&ga[i..mi], &gb[j..mj]);
            if gap_a.is_empty() || gap_b.is_empty() {
                // Groups only one side has: each is a change of its own.
                out.extend(gap_a.iter().map(|g| row(label, &[g], &[], per_a, per_b)));
                out.extend(gap_b.iter().map(|g| row(label, &[], &[g], per_a, per_b)));
            } else if gap_a.len() == gap_b.len() {
                // As many groups changed as stayed in place: each against its counterpart.
                out.extend(gap_a.iter().zip(gap_b).map(|(x, y)| row(label, &[x], &[y], per_a, per_b)));
            } else {
                out.push(row(label, gap_a, gap_b, per_a, per_b));
            }
            if mi < ga.len() && mj < gb.len() {
                out.push(row(label, &ga[mi..=mi], &gb[mj..=mj], per_a, per_b));
            }
            (i, j) = (mi + 1, mj + 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(label: &str, index: usize, text: &str, cycles: u64) -> GroupCost {
        GroupCost {
            label: label.into(),
            index,
            addr: index as u64 * 16,
            text: text.into(),
            cycles,
            runs: 1,
            why: String::new(),
        }
    }

    /// The example: a stop inserted in the middle of a label splits one group in two
    /// and shifts every later ordinal by one; only the split group differs, and the groups
    /// after it are compared with their own counterparts (the wait that absorbed the new
    /// cycle shows as the same code costing one less).
    #[test]
    fn an_inserted_stop_yields_rows_only_where_the_code_changed() {
        let a = [g("f", 0, "x", 1), g("f", 1, "y ; z", 1), g("f", 2, "w", 21), g("f", 3, "br 4b0 <g>", 3)];
        let b =
            [g("f", 0, "x", 1), g("f", 1, "y", 1), g("f", 2, "z", 1), g("f", 3, "w", 20), g("f", 4, "br 4c0 <g>", 3)];
        let rows = align(&a, &b, 1.0, 1.0);
        let got: Vec<(&str, f64, f64, bool)> = rows.iter().map(|r| (r.place.as_str(), r.a, r.b, r.same_code)).collect();
        assert_eq!(
            got,
            vec![
                ("f#0", 1.0, 1.0, true),
                ("f#1->#1-2", 1.0, 2.0, false),
                ("f#2->#3", 21.0, 20.0, true),
                ("f#3->#4", 3.0, 3.0, true)
            ]
        );
        assert_eq!(rows[1].b_text, "y ;; z");
    }

    #[test]
    fn groups_only_one_side_has_are_rows_of_their_own() {
        let a = [g("f", 0, "x", 2), g("leave", 0, "sub", 22)];
        let b = [g("f", 0, "x", 2)];
        let rows = align(&a, &b, 0.5, 0.5);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[1].place.as_str(), rows[1].a, rows[1].b, rows[1].b_text.as_str()), ("leave#0", 11.0, 0.0, ""));
    }

    #[test]
    fn moved_addresses_do_not_make_code_differ() {
        assert_eq!(content_key("movl r14=0xb540 <ia64_ret_from_syscall>"), "movl r14= <ia64_ret_from_syscall>");
        assert_eq!(
            content_key("(p2) br.cond.dpnt.many b4b0 <skip>"),
            content_key("(p2) br.cond.dpnt.many b4d0 <skip>")
        );
        assert_ne!(content_key("adds r16=80,r12"), content_key("adds r16=88,r12"));
        assert_eq!(content_key("nop.i 0x0 ; ld8 r9=[r2],24 ; nop.m 0x0"), content_key("ld8 r9=[r2],24 ; nop.i 0x0"));
    }
}
