/* lbr.h -- full-size heads-up play for measuring bots: the bots' action probabilities (random, the
 * rule of thumb of badacey_fast/game/bots.py, a strategy table), external-sampling MCCFR over the C hand
 * loop (csrc/engine.h) with a card abstraction, and local best response (Lisy & Bowling 2017), a lower
 * bound on a bot's exploitability.  Plain C11, no Python.h; the Python side is badacey_fast/solve/lbr.py
 * and badacey_fast/solve/mccfr.py (the pure-Python twins are there too).
 *
 * Hands are read in the engine's order (Game.hands: kept cards, then the replacements in dealing order),
 * discard masks are over those positions (bit j = hand[j]), as bd_eng_act takes them.
 *
 * Information states of the strategy tables are keyed (64 bits, FNV-1a) by the seat to act, the bucket
 * of its hand (the suit-isomorphism class of the cards it holds now, optionally mapped to a coarser
 * bucket) and the public history (tokens: seat << 4 | kind, kind 0 fold, 1 check/call, 2 bet/raise, 3 + k
 * a draw of k cards) summarised: the betting round, the bets of the rounds before it (the pot), each
 * seat's count at the last draw, and the current round's actions -- an abstraction with imperfect recall
 * (a seat forgets the cards it held before and the order of earlier rounds' actions).  A draw of k cards
 * throws the k cards outside the rule of thumb's keep set first, highest first, then kept cards highest
 * first (bd_draw_mask); a strategy table draws one of three: stand pat, the rule of thumb's discard, or
 * one card more (BD_MC_DRAWS).
 *
 * Rules: no global mutable state (every random stream is the caller's seed), every pointer and size
 * checked, a store that is full is reported (BD_MC_FULL), never overrun.
 */
#ifndef BD_LBR_H
#define BD_LBR_H

#include <stdint.h>

#include "engine.h"

/* BD_CDEF_BEGIN */
#define BD_BOT_RANDOM 0 /* uniform over the legal actions; a uniform subset of the hand when drawing */
#define BD_BOT_RULE 1   /* game/bots.py RuleBot: keep_cards draws; bet made hands; fold weak draws 90 % */
#define BD_BOT_TABLE 2  /* a strategy table (an MCCFR store's average strategy), uniform where it has none */

#define BD_PLAY_OK 0
#define BD_PLAY_BAD_ARGS -1
#define BD_PLAY_ENGINE -2 /* the hand loop refused the config or an action */
#define BD_MC_FULL -3     /* the store has no room for another information state */
#define BD_PLAY_MAX_TOKENS 96
#define BD_MC_DRAWS 3 /* a strategy table's draws: pat, the rule of thumb's discard, one card more */

/* A strategy table: open addressing (capacity a power of two, key 0 = empty), each information state's
 * n_actions floats at offset in regret[] and average[] (pool floats each). */
typedef struct bd_mc_store {
    uint64_t *keys;
    uint32_t *offset;
    uint8_t *n_actions;
    int64_t capacity;
    float *regret;
    float *average;
    int64_t pool;
    int64_t used;      /* information states stored */
    int64_t pool_used; /* floats used */
} bd_mc_store;

/* The card abstraction: class_of[colex index of the hand's sorted card ids] (n_class_of = C(52, size)),
 * then bucket_of[class] when given (NULL: the class is the bucket). */
typedef struct bd_abstraction {
    const uint32_t *class_of;
    int64_t n_class_of;
    const uint32_t *bucket_of;
    int64_t n_bucket_of;
} bd_abstraction;

typedef struct bd_bot {
    int32_t kind;
    const bd_mc_store *store;  /* BD_BOT_TABLE */
    bd_abstraction abstraction; /* BD_BOT_TABLE */
} bd_bot;

/* The rule of thumb's keep set (draw/policy.py keep_cards, top 8) of hand[0..n): bit j = hand[j] kept.
 * game: 0 badacey, 1 badeucy, 2 badugi, 3 a5, 4 27.  Returns -1 for bad arguments. */
