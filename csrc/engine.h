/* engine.h -- a C twin of the rules engine's hand loop (badacey_fast/game), one table per struct, and a bulk
 * step of N tables for the vectorised learning environment (badacey_fast/envs/gymnasium.py).
 *
 * The Python Game stays the reference and the one place each rule is spelled out (RULES.md sections 3-4);
 * this file follows it step by step (blinds/antes, the deal one card at a time clockwise from left of the
 * button, fixed-limit betting with the cap, heads-up-uncapped, all-in for less with half-bet reopening, no
 * raise nobody can call, a short big blind, three draws with the reshuffle procedure and the burn option,
 * uncalled chips returned, side pots and odd chips as badacey_fast.pots.settle), and
 * tests/test_engine_c.py drives both in lockstep on the same cards and actions.  Every preset (badacey,
 * badeucy, badugi, a5, 27) and every GameConfig option is twinned, the small games of RULES.md section 6
 * included (ranks, suits, hand size, draws: the deck is the R lowest ranks of the game's order in the first
 * S suits, dealt from its sorted card ids; the hand ends at the showdown after betting round `draws`);
 * extra posts of a joining player are not (the environments never post them).
 *
 * Cards are dealt by lazy Fisher-Yates draws (each card uniform over the stub: the same distribution as
 * a shuffled deck) from a xoshiro256** generator seeded by splitmix64, held in the table's own state, with
 * unbiased bounded draws (Lemire's multiply-and-reject).  The opponents of the learner are random bots with
 * game/bots.RandomBot's distribution: a uniform choice among the legal betting actions, a uniform subset of
 * the hand as discards.  The stream is deterministic per seed but is not Python's.
 *
 * Caller-allocated, fixed-size state (bd_eng_table); no global mutable state; the evaluation table is an
 * argument (the Badacey table for badacey/badugi/a5, the Badeucy one for badeucy/27: BD_ENG_ACE_HIGH says
 * which).  Every exported function checks the state it is given (bd_eng_check) before using any of it as an
 * index, so a damaged state is refused, never trusted: no read or write past a buffer whatever the input.
 */
#ifndef BD_ENGINE_H
#define BD_ENGINE_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
#define BD_ENG_SEATS 6
#define BD_ENG_DEALT_MAX 128 /* cards a hand can deal: 30 + 3 draws x (6 seats x 5 + a burn) = 123 */
#define BD_ENG_LOG_MAX 1024  /* actions logged per hand (the replay tests); more are counted (to INT32_MAX), not kept */
#define BD_ENG_NO_CAP 1152921504606846976 /* 1 << 60: Game's "no cap" */
/* Return codes. */
#define BD_ENG_OK 0
#define BD_ENG_ILLEGAL 1   /* the action is not legal now (nothing changed) */
#define BD_ENG_BAD_STATE 2 /* the table state is out of range (damaged, or never dealt) */
#define BD_ENG_BAD_ARGS 3  /* a NULL pointer, a count out of range, a bad config */
#define BD_ENG_RAN_OUT 4   /* the cards owed cannot be dealt (never, with a deck GameConfig accepted) */
/* Phases: the observation row's codes. */
#define BD_ENG_BETTING 0
#define BD_ENG_DRAWING 1
#define BD_ENG_COMPLETE 2
/* Action kinds of bd_eng_act and of the log: the environments' betting indices, then a draw. */
#define BD_ENG_FOLD 0
#define BD_ENG_CALL 1 /* check or call */
#define BD_ENG_RAISE 2 /* bet or raise */
#define BD_ENG_DRAW 3

