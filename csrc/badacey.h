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
 * The vector paths sort the cards with a 9-comparator network (branch-free min/max on 8 or 16 lanes);
 * the scalar batch loops and showdown.c's scalar pass 1 take them sorted from the hand's 52-bit card
 * mask by count-trailing-zeros instead (bd_index_bits5), ~20 % cheaper than the network in scalar code
 * on this project's Zen 4 box (a popcount per card, the other way to use the mask, is much slower
 * without the popcnt instruction).  Sorted order makes validation (all distinct, all < 52) cheap.
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

/* The card mask of five card ids: bit (c & 63) for each card c (ids of 64 or more alias; callers that
 * validate test (c0 | ... | c4) >> 6 for them). */
static inline uint64_t bd_bits5(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t c4)
{
    return ((uint64_t)1 << (c0 & 63)) | ((uint64_t)1 << (c1 & 63)) | ((uint64_t)1 << (c2 & 63)) |
           ((uint64_t)1 << (c3 & 63)) | ((uint64_t)1 << (c4 & 63));
}

/* Colex index of the five lowest cards of a card mask (bit c = card c), the cards taken in order by
 * count-trailing-zeros: no sort.  Cheaper than bd_index5 for scalar code (measured on this project's
 * Zen 4 box, portable x86-64 build: ~3.2 ns a hand against ~4.0 for the sorting network), and it is
 * the hash that the scalar batch loops and showdown.c's pass 1 share.  Five guard bits above the 52
 * card bits make every ctz defined and every card 0..63 (inside bd_binom) whatever the mask; *top gets
 * the fifth card found, which is 52 or more exactly when the mask holds fewer than five cards 0..51 (a
 * repeated card, or an id 52..63 masked out), so a hand of five distinct valid cards has *top < 52.
 * The index is clamped into the table for any input. */
static inline uint32_t bd_index_bits5(uint64_t bits, uint32_t *top)
{
    uint64_t m = (bits & (((uint64_t)1 << 52) - 1)) | ((uint64_t)0x1F << 59);
    uint32_t c0 = (uint32_t)__builtin_ctzll(m);
    m &= m - 1;
    uint32_t c1 = (uint32_t)__builtin_ctzll(m);
    m &= m - 1;
    uint32_t c2 = (uint32_t)__builtin_ctzll(m);
    m &= m - 1;
    uint32_t c3 = (uint32_t)__builtin_ctzll(m);
    m &= m - 1;
    uint32_t c4 = (uint32_t)__builtin_ctzll(m);
    uint32_t i = bd_binom[0][c0] + bd_binom[1][c1] + bd_binom[2][c2] + bd_binom[3][c3] + bd_binom[4][c4];
    *top = c4;
    return i < BD_HANDS5 ? i : 0;
}

/* Prefetch a table entry where the compiler can (the scalar loops hash a block of rows, prefetching
 * each entry, then read them: the loads overlap instead of stalling one by one). */
#if defined(__GNUC__) || defined(__clang__)
#define BD_PREFETCH(p) __builtin_prefetch(p)
#else
#define BD_PREFETCH(p) ((void)(p))
#endif

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

/* The vector kernels (badacey.c, showdown.c) exist where this holds (level 2 also uses popcnt, which
 * every AVX-512 CPU has); BD_NO_SIMD at compile time removes
 * them.  bd_have_vbmi() asks the CPU; the batch functions choose through bd_simd_level() instead, which
 * also honours BADACEY_FAST_ISA. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BD_NO_SIMD)
#define BD_X86_SIMD 1
static inline int bd_have_vbmi(void)
{
    /* __builtin_cpu_supports also reflects whether the OS enabled the AVX-512 state. */
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("popcnt");
}
/* Level 1 needs AVX2 (the 8-lane hash below), BMI1/BMI2 (the card-mask hash, bd_index_bits5: tzcnt,
 * blsr, shlx) and popcnt (showdown.c's row check); every AVX2 CPU made has all four. */
static inline int bd_have_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("popcnt");
}
#define BD_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#include <immintrin.h>

