#include "fuzz.h"
#include <asm/fuzz.h>
#define CAT(a, b) a##b
#define STR(x) #x
#define VA(fmt, ...) fmt, __VA_ARGS__
#if defined(CONFIG_FUZZ) && (HZ * 4 > 999) || !defined(X)
	adds r8=FUZZ_ADD(1, 2),r0
#elif FUZZ_ONE << 3 == 8
	CAT(ad, ds) r9=HZ/5,r0 ;;
#else
#error no
#endif
#undef CAT
#ifdef CAT
#warning still
#endif
	.string STR(hello world)
	data8 VA(1, 2, 3)
