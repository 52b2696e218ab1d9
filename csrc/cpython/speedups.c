/* cpython/speedups.c -- badacey_fast._speedups: the single-hand call from Python, in CPython's C API.
 *
 * Why this file exists beside cffi: the kernel (badacey.c) is plain C served through cffi, and every
 * bulk path goes that way.  One call does not: `evaluate((3, 6, 9, 12, 19))` must cost <= 0.3 us, and a
 * cffi call with six arguments costs ~0.15 us by itself (argument tuple, six conversions), before the
 * Python-level type checks that cffi cannot do for us (it accepts bool, Fraction and Decimal through
 * __int__, so Fraction(7, 2) would become card 3).  Here one C call does the checks, the lookup and the
 * cached Value in ~60 ns.  Like markupsafe's _speedups: glue only, no rules; the lookup is bd_eval5.
 *
 * HandEvaluator(table, values, make):
 *   table   a buffer of exactly BD_TABLE_ENTRIES uint32 (one game's table, as the cffi side loaded it);
 *           held (PyObject_GetBuffer) for the evaluator's lifetime, so the memory cannot go away;
 *   values  a dict {packed entry: Value} shared with the Python side (filled on first sight);
 *   make    make(entry) -> Value, called once per new entry.
 * evaluator(cards) -> the Value of `cards` when it is a tuple or list of five exact ints (bool is not
 * one) that are distinct card ids 0..51; otherwise None, and the caller's general path words the error.
 *
 * Creating one also checks BADACEY_FAST_ISA (bd_isa_check): a code path the CPU lacks, or an unknown
 * value, raises RuntimeError naming the variable, its value and the paths this CPU has.
 *
 * observe_rows(rows, count, out): the learning environments' observation vectors, bd_observe_many
 * (observe.c) on a list of ints (see the function below for why it is here and not through cffi).
 *
 * No global mutable state: everything lives in the evaluator object.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "badacey.h"
#include "observe.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Py_buffer table;  /* table.buf is the uint32 table; table.obj keeps it alive */
    PyObject *values; /* dict */
    PyObject *make;   /* callable */
} HandEvaluator;

/* A card id 0..51 from an exact int, or -1 for anything else (other types, out of range, huge). */
static int card_of(PyObject *item)
{
    long v;
    int overflow;
    if (!PyLong_CheckExact(item))
        return -1;
    v = PyLong_AsLongAndOverflow(item, &overflow);
    return (overflow || v < 0 || v > 51) ? -1 : (int)v;
}

static PyObject *evaluator_call(PyObject *self_, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    HandEvaluator *self = (HandEvaluator *)self_;
    PyObject *cards, *const *items, *key, *value;
    int c[5];
    uint32_t entry;

    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "HandEvaluator takes exactly one argument (the cards)");
        return NULL;
    }
    cards = args[0];
    if (PyTuple_CheckExact(cards) && PyTuple_GET_SIZE(cards) == 5)
        items = &PyTuple_GET_ITEM(cards, 0);
    else if (PyList_CheckExact(cards) && PyList_GET_SIZE(cards) == 5)
        items = &PyList_GET_ITEM(cards, 0);
    else
        Py_RETURN_NONE;
    for (int j = 0; j < 5; j++) {
        c[j] = card_of(items[j]);
        if (c[j] < 0)
            Py_RETURN_NONE;
    }
    entry = bd_eval5((const uint32_t *)self->table.buf, c[0], c[1], c[2], c[3], c[4]);
    if (entry == 0) /* a repeated card */
        Py_RETURN_NONE;

    key = PyLong_FromUnsignedLong(entry);
    if (key == NULL)
        return NULL;
    value = PyDict_GetItemWithError(self->values, key); /* borrowed */
    if (value != NULL) {
        Py_DECREF(key);
        Py_INCREF(value);
        return value;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    value = PyObject_CallOneArg(self->make, key);
    if (value != NULL && PyDict_SetItem(self->values, key, value) < 0)
        Py_CLEAR(value);
    Py_DECREF(key);
    return value;
}

