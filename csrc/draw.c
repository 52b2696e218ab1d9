/* draw.c -- exact draw enumeration (see draw.h).  Plain C99, no Python.h, no global mutable state.
 *
 * Speed comes from never sorting or hashing an outcome from scratch.  The table index of a hand is the
 * colex rank of its sorted cards, sum over sorted positions q of C(card_q, q + 1).  With the kept cards
 * fixed and the drawn cards taken in increasing order x_0 < ... < x_{k-1} from the sorted unseen cards,
 * the index is a constant plus one precomputed weight per drawn card, w_j(p) for drawn card j at unseen
 * position p (derivation at draw_weights).  The loops then add one number per level, and the innermost
 * loop walks the LOWEST drawn card, whose colex term changes by small steps: consecutive lookups land
 * close together in the 10 MB table, which keeps it fast without prefetching.
 */
#include "badacey.h"
#include "draw.h"

#define BD_DRAW_MAX_UNSEEN 52

/* Binomial C(n, r) for n = 0..51 and r = 1..5 from badacey.h's table; r outside 1..5 gives 0. */
static int64_t draw_binom(uint32_t n, int r)
{
    return (r >= 1 && r <= 5) ? (int64_t)bd_binom[r - 1][n & 63] : 0;
}

/* Weights so that index = base + sum_j w[j][p_j] for drawn cards at sorted unseen positions p_0 < ... .
 *
 * A drawn card x at depth j sits at sorted position j + bk(x), bk(x) = number of kept cards below x, so it
 * contributes C(x, j + bk(x) + 1).  A kept card y_i (i-th smallest kept) sits at position i + t, t = the
 * number of drawn cards below it, contributing C(y_i, i + t + 1).  Let K_t(p) = sum over kept y_i below
 * unseen[p] of C(y_i, i + t + 1).  Kept cards between x_{j-1} and x_j have t = j, those above x_{k-1}
 * have t = k, so the kept part is sum_j (K_j(p_j) - K_j(p_{j-1})) + K_k(all) - K_k(p_{k-1}); regrouping
 * by p_j gives w[j][p] = C(x, j + bk + 1) + K_j(p) - K_{j+1}(p) and base = K_k(all). */
static int64_t draw_weights(const uint8_t *kept, int m, const uint8_t *u, int n, int k,
                            int32_t w[5][BD_DRAW_MAX_UNSEEN])
{
    for (int j = 0; j < k; j++) {
        for (int p = 0; p < n; p++) {
            int64_t below_j = 0, below_j1 = 0;
            int bk = 0;
            for (int i = 0; i < m; i++) {
                if (kept[i] < u[p]) {
                    below_j += draw_binom(kept[i], i + j + 1);
                    below_j1 += draw_binom(kept[i], i + j + 2);
                    bk++;
                }
            }
            w[j][p] = (int32_t)(draw_binom(u[p], j + bk + 1) + below_j - below_j1);
        }
    }
    int64_t base = 0;
    for (int i = 0; i < m; i++)
        base += draw_binom(kept[i], i + k + 1);
    return base;
}

/* Count one table entry into the histograms; 0 on success, BD_DRAW_BAD_TABLE if a rank does not fit. */
#define DRAW_COUNT(index)                                                        \
    do {                                                                         \
        uint32_t idx_ = (uint32_t)(index);                                       \
        if (idx_ >= BD_HANDS5)                                                   \
            return BD_DRAW_BAD_TABLE;                                            \
        uint32_t e_ = table[idx_], lo_ = e_ & 0xFFFFu, bd_ = e_ >> 16;           \
        if (lo_ == 0 || lo_ >= (uint32_t)low_len || bd_ == 0 || bd_ >= (uint32_t)badugi_len) \
            return BD_DRAW_BAD_TABLE;                                            \
        low_hist[lo_]++;                                                         \
        badugi_hist[bd_]++;                                                      \
    } while (0)

