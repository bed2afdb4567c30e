// err_hint_b.S: an explicit hint.b (gas 2.40 defaults to -mhint.b=error: hint.b shouldn't be used)
 .text
 hint.b 0
 ;;
