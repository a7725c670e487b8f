/* quakemodels.core._weld: the compiled fast paths of a first mesh.
 *
 * weld(): the distinct (vertex, texcoord) pairs of a model's triangles in first-use order,
 * and the triangles over them: exactly what the numpy path (core/mesh.py: corner_table,
 * dense_first_use) computes, in one pass over the corners instead of a few dozen numpy
 * operations, whose fixed cost dominates on the small meshes of Quake models.
 * tests/test_weld.py proves it equal to the numpy path.
 *
 * seam_rows(): each corner's texcoord row in an MDL (its vertex, or V + its vertex on the
 * back of a seam), the texcoords the weld then pairs with the vertices.
 *
 * trivertx() and texcoords(): one frame's byte-compressed vertices (MD2's and MDL's
 * trivertx_t) and the texcoords, decoded at those corners, with the arithmetic of the
 * readers' plain decode (core/trivertx.py: corner_trivertx, corner_texcoords). These three
 * are proven equal to numpy by tests/test_weld.py and, in the readers, by the formats'
 * fast-path tests (tests/test_md2_fast.py, tests/test_mdl_fast.py).
 *
 * The package works without this module (a build without a C compiler leaves it out, and
 * the callers fall back). Only the Python C API and the buffer protocol: no numpy headers,
 * so it builds against any numpy, and the caller allocates the outputs with numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Fibonacci hashing: the key times 2**64 / golden ratio, its top bits the slot. Exported
 * to Python so that tests can build colliding keys. */
#define HASH_MULTIPLIER UINT64_C(0x9E3779B97F4A7C15)

/* One (T,3) index array as the buffer protocol describes it: any integer item type numpy
 * exports, any strides (a column slice of a file's words needs no copy). */
typedef struct {
    Py_buffer view;
    char kind; /* 'u' unsigned, 's' signed */
    Py_ssize_t rows;
} IndexArray;

static int item_kind(const char *format, Py_ssize_t itemsize, char *kind) {
    const char *f = format ? format : "B";
    const uint16_t one = 1;
    const int little = *(const unsigned char *)&one == 1;
    /* Items in this machine's byte order only (numpy's arrays of our readers are); an
     * array in the other order is refused, and the caller's numpy path serves it. */
    if (*f == '<' || *f == '>' || *f == '!') {
        if ((*f == '<') != little) return -1;
        f++;
    } else if (*f == '=' || *f == '@') {
        f++;
    }
    if (f[0] == '\0' || f[1] != '\0') return -1;
    switch (f[0]) {
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N': *kind = 'u'; break;
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n': *kind = 's'; break;
    default: return -1;
    }
    return (itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8) ? 0 : -1;
}

static int get_index_array(PyObject *obj, IndexArray *a, const char *name) {
    if (PyObject_GetBuffer(obj, &a->view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) return -1;
    if (a->view.ndim != 2 || a->view.shape[1] != 3 ||
        item_kind(a->view.format, a->view.itemsize, &a->kind) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected a (T,3) array of integers", name);
        PyBuffer_Release(&a->view);
        return -1;
    }
    a->rows = a->view.shape[0];
    return 0;
}

/* The item at (row, column) as an unsigned 64-bit number; a negative value becomes
 * 2**64 + value, so one comparison with the bound refuses it. The item is copied out with
 * memcpy: a view of a file's bytes need not be aligned (an MD2 whose ofs_tris is odd), and
 * a cast load there is undefined behaviour (SIGBUS on strict-alignment CPUs); compilers turn
 * the fixed-size memcpy into one load where the CPU allows it. */
static inline uint64_t index_at(const IndexArray *a, Py_ssize_t row, Py_ssize_t column) {
    const char *p = (const char *)a->view.buf + row * a->view.strides[0] +
                    column * a->view.strides[1];
    if (a->kind == 'u') {
        switch (a->view.itemsize) {
        case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
        case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
        case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
        default: { uint64_t v; memcpy(&v, p, 8); return v; }
        }
    }
    switch (a->view.itemsize) {
    case 1: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v; }
    case 2: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
    case 4: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
    default: { int64_t v; memcpy(&v, p, 8); return (uint64_t)v; }
    }
}

