/* solve.c -- exact best response, exploitability and CFR over the public tree of a small heads-up draw
 * game, and the suit isomorphism of hands.  See solve.h for the description and its rules. */
#include "solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ helpers */

/* Portable popcount (the builtin is a library call without -mpopcnt, and this one is branch-free). */
static int sv_popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

static int sv_ctz(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int c = 0;
    while (!(x & 1)) {
        x >>= 1;
        c++;
    }
    return c;
#endif
}

/* Binomial coefficients C(n, k) for n, k <= 64 (every one fits in 64 bits: C(64, 32) < 2**61). */
typedef struct sv_binom {
    uint64_t c[65][65];
} sv_binom;

static void sv_binom_fill(sv_binom *b) {
    memset(b, 0, sizeof *b);
    for (int n = 0; n <= 64; n++) {
        b->c[n][0] = 1;
        for (int k = 1; k <= n; k++) b->c[n][k] = b->c[n - 1][k - 1] + b->c[n - 1][k];
    }
}

/* a * b, or -1 when the product leaves [0, limit]. */
static int64_t sv_mul(int64_t a, int64_t b, int64_t limit) {
    if (a < 0 || b < 0) return -1;
    if (a == 0 || b == 0) return 0;
    if (a > limit / b) return -1;
    return a * b;
}

/* Gosper's hack: the next larger integer with the same number of set bits (x != 0).  Over k-subsets of
 * n bits it walks them in increasing numeric order, which is colex order. */
static uint64_t sv_next_subset(uint64_t x) {
    uint64_t c = x & (~x + 1);
    uint64_t r = x + c;
    return (((r ^ x) >> 2) / c) | r;
}

#define SV_LIMIT ((int64_t)1 << 40) /* states of a layer, entries of an array: far beyond memory */
#define SV_INDEX_BUDGET ((int64_t)1 << 26) /* cached subset indices of a call (int32: 256 MB) */

/* ----------------------------------------------------------------------------------------- layers */

int64_t bd_sv_deal_layer(int32_t n_cards, int32_t hand_size, uint64_t *hand, uint64_t *seen, int64_t cap) {
    if (!hand || !seen || n_cards < 2 || n_cards > 52 || hand_size < 1 || hand_size > 5 || hand_size > n_cards)
        return BD_SV_BAD_ARGS;
    sv_binom *b = malloc(sizeof *b);
    if (!b) return BD_SV_NO_MEMORY;
    sv_binom_fill(b);
    int64_t count = (int64_t)b->c[n_cards][hand_size];
    free(b);
    if (count > cap) return BD_SV_TOO_LARGE;
    uint64_t x = ((uint64_t)1 << hand_size) - 1;
    for (int64_t i = 0; i < count; i++) {
        hand[i] = seen[i] = x;
        x = sv_next_subset(x);
    }
    return count;
}

int64_t bd_sv_draw_layer(int32_t n_cards, int32_t hand_size, const uint64_t *parent_hand,
                         const uint64_t *parent_seen, int64_t n_parent, int32_t k, uint64_t *hand, uint64_t *seen,
                         int64_t cap) {
    if (!parent_hand || !parent_seen || !hand || !seen || n_cards < 2 || n_cards > 52 || hand_size < 1 ||
        hand_size > 5 || k < 0 || k > hand_size || n_parent < 0)
        return BD_SV_BAD_ARGS;
    if (n_parent == 0) return 0;
    uint64_t full = ((uint64_t)1 << n_cards) - 1;
    int n_seen = sv_popcount(parent_seen[0]);
    int avail = n_cards - n_seen;
    if (avail < k) return BD_SV_BAD_ARGS;
    sv_binom *b = malloc(sizeof *b);
    if (!b) return BD_SV_NO_MEMORY;
    sv_binom_fill(b);
    int64_t n_masks = (int64_t)b->c[hand_size][k], n_new = (int64_t)b->c[avail][k];
    free(b);
    int64_t per = sv_mul(n_masks, n_new, SV_LIMIT);
    int64_t count = per < 0 ? -1 : sv_mul(n_parent, per, SV_LIMIT);
    if (count < 0 || count > cap) return BD_SV_TOO_LARGE;
    int64_t out = 0;
    for (int64_t p = 0; p < n_parent; p++) {
        uint64_t h = parent_hand[p], s = parent_seen[p];
        /* Every parent alike (the layer's invariant), else the count above would be wrong. */
        if ((s & ~full) || (h & ~s) || sv_popcount(h) != hand_size || sv_popcount(s) != n_seen) return BD_SV_BAD_ARGS;
        int pos[5], av[52];
        int np = 0, na = 0;
        for (int c = 0; c < n_cards; c++) {
            if (h >> c & 1) pos[np++] = c;
            if (!(s >> c & 1)) av[na++] = c;
        }
        for (uint32_t m = 0; m < (1u << hand_size); m++) {
            if (sv_popcount(m) != k) continue;
            uint64_t disc = 0;
            for (int j = 0; j < hand_size; j++)
                if (m >> j & 1) disc |= (uint64_t)1 << pos[j];
            uint64_t kept = h & ~disc;
            uint64_t y = ((uint64_t)1 << k) - 1;
            for (int64_t c = 0; c < n_new; c++) {
                uint64_t add = 0;
                for (uint64_t z = y; z; z &= z - 1) add |= (uint64_t)1 << av[sv_ctz(z)];
                hand[out] = kept | add;
                seen[out] = s | add;
                out++;
                if (k > 0) y = sv_next_subset(y);
            }
        }
    }
    return out;
}

/* ----------------------------------------------------------------------------------------- checks */

static int64_t sv_layer_size(const bd_sv_game *g, int32_t layer) {
    return g->layer_start[layer + 1] - g->layer_start[layer];
}

int32_t bd_sv_check(const bd_sv_game *g) {
    if (!g) return BD_SV_BAD_ARGS;
    if (!g->kind || !g->player || !g->child || !g->n_child || !g->layer || !g->offset || !g->payoff ||
        !g->chance || !g->layer_start || !g->layer_parent || !g->layer_draw || !g->layer_seen || !g->hand ||
        !g->seen || !g->rank || !g->order)
        return BD_SV_BAD_ARGS;
    int32_t n = g->n_nodes, nl = g->n_layers, hs = g->hand_size;
    if (g->n_cards < 2 || g->n_cards > 52 || hs < 1 || hs > 5 || g->n_halves < 1 || g->n_halves > 2 || n < 1 ||
        nl < 1 || g->strategy_size < 0 || g->strategy_size > SV_LIMIT)
        return BD_SV_BAD_GAME;
    sv_binom *b = malloc(sizeof *b);
    int32_t *parents = calloc((size_t)n, sizeof *parents);
    int32_t *depth = calloc((size_t)n, sizeof *depth);
    int32_t rc = BD_SV_OK;
    if (!b || !parents || !depth) {
        rc = BD_SV_NO_MEMORY;
        goto done;
    }
    sv_binom_fill(b);
    /* Layers. */
    if (g->layer_start[0] != 0) goto bad;
    for (int32_t L = 0; L < nl; L++) {
        int64_t size = g->layer_start[L + 1] - g->layer_start[L];
        if (size < 0 || g->layer_start[L + 1] > SV_LIMIT) goto bad;
        int32_t par = g->layer_parent[L], k = g->layer_draw[L], ns = g->layer_seen[L];
        if (ns < hs || ns > BD_SV_MAX_SEEN || ns > g->n_cards) goto bad;
        if (par < 0) {
            if (par != -1 || k != 0 || ns != hs || size != (int64_t)b->c[g->n_cards][hs]) goto bad;
        } else {
            if (par >= L || k < 0 || k > hs || ns != g->layer_seen[par] + k) goto bad;
            int64_t per = sv_mul((int64_t)b->c[hs][k], (int64_t)b->c[g->n_cards - g->layer_seen[par]][k], SV_LIMIT);
            if (per < 0 || sv_mul(sv_layer_size(g, par), per, SV_LIMIT) != size) goto bad;
        }
    }
    int64_t total = g->layer_start[nl];
    uint64_t full = ((uint64_t)1 << g->n_cards) - 1;
    for (int32_t L = 0; L < nl; L++) {
        for (int64_t i = g->layer_start[L]; i < g->layer_start[L + 1]; i++) {
            uint64_t h = g->hand[i], s = g->seen[i];
            if ((s & ~full) || (h & ~s) || sv_popcount(h) != hs || sv_popcount(s) != g->layer_seen[L]) goto bad;
        }
        int64_t size = sv_layer_size(g, L);
        for (int32_t half = 0; half < g->n_halves; half++) {
            const uint32_t *o = g->order + half * total + g->layer_start[L];
            for (int64_t i = 0; i < size; i++)
                if ((int64_t)o[i] >= size) goto bad;
        }
    }
    /* Nodes: a tree (each node but the root the child of exactly one node, children after parents). */
    for (int32_t v = 0; v < n; v++) {
        int32_t kd = g->kind[v], p = g->player[v], c = g->child[v], nc = g->n_child[v];
        int32_t l0 = g->layer[v], l1 = g->layer[n + v];
        if (kd < BD_SV_FOLD || kd > BD_SV_DRAW || p < 0 || p > 1 || l0 < 0 || l0 >= nl || l1 < 0 || l1 >= nl) goto bad;
        if (!(g->chance[v] >= 0.0 && g->chance[v] <= 1.0)) goto bad; /* NaN fails too */
        for (int j = 0; j < 8; j++)
            if (!isfinite(g->payoff[8 * v + j])) goto bad;
        if (v == 0 && (g->layer_parent[l0] != -1 || g->layer_parent[l1] != -1)) goto bad;
        if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
            if (nc != 0) goto bad;
            continue;
        }
        if (depth[v] + 1 >= BD_SV_MAX_DEPTH) goto bad;
        if (c <= v || nc < 1 || nc > n - c) goto bad;
        if (kd == BD_SV_BET && nc > 3) goto bad;
        if (kd == BD_SV_DRAW && nc != hs + 1) goto bad;
        int64_t m = sv_layer_size(g, p ? l1 : l0);
        int64_t cols = kd == BD_SV_BET ? nc : (int64_t)1 << hs;
        int64_t need = sv_mul(m, cols, SV_LIMIT);
        if (g->offset[v] < 0 || need < 0 || g->offset[v] > g->strategy_size - need) goto bad;
        for (int32_t j = 0; j < nc; j++) {
            int32_t ch = c + j;
            parents[ch]++;
            depth[ch] = depth[v] + 1;
            int32_t cl0 = g->layer[ch], cl1 = g->layer[n + ch];
            if (kd == BD_SV_BET) {
                if (cl0 != l0 || cl1 != l1) goto bad;
            } else {
                int32_t mine = p ? cl1 : cl0, other = p ? cl0 : cl1, mine_was = p ? l1 : l0, other_was = p ? l0 : l1;
                if (other != other_was || g->layer_parent[mine] != mine_was || g->layer_draw[mine] != j) goto bad;
            }
        }
    }
    if (parents[0] != 0) goto bad;
    for (int32_t v = 1; v < n; v++)
        if (parents[v] != 1) goto bad;
    goto done;
bad:
    rc = BD_SV_BAD_GAME;
done:
    free(b);
    free(parents);
    free(depth);
    return rc;
}

/* ------------------------------------------------------------------------------------- workspace */

typedef struct sv_ws {
    const bd_sv_game *g;
    sv_binom *binom;
    int64_t total;                    /* states of all layers */
    int32_t mask_rank[32];            /* rank of a discard mask among the masks of its size */
    int64_t off[BD_SV_MAX_SEEN + 2];  /* subsets of up to t cards: table entries off[t] .. off[t + 1] */
    double *tab;                      /* the subset table of a terminal's inclusion-exclusion */
    int64_t tab_size;
    int32_t *idx;                     /* table index of every subset of one state's cards */
    int32_t **lidx;                   /* per layer, every state's subset indices (sv_layer_index) */
    int64_t lidx_used;
    uint32_t *subs;                   /* the subsets of at most tmax of n cards: both seats' lists */
    int32_t max_seen;
    double *lower, *equal, *all, *all_mag; /* a showdown's per-state sums */
    double *reach_me[BD_SV_MAX_DEPTH], *reach_op[BD_SV_MAX_DEPTH], *val[BD_SV_MAX_DEPTH], *act[BD_SV_MAX_DEPTH];
    /* CFR */
    double *regret, *average;
    const double *fixed;             /* a fixed strategy (no updates), or NULL: regret matching */
    int32_t variant;
    double t, alpha, beta, gamma;
    double up, down, weight; /* this iteration's DCFR discounts of positive and negative regrets, weight */
} sv_ws;

