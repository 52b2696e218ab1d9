/* badacey.c -- perfect-hash lookups: single hands, batches over strided uint8 buffers, badugi of 1..5
 * cards; the choice of code path (BADACEY_FAST_ISA).  Plain C11; no Python.h; no global mutable state
 * beyond the one cached ISA level (see below); see badacey.h for the contracts. */
#include "badacey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Which code path: the CPU's best, capped by BADACEY_FAST_ISA -------------------------------------
 * The variable is read once, at the first batch call (or bd_isa_check), and the effective level cached:
 * computing it twice gives the same value, so racing first calls are harmless (relaxed atomics keep the
 * access well defined).  Python checks bd_isa_check() when it loads a table, before any batch call, so a
 * wrong value is an exception there; a C caller that skips the check still gets a path its CPU runs. */
#define BD_ISA_ENV "BADACEY_FAST_ISA"
#define BD_ISA_AUTO (-1)
#define BD_ISA_INVALID (-2)

int bd_cpu_simd_level(void)
{
#ifdef BD_X86_SIMD
    if (bd_have_avx2())
        return bd_have_vbmi() ? BD_ISA_AVX512 : BD_ISA_AVX2;
#endif
    return BD_ISA_SCALAR;
}

static const char *const bd_isa_names[3] = {"scalar", "avx2", "avx512"};

