/* showdown.c -- bulk showdowns and the one split of a pot among its winners.  See showdown.h. */
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
 *          compare per seat), else row by row.  With AVX-512 it runs inside pass 1, one group of 16
 *          rows behind: each seat's gather for the group before goes between two hash steps, so the
 *          gathers wait on memory while the hashing goes on (only a block's last group is left to a
 *          pass 2 of its own);
 *   pass 3 writes each row's shares or chips and winner bytes, row by row, from tables indexed by
 *          the winner masks (no division, no loop over the seats, for shares and the common chip case);
 *          with AVX-512 or AVX2, row-major shares or chips without winner bytes go 8 rows a step in
 *          vector code (sd_shares8_vbmi, sd_chips8_vbmi; sd_shares8_avx2, sd_chips8_avx2), the rows of a
 *          step with a bad row left to the row loop.
 * The table (10 MB) is read at random, so what sets the pace is keeping many loads in flight with no
 * unpredictable branch in between.  Measured (6 seats, shares, one core of this project's shared Zen 4
 * box, best of 41 interleaved runs against the previous code, which did passes 2 and 3 row by row and
 * pass 1 in scalar code except with VBMI): avx512 40-42 -> 29-30 ns a row, avx2 49-50 -> 33-34, scalar
 * 54-60 -> 51-57.  The row functions are inlined once per seat count (2..6) so that every seat loop
 * unrolls.  Where a 6-seat row's time went before the fused pass 2 (rdtsc around each pass, best of 60
 * on 32,768-row batches, loaded box), shares / chips: avx512 pass 1 11-13 ns, pass 2 4.5-5, pass 3
 * 3.6-4.2 / 4.3-5.2; avx2 18-20, 4-4.3, 4.3-5 / 5.3-6.5; scalar 38-43, 5.2-5.4, 4.5-7 / 6.5-8.  With no
 * table read at all (a test build) the AVX-512 showdown took 12.8 / 14.3 ns a row, against 20-22 with
 * them: the memory time (~8 ns) barely overlapped the computing.  Fusing pass 2 into pass 1 (with the
 * L2 prefetches below) and blocks of 256 rows, measured with csrc/tests/showdown_bench.c (32,768 rows, 4 interleaved
 * runs of best of 30): AVX-512 shares 18.2-19.1 -> 17.6-18.0 ns a row, chips 18.8-19.8 -> 18.4-18.5;
 * with 64-row blocks the fused pass gained nothing (a quarter of the groups unfused).  AVX2 with
 * 256-row blocks: 26.6-27.8 -> 25.3-27.1 ns a row; fusing its pass 2 the same way gained nothing more
 * (25.7-26.6), so it is not done.  A pass 2 of scalar loads instead of gathers, and the fused pass with
 * L1 prefetches, changed nothing measurable. */
#define SD_BLOCK 256 /* a multiple of 16: whole AVX-512 pass-1 steps and pass-2 steps fit a block */
/* Pass 1's prefetches of the table entries: into L2 (locality 2: prefetcht1), not L1.  Likely why it
 * pays: a 64-row block's 384 entries (6 seats) are most of a 32 KB L1, where they evict one another and
 * the block's other data before pass 2 reads them (this VM has no counters to confirm it).  Measured (6
 * seats, the C harness, 32,768 rows, 64-row blocks, 3-6 interleaved runs of best of 30-40): AVX-512
 * shares 19.5-21.0 -> 18.7-19.7 ns a row, chips 20.8-22.0 -> 19.4-20.4; AVX2 and scalar unchanged within
 * the noise (AVX2 chips 26.5-26.9 -> 26.4-26.7). */
#if defined(__GNUC__) || defined(__clang__)
#define SD_PREFETCH(p) __builtin_prefetch(p, 0, 2)
#else
#define SD_PREFETCH(p) ((void)(p))
#endif
#if defined(__GNUC__)
#define SD_INLINE static inline __attribute__((always_inline))
#else
#define SD_INLINE static inline
#endif

/* Pass 3's payout stores.  A row-major shares or chips output of SD_STREAM_BYTES (1 MiB, about an L2) or
 * more will not stay in cache, and a plain store first reads the line it writes (read-for-ownership):
 * the x86-64 build writes it with non-temporal stores instead (combined into whole lines on the way out),
 * half the memory traffic, and bd_showdown_many ends with a store fence.  Shares go out so on every path
 * (sd_put_f64, movnti); chips only from the vector passes (sd_chips8_vbmi, sd_chips8_avx2), which
 * compute each cell whole first: the row-by-row sd_chips builds a row by read-modify-write, and every streamable form of it
 * tried (a local row, products or masks per seat) made the common one-winner row 10-12 ns instead of 6.
 * Measured, 6 seats, 8 MB of payouts, AVX-512 path: the shares pass 6.6-6.9 -> 5.1-5.3 ns a row (row by
 * row), the whole showdown 30.8-32.7 -> 26.2-28.2 ns with the vector shares pass, chips 28.7-30.6 ->
 * 26.3-28.3.  Elsewhere (other architectures, BD_NO_SIMD, smaller outputs) plain stores. */
#define SD_STREAM_BYTES ((int64_t)1 << 20)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BD_NO_SIMD)
#include <emmintrin.h>
#define SD_HAVE_STREAM 1
#endif

SD_INLINE void sd_put_f64(double *p, double v, const int nt)
{
#ifdef SD_HAVE_STREAM
    if (nt) {
        long long bits;
        memcpy(&bits, &v, sizeof bits); /* the double's 8 bytes, unchanged */
        _mm_stream_si64((long long *)(void *)p, bits);
        return;
    }
#else
    (void)nt;
#endif
    *p = v;
}

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
        SD_PREFETCH(table + ix);
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

/* ---- AVX2 pass 1: 8 rows at a time, `seats` steps of 8 hands (bd_avx2_hash8, badacey.h) ------------
 * Hand k = seat s of row r at k = r * seats + s.  After the steps, the group's card-over-51 flags and
 * live flags are bit k of two 64-bit words (8 * seats <= 48 hands), so a row's live seats and bad hands
 * are one shift and mask each; then per row: the live hands' card masks ORed and counted (a row is
 * good when no live card is > 51 and its masks hold 5 cards per live seat: a repeat within a hand or
 * across hands leaves fewer), the indexes placed seat-major, the entries prefetched.  Measured as the
 * AVX-512 pass below, against the previous loop (a live byte load, compare and flag shift per hand, one
 * copy for every seat count): pass 1 21.9-23.6 -> 17.6-20.0 ns a row. */
