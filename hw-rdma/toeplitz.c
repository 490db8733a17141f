/* Toeplitz hash: see toeplitz.h. */
#include "toeplitz.h"

uint32_t mlx5_toeplitz(const uint8_t key[MLX5_TOEPLITZ_KEY_BYTES],
                       const uint8_t *input, size_t n)
{
    /* A 32-bit window over the key slides one bit per input bit; every set
     * input bit XORs the window into the result.  The key covers inputs
     * of up to 36 bytes (40 - 4), which is what IPv6 + ports needs. */
    uint32_t window = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 |
                      (uint32_t)key[2] << 8 | key[3];
    uint32_t hash = 0;

    if (n > MLX5_TOEPLITZ_KEY_BYTES - 4) {
        n = MLX5_TOEPLITZ_KEY_BYTES - 4;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t next = key[i + 4];
        for (int b = 7; b >= 0; b--) {
            if (input[i] & (1u << b)) {
                hash ^= window;
            }
            window = window << 1 | ((next >> b) & 1);
        }
    }
    return hash;
}
