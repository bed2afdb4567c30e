//! The numbers the harness lays the kernel's state out by: the macros of `asm-offsets.h`
//! (generated or a real build's) and constants of the tree's own headers, read by
//! assembling a probe with the tree's flags so that the values are the tree's, not
//! transcriptions.

use std::collections::BTreeMap;
use std::path::Path;

use super::sources_error::SourcesError;
use crate::asm::assemble;
use emu_core::preprocess::{PreprocessOptions, SourceLoader};

/// The `#define NAME VALUE` lines of an `asm-offsets.h`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offsets {
    values: BTreeMap<String, i64>,
}

/// A macro the harness needs is not in `asm-offsets.h`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("asm-offsets.h does not define {0} (the harness lays out the task with it)")]
pub struct MissingOffset(pub String);

impl Offsets {
    /// Reads the numeric `#define`s of `text` (a value is a decimal or `0x` number, maybe
    /// negative, maybe in parentheses; comments after it are ignored, others skipped).
    pub fn parse(text: &str) -> Offsets {
        let mut values = BTreeMap::new();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            if words.next() != Some("#define") {
                continue;
            }
            let (Some(name), Some(value)) = (words.next(), words.next()) else { continue };
            let v = value.trim_start_matches('(').trim_end_matches(')');
            let (neg, v) = v.strip_prefix('-').map_or((false, v), |r| (true, r));
            let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None => v.parse::<i64>().ok(),
            };
            if let Some(n) = parsed {
                values.insert(name.to_string(), if neg { -n } else { n });
            }
        }
        Offsets { values }
    }

    /// The value of `name`.
    ///
    /// # Errors
    /// The header does not define it.
    pub fn get(&self, name: &str) -> Result<u64, MissingOffset> {
        self.values.get(name).map(|v| *v as u64).ok_or_else(|| MissingOffset(name.to_string()))
    }

    /// The value of `name`, if defined.
    pub fn opt(&self, name: &str) -> Option<u64> {
        self.values.get(name).map(|v| *v as u64)
    }
}

/// Constants of the tree's headers (after the config), read by assembling a probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeConstants {
    /// `IA64_STK_OFFSET` (`asm/ptrace.h`): the task block, kernel stack included.
    pub stk_offset: u64,
    /// `IA64_RBS_OFFSET` (`asm/ptrace.h`): the kernel RBS from the task.
    pub rbs_offset: u64,
    /// `PAGE_SIZE` (`asm/page.h`).
    pub page_size: u64,
    /// `NR_syscalls` (`asm/unistd.h`).
    pub nr_syscalls: u64,
    /// `__NR_Linux`, the first system-call number (`uapi/asm/unistd.h`).
    pub nr_linux: u64,
    /// `GATE_ADDR` (`asm/page.h`).
    pub gate_addr: u64,
    /// `PERCPU_PAGE_SIZE` (`asm/page.h`): the epc page sits this far above the gate.
    pub percpu_page_size: u64,
    /// `KERNEL_START` (`asm/page.h`).
    pub kernel_start: u64,
    /// `IA64_TIMER_VECTOR` (`asm/hw_irq.h`).
    pub timer_vector: u64,
    /// `FPSR_DEFAULT` (`uapi/asm/fpu.h`): ar.fpsr of a new user thread.
    pub fpsr_default: u64,
    /// The numbers of the Unixbench loop's calls (`__NR_getpid`, `__NR_getuid`, `__NR_dup`,
    /// `__NR_close`, `__NR_umask` of `uapi/asm/unistd.h`, from `syscall.tbl`).
    pub nr: SyscallNumbers,
    /// `IA64_GRANULE_SHIFT` (`asm/pgtable.h`): ar.k4 holds the current stack's granule.
    pub granule_shift: u64,
    /// `TIF_ALLWORK_MASK` (`asm/thread_info.h`): the flags that send fsys handlers to the
    /// heavy path.
    pub tif_allwork_mask: u64,
}

/// System-call numbers of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyscallNumbers {
    /// `__NR_getpid`.
    pub getpid: u64,
    /// `__NR_getuid`.
    pub getuid: u64,
    /// `__NR_dup`.
    pub dup: u64,
    /// `__NR_close`.
    pub close: u64,
    /// `__NR_umask`.
    pub umask: u64,
}