static void sv_ws_free(sv_ws *w) {
    free(w->binom);
    free(w->tab);
    free(w->idx);
    if (w->lidx)
        for (int32_t L = 0; L < w->g->n_layers; L++) free(w->lidx[L]);
    free(w->lidx);
    free(w->subs);
    free(w->lower);
    free(w->equal);
    free(w->all);
    free(w->all_mag);
    for (int d = 0; d < BD_SV_MAX_DEPTH; d++) {
        free(w->reach_me[d]);
        free(w->reach_op[d]);
        free(w->val[d]);
        free(w->act[d]);
    }
}

static int64_t sv_max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Sizes each depth's buffers need, by a walk of the tree (node order: parents first). */
static int32_t sv_ws_init(sv_ws *w, const bd_sv_game *g) {
    memset(w, 0, sizeof *w);
    w->g = g;
    int32_t rc = bd_sv_check(g);
    if (rc != BD_SV_OK) return rc;
    int32_t n = g->n_nodes;
    w->total = g->layer_start[g->n_layers];
    w->binom = malloc(sizeof *w->binom);
    int32_t *depth = calloc((size_t)n, sizeof *depth);
    int64_t need_m[BD_SV_MAX_DEPTH] = {0}, need_a[BD_SV_MAX_DEPTH] = {0};
    if (!w->binom || !depth) {
        free(depth);
        return BD_SV_NO_MEMORY;
    }
    sv_binom_fill(w->binom);
    int counts[6] = {0};
    for (uint32_t m = 0; m < (1u << g->hand_size); m++) w->mask_rank[m] = counts[sv_popcount(m)]++;
    int32_t tmax = 0;
    int64_t max_m = 1;
    for (int32_t v = 0; v < n; v++) {
        int32_t l0 = g->layer[v], l1 = g->layer[n + v], d = depth[v];
        int64_t m = sv_max64(sv_layer_size(g, l0), sv_layer_size(g, l1));
        max_m = sv_max64(max_m, m);
        need_m[d] = sv_max64(need_m[d], m);
        int32_t kd = g->kind[v];
        if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
            int32_t t = g->layer_seen[l0] < g->layer_seen[l1] ? g->layer_seen[l0] : g->layer_seen[l1];
            if (t > tmax) tmax = t;
            continue;
        }
        int64_t cols = kd == BD_SV_BET ? g->n_child[v] : (int64_t)1 << g->hand_size;
        int64_t ma = sv_layer_size(g, g->player[v] ? l1 : l0) * cols;
        need_a[d] = sv_max64(need_a[d], ma);
        for (int32_t j = 0; j < g->n_child[v]; j++) depth[g->child[v] + j] = d + 1;
    }
    free(depth);
    /* Subset table: every set of at most tmax positions, indexed by size then colex rank. */
    int64_t off = 0;
    for (int32_t t = 0; t <= tmax + 1 && t <= BD_SV_MAX_SEEN + 1; t++) {
        w->off[t] = off;
        if (t <= tmax) off += (int64_t)w->binom->c[g->n_cards][t];
        if (off > ((int64_t)1 << 28)) return BD_SV_TOO_LARGE;
    }
    w->tab_size = off;
    int32_t max_seen = 0;
    for (int32_t L = 0; L < g->n_layers; L++)
        if (g->layer_seen[L] > max_seen) max_seen = g->layer_seen[L];
    w->tab = malloc((size_t)off * sizeof *w->tab);
    w->idx = malloc(((size_t)1 << max_seen) * sizeof *w->idx);
    w->lidx = calloc((size_t)g->n_layers, sizeof *w->lidx);
    w->max_seen = max_seen;
    w->subs = malloc(((size_t)2 << max_seen) * sizeof *w->subs);
    w->lower = malloc((size_t)max_m * sizeof(double));
    w->equal = malloc((size_t)max_m * sizeof(double));
    w->all = malloc((size_t)max_m * sizeof(double));
    w->all_mag = malloc((size_t)max_m * sizeof(double));
    if (!w->tab || !w->idx || !w->lidx || !w->subs || !w->lower || !w->equal || !w->all || !w->all_mag) return BD_SV_NO_MEMORY;
    for (int d = 0; d < BD_SV_MAX_DEPTH; d++) {
        if (!need_m[d]) continue;
        w->reach_me[d] = malloc((size_t)need_m[d] * sizeof(double));
        w->reach_op[d] = malloc((size_t)need_m[d] * sizeof(double));
        w->val[d] = malloc((size_t)need_m[d] * sizeof(double));
        if (!w->reach_me[d] || !w->reach_op[d] || !w->val[d]) return BD_SV_NO_MEMORY;
        if (need_a[d]) {
            w->act[d] = malloc((size_t)need_a[d] * sizeof(double));
            if (!w->act[d]) return BD_SV_NO_MEMORY;
        }
    }
    return BD_SV_OK;
}

/* ----------------------------------------------------------------------- terminals: card removal */

/* Table indices of every subset of the cards `set`: idx[s] for s < 2**n, s's bit j standing for the j-th
 * lowest card.  A subset T = {p_1 < ... < p_t} sits at off[t] + sum_i C(p_i, i); adding the largest card
 * p_j to a subset s of the lower ones moves it up one size and adds C(p_j, |s| + 1). */
static int sv_subset_index(const sv_ws *w, uint64_t set, int32_t *idx) {
    int pos[64], n = 0;
    for (uint64_t z = set; z; z &= z - 1) pos[n++] = sv_ctz(z);
    idx[0] = 0;
    for (int j = 0; j < n; j++) {
        uint32_t half = 1u << j;
        for (uint32_t s = 0; s < half; s++) {
            int c = sv_popcount(s) + 1;
            idx[s | half] = idx[s] + (int32_t)(w->off[c] - w->off[c - 1]) + (int32_t)w->binom->c[pos[j]][c];
        }
    }
    return n;
}

/* The subset indices of every state of layer L (rows of 2**seen), computed once per call and kept while
 * they fit the budget; NULL when they do not (the caller then computes each state's row as it goes). */
static const int32_t *sv_layer_index(sv_ws *w, int32_t L) {
    if (w->lidx[L]) return w->lidx[L];
    const bd_sv_game *g = w->g;
    int64_t m = sv_layer_size(g, L), width = (int64_t)1 << g->layer_seen[L];
    if (m > (SV_INDEX_BUDGET - w->lidx_used) / width) return NULL;
    int32_t *rows = malloc((size_t)(m * width) * sizeof *rows);
    if (!rows) return NULL;
    const uint64_t *seen = g->seen + g->layer_start[L];
    for (int64_t i = 0; i < m; i++) sv_subset_index(w, seen[i], rows + i * width);
    w->lidx_used += m * width;
    w->lidx[L] = rows;
    return rows;
}

/* The subset indices of state i of a layer: its cached row, or computed into the scratch row. */
static const int32_t *sv_state_index(sv_ws *w, const int32_t *cache, int32_t width_log, int64_t i, uint64_t set) {
    if (cache) return cache + (i << width_log);
    sv_subset_index(w, set, w->idx);
    return w->idx;
}

/* The masks s < 2**n of at most tmax bits: the subsets that can be held by both seats. */
static int64_t sv_small_subsets(int n, int tmax, uint32_t *subs) {
    int64_t k = 0;
    for (uint32_t s = 0; s < (1u << n); s++)
        if (sv_popcount(s) <= tmax) subs[k++] = s;
    return k;
}

static void sv_add(sv_ws *w, const int32_t *idx, double weight, const uint32_t *subs, int64_t ns) {
    for (int64_t i = 0; i < ns; i++) w->tab[idx[subs[i]]] += weight;
}

/* Inclusion-exclusion cancels large terms: a result within a few thousand roundings of zero, relative to
 * the terms it came from, is zero (it is, exactly, whenever no compatible opponent has weight: the usual
 * case this settles).  Both twins then agree that a state nobody reaches is worth 0, not +-1e-19, which
 * regret matching would otherwise read as a sign. */
#define SV_CANCEL 1e-12

static double sv_snap(double x, double scale) { return fabs(x) <= SV_CANCEL * scale ? 0.0 : x; }

/* The weight of the table's sets disjoint from a state's cards (idx: its subsets' table indices):
 * inclusion-exclusion over the subsets; *mag gets the sum of the magnitudes of its terms. */
static double sv_disjoint(sv_ws *w, const int32_t *idx, const uint32_t *subs, int64_t ns, double *mag) {
    double acc = 0.0, m = 0.0;
    for (int64_t i = 0; i < ns; i++) {
        double x = w->tab[idx[subs[i]]];
        acc += (sv_popcount(subs[i]) & 1) ? -x : x;
        m += fabs(x);
    }
    *mag = m;
    return sv_snap(acc, m);
}

/* Values v[0..M) of the states of seat `me` at terminal `node`, the other seat's states weighted by
 * op[] (its reach). */
static void sv_terminal(sv_ws *w, int32_t node, int32_t me, const double *op, double *v) {
    const bd_sv_game *g = w->g;
    int32_t n = g->n_nodes;
    int32_t lm = g->layer[me * n + node], lo = g->layer[(1 - me) * n + node];
    int64_t mm = sv_layer_size(g, lm), mo = sv_layer_size(g, lo);
    int64_t sm = g->layer_start[lm], so = g->layer_start[lo];
    const uint64_t *seen_m = g->seen + sm, *seen_o = g->seen + so;
    int nm = g->layer_seen[lm], no = g->layer_seen[lo];
    int tmax = nm < no ? nm : no;
    double sign = me == 0 ? 1.0 : -1.0;
    const double *pay = g->payoff + 8 * node;
    double chance = g->chance[node];
    int any = 0;
    for (int64_t j = 0; j < mo; j++)
        if (op[j] != 0.0) {
            any = 1;
            break;
        }
    if (!any || chance == 0.0) {
        memset(v, 0, (size_t)mm * sizeof *v);
        return;
    }
    const int32_t *cache_m = sv_layer_index(w, lm), *cache_o = sv_layer_index(w, lo);
#define SV_IDX_M(i) sv_state_index(w, cache_m, nm, (i), seen_m[(i)])
#define SV_IDX_O(j) sv_state_index(w, cache_o, no, (j), seen_o[(j)])
    /* The table holds subsets of at most tmax cards: larger ones are never held by both seats. */
    uint32_t *subs_o = w->subs, *subs_m = w->subs + ((int64_t)1 << w->max_seen);
    int64_t ns_o = sv_small_subsets(no, tmax, subs_o), ns_m = sv_small_subsets(nm, tmax, subs_m);
    double *tab = w->tab;
    int64_t tsize = w->off[tmax + 1];
    memset(tab, 0, (size_t)tsize * sizeof *tab);
    if (g->kind[node] == BD_SV_FOLD) {
        for (int64_t j = 0; j < mo; j++)
            if (op[j] != 0.0) sv_add(w, SV_IDX_O(j), op[j], subs_o, ns_o);
        double u = sign * pay[0] * chance, mag;
        for (int64_t i = 0; i < mm; i++) v[i] = u * sv_disjoint(w, SV_IDX_M(i), subs_m, ns_m, &mag);
        return;
    }
    /* Showdown: per half, a sweep in rank order (lower is better). */
    int32_t halves = g->n_halves;
    double c0 = sign * pay[0];
    for (int64_t i = 0; i < mm; i++) v[i] = 0.0;
    for (int32_t h = 0; h < halves; h++) {
        const uint16_t *rm = g->rank + h * w->total + sm, *ro = g->rank + h * w->total + so;
        const uint32_t *om = g->order + h * w->total + sm, *oo = g->order + h * w->total + so;
        double win = pay[1 + 3 * h], tie = pay[2 + 3 * h], lose = pay[3 + 3 * h];
        if (me == 1) { /* seat 1 wins when seat 0 loses */
            double t = win;
            win = -lose;
            lose = -t;
            tie = -tie;
        }
        if (h > 0) memset(tab, 0, (size_t)tsize * sizeof *tab);
        int64_t jo = 0, i = 0;
        /* First the opponents below each group of my equal ranks, then those equal to it. */
        double *lower = w->lower, *equal = w->equal, mag;
        while (i < mm) {
            uint16_t r = rm[om[i]];
            int64_t e = i;
            while (e < mm && rm[om[e]] == r) e++;
            while (jo < mo && ro[oo[jo]] < r) {
                int64_t j = oo[jo++];
                if (op[j] != 0.0) sv_add(w, SV_IDX_O(j), op[j], subs_o, ns_o);
            }
            for (int64_t q = i; q < e; q++) lower[om[q]] = sv_disjoint(w, SV_IDX_M(om[q]), subs_m, ns_m, &mag);
            while (jo < mo && ro[oo[jo]] == r) {
                int64_t j = oo[jo++];
                if (op[j] != 0.0) sv_add(w, SV_IDX_O(j), op[j], subs_o, ns_o);
            }
            for (int64_t q = i; q < e; q++) {
                double upto = sv_disjoint(w, SV_IDX_M(om[q]), subs_m, ns_m, &mag);
                equal[om[q]] = sv_snap(upto - lower[om[q]], mag);
            }
            i = e;
        }
        while (jo < mo) {
            int64_t j = oo[jo++];
            if (op[j] != 0.0) sv_add(w, SV_IDX_O(j), op[j], subs_o, ns_o);
        }
        if (h == 0)
            for (int64_t q = 0; q < mm; q++) {
                w->all[q] = sv_disjoint(w, SV_IDX_M(q), subs_m, ns_m, &mag);
                w->all_mag[q] = mag;
            }
        for (int64_t q = 0; q < mm; q++) {
            double all = w->all[q], lo_ = lower[q], eq = equal[q];
            /* Opponents better than me (lower rank) win the half; worse ones lose it. */
            v[q] += lose * lo_ + tie * eq + win * sv_snap(all - lo_ - eq, w->all_mag[q]);
        }
    }
    for (int64_t q = 0; q < mm; q++) v[q] = chance * (v[q] + c0 * w->all[q]);
#undef SV_IDX_M
#undef SV_IDX_O
}

