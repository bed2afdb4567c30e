// lfetch.S: lfetch (M13 [r3], M14 [r3],r2, M15 [r3],imm9) with every lftype (none .fault), .excl and hint (none .nt1 .nt2 .nta), predicated and not, imm9 -256..255
	.text
	.global lfetch_forms
	.proc lfetch_forms
lfetch_forms:
	lfetch [r2]
(p6)	lfetch [r66]
	;;
	lfetch [r2],r40
(p7)	lfetch [r66],r40
	;;
	lfetch [r2],-256
(p8)	lfetch [r66],255
	;;
	lfetch.nt1 [r3]
(p7)	lfetch.nt1 [r67]
	;;
	lfetch.nt1 [r3],r41
(p8)	lfetch.nt1 [r67],r41
	;;
	lfetch.nt1 [r3],255
(p9)	lfetch.nt1 [r67],-256
	;;
	lfetch.nt2 [r4]
(p8)	lfetch.nt2 [r68]
	;;
	lfetch.nt2 [r4],r42
(p9)	lfetch.nt2 [r68],r42
	;;
	lfetch.nt2 [r4],0
(p10)	lfetch.nt2 [r68],0
	;;
	lfetch.nta [r5]
(p9)	lfetch.nta [r69]
	;;
	lfetch.nta [r5],r43
(p10)	lfetch.nta [r69],r43
	;;
	lfetch.nta [r5],64
(p11)	lfetch.nta [r69],64
	;;
	lfetch.excl [r6]
(p10)	lfetch.excl [r70]
	;;
	lfetch.excl [r6],r44
(p11)	lfetch.excl [r70],r44
	;;
	lfetch.excl [r6],-8
(p12)	lfetch.excl [r70],-8
	;;
	lfetch.excl.nt1 [r7]
(p11)	lfetch.excl.nt1 [r71]
	;;
	lfetch.excl.nt1 [r7],r45
(p12)	lfetch.excl.nt1 [r71],r45
	;;
	lfetch.excl.nt1 [r7],1
(p13)	lfetch.excl.nt1 [r71],1
	;;
	lfetch.excl.nt2 [r8]
(p12)	lfetch.excl.nt2 [r72]
	;;
	lfetch.excl.nt2 [r8],r46
(p13)	lfetch.excl.nt2 [r72],r46
	;;
	lfetch.excl.nt2 [r8],-256
(p14)	lfetch.excl.nt2 [r72],255
	;;
	lfetch.excl.nta [r9]
(p13)	lfetch.excl.nta [r73]
	;;
	lfetch.excl.nta [r9],r47
(p14)	lfetch.excl.nta [r73],r47
	;;
	lfetch.excl.nta [r9],255
(p15)	lfetch.excl.nta [r73],-256
	;;
	lfetch.fault [r10]
(p14)	lfetch.fault [r74]
	;;
	lfetch.fault [r10],r48
(p15)	lfetch.fault [r74],r48
	;;
	lfetch.fault [r10],0
(p16)	lfetch.fault [r74],0
	;;
	lfetch.fault.nt1 [r11]
(p15)	lfetch.fault.nt1 [r75]
	;;
	lfetch.fault.nt1 [r11],r49
(p16)	lfetch.fault.nt1 [r75],r49
	;;
	lfetch.fault.nt1 [r11],64
(p17)	lfetch.fault.nt1 [r75],64
	;;
	lfetch.fault.nt2 [r12]
(p6)	lfetch.fault.nt2 [r76]
	;;
	lfetch.fault.nt2 [r12],r50
(p7)	lfetch.fault.nt2 [r76],r50
	;;
	lfetch.fault.nt2 [r12],-8
(p8)	lfetch.fault.nt2 [r76],-8
	;;
	lfetch.fault.nta [r13]
(p7)	lfetch.fault.nta [r77]
	;;
	lfetch.fault.nta [r13],r51
(p8)	lfetch.fault.nta [r77],r51
	;;
	lfetch.fault.nta [r13],1
(p9)	lfetch.fault.nta [r77],1
	;;
	lfetch.fault.excl [r14]
(p8)	lfetch.fault.excl [r78]
	;;
	lfetch.fault.excl [r14],r52
(p9)	lfetch.fault.excl [r78],r52
	;;
	lfetch.fault.excl [r14],-256
(p10)	lfetch.fault.excl [r78],255
	;;
	lfetch.fault.excl.nt1 [r15]
(p9)	lfetch.fault.excl.nt1 [r79]
	;;
	lfetch.fault.excl.nt1 [r15],r53
(p10)	lfetch.fault.excl.nt1 [r79],r53
	;;
	lfetch.fault.excl.nt1 [r15],255
(p11)	lfetch.fault.excl.nt1 [r79],-256
	;;
	lfetch.fault.excl.nt2 [r16]
(p10)	lfetch.fault.excl.nt2 [r80]
	;;
	lfetch.fault.excl.nt2 [r16],r54
(p11)	lfetch.fault.excl.nt2 [r80],r54
	;;
	lfetch.fault.excl.nt2 [r16],0
(p12)	lfetch.fault.excl.nt2 [r80],0
	;;
	lfetch.fault.excl.nta [r17]
(p11)	lfetch.fault.excl.nta [r81]
	;;
	lfetch.fault.excl.nta [r17],r55
(p12)	lfetch.fault.excl.nta [r81],r55
	;;
	lfetch.fault.excl.nta [r17],64
(p13)	lfetch.fault.excl.nta [r81],64
	;;
	// imm9 edge values on other completers, r0/r1/r127 bases
	lfetch [r3],-256
	lfetch.fault [r4],255
	;;
	lfetch.excl [r127],255
	lfetch.fault.excl.nta [r126],-256
	;;
(p63)	lfetch.fault.nt2 [r1],r127
	lfetch.nta [r0]
	;;
	br.ret.sptk.many b0
	;;
	.endp lfetch_forms
