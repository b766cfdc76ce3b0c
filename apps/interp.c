/*
 * A call-heavy program that never calls PVM, in the manner of an interpreter: a small
 * stack machine runs a bytecode loop, each instruction a tiny procedure calling tinier
 * ones. Built with pvmmon-cc it shows what probes cost a program nobody monitors, and
 * that `pvmmon run` monitors it from its start all the same (the fidelity suite).
 *
 * usage: interp [STEPS]   (default 5000000 instructions; prints a checksum)
 */
#include <stdio.h>
#include <stdlib.h>

typedef struct vm {
	long stack[64];
	int sp;
	long acc;
} vm;

static void push(vm *m, long v) { m->stack[m->sp++ & 63] = v; }

static long pop(vm *m) { return m->stack[--m->sp & 63]; }

/* The instructions: not leaves (they call push and pop), so pvmmon-cc times them. */
static void op_lit(vm *m, long v) { push(m, v); }

static void op_add(vm *m)
{
	long b = pop(m);

	push(m, pop(m) + b);
}

static void op_mul(vm *m)
{
	long b = pop(m);

	push(m, (pop(m) * b) & 0xffffff);
}

static void op_acc(vm *m) { m->acc ^= pop(m) + m->acc * 31; }

/* One pass of the program: acc ^= ((i + 7) * 3) and so on, four instructions a step. */
static long run(long steps)
{
	vm m = {{0}, 0, 1};

	for (long i = 0; i < steps; i += 4) {
		op_lit(&m, i);
		op_lit(&m, 7);
		op_add(&m);
		op_lit(&m, 3);
		op_mul(&m);
		op_acc(&m);
	}
	return m.acc;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 5000000;

	if (steps <= 0) {
		fprintf(stderr, "usage: interp [STEPS]\n");
		return 2;
	}
	printf("interp: %ld steps, checksum %lx\n", steps, (unsigned long)run(steps));
	return 0;
}
