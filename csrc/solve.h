/* solve.h -- exact best response, exploitability and CFR for small heads-up draw games, and the suit
 * isomorphism of hands and hand sequences (plain C11, no Python.h).  The Python side is
 * badacey_fast/solve (it builds the game description below from a GameConfig; the pure-Python twin of
 * every function here lives there too).
 *
 * The game is described by its PUBLIC tree -- the betting and the number of cards each seat draws, what
 * both seats see -- and, per seat and public node, a LAYER of private states: every sequence of hands
 * the seat may hold (the deal, then each draw: which cards it threw, which it received), in a fixed order
 * (deal hands in colex order; a draw's children of a state contiguous: discard mask by rank among the
 * masks of its size, then the received cards in colex order over the cards the seat never held).  Cards
 * are deck POSITIONS 0..n_cards-1 (the Python side maps them to card ids), sets of them are uint64 bits.
 *
 * Card removal is exact: a pair of private states (one per seat) is possible when the cards each ever
 * held are disjoint, and every possible pair at a public node has the same chance probability (given by
 * the node), because the deck is dealt uniformly.  A terminal's value sums, for each state of one seat,
 * over the compatible states of the other by inclusion-exclusion over the subsets of its own cards; a
 * showdown sweeps both layers in rank order (lower is better) so each state's wins, ties and losses
 * come out in one pass.  Values are chips to the seat named, weighted by chance and the opponent's
 * reach (counterfactual values); a best response takes, per private state, the action of highest value.
 *
 * Rules: no global mutable state; every exported function first checks the game description
 * (bd_sv_check: every index in range, every layer's size and cards consistent with its parent), so a
 * wrong description gives an error code, never a read or write past a buffer; scratch memory is
 * allocated inside a call and freed before it returns (BD_SV_NO_MEMORY when it cannot be).
 */
#ifndef BD_SOLVE_H
#define BD_SOLVE_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
#define BD_SV_OK 0
#define BD_SV_BAD_ARGS -1  /* a NULL pointer, a size out of range */
#define BD_SV_BAD_GAME -2  /* the game description is inconsistent (bd_sv_check) */
#define BD_SV_NO_MEMORY -3 /* scratch memory could not be allocated */
#define BD_SV_TOO_LARGE -4 /* beyond what the exact path handles (cards held, subset tables, depth) */

/* Node kinds. */
#define BD_SV_FOLD 0     /* terminal: `player` folded */
#define BD_SV_SHOWDOWN 1 /* terminal: showdown */
#define BD_SV_BET 2      /* `player` bets: children are its legal actions in order */
#define BD_SV_DRAW 3     /* `player` draws: child k (0..hand_size) follows a draw of k cards */

#define BD_SV_MAX_SEEN 16  /* cards a seat may hold over a hand, on the exact path */
#define BD_SV_MAX_DEPTH 96 /* nodes on a path from the root */

/* CFR variants of bd_sv_cfr. */
#define BD_SV_CFR 0        /* vanilla CFR: regret matching, uniform averaging, simultaneous updates */
#define BD_SV_CFR_PLUS 1   /* CFR+: regret matching+, linear averaging, alternating updates */
#define BD_SV_DCFR 2       /* discounted CFR (alpha, beta, gamma), alternating updates */

typedef struct bd_sv_game {
    int32_t n_cards;   /* deck size, 2..52 (positions 0..n_cards-1) */
    int32_t hand_size; /* 1..5 */
    int32_t n_halves;  /* 1 (one pot) or 2 (split pot) */
    int32_t n_nodes;
    int32_t n_layers;
    /* Nodes (node 0 is the root; every child has a larger index than its parent). */
    const int32_t *kind;    /* [n_nodes] BD_SV_* */
    const int32_t *player;  /* [n_nodes] the seat (0 or 1) acting, or folding */
    const int32_t *child;   /* [n_nodes] index of the first child (children are contiguous) */
    const int32_t *n_child; /* [n_nodes] BD_SV_BET: 1..3 actions; BD_SV_DRAW: hand_size + 1; else 0 */
    const int32_t *layer;   /* [2 * n_nodes] seat 0's layer, then seat 1's, of each node */
    const int64_t *offset;  /* [n_nodes] a decision node's block in strategy-shaped arrays: one row per
                               private state of the actor, n_child (bet) or 2**hand_size (draw) columns */
    int64_t strategy_size;  /* entries of a strategy-shaped array */
    /* Terminal payoffs, chips to seat 0, 8 per node: fold [0] (seat 0's chips: its loss when it folded,
       the other's contribution when seat 1 did); showdown [0] a constant, then per half seat 0's chips
       when it wins, ties, loses that half at [1..3] and [4..6]: the payoff is [0] plus one term per half
       (additive: a heads-up pot, always even, splits so). */
    const double *payoff;
    const double *chance;   /* [n_nodes] the probability of each compatible pair of private states */
    /* Layers: states layer_start[L] .. layer_start[L + 1] of the flat arrays below. */
    const int64_t *layer_start;  /* [n_layers + 1] */
    const int32_t *layer_parent; /* [n_layers] the layer drawn from, -1 for the deal */
    const int32_t *layer_draw;   /* [n_layers] cards drawn from the parent (0 for the deal) */
    const int32_t *layer_seen;   /* [n_layers] cards ever held by a state of the layer */
    const uint64_t *hand;        /* [states] the hand held now */
    const uint64_t *seen;        /* [states] every card held so far */
    const uint16_t *rank;        /* [n_halves * states] per half, the rank of the hand held (lower wins) */
    const uint32_t *order;       /* [n_halves * states] per half and layer: the layer's states by rank */
} bd_sv_game;

