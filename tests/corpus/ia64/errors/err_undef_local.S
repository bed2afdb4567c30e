// err_undef_local.S: branches to an undefined numeric local label (error) and an undefined .L label (silently an undefined symbol)
	.text
	br.cond.sptk.few .Lnowhere
	;;
	br.cond.sptk.few 7f
	;;
