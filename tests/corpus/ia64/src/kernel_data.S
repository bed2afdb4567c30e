// data directives (issue 13): gas aligns dataN/.short/.long/.quad/realN to their size (not .ua, not .Nbyte, labels keep the unaligned address), data16, floating literals real4/real8/.float/.single/.double with 0f/0d prefixes
 .data
 data1 1
 .quad 2
 data1 1
 .long 3
 data1 5
 .short 4
 data1 6
 data16 7, -2
 data1 8
 data8.ua 9
 data1 1
 .xdata4 .data, 5
 .byte 1
 .4byte 7
 .byte 2
x: data8 x
 real4 1.5, -2.25e3, 0f1.5
 real8 0.1, 0d2.5, 1e10
 .float 3.0
 .double -0.5
 .single 1
 data1 1
 real8 2.0
 real4.ua 1
 .text
 nop.m 0 ;;
