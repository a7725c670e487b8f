/* quakemodels.formats.md5._scan: the compiled fast path of the MD5 tokenizer.
 *
 * One function, scan(): every token of an MD5 text as its byte range, its kind and, for a
 * number, its value, in one pass over the bytes. The tokens are those of tokens.py's plain
 * tokenizer (idLexer's: "strings" on one line, ( ) { } alone, // and block comments
 * skipped, any other run of bytes up to white space, punctuation, a quote or a comment one
 * word); fast.py's CompiledTokens reads tables from these arrays with numpy instead of one
 * Python object per token. Anything this scanner is not sure of is handed back (-1): an
 * unclosed string or comment, a byte Python's str.split takes for white space and C's
 * does not. Then the Python tokenizers read the file and name the fault.
 * tests/test_md5_fast.py proves the parse through it equal to the plain path's; the
 * package works without it (a build without a C compiler leaves it out).
 *
 * Untrusted input: every read is bounded by the buffer's length (the text may hold NUL
 * bytes, which are word bytes here as in Python); every write is checked against the
 * outputs' room, which grows (or the call fails with MemoryError) before it is passed.
 *
 * Only the Python C API: no numpy headers; the caller views the bytes returned with numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Token kinds, as fast.py names them. */
enum { WORD = 0, NUMBER = 1, INTEGER = 2, OPEN = 3, CLOSE = 4, BEGIN = 5, END = 6, STRING = 7 };

/* The longest integer kept exact as a double: 15 digits (below 2**53). */
#define MAX_INT_DIGITS 15

static int is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* White space for Python's str.split of the Latin-1 text, not for bytes.split: a file
 * holding one is left to the Python tokenizers (as fast.py's FastTokens leaves it). */
static int is_loose_space(unsigned char c) {
    return (c >= 0x1c && c <= 0x1f) || c == 0x85 || c == 0xa0;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Byte classes for the word loop: one table lookup a byte. */
enum { C_SPACE = 1, C_STOP = 2, C_LOOSE = 4, C_SLASH = 8 };
static unsigned char CLASS[256];

static void init_classes(void) {
    for (int c = 0; c < 256; c++) {
        unsigned char k = 0;
        if (is_space((unsigned char)c)) k |= C_SPACE | C_STOP;
        if (c == '(' || c == ')' || c == '{' || c == '}' || c == '"') k |= C_STOP;
        if (is_loose_space((unsigned char)c)) k |= C_LOOSE | C_STOP;
        if (c == '/') k |= C_SLASH | C_STOP;
        CLASS[c] = k;
    }
}

/* Exact powers of ten as doubles (10**22 is the last one a double holds exactly). */
static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define EXACT_LIMIT (UINT64_C(1) << 53)

/* The kind of the word s[0..n), read in one pass: INTEGER for a canonical integer ("0",
 * or an optional '-' and 1..15 digits without a leading zero), NUMBER for the rest of
 * [+-]?(digits[.digits*]|.digits)([eE][+-]?digits)?, else WORD. For a number, *exact says
 * whether *value holds it: by Clinger's fast path, where the integer of its digits is at
 * most 2**53, it has no exponent and at most 22 decimals, one IEEE division is the
 * correctly rounded value (what float() and dtoa give); elsewhere the caller asks dtoa. */
static int word_kind(const unsigned char *s, Py_ssize_t n, double *value, int *exact) {
    Py_ssize_t i = 0, digits = 0, frac = 0;
    int sign = 0, fits = 1, kind;
    uint64_t m = 0;
    long scale = 0;
    *exact = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
        sign = s[i] == '+' ? 1 : 2;
        i++;
    }
    Py_ssize_t lead = i;
    for (; i < n && is_digit(s[i]); i++, digits++) {
        if (m > EXACT_LIMIT / 10) fits = 0;
        else m = m * 10 + (uint64_t)(s[i] - '0');
    }
    if (i == n && digits) {
        int canonical = sign != 1 && digits <= MAX_INT_DIGITS &&
                        (s[lead] != '0' || (digits == 1 && sign == 0));
        kind = canonical ? INTEGER : NUMBER;
    } else {
        if (i < n && s[i] == '.') {
            for (i++; i < n && is_digit(s[i]); i++, frac++) {
                if (m > EXACT_LIMIT / 10) fits = 0;
                else m = m * 10 + (uint64_t)(s[i] - '0');
                scale--;
            }
        }
        if (!digits && !frac) return WORD;
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
            fits = 0; /* an exponent: dtoa reads it */
            i++;
            if (i < n && (s[i] == '+' || s[i] == '-')) i++;
            Py_ssize_t exp = 0;
            while (i < n && is_digit(s[i])) i++, exp++;
            if (!exp) return WORD;
        }
        if (i != n) return WORD;
        kind = NUMBER;
    }
    if (fits && m <= EXACT_LIMIT && scale >= -22) {
        double v = (double)m;
        v = scale < 0 ? v / POW10[-scale] : v;
        *value = sign == 2 ? -v : v;
        *exact = 1;
    }
    return kind;
}

