/* cpython/stars.c -- the C reader of a PokerStars hand's lines (badacey_fast._speedups.read_stars).
 *
 * Why: reading a hand history in Python costs ~8.5 k instructions a line of play and ~13 k a seat
 * (docs/histories.md, "Speed"): split the line, find the player, read the amount, build the event, keep
 * the chips behind.  Here one call reads a PokerStars hand from its seats to its last line and hands
 * Python a few large objects (the seats, the events, the chips behind, the cards held, collected and
 * shown); Python keeps the first line, the table line and the checks of the finished hand
 * (HandBuilder.finish), so every refusal is still worded there.
 *
 * The twin: badacey_fast/histories/sites/pokerstars.py `_play`, the same reading in Python, which this
 * function follows line for line.  Whatever this reader is not sure to read exactly as the twin does (a
 * line in a shape it does not know, a byte outside ASCII where an amount, a card or a number is read, a
 * name with ": " in it, a duplicate seat, more seats than it keeps, any error the twin would raise, a
 * cancelled hand), it does not read: it returns None and the caller reads the hand with the twin, so
 * outputs and error messages are the twin's.  It never reads outside a line's bytes (every index is
 * checked against the line's length), and keeps no state between calls.
 *
 * read_stars(lines, i, start, scale, draws, hand_size, consts) -> None or a tuple
 *   lines      the hand's lines (a list of str, trailing blanks already stripped), its first line at
 *              line number `start`; `i` the index of the first seat line;
 *   scale      decimal places of the hand's unit (0..4); draws, hand_size: the variant's;
 *   consts     (Event, Seat, kinds, ranks, suits): the two NamedTuple classes, the event kinds in the
 *              order of enum kind below, the rank and suit characters of badacey_fast.cards.
 * The tuple: (seats {name: Seat}, behind {name: chips}, events [Event], held {name: {street: cards}},
 * collected {name: chips}, shown {name: cards}, posted {kind}, pot or None, rake or None,
 * garbage [(line number, text)]) -- HandBuilder's fields after the twin's reading, and the summary's.
 *
 * read_tilt: the same for a Full Tilt hand (its twin fulltilt._play); the tuple ends with the button.
 * read_kings(lines, i, start, scale, draws, hand_size, consts): a KingsClub hand's seats and play up to
 *   its "*** SUMMARY ***" line (the twin: kingsclub.parse's seat and play loops, for names without a
 *   space or ": "); the tuple of read_stars (no pot, rake or summary yet) and then the builder's street,
 *   drawing and round bets and the index of the line after the summary's mark, where the twin's summary
 *   reading (kingsclub._summary) starts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

enum kind {
    K_ANTE, K_SMALL_BLIND, K_BIG_BLIND, K_POST, K_DEAD, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_DRAW, K_SHOW,
    K_MUCK, K_UNCALLED, K_COLLECT, K_RESHUFFLE, KINDS
};

#define MAX_SEATS 16  /* a table's seats kept here; a hand with more is read by the twin */
#define STREETS 4     /* the deal and three draws: a later street is read by the twin */
#define MAX_CARDS 16  /* cards in one bracket; more: the twin */
#define EVENT_FIELDS 11

typedef struct {
    const char *s;
    Py_ssize_t n;
} text_t;

typedef struct {
    PyObject *name;     /* owned */
    text_t utf8;        /* the name's UTF-8 bytes (owned by `name`) */
    int64_t number, stack, behind, round_bet, collected;
    int32_t dealt, acted, collect_order, has_collected;
    Py_ssize_t last_draw; /* index of the player's last draw event, -1: none */
    PyObject *held[STREETS]; /* owned, NULL: not shown */
    PyObject *shown;         /* owned, NULL: none */
} seat_t;

typedef struct {
    PyTypeObject *event_type, *seat_type;
    PyObject *kinds[KINDS]; /* borrowed from consts */
    text_t ranks, suits;
    int64_t scale, draws, hand_size, street;
    int32_t drawing, posted, nseats, ncollected;
    int64_t first_big; /* the first big blind posted with chips (0: none yet) */
    int32_t has_button; /* Full Tilt: "The button is in seat #N" seen (button: N) */
    int64_t button;
    seat_t seat[MAX_SEATS];
    int32_t collect_order[MAX_SEATS];
    PyObject *events; /* owned list */
} reader_t;

/* The outcome of a step: READ (go on), SKIP (the twin reads this hand), ERROR (a Python error is set). */
enum { READ = 0, SKIP = 1, ERROR = 2, NOT_MINE = 3 /* common_action: a verb its caller reads */ };

static const int64_t POW10[5] = {1, 10, 100, 1000, 10000};

/* Bounds that keep every sum of chips inside int64 (Python's ints have none: a hand beyond them is the
 * twin's): an amount is at most AMOUNT_MAX units, and a running total (chips behind, a round's bet, chips
 * collected) that leaves [-CHIPS_MAX, CHIPS_MAX] sends the hand to the twin.  |total| + |amount| stays far
 * below 2**63 in every operation below. */
#define AMOUNT_MAX ((int64_t)1000000000000000) /* 10**15 */
#define CHIPS_MAX ((int64_t)1 << 60)

static int in_bounds(int64_t v)
{
    return v >= -CHIPS_MAX && v <= CHIPS_MAX;
}

/* ------------------------------------------------------------------------------------------ text */

static int starts(text_t t, const char *p)
{
    size_t n = strlen(p);
    return (size_t)t.n >= n && memcmp(t.s, p, n) == 0;
}

static int ends(text_t t, const char *p)
{
    size_t n = strlen(p);
    return (size_t)t.n >= n && memcmp(t.s + t.n - (Py_ssize_t)n, p, n) == 0;
}

static int equals(text_t t, const char *p)
{
    return (size_t)t.n == strlen(p) && memcmp(t.s, p, (size_t)t.n) == 0;
}

static text_t cut(text_t t, Py_ssize_t from, Py_ssize_t to)
{
    text_t r;
    if (from < 0) from = 0;
    if (to > t.n) to = t.n;
    if (to < from) to = from;
    r.s = t.s + from;
    r.n = to - from;
    return r;
}

/* The first index of `p` in `t` at or after `from`, -1 if none (str.find).  memchr finds each place the
 * first character is (a loop over every character was a third of this reader's instructions). */
static Py_ssize_t find(text_t t, const char *p, Py_ssize_t from)
{
    Py_ssize_t n = (Py_ssize_t)strlen(p), k = from < 0 ? 0 : from;
    if (n == 0)
        return k <= t.n ? k : -1;
    while (k + n <= t.n) {
        const char *q = memchr(t.s + k, p[0], (size_t)(t.n - n + 1 - k));
        if (q == NULL)
            return -1;
        k = (Py_ssize_t)(q - t.s);
        if (memcmp(q, p, (size_t)n) == 0)
            return k;
        k++;
    }
    return -1;
}

/* The last index of `p` in `t`, -1 if none (str.rfind). */
static Py_ssize_t rfind(text_t t, const char *p)
{
    Py_ssize_t n = (Py_ssize_t)strlen(p);
    for (Py_ssize_t k = t.n - n; k >= 0; k--)
        if (t.s[k] == p[0] && memcmp(t.s + k, p, (size_t)n) == 0)
            return k;
    return -1;
}

/* The UTF-8 bytes of a str (in place for ASCII), or SKIP for anything else (a lone surrogate: the twin
 * reads it, and words what follows). */
static int utf8_of(PyObject *o, text_t *t)
{
    if (!PyUnicode_Check(o))
        return SKIP;
    t->s = PyUnicode_AsUTF8AndSize(o, &t->n);
    if (t->s == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return ERROR;
        PyErr_Clear();
        return SKIP;
    }
    return READ;
}

/* text.amount(t, scale) for ASCII text: READ with *v, or SKIP for what the twin refuses or reads
 * otherwise (non-ASCII signs, more decimals than the unit, more than 15 digits). */
