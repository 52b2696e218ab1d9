/* showdown.h -- bulk showdowns and the one split of a pot of badacey_fast (plain C99, no Python.h).
 *
 * A showdown row is `seats` (2..6) five-card hands of uint8 card ids (4*rank + suit, 0..51), seat 0..
 * seats-1 clockwise, stored contiguously: hands[(row * seats + seat) * 5 + k].  Each pot is split in two
 * halves, best low and best badugi (dense ranks from the table of badacey.h, LOWER IS BETTER), each half
 * divided equally among its tied winners (RULES.md section 3).  Folded seats' cards are never read for
 * evaluation or validation.
 *
 * Odd chips (chip form): pot = 2*half + odd.  odd_low == 0 ("position"): each half is `half` chips and the
 * odd chip goes to the first winner of either half clockwise from the button (seat button+1 first, the
 * button last); odd_low != 0 ("low"): the low half is half + odd.  Chips a half cannot divide evenly go
 * one each to its winners, first clockwise from the button first.  A lone live seat takes the pot and
 * counts as winner of both halves.
 *
 * No global mutable state; every buffer is an argument; no access past a buffer whatever the input.
 * Every pointer is aligned to its element type (int64_t and double: 8 bytes): C may not load or store
 * through a misaligned one, so the Python layer copies such inputs and refuses such outputs
 * (badacey_fast/bulk/showdown.py _int64_rows, badacey_fast/bulk/evaluate.py _check_out), and every entry
 * point below refuses one as a bad argument (checked once a call, before any row).
 */
#ifndef BADACEY_SHOWDOWN_H
#define BADACEY_SHOWDOWN_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
#define BD_SD_OK 0
#define BD_SD_BAD_CARD 1
#define BD_SD_DUP_CARD 2
#define BD_SD_NO_LIVE 3
#define BD_SD_BAD_POT 4
#define BD_SD_BAD_BUTTON 5
#define BD_SD_BAD_ARGS 6

/* Settle n showdown rows.  live: n*seats bytes (0 = folded) or NULL for all live.  pot, button: n each,
 * or NULL for the share form.  Share form writes shares[n*seats] (doubles, rows sum to 1); chip form
 * writes chips[n*seats] (int64, rows sum to the pot).  low_win / badugi_win (n*seats bytes, 1 = won that
 * half) may be NULL; shares may be NULL too when a winner array is given (winners only).  Every row is
 * validated (live cards in 0..51 and all distinct, a live seat, pot >= 0, button in 0..seats-1).
 * status == NULL: stops at the first bad row and returns its index (its code in *code), rows before it
 *   written; returns -1 when every row was good.
 * status != NULL: status[i] = BD_SD_* code of each row; bad rows get zero payouts and no winners; returns
 *   the number of bad rows.
 * Bad arguments (seats outside 2..6, n < 0, a needed pointer NULL, a pointer not aligned to its element
 * type): returns -2, *code = BD_SD_BAD_ARGS (nothing written through a misaligned code itself). */
int64_t bd_showdown_many(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                         int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                         double *shares, int64_t *chips, uint8_t *low_win, uint8_t *badugi_win,
                         uint8_t *status, int32_t *code);

/* bd_showdown_many's chip form in the layout of a columnar payout table: seat s's chips of row i go to
 * chips[s * stride + i] (stride >= n: one int64 column per seat, e.g. stride == n for a (seats, n) array),
 * and the winners of each half to low_bits[i] / badugi_bits[i] as seat bitmasks (bit s set = seat s won
 * that half; either may be NULL).  pot and button are required.  Validation, status, code and the return
 * value as bd_showdown_many (bad rows, with status, pay nothing and have no winners); the same chips and
 * winners as bd_showdown_many row for row. */
int64_t bd_showdown_columns(const uint32_t *table, const uint8_t *hands, const uint8_t *live, int64_t n,
                            int32_t seats, const int64_t *pot, const int64_t *button, int32_t odd_low,
                            int64_t *chips, int64_t stride, uint8_t *low_bits, uint8_t *badugi_bits,
                            uint8_t *status, int32_t *code);

/* The one split of a pot among its winners (RULES.md section 3), the odd-chip rules above; its Python twin
 * is split_pot in badacey_fast/rules/odd_chips.py, and the C engine (engine.c) pays every pot with it.
 * low_winners / badugi_winners: seat masks (bit s = seat s) of each half's winners; a single-pot game
 * gives 0 for the half it does not play, and the other half's winners share the whole pot.  Writes
 * chips[0..seats) (every seat: 0 for the others), summing to amount.  Returns 0, or -1 for bad
 * arguments (chips NULL or misaligned, seats outside 1..6, amount < 0, button outside 0..seats-1, no
 * winner, a winner that is not a seat), then writing nothing. */
int32_t bd_split_pot(int64_t amount, int32_t button, int32_t seats, uint32_t low_winners, uint32_t badugi_winners,
                     int32_t odd_low, int64_t *chips);

/* bd_split_pot over n rows: pot[i], button[i] and the winner masks low_bits[i], badugi_bits[i] (uint8;
 * a NULL array is a half not played) into chips[i * row_step + s * seat_step] (row-major (n, seats):
 * row_step = seats, seat_step = 1; seat columns (seats, n): row_step = 1, seat_step = n).  Returns -1,
 * or the first row whose pot, button or winners bd_split_pot refuses (rows before it written), or -2 for
 * bad arguments (a NULL or misaligned pot, button or chips, n < 0, seats outside 1..6, a negative step). */
int64_t bd_split_many(const int64_t *pot, const int64_t *button, const uint8_t *low_bits, const uint8_t *badugi_bits,
                      int64_t n, int32_t seats, int32_t odd_low, int64_t *chips, int64_t row_step, int64_t seat_step);

/* BD_CDEF_END */

#endif /* BADACEY_SHOWDOWN_H */
