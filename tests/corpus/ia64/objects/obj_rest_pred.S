// Issue 13: the predicate lists gas takes: .pred.safe_across_calls with ranges (p1-p4, p1-p2,p3-p4), .pred.rel with the relation as a string or @word, with and without a comma after it
	.text
	.pred.safe_across_calls p1-p4
	.pred.safe_across_calls p1-p2,p3-p4
	.pred.rel "mutex", p6, p7
	.pred.rel "clear" p6, p7, p8
	.pred.rel @imply p8, p9
	.pred.rel.mutex p10-p12
	cmp.eq p1, p2 = r1, r2
	cmp.eq p3, p4 = r3, r4
	;;
(p3)	br.call.sptk.many b1 = target
(p1)	mov r4 = 2
(p2)	mov r4 = 5
	;;
(p10)	mov r5 = 1
(p11)	mov r5 = 2
(p12)	mov r5 = 3
target:
	br.ret.sptk.many rp
	;;