static int amount(text_t t, int64_t scale, int64_t *v)
{
    Py_ssize_t a = 0, b = t.n, dot = -1;
    int64_t whole = 0, frac = 0;
    int32_t digits = 0, nfrac = 0;
    char buf[64];
    Py_ssize_t n = 0;

    if (scale < 0 || scale > 4)
        return SKIP;
    /* strip("$€£ \t()"): ASCII only here (the euro and pound signs are not, so: the twin) */
    for (Py_ssize_t k = 0; k < t.n; k++)
        if ((unsigned char)t.s[k] >= 0x80)
            return SKIP;
    while (a < b && strchr("$ \t()", t.s[a]) != NULL && t.s[a] != '\0') a++;
    while (b > a && strchr("$ \t()", t.s[b - 1]) != NULL && t.s[b - 1] != '\0') b--;
    for (Py_ssize_t k = a; k < b; k++) { /* .replace(",", "") */
        if (t.s[k] == ',')
            continue;
        if (n >= (Py_ssize_t)sizeof buf)
            return SKIP;
        buf[n++] = t.s[k];
    }
    if (n >= 3 && (memcmp(buf + n - 3, "USD", 3) == 0 || memcmp(buf + n - 3, "EUR", 3) == 0 ||
                   memcmp(buf + n - 3, "GBP", 3) == 0 || memcmp(buf + n - 3, "CAD", 3) == 0)) {
        n -= 3;
        while (n > 0 && (buf[n - 1] == '$' || buf[n - 1] == ' ' || buf[n - 1] == '\t')) n--;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        if (buf[k] == '.') {
            dot = k;
            break;
        }
    {
        Py_ssize_t wend = dot < 0 ? n : dot;
        if (wend == 0) {
            if (dot < 0)
                return SKIP; /* no digit at all: not an amount */
        }
        for (Py_ssize_t k = 0; k < wend; k++) {
            if (buf[k] < '0' || buf[k] > '9' || ++digits > 15)
                return SKIP;
            whole = whole * 10 + (buf[k] - '0');
        }
    }
    if (dot >= 0) {
        Py_ssize_t fend = n;
        while (fend > dot + 1 && buf[fend - 1] == '0') fend--; /* frac.rstrip("0") */
        if (fend - dot - 1 > scale)
            return SKIP;
        for (Py_ssize_t k = dot + 1; k < fend; k++) {
            if (buf[k] < '0' || buf[k] > '9')
                return SKIP;
            frac = frac * 10 + (buf[k] - '0');
            nfrac++;
        }
        if (whole > AMOUNT_MAX / POW10[scale] - 1)
            return SKIP;
        *v = whole * POW10[scale] + frac * POW10[scale - nfrac];
        return READ;
    }
    if (whole > AMOUNT_MAX / POW10[scale])
        return SKIP;
    *v = whole * POW10[scale];
    return READ;
}

/* text.cards(t): READ with *out a new tuple of card ids, or None (Py_None, new reference) where the room
 * hides them; SKIP for a token that is no card or a byte the twin would split otherwise. */
static int cards_of(const reader_t *r, text_t t, PyObject **out)
{
    Py_ssize_t a = 0, b = t.n, ntok = 0, k;
    int32_t ids[MAX_CARDS];
    text_t tok[MAX_CARDS + 1];

    for (k = 0; k < t.n; k++) { /* printable ASCII and the space: str.split() splits as this does */
        unsigned char c = (unsigned char)t.s[k];
        if (c != ' ' && (c < 0x21 || c > 0x7e))
            return SKIP;
    }
    while (a < b && (t.s[a] == '[' || t.s[a] == ']' || t.s[a] == ' ')) a++;
    while (b > a && (t.s[b - 1] == '[' || t.s[b - 1] == ']' || t.s[b - 1] == ' ')) b--;
    k = a;
    while (k < b) { /* tokens split at spaces and commas */
        Py_ssize_t e;
        while (k < b && (t.s[k] == ' ' || t.s[k] == ',')) k++;
        if (k >= b)
            break;
        e = k;
        while (e < b && t.s[e] != ' ' && t.s[e] != ',') e++;
        if (ntok > MAX_CARDS)
            return SKIP;
        tok[ntok].s = t.s + k;
        tok[ntok].n = e - k;
        ntok++;
        k = e;
    }
    if (ntok == 0 || equals(tok[0], "X") || equals(tok[0], "x") || equals(tok[0], "??") || equals(tok[0], "xx")) {
        Py_INCREF(Py_None);
        *out = Py_None;
        return READ;
    }
    if (ntok > MAX_CARDS)
        return SKIP;
    for (k = 0; k < ntok; k++) {
        text_t w = tok[k];
        int32_t rank = -1, suit = -1;
        char rc, sc;
        if (w.n == 2) {
            rc = w.s[0];
            sc = w.s[1];
        } else if (w.n == 3 && w.s[0] == '1' && w.s[1] == '0') {
            rc = 'T'; /* "10d": the ten, as CARD_IDS spells it */
            sc = w.s[2];
        } else {
            return SKIP;
        }
        for (Py_ssize_t j = 0; j < r->ranks.n; j++) /* the rank character or its lower case */
            if (rc == r->ranks.s[j] || (rc >= 'a' && rc <= 'z' && rc - 'a' + 'A' == r->ranks.s[j] &&
                                        !(r->ranks.s[j] >= '0' && r->ranks.s[j] <= '9')))
                rank = (int32_t)j;
        if (w.n == 3 && rank < 0)
            return SKIP;
        for (Py_ssize_t j = 0; j < r->suits.n; j++) /* the suit character or its upper case */
            if (sc == r->suits.s[j] || (sc >= 'A' && sc <= 'Z' && sc - 'A' + 'a' == r->suits.s[j]))
                suit = (int32_t)j;
        if (rank < 0 || suit < 0)
            return SKIP;
        ids[k] = 4 * rank + suit;
    }
    *out = PyTuple_New(ntok);
    if (*out == NULL)
        return ERROR;
    for (k = 0; k < ntok; k++) {
        PyObject *c = PyLong_FromLong(ids[k]);
        if (c == NULL) {
            Py_CLEAR(*out);
            return ERROR;
        }
        PyTuple_SET_ITEM(*out, k, c);
    }
    return READ;
}

/* words.strip_all_in(t): the words without the room's all-in tail, *all_in whether there was one. */
static text_t strip_all_in(text_t t, int32_t *all_in)
{
    static const char *const tails[] = {" and is all-in", ", and is all in", " and is all in", " [all in]",
                                        " (all-in)", " all-in"};
    *all_in = 0;
    if (find(t, "all", 0) < 0)
        return t;
    for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++)
        if (ends(t, tails[k])) {
            *all_in = 1;
            return cut(t, 0, t.n - (Py_ssize_t)strlen(tails[k]));
        }
    return t;
}

/* ------------------------------------------------------------------------------------------ seats */

static int seat_of(const reader_t *r, text_t name)
{
    for (int32_t k = 0; k < r->nseats; k++)
        if (r->seat[k].utf8.n == name.n && memcmp(r->seat[k].utf8.s, name.s, (size_t)name.n) == 0)
            return k;
    return -1;
}

/* Names.split(t, " "): the seat of the longest name that `t` starts with followed by a space, -1 if none. */
static int seat_at_start(const reader_t *r, text_t t)
{
    int best = -1;
    for (int32_t k = 0; k < r->nseats; k++) {
        text_t n = r->seat[k].utf8;
        if (n.n < t.n && memcmp(t.s, n.s, (size_t)n.n) == 0 && t.s[n.n] == ' ' &&
            (best < 0 || n.n > r->seat[best].utf8.n))
            best = k;
    }
    return best;
}

/* The opening every room's seat line shares, "Seat N: NAME (": the seat's number, where the name starts and
 * the first " (" after at least one character of it (the expressions' shortest name).  READ or SKIP. */
static int seat_opening(const reader_t *r, text_t line, int64_t *number, Py_ssize_t *name_at, Py_ssize_t *paren)
{
    Py_ssize_t k = 5;
    *number = 0;
    if (r->nseats >= MAX_SEATS || k >= line.n || line.s[k] < '0' || line.s[k] > '9')
        return SKIP;
    while (k < line.n && line.s[k] >= '0' && line.s[k] <= '9') {
        if (k - 5 >= 9)
            return SKIP;
        *number = *number * 10 + (line.s[k] - '0');
        k++;
    }
    if (k + 1 >= line.n || line.s[k] != ':' || line.s[k + 1] != ' ')
        return SKIP;
    *name_at = k + 2;
    *paren = find(line, " (", *name_at + 1);
    return *paren < 0 ? SKIP : READ;
}

/* HandBuilder.seat: the seat appended (`name` a view into the line; the seat owns a str of it).  SKIP for a
 * name given twice or with ": " in it (the twins' name searches read those otherwise). */
static int add_seat(reader_t *r, text_t name, int64_t number, int64_t stack, int32_t dealt)
{
    seat_t *s;
    if (seat_of(r, name) >= 0 || find(name, ": ", 0) >= 0)
        return SKIP;
    s = &r->seat[r->nseats];
    memset(s, 0, sizeof *s);
    s->name = PyUnicode_DecodeUTF8(name.s, name.n, "strict");
    if (s->name == NULL)
        return ERROR;
    r->nseats++;
    /* The name's bytes from the name object this reader owns (not from the line: see read_hand). */
    if (utf8_of(s->name, &s->utf8) != READ)
        return ERROR; /* decoded from UTF-8 just above: it encodes */
    s->number = number;
    s->stack = s->behind = stack;
    s->dealt = dealt;
    s->last_draw = -1;
    s->collect_order = -1;
    return READ;
}

/* The seat line `^Seat (\d+): (.+?) \(([^ )]+)(?: in chips)?(?:, [^)]*)?\)(.*)$` on the regular expression's
 * first path (the shortest name, the longest stack, each optional part taken when present): READ with the
 * seat appended; SKIP where that path fails (the expression may backtrack to another reading). */
static int seat_line(reader_t *r, text_t line)
{
    Py_ssize_t k, name_at, paren, end;
    int64_t number, stack;
    text_t tail;

    if (seat_opening(r, line, &number, &name_at, &paren) != READ)
        return SKIP;
    k = paren + 2;
    end = k;
    while (end < line.n && line.s[end] != ' ' && line.s[end] != ')') end++;
    if (end == k)
        return SKIP;
    if (amount(cut(line, k, end), r->scale, &stack) != READ)
        return SKIP;
    k = end;
    if (starts(cut(line, k, line.n), " in chips"))
        k += 9;
    if (starts(cut(line, k, line.n), ", ")) {
        k += 2;
        while (k < line.n && line.s[k] != ')') k++;
    }
    if (k >= line.n || line.s[k] != ')')
        return SKIP;
    tail = cut(line, k + 1, line.n);
    return add_seat(r, cut(line, name_at, paren), number, stack,
                    find(tail, "sitting out", 0) < 0 && find(tail, "out of hand", 0) < 0);
}

