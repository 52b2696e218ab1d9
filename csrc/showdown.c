/* showdown.c -- bulk showdowns, and the parse/format fast paths of deal files.  See showdown.h. */
#include "badacey.h"
#include "showdown.h"

#include <string.h>

#define SD_MAX_SEATS 6
#define BD_CARD_BITS (((uint64_t)1 << 52) - 1)

/* ---------------------------------------------------------------------------------------------- */
/* Bulk showdown                                                                                   */

/* Rows are settled in blocks: pass 1 validates and hashes every seat of SD_BLOCK rows and prefetches
 * their table entries (sd_hash_row, or 16 hands at a time with AVX-512 VBMI where the CPU has it), pass 2
 * reads them and splits the pot.  The table (10 MB) is read at random, so overlapping many loads, with
 * no unpredictable branch in between, is what makes this fast.  The row functions are inlined once per
 * seat count (2..6) so that every seat loop unrolls.  Measured (6 seats, one core of this project's
 * shared 2-core Zen 4 box): scalar ~14 M rows/s, x86-64-v3 clone ~16 M/s, VBMI pass 1 ~23 M/s. */
#define SD_BLOCK 16 /* also the rows of one AVX-512 pass 1 (sd_hash_block_vbmi): keep it 16 */
#if defined(__GNUC__)
#define SD_INLINE static inline __attribute__((always_inline))
#else
#define SD_INLINE static inline
#endif

/* 0.5 / k for k = 1..6 winners (index 0 unused): a half's share per winner, exactly as 0.5 / k. */
static const double sd_half_share[SD_MAX_SEATS + 1] = {0.0, 0.5 / 1, 0.5 / 2, 0.5 / 3, 0.5 / 4, 0.5 / 5, 0.5 / 6};
/* Number of bits set in a 6-bit seat mask (no popcnt instruction needed). */
static const uint8_t sd_bits6[64] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
};

/* Pass 1 for one row: the table index of every seat into idx[], live seats as a mask in *alive;
 * returns a BD_SD_* code.  Folded seats' cards are hashed too (harmlessly: the index is clamped) but
 * never validated.  The cards come out sorted from their 52-bit mask (ctz), which also exposes a
 * repeated card: it leaves fewer than five card bits. */
SD_INLINE int sd_hash_row(const uint32_t *table, const uint8_t *h, const uint8_t *live, const int32_t seats,
                          uint32_t *idx, unsigned *alive)
{
    uint64_t total = 0, overlap = 0;
    uint32_t bad_card = 0, dup = 0;
    unsigned mask = 0;
    for (int32_t s = 0; s < seats; s++, h += 5) {
        uint32_t lv = live ? live[s] != 0 : 1u;
        uint32_t a0 = h[0], a1 = h[1], a2 = h[2], a3 = h[3], a4 = h[4];
        uint64_t bits = ((uint64_t)1 << (a0 & 63)) | ((uint64_t)1 << (a1 & 63)) | ((uint64_t)1 << (a2 & 63)) |
                        ((uint64_t)1 << (a3 & 63)) | ((uint64_t)1 << (a4 & 63));
        /* A card > 51: an id of 64 or more, or one of 52..63 (bits 52..63 of the mask). */
        bad_card |= lv & ((((a0 | a1 | a2 | a3 | a4) >> 6) | (uint32_t)(bits >> 52)) != 0);
        /* Five guard bits above the 52 card bits: each of the five ctz steps below finds a set bit however
         * few distinct cards the hand holds (folded seats may hold anything: zeros, repeats, ids > 51), so
         * every ctz is defined and every c_k stays in 0..63, inside bd_binom.  A hand of five distinct
         * cards never reaches a guard bit; anything less (a repeat, or an id > 51 masked out) leaves c4 on
         * one, which flags the hand. */
        uint64_t m = (bits & BD_CARD_BITS) | ((uint64_t)0x1F << 59);
        uint32_t c0 = (uint32_t)__builtin_ctzll(m);
        m &= m - 1;
        uint32_t c1 = (uint32_t)__builtin_ctzll(m);
        m &= m - 1;
        uint32_t c2 = (uint32_t)__builtin_ctzll(m);
        m &= m - 1;
        uint32_t c3 = (uint32_t)__builtin_ctzll(m);
        m &= m - 1;
        uint32_t c4 = (uint32_t)__builtin_ctzll(m);
        dup |= lv & (c4 >= 52);
        bits &= (uint64_t)0 - lv;
        overlap |= total & bits;
        total |= bits;
        mask |= lv << s;
        /* Colex index (badacey.h); ctz gives 0..63, inside bd_binom, so only the sum needs clamping. */
        uint32_t ix = bd_binom[0][c0] + bd_binom[1][c1] + bd_binom[2][c2] + bd_binom[3][c3] + bd_binom[4][c4];
        idx[s] = ix < BD_HANDS5 ? ix : 0;
        __builtin_prefetch(table + idx[s]);
    }
    *alive = mask;
    if (bad_card)
        return BD_SD_BAD_CARD;
    if (dup || overlap)
        return BD_SD_DUP_CARD;
    return mask ? BD_SD_OK : BD_SD_NO_LIVE;
}

