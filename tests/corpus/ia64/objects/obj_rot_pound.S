// Rotating register names written with gas's `#` (issue 13, gas's pound test): in
// .rotr/.rotp/.rotf, as operands, qualifying predicates, .pred.rel and .reg.val.
	.explicit
	.text
	.regstk	0, 8, 0, 8
	.rotp	pa#[2], pb#[4]
	.rotr	ga#[2], gb#[4]
	.rotf	fa#[8]
	.reg.val ga#[1], 0
	.reg.val gb[3], 0
f:
(pb#[1]) cmp.eq	pa[0] = ga[1], gb#[1]
(pb[3]) cmp.eq	pa#[1] = ga#[1], gb[3]
	.pred.rel "mutex", pa#[0], pa[1]
	nop.i	0
	;;
(pa[0])	mov	r8 = 1
(pa#[1]) mov	r8 = 0
	fma	fa#[1] = fa[2], fa#[3], f0
	;;
	br.ret.sptk	rp
	;;
