/* cpython/stars_head.c -- a PokerStars hand's first line and table line read in C
 * (badacey_fast._speedups.stars_first_line, stars_table_line).
 *
 * Why: the two lines' regular expressions (badacey_fast/histories/sites/pokerstars.py _HEADER, _TABLE) cost
 * ~3 us of a PokerStars hand's ~35 (the game's words are matched lazily, tried at every character up to
 * " - ").  Here each line is read once, left to right.
 *
 * The twins: the expressions themselves.  Each function gives what `.match(line)` gives -- the same groups --
 * or None, and the caller then runs the expression, so a line read here is read exactly as the expression
 * reads it.  What makes that exact: both functions take only lines of printable ASCII (a character the
 * expression reads as a Unicode digit, word or space character is never here), and they try the
 * expression's alternatives in the expression's own order (its optional parts greedily first, its lazy game
 * words shortest first), each alternative being one that a backtracking engine would settle the same way:
 * a run of digits, letters or word characters always ends where the text after it must start with
 * something else.
 *
 * stars_first_line(line) -> None or (id, tour, buyin, game, level, lvl, date, tz, date2, tz2)
 *   _HEADER's groups (str or None);
 * stars_table_line(line) -> None or (table, max, button)
 *   _TABLE's groups, max and button as ints (or None).
 * No state is kept; every index is checked against the line's length.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

typedef struct {
    const char *s;
    Py_ssize_t n;
} line_t;

typedef struct {
    Py_ssize_t a, b; /* [a, b); a < 0: the group did not take part */
} span_t;

enum { G_ID, G_TOUR, G_BUYIN, G_GAME, G_LEVEL, G_LVL, G_DATE, G_TZ, G_DATE2, G_TZ2, GROUPS };

static int at(line_t l, Py_ssize_t p, const char *lit)
{
    size_t m = strlen(lit);
    return p >= 0 && p <= l.n && (size_t)(l.n - p) >= m && memcmp(l.s + p, lit, m) == 0;
}

static int is_digit(line_t l, Py_ssize_t p)
{
    return p >= 0 && p < l.n && l.s[p] >= '0' && l.s[p] <= '9';
}

static int is_upper(line_t l, Py_ssize_t p)
{
    return p >= 0 && p < l.n && l.s[p] >= 'A' && l.s[p] <= 'Z';
}

