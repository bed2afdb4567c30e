// err_brace_open.S: a '{' never closed (gas: Missing '}' at end of file)
 .text
 {
 nop.m 0 ;;