static int get_output(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count,
                      const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != itemsize || view->len < count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd writable items of %zd bytes", name,
                     count, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(weld_doc,
"weld(vertices, texcoords, num_texcoords, num_vertices, order, vertex_ids, texcoord_ids,\n"
"     indices) -> int\n"
"\n"
"The distinct (vertex, texcoord) pairs of the (T,3) ``vertices`` and ``texcoords`` (any\n"
"native-order integer type, any strides) in first-use order, written to ``vertex_ids``\n"
"and ``texcoord_ids`` (int32, at least 3T each), and the triangles over them to\n"
"``indices`` (uint32, (T,3)), each triangle's corners taken in ``order`` (as numpy's\n"
"``indices[:, order]``).\n"
"Returns the number of pairs; -1 when an index is negative or not below its bound\n"
"(nothing else is checked: the caller names the bad index); -2 when the pairs collide\n"
"in the table past a budget of probes (a file built to collide: the caller's sorting\n"
"path is then the faster). Memory: a table of at most 48 bytes per corner, whatever\n"
"the bounds, from Python's raw allocator (so tracemalloc sees it).");

static PyObject *weld(PyObject *module, PyObject *args) {
    PyObject *vo, *to, *vid_o, *tid_o, *idx_o;
    Py_ssize_t num_vertices, num_texcoords;
    int order[3], place[3];
    (void)module;
    if (!PyArg_ParseTuple(args, "OOnn(iii)OOO:weld", &vo, &to, &num_texcoords, &num_vertices,
                          &order[0], &order[1], &order[2], &vid_o, &tid_o, &idx_o))
        return NULL;
    if (num_vertices < 0 || num_texcoords < 0 || num_vertices > INT32_MAX ||
        num_texcoords > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "weld: bounds must be in 0..2**31-1");
        return NULL;
    }
    int seen = 0;
    for (int k = 0; k < 3; k++) {
        seen |= (order[k] >= 0 && order[k] <= 2) ? 1 << order[k] : 8;
        if (seen < 8) place[order[k]] = k; /* stored corner order[k] goes to place k */
    }
    if (seen != 7) {
        PyErr_SetString(PyExc_ValueError, "weld: order must be a permutation of (0, 1, 2)");
        return NULL;
    }
    IndexArray v, t;
    Py_buffer vid, tid, idx;
    if (get_index_array(vo, &v, "vertices") < 0) return NULL;
    if (get_index_array(to, &t, "texcoords") < 0) goto fail_v;
    if (t.rows != v.rows) {
        PyErr_SetString(PyExc_ValueError, "weld: vertices and texcoords differ in length");
        goto fail_t;
    }
    Py_ssize_t corners = 3 * v.rows;
    if (get_output(vid_o, &vid, 4, corners, "vertex_ids") < 0) goto fail_t;
    if (get_output(tid_o, &tid, 4, corners, "texcoord_ids") < 0) goto fail_vid;
    if (get_output(idx_o, &idx, 4, corners, "indices") < 0) goto fail_tid;

    if (corners > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "weld: over 2**30 corners");
        goto fail_idx;
    }
    long result = 0;
    if (corners > 0) {
        /* An open-addressing table of the pairs seen, at most half full: its size follows
         * the corners (the file's size), never the vertex and texcoord counts a header
         * claims. A pair packs into one key; no valid pair packs to EMPTY. */
        int bits = 4;
        while (((Py_ssize_t)1 << bits) < 2 * corners) bits++;
        size_t slots = (size_t)1 << bits, mask = slots - 1;
        const uint64_t EMPTY = UINT64_MAX;
        uint64_t *keys = PyMem_RawMalloc(slots * sizeof(uint64_t));
        int32_t *numbers = PyMem_RawMalloc(slots * sizeof(int32_t));
        if (keys == NULL || numbers == NULL) {
            PyMem_RawFree(keys);
            PyMem_RawFree(numbers);
            PyErr_NoMemory();
            goto fail_idx;
        }
        memset(keys, 0xff, slots * sizeof(uint64_t));
        int32_t *out_v = vid.buf, *out_t = tid.buf;
        uint32_t *out_idx = idx.buf;
        /* The keys come from the file, so a file can choose pairs that share a slot and
         * make each lookup walk a long run: past this many steps in all (the corpus models
         * take at most 0.22 per corner), give up, and the caller sorts instead. */
        int64_t steps_left = 2 * (int64_t)corners + 1024;
        Py_BEGIN_ALLOW_THREADS
        int32_t count = 0;
        for (Py_ssize_t row = 0; row < v.rows && result == 0; row++) {
            for (int c = 0; c < 3; c++) {
                uint64_t vi = index_at(&v, row, c), ti = index_at(&t, row, c);
                if (vi >= (uint64_t)num_vertices || ti >= (uint64_t)num_texcoords) {
                    result = -1;
                    break;
                }
                /* A pair's number is the count of pairs first used before it: the corners
                 * are visited in order, so the numbers run in first-use order. */
                uint64_t key = vi << 32 | ti;
                size_t slot = (size_t)((key * HASH_MULTIPLIER) >> (64 - bits));
                while (keys[slot] != key && keys[slot] != EMPTY && --steps_left > 0)
                    slot = (slot + 1) & mask;
                if (steps_left <= 0) {
                    result = -2;
                    break;
                }
                if (keys[slot] == EMPTY) {
                    keys[slot] = key;
                    numbers[slot] = count;
                    out_v[count] = (int32_t)vi;
                    out_t[count] = (int32_t)ti;
                    count++;
                }
                out_idx[3 * row + place[c]] = (uint32_t)numbers[slot];
            }
        }
        if (result == 0) result = count;
        Py_END_ALLOW_THREADS
        PyMem_RawFree(keys);
        PyMem_RawFree(numbers);
    }
    PyBuffer_Release(&idx);
    PyBuffer_Release(&tid);
    PyBuffer_Release(&vid);
    PyBuffer_Release(&t.view);
    PyBuffer_Release(&v.view);
    return PyLong_FromLong(result);

