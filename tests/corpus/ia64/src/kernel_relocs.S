// external symbols and relocation operators (issue 13): every @operator in every field gas takes it in (adds imm14, addl imm22, movl imm64, branch and check targets, data4/data8/data16), local symbols through their section, global symbols for branches
	.text
	.global gfun
lab:
	adds r1=ext+4,r2 ;;
	addl r1=@gprel(ext),gp ;;
	addl r1=@ltoff(ext),gp ;;
	addl r1=@ltoffx(ext),gp ;;
	addl r1=@ltoff(@fptr(ext)),gp ;;
	addl r1=@tprel(ext),r0 ;;
	adds r1=@tprel(ext),r2 ;;
	adds r1=@dtprel(ext),r2 ;;
	addl r1=@dtprel(ext),r0 ;;
	addl r1=@ltoff(@tprel(ext)),gp ;;
	addl r1=@ltoff(@dtpmod(ext)),gp ;;
	addl r1=@ltoff(@dtprel(ext)),gp ;;
	addl r1=@pcrel(ext),gp ;;
	addl r1=@pltoff(ext),gp ;;
	addl r1=ext,r0 ;;
	mov r1=ext ;;
	movl r1=ext+8 ;;
	movl r1=@gprel(ext) ;;
	movl r1=@ltoff(ext) ;;
	movl r1=@fptr(ext) ;;
	movl r1=@ltoff(@fptr(ext)) ;;
	movl r1=@tprel(ext) ;;
	movl r1=@dtprel(ext) ;;
	movl r1=@pcrel(ext) ;;
	movl r1=@pltoff(ext) ;;
	movl r1=lab ;;
	movl r1=@gprel(lab+16) ;;
	br.call.sptk.many b0=ext ;;
	brl.call.sptk.many b0=ext ;;
	(p6) br.cond.sptk ext ;;
	(p6) brl.cond.sptk ext ;;
	chk.s r1, ext ;;
	ld8.sa r1=[r2] ;;
	chk.a.nc r1, ext ;;
	;;
	br.call.sptk.many b0=gfun ;;
	br.cond.sptk.few lab ;;
	;;
gfun:
	br.ret.sptk.many b0 ;;
	.data
	data4 ext, @gprel(ext), @pcrel(ext), @secrel(ext), @segrel(ext), @fptr(ext), @ltoff(@fptr(ext)), @ltv(ext), @dtprel(ext)
	data8 ext, @gprel(ext), @pcrel(ext), @secrel(ext), @segrel(ext), @fptr(ext), @ltoff(@fptr(ext)), @ltv(ext), @dtprel(ext), @tprel(ext), @dtpmod(ext), @pltoff(ext)
	data16 @iplt(ext)
	data8 lab, lab+8, ext-., lab-., gfun
	data4 ext-., lab-., lab
	data8 @gprel(lab), @secrel(lab), @segrel(lab), @fptr(lab)
	data8.ua ext
	data4.ua ext
here:
	data8 here-., here+8-.
