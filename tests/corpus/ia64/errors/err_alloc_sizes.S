// alloc frame sizes that are not constants (issue 13): gas names the operand and what
// it should be, numbered with and without the explicit ar.pfs.
	.text
f:
	alloc	r2 = ar.pfs, n, 0, 0, 0
	alloc	r2 = ar.pfs, 0, n, 0, 0
	alloc	r2 = ar.pfs, 0, 0, n, 0
	alloc	r2 = ar.pfs, 0, 0, 0, n
	alloc	r3 = n, 0, 0, 0
	alloc	r3 = 0, n, 0, 0
	alloc	r3 = 0, 0, 0, n
	n = 1
