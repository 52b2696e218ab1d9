/* showdown.c -- bulk showdowns, and the parse/format fast paths of deal files.  See showdown.h. */
#include "badacey.h"
#include "showdown.h"

#include <string.h>

#define SD_MAX_SEATS 6
#define BD_CARD_BITS (((uint64_t)1 << 52) - 1)

/* ---------------------------------------------------------------------------------------------- */
/* Bulk showdown                                                                                   */

/* Rows are settled in blocks of SD_BLOCK rows, in three passes over the block:
 *   pass 1 validates and hashes every seat (16 rows at a time with AVX-512 VBMI, 8 with AVX2, else
 *          sd_hash_row), prefetching each table entry, and leaves the indexes seat-major (idx[seat][row]);
 *   pass 2 reads the entries and finds each row's winners of both halves as seat masks: across rows,
 *          16 rows per step with AVX-512 or 8 with AVX2 (a gather per seat, min over the seats, one
 *          compare per seat), else row by row;
 *   pass 3 writes each row's shares or chips and winner bytes, row by row, from tables indexed by
 *          the winner masks (no division, no loop over the seats, for shares and the common chip case).
 * The table (10 MB) is read at random, so what sets the pace is keeping many loads in flight with no
 * unpredictable branch in between.  Measured (6 seats, shares, one core of this project's shared Zen 4
 * box, best of 41 interleaved runs against the previous code, which did passes 2 and 3 row by row and
 * pass 1 in scalar code except with VBMI): avx512 40-42 -> 29-30 ns a row, avx2 49-50 -> 33-34, scalar
 * 54-60 -> 51-57.  The row functions are inlined once per seat count (2..6) so that every seat loop
 * unrolls. */
#define SD_BLOCK 64 /* a multiple of 16: whole AVX-512 pass-1 steps and pass-2 steps fit a block */
#if defined(__GNUC__)
#define SD_INLINE static inline __attribute__((always_inline))
#else
#define SD_INLINE static inline
#endif

/* Pass 3's tables, by 6-bit seat mask m of a half's winners (constant expressions, no state):
 *   sd_share_of[m][s] = 0.5 / popcount(m) if seat s is in m, else 0.0: a seat's share of that half,
 *     exactly the numpy reference's value (0.5 / k, or 0 * that), so share = low + badugi entry is
 *     bit-identical to it;
 *   sd_win_bytes[m][s] = 1 if seat s is in m, else 0: the winner bytes of that half;
 *   sd_bits6[m] = popcount(m) (no popcnt instruction needed). */
#define SD_POP6(m) (((m) & 1) + ((m) >> 1 & 1) + ((m) >> 2 & 1) + ((m) >> 3 & 1) + ((m) >> 4 & 1) + ((m) >> 5 & 1))
#define SD_SHARE(m, s) (((m) >> (s) & 1) ? 0.5 / (SD_POP6(m) + ((m) == 0)) : 0.0)
#define SD_SHARE_ROW(m) {SD_SHARE(m, 0), SD_SHARE(m, 1), SD_SHARE(m, 2), SD_SHARE(m, 3), SD_SHARE(m, 4), SD_SHARE(m, 5)}
#define SD_BYTES_ROW(m) {(m) & 1, (m) >> 1 & 1, (m) >> 2 & 1, (m) >> 3 & 1, (m) >> 4 & 1, (m) >> 5 & 1}
#define SD_POP_ROW(m) SD_POP6(m)
#define SD_ROW8(F, b) F(b), F(b + 1), F(b + 2), F(b + 3), F(b + 4), F(b + 5), F(b + 6), F(b + 7)
#define SD_ROW64(F) SD_ROW8(F, 0), SD_ROW8(F, 8), SD_ROW8(F, 16), SD_ROW8(F, 24), SD_ROW8(F, 32), SD_ROW8(F, 40), \
    SD_ROW8(F, 48), SD_ROW8(F, 56)
static const double sd_share_of[64][SD_MAX_SEATS] = {SD_ROW64(SD_SHARE_ROW)};
static const uint8_t sd_win_bytes[64][SD_MAX_SEATS] = {SD_ROW64(SD_BYTES_ROW)};
static const uint8_t sd_bits6[64] = {SD_ROW64(SD_POP_ROW)};