/* ---- AVX-512 VBMI pass 1 (machines that have it, chosen at run time): 16 hands per step ------------
 * A block of 16 rows holds 16 * seats hands, 80 * seats contiguous bytes: `seats` steps of 16 hands.
 * Each step transposes the 80 bytes into five columns with byte permutes, builds each hand's 64-bit
 * card mask (for the cross-seat check), sorts the columns with the 9-comparator network (min/max on 16
 * lanes), flags cards > 51 and repeats, and sums the colex binomials from in-register copies of
 * bd_binom (badacey.h).  Then a scalar loop per row does what sd_hash_row does with those results. */
#ifdef BD_X86_SIMD /* badacey.h */
#include <immintrin.h>
#define SD_SIMD 1
#define SD_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))


/* Byte k of column j (k < 16) is byte 5k + j of the 80-byte step. */
#define SD_COLUMN(j)                                                                                        \
    {5 * 0 + j, 5 * 1 + j, 5 * 2 + j, 5 * 3 + j, 5 * 4 + j, 5 * 5 + j, 5 * 6 + j, 5 * 7 + j, 5 * 8 + j,      \
     5 * 9 + j, 5 * 10 + j, 5 * 11 + j, 5 * 12 + j, 5 * 13 + j, 5 * 14 + j, 5 * 15 + j}
static const uint8_t sd_columns[5][64] = {SD_COLUMN(0), SD_COLUMN(1), SD_COLUMN(2), SD_COLUMN(3), SD_COLUMN(4)};

/* binom[v] for v in 0..63 from four registers holding the 64-entry row (two 32-entry permutes). */
SD_VBMI static inline __m512i sd_binom64(const __m512i *row, __m512i v)
{
    __m512i low = _mm512_permutex2var_epi32(row[0], v, row[1]);
    __m512i high = _mm512_permutex2var_epi32(row[2], v, row[3]);
    return _mm512_mask_blend_epi32(_mm512_test_epi32_mask(v, _mm512_set1_epi32(32)), low, high);
}

#define SD_MINMAX(x, y)                            \
    do {                                           \
        __m512i min_ = _mm512_min_epu32(x, y);     \
        (y) = _mm512_max_epu32(x, y);              \
        (x) = min_;                                \
    } while (0)

