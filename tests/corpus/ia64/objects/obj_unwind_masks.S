// obj_unwind_masks.S: .save.g/.save.f/.save.b/.save.gf (P5 frgr_mem, P1 br_mem, P4 spill_mask; one register per following instruction, gas's "Previous .save incomplete"), X1 spills of every class without masks
	.text
	.proc f2
f2:
	.prologue
	.fframe 64
	adds r12=-64,r12
	.spillsp r4, 0
	st8.spill [r12]=r4
	.spillsp f2, 16
	stf.spill [r12]=f2
	;;
	.spillsp b2, 32
	mov r3=b2
	.spillsp pr, 40
	mov r3=pr
	.spillsp f17, 8
	st8.spill [r12]=r5
	;;
	.spillsp b1, 8
	nop.m 0
	.spillpsp r7, 8
	nop.f 0
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp f2
	.proc f4
f4:
	.prologue
	.save.g 0x3
	nop.m 0
	.save.b 0x1
	nop.i 0
	.save.f 0x5
	nop.i 0
	;;
	.save.gf 0x8, 0x20
	nop.m 0
	nop.i 0
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp f4
	.proc f2b
f2b:
	.prologue
	.fframe 64
	adds r12=-64,r12
	.spillsp r4, 0
	st8.spill [r12]=r4
	.spillsp f2, 16
	stf.spill [r12]=f2
	;;
	.spillsp b2, 32
	mov r3=b2
	.spillsp pr, 40
	mov r3=pr
	.spillpsp r5, 8
	st8.spill [r12]=r5
	;;
	.save.g 0x2
	nop.m 0
	.save.f 0x1
	nop.f 0
	.save.b 0x3
	nop.i 0
	;;
	.save.gf 0x1, 0x10
	nop.m 0
	.spillreg r6, r9
	mov r9=r6
	.spillsp.p p1, ar.rnat, 48
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp f2b
