/*
 * Toeplitz hash (Microsoft RSS; PRM "RSS": rx_hash_fn TOEPLITZ).
 * The result for `input` of n bytes under a 40-byte key (the TIR's
 * rx_hash_toeplitz_key); used to pick an RQ from the TIR's RQT.
 */
#ifndef MLX5EMU_TOEPLITZ_H
#define MLX5EMU_TOEPLITZ_H

#include <stddef.h>
#include <stdint.h>

#define MLX5_TOEPLITZ_KEY_BYTES 40

uint32_t mlx5_toeplitz(const uint8_t key[MLX5_TOEPLITZ_KEY_BYTES],
                       const uint8_t *input, size_t n);

#endif