static PyObject *evaluator_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"table", "values", "make", NULL};
    PyObject *table, *values, *make;
    HandEvaluator *self;

    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!O:HandEvaluator", names, &table, &PyDict_Type,
                                     &values, &make))
        return NULL;
    if (!PyCallable_Check(make)) {
        PyErr_Format(PyExc_TypeError, "make must be callable, not %.100s", Py_TYPE(make)->tp_name);
        return NULL;
    }
    {
        /* BADACEY_FAST_ISA (badacey.h): an evaluator is made when the C side loads a table, i.e. before
         * the kernel's first use, so a forced code path this CPU lacks (or a misspelt value) is an
         * exception there rather than a kernel quietly running another path, or an illegal instruction. */
        char msg[256];
        if (bd_isa_check(msg, sizeof msg)) {
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
    }
    self = (HandEvaluator *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    if (PyObject_GetBuffer(table, &self->table, PyBUF_SIMPLE) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    /* The lookup reads table[0 .. BD_HANDS5 - 1] as aligned uint32: insist on the whole table. */
    if (self->table.len != (Py_ssize_t)(BD_TABLE_ENTRIES * sizeof(uint32_t)) ||
        ((uintptr_t)self->table.buf % sizeof(uint32_t)) != 0) {
        PyErr_Format(PyExc_ValueError, "table must be %zd aligned bytes (%d uint32 entries), got %zd bytes",
                     (Py_ssize_t)(BD_TABLE_ENTRIES * sizeof(uint32_t)), BD_TABLE_ENTRIES, self->table.len);
        Py_DECREF(self); /* glue_dealloc -> evaluator_clear releases the table */
        return NULL;
    }
    self->values = Py_NewRef(values);
    self->make = Py_NewRef(make);
    self->vectorcall = evaluator_call;
    return (PyObject *)self;
}

static int evaluator_traverse(HandEvaluator *self, visitproc visit, void *arg)
{
    Py_VISIT(self->values);
    Py_VISIT(self->make);
    Py_VISIT(self->table.obj);
    return 0;
}

/* Drops every reference traverse reports, the table's exporter too (PyBuffer_Release sets table.obj to NULL
 * and does nothing when it already is: an evaluator whose table was refused). */
static int evaluator_clear(HandEvaluator *self)
{
    Py_CLEAR(self->values);
    Py_CLEAR(self->make);
    PyBuffer_Release(&self->table);
    return 0;
}

/* tp_dealloc of both glue types (HandEvaluator, SeatRows): untracked, their references dropped by the
 * type's own tp_clear (which drops all that its tp_traverse reports), freed. */
static void glue_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    (void)Py_TYPE(self)->tp_clear(self);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *evaluator_call_tp(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return PyVectorcall_Call(self, args, kwargs);
}

static PyTypeObject HandEvaluatorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "badacey_fast._speedups.HandEvaluator",
    .tp_doc = "HandEvaluator(table, values, make): evaluator(cards) -> Value or None (see speedups.c).",
    .tp_basicsize = sizeof(HandEvaluator),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = evaluator_new,
    .tp_call = evaluator_call_tp,
    .tp_vectorcall_offset = offsetof(HandEvaluator, vectorcall),
    .tp_traverse = (traverseproc)evaluator_traverse,
    .tp_clear = (inquiry)evaluator_clear,
    .tp_dealloc = glue_dealloc,
};

/* The `out` argument of observe_rows and SeatRows into *out: a writable C-contiguous buffer of float32 ("f"),
 * held until the caller's PyBuffer_Release.  0, or -1 with a TypeError naming what `out` is instead (and
 * nothing held). */
static int float32_out(PyObject *arg, Py_buffer *out)
{
    if (PyObject_GetBuffer(arg, out, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear(); /* the buffer protocol's own wording names neither float32 nor the argument */
        PyErr_Format(PyExc_TypeError, "out must be a writable C-contiguous float32 array, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    if (out->itemsize != 4 || out->format == NULL || strcmp(out->format, "f") != 0) {
        PyErr_Format(PyExc_TypeError, "out must be a writable C-contiguous float32 array, not one of format '%.20s'",
                     out->format == NULL ? "B" : out->format);
        PyBuffer_Release(out);
        return -1;
    }
    return 0;
}

/* observe_rows(rows, count, out) -> bd_observe_many's result, for the learning environments' observation
 * vectors (badacey_fast/kernel/_c.py observe_many).  Glue only, no rules: the ints of the list `rows` go
 * into an int64 array (PyLong_AsLongLong: TypeError for a non-integer, OverflowError outside int64), `out`
 * must be a writable C-contiguous buffer of float32 ("f"), and bd_observe_many does the rest, checking
 * every field.  Why here and not through cffi: an observation is wanted at every turn of a game, and the
 * cffi route (struct pack, from_buffer, the call) costs ~2 us of a ~3 us observation; this costs ~0.3 us. */
static PyObject *observe_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t local[4 * BD_OBS_ROW_MAX], *ints = local;
    Py_buffer out;
    PyObject *rows, *result = NULL;
    long long count;
    Py_ssize_t n, i;

    (void)module; /* a module-level function: METH_FASTCALL passes the module, unused */
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "observe_rows takes 3 arguments (rows, count, out)");
        return NULL;
    }
    rows = args[0];
    if (!PyList_CheckExact(rows)) {
        PyErr_Format(PyExc_TypeError, "rows must be a list of ints, not %.100s", Py_TYPE(rows)->tp_name);
        return NULL;
    }
    count = PyLong_AsLongLong(args[1]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    if (float32_out(args[2], &out) < 0)
        return NULL;
    n = PyList_GET_SIZE(rows);
    if (n > (Py_ssize_t)(sizeof local / sizeof local[0])) {
        ints = PyMem_Malloc((size_t)n * sizeof *ints);
        if (ints == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (i = 0; i < n; i++) {
        /* An item's __index__ is Python code that could change the list: the size is read again each
         * time and the item held while it runs. */
        if (i >= PyList_GET_SIZE(rows)) {
            PyErr_SetString(PyExc_RuntimeError, "rows changed size while being read");
            goto done;
        }
        PyObject *item = PyList_GET_ITEM(rows, i);
        Py_INCREF(item);
        long long v = PyLong_AsLongLong(item);
        Py_DECREF(item);
        if (v == -1 && PyErr_Occurred())
            goto done;
        ints[i] = (int64_t)v;
    }
    result = PyLong_FromLongLong(
        (long long)bd_observe_many((const uint8_t *)ints, (int64_t)n * 8, (int64_t)count, (float *)out.buf,
                                   (int64_t)(out.len / 4)));
done:
    if (ints != local)
        PyMem_Free(ints);
    PyBuffer_Release(&out);
    return result;
}

/* SeatRows(cls, fields, betting, drawing): the observation row of csrc/observe.h read straight from the
 * slots of a game object, encoded at once -- what badacey_fast/envs/encoding.py obs_row builds as a
 * Python list and observe_rows converts back, at every turn of an environment (the list, its ~55 int
 * objects read again and two Python-level calls cost more than the encoding itself).  Glue only, no rules:
 * the row is the one obs_row writes, field for field, and bd_observe_many checks every value.
 *
 *   cls       the game class (badacey_fast.game.Game), its attribute access the generic one;
 *   fields    a tuple of SEAT_ROW_FIELDS member descriptors of cls (what cls.<name> is for a __slots__
 *             entry), in the order of enum seat_row_field below;
 *   betting, drawing   the phase values of a betting round and of a draw (str).
 *
 * rows(game, seat, unit, out) -> -1 when `out` (a writable C-contiguous float32 buffer of at least
 * BD_OBS_SIZE values) holds the observation of `seat`, with `unit` chips per big blind; the index of a
 * bad row (0) when bd_observe_many refuses the row; or SEAT_ROWS_NOT_SERVED, out untouched, whenever the
 * game is not what this glue reads: not exactly of type cls (a subclass may read differently), cls
 * changed since (its version tag), a slot unset, a value that is not an exact int or bool where obs_row
 * reads one, a list that is not a list of the table's size, more seats, draws or cards than a row holds.
 * The caller then takes the plain path (obs_row and observe_rows), which gives the same vector or words
 * the refusal.  No Python code runs while the row is read (exact ints and lists only), so the game cannot
 * change under it. */
#include <structmember.h> /* T_OBJECT_EX (Py_T_OBJECT_EX from 3.12, the same value) */
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h> /* ob_digit (3.11 on: included by Python.h) */
#endif

#define SEAT_ROWS_NOT_SERVED (-3)

enum seat_row_field {
    F_N, F_BUTTON, F_PHASE, F_STREET, F_TO_ACT, F_LEVEL, F_NBETS, F_BET_SIZE, F_DISCARD_COUNTS, F_HANDS,
    F_STACKS, F_SBET, F_CONTRIB, F_FOLDED, F_PENDING, SEAT_ROW_FIELDS
};

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyTypeObject *cls;
    unsigned int version; /* cls->tp_version_tag when made: any change to cls since changes it */
    Py_ssize_t offset[SEAT_ROW_FIELDS];
    PyObject *betting, *drawing;
} SeatRows;

/* An exact int or a bool as int64 into *v: 0, or -1 for anything else (an int beyond int64 included). */
static int int64_of(PyObject *o, int64_t *v)
{
    long long x;
    int overflow;
    if (o == Py_False || o == Py_True) {
        *v = o == Py_True;
        return 0;
    }
    if (!PyLong_CheckExact(o))
        return -1;
    /* A one-digit int (every chip count below 2**30, every card, count and flag) read in place: ~50
     * of these per row, and the general call costs several times the read. */
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *v = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 0;
    }
#else
    if (Py_SIZE(o) >= -1 && Py_SIZE(o) <= 1) { /* size -1, 0 or 1: the sign times the one digit */
        *v = (int64_t)Py_SIZE(o) * (int64_t)((PyLongObject *)o)->ob_digit[0];
        return 0;
    }
#endif
    x = PyLong_AsLongLongAndOverflow(o, &overflow); /* an exact int: no error but the overflow flag */
    if (overflow)
        return -1;
    *v = (int64_t)x;
    return 0;
}

/* The `n` items of `list` (exactly a list of exactly n items, each an exact int or bool) into dst[0..n). */
static int ints_of(PyObject *list, Py_ssize_t n, int64_t *dst)
{
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) != n)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (int64_of(PyList_GET_ITEM(list, i), &dst[i]) < 0)
            return -1;
    return 0;
}

