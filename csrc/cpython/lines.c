/* cpython/lines.c -- hand histories cut into hands and lines in C (badacey_fast._speedups.hand_starts,
 * split_lines).
 *
 * Why: before any room reads a hand, the reader (badacey_fast/histories/reader.py) finds where hands start
 * (a line break and one of the rooms' first words) and splits each hand into lines, stripped of trailing
 * blanks where the hand has any.  In Python that was ~6 us a hand of ~60 (an expression scanning every
 * character, a two-character search for " \n" that common spaces make slow, the split): here one pass of
 * memchr over the text does each.
 *
 * The twins: reader._firsts' scan (_NEWLINE_PREFIXES.finditer) and reader._one's split and strip, which
 * these functions follow exactly; the Python twin of the kernel returns None and the reader runs them.
 *
 * hand_starts(text, prefixes) -> [offset]
 *   Every offset of a line break in `text` that one of `prefixes` (a tuple of str) follows, in order: the
 *   places where a room's first line may start.  Any string kind; the prefixes are compared character by
 *   character.
 * split_lines(chunk) -> [line]
 *   chunk.split("\n"), each line .rstrip()-ed when the chunk has trailing blanks somewhere (" \n", a tab,
 *   a carriage return, or a last character " "), as reader._one does: str.rstrip's whitespace
 *   (Py_UNICODE_ISSPACE), any string kind.
 * Neither keeps state; every index is checked against the string's length.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define MAX_PREFIXES 32

/* A str made by a legacy API may need its canonical form before PyUnicode_DATA (Python < 3.12 only:
 * PyUnicode_READY is a deprecated no-op since). */
static int ready(PyObject *s)
{
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_READY(s);
#else
    (void)s;
    return 0;
#endif
}

/* The next index at or after `from` of the ASCII character `c` (n if none), found with memchr. */
static Py_ssize_t find_char(int kind, const void *data, Py_ssize_t from, Py_ssize_t n, char c)
{
    if (from >= n)
        return n;
    if (kind == PyUnicode_1BYTE_KIND) {
        const char *p = memchr((const char *)data + from, c, (size_t)(n - from));
        return p == NULL ? n : (Py_ssize_t)(p - (const char *)data);
    }
    /* Wider strings: memchr for the character's low byte, then the character it sits in (little-endian: the
     * low byte first).  A file with one character beyond Latin-1 -- FTP's replacement characters, a euro
     * sign -- is read in 2-byte blocks throughout, and a loop over characters costs ~5x. */
#if PY_LITTLE_ENDIAN
    {
        const Py_ssize_t width = kind; /* PyUnicode_2BYTE_KIND == 2, PyUnicode_4BYTE_KIND == 4 bytes */
        const char *base = (const char *)data, *end = base + n * width, *p = base + from * width;
        while (p < end) {
            const char *q = memchr(p, c, (size_t)(end - p));
            Py_ssize_t k;
            if (q == NULL)
                return n;
            k = (Py_ssize_t)((q - base) / width);
            if ((q - base) % width == 0 && PyUnicode_READ(kind, data, k) == (Py_UCS4)(unsigned char)c)
                return k;
            p = q + 1;
        }
        return n;
    }
#else
    for (Py_ssize_t k = from; k < n; k++)
        if (PyUnicode_READ(kind, data, k) == (Py_UCS4)(unsigned char)c)
            return k;
    return n;
#endif
}

static Py_ssize_t next_break(int kind, const void *data, Py_ssize_t from, Py_ssize_t n)
{
    return find_char(kind, data, from, n, '\n');
}

static int has_char(int kind, const void *data, Py_ssize_t n, char c)
{
    return find_char(kind, data, 0, n, c) < n;
}

