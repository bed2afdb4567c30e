/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memory dump the byte-exact differential drivers (*_diff.c) print after each call, and
 * traces/tests/x86_differential/ reproduces from the emulator's memory: every struct the
 * function may write, as little-endian 64-bit words in hex (no 0x), one ` name:` label per
 * struct. Pointer words cannot match as numbers (native and harness addresses differ), so a
 * word the struct's layout says is a pointer prints as `object+offset` against the objects
 * the driver registers (`0` for NULL, `?hex` for anything else).
 */
#ifndef ACCTEMU_NATIVE_DUMP_H
#define ACCTEMU_NATIVE_DUMP_H

struct dump_object {
	const char *name;
	const void *base;
	unsigned long size;
};

static void dump_pointer(unsigned long long v, const struct dump_object *objs, int nobjs)
{
	int i;

	if (v == 0) {
		printf(" 0");
		return;
	}
	for (i = 0; i < nobjs; i++) {
		unsigned long long base = (unsigned long long)(unsigned long)objs[i].base;

		if (v >= base && v - base < objs[i].size) {
			printf(" %s+%llx", objs[i].name, v - base);
			return;
		}
	}
	printf(" ?%llx", v);
}

/* `size` bytes of `obj` (a multiple of 8) as words; `ptrs` lists the pointer words' offsets. */
static void dump_words(const void *obj, unsigned long size, const unsigned *ptrs, int nptrs,
		       const struct dump_object *objs, int nobjs)
{
	const unsigned char *b = obj;
	unsigned long off;

	for (off = 0; off + 8 <= size; off += 8) {
		unsigned long long w = 0;
		int i, is_ptr = 0;

		for (i = 7; i >= 0; i--)
			w = (w << 8) | b[off + i];
		for (i = 0; i < nptrs; i++)
			is_ptr |= ptrs[i] == off;
		if (is_ptr)
			dump_pointer(w, objs, nobjs);
		else
			printf(" %llx", w);
	}
}

/* One struct, after its ` label:`. */
static void dump_struct(const char *label, const void *obj, unsigned long size, const unsigned *ptrs, int nptrs,
			const struct dump_object *objs, int nobjs)
{
	printf(" %s:", label);
	dump_words(obj, size, ptrs, nptrs, objs, nobjs);
}

#endif
