/* deals.c -- the fast paths of deal files: parsing their strict lines, formatting result rows.  See deals.h. */
#include "deals.h"

#include <string.h>

#define DL_MAX_SEATS 6 /* a showdown row's seats (showdown.h) */

/* ---------------------------------------------------------------------------------------------- */
/* Deal-file parsing (strict forms only; Python parses and words everything else)                 */

/* rank + 1 and suit + 1 of a character, 0 if it is not one (so a zero-initialised table works). */
static const uint8_t dl_rank1[256] = {
    ['A'] = 1, ['a'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4,  ['5'] = 5,  ['6'] = 6,  ['7'] = 7,  ['8'] = 8,
    ['9'] = 9, ['T'] = 10, ['t'] = 10, ['J'] = 11, ['j'] = 11, ['Q'] = 12, ['q'] = 12, ['K'] = 13, ['k'] = 13,
};
static const uint8_t dl_suit1[256] = {
    ['c'] = 1, ['C'] = 1, ['d'] = 2, ['D'] = 2, ['h'] = 3, ['H'] = 3, ['s'] = 4, ['S'] = 4,
};

static int dl_hand10(const char *p, uint8_t *cards)
{
    for (int k = 0; k < 5; k++) {
        unsigned r = dl_rank1[(unsigned char)p[2 * k]], s = dl_suit1[(unsigned char)p[2 * k + 1]];
        if (!r || !s)
            return 0;
        cards[k] = (uint8_t)(4 * (r - 1) + (s - 1));
    }
    return 1;
}

/* Digits only, at most 18 of them (fits int64): the value, else -2 (not a number). */
static int64_t dl_number(const char *p, int64_t len)
{
    if (len < 1 || len > 18)
        return -2;
    int64_t v = 0;
    for (int64_t k = 0; k < len; k++) {
        if (p[k] < '0' || p[k] > '9')
            return -2;
        v = v * 10 + (p[k] - '0');
    }
    return v;
}

static int dl_space(char c) { return c == ' ' || c == '\t'; }

/* A seat token: 10-char hand -> live, "-" or empty -> folded (allowed_empty), else 0. */
static int dl_seat(const char *p, int64_t len, int allow_empty, uint8_t *cards, uint8_t *live)
{
    if (len == 10 && dl_hand10(p, cards)) {
        *live = 1;
        return 1;
    }
    if ((len == 1 && p[0] == '-') || (len == 0 && allow_empty)) {
        memset(cards, 0, 5);
        *live = 0;
        return 1;
    }
    return 0;
}

static int dl_plain_line(const char *p, int64_t len, int32_t seats, uint8_t *hands, uint8_t *live, int64_t *pot,
                         int64_t *button)
{
    int32_t nseat = 0, nnum = 0;
    int64_t pos = 0;
    while (pos < len) {
        while (pos < len && dl_space(p[pos]))
            pos++;
        if (pos >= len)
            break;
        int64_t start = pos;
        while (pos < len && !dl_space(p[pos]))
            pos++;
        int64_t v = dl_number(p + start, pos - start);
        if (v >= 0) {
            if (nseat > 0 || nnum >= 2)
                return 0;
            *(nnum++ == 0 ? pot : button) = v;
        } else if (nseat >= seats || !dl_seat(p + start, pos - start, 0, hands + 5 * nseat, live + nseat)) {
            return 0;
        } else {
            nseat++;
        }
    }
    return nseat == seats;
}

static int dl_csv_line(const char *p, int64_t len, int32_t seats, const int8_t *columns, int32_t ncolumns,
                       uint8_t *hands, uint8_t *live, int64_t *pot, int64_t *button)
{
    if (memchr(p, '"', (size_t)len))
        return 0;
    int32_t f = 0;
    int64_t pos = 0;
    for (;;) {
        int64_t end = pos;
        while (end < len && p[end] != ',')
            end++;
        int64_t a = pos, b = end;
        while (a < b && dl_space(p[a]))
            a++;
        while (b > a && dl_space(p[b - 1]))
            b--;
        if (f >= ncolumns)
            return 0;
        int kind = columns[f++];
        if (kind >= 0 && kind < seats) {
            if (!dl_seat(p + a, b - a, 1, hands + 5 * kind, live + kind))
                return 0;
        } else if (kind == 6 || kind == 7) {
            int64_t v = b == a ? -1 : dl_number(p + a, b - a);
            if (v == -2)
                return 0;
            *(kind == 6 ? pot : button) = v;
        } else if (kind != -1) {
            return 0;
        } else {
            /* An ignored column is not read, but the line must still be UTF-8 text: a non-ASCII byte
             * sends the line to Python, which decodes the whole line (and words the error if it fails). */
            for (int64_t k = pos; k < end; k++)
                if ((unsigned char)p[k] >= 0x80)
                    return 0;
        }
        if (end >= len)
            break;
        pos = end + 1;
    }
    return f == ncolumns;
}

int64_t bd_parse_deals(const char *buf, int64_t len, int32_t seats, int32_t csv, const int8_t *columns,
                       int32_t ncolumns, int64_t max_rows, uint8_t *hands, uint8_t *live, int64_t *pot,
                       int64_t *button, uint8_t *flags, int64_t *line_start, int64_t *line_len,
                       int64_t *consumed)
{
    /* misaligned pointers refused, not stored through: as bd_showdown_many does (showdown.h) */
    const uintptr_t misaligned = ((uintptr_t)pot | (uintptr_t)button | (uintptr_t)line_start | (uintptr_t)line_len |
                                  (uintptr_t)consumed) & 7;
    if (!buf || len < 0 || seats < 2 || seats > DL_MAX_SEATS || max_rows < 0 || !hands || !live || !pot ||
        !button || !flags || !line_start || !line_len || !consumed || (csv && (!columns || ncolumns < 1)) ||
        misaligned)
        return -1;
    int64_t pos = 0, row = 0;
    while (pos < len && row < max_rows) {
        /* A line ends at "\n", "\r\n" or a lone "\r" (universal newlines, as the Python path splits). */
        const char *nl = memchr(buf + pos, '\n', (size_t)(len - pos));
        int64_t end = nl ? nl - buf : len, next = nl ? end + 1 : len;
        const char *cr = memchr(buf + pos, '\r', (size_t)(end - pos));
        if (cr) {
            end = cr - buf;
            next = end + 1 < len && buf[end + 1] == '\n' ? end + 2 : end + 1;
        }
        const char *p = buf + pos;
        int64_t n = end - pos, k = 0;
        line_start[row] = pos;
        line_len[row] = n;
        pot[row] = button[row] = -1;
        uint8_t *h = hands + row * seats * 5, *lv = live + row * seats;
        memset(lv, 0, (size_t)seats);
        while (k < n && dl_space(p[k]))
            k++;
        if (k == n || p[k] == '#')
            flags[row] = 2;
        else if (csv)
            flags[row] = !dl_csv_line(p, n, seats, columns, ncolumns, h, lv, pot + row, button + row);
        else
            flags[row] = !dl_plain_line(p, n, seats, h, lv, pot + row, button + row);
        row++;
        pos = next;
    }
    *consumed = pos;
    return row;
}

/* ---------------------------------------------------------------------------------------------- */
/* Result formatting                                                                               */

static char *dl_int(char *o, int64_t v)
{
    char tmp[24];
    int k = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0)
        *o++ = '-';
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (k)
        *o++ = tmp[--k];
    return o;
}