SD_VBMI static void sd_hash_block_vbmi(const uint32_t *table, const uint8_t *h, const uint8_t *live,
                                       int32_t seats, uint32_t (*idx)[SD_MAX_SEATS], unsigned *alive, int *rcs)
{
    uint32_t hidx[16 * SD_MAX_SEATS];
    uint64_t hbits[16 * SD_MAX_SEATS];
    uint16_t high_step[SD_MAX_SEATS], repeat_step[SD_MAX_SEATS]; /* bit k: hand k of a step */
    const __m512i c51 = _mm512_set1_epi32(51), last = _mm512_set1_epi32(BD_HANDS5 - 1);
    const __m512i m63 = _mm512_set1_epi32(63), one = _mm512_set1_epi64(1);
    __m512i sel[5], rows[4][4];
    for (int j = 0; j < 5; j++)
        sel[j] = _mm512_loadu_si512(sd_columns[j]);
    for (int k = 0; k < 4; k++)
        for (int q = 0; q < 4; q++)
            rows[k][q] = _mm512_loadu_si512(&bd_binom[k + 1][16 * q]);
    for (int32_t step = 0; step < seats; step++) {
        const uint8_t *p = h + 80 * step;
        __m512i lo64 = _mm512_loadu_si512(p);
        __m512i hi16 = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(p + 64)));
        __m512i col[5], bits_lo = _mm512_setzero_si512(), bits_hi = _mm512_setzero_si512();
        for (int j = 0; j < 5; j++) {
            col[j] = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(_mm512_permutex2var_epi8(lo64, sel[j], hi16)));
            __m512i c = _mm512_and_si512(col[j], m63);
            bits_lo = _mm512_or_si512(bits_lo, _mm512_sllv_epi64(one, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(c))));
            bits_hi = _mm512_or_si512(bits_hi,
                                      _mm512_sllv_epi64(one, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(c, 1))));
        }
        _mm512_storeu_si512(hbits + 16 * step, bits_lo);
        _mm512_storeu_si512(hbits + 16 * step + 8, bits_hi);
        __m512i a = col[0], b = col[1], c = col[2], d = col[3], e = col[4];
        SD_MINMAX(a, b); SD_MINMAX(d, e); SD_MINMAX(c, e); SD_MINMAX(c, d); SD_MINMAX(b, e);
        SD_MINMAX(a, d); SD_MINMAX(a, c); SD_MINMAX(b, d); SD_MINMAX(b, c);
        high_step[step] = _mm512_cmpgt_epu32_mask(e, c51);
        repeat_step[step] = _mm512_cmpeq_epi32_mask(a, b) | _mm512_cmpeq_epi32_mask(b, c) |
                            _mm512_cmpeq_epi32_mask(c, d) | _mm512_cmpeq_epi32_mask(d, e);
        __m512i ix = _mm512_add_epi32(
            _mm512_add_epi32(a, sd_binom64(rows[0], _mm512_and_si512(b, m63))),
            _mm512_add_epi32(_mm512_add_epi32(sd_binom64(rows[1], _mm512_and_si512(c, m63)),
                                              sd_binom64(rows[2], _mm512_and_si512(d, m63))),
                             sd_binom64(rows[3], _mm512_and_si512(e, m63))));
        _mm512_storeu_si512(hidx + 16 * step, _mm512_min_epu32(ix, last)); /* garbage stays in the table */
    }
    for (int r = 0; r < 16; r++) {
        uint64_t seen = 0, twice = 0;
        uint32_t bad_card = 0, dup = 0;
        unsigned mask = 0;
        const uint8_t *lv_row = live ? live + r * seats : NULL;
        for (int32_t s = 0; s < seats; s++) {
            int k = r * seats + s, step = k >> 4, lane = k & 15;
            uint32_t lv = lv_row ? lv_row[s] != 0 : 1u;
            uint64_t bits = hbits[k] & ((uint64_t)0 - lv);
            twice |= seen & bits;
            seen |= bits;
            bad_card |= lv & (uint32_t)(high_step[step] >> lane);
            dup |= lv & (uint32_t)(repeat_step[step] >> lane);
            mask |= lv << s;
            idx[r][s] = hidx[k];
            __builtin_prefetch(table + hidx[k]);
        }
        alive[r] = mask;
        rcs[r] = (bad_card & 1u) ? BD_SD_BAD_CARD : ((dup & 1u) || twice) ? BD_SD_DUP_CARD
                 : mask ? BD_SD_OK : BD_SD_NO_LIVE;
    }
}
#endif

/* The chips of one row into out[s * step] for each seat s (step 1: a row of the row-major (N, P) array;
 * step = the column stride: one cell of each seat's column). */