static PyObject *seat_rows_call(PyObject *self_, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SeatRows *self = (SeatRows *)self_;
    PyObject *game, *slot[SEAT_ROW_FIELDS], *phase, *hand, *dc, *result;
    int64_t row[BD_OBS_ROW_MAX], n, seat, unit, d, k, pos;
    Py_buffer out;

    if (PyVectorcall_NARGS(nargsf) != 4 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "SeatRows takes exactly 4 arguments (game, seat, unit, out)");
        return NULL;
    }
    game = args[0];
    if (Py_TYPE(game) != self->cls || self->cls->tp_version_tag != self->version)
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    for (int f = 0; f < SEAT_ROW_FIELDS; f++) /* NULL: an unset slot (the betting ones checked when read) */
        slot[f] = *(PyObject **)((char *)game + self->offset[f]);
    if (slot[F_N] == NULL || int64_of(slot[F_N], &n) < 0 || n < 0 || n > 6 || int64_of(args[1], &seat) < 0 ||
        seat < 0 || seat >= n || int64_of(args[2], &unit) < 0)
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    phase = slot[F_PHASE];
    if (phase == NULL || !PyUnicode_CheckExact(phase))
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    /* obs_row's `phase == "betting"`: the engine's own constants are these very objects, any equal str
     * reads the same */
    if (phase == self->betting || PyUnicode_Compare(phase, self->betting) == 0)
        row[3] = 0;
    else if (phase == self->drawing || PyUnicode_Compare(phase, self->drawing) == 0)
        row[3] = 1;
    else
        row[3] = 2;
    dc = slot[F_DISCARD_COUNTS];
    if (slot[F_HANDS] == NULL || !PyList_CheckExact(slot[F_HANDS]) || PyList_GET_SIZE(slot[F_HANDS]) != n ||
        dc == NULL || !PyList_CheckExact(dc) || PyList_GET_SIZE(dc) > 3)
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    hand = PyList_GET_ITEM(slot[F_HANDS], seat);
    if (!PyList_CheckExact(hand) || PyList_GET_SIZE(hand) > 5)
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    d = PyList_GET_SIZE(dc);
    k = PyList_GET_SIZE(hand);
    row[0] = n;
    row[1] = seat;
    row[6] = row[7] = 0; /* outside a betting round: no level, no bet count, nobody still to act */
    if (slot[F_BUTTON] == NULL || int64_of(slot[F_BUTTON], &row[2]) < 0 || slot[F_STREET] == NULL ||
        int64_of(slot[F_STREET], &row[4]) < 0 || slot[F_TO_ACT] == NULL || int64_of(slot[F_TO_ACT], &row[5]) < 0 ||
        (row[3] == 0 && (slot[F_LEVEL] == NULL || int64_of(slot[F_LEVEL], &row[6]) < 0 || slot[F_NBETS] == NULL ||
                         int64_of(slot[F_NBETS], &row[7]) < 0)) ||
        slot[F_BET_SIZE] == NULL || int64_of(slot[F_BET_SIZE], &row[8]) < 0)
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    row[9] = unit;
    row[10] = d;
    row[11] = k;
    /* n <= 6, d <= 3, k <= 5: BD_OBS_HEAD + (5 + d) * n + k <= BD_OBS_ROW_MAX, every write below in row[] */
    pos = BD_OBS_HEAD;
    for (int f = F_STACKS; f <= F_PENDING; f++, pos += n) {
        if (f == F_PENDING && row[3] != 0) {
            memset(&row[pos], 0, (size_t)n * sizeof row[0]);
            continue;
        }
        if (slot[f] == NULL || ints_of(slot[f], n, &row[pos]) < 0)
            return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    }
    for (int64_t r = 0; r < d; r++, pos += n)
        if (ints_of(PyList_GET_ITEM(dc, r), n, &row[pos]) < 0)
            return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    if (ints_of(hand, k, &row[pos]) < 0)
        return PyLong_FromLong(SEAT_ROWS_NOT_SERVED);
    pos += k;

    if (float32_out(args[3], &out) < 0)
        return NULL;
    result = PyLong_FromLongLong((long long)bd_observe_many((const uint8_t *)row, pos * 8, 1, (float *)out.buf,
                                                            (int64_t)(out.len / 4)));
    PyBuffer_Release(&out);
    return result;
}

