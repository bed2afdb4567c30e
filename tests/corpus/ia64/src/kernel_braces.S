// unbalanced manual-bundle braces (issue 13): gas warns about '{' inside a bundle and a '}' with none open, and still packs the bundle
 {
 nop.m 0
 {
 nop.i 0
 }
 }
