/* cpython/finish.c -- a finished hand in C: who was dealt in, the chips paid in, the holdings
 * (badacey_fast._speedups.dealt_and_paid and holdings).
 *
 * Why: HandBuilder.finish (badacey_fast/histories/build.py) runs on every hand of every room, and its loops
 * over seats and events were the largest part of reading a PokerStars hand once its lines were read in C.
 *
 * dealt_and_paid(seats, events, held, behind, collected, seat_type) -> None or (gross, won)
 *   The twin: the first part of HandBuilder.finish (who is dealt in: every player who acts or holds a
 *   card known, no one else) and the sums of HandBuilder._check_chips (chips each player put in: the
 *   stack less the chips behind; chips the room paid).  The rules on those sums (rake, total pot) and
 *   their messages stay in Python (HandBuilder._check_pot).  On success the seats whose dealt flag was
 *   wrong are replaced in `seats` (Seat._replace(dealt=...)); None (nothing changed) for a seat, an event
 *   or an amount outside the shapes kept here (names that are not str, amounts that are not ints within
 *   +-2**55, more than MAX_SEATS seats or winners, more returned to a player than put in: the twin words
 *   it).  Called for a complete hand only (the twin looks at who acted only then).
 *
 * Once a hand's lines are read, HandBuilder._holdings (badacey_fast/histories/build.py) fills in the
 * cards each dealt player held after the deal and after each draw, from what the text showed (the cards
 * dealt to the hero, the cards shown at the end) and the draws between them; done in Python with sets it
 * was a third of reading a PokerStars hand (~20 us of ~60, docs/histories.md "Speed").  Here the same
 * derivation runs on small arrays of card ids, for every room's hands.
 *
 * The twin: HandBuilder._holdings and _derive, which this function follows step for step.  Whatever
 * would make the twin add a note (cards shown that are not the cards dealt, cards that do not add up) or
 * anything outside the shapes kept here (a card that is not an int in 0..63, more than MAX_CARDS cards in
 * a hand, more than three draws, a draw's count that is not an int in 0..MAX_CARDS), it does not decide:
 * it returns None before changing anything and the caller runs the twin, so notes and outputs are the
 * twin's.  No state is kept between calls; every array index is checked against its bound.
 *
 * holdings(seats, events, held, shown, draws, hand_size, consts) -> None or {name: [cards or None, ...]}
 *   seats      {name: Seat} (Seat[3]: dealt), in the table's order: the order of the result;
 *   events     [Event]: the hand's events; on success the draws whose discards and new cards follow from
 *              the hands before and after them get them (Event._replace(cards=..., new=...));
 *   held       {name: {street: cards}}, shown {name: cards}: the cards the text showed (tuples of ids);
 *   draws      the variant's draws (0..3), hand_size its cards (1..MAX_CARDS);
 *   consts     (Event, DRAW, FOLD): the event class and the two event kinds read here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define MAX_STREETS 4 /* the deal and three draws */
#define MAX_CARDS 8   /* cards in one hand or one draw; more: the twin */
#define MAX_PLAYERS 16 /* players with a card known; more: the twin */
#define EVENT_FIELDS 11
#define F_STREET 0
#define F_PLAYER 1
#define F_KIND 2
#define F_DRAWN 6
#define F_CARDS 7
#define F_NEW 8

enum { DONE = 0, TWIN = 1, FAIL = 2 }; /* DONE: go on; TWIN: the twin decides; FAIL: a Python error is set */

/* Every tuple of cards read is held here (a new reference) until the call ends: the result reuses them,
 * and whatever runs while objects are allocated (a collection, a finalizer) cannot free one meanwhile. */
#define MAX_REFS (MAX_PLAYERS * (3 * MAX_STREETS + 1) + 1)
typedef struct {
    PyObject *ref[MAX_REFS];
    int32_t n;
} refs_t;