SD_INLINE void sd_chips(int64_t pot, int32_t button, int32_t odd_low, unsigned lw, unsigned bw,
                        const int32_t seats, int64_t *out, const int64_t step)
{
    int64_t half = pot >> 1, odd = pot & 1;
    int64_t lhalf = odd_low ? half + odd : half;
    if (!(lw & (lw - 1)) && !(bw & (bw - 1))) {
        /* The common case, one winner per half: no division, no walk around the table. */
        int32_t l = __builtin_ctz(lw), b = __builtin_ctz(bw);
        /* Distance clockwise from the button (1 = first after it): the nearer winner gets an odd chip. */
        int32_t dl = l - button + (l <= button ? seats : 0), db = b - button + (b <= button ? seats : 0);
        int32_t o = dl <= db ? l : b;
        int64_t extra = odd_low ? 0 : odd;
        for (int32_t s = 0; s < seats; s++)
            out[s * step] = (s == l) * lhalf + (s == b) * half + (s == o) * extra;
        return;
    }
    int64_t kl = sd_bits6[lw & 63], kb = sd_bits6[bw & 63];
    /* One winner is the common case: skip the divisions. */
    int64_t lbase = kl == 1 ? lhalf : lhalf / kl, lleft = lhalf - lbase * kl;
    int64_t bbase = kb == 1 ? half : half / kb, bleft = half - bbase * kb;
    int64_t odd_left = odd_low ? 0 : odd, nl = 0, nb = 0;
    int32_t s = button;
    for (int32_t j = 0; j < seats; j++) {
        s = s + 1 == seats ? 0 : s + 1; /* clockwise from the button: the worst position first */
        int64_t wl = lw >> s & 1u, wb = bw >> s & 1u, either = wl | wb;
        int64_t x = wl * (lbase + (nl < lleft)) + wb * (bbase + (nb < bleft)) + (either & odd_left);
        odd_left &= ~either;
        nl += wl;
        nb += wb;
        out[s * step] = x;
    }
}

/* Where sd_run writes: the row-major arrays of bd_showdown_many (cols == 0: shares / chips / low_win /
 * badugi_win, n * seats each) or the column layout of bd_showdown_columns (cols != 0: chips[s * stride + i],
 * and one seat bitmask a row in low_bits / badugi_bits).  `cols` is a constant at every call, so each
 * layout compiles to its own loop and the row-major one is unchanged by the other's existence.  Passed by
 * value into the inlined loops: a copy in registers, which no store through the output pointers can alias
 * (through a pointer, every chip written would force the compiler to reload the pointers). */
typedef struct {
    double *shares;
    int64_t *chips;
    uint8_t *low_win, *badugi_win; /* row-major winner bytes (cols == 0) */
    uint8_t *low_bits, *badugi_bits; /* winner bitmasks (cols != 0) */
    int64_t stride; /* cols != 0: distance between two seats' columns in chips, >= n */
} sd_out;

/* Pass 2 for one good row: winners of each half as seat masks (lower rank is better; a lone live seat
 * wins both), then the shares or chips and the winners. */
SD_INLINE void sd_settle_row(const uint32_t *table, const uint32_t *idx, unsigned alive, int64_t i,
                             const int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                             const sd_out o, const int cols)
{
    uint32_t low[SD_MAX_SEATS], bad[SD_MAX_SEATS], lmin = 0xFFFFu, bmin = 0xFFFFu;
    for (int32_t s = 0; s < seats; s++) {
        /* Folded seats read 0xFFFFFFFF: worse than any rank in both halves. */
        uint32_t e = table[idx[s]] | ((uint32_t)0 - (uint32_t)!(alive >> s & 1u));
        low[s] = bd_low_of(e);
        bad[s] = bd_badugi_of(e);
        lmin = low[s] < lmin ? low[s] : lmin;
        bmin = bad[s] < bmin ? bad[s] : bmin;
    }
    unsigned lw = 0, bw = 0;
    for (int32_t s = 0; s < seats; s++) {
        lw |= (unsigned)(low[s] == lmin) << s;
        bw |= (unsigned)(bad[s] == bmin) << s;
    }
    lw &= alive;
    bw &= alive;
    if (cols) {
        sd_chips(pot[i], (int32_t)button[i], odd_low, lw, bw, seats, o.chips + i, o.stride);
        if (o.low_bits)
            o.low_bits[i] = (uint8_t)lw;
        if (o.badugi_bits)
            o.badugi_bits[i] = (uint8_t)bw;
        return;
    }
    double *shares = o.shares;
    uint8_t *low_win = o.low_win, *badugi_win = o.badugi_win;
    if (pot) {
        sd_chips(pot[i], (int32_t)button[i], odd_low, lw, bw, seats, o.chips + i * seats, 1);
    } else if (shares) {
        /* Same values as the numpy reference (0.5 / k or 0, then the sum): bit-identical.  Winners are
         * random: a branch here would mispredict. */
        double *sh = shares + i * seats;
        double ls = sd_half_share[sd_bits6[lw]], bs = sd_half_share[sd_bits6[bw]];
        for (int32_t s = 0; s < seats; s++)
            sh[s] = ls * (double)(lw >> s & 1u) + bs * (double)(bw >> s & 1u);
    }
    if (low_win)
        for (int32_t s = 0; s < seats; s++)
            low_win[i * seats + s] = (uint8_t)(lw >> s & 1u);
    if (badugi_win)
        for (int32_t s = 0; s < seats; s++)
            badugi_win[i * seats + s] = (uint8_t)(bw >> s & 1u);
}

