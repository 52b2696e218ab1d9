/* bots.c -- see bots.h.  Each function names the Python code (badacey_fast/game/bots.py,
 * badacey_fast/draw/policy.py) it twins; the rule of thumb itself is stated there. */
#include "bots.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------ random */
/* xoshiro256** seeded by splitmix64 and Lemire's unbiased bounded draw: the generator of engine.c, kept
 * here too so that each file stands alone (the bots' streams are theirs, not the deck's). */

static uint64_t bd_bot_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t bd_bot_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t bd_bot_next(uint64_t *s)
{
    const uint64_t out = bd_bot_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bd_bot_rotl(s[3], 45);
    return out;
}

static uint32_t bd_bot_below(uint64_t *s, uint32_t n)
{
    uint64_t m = (bd_bot_next(s) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        const uint32_t floor = (uint32_t)(-n) % n;
        while (low < floor) {
            m = (bd_bot_next(s) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* random.random(): a double uniform in [0, 1) with 53 random bits. */
static double bd_bot_unit(uint64_t *s) { return (double)(bd_bot_next(s) >> 11) * (1.0 / 9007199254740992.0); }

int32_t bd_bots_init(bd_bots *b, const int32_t *kinds, const uint64_t *seeds, int32_t seats)
{
    if (b == NULL || kinds == NULL || seeds == NULL || seats < 2 || seats > BD_ENG_SEATS)
        return -1;
    for (int32_t s = 0; s < seats; s++)
        if (kinds[s] != BD_BOT_RANDOM && kinds[s] != BD_BOT_RULE)
            return -1;
    memset(b, 0, sizeof *b);
    for (int32_t s = 0; s < seats; s++) {
        uint64_t x = seeds[s];
        for (int i = 0; i < 4; i++)
            b->rng[s][i] = bd_bot_splitmix(&x);
        b->kind[s] = kinds[s];
    }
    b->seats = seats;
    return 0;
}

/* ------------------------------------------------------------------------------------------ keep_cards */

/* draw/policy.py: ace 1 (14 when aces are high), deuce 2 ... king 13. */
static int32_t bd_bot_value(uint8_t card, int ace_high)
{
    const int32_t r = card >> 2;
    return ace_high && r == 0 ? 14 : r + 1;
}

/* The subsets of five positions of each size 4, 3, 2, 1, as bit masks in itertools.combinations order;
 * a hand of n < 5 cards takes those within its n positions, in the same order (combinations of range(n)). */
static const uint8_t bd_bot_subsets[4][10] = {
    {15, 23, 27, 29, 30},
    {7, 11, 19, 13, 21, 25, 14, 22, 26, 28},
    {3, 5, 9, 17, 6, 10, 18, 12, 20, 24},
    {1, 2, 4, 8, 16},
};
static const int32_t bd_bot_nsubsets[4] = {5, 10, 10, 5};
/* The pairs of five positions, (0, 1), (0, 2), ... (3, 4); and for each subset mask, the pairs within it
 * (bit p = bd_bot_pair[p]). */
static const uint8_t bd_bot_pair[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                           {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
static const uint16_t bd_bot_pairs_in[32] = {0,   0,   0,   1,   0,   2,   16,  19,  0,   4,   32,
                                             37,  128, 134, 176, 183, 0,   8,   64,  73,  256, 266,
                                             336, 347, 512, 524, 608, 621, 896, 910, 1008, 1023};

/* keep_cards on a checked hand.  The best badugi is searched as rules/reference.py best_badugi searches it:
 * sizes from the largest down and, within a size, subsets in itertools.combinations order, the first of
 * equal values kept -- so that of two equal badugis (a rank held in two suits) the same one is kept. */
static int32_t bd_bot_keep_checked(const uint8_t *hand, int32_t n, int badugi, int low, int ace_high, int32_t top)
{
    int32_t value[5];
    for (int32_t i = 0; i < n; i++)
        value[i] = bd_bot_value(hand[i], ace_high);
    int32_t kept = 0;
    uint32_t ranks = 0;
    if (badugi) {
        /* The pairs of positions whose cards clash (same suit or same rank): a subset is a badugi when it
         * holds none of them. */
        uint32_t clash = 0;
        for (int32_t p = 0; p < 10; p++) {
            const int32_t i = bd_bot_pair[p][0], j = bd_bot_pair[p][1];
            if (j < n && (((hand[i] ^ hand[j]) & 3) == 0 || hand[i] >> 2 == hand[j] >> 2))
                clash |= 1u << p;
        }
        int32_t order[5]; /* positions by value, highest first: a subset's key is read off in this order */
        for (int32_t i = 0; i < n; i++) {
            int32_t m = i;
            while (m > 0 && value[order[m - 1]] < value[i]) {
                order[m] = order[m - 1];
                m--;
            }
            order[m] = i;
        }
        int32_t chosen = 0, best[4] = {0, 0, 0, 0};
        for (int32_t size = n < 4 ? n : 4; size >= 1 && !chosen; size--) {
            const uint8_t *subsets = bd_bot_subsets[4 - size];
            for (int32_t q = 0; q < bd_bot_nsubsets[4 - size]; q++) {
                const int32_t mask = subsets[q];
                /* a position past the hand (a smaller hand's combinations skip it), or a clash */
                if (mask >> n || (bd_bot_pairs_in[mask] & clash))
                    continue;
                int32_t key[4] = {0, 0, 0, 0}, k = 0;
                for (int32_t r = 0; r < n; r++)
                    if (mask >> order[r] & 1)
                        key[k++] = value[order[r]];
                int better = !chosen;
                for (int32_t j = 0; j < size && !better; j++) {
                    if (key[j] != best[j]) {
                        better = key[j] < best[j];
                        break;
                    }
                }
                if (better) {
                    memcpy(best, key, sizeof key);
                    chosen = mask;
                }
            }
        }
        for (int32_t i = 0; i < n; i++)
            if ((chosen >> i & 1) && value[i] <= top + 1) {
                kept |= 1 << i;
                ranks |= 1u << (hand[i] >> 2);
            }
    }
    if (low) {
        int32_t order[5]; /* positions by value, ties in hand order (Python's sort is stable) */
        for (int32_t i = 0; i < n; i++) {
            int32_t m = i;
            while (m > 0 && value[order[m - 1]] > value[i]) {
                order[m] = order[m - 1];
                m--;
            }
            order[m] = i;
        }
        for (int32_t k = 0; k < n; k++) {
            const int32_t i = order[k];
            const uint32_t rb = 1u << (hand[i] >> 2);
            if (!(ranks & rb) && value[i] <= top) {
                kept |= 1 << i;
                ranks |= rb;
            }
        }
    }
    return kept;
}

/* rules/games.py SCORINGS, by PRESETS index: which halves a game plays and whether aces are high. */
static const uint8_t bd_bot_badugi[5] = {1, 1, 1, 0, 0}, bd_bot_low[5] = {1, 1, 0, 1, 1},
                     bd_bot_ace_high[5] = {0, 1, 0, 0, 1};

int32_t bd_bot_keep(const uint8_t *hand, int32_t n, int32_t game, int32_t top)
{
    if (hand == NULL || n < 1 || n > 5 || game < 0 || game > 4 || top < 2 || top > 13)
        return -1;
    uint64_t seen = 0;
    for (int32_t i = 0; i < n; i++) {
        if (hand[i] > 51 || (seen >> hand[i] & 1))
            return -1;
        seen |= (uint64_t)1 << hand[i];
    }
    return bd_bot_keep_checked(hand, n, bd_bot_badugi[game], bd_bot_low[game], bd_bot_ace_high[game], top);
}

/* ------------------------------------------------------------------------------------------ decisions */

/* RandomBot.__call__: uniform over the legal betting actions, in legal_actions' order; when drawing, one
 * random bit per card held. */
static int32_t bd_bot_random(uint64_t *rng, const bd_eng_table *t, int32_t code, int32_t *discards)
{
    if (t->phase == BD_ENG_DRAWING) {
        const uint32_t bits = (uint32_t)(bd_bot_next(rng) >> 59);
        *discards = (int32_t)(bits & ((1u << t->hand_len[t->to_act]) - 1));
        return BD_ENG_DRAW;
    }
    int32_t kinds[3], k = 0;
    for (int32_t b = 0; b < 3; b++)
        if (code >> b & 1)
            kinds[k++] = b;
    return k ? kinds[bd_bot_below(rng, (uint32_t)k)] : -1;
}

/* RuleBot.__call__ (its rule of thumb, decision for decision). */
static int32_t bd_bot_rule(bd_bots *b, const bd_eng_table *t, int32_t code, int32_t *discards)
{
    const int32_t i = t->to_act, n = t->hand_len[i], game = t->cfg.game;
    uint64_t *rng = b->rng[i];
    if (b->held_len[i] != n || b->held_game[i] != game || memcmp(b->held[i], t->hands[i], (size_t)n) != 0) {
        b->held_keep[i] = bd_bot_keep_checked(t->hands[i], n, bd_bot_badugi[game], bd_bot_low[game],
                                              bd_bot_ace_high[game], 8);
        memcpy(b->held[i], t->hands[i], (size_t)n);
        b->held_len[i] = (uint8_t)n;
        b->held_game[i] = (uint8_t)game;
    }
    const int32_t keep = b->held_keep[i];
    if (t->phase == BD_ENG_DRAWING) {
        *discards = ~keep & ((1 << n) - 1);
        return BD_ENG_DRAW;
    }
    int32_t missing = n;
    for (int32_t j = 0; j < n; j++)
        missing -= keep >> j & 1;
    const int32_t action = bd_bot_rule_bet(missing, t->cfg.draws - t->street, code);
    if (action == BD_ENG_FOLD && bd_bot_unit(rng) < BD_BOT_FLOAT) /* the occasional float */
        return BD_ENG_CALL;
    return action;
}

int32_t bd_bot_rule_bet(int32_t missing, int32_t draws_left, int32_t code)
{
    if (missing == 0 || (missing == 1 && draws_left >= 2))
        return code & 4 ? BD_ENG_RAISE : BD_ENG_CALL;
    if (missing == 1 || (missing == 2 && draws_left == 3))
        return BD_ENG_CALL;
    if (!(code & 1)) /* nothing to call: check */
        return BD_ENG_CALL;
    return BD_ENG_FOLD;
}

int32_t bd_bots_decide(void *ctx, const bd_eng_table *t, int32_t code, int64_t call, int64_t target,
                       int32_t *discards)
{
    (void)call; /* the engine's decide callback passes them; these bots read the table's own fields */
    (void)target;
    bd_bots *b = (bd_bots *)ctx;
    const int32_t s = t->to_act;
    if (s < 0 || s >= b->seats) /* bots for fewer seats than the table's: refused by the engine as illegal */
        return -1;
    return b->kind[s] == BD_BOT_RULE ? bd_bot_rule(b, t, code, discards)
                                     : bd_bot_random(b->rng[s], t, code, discards);
}
