/* badacey.h -- the C API of the badacey_fast lookup kernel (plain C11, no Python.h).
 *
 * Tables (generated at build time, loaded by Python, passed in as `const uint32_t *`): per game
 * (0 = Badacey, 1 = Badeucy) BD_HANDS5 + BD_BADUGI_MASKS entries.
 *   table[bd_index5(...)]     = low_rank | badugi_rank << 16 of a five-card hand;
 *   table[BD_HANDS5 + mask]   = badugi_rank << 16 of the 13-bit mask of the ranks that play (1..4 bits).
 * Every rank is dense and LOWER IS BETTER: low 1..6175 or 1..7462 (2-7), badugi 1..1092.
 * A packed entry is never 0 for a valid hand, so 0 doubles as "invalid input" in return values.
 *
 * The perfect hash: colex rank of the sorted cards, c0 < c1 < c2 < c3 < c4:
 *   index = C(c0,1) + C(c1,2) + C(c2,3) + C(c3,4) + C(c4,5)   in 0 .. 2,598,959.
 * Cards are sorted by a 9-comparator network (branch-free min/max).  Chosen over a 52-bit card mask
 * (index = sum of C(c, 1 + popcount(mask below c))) because it needs no popcnt/bmi instructions
 * (portable builds keep full speed), the sorted order makes validation (all distinct, all < 52) a few
 * compares, and it vectorises (16 lanes of vpminud/vpmaxud).  Measured here, scalar batch loops:
 * sorting network ~125 M hands/s, mask + popcount ~35 M/s (~50 M/s with -mpopcnt).
 *
 * Rules for every function here: no global mutable state, table pointers are arguments, and no read or
 * write ever goes past a buffer whatever the input (even with check = 0, out-of-range cards are masked
 * and the index clamped, so garbage in gives garbage ranks, never a stray access).
 *
 * Other kernel files include this header and may use the static inline helpers below (bd_index5,
 * bd_lookup5, bd_index_sorted5, bd_badugi_small).  Declarations between the BD_CDEF markers are read
 * by csrc/build_ffi.py into cffi's cdef: keep them to what cffi's parser understands.
 */
#ifndef BADACEY_H
#define BADACEY_H

#include <stddef.h>
#include <stdint.h>

/* BD_CDEF_BEGIN */
#define BD_HANDS5 2598960
#define BD_BADUGI_MASKS 8192
#define BD_TABLE_ENTRIES 2607152

/* Packed entry (low_rank | badugi_rank << 16, lower is better) of five cards in any order, or 0 if a
 * card is outside 0..51 or repeated.  The single-hand fast path from Python. */
uint32_t bd_eval5(const uint32_t *table, int c0, int c1, int c2, int c3, int c4);

/* Badugi rank (1..1092, lower is better) of n = 1..5 cards, or 0 if n is out of range or a card is
 * outside 0..51 or repeated.  For n = 5 the five-card entry is used; else the rank-mask entries. */
uint32_t bd_badugi_rank(const uint32_t *table, const uint8_t *cards, size_t n);

/* Batch evaluation of n five-card rows of uint8 card ids; row i starts at cards[i * row_stride] and
 * its cards are col_stride bytes apart (strides in bytes, may be any value including negative).
 * Writes low[i] and badugi[i] (either pointer may be NULL to skip that half).
 * check != 0: validates every row; returns the index of the first bad row (a card > 51 or repeated),
 * having written only the rows before it; returns -1 when all rows were good.
 * check == 0: no validation (bad rows give meaningless ranks, still no out-of-bounds access); -1. */
int64_t bd_eval_many(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                     int64_t col_stride, uint16_t *low, uint16_t *badugi, int check);

/* Code paths ("ISA levels") of the batch kernels: 0 scalar (portable C), 1 AVX2 (AVX2 + BMI1/2),
 * 2 AVX-512 VBMI.  The environment variable BADACEY_FAST_ISA = auto | avx512 | avx2 | scalar, read once
 * at first use, caps the path every batch function takes (auto or unset: the CPU's best). */
#define BD_ISA_SCALAR 0
#define BD_ISA_AVX2 1
#define BD_ISA_AVX512 2

/* The vector path the kernel uses: the CPU's best, capped by BADACEY_FAST_ISA. */
int bd_simd_level(void);