/* ------------------------------------------------------------------------------------------ events */

static PyObject *int_or_none(int32_t has, int64_t v)
{
    if (!has)
        Py_RETURN_NONE;
    return PyLong_FromLongLong((long long)v);
}

/* Append Event(street, player, kind, amount, to, all_in, drawn, cards, new, pot, line); `cards`,
 * `new_cards`, `pot` are borrowed (NULL: None). */
static int event_full(reader_t *r, PyObject *player, int kind, int32_t has_amount, int64_t amount_,
                      int32_t has_to, int64_t to, int32_t all_in, int32_t has_drawn, int64_t drawn, PyObject *cards,
                      PyObject *new_cards, PyObject *pot, int64_t line)
{
    PyObject *e = r->event_type->tp_alloc(r->event_type, EVENT_FIELDS);
    PyObject *items[EVENT_FIELDS];
    int rc;
    if (e == NULL)
        return ERROR;
    items[0] = PyLong_FromLongLong((long long)r->street);
    items[1] = player;
    Py_INCREF(player);
    items[2] = r->kinds[kind];
    Py_INCREF(items[2]);
    items[3] = int_or_none(has_amount, amount_);
    items[4] = int_or_none(has_to, to);
    items[5] = all_in ? Py_True : Py_False;
    Py_INCREF(items[5]);
    items[6] = int_or_none(has_drawn, drawn);
    items[7] = cards != NULL ? cards : Py_None;
    Py_INCREF(items[7]);
    items[8] = new_cards != NULL ? new_cards : Py_None;
    Py_INCREF(items[8]);
    items[9] = pot != NULL ? pot : Py_None;
    Py_INCREF(items[9]);
    items[10] = PyLong_FromLongLong((long long)line);
    rc = READ;
    for (int k = 0; k < EVENT_FIELDS; k++) {
        if (items[k] == NULL)
            rc = ERROR;
        PyTuple_SET_ITEM(e, k, items[k]); /* NULL items are fine for the tuple's dealloc */
    }
    if (rc == READ && PyList_Append(r->events, e) < 0)
        rc = ERROR;
    Py_DECREF(e);
    return rc;
}

static int event(reader_t *r, PyObject *player, int kind, int32_t has_amount, int64_t amount_, int32_t has_to,
                 int64_t to, int32_t all_in, int32_t has_drawn, int64_t drawn, PyObject *cards, PyObject *pot,
                 int64_t line)
{
    return event_full(r, player, kind, has_amount, amount_, has_to, to, all_in, has_drawn, drawn, cards, NULL, pot,
                      line);
}

static void new_street(reader_t *r, int64_t street, int32_t drawing)
{
    if (street != r->street) {
        r->street = street;
        for (int32_t k = 0; k < r->nseats; k++)
            r->seat[k].round_bet = 0;
    }
    r->drawing = drawing;
}

/* HandBuilder.post */
static int post(reader_t *r, int who, int kind, int64_t chips, int64_t line)
{
    seat_t *s = &r->seat[who];
    int64_t left = s->behind - chips;
    if (left < 0 || chips < 0)
        return SKIP;
    s->behind = left;
    if (kind == K_SMALL_BLIND || kind == K_BIG_BLIND || kind == K_POST)
        s->round_bet += chips;
    r->posted |= 1 << kind;
    if (kind == K_BIG_BLIND && chips != 0 && r->first_big == 0)
        r->first_big = chips;
    s->acted = 1;
    return event(r, s->name, kind, 1, chips, 0, 0, left == 0, 0, 0, NULL, NULL, line);
}

/* HandBuilder.bet with the chips `added` (has_added) or the round total `to`. */
static int bet(reader_t *r, int who, int kind, int32_t has_added, int64_t added, int64_t to, int32_t all_in,
               int64_t line)
{
    seat_t *s = &r->seat[who];
    int64_t before = s->round_bet, total, left;
    r->drawing = 0;
    if (!has_added)
        added = to - before;
    total = before + added;
    left = s->behind - added;
    if (left <= 0 || added < 0) {
        if (left < 0 || added < 0)
            return SKIP;
        all_in = 1;
    }
    s->behind = left;
    s->round_bet = total;
    s->acted = 1;
    return event(r, s->name, kind, 1, added, kind != K_CALL, total, all_in, 0, 0, NULL, NULL, line);
}

static int plain(reader_t *r, int who, int kind, int64_t line)
{
    r->drawing = 0;
    r->seat[who].acted = 1;
    return event(r, r->seat[who].name, kind, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, line);
}

/* HandBuilder.draw; `discards`, `new_cards` borrowed (NULL: not shown). */
static int draw_full(reader_t *r, int who, int64_t count, PyObject *discards, PyObject *new_cards, int64_t line)
{
    seat_t *s = &r->seat[who];
    if (!r->drawing)
        new_street(r, r->street + 1, 1);
    if (r->street > r->draws || r->street >= STREETS)
        return SKIP;
    if (count < 0 || count > r->hand_size || (discards != NULL && PyTuple_GET_SIZE(discards) != count))
        return SKIP;
    s->last_draw = PyList_GET_SIZE(r->events);
    s->acted = 1;
    return event_full(r, s->name, K_DRAW, 0, 0, 0, 0, 0, 1, count, discards, new_cards, NULL, line);
}

static int draw(reader_t *r, int who, int64_t count, PyObject *discards, int64_t line)
{
    return draw_full(r, who, count, discards, NULL, line);
}

/* HandBuilder.hold: `cards` a new reference (None: nothing held), stolen. */
static int hold(reader_t *r, int who, PyObject *cards, int64_t street)
{
    if (cards == Py_None) {
        Py_DECREF(cards);
        return READ;
    }
    if (street < 0 || street >= STREETS) {
        Py_DECREF(cards);
        return SKIP;
    }
    Py_XSETREF(r->seat[who].held[street], cards);
    return READ;
}

/* HandBuilder.show: the show (`shows`) or muck event, `c` the cards the text gave (a new reference, stolen;
 * None or NULL: not shown), kept as the player's shown cards. */
static int shown(reader_t *r, int who, int32_t shows, PyObject *c, int64_t no)
{
    int rc;
    if (c == Py_None)
        Py_CLEAR(c);
    if (c != NULL)
        Py_XSETREF(r->seat[who].shown, (Py_INCREF(c), c));
    r->seat[who].acted = 1;
    rc = event(r, r->seat[who].name, shows ? K_SHOW : K_MUCK, 0, 0, 0, 0, 0, 0, 0, c, NULL, no);
    Py_XDECREF(c);
    return rc;
}

/* HandBuilder.show as PokerStars and KingsClub word it: "shows [cards] ..." (the cards up to the first
 * "]") or "mucks [cards]" (`shows`: which; `what`: after the verb). */
static int show(reader_t *r, int who, int32_t shows, text_t what, int64_t no)
{
    PyObject *c = NULL;
    int rc;
    if (shows && find(what, "[", 0) >= 0) {
        Py_ssize_t close = find(what, "]", 0);
        if (close < 0)
            return SKIP;
        if ((rc = cards_of(r, cut(what, 0, close + 1), &c)) != READ)
            return rc;
    } else if (!shows && starts(what, "[")) {
        if ((rc = cards_of(r, what, &c)) != READ)
            return rc;
    }
    return shown(r, who, shows, c, no);
}

static int skip_to_twin(PyObject *o)
{
    Py_XDECREF(o);
    return SKIP;
}

/* The opening both rooms' action lines share: "NAME verb ...", split at the first space into the verb
 * and what follows it (*verb, *what: views into rest), and the four verbs worded alike in both rooms
 * (folds, checks, calls AMOUNT, bets AMOUNT, each maybe "and is all-in"). Returns NOT_MINE for any other
 * verb, which the caller then reads in its room's words; otherwise READ, SKIP or ERROR as plain()/bet(). */
static int common_action(reader_t *r, int who, text_t rest, int64_t no, text_t *verb, text_t *what)
{
    Py_ssize_t sp = find(rest, " ", 0);
    int32_t all_in;
    int64_t v;

    *verb = sp < 0 ? rest : cut(rest, 0, sp);
    *what = sp < 0 ? cut(rest, 0, 0) : cut(rest, sp + 1, rest.n);
    if (equals(*verb, "folds"))
        return plain(r, who, K_FOLD, no);
    if (equals(*verb, "checks"))
        return plain(r, who, K_CHECK, no);
    if (equals(*verb, "calls") || equals(*verb, "bets")) {
        text_t paid = strip_all_in(*what, &all_in);
        if (amount(paid, r->scale, &v) != READ)
            return SKIP;
        return bet(r, who, equals(*verb, "calls") ? K_CALL : K_BET, 1, v, 0, all_in, no);
    }
    return NOT_MINE;
}