/* Cards in their text's order (the twin's tuples keep it) and as a set (bit c: card c). */
typedef struct {
    int32_t known;          /* 0: None */
    int32_t n;
    uint8_t c[MAX_CARDS];
    uint64_t set;
    PyObject *same;         /* borrowed: the tuple these cards came from, NULL: built here */
} cards_t;

typedef struct {
    Py_ssize_t index;       /* the event's index in `events`, -1: none */
    int64_t drawn;
    cards_t cards, new_;
} draw_t;

typedef struct {
    PyObject *name;         /* borrowed (a key of `seats`) */
    int64_t folded_at;      /* -1: no fold */
    draw_t draw[MAX_STREETS];
} player_t;

/* The cards of a tuple (or None); TWIN for anything else. */
static int read_cards(PyObject *o, cards_t *out, refs_t *refs)
{
    memset(out, 0, sizeof *out);
    if (o == Py_None)
        return DONE;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > MAX_CARDS || refs->n == MAX_REFS)
        return TWIN;
    Py_INCREF(o);
    refs->ref[refs->n++] = o;
    out->known = 1;
    out->n = (int32_t)PyTuple_GET_SIZE(o);
    out->same = o;
    for (int32_t k = 0; k < out->n; k++) {
        PyObject *c = PyTuple_GET_ITEM(o, k);
        long v;
        if (!PyLong_CheckExact(c))
            return TWIN;
        v = PyLong_AsLong(c);
        if (v < 0 || v > 63) {
            PyErr_Clear(); /* an int beyond a long: the twin's */
            return TWIN;
        }
        out->c[k] = (uint8_t)v;
        out->set |= (uint64_t)1 << v;
    }
    return DONE;
}

static int64_t popcount64(uint64_t v)
{
    int64_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* The cards of `from` not in `drop`, in order, then `add` (add NULL: none). */
static void keep_then(const cards_t *from, uint64_t drop, const cards_t *add, cards_t *out)
{
    cards_t r;
    memset(&r, 0, sizeof r);
    r.known = 1;
    for (int32_t k = 0; k < from->n; k++)
        if (!(drop >> from->c[k] & 1)) {
            r.c[r.n++] = from->c[k];
            r.set |= (uint64_t)1 << from->c[k];
        }
    for (int32_t k = 0; add != NULL && k < add->n && r.n < MAX_CARDS; k++) {
        r.c[r.n++] = add->c[k];
        r.set |= (uint64_t)1 << add->c[k];
    }
    *out = r;
}

static PyObject *as_tuple(const cards_t *cards)
{
    PyObject *t;
    if (!cards->known)
        Py_RETURN_NONE;
    if (cards->same != NULL) {
        Py_INCREF(cards->same);
        return cards->same;
    }
    t = PyTuple_New(cards->n);
    if (t == NULL)
        return NULL;
    for (int32_t k = 0; k < cards->n; k++) {
        PyObject *c = PyLong_FromLong(cards->c[k]);
        if (c == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, c);
    }
    return t;
}

/* An int in [lo, hi] (TWIN otherwise). */
static int small(PyObject *o, int64_t lo, int64_t hi, int64_t *v)
{
    long long x;
    if (!PyLong_CheckExact(o))
        return TWIN;
    x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return TWIN;
    }
    if (x < lo || x > hi)
        return TWIN;
    *v = (int64_t)x;
    return DONE;
}

static int same_kind(PyObject *kind, PyObject *want)
{
    if (kind == want)
        return 1;
    /* The builders' kinds are the interned constants of histories.kinds: two interned strings are equal only
     * when they are the same object, so most events are told apart without a comparison of characters. */
    if (!PyUnicode_Check(kind) || (PyUnicode_CHECK_INTERNED(kind) && PyUnicode_CHECK_INTERNED(want)) ||
        PyUnicode_GET_LENGTH(kind) != PyUnicode_GET_LENGTH(want))
        return 0;
    return PyUnicode_Compare(kind, want) == 0;
}