SD_INLINE int64_t sd_run(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                         const int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                         const sd_out o, const int cols, uint8_t *status, int32_t *code, int vbmi)
{
    int64_t bad_rows = 0;
    uint32_t idx[SD_BLOCK][SD_MAX_SEATS];
#ifndef SD_SIMD
    (void)vbmi;
#endif
    unsigned alive[SD_BLOCK];
    int rcs[SD_BLOCK];
    for (int64_t i0 = 0; i0 < n; i0 += SD_BLOCK) {
        int64_t m = n - i0 < SD_BLOCK ? n - i0 : SD_BLOCK;
#ifdef SD_SIMD
        if (vbmi && m == SD_BLOCK)
            sd_hash_block_vbmi(table, hands + i0 * seats * 5, live ? live + i0 * seats : NULL, seats, idx, alive,
                               rcs);
        else
#endif
            for (int64_t j = 0; j < m; j++) {
                int64_t i = i0 + j;
                rcs[j] = sd_hash_row(table, hands + i * seats * 5, live ? live + i * seats : NULL, seats, idx[j],
                                     &alive[j]);
            }
        for (int64_t j = 0; j < m; j++) {
            int64_t i = i0 + j;
            int rc = rcs[j];
            if (rc == BD_SD_OK && pot && pot[i] < 0)
                rc = BD_SD_BAD_POT;
            if (rc == BD_SD_OK && pot && (button[i] < 0 || button[i] >= seats))
                rc = BD_SD_BAD_BUTTON;
            if (status)
                status[i] = (uint8_t)rc;
            if (rc == BD_SD_OK) {
                sd_settle_row(table, idx[j], alive[j], i, seats, pot, button, odd_low, o, cols);
                continue;
            }
            if (!status) {
                *code = rc;
                return i;
            }
            bad_rows++; /* a bad row pays nothing and wins nothing */
            if (cols) {
                for (int32_t s = 0; s < seats; s++)
                    o.chips[s * o.stride + i] = 0;
                if (o.low_bits)
                    o.low_bits[i] = 0;
                if (o.badugi_bits)
                    o.badugi_bits[i] = 0;
                continue;
            }
            for (int32_t s = 0; s < seats; s++) {
                if (pot)
                    o.chips[i * seats + s] = 0;
                else if (o.shares)
                    o.shares[i * seats + s] = 0.0;
                if (o.low_win)
                    o.low_win[i * seats + s] = 0;
                if (o.badugi_win)
                    o.badugi_win[i * seats + s] = 0;
            }
        }
    }
    return status ? bad_rows : -1;
}

/* sd_run for each seat count: the portable build, and on x86-64 a copy compiled for AVX2 + BMI1/BMI2
 * (tzcnt, blsr, shlx: the card-mask hash is ~7% faster) that also runs the VBMI pass 1 when asked.  The
 * copy is chosen explicitly by bd_simd_level() (BADACEY_FAST_ISA), not by target_clones at load time,
 * so a forced scalar run really runs the portable code. */