static int is_word(line_t l, Py_ssize_t p) /* \w in printable ASCII */
{
    char c;
    if (p < 0 || p >= l.n)
        return 0;
    c = l.s[p];
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* The end of a run of characters `is` takes from p (p itself if none). */
static Py_ssize_t run(line_t l, Py_ssize_t p, int (*is)(line_t, Py_ssize_t))
{
    while (is(l, p))
        p++;
    return p;
}

/* \d{1,2} greedily, then the literal `sep`: the position after sep, or -1. */
static Py_ssize_t one_or_two(line_t l, Py_ssize_t p, const char *sep)
{
    Py_ssize_t e;
    if (!is_digit(l, p))
        return -1;
    e = is_digit(l, p + 1) ? p + 2 : p + 1;
    return at(l, e, sep) ? e + (Py_ssize_t)strlen(sep) : -1;
}

/* \d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2} at p: its end, or -1. */
static Py_ssize_t date(line_t l, Py_ssize_t p)
{
    for (int k = 0; k < 4; k++)
        if (!is_digit(l, p + k))
            return -1;
    if (!at(l, p + 4, "/"))
        return -1;
    p = one_or_two(l, p + 5, "/");
    if (p < 0)
        return -1;
    p = one_or_two(l, p, " ");
    if (p < 0)
        return -1;
    p = one_or_two(l, p, ":");
    if (p < 0 || !is_digit(l, p) || !is_digit(l, p + 1) || !at(l, p + 2, ":") || !is_digit(l, p + 3) || !is_digit(l, p + 4))
        return -1;
    return p + 5;
}

/* What follows " - " at p: (?:Match Round \w+, )?(?:Level (\w+) \(([^)]*)\) - )?DATE(?: ([A-Z]+))?
 * (?: \[DATE ([A-Z]+)\])?  -- 1 with the groups set, 0 if no date.  Each optional part, once it matches,
 * is kept: without it the text there starts with a letter, where the next part needs a digit or
 * "Level ". */
static int rest(line_t l, Py_ssize_t p, span_t *g)
{
    Py_ssize_t e;
    if (at(l, p, "Match Round ")) {
        e = run(l, p + 12, is_word);
        if (e > p + 12 && at(l, e, ", "))
            p = e + 2;
    }
    g[G_LEVEL].a = g[G_LVL].a = -1;
    if (at(l, p, "Level ")) {
        Py_ssize_t w = run(l, p + 6, is_word), close;
        if (w > p + 6 && at(l, w, " (")) {
            close = w + 2;
            while (close < l.n && l.s[close] != ')')
                close++;
            if (at(l, close, ") - ")) {
                g[G_LEVEL].a = p + 6, g[G_LEVEL].b = w;
                g[G_LVL].a = w + 2, g[G_LVL].b = close;
                p = close + 4;
            }
        }
    }
    e = date(l, p);
    if (e < 0)
        return 0;
    g[G_DATE].a = p, g[G_DATE].b = e;
    g[G_TZ].a = g[G_DATE2].a = g[G_TZ2].a = -1;
    if (at(l, e, " ") && is_upper(l, e + 1)) {
        Py_ssize_t z = run(l, e + 1, is_upper);
        g[G_TZ].a = e + 1, g[G_TZ].b = z;
        e = z;
    }
    if (at(l, e, " [")) {
        Py_ssize_t d = date(l, e + 2);
        if (d >= 0 && at(l, d, " ") && is_upper(l, d + 1)) {
            Py_ssize_t z = run(l, d + 1, is_upper);
            if (at(l, z, "]")) {
                g[G_DATE2].a = e + 2, g[G_DATE2].b = d;
                g[G_TZ2].a = d + 1, g[G_TZ2].b = z;
            }
        }
    }
    return 1;
}

/* (?P<game>.*?) - REST from p: the shortest game words the rest follows. */
static int game(line_t l, Py_ssize_t p, span_t *g)
{
    for (Py_ssize_t e = p; e + 3 <= l.n; e++)
        if (l.s[e] == ' ' && l.s[e + 1] == '-' && l.s[e + 2] == ' ' && rest(l, e + 3, g)) {
            g[G_GAME].a = p, g[G_GAME].b = e;
            return 1;
        }
    return 0;
}

static int printable_ascii(PyObject *o, line_t *l)
{
    if (!PyUnicode_Check(o) || !PyUnicode_IS_ASCII(o))
        return 0;
    l->s = (const char *)PyUnicode_DATA(o);
    l->n = PyUnicode_GET_LENGTH(o);
    for (Py_ssize_t k = 0; k < l->n; k++)
        if (l->s[k] < 0x20 || l->s[k] > 0x7e)
            return 0;
    return 1;
}

static PyObject *groups(line_t l, const span_t *g, int count)
{
    PyObject *out = PyTuple_New(count);
    if (out == NULL)
        return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *v;
        if (g[k].a < 0) {
            v = Py_None;
            Py_INCREF(v);
        } else if ((v = PyUnicode_FromStringAndSize(l.s + g[k].a, g[k].b - g[k].a)) == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, v);
    }
    return out;
}

