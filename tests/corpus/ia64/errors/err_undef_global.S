// err_undef_global.S: branch, movl and brl.call to symbols that are never defined; gas accepts this and leaves relocations for the linker
	.text
	br.cond.sptk.few never_defined
	;;
	br.call.sptk.many b0=also_undefined
	;;
	movl r8=undefined_data
	;;
	brl.call.sptk.many b0=undefined_long
	;;
