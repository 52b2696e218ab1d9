/* deals.h -- the fast paths of badacey_fast's deal files (plain C99, no Python.h): the strict forms of a
 * deal line parsed into showdown rows (as showdown.h lays them out: five uint8 card ids a seat, 4*rank +
 * suit), and result rows formatted as CSV.  Python (badacey_fast/files/) parses every other form and
 * words every error; these only make the common forms fast.
 *
 * No global mutable state; every buffer is an argument, with its length; no access past a buffer
 * whatever the input.
 */
#ifndef BADACEY_DEALS_H
#define BADACEY_DEALS_H

#include <stdint.h>

/* BD_CDEF_BEGIN */
/* Deal-file fast path: parse the complete lines of buf[0..len) (each ends with "\n", "\r\n" or a lone
 * "\r"; the last one may end at len), at most max_rows of them.  For line i: flags[i] = 0 parsed, 1 "let
 * Python parse it" (anything but the strict forms below, so Python alone words errors), 2 blank or '#'
 * comment; line_start[i] / line_len[i] locate it (without its line end).  Parsed lines fill hands[i*seats*5..],
 * live[i*seats..], pot[i] and button[i] (-1 when the line does not give them).
 * csv == 0: whitespace-separated tokens: up to two leading digit tokens (pot, then button), then
 *   exactly `seats` hands, each 10 characters of rank+suit pairs (A23456789TJQK any case, cdhs any case)
 *   or "-" for a folded seat.
 * csv != 0: exactly ncolumns comma-separated fields, column kinds in columns[]: 0..5 that seat, 6 pot,
 *   7 button, -1 ignored; fields are trimmed of spaces; a seat field is one 10-character hand, or empty /
 *   "-" (folded); a pot or button field is digits or empty (not given); a '"', or a non-ASCII byte in an
 *   ignored field, sends the line to Python.
 * Returns the number of lines scanned; *consumed = bytes consumed.  Returns -1 on bad arguments. */
int64_t bd_parse_deals(const char *buf, int64_t len, int32_t seats, int32_t csv, const int8_t *columns,
                       int32_t ncolumns, int64_t max_rows, uint8_t *hands, uint8_t *live, int64_t *pot,
                       int64_t *button, uint8_t *flags, int64_t *line_start, int64_t *line_len,
                       int64_t *consumed);

/* Format result rows as CSV "line,chips_0,...,chips_{seats-1},low_winners,badugi_winners\n" (winners as
 * seat numbers separated by spaces) for rows with keep[i] != 0, into out[0..cap).  Returns the bytes
 * written, or -1 if cap is too small (nothing useful written) or the arguments are bad. */
int64_t bd_format_results(const int64_t *line_no, const int64_t *chips, const uint8_t *low_win,
                          const uint8_t *badugi_win, const uint8_t *keep, int64_t n, int32_t seats,
                          char *out, int64_t cap);
/* BD_CDEF_END */

#endif /* BADACEY_DEALS_H */