/* _action: a player's line that the hot path did not take. */
static int action(reader_t *r, int who, text_t rest, int64_t no)
{
    text_t verb, what;
    int32_t all_in;
    int64_t v;
    int common = common_action(r, who, rest, no, &verb, &what);

    if (common != NOT_MINE)
        return common;
    if (equals(verb, "raises")) {
        Py_ssize_t at;
        what = strip_all_in(what, &all_in);
        at = find(what, " to ", 0);
        if (amount(at < 0 ? cut(what, 0, 0) : cut(what, at + 4, what.n), r->scale, &v) != READ)
            return SKIP;
        return bet(r, who, K_RAISE, 0, 0, v, all_in, no);
    }
    if (equals(verb, "stands") && starts(what, "pat")) {
        int rc = draw(r, who, 0, NULL, no);
        Py_ssize_t at = find(what, "[", 0);
        PyObject *c;
        if (rc != READ || at < 0)
            return rc;
        rc = cards_of(r, cut(what, at, what.n), &c);
        return rc != READ ? rc : hold(r, who, c, r->street);
    }
    if (equals(verb, "posts")) {
        int32_t posted = r->posted;
        what = strip_all_in(what, &all_in);
        if (starts(what, "small & big blinds ")) {
            /* the big blind's size from the posts so far (the hand's blinds are stated only at its end) */
            int64_t big = r->first_big;
            int rc;
            if (amount(cut(what, 19, what.n), r->scale, &v) != READ || big == 0)
                return SKIP;
            if ((rc = post(r, who, K_DEAD, v - big, no)) != READ)
                return rc;
            return post(r, who, r->posted & (1 << K_BIG_BLIND) ? K_POST : K_BIG_BLIND, big, no);
        }
        if (starts(what, "small blind ")) {
            if (amount(cut(what, 12, what.n), r->scale, &v) != READ)
                return SKIP;
            return post(r, who, posted & (1 << K_SMALL_BLIND) ? K_DEAD : K_SMALL_BLIND, v, no);
        }
        if (starts(what, "big blind ")) {
            if (amount(cut(what, 10, what.n), r->scale, &v) != READ)
                return SKIP;
            return post(r, who, posted & (1 << K_BIG_BLIND) ? K_POST : K_BIG_BLIND, v, no);
        }
        if (starts(what, "the ante ") || starts(what, "ante ")) {
            Py_ssize_t at = rfind(what, " ");
            if (amount(cut(what, at + 1, what.n), r->scale, &v) != READ)
                return SKIP;
            return post(r, who, K_ANTE, v, no);
        }
        return SKIP; /* an unknown post: the twin words it */
    }
    if (equals(verb, "shows") || equals(verb, "mucks"))
        return show(r, who, equals(verb, "shows"), what, no);
    if ((equals(verb, "is") || equals(verb, "sits")) && (find(what, "sitting out", 0) >= 0 || equals(what, "out"))) {
        if (!r->seat[who].acted) /* sit_out: before any action of the player's */
            r->seat[who].dealt = 0;
        return READ;
    }
    {
        static const char *const quiet[] = {"doesn't", "is", "sits", "has", "said", "leaves", "joins", "will", "was",
                                            "timed", "removed", "re-joins", "returned"};
        for (size_t k = 0; k < sizeof quiet / sizeof quiet[0]; k++)
            if (equals(verb, quiet[k]))
                return READ;
    }
    return SKIP; /* a verb this reader does not know: the twin notes it */
}

/* _dealt: "Dealt to NAME [cards]" / "Dealt to NAME [kept] [new]". */
/* The cards of "Dealt to NAME ..." after the name (`rest`): the deal, or a draw's kept and new cards
 * (pokerstars._dealt; `tilt`: Full Tilt's reading, fulltilt.parse, which takes one group as the hand held
 * whenever the player has not drawn). */
static int dealt_rest(reader_t *r, int who, text_t rest, int32_t tilt)
{
    PyObject *kept = NULL, *fresh = NULL;
    int rc;
    Py_ssize_t split;

    if (r->street == 0) {
        if ((rc = cards_of(r, rest, &kept)) != READ)
            return rc;
        return hold(r, who, kept, 0);
    }
    split = find(rest, "] [", 0);
    if (tilt ? r->seat[who].last_draw < 0 : split < 0 && r->seat[who].last_draw < 0) {
        if ((rc = cards_of(r, rest, &kept)) != READ)
            return rc;
        return hold(r, who, kept, r->street);
    }
    if (split >= 0 && find(rest, "] [", split + 1) >= 0) {
        kept = PyTuple_New(0); /* three groups or more: nothing kept, the last group new */
        if (kept == NULL)
            return ERROR;
    } else if (split >= 0 && (rc = cards_of(r, cut(rest, 0, split), &kept)) != READ) {
        return rc;
    } else if (split < 0 && (kept = PyTuple_New(0)) == NULL) {
        return ERROR;
    }
    if ((rc = cards_of(r, split < 0 ? rest : cut(rest, rfind(rest, "] [") + 3, rest.n), &fresh)) != READ)
        return skip_to_twin(kept) == SKIP && rc == SKIP ? SKIP : ERROR;
    /* HandBuilder.drew */
    {
        Py_ssize_t k = r->seat[who].last_draw;
        PyObject *e;
        if (k < 0 || k >= PyList_GET_SIZE(r->events))
            goto twin;
        e = PyList_GET_ITEM(r->events, k);
        if (PyLong_AsLongLong(PyTuple_GET_ITEM(e, 0)) != r->street)
            goto twin;
        if (fresh != Py_None) {
            PyObject *copy = r->event_type->tp_alloc(r->event_type, EVENT_FIELDS);
            if (copy == NULL)
                goto error;
            for (int j = 0; j < EVENT_FIELDS; j++) {
                PyObject *item = j == 8 ? fresh : PyTuple_GET_ITEM(e, j);
                Py_INCREF(item);
                PyTuple_SET_ITEM(copy, j, item);
            }
            if (PyList_SetItem(r->events, k, copy) < 0)
                goto error;
        }
        if (kept != Py_None && fresh != Py_None) {
            PyObject *both = PySequence_Concat(kept, fresh);
            if (both == NULL)
                goto error;
            rc = hold(r, who, both, r->street);
        } else {
            rc = READ;
        }
        Py_DECREF(kept);
        Py_DECREF(fresh);
        return rc;
    }
twin:
    Py_DECREF(kept);
    Py_DECREF(fresh);
    return SKIP;
error:
    Py_DECREF(kept);
    Py_DECREF(fresh);
    return ERROR;
}

/* _dealt: "Dealt to NAME [cards]" / "Dealt to NAME [kept] [new]" (the name up to the first " ["). */
static int dealt(reader_t *r, text_t line)
{
    Py_ssize_t at = find(line, " [", 9);
    int who;
    if (at < 0)
        return SKIP;
    who = seat_of(r, cut(line, 9, at));
    if (who < 0)
        return SKIP;
    return dealt_rest(r, who, cut(line, at + 1, line.n), 0);
}

/* pot.replace("pot", "").replace("-", " ").strip() for ASCII text (SKIP otherwise). */
static int pot_words(text_t t, PyObject **out)
{
    char buf[128];
    Py_ssize_t n = 0, a = 0;
    for (Py_ssize_t k = 0; k < t.n;) {
        unsigned char c = (unsigned char)t.s[k];
        if (c >= 0x80 || n >= (Py_ssize_t)sizeof buf)
            return SKIP;
        if (k + 3 <= t.n && memcmp(t.s + k, "pot", 3) == 0) {
            k += 3;
            continue;
        }
        buf[n++] = c == '-' ? ' ' : (char)c;
        k++;
    }
    /* str.strip(): the ASCII whitespace (\t..\r, \x1c..\x1f, the space) */
#define WS(c) ((c) == ' ' || ((c) >= '\t' && (c) <= '\r') || ((c) >= 0x1c && (c) <= 0x1f))
    while (a < n && WS(buf[a])) a++;
    while (n > a && WS(buf[n - 1])) n--;
#undef WS
    *out = PyUnicode_DecodeASCII(buf + a, n - a, "strict");
    return *out == NULL ? ERROR : READ;
}

/* The summary (from "*** SUMMARY ***" on): the total pot, the rake, the cards the seats' lines reveal;
 * other lines are garbage for the caller to judge. */
static int summary(reader_t *r, PyObject *lines, Py_ssize_t from, int64_t start, int32_t *has_pot, int64_t *pot,
                   int32_t *has_rake, int64_t *rake, PyObject *garbage)
{
    for (Py_ssize_t k = from; k < PyList_GET_SIZE(lines); k++) {
        text_t line;
        int rc = utf8_of(PyList_GET_ITEM(lines, k), &line);
        if (rc != READ)
            return rc;
        if (line.n == 0)
            continue;
        if (starts(line, "Total pot ")) {
            Py_ssize_t bar = find(line, "| Rake ", 0);
            text_t head = bar < 0 ? line : cut(line, 0, bar), money = cut(head, 10, head.n);
            Py_ssize_t sp = find(money, " ", 0);
            if (amount(sp < 0 ? money : cut(money, 0, sp), r->scale, pot) != READ)
                return SKIP;
            *has_pot = 1;
            *has_rake = 0;
            if (bar >= 0 && bar + 7 < line.n) {
                if (amount(cut(line, bar + 7, line.n), r->scale, rake) != READ)
                    return SKIP;
                *has_rake = 1;
            }
        } else if (starts(line, "Seat ")) {
            Py_ssize_t a = find(line, "showed [", 0), b = find(line, "mucked [", 0), open, close, colon;
            PyObject *c;
            int who;
            if (find(line, "[", 0) < 0)
                continue;
            if (a < 0 || (b >= 0 && b < a))
                a = b;
            if (a < 0)
                continue;
            open = a + 8;
            close = find(line, "]", open);
            if (close < 0)
                continue;
            colon = find(line, ": ", 5);
            if (colon < 0)
                continue;
            who = seat_at_start(r, cut(line, colon + 2, line.n));
            if (who < 0)
                continue;
            if ((rc = cards_of(r, cut(line, open, close), &c)) != READ)
                return rc;
            if (c != Py_None && r->seat[who].shown == NULL)
                r->seat[who].shown = c; /* reveal: setdefault */
            else
                Py_DECREF(c);
        } else if (!starts(line, "Board ") && !starts(line, "Hand was run")) {
            PyObject *item = Py_BuildValue("(LO)", (long long)(start + k), PyList_GET_ITEM(lines, k));
            if (item == NULL || PyList_Append(garbage, item) < 0) {
                Py_XDECREF(item);
                return ERROR;
            }
            Py_DECREF(item);
        }
    }
    return READ;
}

