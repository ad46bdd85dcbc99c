/* Streaming copies (stream_kernel.c): runs of floats written with
 * non-temporal stores, which write whole cache lines without fetching
 * them, then a store fence; for data written now and read much later (a
 * crowd's matrices, an inertialization's kept poses), so that writing it
 * neither fetches its lines nor pushes a frame's hot data out of the
 * caches. One source compiled per instruction set (kernel_isa.h). */
#ifndef RUNE_SRC_MATH_STREAM_KERNEL_H
#define RUNE_SRC_MATH_STREAM_KERNEL_H

#include "kernel_isa.h"

/* from[r] -> to[r] for runs r in [0, runs), `floats` floats each (a
 * multiple of 16); every pointer aligned to rune__stream_align's bytes of
 * the same build (the scalar build copies plainly). The stores are
 * visible to other threads when it returns. */
KERNEL_DECLARE(void, rune__stream_floats, (float *const *to, const float *const *from, int runs, size_t floats));
/* The alignment rune__stream_floats needs in this build: its vector width. */
KERNEL_DECLARE(size_t, rune__stream_align, (void));

#endif