/* ------------------------------------------------------------------------------------ traversals */

static int sv_all_zero(const double *x, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (x[i] != 0.0) return 0;
    return 1;
}

/* The shape of a draw from a state of layer `parent` to its child layer of k cards. */
typedef struct sv_draw {
    int64_t block; /* children per parent state */
    int64_t n_new; /* received-card sets per discard mask */
} sv_draw;

static sv_draw sv_draw_shape(const sv_ws *w, int32_t parent_layer, int32_t k) {
    const bd_sv_game *g = w->g;
    sv_draw d;
    d.n_new = (int64_t)w->binom->c[g->n_cards - g->layer_seen[parent_layer]][k];
    d.block = (int64_t)w->binom->c[g->hand_size][k] * d.n_new;
    return d;
}

/* Rows of the decision at `node` (of its actor), from a strategy-shaped array. */
static const double *sv_row(const bd_sv_game *g, const double *arr, int32_t node, int64_t i, int64_t cols) {
    return arr + g->offset[node] + i * cols;
}

/* Set `best` to a pure strategy (the first action) at every decision of `me` below `node`: the parts of a
 * best response the opponent never lets it reach, where any action is a best response. */
static void sv_fill_default(const sv_ws *w, int32_t node, int32_t me, double *best) {
    const bd_sv_game *g = w->g;
    int32_t kd = g->kind[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) return;
    if (g->player[node] == me) {
        int64_t cols = kd == BD_SV_BET ? g->n_child[node] : (int64_t)1 << g->hand_size;
        int64_t m = sv_layer_size(g, g->layer[me * g->n_nodes + node]);
        double *row = best + g->offset[node];
        for (int64_t i = 0; i < m; i++)
            for (int64_t a = 0; a < cols; a++) row[i * cols + a] = a == 0 ? 1.0 : 0.0;
    }
    for (int32_t j = 0; j < g->n_child[node]; j++) sv_fill_default(w, g->child[node] + j, me, best);
}

/* Best-response values v[] of `me`'s states at `node`, the opponent reaching its states with op[]. */
static void sv_br(sv_ws *w, int32_t node, int32_t d, int32_t me, const double *op, double *v, const double *strat,
                  double *best) {
    const bd_sv_game *g = w->g;
    int32_t n = g->n_nodes, kd = g->kind[node], actor = g->player[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
        sv_terminal(w, node, me, op, v);
        return;
    }
    int32_t lm = g->layer[me * n + node], lo = g->layer[(1 - me) * n + node];
    int64_t mm = sv_layer_size(g, lm), mo = sv_layer_size(g, lo);
    int32_t nc = g->n_child[node], c0 = g->child[node], hs = g->hand_size;
    double *cv = w->val[d + 1];
    if (kd == BD_SV_BET && actor != me) {
        double *rc = w->reach_op[d + 1];
        memset(v, 0, (size_t)mm * sizeof *v);
        for (int32_t a = 0; a < nc; a++) {
            for (int64_t j = 0; j < mo; j++) rc[j] = op[j] * sv_row(g, strat, node, j, nc)[a];
            if (sv_all_zero(rc, mo)) {
                if (best) sv_fill_default(w, c0 + a, me, best);
                continue;
            }
            sv_br(w, c0 + a, d + 1, me, rc, cv, strat, best);
            for (int64_t i = 0; i < mm; i++) v[i] += cv[i];
        }
        return;
    }
    if (kd == BD_SV_BET) { /* my decision: the best action per state */
        double *act = w->act[d];
        for (int32_t a = 0; a < nc; a++) {
            sv_br(w, c0 + a, d + 1, me, op, cv, strat, best);
            for (int64_t i = 0; i < mm; i++) act[i * nc + a] = cv[i];
        }
        for (int64_t i = 0; i < mm; i++) {
            int32_t arg = 0;
            for (int32_t a = 1; a < nc; a++)
                if (act[i * nc + a] > act[i * nc + arg]) arg = a;
            v[i] = act[i * nc + arg];
            if (best) {
                double *row = best + g->offset[node] + i * nc;
                for (int32_t a = 0; a < nc; a++) row[a] = a == arg ? 1.0 : 0.0;
            }
        }
        return;
    }
    int64_t cols = (int64_t)1 << hs;
    if (actor != me) { /* the opponent draws: its reach spreads over its child layer */
        double *rc = w->reach_op[d + 1];
        memset(v, 0, (size_t)mm * sizeof *v);
        for (int32_t k = 0; k <= hs; k++) {
            sv_draw s = sv_draw_shape(w, lo, k);
            int64_t mc = mo * s.block;
            for (int64_t j = 0; j < mo; j++) {
                const double *row = sv_row(g, strat, node, j, cols);
                for (uint32_t m = 0; m < cols; m++) {
                    if (sv_popcount(m) != k) continue;
                    double r = op[j] * row[m];
                    double *dst = rc + j * s.block + w->mask_rank[m] * s.n_new;
                    for (int64_t c = 0; c < s.n_new; c++) dst[c] = r;
                }
            }
            if (sv_all_zero(rc, mc)) {
                if (best) sv_fill_default(w, c0 + k, me, best);
                continue;
            }
            sv_br(w, c0 + k, d + 1, me, rc, cv, strat, best);
            for (int64_t i = 0; i < mm; i++) v[i] += cv[i];
        }
        return;
    }
    /* I draw: the value of each discard mask sums its children; the best mask per state. */
    double *act = w->act[d];
    for (int32_t k = 0; k <= hs; k++) {
        sv_draw s = sv_draw_shape(w, lm, k);
        sv_br(w, c0 + k, d + 1, me, op, cv, strat, best);
        for (int64_t i = 0; i < mm; i++)
            for (uint32_t m = 0; m < cols; m++) {
                if (sv_popcount(m) != k) continue;
                const double *src = cv + i * s.block + w->mask_rank[m] * s.n_new;
                double sum = 0.0;
                for (int64_t c = 0; c < s.n_new; c++) sum += src[c];
                act[i * cols + m] = sum;
            }
    }
    for (int64_t i = 0; i < mm; i++) {
        int64_t arg = 0;
        for (int64_t m = 1; m < cols; m++)
            if (act[i * cols + m] > act[i * cols + arg]) arg = m;
        v[i] = act[i * cols + arg];
        if (best) {
            double *row = best + g->offset[node] + i * cols;
            for (int64_t m = 0; m < cols; m++) row[m] = m == arg ? 1.0 : 0.0;
        }
    }
}

int32_t bd_sv_best_response(const bd_sv_game *g, const double *strategy, int32_t seat, double *value,
                            double *best) {
    if (!g || !strategy || !value || seat < 0 || seat > 1) return BD_SV_BAD_ARGS;
    sv_ws w;
    int32_t rc = sv_ws_init(&w, g);
    if (rc == BD_SV_OK) {
        int32_t lo = g->layer[(1 - seat) * g->n_nodes];
        int64_t mo = sv_layer_size(g, lo), mm = sv_layer_size(g, g->layer[seat * g->n_nodes]);
        double *op = w.reach_op[0];
        for (int64_t j = 0; j < mo; j++) op[j] = 1.0;
        sv_br(&w, 0, 0, seat, op, w.val[0], strategy, best);
        double sum = 0.0;
        for (int64_t i = 0; i < mm; i++) sum += w.val[0][i];
        *value = sum;
    }
    sv_ws_free(&w);
    return rc;
}

/* Regret matching of one row: the strategy proportional to the positive regrets (uniform if none). */
static void sv_match(const double *r, int64_t cols, double *out) {
    double sum = 0.0;
    for (int64_t a = 0; a < cols; a++) sum += r[a] > 0.0 ? r[a] : 0.0;
    if (sum > 0.0) {
        for (int64_t a = 0; a < cols; a++) out[a] = r[a] > 0.0 ? r[a] / sum : 0.0;
    } else {
        for (int64_t a = 0; a < cols; a++) out[a] = 1.0 / (double)cols;
    }
}

/* The strategy row of `node`'s actor at state i: fixed, or regret matching. */
static void sv_sigma(const sv_ws *w, int32_t node, int64_t i, int64_t cols, double *out) {
    if (w->fixed) {
        memcpy(out, sv_row(w->g, w->fixed, node, i, cols), (size_t)cols * sizeof *out);
    } else {
        sv_match(sv_row(w->g, w->regret, node, i, cols), cols, out);
    }
}

/* Update the regrets and the average of `me`'s row i at `node`: act[] holds the actions' values.  An
 * action's regret within rounding of zero (relative to the row's values) is zero: actions of equal value
 * computed along different sums differ by a few ulps, and regret matching must not read that as a sign
 * (the numpy twin applies the same rule). */
static void sv_update(sv_ws *w, int32_t node, int64_t i, int64_t cols, const double *sigma, const double *act,
                      double value, double reach) {
    double *r = w->regret + w->g->offset[node] + i * cols;
    double *avg = w->average + w->g->offset[node] + i * cols;
    double t = w->t, scale = fabs(value);
    for (int64_t a = 0; a < cols; a++)
        if (fabs(act[a]) > scale) scale = fabs(act[a]);
    for (int64_t a = 0; a < cols; a++) {
        double inst = sv_snap(act[a] - value, scale);
        switch (w->variant) {
        case BD_SV_CFR_PLUS: {
            double x = r[a] + inst;
            r[a] = x > 0.0 ? x : 0.0;
            avg[a] += t * reach * sigma[a];
            break;
        }
        case BD_SV_DCFR: {
            double x = r[a] + inst;
            r[a] = x * (x > 0.0 ? w->up : w->down);
            avg[a] += w->weight * reach * sigma[a];
            break;
        }
        default:
            r[a] += inst;
            avg[a] += reach * sigma[a];
        }
    }
}

/* A subtree the opponent never reaches this iteration: its counterfactual values are all 0, but `me`'s
 * decisions in it still play (its reach is its own): their rows take this iteration's average
 * contribution and regret discount (DCFR) with zero regrets, exactly as a full visit would give them.
 * Skipping them instead biases the average towards the iterations that did reach them. */
static void sv_cfr_skip(sv_ws *w, int32_t node, int32_t d, int32_t me, const double *mr) {
    const bd_sv_game *g = w->g;
    int32_t n = g->n_nodes, kd = g->kind[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) return;
    int32_t nc = g->n_child[node], c0 = g->child[node], hs = g->hand_size;
    if (g->player[node] != me) {
        for (int32_t a = 0; a < nc; a++) sv_cfr_skip(w, c0 + a, d + 1, me, mr);
        return;
    }
    int32_t lm = g->layer[me * n + node];
    int64_t mm = sv_layer_size(g, lm);
    int64_t cols = kd == BD_SV_BET ? nc : (int64_t)1 << hs;
    double sigma[32], zero[32] = {0};
    double *rc = w->reach_me[d + 1];
    for (int32_t a = 0; a < nc; a++) {
        if (kd == BD_SV_BET) {
            for (int64_t i = 0; i < mm; i++) {
                sv_sigma(w, node, i, cols, sigma);
                rc[i] = mr[i] * sigma[a];
            }
        } else {
            sv_draw s = sv_draw_shape(w, lm, a);
            for (int64_t i = 0; i < mm; i++) {
                sv_sigma(w, node, i, cols, sigma);
                for (uint32_t m = 0; m < cols; m++) {
                    if (sv_popcount(m) != a) continue;
                    double r = mr[i] * sigma[m];
                    double *dst = rc + i * s.block + w->mask_rank[m] * s.n_new;
                    for (int64_t c = 0; c < s.n_new; c++) dst[c] = r;
                }
            }
        }
        sv_cfr_skip(w, c0 + a, d + 1, me, rc);
    }
    for (int64_t i = 0; i < mm; i++) {
        sv_sigma(w, node, i, cols, sigma);
        sv_update(w, node, i, cols, sigma, zero, 0.0, mr[i]);
    }
}