static PyObject *seat_rows_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cls", "fields", "betting", "drawing", NULL};
    PyObject *cls, *fields, *betting, *drawing;
    SeatRows *self;
    Py_ssize_t offset[SEAT_ROW_FIELDS];

    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!UU:SeatRows", names, &PyType_Type, &cls, &PyTuple_Type,
                                     &fields, &betting, &drawing))
        return NULL;
    if (PyTuple_GET_SIZE(fields) != SEAT_ROW_FIELDS) {
        PyErr_Format(PyExc_ValueError, "fields must be %d member descriptors, not %zd", SEAT_ROW_FIELDS,
                     PyTuple_GET_SIZE(fields));
        return NULL;
    }
    /* Reading a slot at its offset is what attribute access does only when nothing else intervenes. */
    if (((PyTypeObject *)cls)->tp_getattro != PyObject_GenericGetAttr) {
        PyErr_Format(PyExc_ValueError, "%.100s has its own attribute access", ((PyTypeObject *)cls)->tp_name);
        return NULL;
    }
    for (int f = 0; f < SEAT_ROW_FIELDS; f++) {
        PyObject *d = PyTuple_GET_ITEM(fields, f);
        PyMemberDef *m;
        if (Py_TYPE(d) != &PyMemberDescr_Type ||
            !PyType_IsSubtype((PyTypeObject *)cls, PyDescr_TYPE(d))) {
            PyErr_Format(PyExc_ValueError, "field %d is not a slot of %.100s: %.100R", f,
                         ((PyTypeObject *)cls)->tp_name, d);
            return NULL;
        }
        m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || m->offset < (Py_ssize_t)sizeof(PyObject) ||
            m->offset + (Py_ssize_t)sizeof(PyObject *) > ((PyTypeObject *)cls)->tp_basicsize) {
            PyErr_Format(PyExc_ValueError, "field %d is not an object slot of %.100s: %.100R", f,
                         ((PyTypeObject *)cls)->tp_name, d);
            return NULL;
        }
        offset[f] = m->offset;
    }
    if (((PyTypeObject *)cls)->tp_version_tag == 0) {
        /* No tag yet (tags come with the first lookup on the class): without one a change could not be
         * seen, so this glue would serve nothing; refuse instead, as a caller's bug. */
        PyErr_Format(PyExc_ValueError, "%.100s has no version tag yet", ((PyTypeObject *)cls)->tp_name);
        return NULL;
    }
    self = (SeatRows *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->cls = (PyTypeObject *)Py_NewRef(cls);
    self->version = ((PyTypeObject *)cls)->tp_version_tag;
    memcpy(self->offset, offset, sizeof offset);
    self->betting = Py_NewRef(betting);
    self->drawing = Py_NewRef(drawing);
    self->vectorcall = seat_rows_call;
    return (PyObject *)self;
}