#define SD_RUN(P, COLS) sd_run(table, hands, live, n, P, pot, button, odd_low, *o, COLS, status, code, vbmi)
#define SD_DISPATCH_BODY                                                                                     \
    if (cols) {                                                                                              \
        switch (seats) {                                                                                     \
        case 2: return SD_RUN(2, 1);                                                                         \
        case 3: return SD_RUN(3, 1);                                                                         \
        case 4: return SD_RUN(4, 1);                                                                         \
        case 5: return SD_RUN(5, 1);                                                                         \
        default: return SD_RUN(6, 1);                                                                        \
        }                                                                                                    \
    }                                                                                                        \
    switch (seats) {                                                                                         \
    case 2: return SD_RUN(2, 0);                                                                             \
    case 3: return SD_RUN(3, 0);                                                                             \
    case 4: return SD_RUN(4, 0);                                                                             \
    case 5: return SD_RUN(5, 0);                                                                             \
    default: return SD_RUN(6, 0);                                                                            \
    }
#define SD_DISPATCH_PARAMS                                                                                   \
    const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n, int32_t seats,             \
        const int64_t *pot, const int64_t *button, int32_t odd_low, const sd_out *o, int cols,               \
        uint8_t *status, int32_t *code, int vbmi

static int64_t sd_dispatch_portable(SD_DISPATCH_PARAMS) { SD_DISPATCH_BODY }
#ifdef SD_SIMD
BD_TARGET_AVX2 static int64_t sd_dispatch_avx2(SD_DISPATCH_PARAMS) { SD_DISPATCH_BODY }
#endif

/* Both entry points: check the arguments, pick the code path (bd_simd_level), run. */
static int64_t sd_start(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n, int32_t seats,
                        const int64_t *pot, const int64_t *button, int32_t odd_low, const sd_out *o, int cols,
                        uint8_t *status, int32_t *code)
{
#ifdef SD_SIMD
    int level = bd_simd_level();
    if (level >= BD_ISA_AVX2)
        return sd_dispatch_avx2(table, hands, live, n, seats, pot, button, odd_low, o, cols, status, code,
                                level >= BD_ISA_AVX512);
#endif
    return sd_dispatch_portable(table, hands, live, n, seats, pot, button, odd_low, o, cols, status, code, 0);
}

int64_t bd_showdown_many(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                         int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                         double *shares, int64_t *chips, uint8_t *low_win, uint8_t *badugi_win,
                         uint8_t *status, int32_t *code)
{
    int32_t dummy;
    if (!code)
        code = &dummy;
    *code = BD_SD_OK;
    if (!table || !hands || n < 0 || (pot && (!button || !chips)) || (!pot && !shares && !low_win && !badugi_win) ||
        seats < 2 || seats > SD_MAX_SEATS) {
        *code = BD_SD_BAD_ARGS;
        return -2;
    }
    const sd_out o = {shares, chips, low_win, badugi_win, NULL, NULL, 0};
    return sd_start(table, hands, live, n, seats, pot, button, odd_low, &o, 0, status, code);
}

int64_t bd_showdown_columns(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                            int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                            int64_t *chips, int64_t stride, uint8_t *low_bits, uint8_t *badugi_bits,
                            uint8_t *status, int32_t *code)
{
    int32_t dummy;
    if (!code)
        code = &dummy;
    *code = BD_SD_OK;
    if (!table || !hands || n < 0 || !pot || !button || !chips || stride < n || seats < 2 || seats > SD_MAX_SEATS) {
        *code = BD_SD_BAD_ARGS;
        return -2;
    }
    const sd_out o = {NULL, chips, NULL, NULL, low_bits, badugi_bits, stride};
    return sd_start(table, hands, live, n, seats, pot, button, odd_low, &o, 1, status, code);
}

/* ---------------------------------------------------------------------------------------------- */
/* Deal-file parsing (strict forms only; Python parses and words everything else)                 */

