//! What a diff side is called: after the version it is, not after the side it was built
//! from (issue 18). A catalogued trace is its name; a trace or file changed by a patch is
//! `v2+ia64-v2-stop.diff`, one under other defines `v1 (-DFOO)`, and a change that makes
//! another catalogued version's build is that version. The legend says how each side was
//! built; the column heads are short forms of the names ([`head`]).

/// How one side was made: what it started from and what changed it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Origin<'a> {
    /// The catalogue name or the file it starts from (`ia64/syscall/v2`, `dir/f.S`).
    pub base: &'a str,
    /// The patch applied to it, as given on the command line.
    pub patch: Option<&'a str>,
    /// The extra `-D` definitions (`NAME` or `NAME=VALUE`).
    pub defines: &'a [String],
    /// The catalogued version the change turns out to build, when it is one other than `base`.
    pub is: Option<&'a str>,
}

/// A side's name and how it was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideName {
    /// What it is: `ia64/syscall/v2`, `v2+ia64-v2-stop.diff`, `v1 (-DFOO)`.
    pub name: String,
    /// How it was built, for the legend; empty when the name says it all (an unchanged side).
    pub built: String,
}

/// The last part of a path (`tests/data/x.diff` is `x.diff`).
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().filter(|s| !s.is_empty()).unwrap_or(path)
}

/// The short form of a catalogue name or file that starts a changed side's name: a catalogue
/// trace's last part (`v2`), a file's name (`account_sys_enter.S`).
fn stem(base: &str) -> &str {
    file_name(base)
}

/// `-DFOO -DBAR=2`.
fn define_flags(defines: &[String]) -> String {
    defines.iter().map(|d| format!("-D{d}")).collect::<Vec<_>>().join(" ")
}

/// The name and legend text of the side `o` describes.
pub fn name_side(o: &Origin<'_>) -> SideName {
    let mut how = o.base.to_string();
    if let Some(p) = o.patch {
        how.push_str(&format!(" patched by {p}"));
    }
    if !o.defines.is_empty() {
        let verb = if o.patch.is_some() { ", built with" } else { " built with" };
        how.push_str(&format!("{verb} {}", define_flags(o.defines)));
    }
    if let Some(is) = o.is.filter(|is| *is != o.base) {
        return SideName { name: is.to_string(), built: format!("{how}, the same build (its harness and counters)") };
    }
    if o.patch.is_none() && o.defines.is_empty() {
        return SideName { name: o.base.to_string(), built: String::new() };
    }
    let mut name = stem(o.base).to_string();
    if let Some(p) = o.patch {
        name.push('+');
        name.push_str(file_name(p));
    }
    if !o.defines.is_empty() {
        name.push_str(&format!(" ({})", define_flags(o.defines)));
    }
    SideName { name, built: how }
}

/// The widest a column head may be: the tables' columns are one wider, so heads never touch.
pub const MAX_HEAD: usize = 9;

/// The parts of a name [`name_side`] made: base, patch file, defines.
fn parts(name: &str) -> (&str, Option<&str>, Option<&str>) {
    let (rest, defines) = match name.split_once(" (") {
        Some((rest, d)) if d.ends_with(')') => (rest, Some(&d[..d.len() - 1])),
        _ => (name, None),
    };
    let first = rest.split_whitespace().next().unwrap_or(rest);
    // A `+` in the last part of the path separates base and patch (`v2+stop.diff`).
    let tail_start = first.rfind('/').map_or(0, |i| i + 1);
    match first[tail_start..].find('+') {
        Some(i) => (&first[..tail_start + i], Some(&first[tail_start + i + 1..]), defines),
        None => (first, None, defines),
    }
}

/// A catalogue name's or file's head: the part after the last `/`, a source or object's
/// extension dropped (`ia64/syscall/v1` is `v1`, `dir/account.S` is `account`).
fn base_head(base: &str) -> String {
    let tail = base.rsplit('/').next().unwrap_or(base);
    match tail.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && ["S", "s", "c", "o"].contains(&ext) => stem.to_string(),
        _ => tail.to_string(),
    }
}