BD_TARGET_AVX2 SD_INLINE void sd_hash8_avx2(const struct bd_avx2_consts *k, const uint32_t *table, const uint8_t *h,
                                            const uint8_t *live, const int32_t seats, uint32_t (*idx)[SD_BLOCK],
                                            int64_t j0, unsigned *alive, int *rcs)
{
    uint32_t hidx[8 * SD_MAX_SEATS];
    uint64_t hbits[8 * SD_MAX_SEATS], high = 0, lives = ((uint64_t)1 << 8 * seats) - 1;
    for (int32_t step = 0; step < seats; step++) {
        __m256i hi, repeat;
        __m256i ix = bd_avx2_hash8(k, h + 40 * step, &hi, &repeat, hbits + 8 * step);
        (void)repeat; /* a repeat leaves the row's masks short of 5 cards a seat: the count sees it */
        high |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(hi)) << 8 * step;
        _mm256_storeu_si256((__m256i *)(hidx + 8 * step), ix);
    }
    if (live) {
        uint8_t lb[64] = {0};
        memcpy(lb, live, (size_t)(8 * seats)); /* exactly the group's live bytes */
        const __m256i zero = _mm256_setzero_si256();
        uint64_t folded = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)lb), zero)) |
                          (uint64_t)(uint32_t)_mm256_movemask_epi8(
                              _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(lb + 32)), zero)) << 32;
        lives &= ~folded;
    }
    const unsigned full = (1u << seats) - 1;
    for (int r = 0; r < 8; r++) {
        unsigned mask = (unsigned)(lives >> r * seats) & full, bad_card = (unsigned)(high >> r * seats) & mask;
        uint64_t seen = 0;
        for (int32_t s = 0; s < seats; s++) {
            int k = r * seats + s;
            seen |= hbits[k] & ((uint64_t)0 - (mask >> s & 1u));
            idx[s][j0 + r] = hidx[k];
            SD_PREFETCH(table + hidx[k]);
        }
        alive[j0 + r] = mask;
        /* Once no live card is > 51 (none is 52..63 masked out, none aliases past 63), the live hands
         * hold five distinct cards each, none shared, exactly when their masks hold 5 per live seat. */
        rcs[j0 + r] = bad_card ? BD_SD_BAD_CARD
                      : __builtin_popcountll(seen & BD_CARD_BITS) != 5 * __builtin_popcount(mask) ? BD_SD_DUP_CARD
                      : mask ? BD_SD_OK : BD_SD_NO_LIVE;
    }
}

/* AVX2 pass 1 over rows j.. of a block of m rows while 8 are left (h, live: row j), one copy per seat
 * count; returns the row it stopped at. */
BD_TARGET_AVX2 static int64_t sd_pass1_avx2(const uint32_t *table, const uint8_t *h, const uint8_t *live, int32_t seats,
                                            uint32_t (*idx)[SD_BLOCK], int64_t j, int64_t m, unsigned *alive, int *rcs)
{
    struct bd_avx2_consts k;
    bd_avx2_init(&k);
#define SD_PASS1_AVX2(S)                                                                                        \
    for (; j + 8 <= m; j += 8)                                                                                 \
        sd_hash8_avx2(&k, table, h + j * (S) * 5, live ? live + j * (S) : NULL, S, idx, j, alive, rcs); \
    break;
    switch (seats) {
    case 2: SD_PASS1_AVX2(2)
    case 3: SD_PASS1_AVX2(3)
    case 4: SD_PASS1_AVX2(4)
    case 5: SD_PASS1_AVX2(5)
    default: SD_PASS1_AVX2(6)
    }
#undef SD_PASS1_AVX2
    return j;
}

/* Pass 2's winners of the 16 rows j.. of a block from their entries e[seat] (as gathered): the dead
 * seats folded to 0xFFFFFFFF, the minimum of each half over the seats; a seat wins a half where its
 * rank equals the minimum. */
BD_TARGET_VBMI SD_INLINE void sd_win16(__m512i *e, const unsigned *alive, int64_t j, const int32_t seats, unsigned *lw,
                                       unsigned *bw)
{
    const __m512i lo16 = _mm512_set1_epi32(0xFFFF);
    __m512i al = _mm512_loadu_si512(alive + j), low[SD_MAX_SEATS], bad[SD_MAX_SEATS];
    __m512i lmin = lo16, bmin = lo16, l = _mm512_setzero_si512(), b = l;
    for (int32_t s = 0; s < seats; s++) {
        e[s] = _mm512_mask_mov_epi32(e[s], _mm512_testn_epi32_mask(al, _mm512_set1_epi32(1 << s)), _mm512_set1_epi32(-1));
        low[s] = _mm512_and_si512(e[s], lo16);
        bad[s] = _mm512_srli_epi32(e[s], 16);
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

/* ---- AVX-512 VBMI pass 1 (machines that have it, chosen at run time): 16 rows per group ------------
 * A group of 16 rows holds 16 * seats hands, 80 * seats contiguous bytes, hand k = row r * seats + seat
 * s: `seats` steps of bd_vbmi_hash16 (badacey.h).  The results are then turned seat-major in registers
 * (lane r of seat s takes hand r * seats + s: one two-register permute per register pair those hands
 * span, merged by mask) and every check runs on the 16 rows at once, with no scalar loop per row but
 * the prefetches: the index carries the hand's card-over-51 flag in bit 31 (indexes are below 2^22),
 * the live bytes come by one byte permute per seat, and the live hands' card masks (two 32-bit halves)
 * are ORed per row and counted (a nibble-table popcount: VPOPCNTD is not in every VBMI CPU).  A row is
 * good when no live card is > 51 and its masks hold 5 cards per live seat (a repeat within a hand or
 * across hands leaves fewer).  Measured (6 seats, rdtsc around each pass of 32,768-row batches, best of
 * 60, interleaved) against the previous code (the same hash, then a scalar loop per row over the seats):
 * pass 1 16.3-17.6 -> 11.2-12.1 ns a row.  jp >= 0: also pass 2 for the 16 rows jp.. (the group before,
 * its entries prefetched a group ago), seat s's gather right after hash step s. */
BD_TARGET_VBMI SD_INLINE void sd_hash16_vbmi(const uint32_t *table, const struct bd_vbmi_consts *k, const uint8_t *h,
                                             const uint8_t *live, const int32_t seats, uint32_t (*idx)[SD_BLOCK],
                                             int64_t j0, unsigned *alive, int *rcs, int64_t jp, unsigned *lw,
                                             unsigned *bw)
{
    __m512i ent[SD_MAX_SEATS];
    const __m512i flag = _mm512_set1_epi32((int)0x80000000u), zero = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    /* Per step: the index (+ flag), the card mask's low and high 32 bits; [seats]: an odd count's pair */
    __m512i x[3][SD_MAX_SEATS + 1];
    for (int32_t step = 0; step < seats; step++) {
        __mmask16 high;
        __m512i bits[2];
        __m512i ix = bd_vbmi_hash16(k, h + 80 * step, &high, NULL, bits);
        if (jp >= 0)
            ent[step] = _mm512_i32gather_epi32(_mm512_loadu_si512(idx[step] + jp), (const void *)table, 4);
        x[0][step] = _mm512_mask_or_epi32(ix, high, ix, flag);
        x[1][step] = bits[0];
        x[2][step] = bits[1];
    }
    for (int v = 0; v < 3; v++)
        x[v][seats] = x[v][seats - 1]; /* the second register of an odd count's last pair: never selected */
    __m512i lv0 = zero, lv1 = zero;
    if (live) {
        /* The group's 16 * seats live bytes (32..96), with masked loads: nothing past them is read. */
        const int32_t nb = 16 * seats;
        lv0 = _mm512_maskz_loadu_epi8(nb >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << nb) - 1, live);
        if (nb > 64)
            lv1 = _mm512_maskz_loadu_epi8(((__mmask64)1 << (nb - 64)) - 1, live + 64);
    }
    __m512i al = zero, nlive = zero, seen_lo = zero, seen_hi = zero;
    __mmask16 bad = 0;
    for (int32_t s = 0; s < seats; s++) {
        /* Lane r: hand r * seats + s, in register pair p = its number / 32 (a permute reads its low 5 bits). */
        __m512i kv = _mm512_add_epi32(_mm512_mullo_epi32(iota, _mm512_set1_epi32(seats)), _mm512_set1_epi32(s));
        __m512i pair = _mm512_srli_epi32(kv, 5), t[3];
        for (int v = 0; v < 3; v++) {
            t[v] = _mm512_permutex2var_epi32(x[v][0], kv, x[v][1]);
            for (int32_t p = 1; 2 * p < seats; p++)
                t[v] = _mm512_mask_mov_epi32(t[v], _mm512_cmpeq_epi32_mask(pair, _mm512_set1_epi32(p)),
                                             _mm512_permutex2var_epi32(x[v][2 * p], kv, x[v][2 * p + 1]));
        }
        __mmask16 lm = 0xFFFF;
        if (live) {
            __m512i bytes = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(kv));
            lm = (__mmask16)_mm512_test_epi8_mask(_mm512_permutex2var_epi8(lv0, bytes, lv1), _mm512_set1_epi8(-1));
        }
        _mm512_storeu_si512(idx[s] + j0, _mm512_andnot_si512(flag, t[0]));
        bad |= lm & _mm512_test_epi32_mask(t[0], flag);
        al = _mm512_mask_or_epi32(al, lm, al, _mm512_set1_epi32(1 << s));
        nlive = _mm512_mask_add_epi32(nlive, lm, nlive, one);
        seen_lo = _mm512_mask_or_epi32(seen_lo, lm, seen_lo, t[1]);
        seen_hi = _mm512_mask_or_epi32(seen_hi, lm, seen_hi, t[2]);
    }
    /* Cards in each row's live hands: a nibble-table popcount per byte, summed over each 32-bit lane
     * (VPOPCNTD is not in every VBMI CPU); bits 52..63 (cards 52..63, already bad) are left out. */
    const __m512i nibble = _mm512_set1_epi8(0x0F);
    const __m512i pop4 = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4));
    seen_hi = _mm512_and_si512(seen_hi, _mm512_set1_epi32((int)(BD_CARD_BITS >> 32)));
    __m512i c = _mm512_add_epi8(
        _mm512_add_epi8(_mm512_shuffle_epi8(pop4, _mm512_and_si512(seen_lo, nibble)),
                        _mm512_shuffle_epi8(pop4, _mm512_and_si512(_mm512_srli_epi16(seen_lo, 4), nibble))),
        _mm512_add_epi8(_mm512_shuffle_epi8(pop4, _mm512_and_si512(seen_hi, nibble)),
                        _mm512_shuffle_epi8(pop4, _mm512_and_si512(_mm512_srli_epi16(seen_hi, 4), nibble))));
    __m512i cnt = _mm512_madd_epi16(_mm512_maddubs_epi16(c, _mm512_set1_epi8(1)), _mm512_set1_epi16(1));
    __mmask16 dup = _mm512_cmpneq_epi32_mask(cnt, _mm512_add_epi32(nlive, _mm512_slli_epi32(nlive, 2)));
    __m512i rc = _mm512_maskz_mov_epi32(_mm512_testn_epi32_mask(al, al), _mm512_set1_epi32(BD_SD_NO_LIVE));
    rc = _mm512_mask_mov_epi32(rc, dup, _mm512_set1_epi32(BD_SD_DUP_CARD));
    rc = _mm512_mask_mov_epi32(rc, bad, _mm512_set1_epi32(BD_SD_BAD_CARD));
    _mm512_storeu_si512(rcs + j0, rc);
    _mm512_storeu_si512(alive + j0, al);
    for (int32_t s = 0; s < seats; s++) {
        for (int r = 0; r < 16; r++)
            SD_PREFETCH(table + idx[s][j0 + r]);
    }
    if (jp >= 0)
        sd_win16(ent, alive, jp, seats, lw, bw);
}