/* Counterfactual values v[] of `me`'s states at `node` under the current (or fixed) strategy, me reaching
 * its states with mr[], the opponent with op[]; regrets and averages of `me` updated unless fixed. */
static void sv_cfr_node(sv_ws *w, int32_t node, int32_t d, int32_t me, const double *mr, const double *op,
                        double *v) {
    const bd_sv_game *g = w->g;
    int32_t n = g->n_nodes, kd = g->kind[node], actor = g->player[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
        sv_terminal(w, node, me, op, v);
        return;
    }
    int32_t lm = g->layer[me * n + node], lo = g->layer[(1 - me) * n + node];
    int64_t mm = sv_layer_size(g, lm), mo = sv_layer_size(g, lo);
    int32_t nc = g->n_child[node], c0 = g->child[node], hs = g->hand_size;
    int64_t cols = kd == BD_SV_BET ? nc : (int64_t)1 << hs;
    double *cv = w->val[d + 1];
    double sigma[32];
    if (actor != me) {
        double *rc = w->reach_op[d + 1];
        memset(v, 0, (size_t)mm * sizeof *v);
        for (int32_t a = 0; a < nc; a++) {
            int64_t mc = mo;
            if (kd == BD_SV_BET) {
                for (int64_t j = 0; j < mo; j++) {
                    sv_sigma(w, node, j, cols, sigma);
                    rc[j] = op[j] * sigma[a];
                }
            } else {
                sv_draw s = sv_draw_shape(w, lo, a);
                mc = mo * s.block;
                for (int64_t j = 0; j < mo; j++) {
                    sv_sigma(w, node, j, cols, sigma);
                    for (uint32_t m = 0; m < cols; m++) {
                        if (sv_popcount(m) != a) continue;
                        double r = op[j] * sigma[m];
                        double *dst = rc + j * s.block + w->mask_rank[m] * s.n_new;
                        for (int64_t c = 0; c < s.n_new; c++) dst[c] = r;
                    }
                }
            }
            if (sv_all_zero(rc, mc)) {
                if (!w->fixed) sv_cfr_skip(w, c0 + a, d + 1, me, mr);
                continue;
            }
            sv_cfr_node(w, c0 + a, d + 1, me, mr, rc, cv);
            for (int64_t i = 0; i < mm; i++) v[i] += cv[i];
        }
        return;
    }
    double *act = w->act[d];
    double *rc = w->reach_me[d + 1];
    for (int32_t a = 0; a < nc; a++) {
        if (kd == BD_SV_BET) {
            for (int64_t i = 0; i < mm; i++) {
                sv_sigma(w, node, i, cols, sigma);
                rc[i] = mr[i] * sigma[a];
            }
            sv_cfr_node(w, c0 + a, d + 1, me, rc, op, cv);
            for (int64_t i = 0; i < mm; i++) act[i * cols + a] = cv[i];
        } else {
            sv_draw s = sv_draw_shape(w, lm, a);
            for (int64_t i = 0; i < mm; i++) {
                sv_sigma(w, node, i, cols, sigma);
                for (uint32_t m = 0; m < cols; m++) {
                    if (sv_popcount(m) != a) continue;
                    double r = mr[i] * sigma[m];
                    double *dst = rc + i * s.block + w->mask_rank[m] * s.n_new;
                    for (int64_t c = 0; c < s.n_new; c++) dst[c] = r;
                }
            }
            sv_cfr_node(w, c0 + a, d + 1, me, rc, op, cv);
            for (int64_t i = 0; i < mm; i++)
                for (uint32_t m = 0; m < cols; m++) {
                    if (sv_popcount(m) != a) continue;
                    const double *src = cv + i * s.block + w->mask_rank[m] * s.n_new;
                    double sum = 0.0;
                    for (int64_t c = 0; c < s.n_new; c++) sum += src[c];
                    act[i * cols + m] = sum;
                }
        }
    }
    for (int64_t i = 0; i < mm; i++) {
        sv_sigma(w, node, i, cols, sigma);
        double value = 0.0;
        for (int64_t a = 0; a < cols; a++) value += sigma[a] * act[i * cols + a];
        v[i] = value;
        if (!w->fixed) sv_update(w, node, i, cols, sigma, act + i * cols, value, mr[i]);
    }
}

static double sv_root(sv_ws *w, int32_t me) {
    const bd_sv_game *g = w->g;
    int64_t mm = sv_layer_size(g, g->layer[me * g->n_nodes]), mo = sv_layer_size(g, g->layer[(1 - me) * g->n_nodes]);
    double *mr = w->reach_me[0], *op = w->reach_op[0];
    /* reach_me[0] and reach_op[0] are sized for the larger root layer (both are the deal layer). */
    for (int64_t i = 0; i < mm; i++) mr[i] = 1.0;
    for (int64_t j = 0; j < mo; j++) op[j] = 1.0;
    sv_cfr_node(w, 0, 0, me, mr, op, w->val[0]);
    double sum = 0.0;
    for (int64_t i = 0; i < mm; i++) sum += w->val[0][i];
    return sum;
}

int32_t bd_sv_profile_value(const bd_sv_game *g, const double *strategy, double *value) {
    if (!g || !strategy || !value) return BD_SV_BAD_ARGS;
    sv_ws w;
    int32_t rc = sv_ws_init(&w, g);
    if (rc == BD_SV_OK) {
        w.fixed = strategy;
        *value = sv_root(&w, 0);
    }
    sv_ws_free(&w);
    return rc;
}

int32_t bd_sv_cfr(const bd_sv_game *g, double *regret, double *average, int64_t first_iteration,
                  int64_t iterations, int32_t variant, double alpha, double beta, double gamma) {
    if (!g || !regret || !average || first_iteration < 1 || iterations < 0 || variant < BD_SV_CFR ||
        variant > BD_SV_DCFR || !isfinite(alpha) || !isfinite(beta) || !isfinite(gamma))
        return BD_SV_BAD_ARGS;
    sv_ws w;
    int32_t rc = sv_ws_init(&w, g);
    if (rc == BD_SV_OK) {
        w.regret = regret;
        w.average = average;
        w.variant = variant;
        w.alpha = alpha;
        w.beta = beta;
        w.gamma = gamma;
        for (int64_t it = 0; it < iterations; it++) {
            w.t = (double)(first_iteration + it);
            double pa = pow(w.t, alpha), pb = pow(w.t, beta);
            w.up = pa / (pa + 1.0);
            w.down = pb / (pb + 1.0);
            w.weight = pow(w.t, gamma);
            sv_root(&w, 0);
            sv_root(&w, 1);
        }
    }
    sv_ws_free(&w);
    return rc;
}

/* --------------------------------------------------------------------------------- isomorphism */

/* Rename the suits of n_stages rows of `size` cards (ids, checked) so that each suit's key -- its rank
 * masks at every stage, the first stage most significant -- decreases with the suit. */
int32_t bd_iso_canonical(const uint8_t *cards, int32_t size, int32_t n_stages, uint8_t *out) {
    if (!cards || !out || size < 1 || size > 5 || n_stages < 1 || n_stages > 4) return BD_SV_BAD_ARGS;
    uint64_t key[4] = {0, 0, 0, 0};
    for (int32_t st = 0; st < n_stages; st++) {
        uint64_t row = 0;
        for (int32_t j = 0; j < size; j++) {
            uint8_t c = cards[st * size + j];
            if (c > 51 || (row >> c & 1)) return BD_SV_BAD_ARGS;
            row |= (uint64_t)1 << c;
            key[c & 3] |= (uint64_t)1 << (13 * (n_stages - 1 - st) + (c >> 2));
        }
    }
    int perm[4] = {0, 1, 2, 3}; /* perm[t] = the old suit that becomes suit t */
    for (int a = 1; a < 4; a++)
        for (int b = a; b > 0 && key[perm[b]] > key[perm[b - 1]]; b--) {
            int x = perm[b];
            perm[b] = perm[b - 1];
            perm[b - 1] = x;
        }
    int to[4];
    for (int t = 0; t < 4; t++) to[perm[t]] = t;
    for (int32_t st = 0; st < n_stages; st++) {
        uint64_t row = 0;
        for (int32_t j = 0; j < size; j++) {
            uint8_t c = cards[st * size + j];
            row |= (uint64_t)1 << ((c & ~3) | to[c & 3]);
        }
        for (int32_t j = 0; j < size; j++) {
            int b = sv_ctz(row);
            out[st * size + j] = (uint8_t)b;
            row &= row - 1;
        }
    }
    return BD_SV_OK;
}

/* The canonical form of a hand given as 52 bits. */
static uint64_t sv_canon_bits(uint64_t x) {
    uint64_t mask[4] = {0, 0, 0, 0};
    for (uint64_t z = x; z; z &= z - 1) {
        int c = sv_ctz(z);
        mask[c & 3] |= (uint64_t)1 << (c >> 2);
    }
    for (int a = 1; a < 4; a++)
        for (int b = a; b > 0 && mask[b] > mask[b - 1]; b--) {
            uint64_t t = mask[b];
            mask[b] = mask[b - 1];
            mask[b - 1] = t;
        }
    uint64_t out = 0;
    for (int s = 0; s < 4; s++)
        for (uint64_t z = mask[s]; z; z &= z - 1) out |= (uint64_t)1 << (4 * sv_ctz(z) + s);
    return out;
}

static int64_t sv_colex(const sv_binom *b, uint64_t x) {
    int64_t idx = 0;
    int i = 1;
    for (uint64_t z = x; z; z &= z - 1) idx += (int64_t)b->c[sv_ctz(z)][i++];
    return idx;
}

int64_t bd_iso_hand_table(int32_t size, uint32_t *class_of, int64_t n_class_of, uint32_t *first, int64_t cap) {
    if (!class_of || !first || size < 1 || size > 5 || cap < 0) return BD_SV_BAD_ARGS;
    sv_binom *b = malloc(sizeof *b);
    if (!b) return BD_SV_NO_MEMORY;
    sv_binom_fill(b);
    int64_t count = (int64_t)b->c[52][size];
    if (n_class_of != count) {
        free(b);
        return BD_SV_BAD_ARGS;
    }
    int64_t classes = 0;
    uint64_t x = ((uint64_t)1 << size) - 1;
    for (int64_t i = 0; i < count; i++, x = sv_next_subset(x)) {
        if (sv_canon_bits(x) == x) {
            if (classes >= cap || classes > UINT32_MAX - 1) {
                free(b);
                return BD_SV_TOO_LARGE;
            }
            first[classes] = (uint32_t)i;
            class_of[i] = (uint32_t)classes++;
        } else {
            class_of[i] = UINT32_MAX;
        }
    }
    x = ((uint64_t)1 << size) - 1;
    for (int64_t i = 0; i < count; i++, x = sv_next_subset(x))
        if (class_of[i] == UINT32_MAX) class_of[i] = class_of[sv_colex(b, sv_canon_bits(x))];
    free(b);
    return classes;
}

/* =================================================================================================
 * The compact exact path (solve.h: bd_cs_*).  A card set is position bits; per suit j its RANK MASK
 * (bit i = rank i).  A state (hand, dead) has per suit the key (hand mask << R) | dead mask; its canonical
 * form orders the suits by key, largest first, and its 64-bit key concatenates them (suit 0 highest).
 * A card set alone has per suit its rank mask (R bits each, concatenated the same way).
 * ================================================================================================= */

#define CS_MAX_SUITS 4
#define CS_BLOCK 8 /* columns summed together up the lattice (a showdown row is padded to a multiple) */
#define CS_MAX_SETS ((int64_t)1 << 24) /* canonical card sets over all sizes */
#define CS_MAX_STATES ((int64_t)1 << 27) /* canonical states of one space (about 5 GB of tables) */
#define CS_MAX_RANKS 8 /* a state's suit key has 2 * ranks bits: 2**16 candidates per suit at most */

