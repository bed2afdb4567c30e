// Forms the table encodes, decodes and formats but the executor does not run: each stops
// the run with an "is not implemented by the ia64 core" error naming it and its pc.
// Kept with GNU as's output; tests/ia64_unsupported_forms.rs runs every line and checks
// that it stops. (The multimedia, FP, 16-byte, chk.a, invala.e and hint forms once listed
// here execute since issue 12 and are covered by the topic files; mpy4, mpyshl4 and tf, which
// the Itanium 2 modelled does not implement, raise Illegal Operation as vmsw does.)
	.text
	.global unsupported_forms
	.proc unsupported_forms
unsupported_forms:
	mov r8=msr[r9]	// model-specific registers are not modelled
	;;
	mov msr[r9]=r10	// model-specific registers are not modelled
	;;
	br.ia.sptk.many b6	// transfer to the IA-32 instruction set
	;;
	.endp unsupported_forms