/* Pass 1 over whole groups of 16 rows of a block (m rows, h and live: its first row), one copy per seat
 * count, with pass 2 for each group but the last (winners into lw, bw); returns the row it stopped at. */
BD_TARGET_VBMI static int64_t sd_pass1_vbmi(const uint32_t *table, const uint8_t *h, const uint8_t *live, int32_t seats,
                                            uint32_t (*idx)[SD_BLOCK], int64_t m, unsigned *alive, int *rcs,
                                            unsigned *lw, unsigned *bw)
{
    struct bd_vbmi_consts k;
    bd_vbmi_init(&k);
    int64_t j = 0;
#define SD_PASS1_VBMI(S)                                                                                   \
    for (; j + 16 <= m; j += 16)                                                                          \
        sd_hash16_vbmi(table, &k, h + j * (S) * 5, live ? live + j * (S) : NULL, S, idx, j, alive, rcs, j - 16, lw, bw); \
    break;
    switch (seats) {
    case 2: SD_PASS1_VBMI(2)
    case 3: SD_PASS1_VBMI(3)
    case 4: SD_PASS1_VBMI(4)
    case 5: SD_PASS1_VBMI(5)
    default: SD_PASS1_VBMI(6)
    }
#undef SD_PASS1_VBMI
    return j;
}

/* Pass 2 across rows, rows 0..m-1 of a block: AVX-512, 16 rows a step, then AVX2, 8 rows a step; the
 * rows left over (fewer than 8) go to sd_winners_row.  Each step gathers one seat's entries for its
 * rows, folds the dead seats to 0xFFFFFFFF, and takes the minimum of each half over the seats; a seat
 * wins a half where its rank equals the minimum.  Each returns the row it stopped at: from
 * row j, whole steps only. */