/* Pass 1 for one row j of a block: the table index of every seat into idx[s][j], live seats as a mask
 * in *alive; returns a BD_SD_* code.  Folded seats' cards are hashed too (harmlessly: the index is
 * clamped) but never validated.  bd_index_bits5 (badacey.h) takes the cards sorted from their 52-bit
 * mask, and its top card exposes a repeat or a card > 51; a card seen in two live hands is an overlap
 * of their masks. */
SD_INLINE int sd_hash_row(const uint32_t *table, const uint8_t *h, const uint8_t *live, const int32_t seats,
                          uint32_t (*idx)[SD_BLOCK], int64_t j, unsigned *alive)
{
    uint64_t total = 0, overlap = 0;
    uint32_t bad_card = 0, dup = 0;
    unsigned mask = 0;
    for (int32_t s = 0; s < seats; s++, h += 5) {
        uint32_t lv = live ? live[s] != 0 : 1u;
        uint32_t a0 = h[0], a1 = h[1], a2 = h[2], a3 = h[3], a4 = h[4], top;
        uint64_t bits = bd_bits5(a0, a1, a2, a3, a4);
        uint32_t ix = bd_index_bits5(bits, &top);
        /* A card > 51: an id of 64 or more, or one of 52..63 (bits 52..63 of the mask). */
        bad_card |= lv & ((((a0 | a1 | a2 | a3 | a4) >> 6) | (uint32_t)(bits >> 52)) != 0);
        dup |= lv & (top >= 52);
        bits &= (uint64_t)0 - lv;
        overlap |= total & bits;
        total |= bits;
        mask |= lv << s;
        idx[s][j] = ix;
        BD_PREFETCH(table + ix);
    }
    *alive = mask;
    if (bad_card)
        return BD_SD_BAD_CARD;
    if (dup || overlap)
        return BD_SD_DUP_CARD;
    return mask ? BD_SD_OK : BD_SD_NO_LIVE;
}

/* Pass 2 for one row j: the winners of each half as seat masks (lower rank is better; a lone live
 * seat wins both), into lw[j] and bw[j]. */
SD_INLINE void sd_winners_row(const uint32_t *table, uint32_t (*idx)[SD_BLOCK], const unsigned *alive, int64_t j,
                              const int32_t seats, unsigned *lw, unsigned *bw)
{
    uint32_t low[SD_MAX_SEATS], bad[SD_MAX_SEATS], lmin = 0xFFFFu, bmin = 0xFFFFu;
    for (int32_t s = 0; s < seats; s++) {
        /* Folded seats read 0xFFFFFFFF: worse than any rank in both halves. */
        uint32_t e = table[idx[s][j]] | ((uint32_t)0 - (uint32_t)!(alive[j] >> s & 1u));
        low[s] = bd_low_of(e);
        bad[s] = bd_badugi_of(e);
        lmin = low[s] < lmin ? low[s] : lmin;
        bmin = bad[s] < bmin ? bad[s] : bmin;
    }
    unsigned l = 0, b = 0;
    for (int32_t s = 0; s < seats; s++) {
        l |= (unsigned)(low[s] == lmin) << s;
        b |= (unsigned)(bad[s] == bmin) << s;
    }
    lw[j] = l & alive[j];
    bw[j] = b & alive[j];
}

#ifdef BD_X86_SIMD /* badacey.h */
#include <immintrin.h>
#define SD_SIMD 1
#define SD_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt")))

/* The end of a vector pass 1 over `rows` rows (rows j0.. of the block; live: their first row): given
 * each hand's index hidx[k], card mask hbits[k] and card-over-51 flag (bit k % rows of high[k / rows]:
 * one vector step holds as many hands as the group has rows), hand k = seat s of row r at k = r * seats
 * + s, checks every row: no live card > 51, and the live hands' masks together hold 5 cards per live
 * seat (a repeat within a hand or across hands leaves fewer); places the indexes seat-major and
 * prefetches the entries.  Inlined into vector functions that have popcnt. */
