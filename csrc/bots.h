/* bots.h -- the built-in bots of badacey_fast/game/bots.py in C, for the C hand loop's simulations
 * (csrc/simulate.c): RandomBot (a uniform choice among the legal betting actions, a uniform subset of the
 * hand as discards) and RuleBot (the rule-of-thumb player: draw/policy.py keep_cards, then bets made hands,
 * calls with one card to come early, gives up weak draws facing a bet late, floating one time in ten).
 *
 * The Python classes stay the reference: every decision here is the one the Python bot makes in the same
 * state (RuleBot's keep set exactly, tests/test_game_simulate.py replays the C hands' logs through the Python
 * bots), and the random choices have the same distribution from a different stream (each seat its own
 * xoshiro256** generator, seeded by splitmix64; deterministic per seed, but not Python's stream).
 *
 * No global mutable state: the bots' generators live in the caller's bd_bots.
 */
#ifndef BD_BOTS_H
#define BD_BOTS_H

#include <stdint.h>

#include "engine.h"

/* BD_CDEF_BEGIN */
#define BD_BOT_RANDOM 0
#define BD_BOT_RULE 1

typedef struct bd_bots {
    uint64_t rng[6][4]; /* each seat's own generator (xoshiro256**) */
    int32_t kind[6];    /* BD_BOT_RANDOM or BD_BOT_RULE, per seat */
    int32_t seats;      /* 2..6 */
    /* RuleBot's last keep set per seat and the holding it was found for (hand length 0: none yet): a hand
     * is asked about at each of its decisions, and changes only at a draw.  Only ever a cache: a
     * holding that differs in any byte is worked out again. */
    uint8_t held[6][5], held_len[6], held_game[6];
    int32_t held_keep[6];
} bd_bots;

/* Set up `seats` (2..6) bots: seat s plays kinds[s] from a generator seeded by seeds[s].  Returns 0, or -1
 * for a NULL pointer, a seat count or a kind out of range (nothing written then). */
int32_t bd_bots_init(bd_bots *b, const int32_t *kinds, const uint64_t *seeds, int32_t seats);

/* draw/policy.py keep_cards: the cards the rule-of-thumb drawer keeps from hand[0..n) (n 1..5 distinct card
 * ids 0..51, in hand order) in `game` (0 badacey, 1 badeucy, 2 badugi, 3 a5, 4 27: rules/games.py
 * PRESETS order), keeping low cards up to value `top` (2..13): bit j set = hand[j] kept.  Returns -1 for a
 * bad argument. */
int32_t bd_bot_keep(const uint8_t *hand, int32_t n, int32_t game, int32_t top);
/* BD_CDEF_END */

/* RuleBot's betting rule, its one home (the C hand loop's rule bot and LBR's ask it): with `missing` cards
 * missing from its keep set, `draws_left` draws to come and the legal-action code (bit 0: a call is owed,
 * bit 2: a bet or raise is legal), BD_ENG_RAISE (bet/raise made hands and one-card draws early; a call
 * when no raise is legal), BD_ENG_CALL (check or call), or BD_ENG_FOLD: a fold the bot turns into a call
 * with probability BD_BOT_FLOAT (the occasional float keeps it from being exploited by pure aggression). */
#define BD_BOT_FLOAT 0.1
int32_t bd_bot_rule_bet(int32_t missing, int32_t draws_left, int32_t code);

/* The decision of the seat to act (a bd_eng_decide; ctx is a bd_bots whose seats are the table's). */
int32_t bd_bots_decide(void *ctx, const bd_eng_table *t, int32_t code, int64_t call, int64_t target,
                       int32_t *discards);

#endif /* BD_BOTS_H */
