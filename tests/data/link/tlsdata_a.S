// A thread-pointer-relative data word (R_IA64_TPREL64LSB), which ld 2.40 does not apply in
// a static link.
	.data
	data8 @tprel(tvar)