/* rank + 1 and suit + 1 of a character, 0 if it is not one (so a zero-initialised table works). */
static const uint8_t sd_rank1[256] = {
    ['A'] = 1, ['a'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4,  ['5'] = 5,  ['6'] = 6,  ['7'] = 7,  ['8'] = 8,
    ['9'] = 9, ['T'] = 10, ['t'] = 10, ['J'] = 11, ['j'] = 11, ['Q'] = 12, ['q'] = 12, ['K'] = 13, ['k'] = 13,
};
static const uint8_t sd_suit1[256] = {
    ['c'] = 1, ['C'] = 1, ['d'] = 2, ['D'] = 2, ['h'] = 3, ['H'] = 3, ['s'] = 4, ['S'] = 4,
};

static int sd_hand10(const char *p, uint8_t *cards)
{
    for (int k = 0; k < 5; k++) {
        unsigned r = sd_rank1[(unsigned char)p[2 * k]], s = sd_suit1[(unsigned char)p[2 * k + 1]];
        if (!r || !s)
            return 0;
        cards[k] = (uint8_t)(4 * (r - 1) + (s - 1));
    }
    return 1;
}

/* Digits only, at most 18 of them (fits int64): the value, else -2 (not a number). */
static int64_t sd_number(const char *p, int64_t len)
{
    if (len < 1 || len > 18)
        return -2;
    int64_t v = 0;
    for (int64_t k = 0; k < len; k++) {
        if (p[k] < '0' || p[k] > '9')
            return -2;
        v = v * 10 + (p[k] - '0');
    }
    return v;
}

static int sd_space(char c) { return c == ' ' || c == '\t'; }

/* A seat token: 10-char hand -> live, "-" or empty -> folded (allowed_empty), else 0. */
static int sd_seat(const char *p, int64_t len, int allow_empty, uint8_t *cards, uint8_t *live)
{
    if (len == 10 && sd_hand10(p, cards)) {
        *live = 1;
        return 1;
    }
    if ((len == 1 && p[0] == '-') || (len == 0 && allow_empty)) {
        memset(cards, 0, 5);
        *live = 0;
        return 1;
    }
    return 0;
}

static int sd_plain_line(const char *p, int64_t len, int32_t seats, uint8_t *hands, uint8_t *live, int64_t *pot,
                         int64_t *button)
{
    int32_t nseat = 0, nnum = 0;
    int64_t pos = 0;
    while (pos < len) {
        while (pos < len && sd_space(p[pos]))
            pos++;
        if (pos >= len)
            break;
        int64_t start = pos;
        while (pos < len && !sd_space(p[pos]))
            pos++;
        int64_t v = sd_number(p + start, pos - start);
        if (v >= 0) {
            if (nseat > 0 || nnum >= 2)
                return 0;
            *(nnum++ == 0 ? pot : button) = v;
        } else if (nseat >= seats || !sd_seat(p + start, pos - start, 0, hands + 5 * nseat, live + nseat)) {
            return 0;
        } else {
            nseat++;
        }
    }
    return nseat == seats;
}

static int sd_csv_line(const char *p, int64_t len, int32_t seats, const int8_t *columns, int32_t ncolumns,
                       uint8_t *hands, uint8_t *live, int64_t *pot, int64_t *button)
{
    if (memchr(p, '"', (size_t)len))
        return 0;
    int32_t f = 0;
    int64_t pos = 0;
    for (;;) {
        int64_t end = pos;
        while (end < len && p[end] != ',')
            end++;
        int64_t a = pos, b = end;
        while (a < b && sd_space(p[a]))
            a++;
        while (b > a && sd_space(p[b - 1]))
            b--;
        if (f >= ncolumns)
            return 0;
        int kind = columns[f++];
        if (kind >= 0 && kind < seats) {
            if (!sd_seat(p + a, b - a, 1, hands + 5 * kind, live + kind))
                return 0;
        } else if (kind == 6 || kind == 7) {
            int64_t v = b == a ? -1 : sd_number(p + a, b - a);
            if (v == -2)
                return 0;
            *(kind == 6 ? pot : button) = v;
        } else if (kind != -1) {
            return 0;
        } else {
            /* An ignored column is not read, but the line must still be UTF-8 text: a non-ASCII byte
             * sends the line to Python, which decodes the whole line (and words the error if it fails). */
            for (int64_t k = pos; k < end; k++)
                if ((unsigned char)p[k] >= 0x80)
                    return 0;
        }
        if (end >= len)
            break;
        pos = end + 1;
    }
    return f == ncolumns;
}

int64_t bd_parse_deals(const char *buf, int64_t len, int32_t seats, int32_t csv, const int8_t *columns,
                       int32_t ncolumns, int64_t max_rows, uint8_t *hands, uint8_t *live, int64_t *pot,
                       int64_t *button, uint8_t *flags, int64_t *line_start, int64_t *line_len,
                       int64_t *consumed)
{
    if (!buf || len < 0 || seats < 2 || seats > SD_MAX_SEATS || max_rows < 0 || !hands || !live || !pot ||
        !button || !flags || !line_start || !line_len || !consumed || (csv && (!columns || ncolumns < 1)))
        return -1;
    int64_t pos = 0, row = 0;
    while (pos < len && row < max_rows) {
        /* A line ends at "\n", "\r\n" or a lone "\r" (universal newlines, as the Python path splits). */
        const char *nl = memchr(buf + pos, '\n', (size_t)(len - pos));
        int64_t end = nl ? nl - buf : len, next = nl ? end + 1 : len;
        const char *cr = memchr(buf + pos, '\r', (size_t)(end - pos));
        if (cr) {
            end = cr - buf;
            next = end + 1 < len && buf[end + 1] == '\n' ? end + 2 : end + 1;
        }
        const char *p = buf + pos;
        int64_t n = end - pos, k = 0;
        line_start[row] = pos;
        line_len[row] = n;
        pot[row] = button[row] = -1;
        uint8_t *h = hands + row * seats * 5, *lv = live + row * seats;
        memset(lv, 0, (size_t)seats);
        while (k < n && sd_space(p[k]))
            k++;
        if (k == n || p[k] == '#')
            flags[row] = 2;
        else if (csv)
            flags[row] = !sd_csv_line(p, n, seats, columns, ncolumns, h, lv, pot + row, button + row);
        else
            flags[row] = !sd_plain_line(p, n, seats, h, lv, pot + row, button + row);
        row++;
        pos = next;
    }
    *consumed = pos;
    return row;
}

/* ---------------------------------------------------------------------------------------------- */
/* Result formatting                                                                               */

static char *sd_int(char *o, int64_t v)
{
    char tmp[24];
    int k = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0)
        *o++ = '-';
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (k)
        *o++ = tmp[--k];
    return o;
}

