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
        PyBuffer_Release(&self->table);
        self->table.obj = NULL;
        Py_DECREF(self);
        return NULL;
    }
    Py_INCREF(values);
    self->values = values;
    Py_INCREF(make);
    self->make = make;
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

static int evaluator_clear(HandEvaluator *self)
{
    Py_CLEAR(self->values);
    Py_CLEAR(self->make);
    return 0;
}

static void evaluator_dealloc(HandEvaluator *self)
{
    PyObject_GC_UnTrack(self);
    evaluator_clear(self);
    if (self->table.obj != NULL)
        PyBuffer_Release(&self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
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
    .tp_dealloc = (destructor)evaluator_dealloc,
};

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
    if (PyObject_GetBuffer(args[2], &out, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear(); /* the buffer protocol's own wording names neither float32 nor the argument */
        PyErr_Format(PyExc_TypeError, "out must be a writable C-contiguous float32 array, not %.100s",
                     Py_TYPE(args[2])->tp_name);
        return NULL;
    }
    if (out.itemsize != 4 || out.format == NULL || strcmp(out.format, "f") != 0) {
        PyErr_Format(PyExc_TypeError, "out must be a writable C-contiguous float32 array, not one of format '%.20s'",
                     out.format == NULL ? "B" : out.format);
        goto done;
    }
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

static PyMethodDef speedups_methods[] = {
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
    if (PyType_Ready(&HandEvaluatorType) < 0)
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
    return module;
}