/* The outputs: bytes objects owned here until returned, and the room in them. */
typedef struct {
    PyObject *starts, *ends, *kinds, *values, *named;
    Py_ssize_t cap, named_cap;
} Out;

/* Room for ``cap`` tokens and ``named_cap`` named comments in o (its bytes resized in
 * place); -1 with MemoryError set when there is none. */
static int reserve(Out *o, Py_ssize_t cap, Py_ssize_t named_cap) {
    if (_PyBytes_Resize(&o->starts, cap * 8) < 0 || _PyBytes_Resize(&o->ends, cap * 8) < 0 ||
        _PyBytes_Resize(&o->kinds, cap) < 0 || _PyBytes_Resize(&o->values, cap * 8) < 0 ||
        _PyBytes_Resize(&o->named, named_cap * 24) < 0)
        return -1;
    o->cap = cap;
    o->named_cap = named_cap;
    return 0;
}

/* One pass over s[0..n): the tokens into o, their number in *count and the named
 * comments' in *num_named. 0, or 1 where the file is handed back: an unclosed string or
 * comment, a loose white space byte, more tokens than o has room for. */
static int walk(const unsigned char *s, Py_ssize_t n, Out *o, Py_ssize_t *count,
                Py_ssize_t *num_named) {
    Py_ssize_t i = 0, t = 0, named = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (is_space(c)) {
            i++;
            continue;
        }
        if (is_loose_space(c)) return 1;
        Py_ssize_t start = i;
        int kind, exact = 0;
        double value = 0.0;
        if (c == '"') {
            Py_ssize_t j = i + 1;
            while (j < n && s[j] != '"' && s[j] != '\n') j++;
            if (j >= n || s[j] != '"') return 1; /* unclosed: the plain tokenizer names it */
            i = j + 1;
            kind = STRING;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            Py_ssize_t j = i + 2;
            while (j < n && s[j] != '\n') j++;
            Py_ssize_t k = i + 2;
            while (k < j && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r' || s[k] == '\v' ||
                             s[k] == '\f'))
                k++;
            if (j - k >= 7 && memcmp(s + k, "meshes:", 7) == 0) {
                if (named >= o->named_cap) return 1;
                int64_t *out = (int64_t *)PyBytes_AS_STRING(o->named) + 3 * named;
                out[0] = (int64_t)t;
                out[1] = (int64_t)i;
                out[2] = (int64_t)j;
                named++;
            }
            i = j;
            continue;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            Py_ssize_t j = i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/')) j++;
            if (j + 1 >= n) return 1; /* never closed */
            i = j + 2;
            continue;
        } else if (c == '(' || c == ')' || c == '{' || c == '}') {
            i++;
            kind = c == '(' ? OPEN : c == ')' ? CLOSE : c == '{' ? BEGIN : END;
        } else {
            Py_ssize_t j = i;
            while (j < n) {
                unsigned char k = CLASS[s[j]];
                if (!(k & C_STOP)) {
                    j++;
                    continue;
                }
                if (k & C_LOOSE) return 1;
                /* a slash ends the word only where a comment starts */
                if ((k & C_SLASH) && !(j + 1 < n && (s[j + 1] == '/' || s[j + 1] == '*'))) {
                    j++;
                    continue;
                }
                break;
            }
            i = j;
            kind = word_kind(s + start, i - start, &value, &exact);
        }
        if ((kind == NUMBER || kind == INTEGER) && !exact) {
            /* the grammar of word_kind is a subset of what dtoa reads; it stops at the
             * token's end (a delimiter follows, or the bytes object's terminating NUL) */
            char *stop = NULL;
            value = PyOS_string_to_double((const char *)s + start, &stop, NULL);
            if (value == -1.0 && PyErr_Occurred()) {
                PyErr_Clear();
                kind = WORD;
                value = 0.0;
            } else if (stop != (const char *)s + i) {
                kind = WORD;
                value = 0.0;
            }
        }
        if (t >= o->cap) return 1;
        ((int64_t *)PyBytes_AS_STRING(o->starts))[t] = (int64_t)start;
        ((int64_t *)PyBytes_AS_STRING(o->ends))[t] = (int64_t)i;
        ((uint8_t *)PyBytes_AS_STRING(o->kinds))[t] = (uint8_t)kind;
        ((double *)PyBytes_AS_STRING(o->values))[t] = value;
        t++;
    }
    *count = t;
    *num_named = named;
    return 0;
}