/* One line of play (the loop of pokerstars._play); *end set when it is "*** SUMMARY ***". */
static int play_line(reader_t *r, text_t line, int64_t no, int32_t *end)
{
    Py_ssize_t colon = find(line, ": ", 0);
    int who = colon < 0 ? -1 : seat_of(r, cut(line, 0, colon));
    if (who >= 0) {
        text_t rest = cut(line, colon + 2, line.n);
        int64_t v;
        if (equals(rest, "folds"))
            return plain(r, who, K_FOLD, no);
        if (equals(rest, "checks"))
            return plain(r, who, K_CHECK, no);
        if (starts(rest, "calls ")) {
            text_t what = cut(rest, 6, rest.n);
            int32_t all_in = ends(what, "all-in");
            if (all_in) {
                int32_t stripped;
                what = strip_all_in(what, &stripped);
                if (!stripped)
                    return SKIP;
            }
            if (amount(what, r->scale, &v) != READ)
                return SKIP;
            return bet(r, who, K_CALL, 1, v, 0, all_in, no);
        }
        if (starts(rest, "discards ") && rest.n >= 15 && memcmp(rest.s + 10, " card", 5) == 0) {
            PyObject *c = NULL;
            Py_ssize_t at = find(rest, "[", 0);
            int rc;
            if (rest.s[9] < '0' || rest.s[9] > '9')
                return SKIP;
            if (at >= 0 && (rc = cards_of(r, cut(rest, at, rest.n), &c)) != READ)
                return rc;
            if (c == Py_None || (c != NULL && PyTuple_GET_SIZE(c) != rest.s[9] - '0'))
                Py_CLEAR(c);
            rc = draw(r, who, rest.s[9] - '0', c, no);
            Py_XDECREF(c);
            return rc;
        }
        if (equals(rest, "stands pat"))
            return draw(r, who, 0, NULL, no);
        if (starts(rest, "bets ") && !ends(rest, "all-in")) {
            if (amount(cut(rest, 5, rest.n), r->scale, &v) != READ)
                return SKIP;
            return bet(r, who, K_BET, 1, v, 0, 0, no);
        }
        if (starts(rest, "discards "))
            return SKIP;
        return action(r, who, rest, no);
    }
    if (line.n == 0)
        return READ;
    if (starts(line, "*** ")) {
        text_t mark = cut(line, 4, line.n);
        Py_ssize_t stop = find(mark, " ***", 0);
        if (stop >= 0)
            mark = cut(mark, 0, stop);
        if (equals(mark, "SUMMARY"))
            *end = 1;
        else if (equals(mark, "FIRST DRAW") || equals(mark, "DRAW"))
            new_street(r, 1, 1);
        else if (equals(mark, "SECOND DRAW"))
            new_street(r, 2, 1);
        else if (equals(mark, "THIRD DRAW"))
            new_street(r, 3, 1);
        return READ;
    }
    if (starts(line, "Dealt to "))
        return dealt(r, line);
    if (starts(line, "Uncalled bet (")) {
        text_t rest = cut(line, 14, line.n);
        Py_ssize_t at = find(rest, ") returned to ", 0);
        int64_t v;
        int who_back;
        if (at < 0)
            return SKIP;
        who_back = seat_of(r, cut(rest, at + 14, rest.n));
        if (who_back < 0 || amount(cut(rest, 0, at), r->scale, &v) != READ)
            return SKIP;
        r->seat[who_back].behind += v;
        r->seat[who_back].round_bet -= v;
        if (!in_bounds(r->seat[who_back].behind) || !in_bounds(r->seat[who_back].round_bet))
            return SKIP;
        r->seat[who_back].acted = 1;
        return event(r, r->seat[who_back].name, K_UNCALLED, 1, v, 0, 0, 0, 0, 0, NULL, NULL, no);
    }
    if (find(line, " collected ", 0) >= 0 && find(line, " from ", 0) >= 0) {
        Py_ssize_t from = rfind(line, " from "), at;
        text_t name_amount = cut(line, 0, from);
        PyObject *pot;
        int64_t v;
        int whom, rc;
        at = rfind(name_amount, " collected ");
        if (at < 0)
            return SKIP;
        whom = seat_of(r, cut(name_amount, 0, at));
        if (whom < 0 || amount(cut(name_amount, at + 11, name_amount.n), r->scale, &v) != READ)
            return SKIP;
        if ((rc = pot_words(cut(line, from + 6, line.n), &pot)) != READ)
            return rc;
        if (!r->seat[whom].has_collected) {
            r->seat[whom].has_collected = 1;
            r->collect_order[r->ncollected++] = whom;
        }
        r->seat[whom].collected += v;
        if (!in_bounds(r->seat[whom].collected))
            return SKIP;
        r->seat[whom].acted = 1;
        rc = event(r, r->seat[whom].name, K_COLLECT, 1, v, 0, 0, 0, 0, 0, NULL, pot, no);
        Py_DECREF(pot);
        return rc;
    }
    if (equals(line, "The deck is reshuffled")) {
        PyObject *empty = PyUnicode_New(0, 0);
        int rc;
        if (empty == NULL)
            return ERROR;
        rc = event(r, empty, K_RESHUFFLE, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, no);
        Py_DECREF(empty);
        return rc;
    }
    if (equals(line, "Hand cancelled"))
        return SKIP;
    return READ;
}


/* ------------------------------------------------------------------------------------------ Full Tilt */

/* Full Tilt's seat line `^Seat (\d+): (.+?) \((?P<stack>[^)]+)\)(.*)$` on the expression's first path (the
 * shortest name, the stack up to the first ")"): READ with the seat appended, SKIP where that path fails. */
static int tilt_seat_line(reader_t *r, text_t line)
{
    Py_ssize_t name_at, paren, close;
    int64_t number, stack;

    if (seat_opening(r, line, &number, &name_at, &paren) != READ)
        return SKIP;
    close = find(line, ")", paren + 2);
    if (close < 0 || close == paren + 2)
        return SKIP;
    if (amount(cut(line, paren + 2, close), r->scale, &stack) != READ)
        return SKIP;
    return add_seat(r, cut(line, name_at, paren), number, stack,
                    find(cut(line, close + 1, line.n), "sitting out", 0) < 0);
}

/* `what` with every `from` removed, one pass each in order (str.replace(from, "") chained), then
 * str.strip(); ASCII only (SKIP otherwise). */
static int removed_words(text_t t, const char *const *from, size_t nfrom, PyObject **out)
{
    char buf[128], tmp[128];
    Py_ssize_t n = 0, a = 0;
    if (t.n > (Py_ssize_t)sizeof buf)
        return SKIP;
    for (Py_ssize_t k = 0; k < t.n; k++) {
        if ((unsigned char)t.s[k] >= 0x80)
            return SKIP;
        buf[n++] = t.s[k];
    }
    for (size_t f = 0; f < nfrom; f++) {
        Py_ssize_t len = (Py_ssize_t)strlen(from[f]), m = 0;
        for (Py_ssize_t k = 0; k < n;) {
            if (k + len <= n && memcmp(buf + k, from[f], (size_t)len) == 0) {
                k += len;
                continue;
            }
            tmp[m++] = buf[k++];
        }
        memcpy(buf, tmp, (size_t)m);
        n = m;
    }
#define WS(c) ((c) == ' ' || ((c) >= '\t' && (c) <= '\r') || ((c) >= 0x1c && (c) <= 0x1f))
    while (a < n && WS(buf[a])) a++;
    while (n > a && WS(buf[n - 1])) n--;
#undef WS
    *out = PyUnicode_DecodeASCII(buf + a, n - a, "strict");
    return *out == NULL ? ERROR : READ;
}

