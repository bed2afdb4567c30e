// Short data for gp_a.S.
	.global svar2
	.sdata
	data8 1
svar2:	data8 2
	.sbss
	.skip 24