/* scan(data) -> (starts, ends, kinds, values, named) or None.
 *
 * starts and ends: int64 byte offsets of each token; kinds: one uint8 per token; values:
 * float64 per token (a NUMBER's or INTEGER's value, 0 for the others); named: int64
 * triples (token index, comment start, comment end) of every // comment whose text after
 * the slashes and blanks starts "meshes:" (Sauerbraten's mesh names; fast.py matches
 * them). None where the Python tokenizers must read the file.
 *
 * The outputs hold a token per 3 bytes of text (25 bytes a token: 8.4 bytes a byte of text
 * at most; MD5 exporters write one per 5 to 10 bytes, and a file denser than that is handed
 * back) and 16 named comments and one per 256 bytes (exporters write one a mesh); they
 * are cut to what the walk found at the end. */
static PyObject *scan(PyObject *self, PyObject *args) {
    PyObject *data;
    (void)self;
    /* bytes only: CPython ends every bytes object with a NUL, where a number read at the
     * end of the text stops (another buffer could end anywhere) */
    if (!PyArg_ParseTuple(args, "S:scan", &data)) return NULL;
    const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(data);
    const Py_ssize_t n = PyBytes_GET_SIZE(data);
    PyObject *out = NULL;
    Out o = {
        PyBytes_FromStringAndSize(NULL, 0), PyBytes_FromStringAndSize(NULL, 0),
        PyBytes_FromStringAndSize(NULL, 0), PyBytes_FromStringAndSize(NULL, 0),
        PyBytes_FromStringAndSize(NULL, 0), 0, 0,
    };
    Py_ssize_t count = 0, num_named = 0;
    /* n / 3 + 16 <= PY_SSIZE_T_MAX / 24: no product in reserve() overflows */
    if (o.starts && o.ends && o.kinds && o.values && o.named &&
        reserve(&o, n / 3 + 16, n / 256 + 16) == 0) {
        if (walk(s, n, &o, &count, &num_named)) {
            Py_INCREF(Py_None);
            out = Py_None;
        } else if (reserve(&o, count, num_named) == 0) {
            out = PyTuple_Pack(5, o.starts, o.ends, o.kinds, o.values, o.named);
        }
    }
    Py_XDECREF(o.starts);
    Py_XDECREF(o.ends);
    Py_XDECREF(o.kinds);
    Py_XDECREF(o.values);
    Py_XDECREF(o.named);
    return out;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data) -> (starts, ends, kinds, values, named) or None: the tokens of an MD5 text."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_scan", "The compiled MD5 tokenizer (see _scan.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__scan(void) {
    init_classes();
    return PyModule_Create(&module);
}
