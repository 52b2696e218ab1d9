/* simulate.h -- many hands between built-in bots in the C hand loop: game/simulate.py's loop, for its
 * engine="c" (every seat a RandomBot or a RuleBot, csrc/bots.c).
 *
 * Hand h of a run (h = first, first + 1, ...) is dealt with the button at seat h % seats and every seat's
 * stack at the config's (a cash game with top-ups, as game/simulate.py plays it), then played to its end by
 * the bots.  The sums of each seat's net chips and of its square are exact or refused: an addition that would
 * overflow int64 stops the run with BD_SIM_OVERFLOW (the caller sizes its runs so that this never happens
 * with the chips it allows, and keeps the grand sums itself).
 */
#ifndef BD_SIMULATE_H
#define BD_SIMULATE_H

#include <stdint.h>

#include "bots.h"
#include "engine.h"

/* BD_CDEF_BEGIN */
#define BD_SIM_OVERFLOW 5 /* a sum would overflow int64 (after BD_ENG_*'s codes 0..4) */

typedef struct bd_sim_sums {
    int64_t totals[6];  /* each seat's net chips, summed over the hands played */
    int64_t squares[6]; /* ... and their squares */
    int64_t showdowns;  /* hands that reached a showdown (two or more seats live at the end) */
} bd_sim_sums;

/* Per-hand records, each array of `rows` rows (row k: the k-th hand of the call), or NULL when not kept.
 * Per-seat arrays hold 6 entries a row whatever the seats (seats beyond the table's left 0). */
typedef struct bd_sim_records {
    int64_t rows;
    int64_t *net;      /* rows x 6: the seat's chips at the end minus at the start */
    uint8_t *cards;    /* rows x 6 x 5: the cards held at the end (a folded seat's when it folded), 255 = none */
    uint8_t *folded;   /* rows x 6: 1 = folded */
    uint8_t *button;   /* rows */
    uint8_t *showdown; /* rows: 1 = two or more seats live at the end */
    int64_t *pot;      /* rows: the chips paid out (every contribution but uncalled chips returned) */
} bd_sim_records;

/* Play `hands` hands (0..2**40) numbered first.. (first >= 0) on table t (bd_eng_init'ed; its generator deals)
 * with bots b (seats equal to the table's), adding into *sums and writing the records of `rec` (may be NULL;
 * its arrays must hold at least `hands` rows).  Returns BD_ENG_OK, BD_ENG_BAD_ARGS (a NULL argument, bad
 * counts, bots for other seats, records too short), BD_ENG_BAD_STATE, BD_SIM_OVERFLOW (the sums of the hands
 * before it kept) or another BD_ENG_ code from the engine. */
int32_t bd_sim_run(bd_eng_table *t, const uint32_t *table, bd_bots *b, int64_t first, int64_t hands,
                   bd_sim_sums *sums, const bd_sim_records *rec);
/* BD_CDEF_END */

#endif /* BD_SIMULATE_H */