/* The best path this CPU (and OS) can run, whatever BADACEY_FAST_ISA says. */
int bd_cpu_simd_level(void);

/* 0 when BADACEY_FAST_ISA is unset, auto, or a path this CPU has.  Otherwise (an unknown value, or a
 * path the CPU lacks) writes a NUL-terminated message naming the variable, its value and what the CPU
 * has into msg[0..cap) and returns 1; the kernel then runs the best path it can (never an illegal
 * instruction), and the Python package refuses to use it (csrc/cpython/speedups.c raises). */
int bd_isa_check(char *msg, size_t cap);

/* bd_eval_many using vector paths up to `level` only (0 = scalar loops): for tests and benchmarks. */
int64_t bd_eval_many_level(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                           int64_t col_stride, uint16_t *low, uint16_t *badugi, int check, int level);

/* One thread's share of a batch split across threads (each thread calls this with the same arguments):
 * claims chunks of `chunk` rows from the shared counter *next (atomically; the caller owns it and sets
 * it to 0 first) and evaluates them as bd_eval_many does.  Returns the first bad row this call met, or
 * -1; the smallest result over all the calls is the batch's first bad row (with check != 0, rows after
 * it may be left unwritten). */
int64_t bd_eval_many_shared(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                            int64_t col_stride, uint16_t *low, uint16_t *badugi, int check, int64_t *next,
                            int64_t chunk);

/* Same, writing the packed uint32 entries (low | badugi << 16) to out[i]. */
int64_t bd_lookup_many(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                       int64_t col_stride, uint32_t *out, int check);

/* Badugi ranks of n rows of k = 1..5 cards each (strides as above) into out[i].  Returns the first
 * bad row (card > 51 or repeated; with check == 0 only k out of range is reported, as row 0) or -1. */
int64_t bd_badugi_many(const uint32_t *table, const uint8_t *cards, int64_t n, int k,
                       int64_t row_stride, int64_t col_stride, uint16_t *out, int check);
/* Four-card Badugi hands: a derived table of BD_HANDS4 uint16 badugi ranks by the colex index of the
 * four sorted cards (C(c0,1) + C(c1,2) + C(c2,3) + C(c3,4)).  bd_fill_badugi4 computes it from a game
 * table's rank-mask entries (so it inherits that table's integrity check); bd_badugi4_many then ranks
 * n rows of 4 cards with one load each.  Return value and strides as bd_eval_many. */
#define BD_HANDS4 270725
void bd_fill_badugi4(const uint32_t *table, uint16_t *table4);
int64_t bd_badugi4_many(const uint16_t *table4, const uint8_t *cards, int64_t n, int64_t row_stride,
                        int64_t col_stride, uint16_t *out, int check);
/* bd_badugi_many and bd_badugi4_many split across threads the same way as bd_eval_many_shared. */
int64_t bd_badugi_many_shared(const uint32_t *table, const uint8_t *cards, int64_t n, int k, int64_t row_stride,
                              int64_t col_stride, uint16_t *out, int check, int64_t *next, int64_t chunk);
int64_t bd_badugi4_many_shared(const uint16_t *table4, const uint8_t *cards, int64_t n, int64_t row_stride,
                               int64_t col_stride, uint16_t *out, int check, int64_t *next, int64_t chunk);
/* BD_CDEF_END */

/* C(n, k) for n = 0..63 and k = 1..5, stored as bd_binom[k - 1][n]; rows past 51 exist only so that
 * unchecked garbage (masked to 6 bits) stays inside this array. */
extern const uint32_t bd_binom[5][64];

#define BD_SWAP_(a, b)                    \
    do {                                  \
        uint32_t lo_ = (a) < (b) ? (a) : (b); \
        uint32_t hi_ = (a) < (b) ? (b) : (a); \
        (a) = lo_;                        \
        (b) = hi_;                        \
    } while (0)

/* Sort five values ascending in place: the optimal 9-comparator network for 5 inputs. */
static inline void bd_sort5(uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d, uint32_t *e)
{
    BD_SWAP_(*a, *b);
    BD_SWAP_(*d, *e);
    BD_SWAP_(*c, *e);
    BD_SWAP_(*c, *d);
    BD_SWAP_(*b, *e);
    BD_SWAP_(*a, *d);
    BD_SWAP_(*a, *c);
    BD_SWAP_(*b, *d);
    BD_SWAP_(*b, *c);
}

