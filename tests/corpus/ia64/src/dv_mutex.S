// dv_mutex.S: .pred.rel.mutex suppresses DVs, the automatic mutex of unpredicated and .unc compares, no mutex for predicated plain compares, mutex dropped by a later write, .pred.rel.imply does not suppress
	.text
	// explicit mutex
	.pred.rel.mutex p6,p7
(p6)	mov r8=1
(p7)	mov r8=2
	;;
	// explicit mutex, three predicates, RAW suppressed as well
	.pred.rel.mutex p6,p7,p8
(p6)	mov r9=1
(p7)	add r10=r9,r0
(p8)	mov r9=3
	;;
	// same with the quoted-string and @-forms of the directive
	.pred.rel "mutex", p11, p12
(p11)	mov r11=1
(p12)	mov r11=2
	;;
	.pred.rel @mutex, p13, p14
(p13)	mov r12=1
(p14)	mov r12=2
	;;
	// automatic mutex from an unpredicated compare
	cmp.eq p6,p7=r2,r3
	;;
(p6)	mov r13=1
(p7)	mov r13=2
	;;
	// automatic mutex from a predicated .unc compare
(p5)	cmp.eq.unc p6,p7=r2,r3
	;;
(p6)	mov r14=1
(p7)	mov r14=2
	;;
	// no automatic mutex from a predicated plain compare (the relation recorded above is cleared first)
	.pred.rel.clear p6,p7
(p5)	cmp.eq p6,p7=r2,r3
	;;
(p6)	mov r15=1
(p7)	mov r15=2
	;;
	// mutex dropped by a later write of one member
	.pred.rel.mutex p6,p7
	cmp.eq p6,p8=r2,r3
	;;
(p6)	mov r16=1
(p7)	mov r16=2
	;;
	// .pred.rel.imply does not suppress register DVs
	.pred.rel.imply p6,p7
(p7)	mov r17=1
(p6)	add r18=r17,r0
	;;
	// .pred.rel.clear forgets relations
	.pred.rel.mutex p9,p10
	.pred.rel.clear p9,p10
(p9)	mov r19=1
(p10)	mov r19=2
	;;