typedef struct cs_level {
    int64_t n;
    uint64_t *key;  /* sorted */
    uint64_t *bits;
    int32_t *down;  /* [n * size]: index at the level below of the set without its c-th lowest card */
} cs_level;

typedef struct cs_space {
    int64_t n;      /* 0: not built */
    uint64_t *key, *hand, *dead;
    double *orbit;
    int32_t *comp;  /* index of the complement of hand|dead at level n_cards - hand_size - d */
    uint16_t *cls;  /* [n_halves * n] */
    int32_t *gather; /* [level(h + d).n * n_sub]: the state (H, S \\ H) of each h-subset H of each set S */
    int64_t n_sub;
    int32_t *next[6]; /* per draw of k cards (when built): children [n][C(h, k)][C(unseen, k)] */
} cs_space;

struct bd_cs {
    int32_t R, S, n, h, halves, n_nodes, max_d;
    int32_t *kind, *player, *child, *n_child, *thrown;
    double *payoff, *chance;
    int32_t ncls[2];
    uint16_t *hand_class;
    int64_t *offset;
    int64_t strategy_size;
    sv_binom binom;
    cs_level level[33];
    cs_space space[BD_SV_MAX_SEEN + 1];
    int32_t mask_rank[32];
};

static uint64_t cs_suit_mask(const bd_cs *c, uint64_t bits, int32_t j) {
    uint64_t m = 0;
    for (int32_t i = 0; i < c->R; i++) m |= ((bits >> (i * c->S + j)) & 1u) << i;
    return m;
}

static uint64_t cs_from_mask(const bd_cs *c, uint64_t m, int32_t j) {
    uint64_t bits = 0;
    for (int32_t i = 0; i < c->R; i++)
        if (m >> i & 1) bits |= (uint64_t)1 << (i * c->S + j);
    return bits;
}

/* Canonical key of a state (two sets) or of a set (dead = 0 and width R): suits sorted by key, largest
 * first.  order[r] = the input suit that becomes canonical suit r. */
static uint64_t cs_canon(const bd_cs *c, uint64_t hand, uint64_t dead, int32_t pair, int32_t *order) {
    uint64_t key[CS_MAX_SUITS];
    int32_t idx[CS_MAX_SUITS];
    int32_t width = pair ? 2 * c->R : c->R;
    for (int32_t j = 0; j < c->S; j++) {
        key[j] = pair ? (cs_suit_mask(c, hand, j) << c->R) | cs_suit_mask(c, dead, j) : cs_suit_mask(c, hand, j);
        idx[j] = j;
    }
    for (int32_t a = 1; a < c->S; a++) /* insertion sort, descending; ties keep the input order */
        for (int32_t b = a; b > 0 && key[idx[b]] > key[idx[b - 1]]; b--) {
            int32_t t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    uint64_t out = 0;
    for (int32_t r = 0; r < c->S; r++) {
        out = (out << width) | key[idx[r]];
        if (order) order[r] = idx[r];
    }
    return out;
}

static int64_t cs_find(const uint64_t *keys, int64_t n, uint64_t key) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && keys[lo] == key ? lo : -1;
}

/* The size of a canonical object's suit class: S! over the factorials of its runs of equal suit keys. */
static double cs_orbit(const bd_cs *c, uint64_t key, int32_t width) {
    uint64_t part[CS_MAX_SUITS], mask = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
    for (int32_t r = c->S - 1; r >= 0; r--) {
        part[r] = key & mask;
        key = width >= 64 ? 0 : key >> width;
    }
    double orbit = 1.0;
    for (int32_t r = 2; r <= c->S; r++) orbit *= r;
    int32_t run = 1;
    for (int32_t r = 1; r <= c->S; r++) {
        if (r < c->S && part[r] == part[r - 1]) {
            run++;
            orbit /= run;
        } else {
            run = 1;
        }
    }
    return orbit;
}

/* Every canonical key (suit keys non-increasing) whose suits hold `need[0]` cards of the first kind and
 * need[1] of the second over all suits: recursion over the suits.  `cand` lists every suit key (with
 * its two popcounts) in decreasing order.  Writes up to `cap` keys (counts them all). */
typedef struct cs_enum {
    const uint64_t *cand;
    const int8_t *pc0, *pc1;
    int64_t n_cand;
    int32_t S, width;
    uint64_t *out;
    int64_t count, cap;
} cs_enum;

static void cs_enum_rec(cs_enum *e, int32_t j, int64_t from, int32_t left0, int32_t left1, uint64_t acc) {
    if (j == e->S) {
        if (left0 == 0 && left1 == 0) {
            if (e->out && e->count < e->cap) e->out[e->count] = acc;
            e->count++;
        }
        return;
    }
    for (int64_t t = from; t < e->n_cand; t++) {
        if (e->pc0[t] > left0 || e->pc1[t] > left1) continue;
        /* The suits after this one hold at most as much each (their keys are no larger), so a key too
           small to leave the rest placeable still gets tried: the counts prune it at the last suit. */
        cs_enum_rec(e, j + 1, t, left0 - e->pc0[t], left1 - e->pc1[t], (acc << e->width) | e->cand[t]);
    }
}

/* Sorted canonical keys into *keys (allocated). */
static int32_t cs_enumerate(const bd_cs *c, int32_t pair, int32_t need0, int32_t need1, uint64_t **keys,
                            int64_t *n, int64_t limit) {
    int32_t R = c->R;
    int64_t total = pair ? 1 : 0;
    int64_t n_cand = 0;
    int64_t space = (int64_t)1 << (pair ? 2 * R : R);
    uint64_t *cand = malloc((size_t)space * sizeof *cand);
    int8_t *pc0 = malloc((size_t)space), *pc1 = malloc((size_t)space);
    if (!cand || !pc0 || !pc1) {
        free(cand);
        free(pc0);
        free(pc1);
        return BD_SV_NO_MEMORY;
    }
    (void)total;
    for (int64_t k = space - 1; k >= 0; k--) {
        uint64_t a = pair ? (uint64_t)k >> R : (uint64_t)k, b = pair ? (uint64_t)k & (((uint64_t)1 << R) - 1) : 0;
        if (a & b) continue;
        cand[n_cand] = (uint64_t)k;
        pc0[n_cand] = (int8_t)sv_popcount(a);
        pc1[n_cand] = (int8_t)sv_popcount(b);
        n_cand++;
    }
    cs_enum e = {cand, pc0, pc1, n_cand, c->S, pair ? 2 * R : R, NULL, 0, 0};
    cs_enum_rec(&e, 0, 0, need0, need1, 0);
    int32_t rc = BD_SV_OK;
    if (e.count > limit) {
        rc = BD_SV_TOO_LARGE;
    } else {
        e.out = malloc((size_t)(e.count ? e.count : 1) * sizeof *e.out);
        e.cap = e.count;
        int64_t want = e.count;
        e.count = 0;
        if (!e.out) {
            rc = BD_SV_NO_MEMORY;
        } else {
            cs_enum_rec(&e, 0, 0, need0, need1, 0);
            /* Generated in decreasing order: reverse to increasing for the binary searches. */
            for (int64_t a = 0, b = want - 1; a < b; a++, b--) {
                uint64_t t = e.out[a];
                e.out[a] = e.out[b];
                e.out[b] = t;
            }
            *keys = e.out;
            *n = want;
        }
    }
    free(cand);
    free(pc0);
    free(pc1);
    return rc;
}

/* The bits of a canonical key's state (or set). */
static void cs_unkey(const bd_cs *c, uint64_t key, int32_t pair, uint64_t *hand, uint64_t *dead) {
    int32_t R = c->R, width = pair ? 2 * R : R;
    uint64_t mask = ((uint64_t)1 << width) - 1, rmask = ((uint64_t)1 << R) - 1;
    uint64_t h = 0, d = 0;
    for (int32_t r = c->S - 1; r >= 0; r--) {
        uint64_t part = key & mask;
        key >>= width;
        if (pair) {
            h |= cs_from_mask(c, part >> R, r);
            d |= cs_from_mask(c, part & rmask, r);
        } else {
            h |= cs_from_mask(c, part, r);
        }
    }
    *hand = h;
    if (dead) *dead = d;
}

static int32_t cs_build_level(bd_cs *c, int32_t a) {
    cs_level *L = &c->level[a];
    if (L->key) return BD_SV_OK;
    int32_t rc = cs_enumerate(c, 0, a, 0, &L->key, &L->n, CS_MAX_SETS);
    if (rc != BD_SV_OK) return rc;
    L->bits = malloc((size_t)(L->n ? L->n : 1) * sizeof *L->bits);
    if (!L->bits) return BD_SV_NO_MEMORY;
    for (int64_t i = 0; i < L->n; i++) cs_unkey(c, L->key[i], 0, &L->bits[i], NULL);
    if (a == 0) return BD_SV_OK;
    rc = cs_build_level(c, a - 1);
    if (rc != BD_SV_OK) return rc;
    const cs_level *B = &c->level[a - 1];
    L->down = malloc((size_t)(L->n * a) * sizeof *L->down);
    if (!L->down) return BD_SV_NO_MEMORY;
    for (int64_t i = 0; i < L->n; i++) {
        int32_t t = 0;
        for (uint64_t z = L->bits[i]; z; z &= z - 1, t++) {
            uint64_t rest = L->bits[i] & ~(z & (~z + 1));
            int64_t j = cs_find(B->key, B->n, cs_canon(c, rest, 0, 0, NULL));
            if (j < 0) return BD_SV_BAD_GAME;
            L->down[i * a + t] = (int32_t)j;
        }
    }
    return BD_SV_OK;
}

static int64_t cs_colex(const bd_cs *c, uint64_t x) {
    int64_t idx = 0;
    int32_t i = 1;
    for (; x; x &= x - 1, i++) idx += (int64_t)c->binom.c[sv_ctz(x)][i];
    return idx;
}

static int32_t cs_build_space(bd_cs *c, int32_t d) {
    cs_space *P = &c->space[d];
    if (P->key) return BD_SV_OK;
    int32_t h = c->h, n = c->n;
    if (h + d > n) return BD_SV_BAD_GAME;
    int32_t rc = cs_enumerate(c, 1, h, d, &P->key, &P->n, CS_MAX_STATES);
    if (rc != BD_SV_OK) return rc;
    int64_t m = P->n ? P->n : 1;
    P->hand = malloc((size_t)m * sizeof *P->hand);
    P->dead = malloc((size_t)m * sizeof *P->dead);
    P->orbit = malloc((size_t)m * sizeof *P->orbit);
    P->comp = malloc((size_t)m * sizeof *P->comp);
    P->cls = malloc((size_t)(m * c->halves) * sizeof *P->cls);
    if (!P->hand || !P->dead || !P->orbit || !P->comp || !P->cls) return BD_SV_NO_MEMORY;
    int32_t top = n - h - d;
    if ((rc = cs_build_level(c, top)) != BD_SV_OK || (rc = cs_build_level(c, h + d)) != BD_SV_OK) return rc;
    const cs_level *T = &c->level[top];
    uint64_t full = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    int64_t n_hands = (int64_t)c->binom.c[n][h];
    for (int64_t i = 0; i < P->n; i++) {
        cs_unkey(c, P->key[i], 1, &P->hand[i], &P->dead[i]);
        P->orbit[i] = cs_orbit(c, P->key[i], 2 * c->R);
        int64_t j = cs_find(T->key, T->n, cs_canon(c, full & ~(P->hand[i] | P->dead[i]), 0, 0, NULL));
        int64_t col = cs_colex(c, P->hand[i]);
        if (j < 0 || col < 0 || col >= n_hands) return BD_SV_BAD_GAME;
        P->comp[i] = (int32_t)j;
        for (int32_t half = 0; half < c->halves; half++) P->cls[half * P->n + i] = c->hand_class[half * n_hands + col];
    }
    /* The gather of every canonical set of h + d cards: its h-subsets as hands, the rest as dead cards. */
    const cs_level *G = &c->level[h + d];
    P->n_sub = (int64_t)c->binom.c[h + d][h];
    P->gather = malloc((size_t)(G->n * P->n_sub > 0 ? G->n * P->n_sub : 1) * sizeof *P->gather);
    if (!P->gather) return BD_SV_NO_MEMORY;
    for (int64_t g = 0; g < G->n; g++) {
        int32_t pos[64], np = 0; /* a set of at most n_cards <= 32 cards */
        for (uint64_t z = G->bits[g]; z; z &= z - 1) pos[np++] = sv_ctz(z);
        uint64_t y = ((uint64_t)1 << h) - 1;
        for (int64_t t = 0; t < P->n_sub; t++, y = sv_next_subset(y)) {
            uint64_t hand = 0;
            for (uint64_t z = y; z; z &= z - 1) hand |= (uint64_t)1 << pos[sv_ctz(z)];
            int64_t j = cs_find(P->key, P->n, cs_canon(c, hand, G->bits[g] & ~hand, 1, NULL));
            if (j < 0) return BD_SV_BAD_GAME;
            P->gather[g * P->n_sub + t] = (int32_t)j;
        }
    }
    return BD_SV_OK;
}