/* fulltilt._action: "NAME verb ..." */
static int tilt_action(reader_t *r, int who, text_t rest, int64_t no)
{
    text_t verb, what;
    int32_t all_in;
    int64_t v;
    int common = common_action(r, who, rest, no, &verb, &what);

    if (common != NOT_MINE)
        return common;
    if (equals(verb, "raises")) {
        what = strip_all_in(what, &all_in);
        if (amount(cut(what, rfind(what, " ") + 1, what.n), r->scale, &v) != READ)
            return SKIP;
        return bet(r, who, K_RAISE, 0, 0, v, all_in, no);
    }
    if (equals(verb, "discards")) {
        Py_ssize_t at = find(what, " card", 0), open;
        text_t count = at < 0 ? what : cut(what, 0, at), shown = at < 0 ? cut(what, 0, 0) : cut(what, at + 5, what.n);
        int64_t c = 0;
        PyObject *d = NULL;
        int rc;
        if (count.n < 1 || count.n > 2)
            return SKIP; /* int() of anything but one or two ASCII digits: the twin */
        for (Py_ssize_t k = 0; k < count.n; k++) {
            if (count.s[k] < '0' || count.s[k] > '9')
                return SKIP;
            c = c * 10 + (count.s[k] - '0');
        }
        open = find(shown, "[", 0);
        if (open >= 0 && (rc = cards_of(r, cut(shown, open, shown.n), &d)) != READ)
            return rc;
        if (d == Py_None || (d != NULL && PyTuple_GET_SIZE(d) != c))
            Py_CLEAR(d);
        rc = draw(r, who, c, d, no);
        Py_XDECREF(d);
        return rc;
    }
    if (equals(verb, "stands") && starts(what, "pat")) {
        int rc = draw(r, who, 0, NULL, no);
        Py_ssize_t at = find(what, "[", 0);
        PyObject *c;
        if (rc != READ || at < 0)
            return rc;
        rc = cards_of(r, cut(what, at, what.n), &c);
        return rc != READ ? rc : hold(r, who, c, r->street);
    }
    if (equals(verb, "posts")) {
        what = strip_all_in(what, &all_in);
        if (amount(cut(what, rfind(what, " ") + 1, what.n), r->scale, &v) != READ)
            return SKIP;
        if (starts(what, "the small blind"))
            return post(r, who, K_SMALL_BLIND, v, no);
        if (starts(what, "the big blind"))
            return post(r, who, r->posted & (1 << K_BIG_BLIND) ? K_POST : K_BIG_BLIND, v, no);
        return post(r, who, starts(what, "a dead") ? K_DEAD : K_POST, v, no);
    }
    if (equals(verb, "antes")) {
        what = strip_all_in(what, &all_in);
        if (amount(what, r->scale, &v) != READ)
            return SKIP;
        return post(r, who, K_ANTE, v, no);
    }
    if (equals(verb, "shows") || equals(verb, "mucks")) {
        PyObject *c = NULL;
        int rc;
        int32_t shows = equals(verb, "shows");
        if (shows ? find(what, "[", 0) >= 0 : starts(what, "[")) {
            Py_ssize_t close = find(what, "]", 0);
            if (close < 0)
                return SKIP;
            if ((rc = cards_of(r, cut(what, 0, close + 1), &c)) != READ)
                return rc;
        }
        return shown(r, who, shows, c, no);
    }
    if (equals(verb, "wins") || equals(verb, "ties")) {
        /* "wins the pot ($2,922) with ...", "wins the side pot #1 ($5)", "ties for the pot ($5)" */
        static const char *const words[] = {"for the", "the", "pot", "#"};
        Py_ssize_t open = find(what, "(", 0), close;
        text_t tail = open < 0 ? cut(what, 0, 0) : cut(what, open + 1, what.n);
        PyObject *pot;
        int rc;
        close = find(tail, ")", 0);
        if (amount(close < 0 ? tail : cut(tail, 0, close), r->scale, &v) != READ)
            return SKIP;
        if ((rc = removed_words(open < 0 ? what : cut(what, 0, open), words, 4, &pot)) != READ)
            return rc;
        if (!r->seat[who].has_collected) {
            r->seat[who].has_collected = 1;
            r->collect_order[r->ncollected++] = who;
        }
        r->seat[who].collected += v;
        if (!in_bounds(r->seat[who].collected))
            return SKIP;
        r->seat[who].acted = 1;
        rc = event(r, r->seat[who].name, K_COLLECT, 1, v, 0, 0, 0, 0, 0, NULL, pot, no);
        Py_DECREF(pot);
        return rc;
    }
    if (equals(verb, "is") && equals(what, "sitting out")) {
        if (!r->seat[who].acted)
            r->seat[who].dealt = 0;
        return READ;
    }
    return READ; /* "is dealt 2 cards", "has 15 seconds left to act", "adds $5": nothing to record */
}

/* One line of a Full Tilt hand's play (the loop of fulltilt.parse). */
static int tilt_play_line(reader_t *r, text_t line, int64_t no, int32_t *end)
{
    int who;
    if (line.n == 0)
        return READ;
    if (starts(line, "*** ")) {
        text_t mark = cut(line, 4, line.n);
        Py_ssize_t stop = find(mark, " ***", 0);
        if (stop >= 0)
            mark = cut(mark, 0, stop);
        if (equals(mark, "SUMMARY"))
            *end = 1;
        else if (equals(mark, "FIRST DRAW") || equals(mark, "DRAW"))
            new_street(r, 1, 1);
        else if (equals(mark, "SECOND DRAW"))
            new_street(r, 2, 1);
        else if (equals(mark, "THIRD DRAW"))
            new_street(r, 3, 1);
        return READ;
    }
    who = seat_at_start(r, line);
    if (who >= 0)
        return tilt_action(r, who, cut(line, r->seat[who].utf8.n + 1, line.n), no);
    if (starts(line, "Dealt to ")) {
        text_t rest = cut(line, 9, line.n);
        who = seat_at_start(r, rest);
        if (who < 0)
            return SKIP;
        return dealt_rest(r, who, cut(rest, r->seat[who].utf8.n + 1, rest.n), 1);
    }
    if (starts(line, "Uncalled bet of ")) {
        text_t rest = cut(line, 16, line.n);
        Py_ssize_t at = find(rest, " returned to ", 0);
        int64_t v;
        int back;
        if (at < 0)
            return SKIP;
        back = seat_of(r, cut(rest, at + 13, rest.n));
        if (back < 0 || amount(cut(rest, 0, at), r->scale, &v) != READ)
            return SKIP;
        r->seat[back].behind += v;
        r->seat[back].round_bet -= v;
        if (!in_bounds(r->seat[back].behind) || !in_bounds(r->seat[back].round_bet))
            return SKIP;
        r->seat[back].acted = 1;
        return event(r, r->seat[back].name, K_UNCALLED, 1, v, 0, 0, 0, 0, 0, NULL, NULL, no);
    }
    if (starts(line, "The button is in seat #")) {
        text_t digits = cut(line, 23, line.n);
        int64_t b = 0;
        if (digits.n < 1 || digits.n > 9)
            return SKIP;
        for (Py_ssize_t k = 0; k < digits.n; k++) {
            if (digits.s[k] < '0' || digits.s[k] > '9')
                return SKIP;
            b = b * 10 + (digits.s[k] - '0');
        }
        r->has_button = 1;
        r->button = b;
    }
    return READ;
}

/* Full Tilt's summary (fulltilt._summary of a complete hand). */
static int tilt_summary(reader_t *r, PyObject *lines, Py_ssize_t from, int64_t start, int32_t *has_pot,
                        int64_t *pot, int32_t *has_rake, int64_t *rake, PyObject *garbage)
{
    for (Py_ssize_t k = from; k < PyList_GET_SIZE(lines); k++) {
        text_t line;
        int rc = utf8_of(PyList_GET_ITEM(lines, k), &line);
        if (rc != READ)
            return rc;
        if (line.n == 0 || equals(line, "\xef\xbf\xbd")) /* half a character: the end of UTF-16 files */
            continue;
        if (starts(line, "Total pot ")) {
            Py_ssize_t bar = find(line, "| Rake ", 0);
            text_t head = bar < 0 ? line : cut(line, 0, bar), money = cut(head, 10, head.n);
            Py_ssize_t sp = find(money, " ", 0);
            if (amount(sp < 0 ? money : cut(money, 0, sp), r->scale, pot) != READ)
                return SKIP;
            *has_pot = 1;
            *has_rake = 0;
            if (bar >= 0 && bar + 7 < line.n) {
                if (amount(cut(line, bar + 7, line.n), r->scale, rake) != READ)
                    return SKIP;
                *has_rake = 1;
            }
        } else if (starts(line, "Seat ")) {
            Py_ssize_t colon = find(line, ": ", 0), a, b, close;
            text_t body = colon < 0 ? line : cut(line, colon + 2, line.n), rest;
            PyObject *c;
            int who = seat_at_start(r, body);
            if (who < 0)
                continue;
            rest = cut(body, r->seat[who].utf8.n + 1, body.n);
            a = find(rest, "showed [", 0);
            b = find(rest, "mucked [", 0);
            if (a < 0 || (b >= 0 && b < a))
                a = b;
            if (a < 0)
                continue;
            close = find(rest, "]", a + 8);
            if (close < 0)
                continue;
            if ((rc = cards_of(r, cut(rest, a + 8, close), &c)) != READ)
                return rc;
            if (c != Py_None && r->seat[who].shown == NULL)
                r->seat[who].shown = c;
            else
                Py_DECREF(c);
        } else if (!starts(line, "Duration ") && !starts(line, "Board")) {
            PyObject *item = Py_BuildValue("(LO)", (long long)(start + k), PyList_GET_ITEM(lines, k));
            if (item == NULL || PyList_Append(garbage, item) < 0) {
                Py_XDECREF(item);
                return ERROR;
            }
            Py_DECREF(item);
        }
    }
    return READ;
}

/* The tuple handed back (see the top of the file). */
/* ------------------------------------------------------------------------------------------ KingsClub */