typedef struct bd_eng_config {
    int64_t small_blind, big_blind, ante, small_bet, big_bet;
    int64_t cap;      /* bets per round including the opening bet; BD_ENG_NO_CAP for none */
    int64_t stacks[6]; /* each seat's chips at the start of each hand (> 0; seats beyond `seats` unread) */
    int32_t game;     /* 0 badacey, 1 badeucy, 2 badugi, 3 a5, 4 27 (rules/games.py PRESETS order) */
    int32_t seats;    /* 2..6 */
    int32_t learner;  /* the environment's seat (0..seats-1) */
    int32_t heads_up_uncapped, burn, odd_low; /* 0/1 */
    /* The game's size (GameConfig; the full game: 13, 4, 5 or Badugi's 4, 3).  ranks 1..13 (the lowest of the
     * game's order: A.. for badacey/badugi/a5, 2.. then A for badeucy/27), suits 1..4 (4 but in Badugi:
     * 2..4), hand_size 5 (Badugi: 1..4), draws 0..3.  Whether the deck is big enough for the seats is
     * GameConfig's rule (rules/decks.py); here a deal or draw short of cards is refused (BD_ENG_RAN_OUT). */
    int32_t ranks, suits, hand_size, draws;
} bd_eng_config;

typedef struct bd_eng_table {
    bd_eng_config cfg;
    uint64_t rng[4]; /* xoshiro256** */
    int64_t stacks[6], contrib[6], sbet[6], payouts[6], returned[6];
    int64_t level, full_level, nbets, bet_size;
    int32_t button, next_button, street, phase, to_act, nlive, nactive, sb_seat, bb_seat;
    int32_t hand_size, ndraws, nqueue, nstub, nmuck, ndealt, nreshuffles, nlog; /* hand_size = cfg.hand_size */
    int8_t discards[3][6]; /* discard counts per draw and seat, -1 = not drawn (Game.discard_counts) */
    uint8_t hands[6][5];   /* in Game.hands order: kept cards, then the replacements in dealing order */
    uint8_t hand_len[6], folded[6], pending[6], can_raise[6];
    uint8_t queue[6];      /* seats still to draw, the next at queue[nqueue - 1] */
    uint8_t stub[52], muck[52]; /* cards of the game's deck only */
    uint8_t dealt[128];    /* every card dealt this hand in dealing order, burns included (Game.dealt) */
    /* The hand's actions: seat << 8 | kind << 5 | discards (hand positions, bit j = hands[seat][j]). */
    uint16_t log[1024];
} bd_eng_table;

/* Check a config, then start a table: the config copied in, the generator seeded from `seed`, the button
 * at seat 0 for the first hand.  No hand is dealt.  Returns BD_ENG_OK or BD_ENG_BAD_ARGS. */
int32_t bd_eng_init(bd_eng_table *t, const bd_eng_config *cfg, uint64_t seed);

/* Deal a new hand with the button at `button` (each seat starting with cfg.stacks): antes, blinds, the
 * deal, the first betting round.  Returns BD_ENG_OK, BD_ENG_BAD_ARGS or BD_ENG_BAD_STATE. */
int32_t bd_eng_deal(bd_eng_table *t, int32_t button);

/* The legal actions of the seat to act as Game.legal_actions shows them: returns the mask code of
 * envs/encoding.mask_code (0 nothing; betting: bit 1 fold, 2 check/call, 4 bet/raise; drawing: 8 + cards
 * held), the chips a call adds in *call and the total a bet/raise makes in *target (0 when not legal);
 * -1 for a bad state. */
int32_t bd_eng_legal(const bd_eng_table *t, int64_t *call, int64_t *target);

/* Apply one action of the seat to act: kind BD_ENG_FOLD/CALL/RAISE while betting, BD_ENG_DRAW with
 * `discards` (bit j = hand position j) while drawing.  `table` is needed when the action ends the hand
 * at a showdown.  Returns BD_ENG_OK, or BD_ENG_ILLEGAL / BD_ENG_BAD_STATE / BD_ENG_BAD_ARGS with nothing
 * changed. */
int32_t bd_eng_act(bd_eng_table *t, const uint32_t *table, int32_t kind, int32_t discards);