/* Children of every state of space d after a draw of k: [state][mask rank][new set in colex order]. */
static int32_t cs_build_next(bd_cs *c, int32_t d, int32_t k) {
    cs_space *P = &c->space[d];
    if (P->next[k]) return BD_SV_OK;
    int32_t h = c->h, n = c->n, unseen = n - h - d, rc;
    if (unseen < k || d + k > BD_SV_MAX_SEEN) return BD_SV_BAD_GAME;
    if ((rc = cs_build_space(c, d + k)) != BD_SV_OK) return rc;
    const cs_space *Q = &c->space[d + k];
    int64_t n_new = (int64_t)c->binom.c[unseen][k], block = (int64_t)c->binom.c[h][k] * n_new;
    int64_t total = sv_mul(P->n, block, CS_MAX_STATES);
    if (total < 0) return BD_SV_TOO_LARGE;
    P->next[k] = malloc((size_t)(total ? total : 1) * sizeof *P->next[k]);
    if (!P->next[k]) return BD_SV_NO_MEMORY;
    uint64_t full = ((uint64_t)1 << n) - 1;
    for (int64_t i = 0; i < P->n; i++) {
        int32_t pos[5], av[64], np = 0, na = 0;
        uint64_t seen = P->hand[i] | P->dead[i];
        for (int32_t p = 0; p < n; p++) {
            if (P->hand[i] >> p & 1) pos[np++] = p;
            if (!(seen >> p & 1) && (full >> p & 1)) av[na++] = p;
        }
        int64_t out = i * block;
        for (uint32_t mk = 0; mk < (1u << h); mk++) {
            if (sv_popcount(mk) != k) continue;
            uint64_t thrown = 0;
            for (int32_t j = 0; j < h; j++)
                if (mk >> j & 1) thrown |= (uint64_t)1 << pos[j];
            uint64_t y = ((uint64_t)1 << k) - 1;
            for (int64_t t = 0; t < n_new; t++) {
                uint64_t add = 0;
                for (uint64_t z = y; z; z &= z - 1) add |= (uint64_t)1 << av[sv_ctz(z)];
                int64_t j = cs_find(Q->key, Q->n, cs_canon(c, (P->hand[i] & ~thrown) | add, P->dead[i] | thrown, 1, NULL));
                if (j < 0) return BD_SV_BAD_GAME;
                P->next[k][out++] = (int32_t)j;
                if (k > 0) y = sv_next_subset(y);
            }
        }
    }
    return BD_SV_OK;
}

void bd_cs_free(bd_cs *c) {
    if (!c) return;
    free(c->kind);
    free(c->player);
    free(c->child);
    free(c->n_child);
    free(c->thrown);
    free(c->payoff);
    free(c->chance);
    free(c->hand_class);
    free(c->offset);
    for (int32_t a = 0; a <= 32; a++) {
        free(c->level[a].key);
        free(c->level[a].bits);
        free(c->level[a].down);
    }
    for (int32_t d = 0; d <= BD_SV_MAX_SEEN; d++) {
        cs_space *P = &c->space[d];
        free(P->key);
        free(P->hand);
        free(P->dead);
        free(P->orbit);
        free(P->comp);
        free(P->cls);
        free(P->gather);
        for (int32_t k = 0; k < 6; k++) free(P->next[k]);
    }
    free(c);
}

static void *cs_copy(const void *src, size_t bytes) {
    void *dst = malloc(bytes ? bytes : 1);
    if (dst && bytes) memcpy(dst, src, bytes);
    return dst;
}

int32_t bd_cs_new(const bd_cs_game *g, bd_cs **out) {
    if (!g || !out) return BD_SV_BAD_ARGS;
    *out = NULL;
    if (!g->kind || !g->player || !g->child || !g->n_child || !g->thrown || !g->payoff || !g->chance ||
        !g->n_classes || !g->hand_class)
        return BD_SV_BAD_ARGS;
    int32_t R = g->n_ranks, S = g->n_suits, h = g->hand_size, nn = g->n_nodes;
    if (R < 1 || R > CS_MAX_RANKS || S < 1 || S > CS_MAX_SUITS || 2 * R * S > 64 || R * S > 32 || h < 1 || h > 5 ||
        h > R * S ||
        g->n_halves < 1 || g->n_halves > 2 || nn < 1 || nn > (1 << 24))
        return BD_SV_BAD_GAME;
    bd_cs *c = calloc(1, sizeof *c);
    if (!c) return BD_SV_NO_MEMORY;
    c->R = R;
    c->S = S;
    c->n = R * S;
    c->h = h;
    c->halves = g->n_halves;
    c->n_nodes = nn;
    sv_binom_fill(&c->binom);
    int64_t n_hands = (int64_t)c->binom.c[c->n][h];
    size_t ni = (size_t)nn * sizeof(int32_t);
    c->kind = cs_copy(g->kind, ni);
    c->player = cs_copy(g->player, ni);
    c->child = cs_copy(g->child, ni);
    c->n_child = cs_copy(g->n_child, ni);
    c->thrown = cs_copy(g->thrown, 2 * ni);
    c->payoff = cs_copy(g->payoff, (size_t)nn * 8 * sizeof(double));
    c->chance = cs_copy(g->chance, (size_t)nn * sizeof(double));
    c->hand_class = cs_copy(g->hand_class, (size_t)(n_hands * g->n_halves) * sizeof(uint16_t));
    c->offset = malloc((size_t)nn * sizeof *c->offset);
    int32_t rc = BD_SV_OK;
    if (!c->kind || !c->player || !c->child || !c->n_child || !c->thrown || !c->payoff || !c->chance ||
        !c->hand_class || !c->offset) {
        rc = BD_SV_NO_MEMORY;
        goto fail;
    }
    for (int32_t half = 0; half < c->halves; half++) {
        c->ncls[half] = g->n_classes[half];
        if (c->ncls[half] < 1 || c->ncls[half] > 4096) goto bad;
        for (int64_t i = 0; i < n_hands; i++)
            if (c->hand_class[half * n_hands + i] >= c->ncls[half]) goto bad;
    }
    int counts[6] = {0};
    for (uint32_t m = 0; m < (1u << h); m++) c->mask_rank[m] = counts[sv_popcount(m)]++;
    /* The tree: children after parents, each node the child of one; thrown counts consistent. */
    {
        int32_t *parents = calloc((size_t)nn, sizeof *parents);
        if (!parents) {
            rc = BD_SV_NO_MEMORY;
            goto fail;
        }
        int ok = 1;
        for (int32_t v = 0; v < nn && ok; v++) {
            int32_t kd = c->kind[v], p = c->player[v], ch = c->child[v], nc = c->n_child[v];
            int32_t t0 = c->thrown[v], t1 = c->thrown[nn + v];
            if (kd < BD_SV_FOLD || kd > BD_SV_DRAW || p < 0 || p > 1 || t0 < 0 || t1 < 0 ||
                t0 > c->n - 2 * h || t1 > c->n - 2 * h || t0 + t1 > c->n - 2 * h || t0 > BD_SV_MAX_SEEN ||
                t1 > BD_SV_MAX_SEEN || !(c->chance[v] >= 0.0 && c->chance[v] <= 1.0)) {
                ok = 0;
                break;
            }
            for (int j = 0; j < 8; j++)
                if (!isfinite(c->payoff[8 * v + j])) ok = 0;
            if (v == 0 && (t0 || t1)) ok = 0;
            if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
                if (nc != 0) ok = 0;
                continue;
            }
            if (ch <= v || nc < 1 || nc > nn - ch || (kd == BD_SV_BET && nc > 3) || (kd == BD_SV_DRAW && nc != h + 1)) {
                ok = 0;
                break;
            }
            for (int32_t j = 0; j < nc; j++) {
                int32_t w = ch + j;
                parents[w]++;
                int32_t mine = p ? c->thrown[nn + w] : c->thrown[w], other = p ? c->thrown[w] : c->thrown[nn + w];
                int32_t was = p ? t1 : t0, other_was = p ? t0 : t1;
                if (other != other_was || mine != (kd == BD_SV_DRAW ? was + j : was)) ok = 0;
            }
        }
        for (int32_t v = 0; v < nn && ok; v++)
            if (parents[v] != (v == 0 ? 0 : 1)) ok = 0;
        free(parents);
        if (!ok) goto bad;
    }
    /* Spaces, their draws, and the offsets. */
    int64_t total = 0;
    for (int32_t v = 0; v < nn; v++) {
        int32_t kd = c->kind[v];
        for (int32_t s = 0; s < 2; s++)
            if ((rc = cs_build_space(c, c->thrown[s * nn + v])) != BD_SV_OK) goto fail;
        c->offset[v] = -1;
        if (kd != BD_SV_BET && kd != BD_SV_DRAW) continue;
        int32_t p = c->player[v], d = c->thrown[p * nn + v];
        if (kd == BD_SV_DRAW)
            for (int32_t k = 0; k <= h; k++)
                if ((rc = cs_build_next(c, d, k)) != BD_SV_OK) goto fail;
        int64_t cols = kd == BD_SV_BET ? c->n_child[v] : (int64_t)1 << h;
        int64_t need = sv_mul(c->space[d].n, cols, SV_LIMIT);
        if (need < 0 || total > SV_LIMIT - need) {
            rc = BD_SV_TOO_LARGE;
            goto fail;
        }
        c->offset[v] = total;
        total += need;
    }
    c->strategy_size = total;
    *out = c;
    return BD_SV_OK;
bad:
    rc = BD_SV_BAD_GAME;
fail:
    bd_cs_free(c);
    return rc;
}

int64_t bd_cs_space_size(const bd_cs *c, int32_t thrown) {
    if (!c || thrown < 0 || thrown > BD_SV_MAX_SEEN || !c->space[thrown].key) return -1;
    return c->space[thrown].n;
}

int64_t bd_cs_strategy_size(const bd_cs *c) { return c ? c->strategy_size : BD_SV_BAD_ARGS; }

int32_t bd_cs_offsets(const bd_cs *c, int64_t *offset, int32_t n_nodes) {
    if (!c || !offset || n_nodes != c->n_nodes) return BD_SV_BAD_ARGS;
    memcpy(offset, c->offset, (size_t)n_nodes * sizeof *offset);
    return BD_SV_OK;
}

int32_t bd_cs_state(const bd_cs *c, int32_t thrown, int64_t index, uint64_t *hand, uint64_t *dead, double *orbit) {
    if (!c || !hand || !dead || !orbit || bd_cs_space_size(c, thrown) < 0 || index < 0 || index >= c->space[thrown].n)
        return BD_SV_BAD_ARGS;
    *hand = c->space[thrown].hand[index];
    *dead = c->space[thrown].dead[index];
    *orbit = c->space[thrown].orbit[index];
    return BD_SV_OK;
}

int64_t bd_cs_index(const bd_cs *c, uint64_t hand, uint64_t dead, int32_t *perm) {
    if (!c || !perm) return BD_SV_BAD_ARGS;
    uint64_t full = ((uint64_t)1 << c->n) - 1;
    int32_t d = sv_popcount(dead);
    if ((hand | dead) & ~full || hand & dead || sv_popcount(hand) != c->h || d > BD_SV_MAX_SEEN || !c->space[d].key)
        return -1;
    int32_t order[CS_MAX_SUITS];
    int64_t j = cs_find(c->space[d].key, c->space[d].n, cs_canon(c, hand, dead, 1, order));
    for (int32_t r = 0; r < c->S; r++) perm[order[r]] = r;
    return j;
}

/* ------------------------------------------------------------------------------------ compact pass */

typedef struct cs_ws {
    const bd_cs *c;
    const double *strat; /* NULL: uniform */
    int32_t follow;
    int32_t width;       /* classes of both halves */
    double *lv[2];       /* two level buffers (rows of `width`) */
    double *pre, *suf;   /* prefix and suffix sums per row of the top level */
    double *reach[BD_SV_MAX_DEPTH], *val[BD_SV_MAX_DEPTH], *act[BD_SV_MAX_DEPTH];
    /* CFR (bd_cs_cfr): the regrets and averages updated, the iteration's weights, my own reach per depth. */
    double *regret, *average;
    int32_t variant;
    double t, up, down, weight;
    double *reach_me[BD_SV_MAX_DEPTH];
    double *sig[BD_SV_MAX_DEPTH]; /* a bet node's current strategy, row by row (computed once a visit) */
} cs_ws;