SD_INLINE void sd_check_rows(const uint32_t *table, const uint32_t *hidx, const uint64_t *hbits, const uint32_t *high,
                             const int rows, const uint8_t *live, const int32_t seats, uint32_t (*idx)[SD_BLOCK],
                             int64_t j0, unsigned *alive, int *rcs)
{
    for (int r = 0; r < rows; r++) {
        uint64_t seen = 0;
        uint32_t bad_card = 0;
        unsigned mask = 0;
        const uint8_t *lv_row = live ? live + r * seats : NULL;
        for (int32_t s = 0; s < seats; s++) {
            int k = r * seats + s;
            uint32_t lv = lv_row ? lv_row[s] != 0 : 1u;
            seen |= hbits[k] & ((uint64_t)0 - lv);
            bad_card |= lv & (uint32_t)(high[k / rows] >> (k % rows));
            mask |= lv << s;
            idx[s][j0 + r] = hidx[k];
            __builtin_prefetch(table + hidx[k]);
        }
        alive[j0 + r] = mask;
        /* Once no live card is > 51 (none is 52..63 masked out, none aliases past 63), the live hands
         * hold five distinct cards each, none shared, exactly when their masks hold 5 per live seat. */
        rcs[j0 + r] = (bad_card & 1u) ? BD_SD_BAD_CARD
                      : __builtin_popcountll(seen & BD_CARD_BITS) != 5 * __builtin_popcount(mask) ? BD_SD_DUP_CARD
                      : mask ? BD_SD_OK : BD_SD_NO_LIVE;
    }
}

/* ---- AVX2 pass 1: 8 rows at a time, `seats` steps of 8 hands (bd_avx2_hash8, badacey.h) ------------
 * Rows j.. of a block while 8 are left (h, live: row j); returns the row it stopped at. */
BD_TARGET_AVX2 static int64_t sd_hash8_avx2(const uint32_t *table, const uint8_t *h, const uint8_t *live,
                                            int32_t seats, uint32_t (*idx)[SD_BLOCK], int64_t j, int64_t m,
                                            unsigned *alive, int *rcs)
{
    struct bd_avx2_consts k;
    bd_avx2_init(&k);
    for (; j + 8 <= m; j += 8, h += 40 * seats, live = live ? live + 8 * seats : NULL) {
        uint32_t hidx[8 * SD_MAX_SEATS], high[SD_MAX_SEATS];
        uint64_t hbits[8 * SD_MAX_SEATS];
        for (int32_t step = 0; step < seats; step++) {
            __m256i hi, repeat;
            __m256i ix = bd_avx2_hash8(&k, h + 40 * step, &hi, &repeat, hbits + 8 * step);
            (void)repeat; /* a repeat leaves the row's masks short of 5 cards a seat: sd_check_rows sees it */
            high[step] = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(hi));
            _mm256_storeu_si256((__m256i *)(hidx + 8 * step), ix);
        }
        sd_check_rows(table, hidx, hbits, high, 8, live, seats, idx, j, alive, rcs);
    }
    return j;
}

/* ---- AVX-512 VBMI pass 1 (machines that have it, chosen at run time): 16 hands per step ------------
 * A group of 16 rows holds 16 * seats hands, 80 * seats contiguous bytes: `seats` steps of 16 hands.
 * Each step transposes the 80 bytes into five columns with byte permutes, builds each hand's 64-bit
 * card mask, sorts the columns with the 9-comparator network (min/max on 16 lanes), flags cards > 51,
 * and sums the colex binomials from in-register copies of bd_binom (badacey.h).  Then a scalar loop per
 * row checks the row: no live card > 51, and its live hands' masks together hold 5 cards per live seat
 * (a repeat within a hand or across hands leaves fewer), and places the indexes seat-major. */

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

/* Pass 1 for rows j0..j0+15 of a block (h, live: their first row). */
SD_VBMI static void sd_hash16_vbmi(const uint32_t *table, const uint8_t *h, const uint8_t *live, int32_t seats,
                                   uint32_t (*idx)[SD_BLOCK], int64_t j0, unsigned *alive, int *rcs)
{
    uint32_t hidx[16 * SD_MAX_SEATS];
    uint64_t hbits[16 * SD_MAX_SEATS];
    uint32_t high_step[SD_MAX_SEATS]; /* bit k: hand k of a step has a card > 51 */
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
        __m512i ix = _mm512_add_epi32(
            _mm512_add_epi32(a, sd_binom64(rows[0], _mm512_and_si512(b, m63))),
            _mm512_add_epi32(_mm512_add_epi32(sd_binom64(rows[1], _mm512_and_si512(c, m63)),
                                              sd_binom64(rows[2], _mm512_and_si512(d, m63))),
                             sd_binom64(rows[3], _mm512_and_si512(e, m63))));
        _mm512_storeu_si512(hidx + 16 * step, _mm512_min_epu32(ix, last)); /* garbage stays in the table */
    }
    sd_check_rows(table, hidx, hbits, high_step, 16, live, seats, idx, j0, alive, rcs);
}

