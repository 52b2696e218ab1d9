/* engine.c -- see engine.h.  Each function names the Game method (badacey_fast/game) it twins; the rule
 * itself is stated there and in RULES.md, not again here. */
#include "engine.h"

#include <string.h>

#include "badacey.h"
#include "observe.h"
#include "showdown.h"

/* ------------------------------------------------------------------------------------------ random */

static uint64_t bd_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t bd_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t bd_next(uint64_t *s)
{
    const uint64_t out = bd_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bd_rotl(s[3], 45);
    return out;
}

/* Uniform in 0..n-1 (n >= 1), unbiased: Lemire's multiply, rejecting the few low products that would
 * favour some values. */
static uint32_t bd_below(uint64_t *s, uint32_t n)
{
    uint64_t m = (bd_next(s) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        const uint32_t floor = (uint32_t)(-n) % n;
        while (low < floor) {
            m = (bd_next(s) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* ------------------------------------------------------------------------------------------ checks */

/* The game's deck as a bit set of card ids (rules/decks.py small_deck): the `ranks` lowest ranks of the
 * game's order (ace-low: A, 2, ...; ace-high badeucy/27: 2, 3, ..., the ace 13th) in suits 0..suits-1.
 * The config is checked (bd_cfg_ok) before this is called. */
#define BD_FULL_DECK ((((uint64_t)1) << 52) - 1)

static uint64_t bd_deck_mask(const bd_eng_config *c)
{
    if (c->ranks == 13 && c->suits == 4) /* the full deck: every check of every step asks */
        return BD_FULL_DECK;
    const int ace_high = c->game == 1 || c->game == 4;
    const uint64_t suits = ((uint64_t)1 << c->suits) - 1;
    uint64_t mask = 0;
    for (int32_t k = 0; k < c->ranks; k++) {
        const int32_t r = ace_high ? (k + 1) % 13 : k;
        mask |= suits << (4 * r);
    }
    return mask;
}

static int bd_cfg_ok(const bd_eng_config *c)
{
    if (c->seats < 2 || c->seats > BD_ENG_SEATS || c->learner < 0 || c->learner >= c->seats)
        return 0;
    if (c->game < 0 || c->game > 4 || c->small_blind < 0 || c->big_blind < c->small_blind || c->ante < 0)
        return 0;
    if (c->big_blind == 0 && c->ante == 0)
        return 0;
    if (c->small_bet <= 0 || c->big_bet <= 0 || c->cap < 1 || c->cap > BD_ENG_NO_CAP)
        return 0;
    /* The game's size: only Badugi deals fewer than five cards or uses fewer than four suits. */
    if (c->ranks < 1 || c->ranks > 13 || c->draws < 0 || c->draws > 3)
        return 0;
    if (c->game == 2 ? (c->hand_size < 1 || c->hand_size > 4 || c->suits < 2 || c->suits > 4)
                     : (c->hand_size != 5 || c->suits != 4))
        return 0;
    /* Chips stay far from int64 overflow and within the observation's exact range. */
    const int64_t lim = (int64_t)1 << 40;
    for (int32_t s = 0; s < c->seats; s++)
        if (c->stacks[s] <= 0 || c->stacks[s] > lim)
            return 0;
    if (c->big_blind > lim || c->ante > lim || c->small_bet > lim
        || c->big_bet > lim)
        return 0;
    return (c->heads_up_uncapped == 0 || c->heads_up_uncapped == 1) && (c->burn == 0 || c->burn == 1)
           && (c->odd_low == 0 || c->odd_low == 1);
}

/* The fields of a hand in play agree with each other (on a state whose fields are each in range): the
 * rounds index the seats through these counts and flags (an empty draw queue for a round that thinks two
 * seats are live would be read at queue[-1]; a short live hand is read whole at the showdown). */
static int bd_hand_consistent(const bd_eng_table *t)
{
    const int32_t n = t->cfg.seats;
    int64_t chips = 0, start = 0;
    int32_t live = 0, active = 0;
    for (int32_t i = 0; i < n; i++) {
        if (t->folded[i] > 1 || t->pending[i] > 1 || t->can_raise[i] > 1)
            return 0;
        if (t->phase == BD_ENG_COMPLETE)
            continue;
        if (!t->folded[i] && t->hand_len[i] != t->hand_size)
            return 0;
        /* Only a live seat with chips is still to act, and only while betting; a bet this round is part of
         * the chips in the pot and, while betting, at most the level to call. */
        if ((t->pending[i] && (t->folded[i] || t->stacks[i] == 0 || t->phase != BD_ENG_BETTING))
            || t->sbet[i] > t->contrib[i] || (t->phase == BD_ENG_BETTING && t->sbet[i] > t->level))
            return 0;
        live += !t->folded[i];
        active += !t->folded[i] && t->stacks[i] > 0;
        chips += t->stacks[i] + t->contrib[i]; /* each at most 2**50 (checked): no overflow */
        start += t->cfg.stacks[i];
    }
    if (t->phase == BD_ENG_COMPLETE)
        return 1; /* between hands the counts are stale: the next deal resets them */
    if (live != t->nlive || live < 2 || active != t->nactive || chips != start || t->folded[t->to_act])
        return 0;
    /* Every card of the deck is in one place: a live hand, the stub or the muck (a folded hand's cards and
     * the burns went to the muck).  A card in two places would be dealt again -- a hand with a repeated
     * card, ranked at a showdown within the same call.  (Each card id was checked to be in the deck.) */
    const uint64_t deck = bd_deck_mask(&t->cfg);
    uint64_t where = 0;
    int32_t placed = t->nstub + t->nmuck;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; !t->folded[i] && j < t->hand_len[i]; j++, placed++)
            where |= (uint64_t)1 << t->hands[i][j];
    for (int32_t i = 0; i < t->nstub; i++)
        where |= (uint64_t)1 << t->stub[i];
    for (int32_t i = 0; i < t->nmuck; i++)
        where |= (uint64_t)1 << t->muck[i];
    if (placed != __builtin_popcountll(deck) || where != deck)
        return 0;
    /* The seat to act while betting is one still to act, with chips to act with. */
    if (t->phase == BD_ENG_BETTING && (!t->pending[t->to_act] || t->stacks[t->to_act] == 0))
        return 0;
    if (t->phase == BD_ENG_DRAWING) { /* the queue: distinct live seats, the one drawing now not among them */
        uint32_t queued = 1u << t->to_act;
        for (int32_t i = 0; i < t->nqueue; i++) {
            const uint8_t s = t->queue[i];
            if (t->folded[s] || (queued >> s & 1))
                return 0;
            queued |= 1u << s;
        }
    }
    return 1;
}

int bd_eng_check(const bd_eng_table *t)
{
    if (t == NULL || !bd_cfg_ok(&t->cfg))
        return 0;
    const int32_t n = t->cfg.seats;
    if (t->button < 0 || t->button >= n || t->next_button < 0 || t->next_button >= n || t->street < 0
        || t->street > t->cfg.draws || t->phase < 0 || t->phase > 2 || t->to_act < -1 || t->to_act >= n)
        return 0;
    if (t->phase != BD_ENG_COMPLETE && t->to_act < 0)
        return 0;
    /* A round writes the discard counts of draw ndraws: one per draw started, so the row it writes exists. */
    if (t->phase != BD_ENG_COMPLETE && t->ndraws != t->street + (t->phase == BD_ENG_DRAWING))
        return 0;
    /* Chips (and the bet fields) bounded, so that no sum or difference of them can overflow. */
    const int64_t chips_max = (int64_t)1 << 50;
    if (t->level < 0 || t->level > chips_max || t->full_level < 0 || t->full_level > chips_max || t->nbets < 0
        || t->nbets > chips_max || t->bet_size < 0 || t->bet_size > chips_max)
        return 0;
    if (t->hand_size != t->cfg.hand_size || t->ndraws < 0 || t->ndraws > t->cfg.draws || t->nqueue < 0
        || t->nqueue > n || t->nstub < 0 || t->nstub > 52 || t->nmuck < 0 || t->nmuck > 52 || t->ndealt < 0
        || t->ndealt > BD_ENG_DEALT_MAX || t->nlog < 0 || t->nlive < 1 || t->nlive > n || t->nactive < 0
        || t->nactive > n || t->sb_seat < -1 || t->sb_seat >= n || t->bb_seat < -1 || t->bb_seat >= n)
        return 0;
    for (int32_t i = 0; i < t->nqueue; i++)
        if (t->queue[i] >= n)
            return 0;
    uint64_t seen = 0;
    for (int32_t i = 0; i < n; i++) {
        if (t->hand_len[i] > t->hand_size || t->stacks[i] < 0 || t->contrib[i] < 0 || t->sbet[i] < 0
            || t->stacks[i] > chips_max || t->contrib[i] > chips_max || t->sbet[i] > chips_max)
            return 0;
        for (int32_t j = 0; j < t->hand_len[i]; j++) {
            const uint8_t c = t->hands[i][j];
            /* A folded hand's cards went to the muck and may be dealt again after a reshuffle. */
            if (c > 51 || (!t->folded[i] && (seen >> c & 1)))
                return 0;
            if (!t->folded[i])
                seen |= (uint64_t)1 << c;
        }
    }
    for (int32_t i = 0; i < t->nstub; i++)
        if (t->stub[i] > 51)
            return 0;
    for (int32_t i = 0; i < t->nmuck; i++)
        if (t->muck[i] > 51)
            return 0;
    const uint64_t deck = bd_deck_mask(&t->cfg); /* ids 0..51 checked above: each has its bit */
    if (deck != BD_FULL_DECK) { /* a small deck: every card held, in the stub and in the muck is in it (loops
                                 * apart, so that the full deck's loops above stay as cheap as they were) */
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = 0; j < t->hand_len[i]; j++)
                if (!(deck >> t->hands[i][j] & 1))
                    return 0;
        for (int32_t i = 0; i < t->nstub; i++)
            if (!(deck >> t->stub[i] & 1))
                return 0;
        for (int32_t i = 0; i < t->nmuck; i++)
            if (!(deck >> t->muck[i] & 1))
                return 0;
    }
    return bd_hand_consistent(t);
}

/* ------------------------------------------------------------------------------------------ the stub */

/* One card off the stub (rules/stub.py Stub._one after its reshuffle check): the stub's last card is never
 * dealt; when it is all that is left, it and the muck form the new stub (the served seat's discards of this
 * draw are not in the muck yet). */
static int bd_deal_one(bd_eng_table *t, uint8_t *card)
{
    if (t->nstub <= 1) {
        if (t->nstub + t->nmuck > 52 || t->nmuck == 0)
            return BD_ENG_RAN_OUT;
        memcpy(t->stub + t->nstub, t->muck, (size_t)t->nmuck);
        t->nstub += t->nmuck;
        t->nmuck = 0;
        t->nreshuffles += t->nreshuffles < INT32_MAX; /* a count the check does not bound above: saturate */
    }
    const uint32_t j = bd_below(t->rng, (uint32_t)t->nstub);
    *card = t->stub[j];
    t->stub[j] = t->stub[--t->nstub];
    if (t->ndealt < BD_ENG_DEALT_MAX)
        t->dealt[t->ndealt++] = *card;
    return BD_ENG_OK;
}

static void bd_to_muck(bd_eng_table *t, const uint8_t *cards, int32_t k)
{
    for (int32_t i = 0; i < k && t->nmuck < 52; i++)
        t->muck[t->nmuck++] = cards[i];
}

static void bd_log(bd_eng_table *t, int32_t seat, int32_t kind, int32_t discards)
{
    if (t->nlog < BD_ENG_LOG_MAX)
        t->log[t->nlog] = (uint16_t)(seat << 8 | kind << 5 | (discards & 31));
    /* An uncapped heads-up hand (or a damaged state) may count on: saturate rather than overflow. */
    t->nlog += t->nlog < INT32_MAX;
}

/* ------------------------------------------------------------------------------------------ showdown */

/* One pot among `order` (its k contenders clockwise from the button): each played half's winners as seat
 * masks, paid by the kernel's one split (bd_split_pot, showdown.c) and added to chips. */
static int bd_pay_pot(int64_t amount, int32_t button, int32_t seats, const int32_t *order, int32_t k,
                      const uint32_t *low, const uint32_t *bad, int halves, int odd_low, int64_t *chips)
{
    uint32_t best_l = 0xFFFFFFFFu, best_b = 0xFFFFFFFFu, lw = 0, bw = 0;
    for (int32_t i = 0; i < k; i++) {
        best_l = low[order[i]] < best_l ? low[order[i]] : best_l;
        best_b = bad[order[i]] < best_b ? bad[order[i]] : best_b;
    }
    for (int32_t i = 0; i < k; i++) {
        if ((halves & 1) && low[order[i]] == best_l)
            lw |= 1u << order[i];
        if ((halves & 2) && bad[order[i]] == best_b)
            bw |= 1u << order[i];
    }
    int64_t pot[6];
    if (bd_split_pot(amount, button, seats, lw, bw, odd_low, pot) != 0)
        return BD_ENG_BAD_ARGS; /* never: every pot has a contender, and they are seats */
    for (int32_t s = 0; s < seats; s++)
        chips[s] += pot[s];
    return BD_ENG_OK;
}

/* pots/settlement.py settle (its general path: main and side pots) into t->payouts. */
static int bd_settle(bd_eng_table *t, const uint32_t *table)
{
    const int32_t n = t->cfg.seats, game = t->cfg.game, b = t->button;
    uint32_t low[6] = {0}, bad[6] = {0};
    const int halves = game <= 1 ? 3 : game == 2 ? 2 : 1;
    if (table == NULL)
        return BD_ENG_BAD_ARGS;
    for (int32_t s = 0; s < n; s++) {
        if (t->folded[s])
            continue;
        const uint8_t *h = t->hands[s];
        if (game == 2) {
            bad[s] = bd_badugi_rank(table, h, (size_t)t->hand_size);
        } else {
            const uint32_t e = bd_lookup5(table, h[0], h[1], h[2], h[3], h[4]);
            low[s] = bd_low_of(e);
            bad[s] = bd_badugi_of(e);
        }
    }
    int64_t levels[6];
    int32_t nlev = 0;
    for (int32_t s = 0; s < n; s++) { /* the live seats' distinct contributions, ascending */
        if (t->folded[s])
            continue;
        int32_t at = 0;
        while (at < nlev && levels[at] < t->contrib[s])
            at++;
        if (at < nlev && levels[at] == t->contrib[s])
            continue;
        memmove(levels + at + 1, levels + at, (size_t)(nlev - at) * sizeof levels[0]);
        levels[at] = t->contrib[s];
        nlev++;
    }
    int64_t prev = 0;
    memset(t->payouts, 0, sizeof t->payouts);
    for (int32_t L = 0; L < nlev; L++) {
        const int64_t level = levels[L];
        int64_t amount = 0;
        for (int32_t s = 0; s < n; s++) {
            const int64_t c = t->contrib[s];
            amount += (c < level ? c : level) - (c < prev ? c : prev);
            if (L == nlev - 1 && c > level) /* dead money above every live seat: the top pot */
                amount += c - level;
        }
        prev = level;
        if (amount == 0)
            continue;
        int32_t order[6], k = 0;
        for (int32_t r = 1; r <= n; r++) { /* clockwise from the button: button + 1 first */
            const int32_t s = (b + r) % n;
            if (!t->folded[s] && t->contrib[s] >= level)
                order[k++] = s;
        }
        const int rc = bd_pay_pot(amount, b, n, order, k, low, bad, halves, t->cfg.odd_low, t->payouts);
        if (rc != BD_ENG_OK)
            return rc;
    }
    return BD_ENG_OK;
}

/* betting.py _finish: uncalled chips back, then the pot to the last seat in or settled. */
static int bd_finish(bd_eng_table *t, const uint32_t *table)
{
    const int32_t n = t->cfg.seats;
    int32_t owner = 0;
    int64_t top = -1, second = -1;
    for (int32_t s = 0; s < n; s++) {
        const int64_t c = t->contrib[s];
        if (c > top) {
            second = top;
            top = c;
            owner = s;
        } else if (c > second) {
            second = c;
        }
    }
    if (t->nlive > 1 && table == NULL)
        return BD_ENG_BAD_ARGS;
    if (top > second) {
        t->contrib[owner] -= top - second;
        t->stacks[owner] += top - second;
        t->returned[owner] = top - second;
    }
    if (t->nlive == 1) {
        int64_t pot = 0;
        int32_t winner = 0;
        for (int32_t s = 0; s < n; s++) {
            pot += t->contrib[s];
            if (!t->folded[s])
                winner = s;
        }
        memset(t->payouts, 0, sizeof t->payouts);
        t->payouts[winner] = pot;
    } else {
        const int rc = bd_settle(t, table);
        if (rc != BD_ENG_OK)
            return rc;
    }
    for (int32_t s = 0; s < n; s++)
        t->stacks[s] += t->payouts[s];
    t->phase = BD_ENG_COMPLETE;
    t->to_act = -1;
    memset(t->pending, 0, sizeof t->pending);
    return BD_ENG_OK;
}

/* ------------------------------------------------------------------------------------------ rounds */

static int bd_start_round(bd_eng_table *t, const uint32_t *table, int32_t street);

/* betting.py _end_round: the draw (its queue, the burn) or the showdown. */
static int bd_end_round(bd_eng_table *t, const uint32_t *table)
{
    const int32_t n = t->cfg.seats;
    if (t->street >= t->cfg.draws)
        return bd_finish(t, table);
    t->phase = BD_ENG_DRAWING;
    t->nqueue = 0;
    for (int32_t r = n; r >= 1; r--) { /* the last drawer (the button) first: the queue pops its end */
        const int32_t s = (t->button + r) % n;
        if (!t->folded[s])
            t->queue[t->nqueue++] = (uint8_t)s;
    }
    memset(t->discards[t->ndraws], -1, sizeof t->discards[0]);
    t->ndraws++;
    if (t->cfg.burn) {
        uint8_t c;
        const int rc = bd_deal_one(t, &c);
        if (rc != BD_ENG_OK)
            return rc;
        bd_to_muck(t, &c, 1);
    }
    t->to_act = t->queue[--t->nqueue];
    return BD_ENG_OK;
}

/* betting.py _next_actor from `start`, or the end of the round. */
static int bd_next_actor(bd_eng_table *t, const uint32_t *table, int32_t start)
{
    const int32_t n = t->cfg.seats;
    for (int32_t r = 0; r < n; r++) {
        const int32_t j = (start + r) % n;
        if (t->pending[j]) {
            if (t->nactive <= 1 && t->sbet[j] >= t->level) {
                t->pending[j] = 0; /* alone with chips and nothing to call: nothing to decide */
                continue;
            }
            t->to_act = j;
            return BD_ENG_OK;
        }
    }
    return bd_end_round(t, table);
}

/* betting.py _start_round. */
static int bd_start_round(bd_eng_table *t, const uint32_t *table, int32_t street)
{
    const int32_t n = t->cfg.seats;
    t->street = street;
    t->phase = BD_ENG_BETTING;
    t->bet_size = street < 2 ? t->cfg.small_bet : t->cfg.big_bet;
    int32_t nactive = 0;
    for (int32_t s = 0; s < n; s++) {
        const uint8_t a = !t->folded[s] && t->stacks[s] > 0;
        t->pending[s] = t->can_raise[s] = a;
        nactive += a;
    }
    t->nactive = nactive;
    int32_t first;
    if (street == 0 && t->bb_seat >= 0) {
        t->level = t->full_level = t->cfg.big_blind;
        t->nbets = 1;
        first = (t->bb_seat + 1) % n;
    } else {
        memset(t->sbet, 0, sizeof t->sbet);
        t->level = t->full_level = t->nbets = 0;
        first = (t->button + 1) % n;
    }
    if (nactive > 1) {
        for (int32_t r = 0; r < n; r++) {
            const int32_t j = (first + r) % n;
            if (t->pending[j]) {
                t->to_act = j;
                return BD_ENG_OK;
            }
        }
    }
    return bd_next_actor(t, table, first);
}

/* ------------------------------------------------------------------------------------------ the API */

int32_t bd_eng_init(bd_eng_table *t, const bd_eng_config *cfg, uint64_t seed)
{
    if (t == NULL || cfg == NULL || !bd_cfg_ok(cfg))
        return BD_ENG_BAD_ARGS;
    memset(t, 0, sizeof *t);
    t->cfg = *cfg;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        t->rng[i] = bd_splitmix(&x);
    t->hand_size = cfg->hand_size;
    t->phase = BD_ENG_COMPLETE; /* no hand yet: nothing to act on */
    t->to_act = -1;
    t->nlive = 1;
    return BD_ENG_OK;
}

/* state.py _begin + _post_forced_bets + dealing.py _deal_hands + _start_round(0), on a checked state. */
static int bd_deal(bd_eng_table *t, int32_t button)
{
    const bd_eng_config *c = &t->cfg;
    const int32_t n = c->seats, hs = t->hand_size;
    if (button < 0 || button >= n)
        return BD_ENG_BAD_ARGS;
    t->button = button;
    for (int32_t s = 0; s < n; s++) {
        t->stacks[s] = c->stacks[s];
        t->contrib[s] = t->sbet[s] = t->payouts[s] = t->returned[s] = 0;
        t->folded[s] = t->pending[s] = t->can_raise[s] = 0;
        t->hand_len[s] = 0;
    }
    t->ndraws = t->nqueue = t->nmuck = t->ndealt = t->nreshuffles = t->nlog = 0;
    t->nlive = n;
    t->street = 0;
    t->bet_size = c->small_bet;
    t->level = t->full_level = t->nbets = 0;
    if (c->ante)
        for (int32_t s = 0; s < n; s++) {
            const int64_t a = c->ante < t->stacks[s] ? c->ante : t->stacks[s];
            t->stacks[s] -= a;
            t->contrib[s] += a;
        }
    if (c->big_blind > 0) {
        const int32_t sb = n == 2 ? button : (button + 1) % n, bb = n == 2 ? (button + 1) % n : (button + 2) % n;
        const int32_t seat[2] = {sb, bb};
        const int64_t blind[2] = {c->small_blind, c->big_blind};
        for (int i = 0; i < 2; i++) {
            const int64_t p = blind[i] < t->stacks[seat[i]] ? blind[i] : t->stacks[seat[i]];
            t->stacks[seat[i]] -= p;
            t->contrib[seat[i]] += p;
            t->sbet[seat[i]] = p;
        }
        t->sb_seat = sb;
        t->bb_seat = bb;
    } else {
        t->sb_seat = t->bb_seat = -1;
    }
    const uint64_t deck = bd_deck_mask(c); /* the game's cards in id order (the full deck: 0..51) */
    t->nstub = 0;
    if (deck == BD_FULL_DECK)
        for (int32_t card = 0; card < 52; card++)
            t->stub[t->nstub++] = (uint8_t)card;
    else
        for (int32_t card = 0; card < 52; card++)
            if (deck >> card & 1)
                t->stub[t->nstub++] = (uint8_t)card;
    for (int32_t k = 0; k < n * hs; k++) { /* one card at a time clockwise from left of the button */
        const int32_t s = (button + 1 + k % n) % n;
        uint8_t card;
        if (bd_deal_one(t, &card) != BD_ENG_OK)
            return BD_ENG_RAN_OUT;
        t->hands[s][t->hand_len[s]++] = card;
    }
    t->phase = BD_ENG_BETTING;
    t->to_act = 0;
    return bd_start_round(t, NULL, 0) == BD_ENG_OK ? BD_ENG_OK : BD_ENG_BAD_STATE;
}

int32_t bd_eng_deal(bd_eng_table *t, int32_t button)
{
    return bd_eng_check(t) ? bd_deal(t, button) : BD_ENG_BAD_STATE;
}

/* state.py legal_actions (and verify.py's rules of a bet or raise). */
static int32_t bd_legal(const bd_eng_table *t, int64_t *call, int64_t *target)
{
    *call = *target = 0;
    if (t->phase == BD_ENG_DRAWING)
        return 8 + t->hand_len[t->to_act];
    if (t->phase != BD_ENG_BETTING)
        return 0;
    const int32_t i = t->to_act, n = t->cfg.seats;
    const int64_t sb = t->sbet[i], to_call = t->level - sb, stack = t->stacks[i];
    *call = to_call < stack ? to_call : stack;
    int32_t code = to_call > 0 ? 1 | 2 : 2;
    if (t->can_raise[i] && stack > to_call && t->nactive > 1
        && (t->nbets < t->cfg.cap || (t->cfg.heads_up_uncapped && t->nlive == 2))) {
        int callable = 0; /* verify.py _raise_callable */
        for (int32_t r = 1; r < n; r++) {
            const int32_t j = (i + r) % n;
            callable |= !t->folded[j] && t->stacks[j] + t->sbet[j] > t->level;
        }
        if (callable) {
            const int64_t full = t->full_level + t->bet_size;
            *target = full < sb + stack ? full : sb + stack;
            code |= 4;
        }
    }
    if (*call < 0)
        *call = 0;
    return code;
}

int32_t bd_eng_legal(const bd_eng_table *t, int64_t *call, int64_t *target)
{
    if (call == NULL || target == NULL || !bd_eng_check(t))
        return -1;
    return bd_legal(t, call, target);
}

/* The draw of seat i (dealing.py _serve): replacements dealt, then the discards mucked. */
static int bd_draw(bd_eng_table *t, const uint32_t *table, int32_t i, int32_t discards)
{
    uint8_t keep[5], thrown[5];
    int32_t nk = 0, nt = 0;
    const int32_t len = t->hand_len[i];
    for (int32_t j = 0; j < len; j++) {
        if (discards >> j & 1)
            thrown[nt++] = t->hands[i][j];
        else
            keep[nk++] = t->hands[i][j];
    }
    if (nt > t->nstub - 1 + t->nmuck) /* stub.py _check: refused before anything changes */
        return BD_ENG_RAN_OUT;
    for (int32_t j = 0; j < nt; j++) {
        const int rc = bd_deal_one(t, &keep[nk + j]);
        if (rc != BD_ENG_OK)
            return rc;
    }
    memcpy(t->hands[i], keep, (size_t)len);
    bd_to_muck(t, thrown, nt);
    bd_log(t, i, BD_ENG_DRAW, discards);
    t->discards[t->ndraws - 1][i] = (int8_t)nt;
    if (t->nqueue > 0) {
        t->to_act = t->queue[--t->nqueue];
        return BD_ENG_OK;
    }
    return bd_start_round(t, table, t->street + 1);
}

/* state.py apply, a betting action (its fast path, fed an action legal_actions offered). */
static int bd_bet(bd_eng_table *t, const uint32_t *table, int32_t kind, int64_t call, int64_t target)
{
    const int32_t i = t->to_act, n = t->cfg.seats;
    bd_log(t, i, kind, 0);
    t->pending[i] = 0;
    t->can_raise[i] = 0;
    if (kind == BD_ENG_FOLD) {
        t->folded[i] = 1;
        t->nlive--;
        t->nactive--;
        bd_to_muck(t, t->hands[i], t->hand_len[i]);
        if (t->nlive == 1)
            return bd_finish(t, table);
    } else if (kind == BD_ENG_RAISE || call > 0) {
        const int64_t pay = kind == BD_ENG_RAISE ? target - t->sbet[i] : call;
        t->stacks[i] -= pay;
        t->sbet[i] += pay;
        t->contrib[i] += pay;
        if (t->stacks[i] == 0)
            t->nactive--;
        const int64_t now = t->sbet[i];
        if (now > t->level) {
            const int full = (now - t->full_level) * 2 >= t->bet_size;
            if (full) { /* a full raise (or all-in of at least half a bet): reopens, counts to the cap */
                t->nbets++;
                t->full_level = now;
            }
            for (int32_t r = 1; r < n; r++) {
                const int32_t j = (i + r) % n;
                if (!t->folded[j] && t->stacks[j] > 0) {
                    if (full)
                        t->can_raise[j] = 1;
                    if (t->sbet[j] < now)
                        t->pending[j] = 1;
                }
            }
            t->level = now;
        }
    }
    return bd_next_actor(t, table, (i + 1) % n);
}

/* Checks an action of the seat to act and applies it; nothing changes when refused. */
static int bd_act(bd_eng_table *t, const uint32_t *table, int32_t kind, int32_t discards)
{
    int64_t call, target;
    const int32_t code = bd_legal(t, &call, &target);
    if (t->phase == BD_ENG_DRAWING) {
        if (kind != BD_ENG_DRAW || discards < 0 || discards >= (1 << t->hand_len[t->to_act]))
            return BD_ENG_ILLEGAL;
        return bd_draw(t, table, t->to_act, discards);
    }
    if (t->phase != BD_ENG_BETTING || kind < 0 || kind > 2 || !(code >> kind & 1))
        return BD_ENG_ILLEGAL;
    /* A showdown needs the table: refuse up front rather than leave a half-applied action. */
    if (table == NULL && t->street == t->cfg.draws)
        return BD_ENG_BAD_ARGS;
    return bd_bet(t, table, kind, call, target);
}

int32_t bd_eng_act(bd_eng_table *t, const uint32_t *table, int32_t kind, int32_t discards)
{
    if (!bd_eng_check(t))
        return BD_ENG_BAD_STATE;
    if (table == NULL && t->phase != BD_ENG_COMPLETE)
        return BD_ENG_BAD_ARGS;
    return bd_act(t, table, kind, discards);
}

int32_t bd_eng_play(bd_eng_table *t, const uint32_t *table, bd_eng_decide decide, void *ctx)
{
    if (table == NULL || decide == NULL)
        return BD_ENG_BAD_ARGS;
    if (!bd_eng_check(t))
        return BD_ENG_BAD_STATE;
    while (t->phase != BD_ENG_COMPLETE) {
        int64_t call, target;
        const int32_t code = bd_legal(t, &call, &target);
        int32_t discards = 0;
        const int32_t kind = decide(ctx, t, code, call, target, &discards);
        const int rc = bd_act(t, table, kind, discards);
        if (rc != BD_ENG_OK)
            return rc;
    }
    return BD_ENG_OK;
}

/* envs/encoding.py obs_row. */
static int64_t bd_row(const bd_eng_table *t, int32_t seat, int64_t *row)
{
    const int32_t n = t->cfg.seats;
    const int64_t unit = t->cfg.big_blind ? t->cfg.big_blind : t->cfg.small_bet;
    const int betting = t->phase == BD_ENG_BETTING;
    int64_t *w = row;
    *w++ = n;
    *w++ = seat;
    *w++ = t->button;
    *w++ = t->phase;
    *w++ = t->street;
    *w++ = t->to_act;
    *w++ = betting ? t->level : 0;
    *w++ = betting ? t->nbets : 0;
    *w++ = t->bet_size;
    *w++ = unit;
    *w++ = t->ndraws;
    *w++ = t->hand_len[seat];
    for (int32_t j = 0; j < n; j++)
        *w++ = t->stacks[j];
    for (int32_t j = 0; j < n; j++)
        *w++ = t->sbet[j];
    for (int32_t j = 0; j < n; j++)
        *w++ = t->contrib[j];
    for (int32_t j = 0; j < n; j++)
        *w++ = t->folded[j];
    for (int32_t j = 0; j < n; j++)
        *w++ = betting ? t->pending[j] : 0;
    for (int32_t d = 0; d < t->ndraws; d++)
        for (int32_t j = 0; j < n; j++)
            *w++ = t->discards[d][j];
    for (int32_t k = 0; k < t->hand_len[seat]; k++)
        *w++ = t->hands[seat][k];
    return w - row;
}

int64_t bd_eng_obs_row(const bd_eng_table *t, int32_t seat, int64_t *row, int64_t cap)
{
    if (row == NULL || cap < BD_OBS_ROW_MAX || !bd_eng_check(t) || seat < 0 || seat >= t->cfg.seats)
        return -1;
    return bd_row(t, seat, row);
}

/* ------------------------------------------------------------------------------------------ the env */

/* The learner's observation of the hand in play into v (one row through observe.c's encoder). */
static int bd_observe(const bd_eng_table *t, float *v)
{
    int64_t row[BD_OBS_ROW_MAX];
    const int64_t len = bd_row(t, t->cfg.learner, row);
    return bd_observe_many((const uint8_t *)row, len * 8, 1, v, BD_OBS_SIZE) == -1 ? BD_ENG_OK : BD_ENG_BAD_STATE;
}

/* envs/gymnasium.py _Table.run_bots: RandomBot at every seat but the learner's, until its turn or the end. */
static int bd_run_bots(bd_eng_table *t, const uint32_t *table)
{
    while (t->phase != BD_ENG_COMPLETE && t->to_act != t->cfg.learner) {
        int64_t call, target;
        const int32_t code = bd_legal(t, &call, &target);
        int rc;
        if (t->phase == BD_ENG_DRAWING) {
            /* A uniform subset of the hand: one random bit per card held. */
            const uint32_t bits = (uint32_t)(bd_next(t->rng) >> 59);
            rc = bd_draw(t, table, t->to_act, (int32_t)(bits & ((1u << t->hand_len[t->to_act]) - 1)));
        } else {
            /* Uniform over the legal actions, in legal_actions' order (fold, check/call, bet/raise). */
            int32_t kinds[3], k = 0;
            for (int32_t b = 0; b < 3; b++)
                if (code >> b & 1)
                    kinds[k++] = b;
            rc = bd_bet(t, table, kinds[bd_below(t->rng, (uint32_t)k)], call, target);
        }
        if (rc != BD_ENG_OK)
            return rc;
    }
    return BD_ENG_OK;
}

static double bd_net(const bd_eng_table *t)
{
    /* _Table: winnings[seat] * (1.0 / big blind), the big blind or else the small bet */
    const int64_t bb = t->cfg.big_blind ? t->cfg.big_blind : t->cfg.small_bet;
    return (double)(t->stacks[t->cfg.learner] - t->cfg.stacks[t->cfg.learner]) * (1.0 / (double)bb);
}

/* One hand of _Table.new_hand's loop: dealt with the button at next_button (which moves one seat), then the
 * bots act until the learner's decision or the end of the hand. */
static int bd_next_hand(bd_eng_table *t, const uint32_t *table)
{
    const int rc = bd_deal(t, t->next_button);
    if (rc != BD_ENG_OK)
        return rc;
    t->next_button = (t->next_button + 1) % t->cfg.seats;
    return bd_run_bots(t, table);
}

int32_t bd_eng_next_hand(bd_eng_table *t, const uint32_t *table)
{
    if (table == NULL)
        return BD_ENG_BAD_ARGS;
    return bd_eng_check(t) ? bd_next_hand(t, table) : BD_ENG_BAD_STATE;
}

/* _Table.new_hand: hands until the learner has a decision; the skipped hands' net in big blinds. */
static int bd_new_hand(bd_eng_table *t, const uint32_t *table, double *skipped)
{
    *skipped = 0.0;
    for (;;) {
        const int rc = bd_next_hand(t, table);
        if (rc != BD_ENG_OK)
            return rc;
        if (t->phase != BD_ENG_COMPLETE)
            return BD_ENG_OK;
        *skipped += bd_net(t);
    }
}

static int32_t bd_code(const bd_eng_table *t)
{
    int64_t call, target;
    return bd_legal(t, &call, &target);
}

int64_t bd_eng_reset_many(bd_eng_table *ts, int64_t n, const uint32_t *table, float *obs, int64_t obs_len,
                          int64_t *codes)
{
    if (n < 0 || (n > 0 && (ts == NULL || table == NULL || obs == NULL || codes == NULL))
        || obs_len / BD_OBS_SIZE < n)
        return -2;
    for (int64_t k = 0; k < n; k++) {
        bd_eng_table *t = ts + k;
        double skipped;
        if (!bd_eng_check(t) || bd_new_hand(t, table, &skipped) != BD_ENG_OK
            || bd_observe(t, obs + k * BD_OBS_SIZE) != BD_ENG_OK)
            return k;
        codes[k] = bd_code(t);
    }
    return -1;
}

/* The learner's action index decoded as envs/encoding.decode does, applied, then the bots (checked state). */
static int bd_step_one(bd_eng_table *t, const uint32_t *table, int64_t a, uint8_t *illegal)
{
    if (t->phase == BD_ENG_COMPLETE || t->to_act != t->cfg.learner || a < 0 || a >= 3 + (1 << t->hand_size))
        return BD_ENG_ILLEGAL;
    int64_t call, target;
    const int32_t code = bd_legal(t, &call, &target);
    int rc, bad;
    if (t->phase == BD_ENG_DRAWING) {
        /* Bit j of m = the j-th smallest card held; a betting index stands pat. */
        const int32_t len = t->hand_len[t->to_act];
        const int64_t m = a - 3, full = (1 << len) - 1;
        bad = m < 0 || m > full;
        const int64_t sorted_mask = m > 0 ? (m & full) : 0;
        int32_t discards = 0;
        const uint8_t *h = t->hands[t->to_act];
        for (int32_t j = 0; j < len; j++) {
            int32_t place = 0; /* h[j]'s place among the cards held, by id */
            for (int32_t q = 0; q < len; q++)
                place += h[q] < h[j];
            if (sorted_mask >> place & 1)
                discards |= 1 << j;
        }
        rc = bd_draw(t, table, t->to_act, discards);
    } else {
        /* encoding._betting_entry: a fold or a bet/raise that is not legal, or a draw index, checks or calls. */
        bad = a >= 3 || !(code >> a & 1);
        rc = bd_bet(t, table, bad ? BD_ENG_CALL : (int32_t)a, call, target);
    }
    if (rc == BD_ENG_OK)
        rc = bd_run_bots(t, table);
    *illegal = (uint8_t)bad;
    return rc;
}

int32_t bd_eng_step_one(bd_eng_table *t, const uint32_t *table, int64_t action, uint8_t *illegal)
{
    if (table == NULL || illegal == NULL)
        return BD_ENG_BAD_ARGS;
    if (!bd_eng_check(t))
        return BD_ENG_BAD_STATE;
    return bd_step_one(t, table, action, illegal);
}

int64_t bd_eng_step_many(bd_eng_table *ts, int64_t n, const uint32_t *table, const int64_t *actions, float *obs,
                         float *final_obs, int64_t obs_len, double *rewards, uint8_t *term, uint8_t *illegal,
                         int64_t *codes)
{
    if (n < 0 || (n > 0 && (ts == NULL || table == NULL || actions == NULL || obs == NULL || final_obs == NULL
                            || rewards == NULL || term == NULL || illegal == NULL || codes == NULL))
        || obs_len / BD_OBS_SIZE < n)
        return -2;
    for (int64_t k = 0; k < n; k++) {
        bd_eng_table *t = ts + k;
        if (!bd_eng_check(t) || bd_step_one(t, table, actions[k], illegal + k) != BD_ENG_OK)
            return k;
        if (t->phase == BD_ENG_COMPLETE) {
            /* Same-step autoreset: the finished hand's observation, then the next hand's (the hands that
             * end before the learner acts add their chips to this reward, after it, as _Table does). */
            const double r = bd_net(t);
            double skipped;
            if (bd_observe(t, final_obs + k * BD_OBS_SIZE) != BD_ENG_OK || bd_new_hand(t, table, &skipped) != BD_ENG_OK)
                return k;
            rewards[k] = r + skipped;
            term[k] = 1;
        } else {
            rewards[k] = 0.0;
            term[k] = 0;
        }
        if (bd_observe(t, obs + k * BD_OBS_SIZE) != BD_ENG_OK)
            return k;
        codes[k] = bd_code(t);
    }
    return -1;
}