static void cs_ws_free(cs_ws *w) {
    free(w->lv[0]);
    free(w->lv[1]);
    free(w->pre);
    free(w->suf);
    for (int d = 0; d < BD_SV_MAX_DEPTH; d++) {
        free(w->reach[d]);
        free(w->val[d]);
        free(w->act[d]);
        free(w->reach_me[d]);
        free(w->sig[d]);
    }
}

static int32_t cs_ws_init(cs_ws *w, const bd_cs *c, int32_t cfr) {
    memset(w, 0, sizeof *w);
    w->c = c;
    w->width = c->ncls[0] + (c->halves > 1 ? c->ncls[1] : 0);
    int64_t padded = (w->width + CS_BLOCK - 1) / CS_BLOCK * CS_BLOCK;
    int64_t max_level = 1, max_space = 1, max_act = 1;
    for (int32_t a = 0; a <= c->n; a++)
        if (c->level[a].n > max_level) max_level = c->level[a].n;
    for (int32_t d = 0; d <= BD_SV_MAX_SEEN; d++)
        if (c->space[d].n > max_space) max_space = c->space[d].n;
    max_act = max_space * (((int64_t)1 << c->h) > 3 ? ((int64_t)1 << c->h) : 3);
    w->lv[0] = malloc((size_t)(max_level * padded) * sizeof(double));
    w->lv[1] = malloc((size_t)(max_level * padded) * sizeof(double));
    w->pre = malloc((size_t)(max_level * padded) * sizeof(double));
    w->suf = malloc((size_t)(max_level * padded) * sizeof(double));
    if (!w->lv[0] || !w->lv[1] || !w->pre || !w->suf) return BD_SV_NO_MEMORY;
    /* Depth of the tree: buffers per depth (a path is short). */
    int32_t *depth = calloc((size_t)c->n_nodes, sizeof *depth);
    if (!depth) return BD_SV_NO_MEMORY;
    int32_t dmax = 0, rc = BD_SV_OK;
    for (int32_t v = 0; v < c->n_nodes; v++) {
        if (depth[v] > dmax) dmax = depth[v];
        for (int32_t j = 0; j < c->n_child[v]; j++) depth[c->child[v] + j] = depth[v] + 1;
    }
    free(depth);
    if (dmax + 2 >= BD_SV_MAX_DEPTH) return BD_SV_TOO_LARGE;
    for (int32_t d = 0; d <= dmax + 1 && rc == BD_SV_OK; d++) {
        w->reach[d] = malloc((size_t)max_space * sizeof(double));
        w->val[d] = malloc((size_t)max_space * sizeof(double));
        w->act[d] = malloc((size_t)max_act * sizeof(double));
        if (cfr) {
            w->reach_me[d] = malloc((size_t)max_space * sizeof(double));
            w->sig[d] = malloc((size_t)(max_space * 3) * sizeof(double));
        }
        if (!w->reach[d] || !w->val[d] || !w->act[d] || (cfr && (!w->reach_me[d] || !w->sig[d]))) rc = BD_SV_NO_MEMORY;
    }
    return rc;
}

/* The strategy's probability of column a at row i of decision `node` (cols columns). */
static double cs_sigma(const cs_ws *w, int32_t node, int64_t i, int64_t cols, int64_t a) {
    return w->strat ? w->strat[w->c->offset[node] + i * cols + a] : 1.0 / (double)cols;
}

