/* lbr.c -- bots' action probabilities, external-sampling MCCFR and local best response over the C hand
 * loop.  See lbr.h. */
#include "lbr.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "badacey.h"
#include "bots.h"

/* ------------------------------------------------------------------------------------- randomness */

typedef struct lb_rng {
    uint64_t s[4];
} lb_rng;

static uint64_t lb_splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void lb_seed(lb_rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = lb_splitmix(&seed);
}

static uint64_t lb_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t lb_next(lb_rng *r) { /* xoshiro256** */
    uint64_t *s = r->s;
    uint64_t out = lb_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = lb_rotl(s[3], 45);
    return out;
}

static double lb_uniform(lb_rng *r) { return (double)(lb_next(r) >> 11) * (1.0 / 9007199254740992.0); }

static uint32_t lb_below(lb_rng *r, uint32_t n) { /* unbiased: Lemire's multiply and reject */
    uint64_t m = (uint64_t)(uint32_t)lb_next(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)lb_next(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* An index drawn with probability p[i] / sum (p >= 0, sum > 0). */
static int32_t lb_pick(lb_rng *r, const double *p, int32_t n) {
    double sum = 0.0;
    for (int32_t i = 0; i < n; i++) sum += p[i];
    double x = lb_uniform(r) * sum;
    int32_t last = 0;
    for (int32_t i = 0; i < n; i++) {
        if (p[i] <= 0.0) continue;
        last = i;
        if (x < p[i]) return i;
        x -= p[i];
    }
    return last;
}

/* Portable popcount (the builtin is a library call without -mpopcnt, and this one is branch-free). */
static int lb_popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

/* A copy of a hand-loop table for a search: its log only up to the entries written (the log is never
 * read back, and copying all of it is most of the struct). */
static void lb_copy(bd_eng_table *dst, const bd_eng_table *src) {
    int32_t nlog = src->nlog < 0 ? 0 : src->nlog > BD_ENG_LOG_MAX ? BD_ENG_LOG_MAX : src->nlog;
    memcpy(dst, src, offsetof(bd_eng_table, log) + (size_t)nlog * sizeof src->log[0]);
}

/* --------------------------------------------------------------------------------- cards, games */

static int lb_ace_high(int32_t game) { return game == 1 || game == 4; }
static int lb_has_badugi(int32_t game) { return game <= 2; }
static int lb_has_low(int32_t game) { return game != 2; }

/* A card's value for comparisons (reference.py _value): ace 1, or 14 when aces are high; deuce 2... */
static int lb_value(uint8_t card, int ace_high) {
    int r = card >> 2;
    return (ace_high && r == 0) ? 14 : r + 1;
}

/* The rule-of-thumb keep set has one home, csrc/bots.c (the C hand loop's rule bot): the abstraction and
 * LBR's rule bot ask it with the bot's default top card (8). */
int32_t bd_keep_mask(int32_t game, const uint8_t *hand, int32_t n) {
    return bd_bot_keep(hand, n, game, 8);
}

int32_t bd_draw_mask(int32_t game, const uint8_t *hand, int32_t n, int32_t k) {
    int32_t keep = bd_keep_mask(game, hand, n);
    if (keep < 0 || k < 0 || k > n) return -1;
    int ace_high = lb_ace_high(game);
    /* Throw order: cards outside the keep set first, then kept ones; within each, the highest first,
       then the later position first (a fixed order). */
    int order[5];
    for (int32_t j = 0; j < n; j++) order[j] = j;
    for (int32_t a = 1; a < n; a++)
        for (int32_t b = a; b > 0; b--) {
            int x = order[b], y = order[b - 1];
            int kx = keep >> x & 1, ky = keep >> y & 1;
            int vx = lb_value(hand[x], ace_high), vy = lb_value(hand[y], ace_high);
            int before = kx != ky ? kx < ky : (vx != vy ? vx > vy : x > y);
            if (!before) break;
            order[b] = y;
            order[b - 1] = x;
        }
    int32_t mask = 0;
    for (int32_t i = 0; i < k; i++) mask |= 1 << order[i];
    return mask;
}

uint64_t bd_info_key(int32_t seat, uint32_t bucket, const uint8_t *tokens, int32_t n_tokens) {
    /* The public history, summarised: the betting round, the bets and raises of the rounds before it
       (small rounds 1 each, big rounds 2: the pot), each seat's count at the last draw, and the current
       round's (or draw's) actions in order. */
    uint8_t head[8], cur[BD_PLAY_MAX_TOKENS];
    int32_t ncur = 0, street = 0, pot = 0, last[2] = {0, 0}, round_bets = 0, drawing = 0;
    for (int32_t i = 0; tokens && i < n_tokens; i++) {
        int32_t kind = tokens[i] & 15, s = (tokens[i] >> 4) & 1;
        if (kind >= 3) { /* a draw */
            if (!drawing) { /* the betting round before it is over */
                pot += round_bets * (street < 2 ? 1 : 2);
                round_bets = 0;
                street++;
                drawing = 1;
                ncur = 0;
            }
            last[s] = kind - 3;
        } else {
            if (drawing) {
                drawing = 0;
                ncur = 0;
            }
            if (kind == 2) round_bets++;
        }
        if (ncur < BD_PLAY_MAX_TOKENS) cur[ncur++] = tokens[i];
    }
    head[0] = (uint8_t)seat;
    head[1] = (uint8_t)(street | drawing << 3);
    head[2] = (uint8_t)(pot > 255 ? 255 : pot);
    head[3] = (uint8_t)(last[0] | last[1] << 4);
    head[4] = (uint8_t)bucket;
    head[5] = (uint8_t)(bucket >> 8);
    head[6] = (uint8_t)(bucket >> 16);
    head[7] = (uint8_t)(bucket >> 24);
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a, 64 bits */
    for (int i = 0; i < 8; i++) h = (h ^ head[i]) * 0x100000001B3ull;
    for (int32_t i = 0; i < ncur; i++) h = (h ^ cur[i]) * 0x100000001B3ull;
    return h ? h : 1; /* 0 marks an empty slot */
}

int64_t bd_hand_bucket(const bd_abstraction *a, const uint8_t *hand, int32_t n) {
    if (!a || !a->class_of || !hand || n < 1 || n > 5) return -1;
    /* colex index of the sorted card ids */
    uint8_t c[5];
    for (int32_t i = 0; i < n; i++) {
        if (hand[i] > 51) return -1;
        c[i] = hand[i];
    }
    for (int32_t x = 1; x < n; x++)
        for (int32_t y = x; y > 0 && c[y] < c[y - 1]; y--) {
            uint8_t t = c[y];
            c[y] = c[y - 1];
            c[y - 1] = t;
        }
    int64_t idx = 0;
    for (int32_t i = 0; i < n; i++) {
        if (i > 0 && c[i] == c[i - 1]) return -1;
        idx += bd_binom[i][c[i]]; /* C(c[i], i + 1): badacey.h's table */
    }
    if (idx >= a->n_class_of) return -1;
    uint32_t cls = a->class_of[idx];
    if (!a->bucket_of) return cls;
    return (int64_t)cls < a->n_bucket_of ? (int64_t)a->bucket_of[cls] : -1;
}

/* ------------------------------------------------------------------------------------------ store */

static int64_t lb_find(const bd_mc_store *s, uint64_t key) {
    uint64_t mask = (uint64_t)s->capacity - 1;
    for (uint64_t i = key & mask, probes = 0; probes < (uint64_t)s->capacity; i = (i + 1) & mask, probes++) {
        if (s->keys[i] == key) return (int64_t)i;
        if (s->keys[i] == 0) return -1 - (int64_t)i; /* not there: the free slot */
    }
    return INT64_MIN;
}

/* The slot of `key` with n actions, inserted if new; -1 when full, -2 when the slot's size disagrees. */
static int64_t lb_slot(bd_mc_store *s, uint64_t key, int32_t n) {
    int64_t i = lb_find(s, key);
    if (i >= 0) /* a stored state (maybe read from a file): its slot must be its size and inside the pool */
        return s->n_actions[i] == n && (int64_t)s->offset[i] + n <= s->pool_used ? i : -2;
    if (i == INT64_MIN || (s->used + 1) * 4 > s->capacity * 3 || s->pool_used + n > s->pool) return -1;
    i = -1 - i;
    s->keys[i] = key;
    s->n_actions[i] = (uint8_t)n;
    s->offset[i] = (uint32_t)s->pool_used;
    memset(s->regret + s->pool_used, 0, (size_t)n * sizeof(float));
    memset(s->average + s->pool_used, 0, (size_t)n * sizeof(float));
    s->pool_used += n;
    s->used++;
    return i;
}

static int lb_store_ok(const bd_mc_store *s) {
    return s && s->keys && s->offset && s->n_actions && s->regret && s->average && s->capacity > 0 &&
           (s->capacity & (s->capacity - 1)) == 0 && s->pool >= 0 && s->pool <= (int64_t)UINT32_MAX &&
           s->used >= 0 && s->used <= s->capacity && s->pool_used >= 0 && s->pool_used <= s->pool;
}

int32_t bd_mc_lookup(const bd_mc_store *s, uint64_t key, int32_t n, double *out) {
    if (!lb_store_ok(s) || !out || n < 1 || n > 32) return BD_PLAY_BAD_ARGS;
    int64_t i = lb_find(s, key);
    double sum = 0.0;
    int32_t have = 0;
    if (i >= 0 && s->n_actions[i] == n && (int64_t)s->offset[i] + n <= s->pool_used) {
        const float *a = s->average + s->offset[i];
        for (int32_t j = 0; j < n; j++) sum += a[j] > 0 ? a[j] : 0.0;
        if (sum > 0.0)
            for (int32_t j = 0; j < n; j++) out[j] = (a[j] > 0 ? a[j] : 0.0) / sum;
        have = n;
    }
    if (!(sum > 0.0))
        for (int32_t j = 0; j < n; j++) out[j] = 1.0 / n;
    return have;
}

int32_t bd_mc_rehash(const bd_mc_store *from, bd_mc_store *to) {
    if (!lb_store_ok(from) || !lb_store_ok(to) || to->used != 0) return BD_PLAY_BAD_ARGS;
    for (int64_t i = 0; i < from->capacity; i++) {
        if (!from->keys[i]) continue;
        int32_t n = from->n_actions[i];
        if ((int64_t)from->offset[i] + n > from->pool_used) return BD_PLAY_BAD_ARGS;
        int64_t j = lb_slot(to, from->keys[i], n);
        if (j < 0) return BD_MC_FULL;
        memcpy(to->regret + to->offset[j], from->regret + from->offset[i], (size_t)n * sizeof(float));
        memcpy(to->average + to->offset[j], from->average + from->offset[i], (size_t)n * sizeof(float));
    }
    return BD_PLAY_OK;
}

/* --------------------------------------------------------------------------------------- policies */

/* The betting actions available under a legal code, in the order [fold, call, raise]. */
static int32_t lb_bet_actions(int32_t code, int32_t *kinds) {
    int32_t n = 0;
    if (code & 1) kinds[n++] = BD_ENG_FOLD;
    if (code & 2) kinds[n++] = BD_ENG_CALL;
    if (code & 4) kinds[n++] = BD_ENG_RAISE;
    return n;
}

/* The abstract draws of a strategy table: stand pat, the rule of thumb's discard, one card more. */
static void lb_table_draws(int32_t game, const uint8_t *hand, int32_t n, int32_t *masks) {
    int32_t keep = bd_keep_mask(game, hand, n);
    int32_t k = n - lb_popcount((uint64_t)keep);
    masks[0] = 0;
    masks[1] = bd_draw_mask(game, hand, n, k);
    masks[2] = bd_draw_mask(game, hand, n, k < n ? k + 1 : n);
}

/* The rule of thumb (game/bots.py RuleBot). */
static void lb_rule(int32_t game, const uint8_t *hand, int32_t n, int32_t street, int32_t draws, int32_t code,
                    double *out) {
    int32_t keep = bd_keep_mask(game, hand, n);
    if (code >= 8) {
        int32_t masks = 1 << n;
        for (int32_t m = 0; m < masks; m++) out[m] = 0.0;
        out[(~keep) & (masks - 1)] = 1.0;
        return;
    }
    out[0] = out[1] = out[2] = 0.0;
    int32_t missing = n - lb_popcount((uint64_t)keep);
    int32_t action = bd_bot_rule_bet(missing, draws - street, code); /* the one betting rule, csrc/bots.c */
    if (action == BD_ENG_FOLD) {
        out[1] = BD_BOT_FLOAT; /* the fold the bot turns into a call now and then */
        out[0] = 1.0 - BD_BOT_FLOAT;
    } else {
        out[action == BD_ENG_RAISE ? 2 : 1] = 1.0;
    }
}

int32_t bd_bot_policy(const bd_bot *bot, int32_t game, const uint8_t *hand, int32_t n, int32_t street,
                      int32_t draws, int32_t code, int32_t seat, const uint8_t *tokens, int32_t n_tokens,
                      double *out) {
    if (!bot || !hand || !out || n < 1 || n > 5 || game < 0 || game > 4 || street < 0 || draws < 0 || draws > 3 ||
        code < 1 || (code >= 8 && code != 8 + n) || (code < 8 && !(code & 2)) || n_tokens < 0 ||
        n_tokens > BD_PLAY_MAX_TOKENS || (n_tokens > 0 && !tokens))
        return BD_PLAY_BAD_ARGS;
    for (int32_t j = 0; j < n; j++)
        if (hand[j] > 51) return BD_PLAY_BAD_ARGS;
    if (bot->kind == BD_BOT_RULE) {
        lb_rule(game, hand, n, street, draws, code, out);
        return BD_PLAY_OK;
    }
    if (bot->kind == BD_BOT_RANDOM) {
        if (code >= 8) {
            for (int32_t m = 0; m < (1 << n); m++) out[m] = 1.0 / (1 << n);
        } else {
            int32_t k = (code & 1) + 1 + ((code >> 2) & 1);
            out[0] = (code & 1) ? 1.0 / k : 0.0;
            out[1] = 1.0 / k;
            out[2] = (code & 4) ? 1.0 / k : 0.0;
        }
        return BD_PLAY_OK;
    }
    if (bot->kind != BD_BOT_TABLE || !bot->store || !lb_store_ok(bot->store)) return BD_PLAY_BAD_ARGS;
    int64_t bucket = bd_hand_bucket(&bot->abstraction, hand, n);
    if (bucket < 0) return BD_PLAY_BAD_ARGS;
    uint64_t key = bd_info_key(seat, (uint32_t)bucket, tokens, n_tokens);
    double p[6];
    if (code >= 8) {
        int32_t masks[BD_MC_DRAWS];
        lb_table_draws(game, hand, n, masks);
        bd_mc_lookup(bot->store, key, BD_MC_DRAWS, p);
        for (int32_t m = 0; m < (1 << n); m++) out[m] = 0.0;
        for (int32_t k = 0; k < BD_MC_DRAWS; k++) out[masks[k]] += p[k];
    } else {
        int32_t kinds[3], na = lb_bet_actions(code, kinds);
        bd_mc_lookup(bot->store, key, na, p);
        out[0] = out[1] = out[2] = 0.0;
        for (int32_t a = 0; a < na; a++) out[kinds[a]] = p[a];
    }
    return BD_PLAY_OK;
}

/* ----------------------------------------------------------------------------------- evaluation */

typedef struct lb_game {
    int32_t game, hand_size, draws, n_cards;
    uint8_t deck[52];
    const uint32_t *table;
} lb_game;

static int lb_game_of(const bd_eng_config *cfg, const uint32_t *table, lb_game *g) {
    if (!cfg || !table || cfg->game < 0 || cfg->game > 4 || cfg->seats != 2 || cfg->ranks < 1 || cfg->ranks > 13 ||
        cfg->suits < 1 || cfg->suits > 4 || cfg->hand_size < 1 || cfg->hand_size > 5 || cfg->draws < 0 ||
        cfg->draws > 3)
        return 0;
    g->game = cfg->game;
    g->hand_size = cfg->hand_size;
    g->draws = cfg->draws;
    /* The deck (rules/decks.py small_deck): the R lowest ranks of the game's order, the first S suits. */
    uint64_t bits = 0;
    for (int32_t i = 0; i < cfg->ranks; i++) {
        int r = lb_ace_high(cfg->game) ? (1 + i) % 13 : i;
        for (int32_t s = 0; s < cfg->suits; s++) bits |= (uint64_t)1 << (4 * r + s);
    }
    g->n_cards = 0;
    for (int c = 0; c < 52; c++)
        if (bits >> c & 1) g->deck[g->n_cards++] = (uint8_t)c;
    g->table = table;
    return 1;
}

/* Per half, the rank of hand[0..n) (lower is better): [0] low, [1] badugi. */
static void lb_ranks(const lb_game *g, const uint8_t *hand, int32_t n, uint32_t *low, uint32_t *bad) {
    if (n == 5) {
        uint32_t e = bd_lookup5(g->table, hand[0], hand[1], hand[2], hand[3], hand[4]);
        *low = e & 0xFFFF;
        *bad = e >> 16;
    } else {
        *low = 0;
        *bad = bd_badugi_rank(g->table, hand, (size_t)n);
    }
}

/* The share of the pot hand a wins against hand b: per half 1, 1/2 or 0, averaged over the halves. */
static double lb_share(const lb_game *g, const uint8_t *a, const uint8_t *b, int32_t n) {
    uint32_t la, ba, lb, bb;
    lb_ranks(g, a, n, &la, &ba);
    lb_ranks(g, b, n, &lb, &bb);
    double s = 0.0;
    int halves = 0;
    if (lb_has_low(g->game)) {
        s += la < lb ? 1.0 : la == lb ? 0.5 : 0.0;
        halves++;
    }
    if (lb_has_badugi(g->game)) {
        s += ba < bb ? 1.0 : ba == bb ? 0.5 : 0.0;
        halves++;
    }
    return s / halves;
}

/* Replace the cards of `mask` in hand[0..n) (kept cards first, in order, then new ones: the engine's
 * order) with cards drawn from pool[*np ...] (shuffled draws from the end). */
static void lb_redraw(uint8_t *hand, int32_t n, int32_t mask, uint8_t *pool, int32_t *np, lb_rng *r,
                      uint64_t *seen) {
    uint8_t out[5];
    int32_t k = 0;
    for (int32_t j = 0; j < n; j++)
        if (!(mask >> j & 1)) out[k++] = hand[j];
    while (k < n && *np > 0) {
        uint32_t j = lb_below(r, (uint32_t)*np);
        uint8_t c = pool[j];
        pool[j] = pool[--*np];
        out[k++] = c;
        if (seen) *seen |= (uint64_t)1 << c;
    }
    /* A small deck's pool can run dry in a rollout (the real hand would reshuffle): keep the thrown cards
       then, so the hand stays whole. */
    for (int32_t j = 0; j < n && k < n; j++)
        if (mask >> j & 1) out[k++] = hand[j];
    memcpy(hand, out, (size_t)n);
}

/* ------------------------------------------------------------------------------------------- LBR */

typedef struct lb_particle {
    uint8_t hand[5];
    uint64_t seen;
    double w;
} lb_particle;

typedef struct lb_lbr {
    lb_game g;
    const bd_bot *bot;
    lb_rng rng;
    int32_t k;               /* particles */
    lb_particle *p, *tmp;
    double *fold;            /* per particle: the bot's fold probability after a raise */
    double *share;           /* per particle: a rollout's share */
    uint8_t tokens[BD_PLAY_MAX_TOKENS];
    int32_t ntok;
    int32_t me, bot_seat;
    uint64_t my_seen;
    int32_t draws_done[2];
    double first; /* the LBR's result in the first hand of the pair */
} lb_lbr;

static double lb_total(const lb_lbr *L) {
    double s = 0.0;
    for (int32_t i = 0; i < L->k; i++) s += L->p[i].w;
    return s;
}

static void lb_resample(lb_lbr *L) {
    double s = 0.0, s2 = 0.0;
    for (int32_t i = 0; i < L->k; i++) {
        s += L->p[i].w;
        s2 += L->p[i].w * L->p[i].w;
    }
    if (!(s > 0.0) || s * s >= 0.5 * L->k * s2) return;
    /* systematic resampling */
    double step = s / L->k, u = lb_uniform(&L->rng) * step, c = L->p[0].w;
    int32_t j = 0;
    for (int32_t i = 0; i < L->k; i++) {
        double target = u + i * step;
        while (c < target && j < L->k - 1) c += L->p[++j].w;
        L->tmp[i] = L->p[j];
        L->tmp[i].w = 1.0;
    }
    memcpy(L->p, L->tmp, (size_t)L->k * sizeof *L->p);
}

/* The cards neither the LBR nor particle q ever held: the pool a rollout deals from. */
static int32_t lb_pool(const lb_lbr *L, uint64_t other, uint8_t *pool) {
    int32_t n = 0;
    for (int32_t i = 0; i < L->g.n_cards; i++) {
        uint8_t c = L->g.deck[i];
        if (!((L->my_seen | other) >> c & 1)) pool[n++] = c;
    }
    return n;
}

/* One rollout: my hand (after `my_mask` is thrown now, when >= 0) against particle q, both then drawing
 * their remaining draws by the rule of thumb's keep set.  Returns my share of the pot. */
static double lb_rollout(lb_lbr *L, const uint8_t *mine, int32_t my_mask, int32_t my_left, const lb_particle *q,
                         int32_t its_left) {
    int32_t n = L->g.hand_size, np;
    uint8_t pool[52], a[5], b[5];
    memcpy(a, mine, (size_t)n);
    memcpy(b, q->hand, (size_t)n);
    np = lb_pool(L, q->seen, pool);
    if (my_mask >= 0) lb_redraw(a, n, my_mask, pool, &np, &L->rng, NULL);
    while (my_left > 0 || its_left > 0) {
        if (its_left > 0) {
            lb_redraw(b, n, (~bd_keep_mask(L->g.game, b, n)) & ((1 << n) - 1), pool, &np, &L->rng, NULL);
            its_left--;
        }
        if (my_left > 0) {
            lb_redraw(a, n, (~bd_keep_mask(L->g.game, a, n)) & ((1 << n) - 1), pool, &np, &L->rng, NULL);
            my_left--;
        }
    }
    return lb_share(&L->g, a, b, n);
}

static void lb_push(lb_lbr *L, int32_t seat, int32_t kind) {
    if (L->ntok < BD_PLAY_MAX_TOKENS) L->tokens[L->ntok++] = (uint8_t)(seat << 4 | kind);
}

/* The bot acted (betting kind, or a draw of `count` cards): reweigh the particles. */
static void lb_observe(lb_lbr *L, const bd_eng_table *t, int32_t code, int32_t kind, int32_t count) {
    int32_t n = L->g.hand_size;
    double probs[32];
    for (int32_t i = 0; i < L->k; i++) {
        lb_particle *q = &L->p[i];
        if (q->w == 0.0) continue;
        if (bd_bot_policy(L->bot, L->g.game, q->hand, n, t->street, L->g.draws, code, L->bot_seat, L->tokens,
                          L->ntok, probs) != BD_PLAY_OK) {
            q->w = 0.0;
            continue;
        }
        if (code < 8) {
            q->w *= probs[kind];
            continue;
        }
        double pk = 0.0, sub[32];
        for (int32_t m = 0; m < (1 << n); m++) {
            sub[m] = lb_popcount((uint64_t)m) == count ? probs[m] : 0.0;
            pk += sub[m];
        }
        q->w *= pk;
        if (!(pk > 0.0)) continue;
        int32_t mask = lb_pick(&L->rng, sub, 1 << n);
        uint8_t pool[52];
        int32_t np = lb_pool(L, q->seen, pool);
        lb_redraw(q->hand, n, mask, pool, &np, &L->rng, &q->seen);
    }
}

/* My draw dealt me new cards: no particle can hold them. */
static void lb_exclude(lb_lbr *L, uint64_t cards) {
    for (int32_t i = 0; i < L->k; i++)
        if (L->p[i].seen & cards) L->p[i].w = 0.0;
}

/* The LBR's betting action (bd_eng_act kind). */
static int32_t lb_bet(lb_lbr *L, const bd_eng_table *t, int32_t code, int64_t call, int64_t target,
                      bd_lbr_result *out) {
    int32_t n = L->g.hand_size, me = L->me, bot = L->bot_seat;
    double total = lb_total(L);
    out->decisions++;
    if (!(total > 0.0)) return BD_ENG_CALL; /* no belief left: check or call down */
    int32_t left = L->g.draws - t->street;
    double wp = 0.0, fold_w = 0.0, wp_called = 0.0, called_w = 0.0;
    int can_raise = code & 4;
    double probs[32];
    int32_t ntok = L->ntok;
    if (can_raise) lb_push(L, me, BD_ENG_RAISE); /* the bot's view after my raise */
    int32_t bot_code = 1 | 2 | ((t->nbets + 1 < t->cfg.cap) ? 4 : 0);
    for (int32_t i = 0; i < L->k; i++) {
        lb_particle *q = &L->p[i];
        if (q->w == 0.0) continue;
        double s = lb_rollout(L, t->hands[me], -1, left, q, left);
        wp += q->w * s;
        if (can_raise) {
            double f = 0.0;
            if (bd_bot_policy(L->bot, L->g.game, q->hand, n, t->street, L->g.draws, bot_code, bot, L->tokens, L->ntok,
                              probs) == BD_PLAY_OK)
                f = probs[0];
            fold_w += q->w * f;
            wp_called += q->w * (1.0 - f) * s;
            called_w += q->w * (1.0 - f);
        }
    }
    L->ntok = ntok;
    wp /= total;
    double c_me = (double)t->contrib[me], c_bot = (double)t->contrib[bot];
    double best = (2.0 * wp - 1.0) * (c_me + (double)call);
    int32_t kind = BD_ENG_CALL;
    if (can_raise) {
        double fp = fold_w / total;
        double wpc = called_w > 0.0 ? wp_called / called_w : wp;
        double x = c_me + (double)(target - t->sbet[me]);
        double u = fp * c_bot + (1.0 - fp) * (2.0 * wpc - 1.0) * x;
        if (u > best) {
            best = u;
            kind = BD_ENG_RAISE;
        }
    }
    if ((code & 1) && -c_me > best) kind = BD_ENG_FOLD;
    if (kind == BD_ENG_RAISE) out->raises++;
    if (kind == BD_ENG_FOLD) out->folds++;
    return kind;
}

/* The LBR's discard mask: the abstract draw (0..n cards) of highest rollout share. */
static int32_t lb_draw(lb_lbr *L, const bd_eng_table *t) {
    int32_t n = L->g.hand_size, me = L->me;
    int32_t my_left = L->g.draws - L->draws_done[me] - 1;
    int32_t its_left = L->g.draws - L->draws_done[L->bot_seat];
    double total = lb_total(L);
    int32_t keep = bd_keep_mask(L->g.game, t->hands[me], n);
    int32_t best_mask = (~keep) & ((1 << n) - 1);
    if (!(total > 0.0)) return best_mask;
    double best = -1.0;
    for (int32_t k = 0; k <= n; k++) {
        int32_t mask = bd_draw_mask(L->g.game, t->hands[me], n, k);
        double s = 0.0;
        for (int32_t i = 0; i < L->k; i++)
            if (L->p[i].w != 0.0) s += L->p[i].w * lb_rollout(L, t->hands[me], mask, my_left, &L->p[i], its_left);
        if (s > best) {
            best = s;
            best_mask = mask;
        }
    }
    return best_mask;
}

static void lb_start(lb_lbr *L, const bd_eng_table *t) {
    int32_t n = L->g.hand_size;
    L->ntok = 0;
    L->draws_done[0] = L->draws_done[1] = 0;
    L->my_seen = 0;
    for (int32_t j = 0; j < n; j++) L->my_seen |= (uint64_t)1 << t->hands[L->me][j];
    uint8_t pool[52];
    for (int32_t i = 0; i < L->k; i++) {
        int32_t np = lb_pool(L, 0, pool);
        lb_particle *q = &L->p[i];
        q->seen = 0;
        q->w = 1.0;
        for (int32_t j = 0; j < n; j++) {
            uint32_t x = lb_below(&L->rng, (uint32_t)np);
            q->hand[j] = pool[x];
            q->seen |= (uint64_t)1 << pool[x];
            pool[x] = pool[--np];
        }
    }
}

int32_t bd_lbr_run(const bd_eng_config *cfg, const uint32_t *table, const bd_bot *bot, int64_t pairs,
                   int32_t particles, uint64_t seed, bd_lbr_result *out) {
    lb_lbr L;
    memset(&L, 0, sizeof L);
    if (!out || !bot || pairs < 0 || particles < 1 || particles > (1 << 20) || !lb_game_of(cfg, table, &L.g))
        return BD_PLAY_BAD_ARGS;
    if (bot->kind < BD_BOT_RANDOM || bot->kind > BD_BOT_TABLE ||
        (bot->kind == BD_BOT_TABLE && (!lb_store_ok(bot->store) || !bot->abstraction.class_of)))
        return BD_PLAY_BAD_ARGS;
    bd_eng_table *t = malloc(sizeof *t);
    L.p = malloc((size_t)particles * sizeof *L.p);
    L.tmp = malloc((size_t)particles * sizeof *L.tmp);
    int32_t rc = BD_PLAY_OK;
    if (!t || !L.p || !L.tmp) {
        rc = BD_PLAY_BAD_ARGS;
        goto done;
    }
    L.k = particles;
    L.bot = bot;
    lb_seed(&L.rng, seed ^ 0x5DEECE66Dull);
    lb_rng bot_rng;
    lb_seed(&bot_rng, seed ^ 0xB07B07B07ull);
    if (bd_eng_init(t, cfg, seed) != BD_ENG_OK) {
        rc = BD_PLAY_ENGINE;
        goto done;
    }
    for (int64_t h = 0; h < 2 * pairs; h++) {
        L.me = (int32_t)(h & 1); /* the button (seat 0) first, then the big blind */
        L.bot_seat = 1 - L.me;
        if (bd_eng_deal(t, 0) != BD_ENG_OK) {
            rc = BD_PLAY_ENGINE;
            goto done;
        }
        lb_start(&L, t);
        int lost = 0;
        while (t->phase != BD_ENG_COMPLETE) {
            int64_t call, target;
            int32_t code = bd_eng_legal(t, &call, &target), seat = t->to_act, kind, mask = 0;
            if (code <= 0) {
                rc = BD_PLAY_ENGINE;
                goto done;
            }
            int32_t n = t->hand_len[seat];
            if (seat == L.bot_seat) {
                double probs[32];
                if (bd_bot_policy(bot, L.g.game, t->hands[seat], n, t->street, L.g.draws, code, seat, L.tokens, L.ntok,
                                  probs) != BD_PLAY_OK) {
                    rc = BD_PLAY_BAD_ARGS;
                    goto done;
                }
                if (code >= 8) {
                    kind = BD_ENG_DRAW;
                    mask = lb_pick(&bot_rng, probs, 1 << n);
                    lb_observe(&L, t, code, 0, lb_popcount((uint64_t)mask));
                    lb_push(&L, seat, 3 + lb_popcount((uint64_t)mask));
                    L.draws_done[seat]++;
                } else {
                    kind = lb_pick(&bot_rng, probs, 3);
                    lb_observe(&L, t, code, kind, 0);
                    lb_push(&L, seat, kind);
                }
                if (!(lb_total(&L) > 0.0)) lost = 1;
                lb_resample(&L);
            } else if (code >= 8) {
                kind = BD_ENG_DRAW;
                mask = lb_draw(&L, t);
            } else {
                kind = lb_bet(&L, t, code, call, target, out);
            }
            uint64_t before = 0;
            for (int32_t j = 0; j < n; j++) before |= (uint64_t)1 << t->hands[seat][j];
            if (bd_eng_act(t, table, kind, mask) != BD_ENG_OK) {
                rc = BD_PLAY_ENGINE;
                goto done;
            }
            if (seat == L.me) {
                if (kind == BD_ENG_DRAW) {
                    uint64_t after = 0;
                    for (int32_t j = 0; j < n; j++) after |= (uint64_t)1 << t->hands[seat][j];
                    uint64_t fresh = after & ~before;
                    L.my_seen |= fresh;
                    lb_exclude(&L, fresh);
                    lb_push(&L, seat, 3 + lb_popcount((uint64_t)mask));
                    L.draws_done[seat]++;
                    if (!(lb_total(&L) > 0.0)) lost = 1;
                    lb_resample(&L);
                } else {
                    lb_push(&L, seat, kind);
                }
            }
        }
        double net = (double)(t->stacks[L.me] - t->cfg.stacks[L.me]);
        out->hands++;
        out->sum[L.me] += net;
        out->sum_sq[L.me] += net * net;
        out->count[L.me]++;
        out->lost += lost;
        if (L.me == 1) {
            double pair = 0.5 * (net + L.first);
            out->pair_sum += pair;
            out->pair_sum_sq += pair * pair;
            out->pairs++;
        } else {
            L.first = net;
        }
    }
done:
    free(t);
    free(L.p);
    free(L.tmp);
    return rc;
}

/* ------------------------------------------------------------------------------------------ MCCFR */

typedef struct lb_mc {
    lb_game g;
    bd_mc_store *store;
    const bd_abstraction *abs;
    lb_rng rng;
    double t; /* iteration weight */
    uint8_t tokens[BD_PLAY_MAX_TOKENS];
    int32_t ntok;
    int32_t full;
} lb_mc;

static double lb_mc_walk(lb_mc *M, const bd_eng_table *t, int32_t p) {
    if (t->phase == BD_ENG_COMPLETE) return (double)(t->stacks[p] - t->cfg.stacks[p]);
    int64_t call, target;
    int32_t code = bd_eng_legal(t, &call, &target), seat = t->to_act;
    if (code <= 0 || M->full) {
        M->full = M->full ? M->full : BD_PLAY_ENGINE;
        return 0.0;
    }
    int32_t n = t->hand_len[seat], kinds[3], na;
    int32_t masks[BD_MC_DRAWS];
    if (code >= 8) {
        na = BD_MC_DRAWS;
        lb_table_draws(M->g.game, t->hands[seat], n, masks);
    } else {
        na = lb_bet_actions(code, kinds);
    }
    int64_t bucket = bd_hand_bucket(M->abs, t->hands[seat], n);
    if (bucket < 0) {
        M->full = BD_PLAY_BAD_ARGS;
        return 0.0;
    }
    uint64_t key = bd_info_key(seat, (uint32_t)bucket, M->tokens, M->ntok);
    int64_t slot = lb_slot(M->store, key, na);
    if (slot < 0) {
        M->full = slot == -1 ? BD_MC_FULL : BD_PLAY_BAD_ARGS;
        return 0.0;
    }
    float *r = M->store->regret + M->store->offset[slot];
    float *avg = M->store->average + M->store->offset[slot];
    double sigma[6], sum = 0.0;
    for (int32_t a = 0; a < na; a++) sum += r[a] > 0 ? r[a] : 0.0;
    for (int32_t a = 0; a < na; a++) sigma[a] = sum > 0.0 ? (r[a] > 0 ? r[a] / sum : 0.0) : 1.0 / na;
    if (seat != p) { /* the opponent: its average takes this visit, one action is sampled */
        for (int32_t a = 0; a < na; a++) avg[a] += (float)(M->t * sigma[a]);
        int32_t a = lb_pick(&M->rng, sigma, na);
        bd_eng_table child;
        lb_copy(&child, t);
        int32_t kind = code >= 8 ? BD_ENG_DRAW : kinds[a];
        if (bd_eng_act(&child, M->g.table, kind, code >= 8 ? masks[a] : 0) != BD_ENG_OK) {
            M->full = BD_PLAY_ENGINE;
            return 0.0;
        }
        int32_t saved = M->ntok;
        if (M->ntok < BD_PLAY_MAX_TOKENS)
            M->tokens[M->ntok++] = (uint8_t)(seat << 4 | (code >= 8 ? 3 + lb_popcount((uint64_t)masks[a]) : kind));
        double v = lb_mc_walk(M, &child, p);
        M->ntok = saved;
        return v;
    }
    double values[6], v = 0.0;
    for (int32_t a = 0; a < na; a++) {
        bd_eng_table child;
        lb_copy(&child, t);
        int32_t kind = code >= 8 ? BD_ENG_DRAW : kinds[a];
        if (bd_eng_act(&child, M->g.table, kind, code >= 8 ? masks[a] : 0) != BD_ENG_OK) {
            M->full = BD_PLAY_ENGINE;
            return 0.0;
        }
        int32_t saved = M->ntok;
        if (M->ntok < BD_PLAY_MAX_TOKENS)
            M->tokens[M->ntok++] = (uint8_t)(seat << 4 | (code >= 8 ? 3 + lb_popcount((uint64_t)masks[a]) : kind));
        values[a] = lb_mc_walk(M, &child, p);
        M->ntok = saved;
        v += sigma[a] * values[a];
    }
    if (!M->full)
        for (int32_t a = 0; a < na; a++) r[a] += (float)(M->t * (values[a] - v));
    return v;
}

int32_t bd_mc_run(const bd_eng_config *cfg, const uint32_t *table, bd_mc_store *store,
                  const bd_abstraction *abstraction, int64_t first_iteration, int64_t iterations, uint64_t seed) {
    lb_mc M;
    memset(&M, 0, sizeof M);
    if (!lb_store_ok(store) || !abstraction || !abstraction->class_of || first_iteration < 1 || iterations < 0 ||
        !lb_game_of(cfg, table, &M.g))
        return BD_PLAY_BAD_ARGS;
    M.store = store;
    M.abs = abstraction;
    lb_seed(&M.rng, seed);
    bd_eng_table *t = malloc(sizeof *t);
    if (!t) return BD_PLAY_BAD_ARGS;
    int32_t rc = bd_eng_init(t, cfg, seed) == BD_ENG_OK ? BD_PLAY_OK : BD_PLAY_ENGINE;
    for (int64_t it = 0; it < iterations && rc == BD_PLAY_OK; it++) {
        M.t = (double)(first_iteration + it);
        for (int32_t p = 0; p < 2 && rc == BD_PLAY_OK; p++) {
            if (bd_eng_deal(t, 0) != BD_ENG_OK) {
                rc = BD_PLAY_ENGINE;
                break;
            }
            M.ntok = 0;
            lb_mc_walk(&M, t, p);
            if (M.full) rc = M.full;
        }
    }
    free(t);
    return rc;
}