/* The AVX2 hash of 8 five-card hands, shared by badacey.c's batch path and showdown.c's pass 1.
 * Each 128-bit half takes 4 hands (20 bytes) from two overlapping 16-byte loads, bytes placed into
 * 32-bit lanes by two vpshufb + vpor: exactly the 40 bytes p[0..40) are read.  The columns are sorted
 * with the 9-comparator network (bd_sort5's, on 8 lanes); then the binomials are computed in float:
 * C(x,2) = x(x-1)/2, C(x,k) = C(x,k-1)(x-k+1)/k, every intermediate an integer below 2^24 (exact in
 * float; rounding after the one inexact 1/3 step).  About 2x the scalar sorting loop on Zen 4. */
struct bd_avx2_consts {
    __m256i ma[5], mb[5]; /* vpshufb controls: card j from the load at +0 / the load at +4 */
};

BD_TARGET_AVX2 static inline void bd_avx2_init(struct bd_avx2_consts *k)
{
    for (int j = 0; j < 5; j++) {
        int8_t a[32], b[32];
        for (int half = 0; half < 2; half++)
            for (int r = 0; r < 4; r++)
                for (int q = 0; q < 4; q++) {
                    int pos = 16 * half + 4 * r + q, src = 5 * r + j; /* card j of hand r: byte src */
                    a[pos] = (int8_t)(q == 0 && src < 16 ? src : -128);      /* from the load at +0 */
                    b[pos] = (int8_t)(q == 0 && src >= 16 ? src - 4 : -128); /* from the load at +4 */
                }
        k->ma[j] = _mm256_loadu_si256((const __m256i *)a);
        k->mb[j] = _mm256_loadu_si256((const __m256i *)b);
    }
}

#define BD_CE8(x, y)                              \
    do {                                          \
        __m256i lo_ = _mm256_min_epu32(x, y);     \
        (y) = _mm256_max_epu32(x, y);             \
        (x) = lo_;                                \
    } while (0)

/* The colex indexes (clamped into the table) of the 8 hands at p[0..40); *high gets all-ones lanes for
 * hands with a card id > 51, *repeat for hands with a card twice; bits, unless NULL, gets each hand's
 * card mask (bit c & 63 for each card c, as bd_bits5). */
BD_TARGET_AVX2 static inline __m256i bd_avx2_hash8(const struct bd_avx2_consts *k, const uint8_t *p, __m256i *high,
                                                  __m256i *repeat, uint64_t *bits)
{
    const __m256i c51 = _mm256_set1_epi32(51), last = _mm256_set1_epi32(BD_HANDS5 - 1);
    const __m256i m63 = _mm256_set1_epi32(63);
    const __m256 one = _mm256_set1_ps(1.f), two = _mm256_set1_ps(2.f), three = _mm256_set1_ps(3.f);
    const __m256 four = _mm256_set1_ps(4.f), half = _mm256_set1_ps(0.5f), third = _mm256_set1_ps(1.f / 3);
    const __m256 quarter = _mm256_set1_ps(0.25f), fifth = _mm256_set1_ps(0.2f);
    __m256i A = _mm256_loadu2_m128i((const __m128i *)(p + 20), (const __m128i *)p);
    __m256i B = _mm256_loadu2_m128i((const __m128i *)(p + 24), (const __m128i *)(p + 4));
#define BD_COL8(j) _mm256_or_si256(_mm256_shuffle_epi8(A, k->ma[j]), _mm256_shuffle_epi8(B, k->mb[j]))
    __m256i a = BD_COL8(0), b = BD_COL8(1), c = BD_COL8(2), d = BD_COL8(3), e = BD_COL8(4);
#undef BD_COL8
    if (bits) {
        const __m256i one64 = _mm256_set1_epi64x(1);
        __m256i cols[5] = {a, b, c, d, e}, lo = _mm256_setzero_si256(), hi = lo;
        for (int j = 0; j < 5; j++) {
            __m256i x = _mm256_and_si256(cols[j], m63);
            lo = _mm256_or_si256(lo, _mm256_sllv_epi64(one64, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(x))));
            hi = _mm256_or_si256(hi, _mm256_sllv_epi64(one64, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(x, 1))));
        }
        _mm256_storeu_si256((__m256i *)bits, lo);
        _mm256_storeu_si256((__m256i *)(bits + 4), hi);
    }
    BD_CE8(a, b); BD_CE8(d, e); BD_CE8(c, e); BD_CE8(c, d); BD_CE8(b, e);
    BD_CE8(a, d); BD_CE8(a, c); BD_CE8(b, d); BD_CE8(b, c);
    *high = _mm256_cmpgt_epi32(e, c51);
    *repeat = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi32(a, b), _mm256_cmpeq_epi32(b, c)),
                              _mm256_or_si256(_mm256_cmpeq_epi32(c, d), _mm256_cmpeq_epi32(d, e)));
    __m256 fb = _mm256_cvtepi32_ps(_mm256_and_si256(b, m63)), fc = _mm256_cvtepi32_ps(_mm256_and_si256(c, m63));
    __m256 fd = _mm256_cvtepi32_ps(_mm256_and_si256(d, m63)), fe = _mm256_cvtepi32_ps(_mm256_and_si256(e, m63));