BD_TARGET_VBMI static int64_t sd_winners16(const uint32_t *table, uint32_t (*idx)[SD_BLOCK], const unsigned *alive,
                                    int64_t j, int64_t m, int32_t seats, unsigned *lw, unsigned *bw)
{
    for (; j + 16 <= m; j += 16) {
        __m512i e[SD_MAX_SEATS];
        for (int32_t s = 0; s < seats; s++)
            e[s] = _mm512_i32gather_epi32(_mm512_loadu_si512(idx[s] + j), (const void *)table, 4);
        sd_win16(e, alive, j, seats, lw, bw);
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

/* The one split of a pot among its winners in C (RULES.md section 3; see showdown.h for the odd-chip
 * rules; its Python twin is split_pot in badacey_fast/rules/odd_chips.py).  Chips of one good row into
 * out[s * step] for each seat s (step 1: a row of the row-major (N, P) array; step = the column stride:
 * one cell of each seat's column).  lw, bw: the seat masks of each half's winners, not both 0; a
 * single-pot game gives 0 for the half it does not play, and the other half's winners share the whole pot.
 * Everything else that pays chips calls this (bd_split_pot, bd_split_many, the C engine), or, for the rows
 * with one winner per half, the vector passes below, which compute the same sums as its common case. */
SD_INLINE void sd_chips(int64_t pot, int32_t button, int32_t odd_low, unsigned lw, unsigned bw,
                        const int32_t seats, int64_t *out, const int64_t step)
{
    if (!lw || !bw) {
        /* A single-pot game: one share each, leftover chips one each from the first winner clockwise. */
        const unsigned w = (lw | bw) & 63;
        const int64_t k = sd_bits6[w], base = k == 1 ? pot : pot / k, left = pot - base * k;
        int64_t nth = 0;
        int32_t s = button;
        for (int32_t j = 0; j < seats; j++) {
            s = s + 1 == seats ? 0 : s + 1;
            const int64_t ws = w >> s & 1u;
            out[s * step] = ws * (base + (nth < left));
            nth += ws;
        }
        return;
    }
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

#ifdef SD_SIMD
/* ---- AVX-512 pass 3 (row-major outputs, no winner bytes): 8 rows a step --------------------------------
 * Lane r of a register holds row r of a step; one register per seat holds that seat's cells, and
 * sd_rows8 turns the `seats` registers row-major (out[r * seats + s]: 8 * seats cells, `seats`
 * whole registers).  Output register q, lane t is cell f = 8q + t = row f / seats, seat f % seats: lane
 * f / seats of seat register f % seats, one two-register permute per pair of seat registers, merged by
 * mask. */
struct sd_rows8 {
    __m512i perm[SD_MAX_SEATS];                        /* by output register: lane r + 8 * (seat & 1) */
    __mmask8 pick[SD_MAX_SEATS][(SD_MAX_SEATS + 1) / 2]; /* by output register and seat pair: its lanes */
};

BD_TARGET_VBMI SD_INLINE void sd_rows8_init(struct sd_rows8 *k, const int32_t seats)
{
    for (int32_t q = 0; q < seats; q++) {
        int64_t ix[8];
        unsigned char mk[(SD_MAX_SEATS + 1) / 2] = {0};
        for (int t = 0; t < 8; t++) {
            int32_t f = 8 * q + t, r = f / seats, st = f % seats;
            ix[t] = r + 8 * (st & 1);
            mk[st >> 1] |= (unsigned char)(1u << t);
        }
        k->perm[q] = _mm512_loadu_si512(ix);
        for (int32_t p = 0; 2 * p < seats; p++)
            k->pick[q][p] = mk[p];
    }
}

/* The `seats` output registers of a step, row-major: v[q] lane t = cell 8q + t (see above). */
BD_TARGET_VBMI SD_INLINE void sd_rows8(const struct sd_rows8 *k, const __m512i *cell, __m512i *v, const int32_t seats)
{
    for (int32_t q = 0; q < seats; q++) {
        v[q] = _mm512_permutex2var_epi64(cell[0], k->perm[q], cell[seats > 1 ? 1 : 0]);
        for (int32_t p = 1; 2 * p < seats; p++)
            v[q] = _mm512_mask_mov_epi64(v[q], k->pick[q][p],
                                         _mm512_permutex2var_epi64(cell[2 * p], k->perm[q], cell[2 * p + 1 < seats ? 2 * p + 1 : 2 * p]));
    }
}

/* Non-temporal stores of the steps of one pass-3 call (see SD_STREAM_BYTES), in whole 64-byte lines
 * (vmovntdq) wherever the cells allow.  A step's 8 * seats cells start at the same offset within a line
 * in every step of a call (a step is 64 * seats bytes), `a` cells past a line boundary.  a == 0: each
 * output register is a line.  Else the lines lie across registers: line q of a step is cells t = 8 - a
 * .. 7 of register q and 0 .. t-1 of register q + 1 (one two-register permute), and the line across two
 * consecutive steps joins the earlier step's last register (kept in `carry`) to the later's first; the
 * cells of a step next to no streamed step (the call's first and last, or beside a step left to the row
 * loop) go out one by one (movnti), as do all cells of an output not 8-byte aligned.  NumPy and malloc
 * give 16-byte alignment, so that misaligned case is the usual one: measured (6 seats, AVX-512, 32,768
 * rows, the C harness), a movnti per cell took 20.4-20.8 / 21.9-22.5 ns a row for shares / chips, a
 * 64-byte aligned output 19.2-20.2 / 20.2-21.2. */
struct sd_stream {
    __m512i sel;   /* lane i: t + i (cells t.. of one register, then the next's) */
    __m512i carry; /* the last register of the step just streamed, when `have` */
    int64_t *end;  /* just past that step's cells */
    int32_t a, t;  /* cells from the line boundary before a step / to the one after its start (a != 0) */
    int have, whole; /* whole: 0 when the output is not 8-byte aligned (a cell at a time) */
};

BD_TARGET_VBMI SD_INLINE void sd_stream_init(struct sd_stream *st, const void *out)
{
    st->whole = !((uintptr_t)out & 7);
    st->a = (int32_t)((uintptr_t)out >> 3 & 7);
    st->t = 8 - st->a;
    st->sel = _mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(st->t));
    st->carry = _mm512_setzero_si512();
    st->end = NULL;
    st->have = 0;
}

/* Cells lo..hi-1 of register v to p[lo..hi-1], one movnti each. */
BD_TARGET_VBMI SD_INLINE void sd_stream_cells(__m512i v, int64_t *p, int lo, int hi)
{
    long long c[8];
    _mm512_storeu_si512(c, v);
    for (int k = lo; k < hi; k++)
        _mm_stream_si64((long long *)p + k, c[k]);
}

/* The cells of the step before that no line took: the last `a` of its last register. */
BD_TARGET_VBMI SD_INLINE void sd_stream_flush(struct sd_stream *st)
{
    if (st->have)
        sd_stream_cells(st->carry, st->end - 8, st->t, 8);
    st->have = 0;
}

BD_TARGET_VBMI SD_INLINE void sd_stream_step(struct sd_stream *st, const __m512i *v, int64_t *out, const int32_t seats)
{
    if (!st->whole) {
        for (int32_t q = 0; q < seats; q++)
            sd_stream_cells(v[q], out + 8 * q, 0, 8);
        return;
    }
    if (!st->a) {
        for (int32_t q = 0; q < seats; q++)
            _mm512_stream_si512((__m512i *)(void *)(out + 8 * q), v[q]);
        return;
    }
    if (st->have && st->end == out) {
        _mm512_stream_si512((__m512i *)(void *)(out - st->a), _mm512_permutex2var_epi64(st->carry, st->sel, v[0]));
    } else {
        sd_stream_flush(st);
        sd_stream_cells(v[0], out, 0, st->t);
    }
    for (int32_t q = 0; q + 1 < seats; q++)
        _mm512_stream_si512((__m512i *)(void *)(out + st->t + 8 * q), _mm512_permutex2var_epi64(v[q], st->sel, v[q + 1]));
    st->carry = v[seats - 1];
    st->end = out + 8 * seats;
    st->have = 1;
}

/* A step's registers to out: plain stores, or streamed (nt). */
BD_TARGET_VBMI SD_INLINE void sd_rows8_put(struct sd_stream *st, const __m512i *v, int64_t *out, const int32_t seats,
                                           const int nt)
{
    if (nt) {
        sd_stream_step(st, v, out, seats);
        return;
    }
    for (int32_t q = 0; q < seats; q++)
        _mm512_storeu_si512(out + 8 * q, v[q]);
}

/* Shares of a block's m rows (shares, status: its first row), 8 rows a step where all 8 are good, else
 * left to the row loop (a bit per step settled is returned; without status it stops at a step holding a
 * bad row, so that nothing after the row the call stops at is written).  A seat's share of a half is
 * 0.5 / (winners of that half) or +0.0, the same division as sd_share_of's, then the same sum. */
BD_TARGET_VBMI SD_INLINE unsigned sd_shares8_vbmi(const int *rcs, const unsigned *lw, const unsigned *bw, double *shares,
                                                  uint8_t *status, int64_t m, const int32_t seats, const int nt)
{
    struct sd_rows8 rows8;
    sd_rows8_init(&rows8, seats);
    const __m256i nibble = _mm256_set1_epi32(0x0F);
    const __m256i pop4 = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4));
    const __m512d halfpot = _mm512_set1_pd(0.5);
    struct sd_stream st;
    sd_stream_init(&st, shares);
    unsigned done = 0;
    for (int64_t j = 0; j + 8 <= m; j += 8) {
        __m256i rc = _mm256_loadu_si256((const __m256i *)(rcs + j));
        if (!_mm256_testz_si256(rc, rc)) {
            if (!status)
                break; /* the row loop stops at this step's bad row: nothing after it is written */
            continue;
        }
        __m256i l32 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(lw + j)), _mm256_set1_epi32(63));
        __m256i b32 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(bw + j)), _mm256_set1_epi32(63));
        /* Winners of each half (1..6): a nibble-table popcount of the 6-bit masks. */
        __m256i kl = _mm256_add_epi32(_mm256_shuffle_epi8(pop4, _mm256_and_si256(l32, nibble)),
                                      _mm256_shuffle_epi8(pop4, _mm256_srli_epi32(l32, 4)));
        __m256i kb = _mm256_add_epi32(_mm256_shuffle_epi8(pop4, _mm256_and_si256(b32, nibble)),
                                      _mm256_shuffle_epi8(pop4, _mm256_srli_epi32(b32, 4)));
        __m512d sl = _mm512_div_pd(halfpot, _mm512_cvtepi32_pd(kl)), sb = _mm512_div_pd(halfpot, _mm512_cvtepi32_pd(kb));
        __m512i lm = _mm512_cvtepu32_epi64(l32), bm = _mm512_cvtepu32_epi64(b32), cell[SD_MAX_SEATS];
        for (int32_t st = 0; st < seats; st++) {
            __m512i bit = _mm512_set1_epi64((long long)1 << st);
            cell[st] = _mm512_castpd_si512(_mm512_add_pd(_mm512_maskz_mov_pd(_mm512_test_epi64_mask(lm, bit), sl),
                                                         _mm512_maskz_mov_pd(_mm512_test_epi64_mask(bm, bit), sb)));
        }
        __m512i v[SD_MAX_SEATS];
        sd_rows8(&rows8, cell, v, seats);
        sd_rows8_put(&st, v, (int64_t *)(void *)(shares + j * seats), seats, nt);
        if (status)
            memset(status + j, BD_SD_OK, 8);
        done |= 1u << (j >> 3);
    }
    sd_stream_flush(&st);
    return done;
}