/* Pass 2 across rows, rows 0..m-1 of a block: AVX-512, 16 rows a step, then AVX2, 8 rows a step; the
 * rows left over (fewer than 8) go to sd_winners_row.  Each step gathers one seat's entries for its
 * rows, folds the dead seats to 0xFFFFFFFF, and takes the minimum of each half over the seats; a seat
 * wins a half where its rank equals the minimum.  Each returns the row it stopped at: from
 * row j, whole steps only. */
SD_VBMI static int64_t sd_winners16(const uint32_t *table, uint32_t (*idx)[SD_BLOCK], const unsigned *alive,
                                    int64_t j, int64_t m, int32_t seats, unsigned *lw, unsigned *bw)
{
    const __m512i lo16 = _mm512_set1_epi32(0xFFFF);
    for (; j + 16 <= m; j += 16) {
        __m512i al = _mm512_loadu_si512(alive + j), low[SD_MAX_SEATS], bad[SD_MAX_SEATS];
        __m512i lmin = lo16, bmin = lo16, l = _mm512_setzero_si512(), b = l;
        for (int32_t s = 0; s < seats; s++) {
            __m512i e = _mm512_i32gather_epi32(_mm512_loadu_si512(idx[s] + j), (const void *)table, 4);
            e = _mm512_mask_mov_epi32(e, _mm512_testn_epi32_mask(al, _mm512_set1_epi32(1 << s)),
                                      _mm512_set1_epi32(-1));
            low[s] = _mm512_and_si512(e, lo16);
            bad[s] = _mm512_srli_epi32(e, 16);
            lmin = _mm512_min_epu32(lmin, low[s]);
            bmin = _mm512_min_epu32(bmin, bad[s]);
        }
        for (int32_t s = 0; s < seats; s++) {
            __m512i bit = _mm512_set1_epi32(1 << s);
            l = _mm512_mask_or_epi32(l, _mm512_cmpeq_epi32_mask(low[s], lmin), l, bit);
            b = _mm512_mask_or_epi32(b, _mm512_cmpeq_epi32_mask(bad[s], bmin), b, bit);
        }
        _mm512_storeu_si512(lw + j, _mm512_and_si512(l, al));
        _mm512_storeu_si512(bw + j, _mm512_and_si512(b, al));
    }
    return j;
}

BD_TARGET_AVX2 static int64_t sd_winners8(const uint32_t *table, uint32_t (*idx)[SD_BLOCK], const unsigned *alive,
                                          int64_t j, int64_t m, int32_t seats, unsigned *lw, unsigned *bw)
{
    const __m256i lo16 = _mm256_set1_epi32(0xFFFF), zero = _mm256_setzero_si256();
    for (; j + 8 <= m; j += 8) {
        __m256i al = _mm256_loadu_si256((const __m256i *)(alive + j)), low[SD_MAX_SEATS], bad[SD_MAX_SEATS];
        __m256i lmin = lo16, bmin = lo16, l = zero, b = zero;
        for (int32_t s = 0; s < seats; s++) {
            __m256i ix = _mm256_loadu_si256((const __m256i *)(idx[s] + j));
            __m256i e = _mm256_i32gather_epi32((const int *)table, ix, 4);
            e = _mm256_or_si256(e, _mm256_cmpeq_epi32(_mm256_and_si256(al, _mm256_set1_epi32(1 << s)), zero));
            low[s] = _mm256_and_si256(e, lo16);
            bad[s] = _mm256_srli_epi32(e, 16);
            lmin = _mm256_min_epu32(lmin, low[s]);
            bmin = _mm256_min_epu32(bmin, bad[s]);
        }
        for (int32_t s = 0; s < seats; s++) {
            __m256i bit = _mm256_set1_epi32(1 << s);
            l = _mm256_or_si256(l, _mm256_and_si256(_mm256_cmpeq_epi32(low[s], lmin), bit));
            b = _mm256_or_si256(b, _mm256_and_si256(_mm256_cmpeq_epi32(bad[s], bmin), bit));
        }
        _mm256_storeu_si256((__m256i *)(lw + j), _mm256_and_si256(l, al));
        _mm256_storeu_si256((__m256i *)(bw + j), _mm256_and_si256(b, al));
    }
    return j;
}
#endif