/* KingsClub's seat line `^Seat (\d+): (.+?) \(([\d,.]+)\)(?: ([-+][\d,.]+))?$` before the summary (the
 * twin: kingsclub.parse) on the expression's first path: the shortest name, the stack up to the first
 * ")" and nothing after it but a net.  READ with the seat appended, SKIP where that path fails (the
 * expression may backtrack to a longer name: the twin's). */
static int kings_seat_line(reader_t *r, text_t line)
{
    Py_ssize_t name_at, paren, close;
    int64_t number, stack;

    if (seat_opening(r, line, &number, &name_at, &paren) != READ)
        return SKIP;
    close = paren + 2;
    while (close < line.n && ((line.s[close] >= '0' && line.s[close] <= '9') || line.s[close] == ',' ||
                              line.s[close] == '.'))
        close++;
    if (close == paren + 2 || close >= line.n || line.s[close] != ')')
        return SKIP;
    if (close + 1 != line.n) { /* a net: " [-+][\d,.]+" to the end */
        Py_ssize_t e = close + 3;
        if (close + 3 > line.n || line.s[close + 1] != ' ' || (line.s[close + 2] != '-' && line.s[close + 2] != '+'))
            return SKIP;
        while (e < line.n && ((line.s[e] >= '0' && line.s[e] <= '9') || line.s[e] == ',' || line.s[e] == '.'))
            e++;
        if (e == close + 3 || e != line.n)
            return SKIP;
    }
    if (amount(cut(line, paren + 2, close), r->scale, &stack) != READ)
        return SKIP;
    if (find(cut(line, name_at, paren), " ", 0) >= 0)
        return SKIP; /* a name the twin's one-partition reading (plain) does not take */
    return add_seat(r, cut(line, name_at, paren), number, stack, 1);
}

/* kingsclub._post: "NAME: posts ..." (`what`: after "posts "). */
static int kings_post(reader_t *r, int who, text_t what, int64_t no)
{
    int32_t all_in;
    Py_ssize_t sp;
    int64_t v;
    what = strip_all_in(what, &all_in);
    sp = rfind(what, " ");
    if (amount(cut(what, sp + 1, what.n), r->scale, &v) != READ)
        return SKIP;
    if (starts(what, "ante"))
        return post(r, who, K_ANTE, v, no);
    if (starts(what, "the small blind"))
        return post(r, who, K_SMALL_BLIND, v, no);
    if (starts(what, "the big blind"))
        return post(r, who, K_BIG_BLIND, v, no);
    return post(r, who, K_POST, v, no);
}

/* kingsclub._action: "NAME verb ..." (`rest`: after the name's space). */
static int kings_action(reader_t *r, int who, text_t rest, int64_t no)
{
    Py_ssize_t sp = find(rest, " ", 0);
    text_t verb = sp < 0 ? rest : cut(rest, 0, sp), what = sp < 0 ? cut(rest, 0, 0) : cut(rest, sp + 1, rest.n);
    int32_t all_in;
    int64_t v;

    if (equals(verb, "folds"))
        return plain(r, who, K_FOLD, no);
    if (equals(verb, "checks"))
        return plain(r, who, K_CHECK, no);
    if (equals(verb, "calls") || equals(verb, "bets") || equals(verb, "raises")) {
        text_t paid = strip_all_in(what, &all_in);
        Py_ssize_t at = rfind(paid, " ");
        if (amount(cut(paid, at + 1, paid.n), r->scale, &v) != READ)
            return SKIP;
        /* the round total, whatever the verb ("calls 44" after a big blind of 22 puts in 22) */
        return bet(r, who, equals(verb, "calls") ? K_CALL : equals(verb, "bets") ? K_BET : K_RAISE, 0, 0, v, all_in,
                   no);
    }
    if (equals(verb, "draws")) { /* int(what): ASCII digits only here */
        int64_t count = 0;
        if (what.n == 0 || what.n > 2)
            return SKIP;
        for (Py_ssize_t k = 0; k < what.n; k++) {
            if (what.s[k] < '0' || what.s[k] > '9')
                return SKIP;
            count = count * 10 + (what.s[k] - '0');
        }
        return draw(r, who, count, NULL, no);
    }
    if (equals(verb, "stands") && starts(what, "pat"))
        return draw(r, who, 0, NULL, no);
    if (equals(verb, "discards")) {
        /* "discards [7h Qc] draws [2h 9s]" (run it twice: "draws [8c] [Qs]", the first run's cards) */
        Py_ssize_t at = find(what, " draws ", 0);
        text_t thrown = at < 0 ? what : cut(what, 0, at), fresh = at < 0 ? cut(what, 0, 0) : cut(what, at + 7, what.n);
        PyObject *discards = NULL, *got = NULL;
        int64_t count;
        int rc;
        if ((rc = cards_of(r, thrown, &discards)) != READ)
            return rc;
        if (fresh.n > 0) {
            Py_ssize_t two = find(fresh, "] [", 0);
            if ((rc = cards_of(r, two < 0 ? fresh : cut(fresh, 0, two), &got)) != READ) {
                Py_DECREF(discards);
                return rc;
            }
        }
        if (discards == Py_None)
            Py_CLEAR(discards);
        count = discards == NULL ? 0 : PyTuple_GET_SIZE(discards);
        if (got == Py_None || (got != NULL && PyTuple_GET_SIZE(got) != count))
            Py_CLEAR(got);
        rc = draw_full(r, who, count, discards, got, no);
        Py_XDECREF(discards);
        Py_XDECREF(got);
        return rc;
    }
    if (equals(verb, "shows") || equals(verb, "mucks"))
        return show(r, who, equals(verb, "shows"), what, no);
    return READ; /* another verb: the twin passes it over too */
}

/* KingsClub's ordinal words (kingsclub._ORDINAL): 1..4, 0 for any other. */
static int64_t ordinal(text_t w)
{
    static const char *const words[] = {"1ST", "2ND", "3RD", "4TH"};
    for (int k = 0; k < 4; k++)
        if (equals(w, words[k]))
            return k + 1;
    return 0;
}

/* One line of kingsclub.parse's play loop (names in the one-partition reading: no space, no ": "). */
static int kings_play_line(reader_t *r, text_t line, int64_t no, int32_t *end)
{
    Py_ssize_t at;
    int who;
    if (line.n == 0)
        return READ;
    if (starts(line, "*** ")) {
        text_t mark = cut(line, 4, line.n), word, kind;
        Py_ssize_t stop = find(mark, " ***", 0), sp;
        if (stop >= 0)
            mark = cut(mark, 0, stop);
        if (equals(mark, "SUMMARY")) {
            *end = 1;
            return READ;
        }
        sp = find(mark, " ", 0);
        word = sp < 0 ? mark : cut(mark, 0, sp);
        kind = sp < 0 ? cut(mark, 0, 0) : cut(mark, sp + 1, mark.n);
        if (equals(kind, "DRAW")) {
            int64_t street = ordinal(word);
            new_street(r, street ? street : r->street + 1, 1);
        } else if (equals(kind, "BETTING ROUND")) {
            int64_t k = ordinal(word);
            if ((k ? k : 1) > 1)
                r->drawing = 0;
        } else if (equals(mark, "FLOP") || equals(mark, "TURN") || equals(mark, "RIVER")) {
            for (int32_t k = 0; k < r->nseats; k++) /* Drawmaha's board: a new betting round */
                r->seat[k].round_bet = 0;
            r->drawing = 0;
        }
        return READ;
    }
    if (starts(line, "Dealt to ")) {
        text_t rest = cut(line, 9, line.n);
        PyObject *c;
        int rc;
        at = find(rest, ": ", 0);
        who = at < 0 ? -1 : seat_of(r, cut(rest, 0, at));
        if (who < 0)
            return SKIP; /* cards dealt to a player not seated: the twin's error */
        if ((rc = cards_of(r, cut(rest, at + 2, rest.n), &c)) != READ)
            return rc;
        return hold(r, who, c, 0);
    }
    if (starts(line, "Run "))
        return SKIP; /* run it twice: the twin's */
    at = find(line, ": ", 0);
    if (at >= 0 && (who = seat_of(r, cut(line, 0, at))) >= 0 && starts(cut(line, at + 2, line.n), "posts "))
        return kings_post(r, who, cut(line, at + 8, line.n), no);
    at = find(line, " ", 0);
    if (at >= 0 && (who = seat_of(r, cut(line, 0, at))) >= 0)
        return kings_action(r, who, cut(line, at + 1, line.n), no);
    return READ; /* a line of no seated player's: the twin passes it over too */
}