/* The deal layer: every hand of hand_size positions out of n_cards, in colex order, into hand[] and
 * seen[] (cap entries available).  Returns the count, or BD_SV_BAD_ARGS / BD_SV_TOO_LARGE. */
int64_t bd_sv_deal_layer(int32_t n_cards, int32_t hand_size, uint64_t *hand, uint64_t *seen, int64_t cap);

/* The layer after a draw of k cards from a parent layer of n_parent states: for each parent, each
 * discard mask of k of its hand_size cards (bit j = its j-th lowest card; masks of k bits in increasing
 * order), each k-set of the positions it never held (colex): the new hand and cards seen.  Returns the
 * count (n_parent * C(hand_size, k) * C(n_cards - seen, k)), or an error code. */
int64_t bd_sv_draw_layer(int32_t n_cards, int32_t hand_size, const uint64_t *parent_hand,
                         const uint64_t *parent_seen, int64_t n_parent, int32_t k, uint64_t *hand, uint64_t *seen,
                         int64_t cap);

/* BD_SV_OK when every index, size and layer of the description is consistent, else BD_SV_BAD_GAME. */
int32_t bd_sv_check(const bd_sv_game *g);

/* The best response of `seat` to `strategy` (strategy-shaped, the other seat's rows read: each row a
 * probability distribution over its actions or discard masks).  *value = its expected chips per hand.
 * `best` (strategy-shaped, or NULL): the best response's own rows get a pure strategy (ties: the first
 * action of highest value), the other rows are left as they are. */
int32_t bd_sv_best_response(const bd_sv_game *g, const double *strategy, int32_t seat, double *value,
                            double *best);

/* Seat 0's expected chips per hand when both seats play `strategy`. */
int32_t bd_sv_profile_value(const bd_sv_game *g, const double *strategy, double *value);

/* `iterations` iterations of CFR (variant BD_SV_*), numbered first_iteration, first_iteration + 1, ...
 * (1-based; weights and discounts use them).  regret[] and average[] are strategy-shaped and carry the
 * state between calls (start both at 0); the current strategy is regret matching of regret[], the
 * average strategy is average[] normalised per row.  alpha, beta, gamma: DCFR's discounts. */
int32_t bd_sv_cfr(const bd_sv_game *g, double *regret, double *average, int64_t first_iteration,
                  int64_t iterations, int32_t variant, double alpha, double beta, double gamma);

/* Suit isomorphism.  A hand of card ids (0..51, card = 4 * rank + suit) is put in canonical form by
 * renaming its suits so that their rank masks are in decreasing order (suit 0 the largest): two hands
 * are isomorphic exactly when their canonical forms are equal.  A sequence of hands (an information
 * state's hands through its draws) is renamed the same way, each suit keyed by its masks at every stage
 * in turn.  cards: n_stages rows of `size` cards; out: the same shape, canonical (rows sorted).
 * Returns BD_SV_OK or BD_SV_BAD_ARGS (a card out of range or repeated within a row, sizes). */
int32_t bd_iso_canonical(const uint8_t *cards, int32_t size, int32_t n_stages, uint8_t *out);

/* The class table of hands of `size` cards (1..5) of the full deck: class_of[colex index of the sorted
 * cards] = dense class index (classes numbered in colex order of their canonical hands), and
 * first[class] = the colex index of its canonical hand.  class_of has C(52, size) entries, first `cap`.
 * Returns the number of classes (5 cards: 134,459; 4: 16,432) or an error code. */
int64_t bd_iso_hand_table(int32_t size, uint32_t *class_of, int64_t n_class_of, uint32_t *first, int64_t cap);