/* The twin's `_derive`: fill `held` from what is known; TWIN where the twin would say they contradict.
 * `replace` collects the draws whose cards follow (event index, discards, new cards). */
typedef struct {
    Py_ssize_t index;
    cards_t gone, came;
} replace_t;

static int derive(int64_t size, cards_t *held, const player_t *p, int64_t end, replace_t *replace,
                  int32_t *nreplace)
{
    for (int64_t s = 0; s < MAX_STREETS; s++) {
        const cards_t *h = &held[s];
        if (h->known && (h->n != size || popcount64(h->set) != size))
            return TWIN;
    }
    for (int64_t s = 1; s <= end; s++) {
        const draw_t *d = &p->draw[s];
        cards_t *before = &held[s - 1], *after = &held[s];
        int64_t count;
        if (d->index < 0) {
            if (!after->known)
                *after = *before;
            continue;
        }
        count = d->drawn;
        if (before->known && after->known) {
            uint64_t kept = before->set & after->set;
            cards_t gone, came;
            keep_then(before, kept, NULL, &gone);
            keep_then(after, kept, NULL, &came);
            if (gone.n != count || came.n != count)
                return TWIN;
            if ((d->cards.known && d->cards.set != gone.set) || (d->new_.known && d->new_.set != came.set))
                return TWIN;
            if (!d->cards.known || !d->new_.known) {
                if (*nreplace >= MAX_STREETS)
                    return TWIN;
                replace[*nreplace].index = d->index;
                replace[*nreplace].gone = gone;
                replace[*nreplace].came = came;
                (*nreplace)++;
            }
        } else if (before->known && count == 0) {
            *after = *before;
        } else if (after->known && count == 0) {
            *before = *after;
        } else if (before->known && d->cards.known && d->new_.known) {
            if ((d->cards.set & ~before->set) != 0 || d->new_.n != count || before->n + d->new_.n > MAX_CARDS)
                return TWIN;
            keep_then(before, d->cards.set, &d->new_, after);
        } else if (before->known && d->cards.known && (d->cards.set & ~before->set) != 0) {
            return TWIN;
        }
    }
    return DONE;
}

/* The event `e` with its discards and new cards set (Event._replace(cards=gone, new=came)). */
static PyObject *with_cards(PyTypeObject *event_type, PyObject *e, const cards_t *gone, const cards_t *came)
{
    PyObject *out = event_type->tp_alloc(event_type, EVENT_FIELDS);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < EVENT_FIELDS; k++) {
        PyObject *v;
        if (k == F_CARDS)
            v = as_tuple(gone);
        else if (k == F_NEW)
            v = as_tuple(came);
        else {
            v = PyTuple_GET_ITEM(e, k);
            Py_INCREF(v);
        }
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, v);
    }
    return out;
}

static PyObject *nones(int64_t width)
{
    PyObject *list = PyList_New((Py_ssize_t)width);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < (Py_ssize_t)width; k++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(list, k, Py_None);
    }
    return list;
}