/* ---- AVX-512 pass 3 for chips (row-major, no winner bytes): 8 rows a step ------------------------------
 * A step of 8 rows is settled here when every row is good (pass 1's code, pot >= 0, button in range); else
 * the row loop below settles its rows.  Rows with one winner in each half, the common case, are paid in
 * vector code, the others then by sd_chips over them.  Lane r holds
 * row r: the halves, each winner's seat (from the float exponent of its one-bit mask) and the odd chip's
 * seat (the winner nearer clockwise from the button), then one register per seat of its chips, which
 * permutes turn row-major (out[r * seats + s], 8 * seats cells: `seats` whole registers).  The same
 * sums as sd_chips' common case.  Returns a bit per step of the block's m rows that was settled.  Without
 * status, it stops at a step holding a bad row, so that no row after the one the call stops at is
 * written. */
BD_TARGET_VBMI SD_INLINE unsigned sd_chips8_vbmi(const int *rcs, const unsigned *lw, const unsigned *bw, const int64_t *pot,
                                                 const int64_t *button, int32_t odd_low, int64_t *chips, uint8_t *status,
                                                 int64_t m, const int32_t seats, const int nt)
{
    struct sd_rows8 rows8;
    sd_rows8_init(&rows8, seats);
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1), nseats = _mm512_set1_epi64(seats);
    const __m512i bias = _mm512_set1_epi32(127);
    struct sd_stream st;
    sd_stream_init(&st, chips);
    unsigned done = 0;
    for (int64_t j = 0; j + 8 <= m; j += 8) {
        __m256i rc = _mm256_loadu_si256((const __m256i *)(rcs + j));
        __m256i l32 = _mm256_loadu_si256((const __m256i *)(lw + j)), b32 = _mm256_loadu_si256((const __m256i *)(bw + j));
        __m512i p = _mm512_loadu_si512(pot + j), bt = _mm512_loadu_si512(button + j);
        if (!_mm256_testz_si256(rc, rc) ||
            (_mm512_cmplt_epi64_mask(p, zero) | _mm512_cmplt_epi64_mask(bt, zero) | _mm512_cmpge_epi64_mask(bt, nseats))) {
            if (!status)
                break; /* the row loop stops at this step's bad row: nothing after it is written */
            continue;
        }
        /* Rows with a tie in either half (m & (m - 1) != 0; m is not 0 in a good row) get sd_chips below. */
        __m512i lm = _mm512_cvtepu32_epi64(l32), bm = _mm512_cvtepu32_epi64(b32);
        __mmask8 tied = _mm512_test_epi64_mask(lm, _mm512_sub_epi64(lm, one)) |
                        _mm512_test_epi64_mask(bm, _mm512_sub_epi64(bm, one));
        /* The seat of a one-bit mask 2^k (k <= 5): k is its float's exponent less 127. */
        __m512i l = _mm512_cvtepu32_epi64(_mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(l32)), 23),
                                                           _mm512_castsi512_si256(bias)));
        __m512i b = _mm512_cvtepu32_epi64(_mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(b32)), 23),
                                                           _mm512_castsi512_si256(bias)));
        __m512i half = _mm512_srai_epi64(p, 1), odd = _mm512_and_si512(p, one);
        __m512i lhalf = odd_low ? _mm512_add_epi64(half, odd) : half, extra = odd_low ? zero : odd;
        /* Distance clockwise from the button (1 = first after it): the nearer winner gets an odd chip. */
        __m512i dl = _mm512_mask_add_epi64(_mm512_sub_epi64(l, bt), _mm512_cmple_epi64_mask(l, bt),
                                           _mm512_sub_epi64(l, bt), nseats);
        __m512i db = _mm512_mask_add_epi64(_mm512_sub_epi64(b, bt), _mm512_cmple_epi64_mask(b, bt),
                                           _mm512_sub_epi64(b, bt), nseats);
        __m512i o = _mm512_mask_blend_epi64(_mm512_cmple_epi64_mask(dl, db), b, l);
        __m512i cell[SD_MAX_SEATS];
        for (int32_t st = 0; st < seats; st++) {
            __m512i sv = _mm512_set1_epi64(st);
            cell[st] = _mm512_add_epi64(_mm512_add_epi64(_mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(l, sv), lhalf),
                                                         _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(b, sv), half)),
                                        _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(o, sv), extra));
        }
        int64_t *out = chips + j * seats, rowbuf[8 * SD_MAX_SEATS];
        __m512i v[SD_MAX_SEATS];
        sd_rows8(&rows8, cell, v, seats);
        if (tied) {
            /* Settled in place, except that streamed stores must not meet a plain one to the same cell:
             * then in a local copy, streamed after. */
            int64_t *dst = nt ? rowbuf : out;
            for (int32_t q = 0; q < seats; q++)
                _mm512_storeu_si512(dst + 8 * q, v[q]);
            for (unsigned t = tied; t; t &= t - 1) {
                int r = __builtin_ctz(t);
                sd_chips(pot[j + r], (int32_t)button[j + r], odd_low, lw[j + r] & 63, bw[j + r] & 63, seats,
                         dst + r * seats, 1);
            }
            if (dst == rowbuf) {
                for (int32_t q = 0; q < seats; q++)
                    v[q] = _mm512_loadu_si512(rowbuf + 8 * q);
                sd_stream_step(&st, v, out, seats);
            }
        } else {
            sd_rows8_put(&st, v, out, seats, nt);
        }
        if (status)
            memset(status + j, BD_SD_OK, 8);
        done |= 1u << (j >> 3);
    }
    sd_stream_flush(&st);
    return done;
}

/* The pass-3 dispatchers below: CALL(P) with P the seat count as a constant, one inlined copy each. */
#define SD_BY_SEAT_COUNT(CALL)                                                                               \
    switch (seats) {                                                                                         \
    case 2: return CALL(2);                                                                                  \
    case 3: return CALL(3);                                                                                  \
    case 4: return CALL(4);                                                                                  \
    case 5: return CALL(5);                                                                                  \
    default: return CALL(6);                                                                                 \
    }

