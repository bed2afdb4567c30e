// dv_labels.S: labels start new entry paths for the DV checker ("when entry is at label", "Only the first path encountering the conflict is reported"); taken branches clear state
	.text
	// two labels inside one group
L1:
	mov r8=1
L2:
	add r9=r8,r0
	;;
	// a mutex declared before a label does not hold on the path entered at the label
	.pred.rel.mutex p6,p7
	add r10=r2,r3
	;;
L3:
(p6)	mov r11=1
(p7)	mov r11=2
	;;
	// numeric and .L labels are entry points too
	mov r12=1
1:
	mov r12=2
	;;
	mov r13=1
.Lmid:
	add r14=r13,r0
	;;
	// an unconditional taken branch clears recorded writes
	mov r15=1
	br.cond.sptk.few 2f
	;;
2:
	add r16=r15,r0
	;;
	// a predicated branch does not clear them
	mov r17=1
(p6)	br.cond.sptk.few 3f
	add r18=r17,r0
	;;
3:
	nop.m 0
	;;
