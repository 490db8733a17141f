/*
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012): a keyed hash of a byte string.  Where a guest chooses what goes
 * into a hash table (flow table entries, flow.c), a hash it cannot predict
 * keeps it from filling one bucket and making every lookup a scan.
 */
#ifndef MLX5EMU_SIPHASH_H
#define MLX5EMU_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t mlx5_siphash(const uint8_t key[16], const uint8_t *data, size_t len);

#endif