/* sd_chips8_vbmi and sd_shares8_vbmi over a block's m rows (pot, button, chips, shares, status: its
 * first row), one copy per seat count. */
BD_TARGET_VBMI static unsigned sd_pass3_chips_vbmi(const int *rcs, const unsigned *lw, const unsigned *bw, const int64_t *pot,
                                                   const int64_t *button, int32_t odd_low, int64_t *chips, uint8_t *status,
                                                   int64_t m, int32_t seats, int nt)
{
#define SD_CALL(P) sd_chips8_vbmi(rcs, lw, bw, pot, button, odd_low, chips, status, m, P, nt)
    SD_BY_SEAT_COUNT(SD_CALL)
#undef SD_CALL
}

BD_TARGET_VBMI static unsigned sd_pass3_shares_vbmi(const int *rcs, const unsigned *lw, const unsigned *bw, double *shares,
                                                    uint8_t *status, int64_t m, int32_t seats, int nt)
{
#define SD_CALL(P) sd_shares8_vbmi(rcs, lw, bw, shares, status, m, P, nt)
    SD_BY_SEAT_COUNT(SD_CALL)
#undef SD_CALL
}

/* ---- AVX2 pass 3 (row-major, no winner bytes): 8 rows a step, 4 to a register ------------------------
 * The AVX-512 passes above in 256-bit registers: lane r of a register is row r of a half-step of 4 rows,
 * one register per seat (c[s], 64-bit cells: chips, or the bits of shares).  A 4x4 transpose (unpack,
 * 128-bit lane swap) turns seats 0-3 of each row into one register, seats 4-5 into one 128-bit half;
 * sd_rows4_avx2 writes the 4 rows out[r * seats + s]: plain stores (how 0), 16-byte non-temporal stores
 * (how 1: out 16-byte aligned, seats even, so that every pair of cells is), or one movnti a cell (how 2;
 * see SD_STREAM_BYTES).  c[s] for s >= seats is ignored.  Measured (6 seats, rdtsc around pass 3, the C
 * harness, best of 20-40, against the row loop it replaces; 1.5 MB / 8 MB of payouts): shares 4.9 /
 * 5.4-5.7 -> 3.3 / 3.6-4.1 ns a row, chips 4.8-5.0 / 7.4-8.0 -> 3.5 / 3.9-4.8 (plain stores instead of
 * streamed: 2.8-3.2 on 1.5 MB, ~1 ns a row more than streamed on 8 MB). */
BD_TARGET_AVX2 SD_INLINE void sd_rows4_avx2(const __m256i *c, int64_t *out, const int32_t seats, const int how)
{
    __m256i z = _mm256_setzero_si256(), c4 = seats > 4 ? c[4] : z, c5 = seats > 5 ? c[5] : z;
    __m256i c2 = seats > 2 ? c[2] : z, c3 = seats > 3 ? c[3] : z;
    __m256i t0 = _mm256_unpacklo_epi64(c[0], c[1]), t1 = _mm256_unpackhi_epi64(c[0], c[1]);
    __m256i t2 = _mm256_unpacklo_epi64(c2, c3), t3 = _mm256_unpackhi_epi64(c2, c3);
    __m256i u4 = _mm256_unpacklo_epi64(c4, c5), u5 = _mm256_unpackhi_epi64(c4, c5);
    __m256i r[4] = {_mm256_permute2x128_si256(t0, t2, 0x20), _mm256_permute2x128_si256(t1, t3, 0x20),
                    _mm256_permute2x128_si256(t0, t2, 0x31), _mm256_permute2x128_si256(t1, t3, 0x31)};
    __m128i q[4] = {_mm256_castsi256_si128(u4), _mm256_castsi256_si128(u5), _mm256_extracti128_si256(u4, 1),
                    _mm256_extracti128_si256(u5, 1)};
    for (int k = 0; k < 4; k++) {
        int64_t *row = out + k * seats;
        __m128i lo = _mm256_castsi256_si128(r[k]), hi = _mm256_extracti128_si256(r[k], 1);
        if (how == 2) {
            long long cell[8];
            _mm256_storeu_si256((__m256i *)(void *)cell, r[k]);
            _mm_storeu_si128((__m128i *)(void *)(cell + 4), q[k]);
            for (int32_t s = 0; s < seats; s++)
                _mm_stream_si64((long long *)row + s, cell[s]);
        } else if (how == 1) {
            _mm_stream_si128((__m128i *)(void *)row, lo);
            if (seats >= 4)
                _mm_stream_si128((__m128i *)(void *)(row + 2), hi);
            if (seats == 6)
                _mm_stream_si128((__m128i *)(void *)(row + 4), q[k]);
        } else if (seats >= 4) {
            _mm256_storeu_si256((__m256i *)(void *)row, r[k]);
            if (seats == 6)
                _mm_storeu_si128((__m128i *)(void *)(row + 4), q[k]);
            else if (seats == 5)
                _mm_storel_epi64((__m128i *)(void *)(row + 4), q[k]);
        } else {
            _mm_storeu_si128((__m128i *)(void *)row, lo);
            if (seats == 3)
                _mm_storel_epi64((__m128i *)(void *)(row + 2), hi);
        }
    }
}

/* Shares of a block's m rows, 8 rows a step where all 8 are good (see sd_shares8_vbmi: the same
 * division and sum, the same return and stop). */
BD_TARGET_AVX2 SD_INLINE unsigned sd_shares8_avx2(const int *rcs, const unsigned *lw, const unsigned *bw, double *shares,
                                                  uint8_t *status, int64_t m, const int32_t seats, const int nt)
{
    const __m128i nibble = _mm_set1_epi32(0x0F), six = _mm_set1_epi32(63);
    const __m128i pop4 = _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256d halfpot = _mm256_set1_pd(0.5);
    const int how = !nt ? 0 : (!((uintptr_t)shares & 15) && !(seats & 1)) ? 1 : 2;
    unsigned done = 0;
    for (int64_t j = 0; j + 8 <= m; j += 8) {
        __m256i rc = _mm256_loadu_si256((const __m256i *)(const void *)(rcs + j));
        if (!_mm256_testz_si256(rc, rc)) {
            if (!status)
                break; /* the row loop stops at this step's bad row: nothing after it is written */
            continue;
        }
        for (int hs = 0; hs < 2; hs++) {
            __m128i l32 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(lw + j + 4 * hs)), six);
            __m128i b32 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(bw + j + 4 * hs)), six);
            /* Winners of each half (1..6): a nibble-table popcount of the 6-bit masks. */
            __m128i kl = _mm_add_epi32(_mm_shuffle_epi8(pop4, _mm_and_si128(l32, nibble)),
                                       _mm_shuffle_epi8(pop4, _mm_srli_epi32(l32, 4)));
            __m128i kb = _mm_add_epi32(_mm_shuffle_epi8(pop4, _mm_and_si128(b32, nibble)),
                                       _mm_shuffle_epi8(pop4, _mm_srli_epi32(b32, 4)));
            __m256i sl = _mm256_castpd_si256(_mm256_div_pd(halfpot, _mm256_cvtepi32_pd(kl)));
            __m256i sb = _mm256_castpd_si256(_mm256_div_pd(halfpot, _mm256_cvtepi32_pd(kb)));
            __m256i lm = _mm256_cvtepu32_epi64(l32), bm = _mm256_cvtepu32_epi64(b32), c[SD_MAX_SEATS];
            for (int32_t s = 0; s < seats; s++) {
                __m256i bit = _mm256_set1_epi64x((long long)1 << s);
                __m256i ml = _mm256_cmpeq_epi64(_mm256_and_si256(lm, bit), bit);
                __m256i mb = _mm256_cmpeq_epi64(_mm256_and_si256(bm, bit), bit);
                c[s] = _mm256_castpd_si256(_mm256_add_pd(_mm256_castsi256_pd(_mm256_and_si256(ml, sl)),
                                                         _mm256_castsi256_pd(_mm256_and_si256(mb, sb))));
            }
            sd_rows4_avx2(c, (int64_t *)(void *)(shares + (j + 4 * hs) * seats), seats, how);
        }
        if (status)
            memset(status + j, BD_SD_OK, 8);
        done |= 1u << (j >> 3);
    }
    return done;
}

