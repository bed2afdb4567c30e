// Rotating register counts gas refuses (issue 13): zero, negative, and a count that is
// no constant (reported, then taken as zero).
	.text
	.regstk	0, 8, 0, 8
	.rotr	ok[8], none[0]
	.rotp	pp[8], neg[-8]
	.rotf	ff[8], unknown[count]
