/* SipHash-2-4: see siphash.h.  Written from the paper's description
 * (section 2: initialization, compression with 2 SipRounds per 8-byte
 * little-endian word, the last word carrying the length in its top byte,
 * finalization with 4 SipRounds). */
#include "siphash.h"

static uint64_t rotl64(uint64_t x, unsigned b)
{
    return (x << b) | (x >> (64 - b));
}

static uint64_t le64(const uint8_t *p, size_t n)
{
    uint64_t v = 0;

    for (size_t i = 0; i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static void sip_round(uint64_t v[4])
{
    v[0] += v[1]; v[1] = rotl64(v[1], 13); v[1] ^= v[0]; v[0] = rotl64(v[0], 32);
    v[2] += v[3]; v[3] = rotl64(v[3], 16); v[3] ^= v[2];
    v[0] += v[3]; v[3] = rotl64(v[3], 21); v[3] ^= v[0];
    v[2] += v[1]; v[1] = rotl64(v[1], 17); v[1] ^= v[2]; v[2] = rotl64(v[2], 32);
}

static void sip_word(uint64_t v[4], uint64_t m, unsigned rounds)
{
    v[3] ^= m;
    for (unsigned r = 0; r < rounds; r++) {
        sip_round(v);
    }
    v[0] ^= m;
}

uint64_t mlx5_siphash(const uint8_t key[16], const uint8_t *data, size_t len)
{
    uint64_t k0 = le64(key, 8), k1 = le64(key + 8, 8);
    uint64_t v[4] = {
        k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
        k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull,
    };
    size_t whole = len & ~(size_t)7;

    for (size_t i = 0; i < whole; i += 8) {
        sip_word(v, le64(data + i, 8), 2);
    }
    sip_word(v, le64(data + whole, len - whole) | (uint64_t)(len & 0xff) << 56, 2);
    v[2] ^= 0xff;
    for (unsigned r = 0; r < 4; r++) {
        sip_round(v);
    }
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}