/* ------------------------------------------------------------------------------------------------
 * The COMPACT exact path: the same public tree, each seat's private states merged twice over, with no
 * loss (Gilpin & Sandholm 2007, "Lossless abstraction of imperfect information games"):
 *  - by what is left of them: the hand held now and the cards it threw (its DEAD cards).  Two sequences
 *    of hands that end in the same hand after throwing the same cards face the same opponents (card
 *    removal depends on every card held) with the same cards to come, whatever was kept or received
 *    when: their counterfactual values are equal under every strategy, so they share one row;
 *  - by suit renaming (Badugi and every lowball scale rank suits alike): one canonical state per class,
 *    weighted by its class's size where reaches are pushed through a draw.
 * A state of a seat that threw d cards so far is (hand, dead) with |dead| = d: its SPACE d.  Terminals
 * sum over the opponent's compatible states exactly, without inclusion-exclusion: the opponent's reach
 * is gathered per canonical set of cards it holds or threw (per rank class of its hand), summed up the
 * lattice of canonical card sets to the complement of each of my sets (every set it may hold is a subset
 * of the cards I never saw), and read there in rank order (Johanson et al. 2011's sorted sweep, per class).
 * A strategy read here is symmetric by construction (rows are canonical states; a draw row's masks are
 * in the canonical hand's own order).  Limits: 2 * ranks * suits <= 64 (the state key), n_cards <= 32. */
typedef struct bd_cs bd_cs; /* the built tables of one game (opaque; bd_cs_new, bd_cs_free) */

typedef struct bd_cs_game {
    int32_t n_ranks, n_suits; /* the deck: positions p = rank * n_suits + suit */
    int32_t hand_size, n_halves, n_nodes;
    const int32_t *kind, *player, *child, *n_child; /* [n_nodes] as bd_sv_game */
    const int32_t *thrown;    /* [2 * n_nodes] cards seat 0 (then seat 1) threw before the node */
    const double *payoff;     /* [8 * n_nodes] as bd_sv_game */
    const double *chance;     /* [n_nodes] as bd_sv_game */
    const int32_t *n_classes; /* [n_halves] rank classes per half (1..4096) */
    const uint16_t *hand_class; /* [n_halves * C(n_cards, hand_size)] per half, by colex index of the hand:
                                   its rank class (lower wins) */
} bd_cs_game;

/* Build the tables of `g` (every array copied: `g` may go once this returns) into *out.  Returns BD_SV_OK,
 * BD_SV_BAD_ARGS / BD_SV_BAD_GAME (an inconsistent description), BD_SV_TOO_LARGE, BD_SV_NO_MEMORY. */
int32_t bd_cs_new(const bd_cs_game *g, bd_cs **out);
void bd_cs_free(bd_cs *c);
/* Canonical states of space `thrown` (-1: none built). */
int64_t bd_cs_space_size(const bd_cs *c, int32_t thrown);
/* Entries of a compact strategy, and each node's offset into it (offset[n_nodes]; -1 at terminals):
 * a decision's rows are the actor's canonical states, its columns the actions or the 2**hand_size masks. */
int64_t bd_cs_strategy_size(const bd_cs *c);
int32_t bd_cs_offsets(const bd_cs *c, int64_t *offset, int32_t n_nodes);
/* The canonical state `index` of space `thrown`: its hand and dead cards (position bits), and the size
 * of its suit class. */
int32_t bd_cs_state(const bd_cs *c, int32_t thrown, int64_t index, uint64_t *hand, uint64_t *dead, double *orbit);
/* The index of the canonical form of (hand, dead) in space popcount(dead); *perm gets the renaming:
 * suit j of the input is suit perm[j] of the canonical state (perm: n_suits entries).  -1 if invalid. */
int64_t bd_cs_index(const bd_cs *c, uint64_t hand, uint64_t dead, int32_t *perm);
/* `seat`'s expected chips per hand when it best-responds (follow = 0) to, or plays (follow = 1), the
 * compact `strategy` (strategy_size entries; NULL: uniform), the other seat playing `strategy`. */
int32_t bd_cs_value(const bd_cs *c, const double *strategy, int64_t size, int32_t seat, int32_t follow,
                    double *value);
/* `iterations` iterations of CFR (variant BD_SV_*, as bd_sv_cfr: numbered from first_iteration, seats
 * alternating) over the compact layout: regret[] and average[] are compact-strategy-shaped (`size`
 * entries; start both at 0), the current strategy is regret matching of regret[] per canonical state, the
 * average strategy average[] normalised per row (a compact strategy for bd_cs_value). */
int32_t bd_cs_cfr(const bd_cs *c, double *regret, double *average, int64_t size, int64_t first_iteration,
                  int64_t iterations, int32_t variant, double alpha, double beta, double gamma);
/* BD_CDEF_END */

#endif /* BD_SOLVE_H */
