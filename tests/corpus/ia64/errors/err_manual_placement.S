// gas's placement errors inside manual bundles (issue 13): a label after the first
// instruction, slot-2-only branches and group enders that are not last, M-unit group
// enders outside an MMI bundle, and the wording for instructions left over.
	.explicit
	.text
start:
{ .mii
	nop.m	0
inner:
	nop.i	0
	nop.i	0
}
{ .mbb
	br.cloop.sptk.few	start
	nop.b	0
}
{ .mib
	itc.i	r1
}
{ .mbb
	cover
	nop.b	0
}
{ .mmi
	nop.m	0
	nop.m	0
	nop.i	0
	nop.i	0
}
{ .mfb
	nop.m	0
	nop.i	0
}
{ .mfi
	nop.m	0
	nop.f	0
	nop.i	0
	nop.b	0
}
{ .mlx
	nop.m	0
	nop.i	0
}