/* Colex index of five SORTED distinct cards (c0 < c1 < ... < c4 <= 51).  Masks and clamps so that any
 * input stays in 0..BD_HANDS5-1 (garbage in, garbage out, never out of bounds). */
static inline uint32_t bd_index_sorted5(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t c4)
{
    uint32_t i = bd_binom[0][c0 & 63] + bd_binom[1][c1 & 63] + bd_binom[2][c2 & 63] +
                 bd_binom[3][c3 & 63] + bd_binom[4][c4 & 63];
    return i < BD_HANDS5 ? i : 0;
}

/* The perfect hash of five distinct cards 0..51 in any order: their colex index, 0..2,598,959. */
static inline uint32_t bd_index5(uint8_t c0, uint8_t c1, uint8_t c2, uint8_t c3, uint8_t c4)
{
    uint32_t a = c0, b = c1, c = c2, d = c3, e = c4;
    bd_sort5(&a, &b, &c, &d, &e);
    return bd_index_sorted5(a, b, c, d, e);
}

/* Packed entry (low | badugi << 16) of five distinct valid cards in any order. */
static inline uint32_t bd_lookup5(const uint32_t *table, uint8_t c0, uint8_t c1, uint8_t c2, uint8_t c3,
                                  uint8_t c4)
{
    return table[bd_index5(c0, c1, c2, c3, c4)];
}

/* Colex index of four cards in any order (valid, distinct), 0..BD_HANDS4-1; any input stays in range. */
static inline uint32_t bd_index4(uint8_t c0, uint8_t c1, uint8_t c2, uint8_t c3)
{
    uint32_t a = c0, b = c1, c = c2, d = c3, i;
    BD_SWAP_(a, b);
    BD_SWAP_(c, d);
    BD_SWAP_(a, c);
    BD_SWAP_(b, d);
    BD_SWAP_(b, c);
    i = bd_binom[0][a & 63] + bd_binom[1][b & 63] + bd_binom[2][c & 63] + bd_binom[3][d & 63];
    return i < BD_HANDS4 ? i : 0;
}

/* The low rank (1..7462, lower is better) and badugi rank (1..1092) halves of a packed entry. */
static inline uint32_t bd_low_of(uint32_t entry) { return entry & 0xFFFFu; }
static inline uint32_t bd_badugi_of(uint32_t entry) { return entry >> 16; }

/* Badugi rank of n = 1..4 distinct valid cards (ids 0..51): best over the subsets whose ranks and
 * suits are all different, via the rank-mask entries of the table. */
static inline uint32_t bd_badugi_small(const uint32_t *table, const uint8_t *cards, unsigned n)
{
    uint32_t best = 0xFFFFu;
    unsigned subsets = 1u << n;
    for (unsigned s = 1; s < subsets; s++) {
        uint32_t rm = 0, sm = 0, size = 0;
        for (unsigned j = 0; j < n; j++) {
            if (s >> j & 1u) {
                rm |= 1u << (cards[j] >> 2 & 15);
                sm |= 1u << (cards[j] & 3);
                size++;
            }
        }
        if ((uint32_t)__builtin_popcount(rm) == size && (uint32_t)__builtin_popcount(sm) == size) {
            uint32_t r = table[BD_HANDS5 + (rm & (BD_BADUGI_MASKS - 1))] >> 16;
            best = r < best ? r : best;
        }
    }
    return best;
}

/* The vector kernels (badacey.c, showdown.c) exist where this holds; BD_NO_SIMD at compile time removes
 * them.  bd_have_vbmi() asks the CPU; the batch functions choose through bd_simd_level() instead, which
 * also honours BADACEY_FAST_ISA. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BD_NO_SIMD)
#define BD_X86_SIMD 1
static inline int bd_have_vbmi(void)
{
    /* __builtin_cpu_supports also reflects whether the OS enabled the AVX-512 state. */
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
}
/* Level 1 needs AVX2 (badacey.c's 8-lane hash) and BMI1/BMI2 (showdown.c's card-mask hash: tzcnt, blsr,
 * shlx); every AVX2 CPU made has all three. */
static inline int bd_have_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
}
#define BD_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2")))
#endif

#endif /* BADACEY_H */
