/* observe.h -- the observation vector of the learning environments (badacey_fast.envs), N tables at once.
 *
 * The Python side describes what one seat sees of one hand as a compact row of int64 values (chips are
 * ints), passed as their bytes in native byte order (Python's struct format "=q": one pack of a list, no
 * alignment needed); this file turns rows into the documented float32[BD_OBS_SIZE] observation vectors (the layout is
 * in badacey_fast/envs/encoding.py, and the Python twin badacey_fast/kernel/_py.py `observe_many` gives
 * the same floats bit for bit).  A row, each field an int64:
 *
 *   [0] seats n (2..6)      [1] observing seat (0..n-1)   [2] button (0..n-1)
 *   [3] phase: 0 betting, 1 drawing, 2 neither (hand over, or a card owed in chance mode)
 *   [4] street (0..3)       [5] seat to act (-1..n-1)     [6] bet level of this round (chips)
 *   [7] bets and raises this round                        [8] bet size (chips)
 *   [9] chips per big blind (>= 1: the unit of every chip value of the vector)
 *   [10] draws so far, d (0..3)                           [11] own cards, k (0..5)
 *   then n stacks, n bets this round, n chips in the pot, n folded flags (0/1), n still-to-act flags
 *   (0/1), d rows of n discard counts (-1 = did not draw, else 0..5), and the k own cards (distinct ids
 *   0..51, any order).  Row length: BD_OBS_HEAD + (5 + d) * n + k, at most BD_OBS_ROW_MAX.  Chips,
 *   counts and the unit lie in 0..BD_OBS_CHIPS_MAX (the unit from 1).
 *
 * The level, the bet count and the still-to-act flags are read only while betting (phase 0), as the
 * observation shows them only then; they must still be in range otherwise.
 *
 * No global mutable state; every length is an argument and checked before any read or write.
 */
#ifndef BD_OBSERVE_H
#define BD_OBSERVE_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
#define BD_OBS_SIZE 223
#define BD_OBS_HEAD 12
#define BD_OBS_ROW_MAX 65
#define BD_OBS_BAD_ARGS -2
/* The largest chip value a row may hold (2**53: every chip count is then exact in a double, and sums of
 * six of them stay far from int64 overflow). */
#define BD_OBS_CHIPS_MAX 9007199254740992

/* Observation vectors of `count` rows, packed one after another as int64s in rows[0..rows_bytes) (no
 * padding: each row's length follows from its header), into out[0..count * BD_OBS_SIZE) (out_len floats
 * available), row i at out[i * BD_OBS_SIZE].  Every float of a written vector is set (zeros included):
 * out need not be cleared.  Returns -1 when every row was good and the rows filled rows_bytes exactly;
 * the index of the first bad row (a field out of its range above, a repeated card, or a row running past
 * rows_bytes), having written only the vectors before it; or BD_OBS_BAD_ARGS when count or a length is
 * negative, rows_bytes is not a multiple of 8, out_len is below count * BD_OBS_SIZE, a pointer is NULL
 * while needed, or ints are left over after the last row (the vectors are then all written). */
int64_t bd_observe_many(const uint8_t *rows, int64_t rows_bytes, int64_t count, float *out, int64_t out_len);
/* BD_CDEF_END */

#endif /* BD_OBSERVE_H */