/* ---- AVX2 pass 3 for chips: 8 rows a step (see sd_chips8_vbmi) ------------------------------------------
 * A step of 8 rows is settled here when every row is good, rows with one winner in each half in vector
 * code (the same sums as sd_chips' common case), the tied ones then by sd_chips over them, in place (or,
 * when streaming, in a local copy of the step, streamed after). */
BD_TARGET_AVX2 SD_INLINE unsigned sd_chips8_avx2(const int *rcs, const unsigned *lw, const unsigned *bw, const int64_t *pot,
                                                 const int64_t *button, int32_t odd_low, int64_t *chips, uint8_t *status,
                                                 int64_t m, const int32_t seats, const int nt)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1), nseats = _mm256_set1_epi64x(seats);
    const int how = !nt ? 0 : (!((uintptr_t)chips & 15) && !(seats & 1)) ? 1 : 2;
    const __m256i last = _mm256_set1_epi64x(seats - 1);
    const __m128i bias = _mm_set1_epi32(127);
    unsigned done = 0;
    for (int64_t j = 0; j + 8 <= m; j += 8) {
        __m256i rc = _mm256_loadu_si256((const __m256i *)(const void *)(rcs + j));
        __m256i p0 = _mm256_loadu_si256((const __m256i *)(const void *)(pot + j));
        __m256i p1 = _mm256_loadu_si256((const __m256i *)(const void *)(pot + j + 4));
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)(button + j));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(button + j + 4));
        /* A negative pot or button, or a button past the last seat: its sign bit, or button > seats - 1. */
        __m256i badv = _mm256_or_si256(_mm256_or_si256(_mm256_or_si256(p0, p1), _mm256_or_si256(b0, b1)),
                                       _mm256_or_si256(_mm256_cmpgt_epi64(b0, last), _mm256_cmpgt_epi64(b1, last)));
        if (!_mm256_testz_si256(rc, rc) || _mm256_movemask_pd(_mm256_castsi256_pd(badv))) {
            if (!status)
                break; /* the row loop stops at this step's bad row: nothing after it is written */
            continue;
        }
        /* Rows with a tie in either half (m & (m - 1) != 0; m is not 0 in a good row) get sd_chips below. */
        __m256i l8 = _mm256_loadu_si256((const __m256i *)(const void *)(lw + j));
        __m256i b8 = _mm256_loadu_si256((const __m256i *)(const void *)(bw + j));
        __m256i ties = _mm256_or_si256(_mm256_and_si256(l8, _mm256_sub_epi32(l8, _mm256_set1_epi32(1))),
                                       _mm256_and_si256(b8, _mm256_sub_epi32(b8, _mm256_set1_epi32(1))));
        unsigned tied = ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(ties, zero))) & 255;
        /* Tied rows are settled in place, except that streamed stores must not meet a plain one to the same
         * cell: then the step goes to a local copy, streamed after. */
        int64_t *out = chips + j * seats, rowbuf[8 * SD_MAX_SEATS], *dst = tied && nt ? rowbuf : out;
        for (int hs = 0; hs < 2; hs++) {
            __m256i p = hs ? p1 : p0, bt = hs ? b1 : b0;
            __m128i l32 = _mm_loadu_si128((const __m128i *)(const void *)(lw + j + 4 * hs));
            __m128i b32 = _mm_loadu_si128((const __m128i *)(const void *)(bw + j + 4 * hs));
            /* The seat of a one-bit mask 2^k (k <= 5): k is its float's exponent less 127. */
            __m256i l = _mm256_cvtepu32_epi64(_mm_sub_epi32(_mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(l32)), 23), bias));
            __m256i b = _mm256_cvtepu32_epi64(_mm_sub_epi32(_mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(b32)), 23), bias));
            __m256i half = _mm256_srli_epi64(p, 1), odd = _mm256_and_si256(p, one); /* pot >= 0 here */
            __m256i lhalf = odd_low ? _mm256_add_epi64(half, odd) : half, extra = odd_low ? zero : odd;
            /* Distance clockwise from the button (1 = first after it): the nearer winner gets an odd chip. */
            __m256i dl = _mm256_add_epi64(_mm256_sub_epi64(l, bt), _mm256_andnot_si256(_mm256_cmpgt_epi64(l, bt), nseats));
            __m256i db = _mm256_add_epi64(_mm256_sub_epi64(b, bt), _mm256_andnot_si256(_mm256_cmpgt_epi64(b, bt), nseats));
            __m256i o = _mm256_blendv_epi8(l, b, _mm256_cmpgt_epi64(dl, db));
            __m256i c[SD_MAX_SEATS];
            for (int32_t s = 0; s < seats; s++) {
                __m256i sv = _mm256_set1_epi64x(s);
                c[s] = _mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(_mm256_cmpeq_epi64(l, sv), lhalf),
                                                         _mm256_and_si256(_mm256_cmpeq_epi64(b, sv), half)),
                                        _mm256_and_si256(_mm256_cmpeq_epi64(o, sv), extra));
            }
            sd_rows4_avx2(c, dst + 4 * hs * seats, seats, dst == out ? how : 0);
        }
        for (unsigned t = tied; t; t &= t - 1) {
            int r = __builtin_ctz(t);
            sd_chips(pot[j + r], (int32_t)button[j + r], odd_low, lw[j + r] & 63, bw[j + r] & 63, seats,
                     dst + r * seats, 1);
        }
        if (dst == rowbuf) {
            for (int32_t k = 0; k < 8 * seats; k += 2) {
                if (how == 1)
                    _mm_stream_si128((__m128i *)(void *)(out + k), _mm_loadu_si128((const __m128i *)(const void *)(rowbuf + k)));
                else {
                    _mm_stream_si64((long long *)(out + k), rowbuf[k]);
                    _mm_stream_si64((long long *)(out + k + 1), rowbuf[k + 1]);
                }
            }
        }
        if (status)
            memset(status + j, BD_SD_OK, 8);
        done |= 1u << (j >> 3);
    }
    return done;
}

/* sd_chips8_avx2 over a block's m rows, one copy per seat count (see sd_pass3_chips_vbmi). */
BD_TARGET_AVX2 static unsigned sd_pass3_chips_avx2(const int *rcs, const unsigned *lw, const unsigned *bw, const int64_t *pot,
                                                   const int64_t *button, int32_t odd_low, int64_t *chips, uint8_t *status,
                                                   int64_t m, int32_t seats, int nt)
{
#define SD_CALL(P) sd_chips8_avx2(rcs, lw, bw, pot, button, odd_low, chips, status, m, P, nt)
    SD_BY_SEAT_COUNT(SD_CALL)
#undef SD_CALL
}