static int read_events(PyObject *events, PyObject *draw_kind, PyObject *fold_kind, player_t *players,
                       int32_t nplayers, int64_t *last, refs_t *refs)
{
    Py_ssize_t n = PyList_GET_SIZE(events);
    *last = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *e = PyList_GET_ITEM(events, k), *kind, *who;
        int32_t draw, fold, p;
        int64_t street;
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != EVENT_FIELDS)
            return TWIN;
        if (k == n - 1 && small(PyTuple_GET_ITEM(e, F_STREET), 0, 1000, last) != DONE)
            return TWIN;
        kind = PyTuple_GET_ITEM(e, F_KIND);
        draw = same_kind(kind, draw_kind);
        fold = !draw && same_kind(kind, fold_kind);
        if (!draw && !fold)
            continue;
        who = PyTuple_GET_ITEM(e, F_PLAYER);
        if (!PyUnicode_CheckExact(who)) /* a str compares without running Python code: nothing else here */
            return TWIN;
        for (p = 0; p < nplayers; p++) /* (the hashes of str are cached: most names differ there) */
            if (who == players[p].name ||
                (PyObject_Hash(who) == PyObject_Hash(players[p].name) && PyUnicode_Compare(who, players[p].name) == 0))
                break;
        if (p == nplayers)
            continue; /* nobody whose cards are known */
        if (small(PyTuple_GET_ITEM(e, F_STREET), 0, 1000, &street) != DONE)
            return TWIN;
        if (fold) {
            players[p].folded_at = street;
        } else if (street < MAX_STREETS) { /* later streets are never looked at (end <= draws <= 3) */
            draw_t *d = &players[p].draw[street];
            if (small(PyTuple_GET_ITEM(e, F_DRAWN), 0, MAX_CARDS, &d->drawn) != DONE ||
                read_cards(PyTuple_GET_ITEM(e, F_CARDS), &d->cards, refs) != DONE ||
                read_cards(PyTuple_GET_ITEM(e, F_NEW), &d->new_, refs) != DONE)
                return TWIN;
            d->index = k;
        }
    }
    return DONE;
}

/* The players dealt in with a card known, in the seats' order (new references to their names); TWIN for
 * a seat in a shape the twin may read otherwise. */
static int players_of(PyObject *seats, PyObject *held_by, PyObject *shown, player_t *players, int32_t *nplayers)
{
    Py_ssize_t pos = 0;
    PyObject *name, *seat;
    while (PyDict_Next(seats, &pos, &name, &seat)) {
        int dealt, in_held, in_shown;
        if (!PyUnicode_CheckExact(name) || !PyTuple_Check(seat) || PyTuple_GET_SIZE(seat) < 4 ||
            !PyBool_Check(PyTuple_GET_ITEM(seat, 3)))
            return TWIN;
        dealt = PyTuple_GET_ITEM(seat, 3) == Py_True;
        if (!dealt)
            continue;
        in_held = PyDict_Contains(held_by, name); /* str keys: no Python code runs */
        if (in_held < 0)
            return FAIL;
        in_shown = in_held ? 0 : PyDict_Contains(shown, name);
        if (in_shown < 0)
            return FAIL;
        if (!in_held && !in_shown)
            continue;
        if (*nplayers == MAX_PLAYERS)
            return TWIN;
        memset(&players[*nplayers], 0, sizeof players[*nplayers]);
        Py_INCREF(name);
        players[*nplayers].name = name;
        players[*nplayers].folded_at = -1;
        for (int s = 0; s < MAX_STREETS; s++)
            players[*nplayers].draw[s].index = -1;
        (*nplayers)++;
    }
    return DONE;
}

/* The cards the player's known hands and draws give on each street (the twin's loop over one player). */
static int held_of(const player_t *pl, PyObject *held_by, PyObject *shown, int64_t width, int64_t draws,
                   int64_t last, int64_t size, cards_t *h, replace_t *replace, int32_t *nreplace, refs_t *refs)
{
    PyObject *mine = PyDict_GetItemWithError(held_by, pl->name), *street, *cards;
    cards_t final;
    int64_t end;
    Py_ssize_t at = 0;
    if (mine == NULL && PyErr_Occurred())
        return FAIL;
    memset(h, 0, sizeof(cards_t) * MAX_STREETS);
    if (mine != NULL) {
        if (!PyDict_Check(mine))
            return TWIN;
        while (PyDict_Next(mine, &at, &street, &cards)) {
            int64_t s;
            if (!PyLong_CheckExact(street))
                return TWIN;
            if (small(street, 0, width - 1, &s) != DONE)
                continue; /* the twin skips a street outside the hand (an int, any size) */
            if (read_cards(cards, &h[s], refs) != DONE)
                return TWIN;
        }
    }
    end = pl->folded_at >= 0 ? pl->folded_at : last;
    if (end > draws)
        end = draws;
    cards = PyDict_GetItemWithError(shown, pl->name);
    if (cards == NULL && PyErr_Occurred())
        return FAIL;
    if (read_cards(cards == NULL ? Py_None : cards, &final, refs) != DONE)
        return TWIN;
    if (final.known) {
        for (int64_t s = end; s >= 0; s--) {
            if (!h[s].known)
                h[s] = final;
            else if (h[s].set != final.set)
                return TWIN; /* the twin notes that the cards shown are not the cards dealt */
            if (s == 0 || (pl->draw[s].index >= 0 && pl->draw[s].drawn != 0))
                break;
        }
    }
    *nreplace = 0;
    return derive(size, h, pl, end, replace, nreplace); /* TWIN: the twin notes it, takes them as unknown */
}