/* The enumeration proper: cards already validated, kept sorted ascending, u sorted ascending. */
static int64_t draw_enumerate(const uint32_t *table, const uint8_t *kept, int m, const uint8_t *u, int n,
                              uint64_t *low_hist, int32_t low_len, uint64_t *badugi_hist, int32_t badugi_len)
{
    int k = 5 - m;
    if (n < k)
        return 0;
    int32_t w[5][BD_DRAW_MAX_UNSEEN];
    int64_t base = draw_weights(kept, m, u, n, k, w);
    int64_t count = 0;
    /* Outer loops take the highest drawn card; the innermost the lowest (see the file comment). */
    switch (k) {
    case 0:
        DRAW_COUNT(base);
        return 1;
    case 1:
        for (int a = 0; a < n; a++)
            DRAW_COUNT(base + w[0][a]);
        return n;
    case 2:
        for (int b = 1; b < n; b++) {
            int64_t sb = base + w[1][b];
            for (int a = 0; a < b; a++)
                DRAW_COUNT(sb + w[0][a]);
            count += b;
        }
        return count;
    case 3:
        for (int c = 2; c < n; c++)
            for (int b = 1; b < c; b++) {
                int64_t sb = base + w[2][c] + w[1][b];
                for (int a = 0; a < b; a++)
                    DRAW_COUNT(sb + w[0][a]);
                count += b;
            }
        return count;
    case 4:
        for (int d = 3; d < n; d++)
            for (int c = 2; c < d; c++)
                for (int b = 1; b < c; b++) {
                    int64_t sb = base + w[3][d] + w[2][c] + w[1][b];
                    for (int a = 0; a < b; a++)
                        DRAW_COUNT(sb + w[0][a]);
                    count += b;
                }
        return count;
    default: /* k == 5: nothing kept */
        for (int e = 4; e < n; e++)
            for (int d = 3; d < e; d++)
                for (int c = 2; c < d; c++)
                    for (int b = 1; b < c; b++) {
                        int64_t sb = base + w[4][e] + w[3][d] + w[2][c] + w[1][b];
                        for (int a = 0; a < b; a++)
                            DRAW_COUNT(sb + w[0][a]);
                        count += b;
                    }
        return count;
    }
}

/* Validate the cards (ids 0..51, no repeats across both lists) and sort each ascending into out_*. */
static int draw_prepare(const uint8_t *kept, int m, const uint8_t *unseen, int n, uint8_t *ks, uint8_t *us)
{
    uint64_t seen = 0;
    int nk = 0, nu = 0;
    for (int i = 0; i < m; i++) {
        if (kept[i] > 51)
            return BD_DRAW_BAD_CARD;
        if (seen >> kept[i] & 1u)
            return BD_DRAW_DUP_CARD;
        seen |= (uint64_t)1 << kept[i];
    }
    uint64_t kept_mask = seen;
    for (int i = 0; i < n; i++) {
        if (unseen[i] > 51)
            return BD_DRAW_BAD_CARD;
        if (seen >> unseen[i] & 1u)
            return BD_DRAW_DUP_CARD;
        seen |= (uint64_t)1 << unseen[i];
    }
    /* Counting sort through the bitmasks: ascending order for free. */
    for (int c = 0; c < 52; c++) {
        if (kept_mask >> c & 1u)
            ks[nk++] = (uint8_t)c;
        else if (seen >> c & 1u)
            us[nu++] = (uint8_t)c;
    }
    return 0;
}

int64_t bd_draw_histograms(const uint32_t *table, const uint8_t *kept, int32_t n_kept, const uint8_t *unseen,
                           int32_t n_unseen, uint64_t *low_hist, int32_t low_len, uint64_t *badugi_hist,
                           int32_t badugi_len)
{
    if (!table || !low_hist || !badugi_hist || n_kept < 0 || n_kept > 5 || n_unseen < 0 ||
        n_unseen > BD_DRAW_MAX_UNSEEN || (n_kept && !kept) || (n_unseen && !unseen) || low_len < 2 ||
        badugi_len < 2)
        return BD_DRAW_BAD_ARGS;
    uint8_t ks[5], us[BD_DRAW_MAX_UNSEEN];
    int rc = draw_prepare(kept, n_kept, unseen, n_unseen, ks, us);
    if (rc)
        return rc;
    return draw_enumerate(table, ks, n_kept, us, n_unseen, low_hist, low_len, badugi_hist, badugi_len);
}

int64_t bd_draw_all_discards(const uint32_t *table, const uint8_t *hand, const uint8_t *unseen,
                             int32_t n_unseen, uint64_t *low_hist, int32_t low_len, uint64_t *badugi_hist,
                             int32_t badugi_len)
{
    if (!table || !hand || !low_hist || !badugi_hist || n_unseen < 0 || n_unseen > BD_DRAW_MAX_UNSEEN ||
        (n_unseen && !unseen) || low_len < 2 || badugi_len < 2)
        return BD_DRAW_BAD_ARGS;
    uint8_t hs[5], us[BD_DRAW_MAX_UNSEEN];
    int rc = draw_prepare(hand, 5, unseen, n_unseen, hs, us);
    if (rc)
        return rc;
    int64_t total = 0;
    for (int mask = 0; mask < 32; mask++) {
        uint8_t ks[5];
        int m = 0;
        for (int i = 0; i < 5; i++)  /* hand[i] -> its sorted copy keeps the mask's meaning */
            if (!(mask >> i & 1))
                ks[m++] = hand[i];
        /* kept must be ascending for the weights: insertion sort of at most five cards. */
        for (int i = 1; i < m; i++)
            for (int j = i; j > 0 && ks[j - 1] > ks[j]; j--) {
                uint8_t t = ks[j];
                ks[j] = ks[j - 1];
                ks[j - 1] = t;
            }
        int64_t got = draw_enumerate(table, ks, m, us, n_unseen, low_hist + (int64_t)mask * low_len, low_len,
                                     badugi_hist + (int64_t)mask * badugi_len, badugi_len);
        if (got < 0)
            return got;
        total += got;
    }
    return total;
}