#define BD_MUL3(x, y, z) _mm256_mul_ps(_mm256_mul_ps(x, y), z)
#define BD_ROUND(x) _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
    __m256 b2 = BD_MUL3(fb, _mm256_sub_ps(fb, one), half);
    __m256 c3 = BD_ROUND(BD_MUL3(BD_MUL3(fc, _mm256_sub_ps(fc, one), half), _mm256_sub_ps(fc, two), third));
    __m256 d3 = BD_ROUND(BD_MUL3(BD_MUL3(fd, _mm256_sub_ps(fd, one), half), _mm256_sub_ps(fd, two), third));
    __m256 d4 = BD_MUL3(d3, _mm256_sub_ps(fd, three), quarter);
    __m256 e3 = BD_ROUND(BD_MUL3(BD_MUL3(fe, _mm256_sub_ps(fe, one), half), _mm256_sub_ps(fe, two), third));
    __m256 e5 = BD_MUL3(BD_MUL3(e3, _mm256_sub_ps(fe, three), quarter), _mm256_sub_ps(fe, four), fifth);
#undef BD_MUL3
#undef BD_ROUND
    __m256 sum = _mm256_add_ps(_mm256_add_ps(b2, c3), _mm256_add_ps(d4, e5));
    __m256i idx = _mm256_add_epi32(_mm256_cvtps_epi32(sum), _mm256_and_si256(a, m63));
    return _mm256_min_epu32(idx, last); /* unchecked garbage stays inside the table */
}

/* The AVX-512 VBMI hash of 16 five-card hands, shared by badacey.c's batch path and showdown.c's pass 1
 * (machines with bd_have_vbmi(), chosen at run time).  The 80 bytes of 16 hands are transposed into five
 * 32-bit columns with byte permutes (vpermt2b; gathers are slow on AMD Zen 4), sorted with the
 * 9-comparator network (min/max on 16 lanes), and the colex binomials come from 64-entry in-register
 * copies of bd_binom (two vpermt2d + a blend each).  Exactly p[0..80) is read. */
#define BD_TARGET_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt")))

struct bd_vbmi_consts {
    __m512i sel[5];      /* byte k < 16 of sel[j]: byte 5k + j of the 80 bytes (card j of hand k) */
    __m512i binom[4][4]; /* bd_binom[k + 1][16q .. 16q + 15] in binom[k][q] */
};

BD_TARGET_VBMI static inline void bd_vbmi_init(struct bd_vbmi_consts *k)
{
    const __m512i five_q = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                              _mm512_set1_epi32(5));
    for (int j = 0; j < 5; j++) /* bytes 16..63 are never used: permute lanes past 16 are dropped */
        k->sel[j] = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(_mm512_add_epi32(five_q, _mm512_set1_epi32(j))));
    for (int r = 0; r < 4; r++)
        for (int q = 0; q < 4; q++)
            k->binom[r][q] = _mm512_loadu_si512(&bd_binom[r + 1][16 * q]);
}

