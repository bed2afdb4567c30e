// Issue 13: .radix other than C, rotating-register lists with no element or fewer, and a count that is no constant
	.regstk 0, 8, 0, 8
	.radix C
	.radix h
	.rotr ok[2], none[0]
	.rotp neg[-2]
	.rotf bad[undefined_count]
