/* draw.h -- exact draw enumeration of badacey_fast (plain C99, no Python.h).
 *
 * One draw: a five-card hand keeps n_kept cards and receives k = 5 - n_kept replacements.  Every k-card
 * subset of the unseen cards is one equally likely outcome (the order of dealing does not matter), so
 * the histograms below count each subset once: C(n_unseen, k) outcomes, at most C(47, 5) = 1,533,939.
 * Ranks come from the table of badacey.h (low | badugi << 16), dense and LOWER IS BETTER.
 *
 * Histograms are indexed by rank: low_hist[r] counts outcomes of low rank r (r = 1..low_len-1; slot 0
 * stays untouched), badugi_hist[r] the same for badugi ranks.  The functions ADD to them, so the caller
 * zeroes them first.  Sizes are arguments and every rank read from the table is checked against them:
 * a corrupted table gives an error code, never a write past a buffer.
 *
 * No global mutable state; the table pointer is an argument.
 */
#ifndef BADACEY_DRAW_H
#define BADACEY_DRAW_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
#define BD_DRAW_BAD_ARGS -1
#define BD_DRAW_BAD_CARD -2
#define BD_DRAW_DUP_CARD -3
#define BD_DRAW_BAD_TABLE -4

/* Histograms of every replacement of 5 - n_kept cards from unseen[0..n_unseen) joined to kept[0..n_kept).
 * Cards are ids 0..51 and all distinct across both lists (checked).  n_kept 0..5; n_unseen 0..52.
 * Returns the number of outcomes counted (C(n_unseen, 5 - n_kept), 0 when too few cards are unseen), or
 * BD_DRAW_BAD_ARGS (sizes, NULL pointer), BD_DRAW_BAD_CARD (id > 51), BD_DRAW_DUP_CARD (a repeated card),
 * BD_DRAW_BAD_TABLE (a rank from the table is 0 or does not fit its histogram). */
int64_t bd_draw_histograms(const uint32_t *table, const uint8_t *kept, int32_t n_kept, const uint8_t *unseen,
                           int32_t n_unseen, uint64_t *low_hist, int32_t low_len, uint64_t *badugi_hist,
                           int32_t badugi_len);

/* All 32 discards of hand[0..5): for mask = 0..31 (bit i set = hand[i] thrown) the histograms of that draw
 * go to low_hist[mask * low_len ...] and badugi_hist[mask * badugi_len ...] (buffers of 32 * len each,
 * zeroed by the caller).  unseen must not contain a hand card.  Returns the total number of outcomes over
 * the 32 discards, or an error code as above. */
int64_t bd_draw_all_discards(const uint32_t *table, const uint8_t *hand, const uint8_t *unseen,
                             int32_t n_unseen, uint64_t *low_hist, int32_t low_len, uint64_t *badugi_hist,
                             int32_t badugi_len);
/* BD_CDEF_END */

#endif /* BADACEY_DRAW_H */