static PyObject *result(reader_t *r, int32_t has_pot, int64_t pot, int32_t has_rake, int64_t rake,
                        PyObject *garbage)
{
    PyObject *seats = PyDict_New(), *behind = PyDict_New(), *held = PyDict_New(), *collected = PyDict_New(),
             *shown = PyDict_New(), *posted = PySet_New(NULL), *out = NULL;
    if (!seats || !behind || !held || !collected || !shown || !posted)
        goto done;
    for (int32_t k = 0; k < r->nseats; k++) {
        seat_t *s = &r->seat[k];
        PyObject *seat = r->seat_type->tp_alloc(r->seat_type, 4), *chips, *mine = NULL;
        int bad;
        if (seat == NULL)
            goto done;
        Py_INCREF(s->name);
        PyTuple_SET_ITEM(seat, 0, PyLong_FromLongLong((long long)s->number));
        PyTuple_SET_ITEM(seat, 1, s->name);
        PyTuple_SET_ITEM(seat, 2, PyLong_FromLongLong((long long)s->stack));
        PyTuple_SET_ITEM(seat, 3, PyBool_FromLong(s->dealt));
        bad = PyTuple_GET_ITEM(seat, 0) == NULL || PyTuple_GET_ITEM(seat, 2) == NULL ||
              PyDict_SetItem(seats, s->name, seat) < 0;
        Py_DECREF(seat);
        if (bad)
            goto done;
        chips = PyLong_FromLongLong((long long)s->behind);
        bad = chips == NULL || PyDict_SetItem(behind, s->name, chips) < 0;
        Py_XDECREF(chips);
        if (bad)
            goto done;
        for (int32_t st = 0; st < STREETS; st++) {
            PyObject *street;
            if (s->held[st] == NULL)
                continue;
            if (mine == NULL && ((mine = PyDict_New()) == NULL || PyDict_SetItem(held, s->name, mine) < 0)) {
                Py_XDECREF(mine);
                goto done;
            }
            street = PyLong_FromLong(st);
            bad = street == NULL || PyDict_SetItem(mine, street, s->held[st]) < 0;
            Py_XDECREF(street);
            if (bad) {
                Py_DECREF(mine);
                goto done;
            }
        }
        Py_XDECREF(mine);
        if (s->shown != NULL && PyDict_SetItem(shown, s->name, s->shown) < 0)
            goto done;
    }
    for (int32_t k = 0; k < r->ncollected; k++) { /* in the order of the first collect: the room's */
        seat_t *s = &r->seat[r->collect_order[k]];
        PyObject *chips = PyLong_FromLongLong((long long)s->collected);
        int bad = chips == NULL || PyDict_SetItem(collected, s->name, chips) < 0;
        Py_XDECREF(chips);
        if (bad)
            goto done;
    }
    for (int k = 0; k < KINDS; k++)
        if ((r->posted & (1 << k)) && PySet_Add(posted, r->kinds[k]) < 0)
            goto done;
    {
        PyObject *p = int_or_none(has_pot, pot), *k = int_or_none(has_rake, rake);
        PyObject *b = int_or_none(r->has_button, r->button);
        if (p != NULL && k != NULL && b != NULL)
            out = PyTuple_Pack(11, seats, behind, r->events, held, collected, shown, posted, p, k, garbage, b);
        Py_XDECREF(p);
        Py_XDECREF(k);
        Py_XDECREF(b);
    }
done:
    Py_XDECREF(seats);
    Py_XDECREF(behind);
    Py_XDECREF(held);
    Py_XDECREF(collected);
    Py_XDECREF(shown);
    Py_XDECREF(posted);
    return out;
}

static int64_t small_int(PyObject *o, int *bad)
{
    long long v;
    if (!PyLong_CheckExact(o)) {
        *bad = 1;
        return 0;
    }
    v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        *bad = 1;
    }
    return (int64_t)v;
}

enum dialect { STARS = 0, TILT = 1, KINGS = 2 };

static PyObject *read_hand(int32_t dialect, PyObject *const *args, Py_ssize_t nargs)
{
    const int32_t tilt = dialect == TILT, kings = dialect == KINGS;
    reader_t r;
    PyObject *lines, *consts, *kinds, *garbage = NULL, *out = NULL;
    Py_ssize_t i, n;
    int64_t start, pot = 0, rake = 0;
    int32_t has_pot = 0, has_rake = 0, end = 0;
    int bad = 0, rc = READ;

    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "read_stars/read_tilt take 7 arguments (lines, i, start, scale, draws, hand_size, consts)");
        return NULL;
    }
    lines = args[0];
    consts = args[6];
    if (!PyList_CheckExact(lines) || !PyTuple_CheckExact(consts) || PyTuple_GET_SIZE(consts) != 5) {
        PyErr_SetString(PyExc_TypeError, "read_stars: lines must be a list and consts a 5-tuple");
        return NULL;
    }
    memset(&r, 0, sizeof r);
    i = (Py_ssize_t)small_int(args[1], &bad);
    start = small_int(args[2], &bad);
    r.scale = small_int(args[3], &bad);
    r.draws = small_int(args[4], &bad);
    r.hand_size = small_int(args[5], &bad);
    kinds = PyTuple_GET_ITEM(consts, 2);
    if (bad || !PyType_Check(PyTuple_GET_ITEM(consts, 0)) || !PyType_Check(PyTuple_GET_ITEM(consts, 1)) ||
        !PyTuple_CheckExact(kinds) || PyTuple_GET_SIZE(kinds) != KINDS ||
        !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(consts, 0), &PyTuple_Type) ||
        !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(consts, 1), &PyTuple_Type) ||
        utf8_of(PyTuple_GET_ITEM(consts, 3), &r.ranks) != READ || utf8_of(PyTuple_GET_ITEM(consts, 4), &r.suits) != READ) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "read_stars: bad arguments (see csrc/cpython/stars.c)");
        return NULL;
    }
    if (r.scale < 0 || r.scale > 4 || i < 0 || !in_bounds(start))
        Py_RETURN_NONE;
    r.event_type = (PyTypeObject *)PyTuple_GET_ITEM(consts, 0);
    r.seat_type = (PyTypeObject *)PyTuple_GET_ITEM(consts, 1);
    for (int k = 0; k < KINDS; k++)
        r.kinds[k] = PyTuple_GET_ITEM(kinds, k);
    /* The lines are read through a list of this reader's own (new references to the same str objects):
     * whatever runs while objects are allocated (a collection, a finalizer) cannot free a line being read
     * by changing the caller's list. */
    lines = PyList_GetSlice(lines, 0, PY_SSIZE_T_MAX);
    r.events = PyList_New(0);
    garbage = PyList_New(0);
    if (lines == NULL || r.events == NULL || garbage == NULL) {
        rc = ERROR;
        goto done;
    }
    n = PyList_GET_SIZE(lines);
    for (; i < n; i++) {
        text_t line;
        if ((rc = utf8_of(PyList_GET_ITEM(lines, i), &line)) != READ)
            goto done;
        if (tilt && line.n == 0) /* Full Tilt: blank lines among the seats */
            continue;
        if (!starts(line, "Seat "))
            break;
        if ((rc = tilt ? tilt_seat_line(&r, line) : kings ? kings_seat_line(&r, line) : seat_line(&r, line)) != READ)
            goto done;
    }
    if (r.nseats == 0) {
        rc = SKIP;
        goto done;
    }
    for (; i < n && !end; i++) {
        text_t line;
        if ((rc = utf8_of(PyList_GET_ITEM(lines, i), &line)) != READ)
            goto done;
        if ((rc = tilt ? tilt_play_line(&r, line, start + i, &end)
                       : kings ? kings_play_line(&r, line, start + i, &end) : play_line(&r, line, start + i, &end)) != READ)
            goto done;
    }
    if (!end) { /* no summary: truncated (or cancelled): the twin says which */
        rc = SKIP;
        goto done;
    }
    if (kings) { /* the summary is the twin's (kingsclub._summary); the builder's state where it starts */
        PyObject *base = result(&r, 0, 0, 0, 0, garbage), *round_bet = PyDict_New(), *extra = NULL;
        for (int32_t k = 0; round_bet != NULL && k < r.nseats; k++)
            if (r.seat[k].round_bet != 0) {
                PyObject *v = PyLong_FromLongLong((long long)r.seat[k].round_bet);
                if (v == NULL || PyDict_SetItem(round_bet, r.seat[k].name, v) < 0)
                    Py_CLEAR(round_bet);
                Py_XDECREF(v);
            }
        if (base != NULL && round_bet != NULL)
            extra = Py_BuildValue("(LOOn)", (long long)r.street, r.drawing ? Py_True : Py_False, round_bet, i);
        if (extra != NULL)
            out = PySequence_Concat(base, extra);
        Py_XDECREF(base);
        Py_XDECREF(round_bet);
        Py_XDECREF(extra);
        rc = out == NULL ? ERROR : READ;
        goto done;
    }
    if ((rc = tilt ? tilt_summary(&r, lines, i, start, &has_pot, &pot, &has_rake, &rake, garbage)
                   : summary(&r, lines, i, start, &has_pot, &pot, &has_rake, &rake, garbage)) != READ)
        goto done;
    out = result(&r, has_pot, pot, has_rake, rake, garbage);
    rc = out == NULL ? ERROR : READ;
done:
    for (int32_t k = 0; k < r.nseats; k++) {
        Py_XDECREF(r.seat[k].name);
        Py_XDECREF(r.seat[k].shown);
        for (int st = 0; st < STREETS; st++)
            Py_XDECREF(r.seat[k].held[st]);
    }
    Py_XDECREF(r.events);
    Py_XDECREF(garbage);
    Py_XDECREF(lines);
    if (rc == ERROR)
        return NULL;
    if (rc == SKIP)
        Py_RETURN_NONE;
    return out;
}

PyObject *bd_read_stars(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return read_hand(STARS, args, nargs);
}

PyObject *bd_read_tilt(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return read_hand(TILT, args, nargs);
}

PyObject *bd_read_kings(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return read_hand(KINGS, args, nargs);
}