/* My values v[] at terminal `node`, the opponent's states reached with op[] (see solve.h). */
static void cs_terminal(cs_ws *w, int32_t node, int32_t me, const double *op, double *v) {
    const bd_cs *c = w->c;
    int32_t nn = c->n_nodes, dm = c->thrown[me * nn + node], dop = c->thrown[(1 - me) * nn + node];
    const cs_space *M = &c->space[dm], *O = &c->space[dop];
    int32_t low = c->h + dop, top = c->n - c->h - dm;
    int32_t fold = c->kind[node] == BD_SV_FOLD, W = fold ? 1 : w->width;
    const double *pay = c->payoff + 8 * node;
    double chance = c->chance[node];
    if (top < low || chance == 0.0) {
        memset(v, 0, (size_t)M->n * sizeof *v);
        return;
    }
    /* Gather: per canonical set of the opponent's cards, its reach by the rank class of its hand.  Rows
       are padded to a multiple of CS_BLOCK columns so the sums below run in fixed blocks. */
    int32_t stride = fold ? 1 : (W + CS_BLOCK - 1) / CS_BLOCK * CS_BLOCK;
    const cs_level *G = &c->level[low];
    double *cur = w->lv[0], *nxt = w->lv[1];
    memset(cur, 0, (size_t)(G->n * stride) * sizeof *cur);
    for (int64_t g = 0; g < G->n; g++) {
        double *row = cur + g * stride;
        const int32_t *ids = O->gather + g * O->n_sub;
        for (int64_t t = 0; t < O->n_sub; t++) {
            int32_t j = ids[t];
            double r = op[j];
            if (r == 0.0) continue;
            if (fold) {
                row[0] += r;
            } else {
                row[O->cls[j]] += r;
                if (c->halves > 1) row[c->ncls[0] + O->cls[O->n + j]] += r;
            }
        }
    }
    /* Up the lattice: a set's sum is the sum over the sets one card smaller (each set of the opponent's
       under it counted (size - low)! times over the chains: divided out below).  Per block of columns,
       the sum over a set's subsets is kept in registers and stored once. */
    double scale = 1.0;
    for (int32_t a = low; a < top; a++) {
        const cs_level *U = &c->level[a + 1];
        int32_t sz = a + 1;
        for (int64_t i = 0; i < U->n; i++) {
            double *restrict row = nxt + i * stride;
            const int32_t *down = U->down + i * sz;
            if (fold) {
                double acc = 0.0;
                for (int32_t t = 0; t < sz; t++) acc += cur[down[t]];
                row[0] = acc;
                continue;
            }
            for (int32_t x0 = 0; x0 < stride; x0 += CS_BLOCK) {
                double acc[CS_BLOCK] = {0.0};
                for (int32_t t = 0; t < sz; t++) {
                    const double *restrict src = cur + (int64_t)down[t] * stride + x0;
                    for (int32_t x = 0; x < CS_BLOCK; x++) acc[x] += src[x];
                }
                for (int32_t x = 0; x < CS_BLOCK; x++) row[x0 + x] = acc[x];
            }
        }
        scale *= (double)(a + 1 - low);
        double *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    const cs_level *T = &c->level[top];
    W = stride;
    double inv = 1.0 / scale, sign = me == 0 ? 1.0 : -1.0;
    if (fold) {
        double u = sign * pay[0] * chance * inv;
        for (int64_t i = 0; i < M->n; i++) v[i] = u * cur[M->comp[i]];
        return;
    }
    /* Per row of the top level and half: the mass below each class and above it. */
    for (int64_t i = 0; i < T->n; i++) {
        const double *row = cur + i * W;
        double *pre = w->pre + i * W, *suf = w->suf + i * W;
        for (int32_t half = 0, off = 0; half < c->halves; off += c->ncls[half], half++) {
            int32_t nc = c->ncls[half];
            double acc = 0.0;
            for (int32_t x = 0; x < nc; x++) {
                pre[off + x] = acc;
                acc += row[off + x];
            }
            acc = 0.0;
            for (int32_t x = nc - 1; x >= 0; x--) {
                suf[off + x] = acc;
                acc += row[off + x];
            }
        }
    }
    double c0 = sign * pay[0];
    for (int64_t i = 0; i < M->n; i++) {
        int64_t a = M->comp[i];
        const double *row = cur + a * W, *pre = w->pre + a * W, *suf = w->suf + a * W;
        int32_t x0 = M->cls[i];
        double all = pre[x0] + row[x0] + suf[x0];
        double acc = c0 * all;
        for (int32_t half = 0, off = 0; half < c->halves; off += c->ncls[half], half++) {
            int32_t x = off + M->cls[half * M->n + i];
            double win = pay[1 + 3 * half], tie = pay[2 + 3 * half], lose = pay[3 + 3 * half];
            if (me == 1) {
                double t = win;
                win = -lose;
                lose = -t;
                tie = -tie;
            }
            /* Opponents of a lower class (a better hand) win the half from me. */
            acc += lose * pre[x] + tie * row[x] + win * suf[x];
        }
        v[i] = chance * inv * acc;
    }
}

static int cs_all_zero(const double *x, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (x[i] != 0.0) return 0;
    return 1;
}

static void cs_node(cs_ws *w, int32_t node, int32_t dp, int32_t me, const double *op, double *v) {
    const bd_cs *c = w->c;
    int32_t nn = c->n_nodes, kd = c->kind[node], actor = c->player[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
        cs_terminal(w, node, me, op, v);
        return;
    }
    const cs_space *M = &c->space[c->thrown[me * nn + node]], *O = &c->space[c->thrown[(1 - me) * nn + node]];
    int64_t mm = M->n, mo = O->n;
    int32_t nc = c->n_child[node], c0 = c->child[node], h = c->h;
    double *cv = w->val[dp + 1];
    if (actor != me) {
        double *rc = w->reach[dp + 1];
        memset(v, 0, (size_t)mm * sizeof *v);
        if (kd == BD_SV_BET) {
            for (int32_t a = 0; a < nc; a++) {
                for (int64_t j = 0; j < mo; j++) rc[j] = op[j] == 0.0 ? 0.0 : op[j] * cs_sigma(w, node, j, nc, a);
                if (cs_all_zero(rc, mo)) continue;
                cs_node(w, c0 + a, dp + 1, me, rc, cv);
                for (int64_t i = 0; i < mm; i++) v[i] += cv[i];
            }
            return;
        }
        /* The opponent draws: each canonical state's reach, times each mask's probability, goes to the
           canonical form of every child, scaled by the two classes' sizes (the class of the state pushes
           into the class of the child; the child's own row is one of its class). */
        int64_t cols = (int64_t)1 << h;
        int32_t dd = c->thrown[(1 - me) * nn + node];
        for (int32_t k = 0; k <= h; k++) {
            const cs_space *Q = &c->space[dd + k];
            int64_t n_new = (int64_t)c->binom.c[c->n - h - dd][k], block = (int64_t)c->binom.c[h][k] * n_new;
            memset(rc, 0, (size_t)Q->n * sizeof *rc);
            for (int64_t j = 0; j < mo; j++) {
                if (op[j] == 0.0) continue;
                for (uint32_t m = 0; m < cols; m++) {
                    if (sv_popcount(m) != k) continue;
                    double r = op[j] * cs_sigma(w, node, j, cols, m) * O->orbit[j];
                    if (r == 0.0) continue;
                    const int32_t *kids = O->next[k] + j * block + c->mask_rank[m] * n_new;
                    for (int64_t t = 0; t < n_new; t++) rc[kids[t]] += r;
                }
            }
            for (int64_t q = 0; q < Q->n; q++) rc[q] /= Q->orbit[q];
            if (cs_all_zero(rc, Q->n)) continue;
            cs_node(w, c0 + k, dp + 1, me, rc, cv);
            for (int64_t i = 0; i < mm; i++) v[i] += cv[i];
        }
        return;
    }
    double *act = w->act[dp];
    if (kd == BD_SV_BET) {
        for (int32_t a = 0; a < nc; a++) {
            cs_node(w, c0 + a, dp + 1, me, op, cv);
            for (int64_t i = 0; i < mm; i++) act[i * nc + a] = cv[i];
        }
        for (int64_t i = 0; i < mm; i++) {
            double best = act[i * nc];
            if (w->follow) {
                best = 0.0;
                for (int32_t a = 0; a < nc; a++) best += cs_sigma(w, node, i, nc, a) * act[i * nc + a];
            } else {
                for (int32_t a = 1; a < nc; a++)
                    if (act[i * nc + a] > best) best = act[i * nc + a];
            }
            v[i] = best;
        }
        return;
    }
    /* I draw: a mask's value sums its children (each one of my states: no class weights). */
    int64_t cols = (int64_t)1 << h;
    int32_t dm = c->thrown[me * nn + node];
    for (int32_t k = 0; k <= h; k++) {
        int64_t n_new = (int64_t)c->binom.c[c->n - h - dm][k], block = (int64_t)c->binom.c[h][k] * n_new;
        cs_node(w, c0 + k, dp + 1, me, op, cv);
        for (int64_t i = 0; i < mm; i++)
            for (uint32_t m = 0; m < cols; m++) {
                if (sv_popcount(m) != k) continue;
                const int32_t *kids = M->next[k] + i * block + c->mask_rank[m] * n_new;
                double sum = 0.0;
                for (int64_t t = 0; t < n_new; t++) sum += cv[kids[t]];
                act[i * cols + m] = sum;
            }
    }
    for (int64_t i = 0; i < mm; i++) {
        double best = act[i * cols];
        if (w->follow) {
            best = 0.0;
            for (int64_t m = 0; m < cols; m++) best += cs_sigma(w, node, i, cols, m) * act[i * cols + m];
        } else {
            for (int64_t m = 1; m < cols; m++)
                if (act[i * cols + m] > best) best = act[i * cols + m];
        }
        v[i] = best;
    }
}

int32_t bd_cs_value(const bd_cs *c, const double *strategy, int64_t size, int32_t seat, int32_t follow,
                    double *value) {
    if (!c || !value || seat < 0 || seat > 1 || (strategy && size != c->strategy_size)) return BD_SV_BAD_ARGS;
    cs_ws w;
    int32_t rc = cs_ws_init(&w, c, 0);
    if (rc == BD_SV_OK) {
        w.strat = strategy;
        w.follow = follow != 0;
        const cs_space *M = &c->space[0], *O = &c->space[0];
        double *op = w.reach[0];
        for (int64_t j = 0; j < O->n; j++) op[j] = 1.0;
        cs_node(&w, 0, 0, seat, op, w.val[0]);
        double sum = 0.0;
        for (int64_t i = 0; i < M->n; i++) sum += M->orbit[i] * w.val[0][i];
        *value = sum;
    }
    cs_ws_free(&w);
    return rc;
}

/* ------------------------------------------------------------------------------------ compact CFR */

/* The current strategy of row i at `node` (cols columns): regret matching of its regrets. */
static void cs_cfr_sigma(const cs_ws *w, int32_t node, int64_t i, int64_t cols, double *out) {
    sv_match(w->regret + w->c->offset[node] + i * cols, cols, out);
}

/* The reach r[] of `who`'s states at its draw `node` (space d, per state of a class) pushed through a
 * draw of k cards into out[] (space d + k, per state of a class): each class's mass, times each mask's
 * probability, goes to the canonical form of every child, then is shared among the child class's states
 * (the same push as the opponent's draw in cs_node). */
static void cs_cfr_push(const cs_ws *w, int32_t node, int32_t who, int32_t k, const double *r, double *out) {
    const bd_cs *c = w->c;
    int32_t nn = c->n_nodes, h = c->h, d = c->thrown[who * nn + node];
    const cs_space *O = &c->space[d], *Q = &c->space[d + k];
    int64_t cols = (int64_t)1 << h;
    int64_t n_new = (int64_t)c->binom.c[c->n - h - d][k], block = (int64_t)c->binom.c[h][k] * n_new;
    double sigma[32];
    memset(out, 0, (size_t)Q->n * sizeof *out);
    for (int64_t j = 0; j < O->n; j++) {
        if (r[j] == 0.0) continue;
        cs_cfr_sigma(w, node, j, cols, sigma);
        for (uint32_t m = 0; m < cols; m++) {
            if (sv_popcount(m) != k) continue;
            double x = r[j] * sigma[m] * O->orbit[j];
            if (x == 0.0) continue;
            const int32_t *kids = O->next[k] + j * block + c->mask_rank[m] * n_new;
            for (int64_t t = 0; t < n_new; t++) out[kids[t]] += x;
        }
    }
    for (int64_t q = 0; q < Q->n; q++) out[q] /= Q->orbit[q];
}

/* Update the regrets and the average of `me`'s row i at `node` (as sv_update, on the compact arrays).
 * The rows' values are per state of a class and the reach too: a class's factor is the same at every
 * iteration, and regret matching and the average's normalisation do not see it. */
static void cs_cfr_update(cs_ws *w, int32_t node, int64_t i, int64_t cols, const double *sigma, const double *act,
                          double value, double reach) {
    double *r = w->regret + w->c->offset[node] + i * cols;
    double *avg = w->average + w->c->offset[node] + i * cols;
    double scale = fabs(value);
    for (int64_t a = 0; a < cols; a++)
        if (fabs(act[a]) > scale) scale = fabs(act[a]);
    for (int64_t a = 0; a < cols; a++) {
        double inst = sv_snap(act[a] - value, scale);
        switch (w->variant) {
        case BD_SV_CFR_PLUS: {
            double x = r[a] + inst;
            r[a] = x > 0.0 ? x : 0.0;
            avg[a] += w->t * reach * sigma[a];
            break;
        }
        case BD_SV_DCFR: {
            double x = r[a] + inst;
            r[a] = x * (x > 0.0 ? w->up : w->down);
            avg[a] += w->weight * reach * sigma[a];
            break;
        }
        default:
            r[a] += inst;
            avg[a] += reach * sigma[a];
        }
    }
}

/* A subtree the opponent never reaches this iteration: `me`'s rows in it still take this iteration's
 * average and discount, with zero regrets (as sv_cfr_skip). */
static void cs_cfr_skip(cs_ws *w, int32_t node, int32_t dp, int32_t me, const double *mr) {
    const bd_cs *c = w->c;
    int32_t nn = c->n_nodes, kd = c->kind[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) return;
    int32_t nc = c->n_child[node], c0 = c->child[node], h = c->h;
    if (c->player[node] != me) {
        for (int32_t a = 0; a < nc; a++) cs_cfr_skip(w, c0 + a, dp + 1, me, mr);
        return;
    }
    const cs_space *M = &c->space[c->thrown[me * nn + node]];
    int64_t cols = kd == BD_SV_BET ? nc : (int64_t)1 << h;
    double sigma[32], zero[32] = {0};
    double *rc = w->reach_me[dp + 1], *sig = w->sig[dp];
    if (kd == BD_SV_BET)
        for (int64_t i = 0; i < M->n; i++) cs_cfr_sigma(w, node, i, cols, sig + i * cols);
    for (int32_t a = 0; a < nc; a++) {
        if (kd == BD_SV_BET) {
            for (int64_t i = 0; i < M->n; i++) rc[i] = mr[i] * sig[i * cols + a];
        } else {
            cs_cfr_push(w, node, me, a, mr, rc);
        }
        cs_cfr_skip(w, c0 + a, dp + 1, me, rc);
    }
    for (int64_t i = 0; i < M->n; i++) {
        const double *row = sigma;
        if (kd == BD_SV_BET) {
            row = sig + i * cols;
        } else {
            cs_cfr_sigma(w, node, i, cols, sigma);
        }
        cs_cfr_update(w, node, i, cols, row, zero, 0.0, mr[i]);
    }
}

/* Counterfactual values v[] of `me`'s canonical states at `node` under the current strategy, `me`
 * reaching them with mr[], the opponent its own with op[] (both per state of a class); `me`'s regrets and
 * averages updated (the compact twin of sv_cfr_node). */
static void cs_cfr_node(cs_ws *w, int32_t node, int32_t dp, int32_t me, const double *mr, const double *op,
                        double *v) {
    const bd_cs *c = w->c;
    int32_t nn = c->n_nodes, kd = c->kind[node], actor = c->player[node];
    if (kd == BD_SV_FOLD || kd == BD_SV_SHOWDOWN) {
        cs_terminal(w, node, me, op, v);
        return;
    }
    const cs_space *M = &c->space[c->thrown[me * nn + node]], *O = &c->space[c->thrown[(1 - me) * nn + node]];
    int64_t mm = M->n, mo = O->n;
    int32_t nc = c->n_child[node], c0 = c->child[node], h = c->h;
    int64_t cols = kd == BD_SV_BET ? nc : (int64_t)1 << h;
    double *cv = w->val[dp + 1], *sig = w->sig[dp];
    double sigma[32];
    if (actor != me) {
        double *rc = w->reach[dp + 1];
        memset(v, 0, (size_t)mm * sizeof *v);
        if (kd == BD_SV_BET)
            for (int64_t j = 0; j < mo; j++)
                if (op[j] != 0.0) cs_cfr_sigma(w, node, j, cols, sig + j * cols);
        for (int32_t a = 0; a < nc; a++) {
            int64_t mc = mo;
            if (kd == BD_SV_BET) {
                for (int64_t j = 0; j < mo; j++) rc[j] = op[j] == 0.0 ? 0.0 : op[j] * sig[j * cols + a];
            } else {
                cs_cfr_push(w, node, 1 - me, a, op, rc);
                mc = c->space[c->thrown[(1 - me) * nn + node] + a].n;
            }
            if (cs_all_zero(rc, mc)) {
                cs_cfr_skip(w, c0 + a, dp + 1, me, mr);
                continue;
            }
            cs_cfr_node(w, c0 + a, dp + 1, me, mr, rc, cv);
            for (int64_t i = 0; i < mm; i++) v[i] += cv[i];
        }
        return;
    }
    double *act = w->act[dp];
    double *rc = w->reach_me[dp + 1];
    int32_t dm = c->thrown[me * nn + node];
    if (kd == BD_SV_BET)
        for (int64_t i = 0; i < mm; i++) cs_cfr_sigma(w, node, i, cols, sig + i * cols);
    for (int32_t a = 0; a < nc; a++) {
        if (kd == BD_SV_BET) {
            for (int64_t i = 0; i < mm; i++) rc[i] = mr[i] * sig[i * cols + a];
            cs_cfr_node(w, c0 + a, dp + 1, me, rc, op, cv);
            for (int64_t i = 0; i < mm; i++) act[i * cols + a] = cv[i];
            continue;
        }
        /* I draw a cards: a mask's value sums its children (each one of my states). */
        int64_t n_new = (int64_t)c->binom.c[c->n - h - dm][a], block = (int64_t)c->binom.c[h][a] * n_new;
        cs_cfr_push(w, node, me, a, mr, rc);
        cs_cfr_node(w, c0 + a, dp + 1, me, rc, op, cv);
        for (int64_t i = 0; i < mm; i++)
            for (uint32_t m = 0; m < cols; m++) {
                if (sv_popcount(m) != a) continue;
                const int32_t *kids = M->next[a] + i * block + c->mask_rank[m] * n_new;
                double sum = 0.0;
                for (int64_t t = 0; t < n_new; t++) sum += cv[kids[t]];
                act[i * cols + m] = sum;
            }
    }
    for (int64_t i = 0; i < mm; i++) {
        const double *row = sigma;
        if (kd == BD_SV_BET) {
            row = sig + i * cols;
        } else {
            cs_cfr_sigma(w, node, i, cols, sigma);
        }
        double value = 0.0;
        for (int64_t a = 0; a < cols; a++) value += row[a] * act[i * cols + a];
        v[i] = value;
        cs_cfr_update(w, node, i, cols, row, act + i * cols, value, mr[i]);
    }
}

int32_t bd_cs_cfr(const bd_cs *c, double *regret, double *average, int64_t size, int64_t first_iteration,
                  int64_t iterations, int32_t variant, double alpha, double beta, double gamma) {
    if (!c || !regret || !average || size != c->strategy_size || first_iteration < 1 || iterations < 0 ||
        variant < BD_SV_CFR || variant > BD_SV_DCFR || !isfinite(alpha) || !isfinite(beta) || !isfinite(gamma))
        return BD_SV_BAD_ARGS;
    if (c->h > 5) return BD_SV_TOO_LARGE; /* sigma rows hold 2**5 masks */
    cs_ws w;
    int32_t rc = cs_ws_init(&w, c, 1);
    if (rc == BD_SV_OK) {
        w.regret = regret;
        w.average = average;
        w.variant = variant;
        const cs_space *P = &c->space[0];
        for (int64_t it = 0; it < iterations; it++) {
            w.t = (double)(first_iteration + it);
            double pa = pow(w.t, alpha), pb = pow(w.t, beta);
            w.up = pa / (pa + 1.0);
            w.down = pb / (pb + 1.0);
            w.weight = pow(w.t, gamma);
            for (int32_t me = 0; me < 2; me++) {
                for (int64_t j = 0; j < P->n; j++) w.reach[0][j] = w.reach_me[0][j] = 1.0;
                cs_cfr_node(&w, 0, 0, me, w.reach_me[0], w.reach[0], w.val[0]);
            }
        }
    }
    cs_ws_free(&w);
    return rc;
}