/// The tag of a patch in a head: its file's stem, without the words it shares with the base
/// (`ia64-v2-stop.diff` on `v2` is `stop`).
fn patch_tag(patch: &str, base: &str, head: &str) -> String {
    let file = file_name(patch);
    let stem = [".diff", ".patch"].iter().find_map(|ext| file.strip_suffix(ext)).unwrap_or(file);
    let known: Vec<String> =
        base.split(['/', '-', '_', '.']).chain(std::iter::once(head)).map(str::to_ascii_lowercase).collect();
    let words: Vec<&str> =
        stem.split(['-', '_', '.']).filter(|w| !w.is_empty() && !known.contains(&w.to_ascii_lowercase())).collect();
    if words.is_empty() {
        "patch".to_string()
    } else {
        words.join("-")
    }
}

/// Comma-separated define names in at most `n` characters, each cut to an equal share.
fn shorten_defines(d: &str, n: usize) -> String {
    let names: Vec<&str> = d.split(',').collect();
    let k = names.len().max(1);
    let each = (n.saturating_sub(k - 1) / k).max(1);
    cut(&names.iter().map(|x| cut(x, each)).collect::<Vec<_>>().join(","), n)
}

/// `s` cut to at most `n` characters.
fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A column head of at most [`MAX_HEAD`] characters for a side named `name` (by
/// [`name_side`], or a plain catalogue name or file): `v2`, `v2+stop`, `v1(-DFOO)`, the
/// longest parts cut to fit; the legend carries the whole name.
pub fn head(name: &str) -> String {
    let (base, patch, defines) = parts(name);
    let b = base_head(base);
    let mut p = patch.map(|p| patch_tag(p, base, &b));
    let d = defines.map(|d| {
        let names = d.split_whitespace().map(|f| f.trim_start_matches("-D").split('=').next().unwrap_or(f));
        names.collect::<Vec<_>>().join(",")
    });
    let compose = |b: &str, p: Option<&str>, d: Option<&str>| {
        let mut s = b.to_string();
        if let Some(p) = p {
            s.push('+');
            s.push_str(p);
        }
        if let Some(d) = d {
            s.push_str(&format!("({d})"));
        }
        s
    };
    let mut full = compose(&b, p.as_deref(), d.as_deref());
    // A patch of several words keeps its last (`x86-exit-clock` is `clock`) when all do not fit.
    if full.chars().count() > MAX_HEAD {
        if let Some(last) = p.as_deref().and_then(|t| t.rsplit('-').next()).map(str::to_string) {
            p = Some(last);
            full = compose(&b, p.as_deref(), d.as_deref());
        }
    }
    if full.chars().count() <= MAX_HEAD || (p.is_none() && d.is_none()) {
        let h = cut(&full, MAX_HEAD);
        return if h.is_empty() { "?".to_string() } else { h };
    }
    // Too long: the base shrinks first (`patch3` to `p3`, a name without a number to what
    // leaves a patch's word whole, at least 3 characters), then the tags share the rest.
    let digits = b.chars().rev().take_while(char::is_ascii_digit).count();
    let b = if digits > 0 && digits + 1 < b.chars().count() {
        format!("{}{}", cut(&b, 1), b.chars().skip(b.chars().count() - digits).collect::<String>())
    } else {
        let tag = p.as_ref().map_or(0, |p| p.chars().count() + 1) + d.as_ref().map_or(0, |d| d.chars().count() + 2);
        cut(&b, 3.max(MAX_HEAD.saturating_sub(tag)))
    };
    let room = MAX_HEAD.saturating_sub(b.chars().count());
    let (p, d) = match (p, d) {
        (Some(p), None) => (Some(cut(&p, room.saturating_sub(1))), None),
        (None, Some(d)) => (None, Some(shorten_defines(&d, room.saturating_sub(2)))),
        (Some(p), Some(d)) => {
            let pr = room.saturating_sub(3) / 2;
            let dr = room.saturating_sub(3) - pr;
            (Some(cut(&p, pr.max(1))), Some(cut(&d, dr.max(1))))
        }
        (None, None) => (None, None),
    };
    cut(&compose(&b, p.as_deref(), d.as_deref()), MAX_HEAD)
}

/// [`head`] when it keeps the whole base name (`v1`, `ops_pic`), `None` when the base had to
/// be cut (`account_s`): a table of two such heads reads better as `A` and `B`.
pub fn whole_head(name: &str) -> Option<String> {
    let h = head(name);
    h.starts_with(&base_head(parts(name).0)).then_some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(base: &str, patch: Option<&str>, defines: &[&str], is: Option<&str>) -> SideName {
        let defines: Vec<String> = defines.iter().map(|d| d.to_string()).collect();
        name_side(&Origin { base, patch, defines: &defines, is })
    }

    #[test]
    fn a_side_is_named_after_the_version_it_is() {
        let n = named("ia64/syscall/v2", Some("tests/data/patches/ia64-v2-stop.diff"), &[], None);
        assert_eq!(n.name, "v2+ia64-v2-stop.diff");
        assert_eq!(n.built, "ia64/syscall/v2 patched by tests/data/patches/ia64-v2-stop.diff");
        let n = named("ia64/syscall/v1", None, &["FOO"], None);
        assert_eq!((n.name.as_str(), n.built.as_str()), ("v1 (-DFOO)", "ia64/syscall/v1 built with -DFOO"));
        let n = named("ia64/syscall/v1", None, &["ACCOUNTING_V2"], Some("ia64/syscall/v2"));
        assert_eq!(n.name, "ia64/syscall/v2");
        assert_eq!(n.built, "ia64/syscall/v1 built with -DACCOUNTING_V2, the same build (its harness and counters)");
        let n = named("ia64/syscall/v2", None, &[], None);
        assert_eq!((n.name.as_str(), n.built.as_str()), ("ia64/syscall/v2", ""));
        let n = named("dir/f.S", Some("p.diff"), &["X=1"], None);
        assert_eq!(
            (n.name.as_str(), n.built.as_str()),
            ("f.S+p.diff (-DX=1)", "dir/f.S patched by p.diff, built with -DX=1")
        );
    }

    #[test]
    fn heads_are_short_forms_of_the_names() {
        assert_eq!(head("ia64/syscall/v1"), "v1");
        assert_eq!(head("x86/nohz-syscall/patch3"), "patch3");
        assert_eq!(head("v2+ia64-v2-stop.diff"), "v2+stop");
        assert_eq!(head("v1 (-DFOO)"), "v1(FOO)");
        assert_eq!(head("patch3+x86-exit-clock.diff"), "p3+clock");
        assert_eq!(head("delayed+s390-guest-enter-stckf.diff"), "del+stckf");
        assert_eq!(head("account_sys_enter.S (-DACCOUNTING_V2)"), "acc(ACCO)");
        assert_eq!(head("tests/data/ia64/account_sys_enter.S"), "account_s");
        assert_eq!(whole_head("tests/data/ia64/account_sys_enter.S"), None);
        assert_eq!(whole_head("ia64/linux-6.1/v2").as_deref(), Some("v2"));
        assert_eq!(head("v2+v2.diff"), "v2+patch");
        assert_eq!(head("v1 (-DACCOUNTING_V2 -DUNRELATED=1)"), "v1(AC,UN)");
        for n in ["s390/vtime/immediate", "v1+a-very-long-patch-name.diff (-DA -DB)", "x (-DLONG_NAME=3)"] {
            assert!(head(n).chars().count() <= MAX_HEAD, "{n}: {}", head(n));
        }
    }
}
