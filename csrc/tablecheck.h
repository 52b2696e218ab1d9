/* tablecheck.h -- the range check of a lookup table's payload, run when Python loads a table.
 *
 * The CRC-32 of the header proves the payload is the one written with it, not that it is a table: a
 * crafted or miswritten file with a recomputed checksum (all zeros, all 0xFF) would give rank 0 or
 * 65535, or trip the kernel's "invalid input" return value (0).  Checking every entry against its scale
 * at load makes every later lookup trustworthy.  In C because numpy is not imported by
 * `import badacey_fast` + a first evaluate, and importing it for this check would cost ~50 ms.
 */
#ifndef BD_TABLECHECK_H
#define BD_TABLECHECK_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
/* Index of the first entry of a BD_TABLE_ENTRIES-entry table of game 0 (Badacey) or 1 (Badeucy)
 * outside its range, or -1 if there is none; -2 if game is neither 0 nor 1.  Five-card entries need
 * low rank 1..6175 (1..7462 for Badeucy) and badugi rank 1..1092; the entry of a rank mask with 1 to 4
 * bits needs badugi rank 1..1092 and a zero low half; other masks' entries must be 0. */
int64_t bd_table_first_bad(const uint32_t *table, int game);
/* BD_CDEF_END */

#endif