fail_idx:
    PyBuffer_Release(&idx);
fail_tid:
    PyBuffer_Release(&tid);
fail_vid:
    PyBuffer_Release(&vid);
fail_t:
    PyBuffer_Release(&t.view);
fail_v:
    PyBuffer_Release(&v.view);
    return NULL;
}

/* The decodes below must round as numpy does: each product and sum rounded to double on
 * its own, never fused into one multiply-add (compilers fuse by default where the CPU has
 * the instruction, as on arm64). */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

static int get_input(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t itemsize,
                     const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++; /* numpy writes '<' on little-endian */
    if (view->itemsize != itemsize || strcmp(f, format) != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected a C-contiguous array of '%s' items", name,
                     format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(trivertx_doc,
"trivertx(stored, vertex_ids, scale, translate, anorms, positions, normals) -> int\n"
"\n"
"One frame's V stored vertices (``stored``: C-contiguous uint8, 4 bytes each: x, y, z,\n"
"normal index) decoded at the N corners ``vertex_ids`` (C-contiguous int32): the\n"
"position ``float32(v * scale + translate)`` (per axis, in double, scale and translate\n"
"3-tuples of floats) into ``positions`` and the row ``anorms[normal index]`` of the\n"
"(K,3) float32 table into ``normals`` (float32, 3N each).\n"
"Returns 0; -1 when a vertex id is not in 0..V-1 or a normal index of any of the V\n"
"vertices (used or not: the plain decode reads the whole frame) is K or more.");

static PyObject *trivertx(PyObject *module, PyObject *args) {
    PyObject *stored_o, *ids_o, *anorms_o, *pos_o, *nor_o;
    double scale[3], translate[3];
    (void)module;
    if (!PyArg_ParseTuple(args, "OO(ddd)(ddd)OOO:trivertx", &stored_o, &ids_o, &scale[0],
                          &scale[1], &scale[2], &translate[0], &translate[1], &translate[2],
                          &anorms_o, &pos_o, &nor_o))
        return NULL;
    Py_buffer stored, ids, anorms, pos, nor;
    PyObject *result = NULL;
    if (get_input(stored_o, &stored, "B", 1, "stored") < 0) return NULL;
    if (get_input(ids_o, &ids, "i", 4, "vertex_ids") < 0) goto fail_stored;
    if (get_input(anorms_o, &anorms, "f", 4, "anorms") < 0) goto fail_ids;
    Py_ssize_t n = ids.len / 4, v = stored.len / 4, k = anorms.len / 12;
    if (get_output(pos_o, &pos, 4, 3 * n, "positions") < 0) goto fail_anorms;
    if (get_output(nor_o, &nor, 4, 3 * n, "normals") < 0) goto fail_pos;
    if (stored.len % 4 != 0 || anorms.len % 12 != 0) {
        PyErr_SetString(PyExc_ValueError, "trivertx: stored or anorms has a partial row");
        goto fail_nor;
    }
    long status = 0;
    /* Every array through char pointers and memcpy: a buffer need not be aligned (a view
     * of a file's bytes at an odd offset), and a cast load there is undefined behaviour. */
    const uint8_t *bytes = stored.buf;
    const char *vid = ids.buf, *table = anorms.buf;
    char *out_p = pos.buf, *out_n = nor.buf;
    for (Py_ssize_t i = 0; i < v && status == 0; i++)
        if (bytes[4 * i + 3] >= k) status = -1;
    for (Py_ssize_t i = 0; i < n && status == 0; i++) {
        int32_t at;
        memcpy(&at, vid + 4 * i, 4);
        if (at < 0 || at >= v) {
            status = -1;
            break;
        }
        const uint8_t *b = bytes + 4 * (Py_ssize_t)at;
        float xyz[3];
        for (int axis = 0; axis < 3; axis++) {
            double scaled = (double)b[axis] * scale[axis];
            xyz[axis] = (float)(scaled + translate[axis]);
        }
        memcpy(out_p + 12 * i, xyz, 12);
        memcpy(out_n + 12 * i, table + 12 * (Py_ssize_t)b[3], 12);
    }
    result = PyLong_FromLong(status);
fail_nor:
    PyBuffer_Release(&nor);
fail_pos:
    PyBuffer_Release(&pos);
fail_anorms:
    PyBuffer_Release(&anorms);
fail_ids:
    PyBuffer_Release(&ids);
fail_stored:
    PyBuffer_Release(&stored);
    return result;
}

PyDoc_STRVAR(texcoords_doc,
"texcoords(st, texcoord_ids, shift_from, shift, width, height, uvs) -> int\n"
"\n"
"The (S,2) pixel texcoords ``st`` (any native-order integer type, any strides) at the\n"
"N corners ``texcoord_ids`` (C-contiguous int32), over the skin size, into ``uvs``\n"
"(float32, 2N): an id below ``shift_from`` reads row id, ``float32(s / width)``; an id\n"
"at ``shift_from`` or more (an MDL's row V + v: the back of a seam) reads row\n"
"id - shift_from, ``float32((s + shift) / width)``; and ``float32(t / height)``, each in\n"
"double. Returns 0; -1 when a row is not in 0..S-1.");

static PyObject *texcoords(PyObject *module, PyObject *args) {
    PyObject *st_o, *ids_o, *uvs_o;
    Py_ssize_t shift_from;
    double shift, width, height;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOnddd" "O:texcoords", &st_o, &ids_o, &shift_from, &shift,
                          &width, &height, &uvs_o))
        return NULL;
    IndexArray st;
    Py_buffer ids, uvs;
    PyObject *result = NULL;
    if (PyObject_GetBuffer(st_o, &st.view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) return NULL;
    if (st.view.ndim != 2 || st.view.shape[1] != 2 ||
        item_kind(st.view.format, st.view.itemsize, &st.kind) < 0) {
        PyErr_SetString(PyExc_ValueError, "st: expected an (S,2) array of integers");
        goto fail_st;
    }
    st.rows = st.view.shape[0];
    if (get_input(ids_o, &ids, "i", 4, "texcoord_ids") < 0) goto fail_st;
    Py_ssize_t n = ids.len / 4;
    if (get_output(uvs_o, &uvs, 4, 2 * n, "uvs") < 0) goto fail_ids;
    long status = 0;
    const char *tid = ids.buf; /* char pointers and memcpy: see trivertx */
    char *out = uvs.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t id;
        memcpy(&id, tid + 4 * i, 4);
        Py_ssize_t at = id;
        int back = at >= shift_from;
        if (back) at -= shift_from;
        if (at < 0 || at >= st.rows) {
            status = -1;
            break;
        }
        uint64_t s = index_at(&st, at, 0), t = index_at(&st, at, 1);
        double su = st.kind == 's' ? (double)(int64_t)s : (double)s;
        double tv = st.kind == 's' ? (double)(int64_t)t : (double)t;
        if (back) su += shift;
        float uv[2] = {(float)(su / width), (float)(tv / height)};
        memcpy(out + 8 * i, uv, 8);
    }
    result = PyLong_FromLong(status);
    PyBuffer_Release(&uvs);
fail_ids:
    PyBuffer_Release(&ids);
fail_st:
    PyBuffer_Release(&st.view);
    return result;
}

