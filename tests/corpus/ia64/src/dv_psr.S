// dv_psr.S: vmsw.0/vmsw.1 (B8, issue 12) and gas's WAW on PSR.vm for two vmsw in one instruction group
	.text
	vmsw.0
	;;
	vmsw.1
	;;
	// WAW: both write PSR.vm
	vmsw.0
	vmsw.1
	;;
	vmsw.1
	vmsw.1
	;;