/* What `seat` sees, as observe.h's int64 row, into row[0..cap).  Returns its length, or -1. */
int64_t bd_eng_obs_row(const bd_eng_table *t, int32_t seat, int64_t *row, int64_t cap);

/* One hand of the environment's deal loop: a new hand with the button at t->next_button (which then moves
 * one seat), the bots acting until the learner's decision or the end of the hand (a hand the learner never
 * acts in: bd_eng_reset_many and bd_eng_step_many deal again).  Returns a BD_ENG_ code. */
int32_t bd_eng_next_hand(bd_eng_table *t, const uint32_t *table);

/* The vectorised environment's reset of n tables (each already bd_eng_init'ed): each deals hands (the
 * button moving one seat a hand) and its bots act until the learner has a decision.  The learner's
 * observations go to obs[k * BD_OBS_SIZE..] (obs_len floats available) and the mask codes to codes[k].
 * Returns -1, the index of the first table refused (bad state), or -2 for bad arguments. */
int64_t bd_eng_reset_many(bd_eng_table *ts, int64_t n, const uint32_t *table, float *obs, int64_t obs_len,
                          int64_t *codes);

/* One table's step without the autoreset: the learner's action index (0..2 betting, 3 + m a draw of the
 * sorted hand's cards in m; refused outside 0..3 + 2**hand_size - 1, or when it is not the learner's turn)
 * decoded as envs/encoding.decode does (an illegal index replaced by the nearest legal action, *illegal =
 * 1), then the bots until the learner's next decision or the end of the hand.  Returns a BD_ENG_ code. */
int32_t bd_eng_step_one(bd_eng_table *t, const uint32_t *table, int64_t action, uint8_t *illegal);

/* The vectorised environment's step of n tables: bd_eng_step_one of actions[k] at table k (illegal[k]
 * as there's *illegal).  A finished hand: rewards[k] = the learner's net chips in big blinds (plus, added
 * after it, those of the hands dealt next that end before the learner acts), term[k] = 1, its final
 * observation into final_obs (rows of unfinished tables are left as they were), and the next hand is dealt
 * (same-step autoreset).  obs, codes as bd_eng_reset_many.  Returns -1, the first table refused (a bad
 * state or an action refused by bd_eng_step_one; the tables before it stepped), or -2 for bad arguments. */
int64_t bd_eng_step_many(bd_eng_table *ts, int64_t n, const uint32_t *table, const int64_t *actions, float *obs,
                         float *final_obs, int64_t obs_len, double *rewards, uint8_t *term, uint8_t *illegal,
                         int64_t *codes);
/* BD_CDEF_END */

/* A table state whose every index is in range and whose counts agree with its flags (returns 1) -- the check
 * of every exported function. */
int bd_eng_check(const bd_eng_table *t);

/* For C callers only (csrc/simulate.c; not in the cdef): a player's decision.  Given the table (read only),
 * the seat to act (t->to_act), the legal set as bd_eng_legal's mask code with its call and target, it
 * returns the action kind (BD_ENG_FOLD / CALL / RAISE while betting, BD_ENG_DRAW while drawing) and sets
 * *discards (bit j = hand position j) for a draw.  `ctx` is the caller's. */
typedef int32_t (*bd_eng_decide)(void *ctx, const bd_eng_table *t, int32_t code, int64_t call, int64_t target,
                                 int32_t *discards);

/* Play the hand in progress to its end, `decide` choosing every action: the state is checked once
 * (bd_eng_check), then each action is checked against the legal set as bd_eng_act checks it and applied,
 * so a whole simulated hand costs one check instead of one per action.  Returns BD_ENG_OK, BD_ENG_BAD_ARGS
 * (a NULL argument), BD_ENG_BAD_STATE, or BD_ENG_ILLEGAL when `decide` chose an illegal action (the hand
 * is then left at that decision, unchanged by it). */
int32_t bd_eng_play(bd_eng_table *t, const uint32_t *table, bd_eng_decide decide, void *ctx);

#endif /* BD_ENGINE_H */
