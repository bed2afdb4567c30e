// gas's operand-omitting pseudo forms (issue 12): one predicate target (the other is p0),
// the implied ar.ccv / ar.csd operands left out, and `mov pr = r2` with no mask.
	.text
	.global _start
_start:
	cmp.eq p6 = r0, r0 ;;
	cmp.ne p7 = 5, r3 ;;
	cmp.lt.unc p8 = r4, r5 ;;
	cmp4.eq p9 = 0, r0 ;;
	cmp4.gt p10 = r6, r7 ;;
	tbit.nz p12 = r1, 3 ;;
	tbit.z.unc p13 = r2, 63 ;;
	tnat.nz p14 = r9 ;;
	tnat.z p15 = r10 ;;
	fcmp.eq p11 = f2, f3 ;;
	fcmp.lt.unc.s1 p16 = f4, f5 ;;
	fclass.m p17 = f6, @pos ;;
	fclass.nm.unc p18 = f7, @nat ;;
	cmpxchg1.acq r11 = [r12], r13 ;;
	cmpxchg2.rel r14 = [r15], r16 ;;
	cmpxchg4.acq r17 = [r18], r19 ;;
	cmpxchg8.rel.nt1 r20 = [r21], r22 ;;
	cmp8xchg16.acq r23 = [r24], r25 ;;
	ld16 r26 = [r27] ;;
	ld16.acq.nta r28 = [r29] ;;
	st16 [r30] = r31 ;;
	st16.rel [r32] = r33 ;;
	mov pr = r34 ;;
	(p6) cmp.eq p19 = r35, r36 ;;
	br.ret.sptk.many b0 ;;
	mov r1 = CPUID[r3] ;;
	// gas finds no predicate written by the mask-less `mov pr = r2` (no warnings here),
	// while the implied ar.csd of ld16/st16 takes part in the check (a RAW warning).
	cmp.eq p6, p7 = r0, r0
	mov pr = r3 ;;
	mov pr = r2
	(p6) mov r3 = r4 ;;
	ld16 r5 = [r6]
	st16 [r7] = r8 ;;