BD_TARGET_AVX2 static unsigned sd_pass3_shares_avx2(const int *rcs, const unsigned *lw, const unsigned *bw, double *shares,
                                                    uint8_t *status, int64_t m, int32_t seats, int nt)
{
#define SD_CALL(P) sd_shares8_avx2(rcs, lw, bw, shares, status, m, P, nt)
    SD_BY_SEAT_COUNT(SD_CALL)
#undef SD_CALL
}
#endif

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
    int nt;                          /* payouts by non-temporal stores: shares (sd_put_f64), vector chips */
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
            sd_put_f64(sh + s, ls[s] + bs[s], o.nt);
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
        int64_t m = n - i0 < SD_BLOCK ? n - i0 : SD_BLOCK, j = 0, w = 0; /* w: rows whose winners pass 1 found */
        const uint8_t *h = hands + i0 * seats * 5, *lv = live ? live + i0 * seats : NULL;
#ifdef SD_SIMD
        if (level >= BD_ISA_AVX512) {
            j = sd_pass1_vbmi(table, h, lv, seats, idx, m, alive, rcs, lw, bw);
            w = j >= 16 ? j - 16 : 0;
        }
        if (level >= BD_ISA_AVX2 && j + 8 <= m)
            j = sd_pass1_avx2(table, h, lv, seats, idx, j, m, alive, rcs);
#endif
        for (; j < m; j++)
            rcs[j] = sd_hash_row(table, h + j * seats * 5, lv ? lv + j * seats : NULL, seats, idx, j, &alive[j]);
        j = w;
#ifdef SD_SIMD
        if (level >= BD_ISA_AVX512)
            j = sd_winners16(table, idx, alive, j, m, seats, lw, bw);
        if (level >= BD_ISA_AVX2)
            j = sd_winners8(table, idx, alive, j, m, seats, lw, bw);
#endif
        for (; j < m; j++)
            sd_winners_row(table, idx, alive, j, seats, lw, bw);
        unsigned fast = 0; /* steps of 8 rows pass 3 settled in vector code */
#ifdef SD_SIMD
        if (level >= BD_ISA_AVX512 && pot && !cols && !o.low_win && !o.badugi_win)
            fast = sd_pass3_chips_vbmi(rcs, lw, bw, pot + i0, button + i0, odd_low, o.chips + i0 * seats,
                                       status ? status + i0 : NULL, m, seats, o.nt);
        else if (level >= BD_ISA_AVX512 && !pot && o.shares && !cols && !o.low_win && !o.badugi_win)
            fast = sd_pass3_shares_vbmi(rcs, lw, bw, o.shares + i0 * seats, status ? status + i0 : NULL, m, seats, o.nt);
        else if (level >= BD_ISA_AVX2 && pot && !cols && !o.low_win && !o.badugi_win)
            fast = sd_pass3_chips_avx2(rcs, lw, bw, pot + i0, button + i0, odd_low, o.chips + i0 * seats,
                                       status ? status + i0 : NULL, m, seats, o.nt);
        else if (level >= BD_ISA_AVX2 && !pot && o.shares && !cols && !o.low_win && !o.badugi_win)
            fast = sd_pass3_shares_avx2(rcs, lw, bw, o.shares + i0 * seats, status ? status + i0 : NULL, m, seats, o.nt);
#endif
        for (j = 0; j < m; j++) {
            if (fast >> (j >> 3) & 1u) {
                j += 7;
                continue;
            }
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
    /* Misaligned pointers are refused, not loaded (C may not): the Python layer aligns them (showdown.h),
     * and these few compares a call check that it did.  A misaligned `code` cannot even be told why. */
    if ((uintptr_t)code & 3)
        return -2;
    int32_t dummy;
    if (!code)
        code = &dummy;
    *code = BD_SD_OK;
    const uintptr_t misaligned = ((uintptr_t)table & 3) | (((uintptr_t)pot | (uintptr_t)button | (uintptr_t)shares |
                                                            (uintptr_t)chips) & 7);
    if (!table || !hands || n < 0 || (pot && (!button || !chips)) || (!pot && !shares && !low_win && !badugi_win) ||
        seats < 2 || seats > SD_MAX_SEATS || misaligned) {
        *code = BD_SD_BAD_ARGS;
        return -2;
    }
    const sd_out o = {shares, chips, low_win, badugi_win, NULL, NULL, 0,
                      (pot || shares) && n * seats * 8 >= SD_STREAM_BYTES};
    int64_t r = sd_start(table, hands, live, n, seats, pot, button, odd_low, &o, 0, status, code);
#ifdef SD_HAVE_STREAM
    if (o.nt)
        _mm_sfence(); /* the non-temporal stores are visible to everyone before the caller reads them */
#endif
    return r;
}

int64_t bd_showdown_columns(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                            int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                            int64_t *chips, int64_t stride, uint8_t *low_bits, uint8_t *badugi_bits,
                            uint8_t *status, int32_t *code)
{
    if ((uintptr_t)code & 3) /* misaligned pointers refused, not loaded: see bd_showdown_many */
        return -2;
    int32_t dummy;
    if (!code)
        code = &dummy;
    *code = BD_SD_OK;
    const uintptr_t misaligned = ((uintptr_t)table & 3) | (((uintptr_t)pot | (uintptr_t)button | (uintptr_t)chips) & 7);
    if (!table || !hands || n < 0 || !pot || !button || !chips || stride < n || seats < 2 || seats > SD_MAX_SEATS ||
        misaligned) {
        *code = BD_SD_BAD_ARGS;
        return -2;
    }
    const sd_out o = {NULL, chips, NULL, NULL, low_bits, badugi_bits, stride, 0};
    return sd_start(table, hands, live, n, seats, pot, button, odd_low, &o, 1, status, code);
}

/* ---------------------------------------------------------------------------------------------- */
/* The split on its own (see showdown.h)                                                           */

/* A pot's winners are good when some seat won and every winner is a seat. */
static int sd_split_ok(int64_t pot, int64_t button, int32_t seats, uint32_t lw, uint32_t bw)
{
    const uint32_t all = (1u << seats) - 1;
    return pot >= 0 && button >= 0 && button < seats && (lw | bw) != 0 && !((lw | bw) & ~all);
}

int32_t bd_split_pot(int64_t amount, int32_t button, int32_t seats, uint32_t low_winners, uint32_t badugi_winners,
                     int32_t odd_low, int64_t *chips)
{
    if (!chips || ((uintptr_t)chips & 7) || seats < 1 || seats > SD_MAX_SEATS ||
        !sd_split_ok(amount, button, seats, low_winners, badugi_winners))
        return -1;
    sd_chips(amount, button, odd_low, low_winners, badugi_winners, seats, chips, 1);
    return 0;
}

int64_t bd_split_many(const int64_t *pot, const int64_t *button, const uint8_t *low_bits, const uint8_t *badugi_bits,
                      int64_t n, int32_t seats, int32_t odd_low, int64_t *chips, int64_t row_step, int64_t seat_step)
{
    if (!pot || !button || !chips || (((uintptr_t)pot | (uintptr_t)button | (uintptr_t)chips) & 7) || n < 0 ||
        seats < 1 || seats > SD_MAX_SEATS || row_step < 0 || seat_step < 0)
        return -2;
    for (int64_t i = 0; i < n; i++) {
        const uint32_t lw = low_bits ? low_bits[i] : 0u, bw = badugi_bits ? badugi_bits[i] : 0u;
        if (!sd_split_ok(pot[i], button[i], seats, lw, bw))
            return i;
        sd_chips(pot[i], (int32_t)button[i], odd_low, lw, bw, seats, chips + i * row_step, seat_step);
    }
    return -1;
}