static char *dl_seats(char *o, const uint8_t *win, int32_t seats)
{
    int first = 1;
    for (int32_t s = 0; s < seats; s++) {
        if (!win[s])
            continue;
        if (!first)
            *o++ = ' ';
        *o++ = (char)('0' + s);
        first = 0;
    }
    return o;
}

int64_t bd_format_results(const int64_t *line_no, const int64_t *chips, const uint8_t *low_win,
                          const uint8_t *badugi_win, const uint8_t *keep, int64_t n, int32_t seats,
                          char *out, int64_t cap)
{
    if (!line_no || !chips || !low_win || !badugi_win || !out || n < 0 || seats < 2 || seats > DL_MAX_SEATS ||
        (((uintptr_t)line_no | (uintptr_t)chips) & 7)) /* misaligned: refused, not loaded */
        return -1;
    /* Longest row: 1 + (seats + 1) numbers of up to 20 chars and their commas, two seat lists, '\n'. */
    const int64_t row_max = 21 * (seats + 1) + 2 * (2 * DL_MAX_SEATS) + 4;
    char *o = out;
    for (int64_t i = 0; i < n; i++) {
        if (keep && !keep[i])
            continue;
        if ((o - out) + row_max > cap)
            return -1;
        o = dl_int(o, line_no[i]);
        for (int32_t s = 0; s < seats; s++) {
            *o++ = ',';
            o = dl_int(o, chips[i * seats + s]);
        }
        *o++ = ',';
        o = dl_seats(o, low_win + i * seats, seats);
        *o++ = ',';
        o = dl_seats(o, badugi_win + i * seats, seats);
        *o++ = '\n';
    }
    return o - out;
}