PyObject *bd_hand_starts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text, *prefixes, *out;
    const void *data;
    int kind, wide = 0;
    Py_ssize_t n, np, at;
    uint8_t first[128];
    (void)module;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[1]) > MAX_PREFIXES) {
        PyErr_SetString(PyExc_TypeError, "hand_starts(text, prefixes): a str and a tuple of at most 32 str");
        return NULL;
    }
    text = args[0];
    prefixes = args[1];
    np = PyTuple_GET_SIZE(prefixes);
    for (Py_ssize_t j = 0; j < np; j++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(prefixes, j)) || ready(PyTuple_GET_ITEM(prefixes, j)) < 0 ||
            PyUnicode_GET_LENGTH(PyTuple_GET_ITEM(prefixes, j)) == 0) {
            PyErr_SetString(PyExc_TypeError, "hand_starts: every prefix must be a non-empty str");
            return NULL;
        }
    if (ready(text) < 0)
        return NULL;
    kind = PyUnicode_KIND(text);
    data = PyUnicode_DATA(text);
    n = PyUnicode_GET_LENGTH(text);
    /* The prefixes' first characters (below 128): most lines start with none of them and are passed over
     * with one look. */
    memset(first, 0, sizeof first);
    for (Py_ssize_t j = 0; j < np; j++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(PyTuple_GET_ITEM(prefixes, j), 0);
        if (c >= 128)
            wide = 1;
        else
            first[c] = 1;
    }
    out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (at = next_break(kind, data, 0, n); at < n; at = next_break(kind, data, at + 1, n)) {
        Py_UCS4 c = at + 1 < n ? PyUnicode_READ(kind, data, at + 1) : 0;
        if (!wide && (c >= 128 || !first[c]))
            continue;
        for (Py_ssize_t j = 0; j < np; j++) {
            PyObject *p = PyTuple_GET_ITEM(prefixes, j);
            int pkind = PyUnicode_KIND(p);
            const void *pdata = PyUnicode_DATA(p);
            Py_ssize_t m = PyUnicode_GET_LENGTH(p), k = 0;
            if (m > n - at - 1)
                continue;
            while (k < m && PyUnicode_READ(kind, data, at + 1 + k) == PyUnicode_READ(pkind, pdata, k))
                k++;
            if (k == m) {
                PyObject *o = PyLong_FromSsize_t(at);
                if (o == NULL || PyList_Append(out, o) < 0) {
                    Py_XDECREF(o);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(o);
                break;
            }
        }
    }
    return out;
}

PyObject *bd_split_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *chunk, *out;
    const void *data;
    int kind, strip;
    Py_ssize_t n, a;
    (void)module;
    if (nargs != 1 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "split_lines(chunk): a str");
        return NULL;
    }
    chunk = args[0];
    if (ready(chunk) < 0)
        return NULL;
    kind = PyUnicode_KIND(chunk);
    data = PyUnicode_DATA(chunk);
    n = PyUnicode_GET_LENGTH(chunk);
    /* reader._one's test: " \n" in chunk or "\t" in chunk or "\r" in chunk or chunk.endswith(" ") */
    strip = has_char(kind, data, n, '\t') || has_char(kind, data, n, '\r') ||
            (n > 0 && PyUnicode_READ(kind, data, n - 1) == ' ');
    for (Py_ssize_t k = next_break(kind, data, 0, n); !strip && k < n; k = next_break(kind, data, k + 1, n))
        strip = k > 0 && PyUnicode_READ(kind, data, k - 1) == ' ';
    out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (a = 0;;) {
        Py_ssize_t b = next_break(kind, data, a, n), e = b;
        PyObject *line;
        if (strip)
            while (e > a && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, e - 1)))
                e--;
        line = PyUnicode_Substring(chunk, a, e);
        if (line == NULL || PyList_Append(out, line) < 0) {
            Py_XDECREF(line);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(line);
        if (b >= n)
            break;
        a = b + 1;
    }
    return out;
}

static int word_char(char c) /* \w in ASCII */
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* xml_attributes(line) -> {name: value} or None
 *   dict(re.findall(r'(\w+)="([^"]*)"', line)) for an ASCII line (the XML rooms' attributes, Merge's and
 *   Boss's), None for any other line (the expression reads it: \w is Unicode's word characters there).
 *   The expression tried at each place: a run of word characters followed by =" and, later, a closing
 *   quote.  Where it fails at the start of a run it fails at every place inside the run (the run ends at the
 *   same character), so the search goes on after the run; a name given twice keeps its first place and its
 *   last value, as dict() does. */
PyObject *bd_xml_attributes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *out;
    const char *s;
    Py_ssize_t n, p = 0;
    (void)module;
    if (nargs != 1 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "xml_attributes(line): a str");
        return NULL;
    }
    if (ready(args[0]) < 0)
        return NULL;
    if (!PyUnicode_IS_ASCII(args[0]))
        Py_RETURN_NONE;
    s = (const char *)PyUnicode_DATA(args[0]);
    n = PyUnicode_GET_LENGTH(args[0]);
    out = PyDict_New();
    if (out == NULL)
        return NULL;
    while (p < n) {
        Py_ssize_t e = p, close;
        const char *q;
        PyObject *name, *value;
        int rc;
        if (!word_char(s[p])) {
            p++;
            continue;
        }
        while (e < n && word_char(s[e]))
            e++;
        if (e + 1 >= n || s[e] != '=' || s[e + 1] != '"' ||
            (q = memchr(s + e + 2, '"', (size_t)(n - e - 2))) == NULL) {
            p = e; /* every place inside the run fails alike */
            continue;
        }
        close = (Py_ssize_t)(q - s);
        name = PyUnicode_FromStringAndSize(s + p, e - p);
        value = PyUnicode_FromStringAndSize(s + e + 2, close - e - 2);
        rc = name == NULL || value == NULL ? -1 : PyDict_SetItem(out, name, value);
        Py_XDECREF(name);
        Py_XDECREF(value);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
        p = close + 1;
    }
    return out;
}