static char *sd_seats(char *o, const uint8_t *win, int32_t seats)
{
    int first = 1;
    for (int32_t s = 0; s < seats; s++) {
        if (!win[s])
            continue;
        if (!first)
            *o++ = ' ';
        *o++ = (char)('0' + s);
        first = 0;
    }
    return o;
}

int64_t bd_format_results(const int64_t *line_no, const int64_t *chips, const uint8_t *low_win,
                          const uint8_t *badugi_win, const uint8_t *keep, int64_t n, int32_t seats,
                          char *out, int64_t cap)
{
    if (!line_no || !chips || !low_win || !badugi_win || !out || n < 0 || seats < 2 || seats > SD_MAX_SEATS)
        return -1;
    /* Longest row: 1 + (seats + 1) numbers of up to 20 chars and their commas, two seat lists, '\n'. */
    const int64_t row_max = 21 * (seats + 1) + 2 * (2 * SD_MAX_SEATS) + 4;
    char *o = out;
    for (int64_t i = 0; i < n; i++) {
        if (keep && !keep[i])
            continue;
        if ((o - out) + row_max > cap)
            return -1;
        o = sd_int(o, line_no[i]);
        for (int32_t s = 0; s < seats; s++) {
            *o++ = ',';
            o = sd_int(o, chips[i * seats + s]);
        }
        *o++ = ',';
        o = sd_seats(o, low_win + i * seats, seats);
        *o++ = ',';
        o = sd_seats(o, badugi_win + i * seats, seats);
        *o++ = '\n';
    }
    return o - out;
}
