//! The headers Kbuild writes before it compiles anything: `asm-generic` wrappers for the
//! `generic-y` and `mandatory-y` headers an architecture does not provide, and the
//! system-call headers made from `syscall.tbl`.

use super::KernelError;

/// The header names (`x.h`) a Kbuild file lists after `kind += ` (`generic-y`,
/// `mandatory-y`, `generated-y`).
pub fn kbuild_list(text: &str, kind: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let Some((lhs, rhs)) = line.split_once("+=") else { continue };
        if lhs.trim() == kind {
            names.extend(rhs.split_whitespace().map(str::to_string));
        }
    }
    names
}

/// The wrapper Kbuild generates for an `asm-generic` header: one `#include` line.
pub fn generic_wrapper(name: &str) -> String {
    format!("#include <asm-generic/{name}>\n")
}

/// One line of a `syscall.tbl`: number, ABI, name, entry point, compat entry point.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Syscall<'t> {
    nr: u32,
    name: &'t str,
    native: Option<&'t str>,
    compat: Option<&'t str>,
}

fn syscalls<'t>(file: &str, text: &'t str) -> Result<Vec<Syscall<'t>>, KernelError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        let Some(first) = fields.next() else { continue };
        if first.starts_with('#') {
            continue;
        }
        let bad = |message: String| KernelError::Config { file: file.to_string(), line: n as u32 + 1, message };
        let nr = first.parse::<u32>().map_err(|_| bad(format!("system call number expected, found `{first}`")))?;
        let _abi = fields.next().ok_or_else(|| bad("no ABI".into()))?;
        let name = fields.next().ok_or_else(|| bad("no system call name".into()))?;
        let native = fields.next();
        let compat = fields.next();
        out.push(Syscall { nr, name, native, compat });
    }
    Ok(out)
}

/// `unistd_<N>.h` as `scripts/syscallhdr.sh --emit-nr --offset OFFSET` writes it: one
/// `__NR_name` per line of the table, then `__NR_syscalls` for the kernel.
///
/// # Errors
/// A malformed table line.
pub fn unistd_h(file: &str, table: &str, header: &str, offset: Option<&str>) -> Result<String, KernelError> {
    let guard_tail: String =
        header.to_ascii_uppercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let guard = format!("_UAPI_ASM_{}", guard_tail.replace("__", "_"));
    let mut out = format!("#ifndef {guard}\n#define {guard}\n\n");
    let mut max = 0;
    for s in syscalls(file, table)? {
        max = s.nr;
        let nr = offset.map_or_else(|| s.nr.to_string(), |o| format!("({o} + {})", s.nr));
        out.push_str(&format!("#define __NR_{} {nr}\n", s.name));
    }
    out.push_str(&format!("\n#ifdef __KERNEL__\n#define __NR_syscalls {}\n#endif\n", max + 1));
    out.push_str(&format!("\n#endif /* {guard} */\n"));
    Ok(out)
}

/// `syscall_table.h` as `scripts/syscalltbl.sh` writes it: `__SYSCALL(nr, entry)` for every
/// number from 0, `sys_ni_syscall` in the gaps.
///
/// # Errors
/// A malformed line, or numbers out of order.
pub fn syscall_table_h(file: &str, table: &str) -> Result<String, KernelError> {
    let mut out = String::new();
    let mut next = 0;
    for s in syscalls(file, table)? {
        if s.nr < next {
            return Err(KernelError::Config {
                file: file.to_string(),
                line: 0,
                message: format!("system call {} is out of order or repeated", s.nr),
            });
        }
        for gap in next..s.nr {
            out.push_str(&format!("__SYSCALL({gap}, sys_ni_syscall)\n"));
        }
        match (s.native, s.compat) {
            (Some(native), Some(compat)) => {
                out.push_str(&format!("__SYSCALL_WITH_COMPAT({}, {native}, {compat})\n", s.nr))
            }
            (Some(native), None) => out.push_str(&format!("__SYSCALL({}, {native})\n", s.nr)),
            _ => out.push_str(&format!("__SYSCALL({}, sys_ni_syscall)\n", s.nr)),
        }
        next = s.nr + 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "# comment\n0\tcommon\tni_syscall\t\tsys_ni_syscall\n\
                         2\tcommon\tread\t\tsys_read\n3\tcommon\tfoo\n4\tcommon\tbar\tsys_bar\tcompat_bar\n";

    #[test]
    fn unistd_numbers_with_offset() {
        let h = unistd_h("t", TABLE, "unistd_64.h", Some("__NR_Linux")).unwrap();
        assert!(h.starts_with("#ifndef _UAPI_ASM_UNISTD_64_H\n#define _UAPI_ASM_UNISTD_64_H\n"), "{h}");
        assert!(h.contains("#define __NR_read (__NR_Linux + 2)\n"));
        assert!(h.contains("#define __NR_syscalls 5\n"));
    }

    #[test]
    fn table_fills_gaps() {
        let t = syscall_table_h("t", TABLE).unwrap();
        assert_eq!(
            t,
            "__SYSCALL(0, sys_ni_syscall)\n__SYSCALL(1, sys_ni_syscall)\n__SYSCALL(2, sys_read)\n\
             __SYSCALL(3, sys_ni_syscall)\n__SYSCALL_WITH_COMPAT(4, sys_bar, compat_bar)\n"
        );
    }

    #[test]
    fn kbuild_lists() {
        let k = "# x\ngeneric-y += a.h\ngeneric-y += b.h c.h\nmandatory-y += d.h\n";
        assert_eq!(kbuild_list(k, "generic-y"), ["a.h", "b.h", "c.h"]);
        assert_eq!(kbuild_list(k, "mandatory-y"), ["d.h"]);
    }
}