/* The value of BADACEY_FAST_ISA as a level, BD_ISA_AUTO, or BD_ISA_INVALID; *raw gets the text. */
static int bd_isa_requested(const char **raw)
{
    const char *v = getenv(BD_ISA_ENV);
    char word[16];
    size_t len = 0;
    *raw = v ? v : "";
    if (!v)
        return BD_ISA_AUTO;
    while (*v == ' ' || *v == '\t')
        v++;
    while (v[len] && v[len] != ' ' && v[len] != '\t' && len < sizeof word - 1) {
        char c = v[len];
        word[len++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    word[len] = 0;
    for (size_t k = len; v[k]; k++)
        if (v[k] != ' ' && v[k] != '\t')
            return BD_ISA_INVALID; /* trailing text, or a word too long to be a name */
    if (len == 0 || strcmp(word, "auto") == 0)
        return BD_ISA_AUTO;
    for (int level = 0; level < 3; level++)
        if (strcmp(word, bd_isa_names[level]) == 0)
            return level;
    return BD_ISA_INVALID;
}

#if defined(__GNUC__) || defined(__clang__)
#define BD_LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define BD_STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#else
#define BD_LOAD_RELAXED(p) (*(volatile int *)(p))
#define BD_STORE_RELAXED(p, v) (*(volatile int *)(p) = (v))
#endif

static int bd_isa_level = -1; /* -1: not yet computed */

int bd_simd_level(void)
{
    int level = BD_LOAD_RELAXED(&bd_isa_level);
    if (level < 0) {
        const char *raw;
        int want = bd_isa_requested(&raw), have = bd_cpu_simd_level();
        level = want >= 0 && want < have ? want : have;
        BD_STORE_RELAXED(&bd_isa_level, level);
    }
    return level;
}

int bd_isa_check(char *msg, size_t cap)
{
    const char *raw;
    int want = bd_isa_requested(&raw), have = bd_cpu_simd_level();
    char has[40];
    if (want == BD_ISA_AUTO || (want >= 0 && want <= have))
        return 0;
    has[0] = 0;
    for (int level = have; level >= 0; level--) {
        strcat(has, bd_isa_names[level]);
        if (level)
            strcat(has, ", ");
    }
    if (msg && cap) {
        if (want == BD_ISA_INVALID)
            snprintf(msg, cap, "%s=%.40s is not one of auto, avx512, avx2, scalar (this CPU has: %s)",
                     BD_ISA_ENV, raw, has);
        else
            snprintf(msg, cap, "%s=%.40s asks for the %s code path, which this CPU lacks (it has: %s)",
                     BD_ISA_ENV, raw, bd_isa_names[want], has);
    }
    return 1;
}

#define B1(n) ((uint32_t)(n))
#define B2(n) ((uint32_t)((n) * ((n) - 1) / 2))
#define B3(n) ((uint32_t)((n) * ((n) - 1) * ((n) - 2) / 6))
#define B4(n) ((uint32_t)((uint64_t)(n) * ((n) - 1) * ((n) - 2) * ((n) - 3) / 24))
#define B5(n) ((uint32_t)((uint64_t)(n) * ((n) - 1) * ((n) - 2) * ((n) - 3) * ((n) - 4) / 120))
#define ROW8(B, n) B(n), B(n + 1), B(n + 2), B(n + 3), B(n + 4), B(n + 5), B(n + 6), B(n + 7)
#define ROW64(B) ROW8(B, 0), ROW8(B, 8), ROW8(B, 16), ROW8(B, 24), ROW8(B, 32), ROW8(B, 40), ROW8(B, 48), ROW8(B, 56)

/* C(n, k) by formula: the products vanish for n < k, as binomials should. */
const uint32_t bd_binom[5][64] = {{ROW64(B1)}, {ROW64(B2)}, {ROW64(B3)}, {ROW64(B4)}, {ROW64(B5)}};

/* Hash a row (bd_index_bits5: its card mask, no sort), report whether it is five distinct cards 0..51,
 * and return its index through *index (always in range). */
static inline int bd_row_index(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t *index)
{
    uint32_t top;
    *index = bd_index_bits5(bd_bits5(a, b, c, d, e), &top);
    return ((a | b | c | d | e) >> 6 == 0) & (top < 52);
}

uint32_t bd_eval5(const uint32_t *table, int c0, int c1, int c2, int c3, int c4)
{
    uint32_t index;
    /* Negative ints become huge unsigned values and fail the range check. */
    if (!bd_row_index((uint32_t)c0, (uint32_t)c1, (uint32_t)c2, (uint32_t)c3, (uint32_t)c4, &index))
        return 0;
    return table[index];
}

uint32_t bd_badugi_rank(const uint32_t *table, const uint8_t *cards, size_t n)
{
    uint64_t seen = 0;
    if (n < 1 || n > 5)
        return 0;
    for (size_t j = 0; j < n; j++) {
        if (cards[j] > 51 || (seen >> cards[j] & 1u))
            return 0;
        seen |= (uint64_t)1 << cards[j];
    }
    if (n == 5)
        return table[bd_index5(cards[0], cards[1], cards[2], cards[3], cards[4])] >> 16;
    return bd_badugi_small(table, cards, (unsigned)n);
}

/* One scalar loop body for every batch entry point, instantiated for the C-contiguous (N, 5) uint8
 * layout (no stride arithmetic) and for any strides.  Rows are hashed in blocks first, each entry
 * prefetched, and looked up after, so the table loads of a block overlap in the memory system while the
 * hashing goes on (the table, 10 MB, is beyond L2).  Measured on this project's shared Zen 4 box,
 * portable build: ~5-6 ns a hand with 256-row blocks and prefetches, against ~10 ns for 32-row blocks
 * without them (and the sorting network, ~1 ns a hand more than bd_index_bits5). */
#define BD_BLOCK 256

#define BD_BATCH_LOOP(ROWPTR, COL, STORE)                                                        \
    for (int64_t start = 0; start < n; start += BD_BLOCK) {                                     \
        int64_t m = n - start < BD_BLOCK ? n - start : BD_BLOCK;                                 \
        uint32_t idx[BD_BLOCK];                                                                  \
        for (int64_t i = 0; i < m; i++) {                                                        \
            const uint8_t *r = ROWPTR(start + i);                                                \
            int ok = bd_row_index(r[COL(0)], r[COL(1)], r[COL(2)], r[COL(3)], r[COL(4)], &idx[i]); \
            BD_PREFETCH(table + idx[i]);                                                         \
            if (check && !ok) {                                                                  \
                for (int64_t j = 0; j < i; j++) {                                                \
                    uint32_t e = table[idx[j]];                                                  \
                    STORE(start + j, e);                                                         \
                }                                                                                \
                return start + i;                                                                \
            }                                                                                    \
        }                                                                                        \
        for (int64_t i = 0; i < m; i++) {                                                        \
            uint32_t e = table[idx[i]];                                                          \
            STORE(start + i, e);                                                                 \
        }                                                                                        \
    }                                                                                            \
    return -1;

#define ROW_CONTIG(i) (cards + (i) * 5)
#define ROW_STRIDED(i) (cards + (i) * row_stride)
#define COL_CONTIG(j) (j)
#define COL_STRIDED(j) ((j) * col_stride)

/* Either half may be skipped (NULL); the tests are loop-invariant, so they predict perfectly. */
#define STORE_HALVES(i, e)                        \
    do {                                          \
        if (low)                                  \
            low[i] = (uint16_t)(e);               \
        if (badugi)                               \
            badugi[i] = (uint16_t)((e) >> 16);    \
    } while (0)
#define STORE_PACKED(i, e) (out[i] = (e))

#define BD_DEFINE_BATCH(NAME, PARAMS, STORE)                                                              \
    static int64_t NAME##_contig(const uint32_t *table, const uint8_t *cards, int64_t n, PARAMS, int check) \
    {                                                                                                     \
        BD_BATCH_LOOP(ROW_CONTIG, COL_CONTIG, STORE)                                                      \
    }                                                                                                     \
    static int64_t NAME##_strided(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride, \
                                  int64_t col_stride, PARAMS, int check)                                  \
    {                                                                                                     \
        BD_BATCH_LOOP(ROW_STRIDED, COL_STRIDED, STORE)                                                    \
    }

#define P_HALVES uint16_t *low, uint16_t *badugi
BD_DEFINE_BATCH(bd_halves, P_HALVES, STORE_HALVES)
BD_DEFINE_BATCH(bd_packed, uint32_t *out, STORE_PACKED)

/* ---- AVX-512 VBMI path for the C-contiguous (N, 5) layout: 16 hands per step ---------------------
 * bd_vbmi_hash16 (badacey.h: byte-permute transpose, sorting network on 16 lanes, in-register
 * binomials) hashes 16 hands per step; the entries are then read row by row.
 * Measured on this project's 2-core Zen 4 box: ~550 M hands/s against ~125 M/s for the scalar loop.
 * Chosen at run time (__builtin_cpu_supports, which also checks that the OS enabled AVX-512); without
 * VBMI the AVX2 path below is used, and other layouts use the scalar loops above.
 * Environment: BD_NO_SIMD at compile time removes both paths. */
#ifdef BD_X86_SIMD /* badacey.h */
#include <immintrin.h>

/* The vector paths work in blocks: first hash BD_VBLOCK rows into idx_buf, prefetching each entry,
 * then read the (by then cached) entries.  Separating the two keeps many table misses in flight instead
 * of stalling the hashing; measured +30..50% on this box (the table is 10 MB, beyond L2). */
#define BD_VBLOCK 256

static inline void bd_prefetch(const uint32_t *table, const uint32_t *idx, int count)
{
    for (int q = 0; q < count; q++)
        __builtin_prefetch(table + idx[q]);
}

static inline void bd_lookup_block(const uint32_t *table, const uint32_t *idx, int64_t m, uint16_t *low,
                                   uint16_t *badugi, uint32_t *packed)
{
    for (int64_t k = 0; k < m; k++) {
        uint32_t e = table[idx[k]];
        if (packed)
            packed[k] = e;
        if (low)
            low[k] = (uint16_t)e;
        if (badugi)
            badugi[k] = (uint16_t)(e >> 16);
    }
}
/* Evaluate whole blocks of 16 contiguous rows.  Returns the number of rows done (a multiple of 16);
 * with check != 0 it stops before the first block holding a bad row, so the scalar loop that finishes
 * the batch finds and reports that row.  Reads exactly 80 bytes per block: never past the buffer. */
BD_TARGET_VBMI static int64_t bd_vbmi_rows(const uint32_t *table, const uint8_t *cards, int64_t n, uint16_t *low,
                                           uint16_t *badugi, uint32_t *packed, int check)
{
    struct bd_vbmi_consts consts;
    bd_vbmi_init(&consts);
    uint32_t idx_buf[BD_VBLOCK];
    int64_t i0 = 0;
    while (n - i0 >= 16) {
        int64_t m = n - i0 < BD_VBLOCK ? (n - i0) / 16 * 16 : BD_VBLOCK;
        for (int64_t k = 0; k < m; k += 16) {
            __mmask16 high, repeat = 0;
            __m512i idx = bd_vbmi_hash16(&consts, cards + 5 * (i0 + k), &high, check ? &repeat : NULL, NULL);
            if (check && (high | repeat))
                return i0; /* the scalar loop redoes this block and stops at the bad row */
            _mm512_storeu_si512(idx_buf + k, idx);
            bd_prefetch(table, idx_buf + k, 16);
        }
        bd_lookup_block(table, idx_buf, m, low ? low + i0 : NULL, badugi ? badugi + i0 : NULL,
                        packed ? packed + i0 : NULL);
        i0 += m;
    }
    return i0;
}

/* ---- AVX2 path (no VBMI): 8 hands per step (bd_avx2_hash8, badacey.h) ----------------------------- */
BD_TARGET_AVX2 static int64_t bd_avx2_rows(const uint32_t *table, const uint8_t *cards, int64_t n, uint16_t *low,
                                           uint16_t *badugi, uint32_t *packed, int check)
{
    struct bd_avx2_consts k;
    bd_avx2_init(&k);
    uint32_t idx_buf[BD_VBLOCK];
    int64_t i0 = 0;
    while (n - i0 >= 8) {
        int64_t m = n - i0 < BD_VBLOCK ? (n - i0) / 8 * 8 : BD_VBLOCK;
        for (int64_t q = 0; q < m; q += 8) {
            __m256i high, repeat;
            __m256i idx = bd_avx2_hash8(&k, cards + 5 * (i0 + q), &high, &repeat, NULL);
            if (check) {
                __m256i bad = _mm256_or_si256(high, repeat);
                if (!_mm256_testz_si256(bad, bad))
                    return i0; /* the scalar loop redoes this block and stops at the bad row */
            }
            _mm256_storeu_si256((__m256i *)(idx_buf + q), idx);
            bd_prefetch(table, idx_buf + q, 8);
        }
        bd_lookup_block(table, idx_buf, m, low ? low + i0 : NULL, badugi ? badugi + i0 : NULL,
                        packed ? packed + i0 : NULL);
        i0 += m;
    }
    return i0;
}

/* Rows done by the best vector path up to `level` (see bd_simd_level); 0 when none applies. */
static int64_t bd_simd_rows(const uint32_t *table, const uint8_t *cards, int64_t n, uint16_t *low,
                            uint16_t *badugi, uint32_t *packed, int check, int level)
{
    int have;
    if (n < 16 || level <= 0)
        return 0;
    have = bd_simd_level();
    if (level >= 2 && have >= 2)
        return bd_vbmi_rows(table, cards, n, low, badugi, packed, check);
    if (level >= 1 && have >= 1)
        return bd_avx2_rows(table, cards, n, low, badugi, packed, check);
    return 0;
}
#else
static int64_t bd_simd_rows(const uint32_t *table, const uint8_t *cards, int64_t n, uint16_t *low,
                            uint16_t *badugi, uint32_t *packed, int check, int level)
{
    (void)table, (void)cards, (void)n, (void)low, (void)badugi, (void)packed, (void)check, (void)level;
    return 0;
}
#endif

/* Scalar loops, by layout. */
static int64_t bd_eval_scalar(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                              int64_t col_stride, uint16_t *low, uint16_t *badugi, int check)
{
    if (row_stride == 5 && col_stride == 1)
        return bd_halves_contig(table, cards, n, low, badugi, check);
    return bd_halves_strided(table, cards, n, row_stride, col_stride, low, badugi, check);
}

int64_t bd_eval_many(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                     int64_t col_stride, uint16_t *low, uint16_t *badugi, int check)
{
    return bd_eval_many_level(table, cards, n, row_stride, col_stride, low, badugi, check, 2);
}

int64_t bd_eval_many_level(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                           int64_t col_stride, uint16_t *low, uint16_t *badugi, int check, int level)
{
    int64_t done = 0, bad;
    if (n <= 0)
        return -1;
    if (row_stride == 5 && col_stride == 1 && (low || badugi)) {
        done = bd_simd_rows(table, cards, n, low, badugi, NULL, check, level);
        if (done == n)
            return -1;
    }
    bad = bd_eval_scalar(table, cards + done * row_stride, n - done, row_stride, col_stride,
                         low ? low + done : NULL, badugi ? badugi + done : NULL, check);
    return bad >= 0 ? bad + done : -1;
}

/* Batches split across threads: each thread makes ONE call with the same arguments and the same shared
 * counter (an int64_t the caller owns, set to 0: no global state), and the calls claim chunks of `chunk`
 * rows from it atomically until the batch is done.  Claiming in C, not one Python call per chunk, is what
 * lets the chunks be small (a disturbed core just claims fewer of them) while costing nothing: measured on
 * the 2-core box, 16 chunks claimed from Python gave 1.70x the one-thread rate against 1.89x for two
 * halves (each chunk cost ~7 us of GIL hand-off and wake-up), while this loop gives the halves' figure
 * with 64 chunks.  Chunk starts only grow, so a call stops at its first bad row (its later chunks hold
 * later rows) and pushes the counter past n so the others stop claiming too: rows past the smallest bad
 * row of all calls may be left unwritten, and the smallest bad row over the calls is the batch's first. */
#if defined(_MSC_VER)
#include <intrin.h>
#define BD_CLAIM(next, chunk) _InterlockedExchangeAdd64((volatile long long *)(next), (chunk))
#define BD_STOP(next, n) _InterlockedExchange64((volatile long long *)(next), (n))
#else
#define BD_CLAIM(next, chunk) __atomic_fetch_add((next), (chunk), __ATOMIC_RELAXED)
#define BD_STOP(next, n) __atomic_store_n((next), (n), __ATOMIC_RELAXED)
#endif

#define BD_SHARED_LOOP(CALL)                                                                             \
    if (chunk < 1)                                                                                       \
        chunk = 1;                                                                                       \
    for (;;) {                                                                                           \
        int64_t start = BD_CLAIM(next, chunk), m, bad;                                                   \
        if (start < 0 || start >= n)                                                                     \
            return -1;                                                                                   \
        m = n - start < chunk ? n - start : chunk;                                                       \
        bad = (CALL);                                                                                    \
        if (bad >= 0) {                                                                                  \
            BD_STOP(next, n);                                                                            \
            return start + bad;                                                                          \
        }                                                                                                \
    }

int64_t bd_eval_many_shared(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                            int64_t col_stride, uint16_t *low, uint16_t *badugi, int check, int64_t *next,
                            int64_t chunk)
{
    BD_SHARED_LOOP(bd_eval_many(table, cards + start * row_stride, m, row_stride, col_stride,
                                low ? low + start : NULL, badugi ? badugi + start : NULL, check))
}

int64_t bd_badugi_many_shared(const uint32_t *table, const uint8_t *cards, int64_t n, int k, int64_t row_stride,
                              int64_t col_stride, uint16_t *out, int check, int64_t *next, int64_t chunk)
{
    if (k < 1 || k > 5)
        return 0; /* as bd_badugi_many: a bad k is reported as row 0 */
    BD_SHARED_LOOP(bd_badugi_many(table, cards + start * row_stride, m, k, row_stride, col_stride, out + start,
                                  check))
}

int64_t bd_badugi4_many_shared(const uint16_t *table4, const uint8_t *cards, int64_t n, int64_t row_stride,
                               int64_t col_stride, uint16_t *out, int check, int64_t *next, int64_t chunk)
{
    BD_SHARED_LOOP(bd_badugi4_many(table4, cards + start * row_stride, m, row_stride, col_stride, out + start,
                                   check))
}

int64_t bd_lookup_many(const uint32_t *table, const uint8_t *cards, int64_t n, int64_t row_stride,
                       int64_t col_stride, uint32_t *out, int check)
{
    int64_t done = 0, bad;
    if (n <= 0)
        return -1;
    if (row_stride == 5 && col_stride == 1) {
        done = bd_simd_rows(table, cards, n, NULL, NULL, out, check, 2);
        if (done == n)
            return -1;
        bad = bd_packed_contig(table, cards + 5 * done, n - done, out + done, check);
    } else {
        bad = bd_packed_strided(table, cards, n, row_stride, col_stride, out, check);
    }
    return bad >= 0 ? bad + done : -1;
}

int64_t bd_badugi_many(const uint32_t *table, const uint8_t *cards, int64_t n, int k,
                       int64_t row_stride, int64_t col_stride, uint16_t *out, int check)
{
    if (k < 1 || k > 5)
        return 0;
    if (k == 5) /* five cards: the badugi half of the five-card entry, one table load */
        return bd_eval_many(table, cards, n, row_stride, col_stride, NULL, out, check);
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *r = cards + i * row_stride;
        uint8_t row[4];
        uint64_t seen = 0;
        int ok = 1;
        for (int j = 0; j < k; j++) {
            uint8_t c = r[j * col_stride];
            ok &= (c <= 51) & !(seen >> (c & 63) & 1u);
            seen |= (uint64_t)1 << (c & 63);
            row[j] = c;
        }
        if (check && !ok)
            return i;
        out[i] = (uint16_t)bd_badugi_small(table, row, (unsigned)k);
    }
    return -1;
}