/* binom[v] for v in 0..63 from the four registers holding a 64-entry row (two 32-entry permutes). */
BD_TARGET_VBMI static inline __m512i bd_vbmi_lut64(const __m512i *row, __m512i v)
{
    __m512i low = _mm512_permutex2var_epi32(row[0], v, row[1]);
    __m512i high = _mm512_permutex2var_epi32(row[2], v, row[3]);
    return _mm512_mask_blend_epi32(_mm512_test_epi32_mask(v, _mm512_set1_epi32(32)), low, high);
}

#define BD_CE16(x, y)                             \
    do {                                          \
        __m512i lo_ = _mm512_min_epu32(x, y);     \
        (y) = _mm512_max_epu32(x, y);             \
        (x) = lo_;                                \
    } while (0)

/* The colex indexes (clamped into the table) of the 16 hands at p[0..80); *high gets the hands with a
 * card id > 51, *repeat (unless NULL) those with a card twice; bits (unless NULL) gets each hand's card
 * mask (bit c & 63 for each card c, as bd_bits5) in two 32-bit halves: lane k of bits[0] holds bits
 * 0..31, of bits[1] bits 32..63 (shifts within 32-bit lanes: no widening shuffles). */
BD_TARGET_VBMI static inline __m512i bd_vbmi_hash16(const struct bd_vbmi_consts *k, const uint8_t *p,
                                                   __mmask16 *high, __mmask16 *repeat, __m512i *bits)
{
    const __m512i c51 = _mm512_set1_epi32(51), last = _mm512_set1_epi32(BD_HANDS5 - 1);
    const __m512i m63 = _mm512_set1_epi32(63);
    __m512i lo64 = _mm512_loadu_si512(p);
    __m512i hi16 = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(p + 64)));
    __m512i col[5];
    for (int j = 0; j < 5; j++)
        col[j] = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(_mm512_permutex2var_epi8(lo64, k->sel[j], hi16)));
    if (bits) {
        /* vpsllvd gives 0 for a count of 32 or more: c < 32 sets a bit of lo only, c >= 32 (c - 32 in
         * 0..31, else wrapped past 2^31) one of hi only. */
        const __m512i one = _mm512_set1_epi32(1), c32 = _mm512_set1_epi32(32);
        __m512i lo = _mm512_setzero_si512(), hi = lo;
        for (int j = 0; j < 5; j++) {
            __m512i c = _mm512_and_si512(col[j], m63);
            lo = _mm512_or_si512(lo, _mm512_sllv_epi32(one, c));
            hi = _mm512_or_si512(hi, _mm512_sllv_epi32(one, _mm512_sub_epi32(c, c32)));
        }
        bits[0] = lo;
        bits[1] = hi;
    }
    __m512i a = col[0], b = col[1], c = col[2], d = col[3], e = col[4];
    BD_CE16(a, b); BD_CE16(d, e); BD_CE16(c, e); BD_CE16(c, d); BD_CE16(b, e);
    BD_CE16(a, d); BD_CE16(a, c); BD_CE16(b, d); BD_CE16(b, c);
    *high = _mm512_cmpgt_epu32_mask(e, c51);
    if (repeat)
        *repeat = _mm512_cmpeq_epi32_mask(a, b) | _mm512_cmpeq_epi32_mask(b, c) | _mm512_cmpeq_epi32_mask(c, d) |
                  _mm512_cmpeq_epi32_mask(d, e);
    __m512i idx = _mm512_add_epi32(
        _mm512_add_epi32(_mm512_and_si512(a, m63), bd_vbmi_lut64(k->binom[0], _mm512_and_si512(b, m63))),
        _mm512_add_epi32(_mm512_add_epi32(bd_vbmi_lut64(k->binom[1], _mm512_and_si512(c, m63)),
                                          bd_vbmi_lut64(k->binom[2], _mm512_and_si512(d, m63))),
                         bd_vbmi_lut64(k->binom[3], _mm512_and_si512(e, m63))));
    return _mm512_min_epu32(idx, last); /* unchecked garbage stays inside the table */
}
#endif

#endif /* BADACEY_H */
