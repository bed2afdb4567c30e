//! The rows' implicit registers against gas 2.40's dependency tables (issue 12): a sample of
//! the register resources of `opcodes/ia64-raw.tbl`, transcribed as (resource, the
//! instructions that write it implicitly, those that read it implicitly). Classes gas names
//! `IC:mov-to-AR-x`/`IC:mov-from-AR-x` use the register as an operand and are left out;
//! `IC:mod-sched-brs` is br.ctop/cexit/wtop/wexit, `-counted` br.cloop/ctop/cexit.

use super::{table, Resource};
use crate::regs::{ar, cr, PR_LOOP, PSR_VM};

/// (resource, implicit writers, implicit readers), by gas's instruction names.
const GAS_RAW: &[(Resource, &[&str], &[&str])] = &[
    (
        Resource::Ar(ar::BSP),
        &["br.call", "brl.call", "br.ret", "cover", "rfi"],
        &["br.call", "brl.call", "br.ia", "br.ret", "cover", "flushrs", "loadrs", "rfi"],
    ),
    (Resource::Ar(ar::BSPSTORE), &["alloc", "loadrs", "flushrs"], &["alloc", "br.ia", "flushrs"]),
    (Resource::Ar(ar::CCV), &[], &["br.ia", "cmpxchg", "cmp8xchg16"]),
    (Resource::Ar(ar::CSD), &["ld16"], &["br.ia", "cmp8xchg16", "st16"]),
    (
        Resource::Ar(ar::EC),
        &["br.ctop", "br.cexit", "br.wtop", "br.wexit", "br.ret"],
        &["br.call", "brl.call", "br.ia", "br.ctop", "br.cexit", "br.wtop", "br.wexit"],
    ),
    (Resource::Ar(ar::LC), &["br.cloop", "br.ctop", "br.cexit"], &["br.ia", "br.cloop", "br.ctop", "br.cexit"]),
    (Resource::Ar(ar::PFS), &["br.call", "brl.call"], &["alloc", "br.ia", "br.ret", "epc"]),
    (Resource::Ar(ar::RNAT), &["alloc", "flushrs", "loadrs"], &["alloc", "br.ia", "flushrs", "loadrs"]),
    (Resource::Ar(ar::RSC), &[], &["alloc", "br.ia", "flushrs", "loadrs"]),
    (Resource::Ar(ar::UNAT), &["st8.spill"], &["br.ia", "ld8.fill"]),
    (Resource::Cr(cr::IFA), &[], &["itc.i", "itc.d", "itr.i", "itr.d"]),
    (Resource::Cr(cr::ITIR), &[], &["itc.i", "itc.d", "itr.i", "itr.d"]),
    (Resource::Cr(cr::IFS), &["cover"], &["rfi"]),
    (Resource::Cr(cr::IIP), &[], &["rfi"]),
    (Resource::Cr(cr::IPSR), &[], &["rfi"]),
    (Resource::Cr(cr::TPR), &[], &["rfi"]),
    (Resource::Pr(PR_LOOP), &["br.ctop", "br.cexit", "br.wtop", "br.wexit"], &[]),
    (Resource::Psr(PSR_VM), &["vmsw.0", "vmsw.1", "rfi"], &[]),
];

/// gas's name of a row: its mnemonic up to the first completer (`br.call{}{}{}` is br.call;
/// the size completer of `cmpxchg{}` is part of gas's class, not its name).
fn gas_name(template: &str) -> &str {
    template.split('{').next().unwrap_or(template)
}

#[test]
fn implicit_registers_match_gas_dependency_tables() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for form in table().forms.iter().filter(|f| f.is_real()) {
        let name = gas_name(form.name);
        for (res, writers, readers) in GAS_RAW {
            checked += 1;
            let (w, r) = (writers.contains(&name), readers.contains(&name));
            if w != form.implicit.writes.contains(res) {
                bad.push(format!(
                    "{} ({}): gas {} {res:?}",
                    form.name,
                    form.format,
                    if w { "writes" } else { "does not write" }
                ));
            }
            if r != form.implicit.reads.contains(res) {
                bad.push(format!(
                    "{} ({}): gas {} {res:?}",
                    form.name,
                    form.format,
                    if r { "reads" } else { "does not read" }
                ));
            }
        }
    }
    assert!(checked > 1000, "only {checked} row/resource pairs");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