static int first_line(line_t l, span_t *g)
{
    static const char *const rooms[] = {"Zoom ", "Home Game ", "Rush "};
    Py_ssize_t p, e;
    for (int k = 0; k < GROUPS; k++)
        g[k].a = g[k].b = -1;
    if (!at(l, 0, "PokerStars "))
        return 0;
    p = 11;
    for (int k = 0; k < 3; k++) /* at most one can start here: they differ in their first letter */
        if (at(l, p, rooms[k])) {
            p += (Py_ssize_t)strlen(rooms[k]);
            break;
        }
    if (!at(l, p, "Hand #") && !at(l, p, "Game #"))
        return 0;
    p += 6;
    e = run(l, p, is_digit);
    if (e == p || !at(l, e, ":"))
        return 0;
    g[G_ID].a = p, g[G_ID].b = e;
    p = e + 1;
    while (p < l.n && l.s[p] == ' ')
        p++; /* \s* takes every space first (a space is printable ASCII's only white space); a line read
              * only with fewer is left to the expression (None) */
    if (at(l, p, "Tournament #")) {
        Py_ssize_t q = p + 12, t = run(l, q, is_digit), b, end;
        if (t > q && at(l, t, ", ")) {
            g[G_TOUR].a = q, g[G_TOUR].b = t;
            b = t + 2;
            end = b;
            while (end < l.n && l.s[end] != ' ')
                end++;
            if (end < l.n) { /* (?P<buyin>[^ ]*\d[^ ]*(?: [A-Z]{3})?|Freeroll) and the space after it */
                int has_digit = 0;
                for (Py_ssize_t k = b; k < end; k++)
                    has_digit |= is_digit(l, k);
                if (has_digit) {
                    if (is_upper(l, end + 1) && is_upper(l, end + 2) && is_upper(l, end + 3) && at(l, end + 4, " ")) {
                        g[G_BUYIN].a = b, g[G_BUYIN].b = end + 4;
                        if (game(l, end + 5, g))
                            return 1;
                    }
                    g[G_BUYIN].a = b, g[G_BUYIN].b = end;
                    if (game(l, end + 1, g))
                        return 1;
                } else if (end - b == 8 && memcmp(l.s + b, "Freeroll", 8) == 0) {
                    g[G_BUYIN].a = b, g[G_BUYIN].b = end;
                    if (game(l, end + 1, g))
                        return 1;
                }
            }
            g[G_BUYIN].a = g[G_BUYIN].b = -1;
            if (game(l, b, g))
                return 1;
        }
        g[G_TOUR].a = g[G_TOUR].b = -1;
    }
    return game(l, p, g);
}

PyObject *bd_stars_first_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    line_t l;
    span_t g[GROUPS];
    (void)module;
    if (nargs != 1 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "stars_first_line(line): a str");
        return NULL;
    }
    if (!printable_ascii(args[0], &l) || !first_line(l, g))
        Py_RETURN_NONE;
    return groups(l, g, GROUPS);
}

/* A run of ASCII digits [a, b) as an int (at most 18 of them: anything longer is the expression's). */
static PyObject *number(line_t l, Py_ssize_t a, Py_ssize_t b)
{
    long long v = 0;
    for (Py_ssize_t k = a; k < b; k++)
        v = v * 10 + (l.s[k] - '0');
    return PyLong_FromLongLong(v);
}

PyObject *bd_stars_table_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    line_t l;
    Py_ssize_t quote = -1, p, e;
    span_t max = {-1, -1}, button = {-1, -1};
    PyObject *out, *items[3];
    (void)module;
    if (nargs != 1 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "stars_table_line(line): a str");
        return NULL;
    }
    if (!printable_ascii(args[0], &l) || !at(l, 0, "Table '"))
        Py_RETURN_NONE;
    /* (?P<table>.*)' : greedy, so up to the last "' " (what follows is all optional) */
    for (Py_ssize_t k = l.n - 2; k >= 7; k--)
        if (l.s[k] == '\'' && l.s[k + 1] == ' ') {
            quote = k;
            break;
        }
    if (quote < 0)
        Py_RETURN_NONE;
    p = quote + 2;
    e = run(l, p, is_digit);
    if (e > p && at(l, e, "-max ")) {
        max.a = p, max.b = e;
        p = e + 5;
    }
    if (at(l, p, "(Play Money) "))
        p += 13;
    if (at(l, p, "Seat #")) {
        e = run(l, p + 6, is_digit);
        if (e > p + 6 && at(l, e, " is the button"))
            button.a = p + 6, button.b = e;
    }
    if (max.b - max.a > 18 || button.b - button.a > 18)
        Py_RETURN_NONE;
    items[0] = PyUnicode_FromStringAndSize(l.s + 7, quote - 7);
    items[1] = max.a < 0 ? Py_NewRef(Py_None) : number(l, max.a, max.b);
    items[2] = button.a < 0 ? Py_NewRef(Py_None) : number(l, button.a, button.b);
    if (items[0] == NULL || items[1] == NULL || items[2] == NULL) {
        Py_XDECREF(items[0]);
        Py_XDECREF(items[1]);
        Py_XDECREF(items[2]);
        return NULL;
    }
    out = PyTuple_Pack(3, items[0], items[1], items[2]);
    Py_DECREF(items[0]);
    Py_DECREF(items[1]);
    Py_DECREF(items[2]);
    return out;
}