static int seat_rows_traverse(SeatRows *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cls);
    Py_VISIT(self->betting);
    Py_VISIT(self->drawing);
    return 0;
}

static int seat_rows_clear(SeatRows *self)
{
    Py_CLEAR(self->cls);
    Py_CLEAR(self->betting);
    Py_CLEAR(self->drawing);
    return 0;
}

static PyTypeObject SeatRowsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "badacey_fast._speedups.SeatRows",
    .tp_doc = "SeatRows(cls, fields, betting, drawing): rows(game, seat, unit, out) -> int (see speedups.c).",
    .tp_basicsize = sizeof(SeatRows),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = seat_rows_new,
    .tp_call = evaluator_call_tp, /* PyVectorcall_Call: the same for any vectorcall object */
    .tp_vectorcall_offset = offsetof(SeatRows, vectorcall),
    .tp_traverse = (traverseproc)seat_rows_traverse,
    .tp_clear = (inquiry)seat_rows_clear,
    .tp_dealloc = glue_dealloc,
};

/* csrc/cpython/stars.c: a PokerStars hand's lines read in C (None: the Python twin reads the hand). */
PyObject *bd_read_stars(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *bd_read_tilt(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *bd_read_kings(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* csrc/cpython/finish.c: a finished hand's dealt players, chips and holdings (None: the Python twin decides). */
PyObject *bd_dealt_and_paid(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *bd_holdings(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* csrc/cpython/lines.c: hand histories cut into hands and lines. */
PyObject *bd_hand_starts(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *bd_split_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *bd_xml_attributes(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* csrc/cpython/stars_head.c: a PokerStars hand's first line and table line. */
PyObject *bd_stars_first_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *bd_stars_table_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

static PyMethodDef speedups_methods[] = {
    {"read_stars", (PyCFunction)(void (*)(void))bd_read_stars, METH_FASTCALL,
     "read_stars(lines, i, start, scale, draws, hand_size, consts): a PokerStars hand's seats, play and "
     "summary, or None (see csrc/cpython/stars.c)."},
    {"read_tilt", (PyCFunction)(void (*)(void))bd_read_tilt, METH_FASTCALL,
     "read_tilt(lines, i, start, scale, draws, hand_size, consts): a Full Tilt hand's seats, play and "
     "summary, or None (see csrc/cpython/stars.c)."},
    {"dealt_and_paid", (PyCFunction)(void (*)(void))bd_dealt_and_paid, METH_FASTCALL,
     "dealt_and_paid(seats, events, held, behind, collected, seat_type): who is dealt in (seats fixed in "
     "place) and (chips put in, chips paid), or None (see csrc/cpython/finish.c)."},
    {"holdings", (PyCFunction)(void (*)(void))bd_holdings, METH_FASTCALL,
     "holdings(seats, events, held, shown, draws, hand_size, consts): the cards each dealt player held on "
     "each street, or None (see csrc/cpython/finish.c)."},
    {"stars_first_line", (PyCFunction)(void (*)(void))bd_stars_first_line, METH_FASTCALL,
     "stars_first_line(line): a PokerStars first line's groups, or None (see csrc/cpython/stars_head.c)."},
    {"stars_table_line", (PyCFunction)(void (*)(void))bd_stars_table_line, METH_FASTCALL,
     "stars_table_line(line): a PokerStars table line's (table, max, button), or None (see "
     "csrc/cpython/stars_head.c)."},
    {"xml_attributes", (PyCFunction)(void (*)(void))bd_xml_attributes, METH_FASTCALL,
     "xml_attributes(line): dict(re.findall(r'(\\w+)=\"([^\"]*)\"', line)) for an ASCII line, else None (see "
     "csrc/cpython/lines.c)."},
    {"hand_starts", (PyCFunction)(void (*)(void))bd_hand_starts, METH_FASTCALL,
     "hand_starts(text, prefixes): the offsets of the line breaks one of the prefixes follows (see "
     "csrc/cpython/lines.c)."},
    {"split_lines", (PyCFunction)(void (*)(void))bd_split_lines, METH_FASTCALL,
     "split_lines(chunk): chunk.split('\\n'), stripped as the reader strips a hand with trailing blanks (see "
     "csrc/cpython/lines.c)."},
    {"read_kings", (PyCFunction)(void (*)(void))bd_read_kings, METH_FASTCALL,
     "read_kings(lines, i, start, scale, draws, hand_size, consts): a KingsClub hand's seats and play up to "
     "its summary, or None (see csrc/cpython/stars.c)."},
    {"observe_rows", (PyCFunction)(void (*)(void))observe_rows, METH_FASTCALL,
     "observe_rows(rows, count, out): bd_observe_many on a list of ints (see csrc/observe.h)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "badacey_fast._speedups",
    .m_doc = "The single-hand evaluate call and the observation rows' glue in C (see csrc/speedups.c).",
    .m_size = -1,
    .m_methods = speedups_methods,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyObject *module;
    if (PyType_Ready(&HandEvaluatorType) < 0 || PyType_Ready(&SeatRowsType) < 0)
        return NULL;
    module = PyModule_Create(&speedups_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&HandEvaluatorType);
    if (PyModule_AddObject(module, "HandEvaluator", (PyObject *)&HandEvaluatorType) < 0) {
        Py_DECREF(&HandEvaluatorType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&SeatRowsType);
    if (PyModule_AddObject(module, "SeatRows", (PyObject *)&SeatRowsType) < 0) {
        Py_DECREF(&SeatRowsType);
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "SEAT_ROWS_NOT_SERVED", SEAT_ROWS_NOT_SERVED) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
