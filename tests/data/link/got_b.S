// The data got_a.S reads through the linkage table.
	.global gvar
	.data
	data8 0
gvar:	data8 0x55
