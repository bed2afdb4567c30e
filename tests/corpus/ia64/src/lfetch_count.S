// lfetch_count.S: the Itanium 9500 lfetch.count (issue 12, later forms) GNU as 2.40 takes:
// every hint spelling (.nt1/.nt2/.nta, .d1-.d7), the count's ends (1, 64) and the stride's
// (-1024, 960, multiples of 64), predicated and not. Strides that are not multiples of 64
// (gas warns and drops the low 6 bits) are in the assembler's unit tests.
	.text
	.global lfetch_count
	.proc lfetch_count
lfetch_count:
	lfetch.count [r3],1,0
	lfetch.count.nt1 [r3],1,0
	lfetch.count.nt2 [r3],1,0
	lfetch.count.nta [r3],1,0
	lfetch.count.d1 [r3],1,0
	lfetch.count.d2 [r3],1,0
	lfetch.count.d3 [r3],1,0
	lfetch.count.d4 [r3],1,0
	lfetch.count.d5 [r3],1,0
	lfetch.count.d6 [r3],1,0
	lfetch.count.d7 [r3],1,0
	lfetch.count [r127],1,64
	lfetch.count [r127],2,64
	lfetch.count [r127],17,64
	lfetch.count [r127],63,64
	lfetch.count [r127],64,64
	lfetch.count.nt1 [r33],8,-1024
	lfetch.count.nt1 [r33],8,-960
	lfetch.count.nt1 [r33],8,-64
	lfetch.count.nt1 [r33],8,0
	lfetch.count.nt1 [r33],8,64
	lfetch.count.nt1 [r33],8,128
	lfetch.count.nt1 [r33],8,512
	lfetch.count.nt1 [r33],8,896
	lfetch.count.nt1 [r33],8,960
	(p6) lfetch.count.nta [r8],64,-1024
	(p63) lfetch.count.d5 [r2],32,960
	lfetch [r3]
	lfetch.excl [r3]
	lfetch.fault [r3]
	;;
	br.ret.sptk.many b0
	.endp lfetch_count