/* Chips of one good row (see showdown.h for the odd-chip rules) into out[s * step] for each seat s
 * (step 1: a row of the row-major (N, P) array; step = the column stride: one cell of each seat's
 * column). */
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
        for (int32_t s = 0; s < seats; s++)
            out[s * step] = 0;
        out[l * step] = lhalf;
        out[b * step] += half;
        out[o * step] += odd_low ? 0 : odd;
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

/* Where pass 3 writes: the row-major arrays of bd_showdown_many (cols == 0: shares / chips / low_win /
 * badugi_win, n * seats each) or the column layout of bd_showdown_columns (cols != 0: chips[s * stride +
 * i], and one seat bitmask a row in low_bits / badugi_bits).  `cols` is a constant at every call, so each
 * layout compiles to its own loop, and passes 1 and 2 are shared unchanged.  Passed by value into the
 * inlined loops: a copy in registers, which no store through the output pointers can alias. */
typedef struct {
    double *shares;
    int64_t *chips;
    uint8_t *low_win, *badugi_win;   /* row-major winner bytes (cols == 0) */
    uint8_t *low_bits, *badugi_bits; /* winner bitmasks (cols != 0) */
    int64_t stride;                  /* cols != 0: distance between two seats' columns in chips, >= n */
} sd_out;

/* Pass 3 for one good row i: its shares or chips, and its winners (bytes, or bitmasks in the column
 * layout), from the winner masks lw, bw. */
SD_INLINE void sd_pay_row(unsigned lw, unsigned bw, int64_t i, const int32_t seats, const int64_t *pot,
                          const int64_t *button, int32_t odd_low, const sd_out o, const int cols)
{
    lw &= 63, bw &= 63; /* seat masks already (masked by the live seats): keeps the table reads in range */
    if (cols) {
        sd_chips(pot[i], (int32_t)button[i], odd_low, lw, bw, seats, o.chips + i, o.stride);
        if (o.low_bits)
            o.low_bits[i] = (uint8_t)lw;
        if (o.badugi_bits)
            o.badugi_bits[i] = (uint8_t)bw;
        return;
    }
    if (pot) {
        sd_chips(pot[i], (int32_t)button[i], odd_low, lw, bw, seats, o.chips + i * seats, 1);
    } else if (o.shares) {
        const double *ls = sd_share_of[lw], *bs = sd_share_of[bw];
        double *sh = o.shares + i * seats;
        for (int32_t s = 0; s < seats; s++)
            sh[s] = ls[s] + bs[s];
    }
    if (o.low_win)
        memcpy(o.low_win + i * seats, sd_win_bytes[lw], (size_t)seats);
    if (o.badugi_win)
        memcpy(o.badugi_win + i * seats, sd_win_bytes[bw], (size_t)seats);
}