/* The result: {name: [cards or None] * width} for every dealt player, in the seats' order. */
static PyObject *result(PyObject *seats, const player_t *players, int32_t nplayers,
                        cards_t held[][MAX_STREETS], int64_t width)
{
    PyObject *out = PyDict_New(), *name, *seat;
    Py_ssize_t pos = 0;
    int32_t p = 0;
    if (out == NULL)
        return NULL;
    while (PyDict_Next(seats, &pos, &name, &seat)) {
        PyObject *row;
        int rc;
        if (PyTuple_GET_ITEM(seat, 3) != Py_True)
            continue;
        if (p < nplayers && players[p].name == name) {
            row = PyList_New((Py_ssize_t)width);
            for (int64_t s = 0; row != NULL && s < width; s++) {
                PyObject *t = as_tuple(&held[p][s]);
                if (t == NULL)
                    Py_CLEAR(row);
                else
                    PyList_SET_ITEM(row, (Py_ssize_t)s, t);
            }
            p++;
        } else {
            row = nones(width);
        }
        rc = row == NULL ? -1 : PyDict_SetItem(out, name, row);
        Py_XDECREF(row);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static PyObject *holdings(PyObject *seats, PyObject *events, PyObject *held_by, PyObject *shown, int64_t draws,
                          int64_t size, PyTypeObject *event_type, PyObject *draw_kind, PyObject *fold_kind)
{
    player_t players[MAX_PLAYERS];
    cards_t held[MAX_PLAYERS][MAX_STREETS];
    replace_t replace[MAX_PLAYERS][MAX_STREETS];
    int32_t nreplace[MAX_PLAYERS];
    refs_t refs;
    int32_t nplayers = 0;
    int64_t width = draws + 1, last = 0;
    PyObject *out = NULL;
    int rc;

    refs.n = 0;
    /* The seats are read twice (the players, then the result): a copy, so nothing can change between. */
    seats = PyDict_Copy(seats);
    if (seats == NULL)
        return NULL;
    rc = players_of(seats, held_by, shown, players, &nplayers);
    if (rc == DONE && nplayers > 0)
        rc = read_events(events, draw_kind, fold_kind, players, nplayers, &last, &refs);
    for (int32_t p = 0; rc == DONE && p < nplayers; p++)
        rc = held_of(&players[p], held_by, shown, width, draws, last, size, held[p], replace[p], &nreplace[p],
                     &refs);
    if (rc == DONE) /* decided: the result, then the draws' cards */
        out = result(seats, players, nplayers, held, width);
    for (int32_t p = 0; out != NULL && p < nplayers; p++)
        for (int32_t k = 0; out != NULL && k < nreplace[p]; k++) {
            Py_ssize_t i = replace[p][k].index;
            PyObject *e = NULL;
            if (i < PyList_GET_SIZE(events))
                e = with_cards(event_type, PyList_GET_ITEM(events, i), &replace[p][k].gone, &replace[p][k].came);
            else
                PyErr_SetString(PyExc_RuntimeError, "holdings: the events changed while they were read");
            if (e == NULL || PyList_SetItem(events, i, e) < 0)
                Py_CLEAR(out);
        }
    for (int32_t p = 0; p < nplayers; p++)
        Py_DECREF(players[p].name);
    for (int32_t k = 0; k < refs.n; k++)
        Py_DECREF(refs.ref[k]);
    Py_DECREF(seats);
    if (rc == TWIN)
        Py_RETURN_NONE;
    return out; /* NULL: a Python error is set */
}

/* ------------------------------------------------------------------------------ dealt_and_paid */

#define CHIPS_MAX ((int64_t)1 << 55) /* 32 sums of two such amounts stay far inside int64 */
#define MAX_SEATS 32

/* Seat `s` with its dealt flag set to `dealt` (Seat._replace(dealt=...)). */
static PyObject *with_dealt(PyTypeObject *seat_type, PyObject *s, int dealt)
{
    Py_ssize_t n = PyTuple_GET_SIZE(s);
    PyObject *out = seat_type->tp_alloc(seat_type, n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *v = k == 3 ? (dealt ? Py_True : Py_False) : PyTuple_GET_ITEM(s, k);
        Py_INCREF(v);
        PyTuple_SET_ITEM(out, k, v);
    }
    return out;
}

/* Who acted (an event) or holds a card known: acted[p] for each seat's name. */
static int who_acted(PyObject *events, PyObject *held, PyObject *const *names, int32_t nseats, int32_t *acted)
{
    Py_hash_t hashes[MAX_SEATS];
    Py_ssize_t n = PyList_GET_SIZE(events);
    for (int32_t p = 0; p < nseats; p++) {
        hashes[p] = PyObject_Hash(names[p]); /* a str's hash: cached, no Python code */
        acted[p] = PyDict_Contains(held, names[p]);
        if (acted[p] < 0)
            return FAIL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *e = PyList_GET_ITEM(events, k), *who;
        Py_hash_t h;
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != EVENT_FIELDS)
            return TWIN;
        who = PyTuple_GET_ITEM(e, F_PLAYER);
        if (!PyUnicode_CheckExact(who))
            return TWIN; /* a str compares without running Python code: nothing else here */
        h = PyObject_Hash(who);
        for (int32_t p = 0; p < nseats; p++)
            if (who == names[p] || (hashes[p] == h && PyUnicode_Compare(who, names[p]) == 0)) {
                acted[p] = 1;
                break;
            }
    }
    return DONE;
}

static PyObject *dealt_and_paid(PyObject *seats, PyObject *events, PyObject *held, PyObject *behind,
                                PyObject *collected, PyTypeObject *seat_type)
{
    PyObject *names[MAX_SEATS], *seat_of[MAX_SEATS], *fixed[MAX_SEATS], *out = NULL;
    int32_t acted[MAX_SEATS], nseats = 0, rc = DONE;
    int64_t gross = 0, won = 0;
    Py_ssize_t pos = 0;
    PyObject *name, *seat, *value;

    if (PyDict_GET_SIZE(seats) > MAX_SEATS || PyDict_GET_SIZE(collected) > MAX_SEATS)
        Py_RETURN_NONE;
    /* The seats and their names are held (new references) until the end: whatever runs while the new
     * seats are allocated cannot free one. */
    while (rc == DONE && PyDict_Next(seats, &pos, &name, &seat)) {
        int64_t stack, left;
        PyObject *b;
        if (nseats == MAX_SEATS || !PyUnicode_CheckExact(name) || Py_TYPE(seat) != seat_type ||
            PyTuple_GET_SIZE(seat) < 4 || !PyBool_Check(PyTuple_GET_ITEM(seat, 3))) {
            rc = TWIN;
            break;
        }
        b = PyDict_GetItemWithError(behind, name);
        if (b == NULL) { /* the twin's KeyError (an unreadable hand), or an error */
            rc = PyErr_Occurred() ? FAIL : TWIN;
            break;
        }
        if (small(PyTuple_GET_ITEM(seat, 2), -CHIPS_MAX, CHIPS_MAX, &stack) != DONE ||
            small(b, -CHIPS_MAX, CHIPS_MAX, &left) != DONE || stack - left < 0) {
            rc = TWIN; /* more returned than put in: the twin words it */
            break;
        }
        gross += stack - left;
        Py_INCREF(name);
        Py_INCREF(seat);
        names[nseats] = name;
        seat_of[nseats] = seat;
        fixed[nseats] = NULL;
        nseats++;
    }
    pos = 0;
    while (rc == DONE && PyDict_Next(collected, &pos, &name, &value)) {
        int64_t v;
        if (small(value, -CHIPS_MAX, CHIPS_MAX, &v) != DONE)
            rc = TWIN;
        else
            won += v;
    }
    if (rc == DONE)
        rc = who_acted(events, held, names, nseats, acted);
    /* The seats whose flag is wrong: the replacements are built first, then set, so that a failure
     * leaves the seats as they were. */
    for (int32_t p = 0; rc == DONE && p < nseats; p++)
        if ((PyTuple_GET_ITEM(seat_of[p], 3) == Py_True) != (acted[p] != 0) &&
            (fixed[p] = with_dealt(seat_type, seat_of[p], acted[p] != 0)) == NULL)
            rc = FAIL;
    for (int32_t p = 0; rc == DONE && p < nseats; p++)
        if (fixed[p] != NULL && PyDict_SetItem(seats, names[p], fixed[p]) < 0) /* a key already there: */
            rc = FAIL;                                                         /* the order is kept */
    if (rc == DONE)
        out = Py_BuildValue("(LL)", (long long)gross, (long long)won);
    for (int32_t p = 0; p < nseats; p++) {
        Py_XDECREF(fixed[p]);
        Py_DECREF(names[p]);
        Py_DECREF(seat_of[p]);
    }
    if (rc == TWIN)
        Py_RETURN_NONE;
    return out; /* NULL: a Python error is set */
}

PyObject *bd_dealt_and_paid(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "dealt_and_paid takes 6 arguments (seats, events, held, behind, collected, seat_type)");
        return NULL;
    }
    if (!PyDict_CheckExact(args[0]) || !PyList_Check(args[1]) || !PyDict_Check(args[2]) || !PyDict_Check(args[3]) ||
        !PyDict_Check(args[4]) || !PyType_Check(args[5]) ||
        !PyType_IsSubtype((PyTypeObject *)args[5], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "dealt_and_paid: bad arguments (see csrc/cpython/finish.c)");
        return NULL;
    }
    return dealt_and_paid(args[0], args[1], args[2], args[3], args[4], (PyTypeObject *)args[5]);
}

/* ------------------------------------------------------------------------------------ holdings */

PyObject *bd_holdings(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t draws, size;
    PyObject *consts;
    (void)module;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "holdings takes 7 arguments (seats, events, held, shown, draws, hand_size, consts)");
        return NULL;
    }
    consts = args[6];
    if (!PyDict_Check(args[0]) || !PyList_Check(args[1]) || !PyDict_Check(args[2]) || !PyDict_Check(args[3]) ||
        !PyTuple_CheckExact(consts) || PyTuple_GET_SIZE(consts) != 3 || !PyType_Check(PyTuple_GET_ITEM(consts, 0)) ||
        !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(consts, 0), &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "holdings: bad arguments (see csrc/cpython/finish.c)");
        return NULL;
    }
    if (small(args[4], 0, MAX_STREETS - 1, &draws) != DONE || small(args[5], 1, MAX_CARDS, &size) != DONE)
        Py_RETURN_NONE;
    return holdings(args[0], args[1], args[2], args[3], draws, size, (PyTypeObject *)PyTuple_GET_ITEM(consts, 0),
                    PyTuple_GET_ITEM(consts, 1), PyTuple_GET_ITEM(consts, 2));
}