const PROBE: &str = "#include <asm/ptrace.h>\n#include <asm/page.h>\n#include <asm/unistd.h>\n\
#include <asm/thread_info.h>\n#include <asm/fpu.h>\n#include <asm/pgtable.h>\n\t.data\n\
\tdata8 IA64_STK_OFFSET\n\tdata8 IA64_RBS_OFFSET\n\tdata8 PAGE_SIZE\n\tdata8 NR_syscalls\n\tdata8 __NR_Linux\n\
\tdata8 GATE_ADDR\n\tdata8 PERCPU_PAGE_SIZE\n\tdata8 KERNEL_START\n\tdata8 TIF_ALLWORK_MASK\n\tdata8 FPSR_DEFAULT\n\
\tdata8 __NR_getpid\n\tdata8 __NR_getuid\n\tdata8 __NR_dup\n\tdata8 __NR_close\n\tdata8 __NR_umask\n\
\tdata8 IA64_GRANULE_SHIFT\n";

/// `asm/hw_irq.h` is C only (no `__ASSEMBLY__` guard), so the timer vector is read from its
/// `#define` line.
const HW_IRQ_H: &str = "arch/ia64/include/asm/hw_irq.h";

impl TreeConstants {
    /// Assembles the probe with the tree's flags and reads the values back.
    ///
    /// # Errors
    /// A header of the tree does not define one of them, or does not assemble.
    pub fn probe(
        tree: &Path,
        opts: &PreprocessOptions,
        loader: &dyn SourceLoader,
    ) -> Result<TreeConstants, SourcesError> {
        let name = tree.join("<acctemu probe of the tree's constants>.S").display().to_string();
        let asm = assemble(&name, PROBE, opts, loader)
            .map_err(|diagnostics| SourcesError::Assemble { file: name.clone(), diagnostics })?;
        let data = asm.object.iter().find(|s| s.name == ".data").map(|s| s.data.clone()).unwrap_or_default();
        let v = |i: usize| -> u64 {
            data.get(i * 8..i * 8 + 8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
        };
        Ok(TreeConstants {
            stk_offset: v(0),
            rbs_offset: v(1),
            page_size: v(2),
            nr_syscalls: v(3),
            nr_linux: v(4),
            gate_addr: v(5),
            percpu_page_size: v(6),
            kernel_start: v(7),
            tif_allwork_mask: v(8),
            fpsr_default: v(9),
            granule_shift: v(15),
            nr: SyscallNumbers { getpid: v(10), getuid: v(11), dup: v(12), close: v(13), umask: v(14) },
            timer_vector: timer_vector(tree, loader)?,
        })
    }
}

/// `IA64_TIMER_VECTOR` as the tree's `hw_irq.h` defines it.
fn timer_vector(tree: &Path, loader: &dyn SourceLoader) -> Result<u64, SourcesError> {
    let path = tree.join(HW_IRQ_H);
    let text = loader.load(&path).map_err(|e| SourcesError::Tree(format!("{}: cannot read: {e}", path.display())))?;
    Offsets::parse(&text)
        .get("IA64_TIMER_VECTOR")
        .map_err(|_| SourcesError::Tree(format!("{}: no numeric #define IA64_TIMER_VECTOR", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_generated_and_a_builds_forms() {
        let o = Offsets::parse(
            "#ifndef X\n#define IA64_TASK_SIZE 3456 /* sizeof (struct task_struct) */\n\
             #define IA64_PT_REGS_R8_OFFSET 32\n#define NEG -16\n#define HEX 0x1c0\n#define PAREN (8)\n\
             #define __ASM_OFFSETS_H__\n",
        );
        assert_eq!(o.get("IA64_TASK_SIZE"), Ok(3456));
        assert_eq!(o.get("IA64_PT_REGS_R8_OFFSET"), Ok(32));
        assert_eq!(o.get("NEG"), Ok((-16i64) as u64));
        assert_eq!(o.get("HEX"), Ok(0x1c0));
        assert_eq!(o.get("PAREN"), Ok(8));
        assert!(o.get("__ASM_OFFSETS_H__").unwrap_err().to_string().contains("__ASM_OFFSETS_H__"));
    }
}