void bd_fill_badugi4(const uint32_t *table, uint16_t *table4)
{
    uint8_t cards[4];
    for (uint32_t d = 3; d < 52; d++)
        for (uint32_t c = 2; c < d; c++)
            for (uint32_t b = 1; b < c; b++)
                for (uint32_t a = 0; a < b; a++) {
                    cards[0] = (uint8_t)a, cards[1] = (uint8_t)b, cards[2] = (uint8_t)c, cards[3] = (uint8_t)d;
                    table4[bd_index4(cards[0], cards[1], cards[2], cards[3])] =
                        (uint16_t)bd_badugi_small(table, cards, 4);
                }
}

int64_t bd_badugi4_many(const uint16_t *table4, const uint8_t *cards, int64_t n, int64_t row_stride,
                        int64_t col_stride, uint16_t *out, int check)
{
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *r = cards + i * row_stride;
        uint32_t a = r[0], b = r[col_stride], c = r[2 * col_stride], d = r[3 * col_stride];
        BD_SWAP_(a, b);
        BD_SWAP_(c, d);
        BD_SWAP_(a, c);
        BD_SWAP_(b, d);
        BD_SWAP_(b, c);
        if (check && !((a < b) & (b < c) & (c < d) & (d < 52)))
            return i;
        {
            uint32_t k = bd_binom[0][a & 63] + bd_binom[1][b & 63] + bd_binom[2][c & 63] + bd_binom[3][d & 63];
            out[i] = table4[k < BD_HANDS4 ? k : 0];
        }
    }
    return -1;
}
