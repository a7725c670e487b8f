/* quakemodels.archive._stamps: the compiled fast path of the game folder search's cache check.
 *
 * One function, stamps(): the (device, inode, mode, size, mtime in ns, ctime in ns) of each of
 * a few folders, as os.stat gives them, packed into one bytes object (six native 8-byte words a
 * folder: dev, inode and mode unsigned, size and the times signed, as struct's "=QQQqqq"). vpath.py
 * keeps the folders a model's game folder search walked with their stamps, and checks them on
 * every later search; a small sprite's whole frames() costs a few stats' time, and os.stat
 * builds a stat_result of some twenty fields a folder where one comparison of bytes is
 * needed. vpath.py keeps these bytes only when os.stat, asked after them, still gives the
 * stamps the walk saw; tests/test_spr.py proves the words os.stat's fields and the search's
 * answers the same through either check.
 *
 * None when a folder cannot be stat'ed (the cached answer is then stale: the caller walks
 * again) or a path holds a NUL byte; None always on Windows, whose os.stat is not stat().
 *
 * Only the Python C API and POSIX stat(); on 64-bit Linux the kernel's newfstatat instead
 * (stat_path below: glibc 2.33 gave stat() a symbol version of its own, which a
 * manylinux_2_17 wheel may not need).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
/* The newfstatat system call fills the same struct stat as glibc's stat() on these two
 * targets (glibc's own stat is this call since 2.33), through syscall(), which every glibc
 * has: the built module needs no symbol newer than manylinux_2_17's glibc. */
static int stat_path(const char *name, struct stat *st) {
    return (int)syscall(SYS_newfstatat, AT_FDCWD, name, st, 0);
}
#else
static int stat_path(const char *name, struct stat *st) { return stat(name, st); }
#endif

#define WORDS 6

static PyObject *stamps(PyObject *self, PyObject *args) {
    PyObject *paths;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!:stamps", &PyTuple_Type, &paths)) {
        return NULL;
    }
#ifdef _WIN32
    (void)paths;
    Py_RETURN_NONE;
#else
    Py_ssize_t n = PyTuple_GET_SIZE(paths);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(paths, i))) {
            PyErr_SetString(PyExc_TypeError, "stamps() takes a tuple of bytes paths");
            return NULL;
        }
    }
    if (n > PY_SSIZE_T_MAX / (WORDS * 8)) {
        return PyErr_NoMemory();
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * WORDS * 8);
    if (out == NULL) {
        return NULL;
    }
    char *at = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *path = PyTuple_GET_ITEM(paths, i);
        const char *name = PyBytes_AS_STRING(path);
        if ((Py_ssize_t)strlen(name) != PyBytes_GET_SIZE(path)) {
            Py_DECREF(out);
            Py_RETURN_NONE; /* a NUL inside: os.stat refuses it, so no stamp was cached */
        }
        struct stat st;
        if (stat_path(name, &st) != 0) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
#if defined(__APPLE__)
        int64_t sec = (int64_t)st.st_mtimespec.tv_sec, nsec = (int64_t)st.st_mtimespec.tv_nsec;
        int64_t csec = (int64_t)st.st_ctimespec.tv_sec, cnsec = (int64_t)st.st_ctimespec.tv_nsec;
#else
        int64_t sec = (int64_t)st.st_mtim.tv_sec, nsec = (int64_t)st.st_mtim.tv_nsec;
        int64_t csec = (int64_t)st.st_ctim.tv_sec, cnsec = (int64_t)st.st_ctim.tv_nsec;
#endif
        uint64_t words[WORDS] = {
            (uint64_t)st.st_dev,
            (uint64_t)st.st_ino,
            (uint64_t)st.st_mode,
            (uint64_t)(int64_t)st.st_size,
            /* os.stat's st_mtime_ns and st_ctime_ns; past int64 (the year 2262) the unpacked
             * stamp differs from os.stat's and vpath.py does not use these bytes */
            (uint64_t)sec * 1000000000u + (uint64_t)nsec,
            (uint64_t)csec * 1000000000u + (uint64_t)cnsec,
        };
        memcpy(at + i * WORDS * 8, words, sizeof words);
    }
    return out;
#endif
}

static PyMethodDef methods[] = {
    {"stamps", stamps, METH_VARARGS,
     "stamps(paths) -> bytes or None: each folder's (dev, inode, mode, size, mtime_ns, ctime_ns)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_stamps", "The game folder search's stat check (see _stamps.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__stamps(void) { return PyModule_Create(&module); }
