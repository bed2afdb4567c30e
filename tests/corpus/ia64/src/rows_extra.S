// rows_extra.S: table rows the topic files do not reach: addp4 (register and imm14), shladdp4, fwb, fms, fms.s
	.text
	.global rows_extra
	.proc rows_extra
rows_extra:
	addp4 r8=r9,r10
	addp4 r11=-200,r12
	shladdp4 r13=r14,2,r15
	;;
	addp4 r16=8191,r17
	shladdp4 r18=r19,4,r20
	fwb
	;;
	fms f6=f7,f8,f9
	fms.s.s1 f10=f11,f12,f13
	;;
(p6)	fms.s2 f14=f15,f16,f17
(p7)	fms.s.s3 f18=f19,f20,f21
	br.ret.sptk.many rp
	.endp rows_extra