/* A bad row (with status) pays nothing and wins nothing, in either layout. */
SD_INLINE void sd_pay_nothing(int64_t i, const int32_t seats, const int64_t *pot, const sd_out o, const int cols)
{
    if (cols) {
        for (int32_t s = 0; s < seats; s++)
            o.chips[s * o.stride + i] = 0;
        if (o.low_bits)
            o.low_bits[i] = 0;
        if (o.badugi_bits)
            o.badugi_bits[i] = 0;
        return;
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

SD_INLINE int64_t sd_run(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                         const int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                         const sd_out o, const int cols, uint8_t *status, int32_t *code, int level)
{
    int64_t bad_rows = 0;
    uint32_t idx[SD_MAX_SEATS][SD_BLOCK];
    unsigned alive[SD_BLOCK], lw[SD_BLOCK], bw[SD_BLOCK];
    int rcs[SD_BLOCK];
#ifndef SD_SIMD
    (void)level;
#endif
    for (int64_t i0 = 0; i0 < n; i0 += SD_BLOCK) {
        int64_t m = n - i0 < SD_BLOCK ? n - i0 : SD_BLOCK, j = 0;
        const uint8_t *h = hands + i0 * seats * 5, *lv = live ? live + i0 * seats : NULL;
#ifdef SD_SIMD
        if (level >= BD_ISA_AVX512)
            for (; j + 16 <= m; j += 16)
                sd_hash16_vbmi(table, h + j * seats * 5, lv ? lv + j * seats : NULL, seats, idx, j, alive, rcs);
        if (level >= BD_ISA_AVX2 && j + 8 <= m)
            j = sd_hash8_avx2(table, h + j * seats * 5, lv ? lv + j * seats : NULL, seats, idx, j, m, alive, rcs);
#endif
        for (; j < m; j++)
            rcs[j] = sd_hash_row(table, h + j * seats * 5, lv ? lv + j * seats : NULL, seats, idx, j, &alive[j]);
        j = 0;
#ifdef SD_SIMD
        if (level >= BD_ISA_AVX512)
            j = sd_winners16(table, idx, alive, j, m, seats, lw, bw);
        if (level >= BD_ISA_AVX2)
            j = sd_winners8(table, idx, alive, j, m, seats, lw, bw);
#endif
        for (; j < m; j++)
            sd_winners_row(table, idx, alive, j, seats, lw, bw);
        for (j = 0; j < m; j++) {
            int64_t i = i0 + j;
            int rc = rcs[j];
            if (rc == BD_SD_OK && pot && pot[i] < 0)
                rc = BD_SD_BAD_POT;
            if (rc == BD_SD_OK && pot && (button[i] < 0 || button[i] >= seats))
                rc = BD_SD_BAD_BUTTON;
            if (status)
                status[i] = (uint8_t)rc;
            if (rc == BD_SD_OK) {
                sd_pay_row(lw[j], bw[j], i, seats, pot, button, odd_low, o, cols);
                continue;
            }
            if (!status) {
                *code = rc;
                return i;
            }
            bad_rows++;
            sd_pay_nothing(i, seats, pot, o, cols);
        }
    }
    return status ? bad_rows : -1;
}

/* sd_run for each seat count: the portable build, and on x86-64 a copy compiled for AVX2 + BMI1/BMI2
 * (tzcnt, blsr, shlx: the card-mask hash is ~7% faster) that also runs the AVX-512 passes when asked.
 * The copy is chosen explicitly by bd_simd_level() (BADACEY_FAST_ISA), not by target_clones at load
 * time, so a forced scalar run really runs the portable code. */
#define SD_RUN(P, COLS) sd_run(table, hands, live, n, P, pot, button, odd_low, *o, COLS, status, code, level)
#define SD_BY_SEATS(COLS)                                                                                    \
    switch (seats) {                                                                                         \
    case 2: return SD_RUN(2, COLS);                                                                          \
    case 3: return SD_RUN(3, COLS);                                                                          \
    case 4: return SD_RUN(4, COLS);                                                                          \
    case 5: return SD_RUN(5, COLS);                                                                          \
    default: return SD_RUN(6, COLS);                                                                         \
    }
#define SD_DISPATCH_BODY                                                                                     \
    if (cols) {                                                                                              \
        SD_BY_SEATS(1)                                                                                       \
    }                                                                                                        \
    SD_BY_SEATS(0)
#define SD_DISPATCH_PARAMS                                                                                   \
    const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n, int32_t seats,             \
        const int64_t *pot, const int64_t *button, int32_t odd_low, const sd_out *o, int cols,               \
        uint8_t *status, int32_t *code, int level

static int64_t sd_dispatch_portable(SD_DISPATCH_PARAMS) { SD_DISPATCH_BODY }
#ifdef SD_SIMD
/* flatten: with both layouts there are ten sd_run copies here, and gcc's size heuristics then kept the
 * AVX2 pass 1 and pass 2 (sd_hash8_avx2, sd_winners8) out of line: 45-48 against 33-36 ns a row (6
 * seats, thread CPU time, interleaved), which flatten gives back;
 * always_inline cannot be used on them, since the portable copy calls them too (dead code there, but a
 * target mismatch for the inliner).  The VBMI functions stay calls (their target is not this one's). */
BD_TARGET_AVX2 __attribute__((flatten)) static int64_t sd_dispatch_avx2(SD_DISPATCH_PARAMS) { SD_DISPATCH_BODY }
#endif

/* Both entry points after their argument checks: pick the code path (bd_simd_level), run. */
static int64_t sd_start(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n, int32_t seats,
                        const int64_t *pot, const int64_t *button, int32_t odd_low, const sd_out *o, int cols,
                        uint8_t *status, int32_t *code)
{
#ifdef SD_SIMD
    int level = bd_simd_level();
    if (level >= BD_ISA_AVX2)
        return sd_dispatch_avx2(table, hands, live, n, seats, pot, button, odd_low, o, cols, status, code, level);
#endif
    return sd_dispatch_portable(table, hands, live, n, seats, pot, button, odd_low, o, cols, status, code,
                                BD_ISA_SCALAR);
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