/* One (N,) column of integers as the buffer protocol describes it (any type, any stride). */
static int get_column(PyObject *obj, IndexArray *a, const char *name) {
    if (PyObject_GetBuffer(obj, &a->view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) return -1;
    if (a->view.ndim != 1 || item_kind(a->view.format, a->view.itemsize, &a->kind) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected an (N,) array of integers", name);
        PyBuffer_Release(&a->view);
        return -1;
    }
    a->rows = a->view.shape[0];
    return 0;
}

/* The item at ``row`` of a column, as index_at reads a (T,3) array's. */
static inline uint64_t column_at(const IndexArray *a, Py_ssize_t row) {
    const char *p = (const char *)a->view.buf + row * a->view.strides[0];
    switch (a->view.itemsize) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return a->kind == 'u' ? v : (uint64_t)(int64_t)(int8_t)v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return a->kind == 'u' ? v : (uint64_t)(int64_t)(int16_t)v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return a->kind == 'u' ? v : (uint64_t)(int64_t)(int32_t)v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

PyDoc_STRVAR(seam_rows_doc,
"seam_rows(vertices, on_seam, faces_front, rows) -> int\n"
"\n"
"Each corner's texcoord row in a Quake 1 MDL: its vertex v of the (T,3) ``vertices``,\n"
"plus V (the length of ``on_seam``) where ``on_seam[v]`` is not 0 and the triangle's\n"
"``faces_front`` is 0 (the back of a seam reads its s shifted by half the skin), into\n"
"``rows`` (int32, (T,3)). Integers of any native-order type and stride. Returns 0; -1\n"
"when a vertex is negative or not below V (the caller names it).");

static PyObject *seam_rows(PyObject *module, PyObject *args) {
    PyObject *vo, *so, *fo, *ro;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOO:seam_rows", &vo, &so, &fo, &ro)) return NULL;
    IndexArray v, seam, front;
    Py_buffer rows;
    PyObject *result = NULL;
    if (get_index_array(vo, &v, "vertices") < 0) return NULL;
    if (get_column(so, &seam, "on_seam") < 0) goto fail_v;
    if (get_column(fo, &front, "faces_front") < 0) goto fail_seam;
    if (front.rows != v.rows) {
        PyErr_SetString(PyExc_ValueError, "seam_rows: vertices and faces_front differ in length");
        goto fail_front;
    }
    if (seam.rows > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "seam_rows: over 2**30 vertices");
        goto fail_front;
    }
    if (get_output(ro, &rows, 4, 3 * v.rows, "rows") < 0) goto fail_front;
    long status = 0;
    char *out = rows.buf; /* char pointer and memcpy: see trivertx */
    for (Py_ssize_t t = 0; t < v.rows && status == 0; t++) {
        int back = column_at(&front, t) == 0;
        for (int c = 0; c < 3; c++) {
            uint64_t vi = index_at(&v, t, c);
            if (vi >= (uint64_t)seam.rows) {
                status = -1;
                break;
            }
            int32_t row = (int32_t)vi;
            if (back && column_at(&seam, (Py_ssize_t)vi) != 0) row += (int32_t)seam.rows;
            memcpy(out + 4 * (3 * t + c), &row, 4);
        }
    }
    result = PyLong_FromLong(status);
    PyBuffer_Release(&rows);
fail_front:
    PyBuffer_Release(&front.view);
fail_seam:
    PyBuffer_Release(&seam.view);
fail_v:
    PyBuffer_Release(&v.view);
    return result;
}

static PyMethodDef methods[] = {
    {"seam_rows", seam_rows, METH_VARARGS, seam_rows_doc},
    {"weld", weld, METH_VARARGS, weld_doc},
    {"trivertx", trivertx, METH_VARARGS, trivertx_doc},
    {"texcoords", texcoords, METH_VARARGS, texcoords_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_weld",
    "The compiled fast paths of a first mesh: weld, seam_rows, trivertx, texcoords.",
    -1,
    methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__weld(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    PyObject *multiplier = PyLong_FromUnsignedLongLong(HASH_MULTIPLIER);
    int failed = multiplier == NULL || PyModule_AddObjectRef(m, "HASH_MULTIPLIER", multiplier) < 0;
    Py_XDECREF(multiplier);
    if (failed) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
