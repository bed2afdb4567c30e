// err_indirect_case.S: gas 2.40 knows `cpuid` and `CPUID` but no other spelling of an
// indirect register file (Cpuid, PKR: Index can only be applied to rotating or indirect registers)
 .text
 mov r1 = CPUID[r3]
 mov r2 = Cpuid[r4]
 mov r5 = PKR[r6]
 ;;