int32_t bd_keep_mask(int32_t game, const uint8_t *hand, int32_t n);

/* The abstract draw of k cards from hand[0..n): its discard mask (see above), or -1. */
int32_t bd_draw_mask(int32_t game, const uint8_t *hand, int32_t n, int32_t k);

/* The key of an information state (see above). */
uint64_t bd_info_key(int32_t seat, uint32_t bucket, const uint8_t *tokens, int32_t n_tokens);

/* The bucket of a hand under an abstraction, or -1 (a card out of range, sizes). */
int64_t bd_hand_bucket(const bd_abstraction *abstraction, const uint8_t *hand, int32_t n);

/* A bot's action probabilities at a decision of `seat` holding hand[0..n): `code` is bd_eng_legal's
 * (betting: bit 1 fold, 2 check/call, 4 bet/raise; drawing: 8 + n), street the betting round (0..draws),
 * draws the game's number of draws, tokens the public history so far.  out: betting, [fold, call, raise]
 * (0 where illegal); drawing, out[mask] for every mask < 2**n.  Returns BD_PLAY_OK or BD_PLAY_BAD_ARGS. */
int32_t bd_bot_policy(const bd_bot *bot, int32_t game, const uint8_t *hand, int32_t n, int32_t street,
                      int32_t draws, int32_t code, int32_t seat, const uint8_t *tokens, int32_t n_tokens,
                      double *out);

/* What a run of local best response measured: the LBR's chips per hand by its seat (0 = button), and per
 * pair of hands (the same seat twice is never paired: hand 2i has the LBR on the button, 2i + 1 in the
 * big blind, each dealt afresh). */
typedef struct bd_lbr_result {
    int64_t hands;
    double sum[2], sum_sq[2];
    int64_t count[2];
    double pair_sum, pair_sum_sq;
    int64_t pairs;
    int64_t lost;     /* hands in which every particle died (the LBR then checks and calls down) */
    int64_t decisions; /* the LBR's betting decisions */
    int64_t raises;    /* ... of which bets or raises */
    int64_t folds;     /* ... of which folds */
} bd_lbr_result;

/* `pairs` pairs of hands of LBR against `bot` on `cfg` (heads-up; the stacks deep enough that nobody is
 * all-in), particles per hand for the LBR's belief, seed for every random stream (the deals, the bot's
 * choices, the LBR's sampling).  Accumulates into *out (zero it first).  Returns BD_PLAY_OK or an error. */
int32_t bd_lbr_run(const bd_eng_config *cfg, const uint32_t *table, const bd_bot *bot, int64_t pairs,
                   int32_t particles, uint64_t seed, bd_lbr_result *out);

/* `iterations` iterations of external-sampling MCCFR (both seats traverse a fresh deal each iteration;
 * linear weighting: iteration t weighs t in regrets and averages) numbered from first_iteration, into
 * `store` (BD_MC_FULL when it fills: the store keeps every update made so far).  Returns BD_PLAY_OK,
 * BD_MC_FULL or an error. */
int32_t bd_mc_run(const bd_eng_config *cfg, const uint32_t *table, bd_mc_store *store,
                  const bd_abstraction *abstraction, int64_t first_iteration, int64_t iterations, uint64_t seed);

/* Every information state of `from` into `to` (empty, larger): returns BD_PLAY_OK or BD_MC_FULL. */
int32_t bd_mc_rehash(const bd_mc_store *from, bd_mc_store *to);

/* The average strategy of one information state: its probabilities into out[0..n) (uniform when the
 * store does not have it or it was never reached).  Returns the number of actions it has (0: none). */
int32_t bd_mc_lookup(const bd_mc_store *store, uint64_t key, int32_t n, double *out);
/* BD_CDEF_END */

#endif /* BD_LBR_H */
