/* quakemodels.formats.iqm._pose: the compiled fast path of an IQM's first pose.
 *
 * One function, pose(): what Iqm.meshes(frame) gives, straight from the file's bytes, in one
 * call: the joints' base pose read and checked, their world matrices and inverse binds, the
 * frame's channels decoded into local TRS and world matrices, every vertex skinned by its
 * normalised blend weights, each mesh's normals from its posed triangles (area-weighted, as
 * core/build.py's vertex_normals), its texture coordinates and its triangles turned
 * counter-clockwise. The numpy path (reader.py's rest_scene and frame_clip, core/skeletal.py's
 * bake, model.py's posed_meshes) is the plain one and names every fault; this kernel reads
 * the same records (vertex arrays, meshes, anims, joints, poses, the frame's channels) and
 * checks of each what the reader checks, so that it never poses a file the reader refuses.
 *
 * Untrusted input: every read is bounded by the buffer's length, and every index (parents,
 * blend indexes, triangle corners) is checked against what it indexes before it is used.
 * Anything this kernel is not sure of is handed back (a positive return): a fault the plain
 * path would raise, a vertex format other than the common ones (float positions and texture
 * coordinates, ubyte blend indexes, ubyte or float blend weights), a bind pose too close to
 * singular to invert the same way as numpy. Then the numpy path poses the file, or raises the
 * ModelFormatError that names the field and offset. tests/test_iqm_fast.py proves the two
 * equal (to a stated float tolerance: numpy's 4x4 products go through BLAS, whose rounding
 * no fixed order of operations reproduces) and the hand-backs complete.
 *
 * The per-vertex arithmetic follows numpy's order of operations where numpy's is fixed (the
 * quaternion norms, the weights' sum, the weighted sum of skinning matrices, the normals'
 * per-corner sums): build with floating-point contraction off (setup.py's -ffp-contract=off)
 * so that no fused multiply-add changes a rounding.
 *
 * Only the Python C API: no numpy headers; the outputs are new bytes objects, which fast.py
 * views with numpy (read-only, as a Mesh keeps its arrays).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* as setup.py's -ffp-contract=off (GCC ignores the pragma) */
#endif

/* The IQM layout (iqm.txt; layout.py's dtypes from ksy/inter_quake_model.ksy, checked
 * against these by tests/test_iqm_fast.py). */
#define HEADER_SIZE 124
#define JOINT_SIZE 48 /* name u32, parent s32, translate 3f, rotate 4f (x y z w), scale 3f */
#define POSE_SIZE 88  /* parent s32, channel mask u32, 10 offsets f32, 10 scales f32 */
#define TRIANGLE_SIZE 12
#define FMT_UBYTE 1
#define FMT_FLOAT 7
#define CHANNELS 10

/* What pose() returns: done, or why it hands the file back. */
/* (OTHER_FORMAT: a vertex format, or meshes sharing vertices, that this kernel leaves to the
 * numpy path.) */
enum { DONE = 0, OTHER_FORMAT = 1, FAULT = 2, NEAR_SINGULAR = 3, OUT_OF_RANGE = 4 };

typedef struct {
    const unsigned char *data;
    Py_ssize_t size;
} Bytes;

static uint32_t u32_at(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static double f32_at(const unsigned char *p) {
    float v;
    memcpy(&v, p, 4);
    return (double)v;
}

/* count items of item bytes at ofs lie in the file after the header (as reader._section). */
static int fits(const Bytes *b, Py_ssize_t ofs, Py_ssize_t count, Py_ssize_t item) {
    if (count == 0) return 1;
    if (count < 0 || ofs < HEADER_SIZE || ofs > b->size) return 0;
    return count <= (b->size - ofs) / item;
}

/* Each ubyte blend weight's value, b / 255.0 (reader.blend_weights: by the format's maximum),
 * divided once here instead of once per influence. */
static double UBYTE_WEIGHT[256];

/* (3,4) row-major affine matrices: the bottom row of every matrix here is 0 0 0 1. */
typedef double Affine[12];

/* T·R·S of a translation, a quaternion (x y z w, normalised here as trs_matrices does) and a
 * scale. */
static void trs(const double t[3], const double q[4], const double s[3], double *m) {
    double n = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    m[0] = (1 - 2 * (y * y + z * z)) * s[0];
    m[1] = (2 * (x * y - z * w)) * s[1];
    m[2] = (2 * (x * z + y * w)) * s[2];
    m[3] = t[0];
    m[4] = (2 * (x * y + z * w)) * s[0];
    m[5] = (1 - 2 * (x * x + z * z)) * s[1];
    m[6] = (2 * (y * z - x * w)) * s[2];
    m[7] = t[1];
    m[8] = (2 * (x * z - y * w)) * s[0];
    m[9] = (2 * (y * z + x * w)) * s[1];
    m[10] = (1 - 2 * (x * x + y * y)) * s[2];
    m[11] = t[2];
}

/* out = a · b (out may not alias either). */
static void product(const double *a, const double *b, double *out) {
    for (int i = 0; i < 3; i++) {
        const double *r = a + 4 * i;
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (r[0] * b[k] + r[1] * b[4 + k]) + r[2] * b[8 + k];
        out[4 * i + 3] += r[3];
    }
}

/* World matrices of local ones by the parents (each before its children: checked). */
static void worlds(Py_ssize_t joints, const int32_t *parents, const double *local, double *world) {
    for (Py_ssize_t j = 0; j < joints; j++) {
        if (parents[j] < 0)
            memcpy(world + 12 * j, local + 12 * j, sizeof(Affine));
        else
            product(world + 12 * (Py_ssize_t)parents[j], local + 12 * j, world + 12 * j);
    }
}

/* The inverse of an affine matrix; 0 when its 3x3 part is too close to singular for this
 * inverse and numpy's to agree (numpy then decides: reader.bind_world refuses |det| <= 1e-30). */
static int inverse(const double *m, double *out) {
    double a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9],
           i = m[10];
    double c0 = e * i - f * h, c1 = f * g - d * i, c2 = d * h - e * g;
    double det = a * c0 + b * c1 + c * c2;
    double r0 = sqrt(a * a + b * b + c * c), r1 = sqrt(d * d + e * e + f * f),
           r2 = sqrt(g * g + h * h + i * i);
    /* |det| against Hadamard's bound, the product of the rows' lengths (NaN fails too) */
    if (!(fabs(det) > 1e-9 * (r0 * r1 * r2)) || !(fabs(det) > 1e-28)) return 0;
    out[0] = c0 / det;
    out[1] = (c * h - b * i) / det;
    out[2] = (b * f - c * e) / det;
    out[4] = c1 / det;
    out[5] = (a * i - c * g) / det;
    out[6] = (c * d - a * f) / det;
    out[8] = c2 / det;
    out[9] = (b * g - a * h) / det;
    out[10] = (a * e - b * d) / det;
    for (int r = 0; r < 3; r++)
        out[4 * r + 3] =
            -((out[4 * r] * m[3] + out[4 * r + 1] * m[7]) + out[4 * r + 2] * m[11]);
    return 1;
}

/* Header fields by byte offset (after the 16-byte magic). */
enum {
    LEN_TEXT = 28,
    OFS_TEXT = 32,
    NUM_MESHES = 36,
    OFS_MESHES = 40,
    NUM_VERTEX_ARRAYS = 44,
    NUM_VERTICES = 48,
    OFS_VERTEX_ARRAYS = 52,
    NUM_TRIANGLES = 56,
    OFS_TRIANGLES = 60,
    NUM_JOINTS = 68,
    OFS_JOINTS = 72,
    NUM_POSES = 76,
    OFS_POSES = 80,
    NUM_ANIMS = 84,
    OFS_ANIMS = 88,
    NUM_FRAMES = 92,
    NUM_FRAME_CHANNELS = 96,
    OFS_FRAMES = 100,
};
#define MESH_SIZE 24         /* name, material, first vertex, vertices, first triangle, triangles */
#define VERTEX_ARRAY_SIZE 20 /* type, flags, format, size, offset */
#define ANIM_SIZE 20         /* name, first frame, frames, framerate f32, flags */
#define CUSTOM 16            /* a vertex array type from here on is named in the text */
enum { POSITION = 0, TEXCOORD = 1, BLEND_INDEXES = 4, BLEND_WEIGHTS = 5 };
/* bytes of one component of each vertex array format: byte ubyte short ushort int uint half
 * float double */
static const int COMPONENT_SIZE[9] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

/* One vertex array pose() reads: where its data is, its format and components (ofs -1: none). */
typedef struct {
    Py_ssize_t ofs, fmt, size;
} Array;

/* Each mesh's range: first vertex, vertices, first triangle, triangles. */
typedef struct {
    Py_ssize_t v0, nv, t0, nt;
} Range;

/* What pose() reads, from the header and the records (all counts are u32: no overflow in
 * Py_ssize_t). */
typedef struct {
    Bytes b;
    Py_ssize_t num_vertices, num_triangles, ofs_triangles, num_joints, ofs_joints;
    Py_ssize_t num_poses, ofs_poses, num_frame_channels;
    Py_ssize_t frame_at; /* the frame's row of channels, -1: the rest pose */
    Array pos, uv, bi, bw;
    Range *meshes;
    Py_ssize_t num_meshes;
    float *positions, *normals, *uvs;
    uint32_t *indices;
} Job;

static Py_ssize_t header_at(const Bytes *b, int field) {
    return (Py_ssize_t)u32_at(b->data + field);
}

/* A name at offset at of the text is read (reader.string): the text must lie in the file,
 * and the name start in it (0 is the empty name even without a text). */
static int name_ok(const Bytes *b, uint32_t at) {
    Py_ssize_t len = header_at(b, LEN_TEXT);
    if (len && !fits(b, header_at(b, OFS_TEXT), len, 1)) return 0;
    return at == 0 || at < len;
}

/* The vertex array records checked as reader.vertex_arrays checks every one of them, and the
 * first of each type pose() reads found. */
static int read_vertex_arrays(Job *job) {
    const Bytes *b = &job->b;
    Py_ssize_t count = header_at(b, NUM_VERTEX_ARRAYS), ofs = header_at(b, OFS_VERTEX_ARRAYS);
    Py_ssize_t n = job->num_vertices;
    if (!fits(b, ofs, count, VERTEX_ARRAY_SIZE)) return FAULT;
    Array *wanted[6] = {[POSITION] = &job->pos,
                        [TEXCOORD] = &job->uv,
                        [BLEND_INDEXES] = &job->bi,
                        [BLEND_WEIGHTS] = &job->bw};
    for (int k = 0; k < 6; k++)
        if (wanted[k]) wanted[k]->ofs = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        const unsigned char *r = b->data + ofs + i * VERTEX_ARRAY_SIZE;
        uint32_t type = u32_at(r), fmt = u32_at(r + 8), size = u32_at(r + 12);
        Py_ssize_t at = (Py_ssize_t)u32_at(r + 16);
        if (fmt > 8 || size < 1 || size > 16) return FAULT;
        if (n && !fits(b, at, n, (Py_ssize_t)size * COMPONENT_SIZE[fmt])) return FAULT;
        if (type >= CUSTOM && !name_ok(b, type - CUSTOM)) return FAULT;
        if (type < 6 && wanted[type] && wanted[type]->ofs < 0)
            *wanted[type] = (Array){at, (Py_ssize_t)fmt, (Py_ssize_t)size};
    }
    return DONE;
}

/* The mesh records checked as reader.mesh_records checks them. */
static int read_meshes(Job *job) {
    const Bytes *b = &job->b;
    Py_ssize_t ofs = header_at(b, OFS_MESHES);
    if (!fits(b, ofs, job->num_meshes, MESH_SIZE)) return FAULT;
    for (Py_ssize_t m = 0; m < job->num_meshes; m++) {
        const unsigned char *r = b->data + ofs + m * MESH_SIZE;
        Range g = {u32_at(r + 8), u32_at(r + 12), u32_at(r + 16), u32_at(r + 20)};
        if (g.v0 + g.nv > job->num_vertices || g.t0 + g.nt > job->num_triangles) return FAULT;
        if (!name_ok(b, u32_at(r)) || !name_ok(b, u32_at(r + 4))) return FAULT;
        job->meshes[m] = g;
    }
    return DONE;
}

/* The row of scene frame `frame` (reader.frame_clip: the non-empty anims one after another,
 * every frame as one anim when there are none; the rest pose alone, frame 0, when the model
 * has no joints, poses or frames), its anims and frame section checked as the reader checks
 * them. OUT_OF_RANGE past the scene's frames: the numpy path raises the IndexError. */
static int find_frame(Job *job, Py_ssize_t frame, Py_ssize_t max_pose_frames) {
    const Bytes *b = &job->b;
    Py_ssize_t frames = header_at(b, NUM_FRAMES), width = job->num_frame_channels;
    Py_ssize_t first = -1, clips = 0;
    job->frame_at = -1;
    if (job->num_joints && job->num_poses && frames) {
        Py_ssize_t count = header_at(b, NUM_ANIMS), ofs = header_at(b, OFS_ANIMS);
        if (!fits(b, ofs, count, ANIM_SIZE)) return FAULT;
        for (Py_ssize_t a = 0; a < count; a++) {
            const unsigned char *r = b->data + ofs + a * ANIM_SIZE;
            Py_ssize_t f0 = u32_at(r + 4), nf = u32_at(r + 8);
            if (f0 + nf > frames || !name_ok(b, u32_at(r))) return FAULT;
            clips += nf > 0;
            if (first < 0 && frame < nf) first = f0 + frame;
            else if (first < 0) frame -= nf;
        }
        if (count == 0) {
            clips = 1;
            if (frame < frames) first = frame;
        }
    }
    if (first < 0) return frame == 0 && !clips ? DONE : OUT_OF_RANGE;
    Py_ssize_t poses = job->num_poses > 1 ? job->num_poses : 1;
    if (frames > max_pose_frames / poses) return FAULT; /* frames * poses > max, unwrapped */
    if (width && frames > b->size / 2 / width) return FAULT; /* cannot fit: no overflow */
    if (!fits(b, header_at(b, OFS_FRAMES), frames * width, 2)) return FAULT;
    job->frame_at = header_at(b, OFS_FRAMES) + first * width * 2;
    return DONE;
}

/* The joints' base pose checked and read (reader.joint_names, joint_parents, joint_rotate,
 * bind_world): parents (J,), local and bind world matrices, inverse binds. */
static int read_joints(const Job *job, int32_t *parents, double *local, double *world,
                       double *inv) {
    const Bytes *b = &job->b;
    const Py_ssize_t joints = job->num_joints, ofs = job->ofs_joints;
    if (!fits(b, ofs, joints, JOINT_SIZE)) return FAULT;
    for (Py_ssize_t j = 0; j < joints; j++) {
        const unsigned char *r = b->data + ofs + j * JOINT_SIZE;
        if (!name_ok(b, u32_at(r))) return FAULT;
        int32_t parent = (int32_t)u32_at(r + 4);
        if (parent >= 0 && parent >= j) return FAULT;
        parents[j] = parent < 0 ? -1 : parent;
        double t[3], q[4], s[3];
        for (int k = 0; k < 3; k++) t[k] = f32_at(r + 8 + 4 * k);
        for (int k = 0; k < 4; k++) q[k] = f32_at(r + 20 + 4 * k);
        for (int k = 0; k < 3; k++) s[k] = f32_at(r + 36 + 4 * k);
        for (int k = 0; k < 3; k++)
            if (!isfinite(t[k]) || !isfinite(s[k])) return FAULT;
        double n = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
        if (!(isfinite(n) && n > 1e-12)) return FAULT;
        for (int k = 0; k < 4; k++) q[k] /= n; /* reader._unit; trs() normalises again */
        trs(t, q, s, local + 12 * j);
    }
    worlds(joints, parents, local, world);
    for (Py_ssize_t j = 0; j < joints; j++)
        if (!inverse(world + 12 * j, inv + 12 * j)) return NEAR_SINGULAR;
    return DONE;
}

/* The frame's local matrices (J,3,4) from its row of channels (poses checked as the reader's
 * _poses and _decode_channels check them; a zero rotation is none, as reader._clip). */
static int frame_locals(const Job *job, double *local) {
    const Bytes *b = &job->b;
    const Py_ssize_t poses = job->num_poses, width = job->num_frame_channels;
    if (poses != job->num_joints || !fits(b, job->ofs_poses, poses, POSE_SIZE)) return FAULT;
    if (!fits(b, job->frame_at, width, 2)) return FAULT;
    Py_ssize_t used = 0;
    for (Py_ssize_t p = 0; p < poses; p++) {
        const unsigned char *r = b->data + job->ofs_poses + p * POSE_SIZE;
        for (int c = 0; c < 2 * CHANNELS; c++)
            if (!isfinite(f32_at(r + 8 + 4 * c))) return FAULT;
        uint32_t mask = u32_at(r + 4);
        for (int c = 0; c < CHANNELS; c++) used += (mask >> c) & 1;
    }
    if (used > width) return FAULT;
    const unsigned char *row = width ? b->data + job->frame_at : NULL;
    Py_ssize_t k = 0;
    for (Py_ssize_t p = 0; p < poses; p++) {
        const unsigned char *r = b->data + job->ofs_poses + p * POSE_SIZE;
        uint32_t mask = u32_at(r + 4);
        double ch[CHANNELS];
        for (int c = 0; c < CHANNELS; c++) {
            ch[c] = f32_at(r + 8 + 4 * c);
            if ((mask >> c) & 1) {
                uint16_t raw;
                memcpy(&raw, row + 2 * k++, 2);
                ch[c] += (double)raw * f32_at(r + 48 + 4 * c);
            }
        }
        double *q = ch + 3;
        double n = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
        if (n > 1e-12)
            for (int c = 0; c < 4; c++) q[c] /= n;
        else
            q[0] = q[1] = q[2] = 0.0, q[3] = 1.0;
        trs(ch, q, ch + 7, local + 12 * p);
    }
    return DONE;
}

/* Every vertex array pose() reads checked as the reader's properties check them: positions
 * and texture coordinates finite, blend indexes below the joints, weights finite and not
 * negative. (The loops gather their findings and test once, without an early exit, so that
 * they vectorise.) */
static int check_vertices(const Job *job, int rigid) {
    const Bytes *b = &job->b;
    const Py_ssize_t n = job->num_vertices;
    const Array pos = job->pos, uv = job->uv, bi = job->bi, bw = job->bw;
    if (pos.ofs < 0) return n ? FAULT : DONE;
    if (pos.fmt != FMT_FLOAT || pos.size < 3) return OTHER_FORMAT;
    int finite = 1;
    const unsigned char *p = b->data + pos.ofs;
    for (Py_ssize_t v = 0; v < n; v++)
        for (int k = 0; k < 3; k++) finite &= isfinite(f32_at(p + 4 * (v * pos.size + k))) != 0;
    if (uv.ofs >= 0) {
        if (uv.fmt != FMT_FLOAT || uv.size < 2) return OTHER_FORMAT;
        const unsigned char *t = b->data + uv.ofs;
        for (Py_ssize_t v = 0; v < n; v++)
            for (int k = 0; k < 2; k++) finite &= isfinite(f32_at(t + 4 * (v * uv.size + k))) != 0;
    }
    if (!finite) return FAULT;
    if (rigid || !n) return DONE; /* a model without joints does not read its blend arrays */
    if (bi.ofs < 0 || bw.ofs < 0) return FAULT;
    if (bi.fmt != FMT_UBYTE || (bw.fmt != FMT_UBYTE && bw.fmt != FMT_FLOAT)) return OTHER_FORMAT;
    const unsigned char *idx = b->data + bi.ofs;
    const Py_ssize_t indexes = n * bi.size;
    unsigned char most = 0;
    for (Py_ssize_t i = 0; i < indexes; i++) most = idx[i] > most ? idx[i] : most;
    if (most >= job->num_joints) return FAULT;
    if (bw.fmt == FMT_FLOAT) {
        const unsigned char *w = b->data + bw.ofs;
        int good = 1;
        for (Py_ssize_t i = 0; i < n * bw.size; i++) {
            double x = f32_at(w + 4 * i);
            good &= isfinite(x) && x >= 0;
        }
        if (!good) return FAULT;
    }
    return DONE;
}

/* Every triangle's corners below the vertices (reader.triangles), and each mesh's within its
 * own (reader._rest). */
static int check_triangles(const Job *job) {
    const Py_ssize_t n = job->num_vertices, count = job->num_triangles;
    if (!fits(&job->b, job->ofs_triangles, count, TRIANGLE_SIZE)) return FAULT;
    const unsigned char *tri = job->b.data + job->ofs_triangles;
    const Py_ssize_t corners = 3 * count;
    uint32_t most = 0;
    for (Py_ssize_t i = 0; i < corners; i++) {
        uint32_t c = u32_at(tri + 4 * i);
        most = c > most ? c : most;
    }
    if (count && most >= n) return FAULT;
    for (Py_ssize_t m = 0; m < job->num_meshes; m++) {
        const Range r = job->meshes[m];
        /* corner - v0 wraps below v0: one unsigned compare finds both ends */
        const uint32_t v0 = (uint32_t)r.v0, nv = (uint32_t)r.nv;
        uint32_t outside = 0;
        for (Py_ssize_t i = 3 * r.t0; i < 3 * (r.t0 + r.nt); i++)
            outside |= (uint32_t)(u32_at(tri + 4 * i) - v0) >= nv;
        if (outside) return FAULT;
    }
    return DONE;
}

/* Mesh m posed by the (J,3,4) skinning matrices into its rows of the outputs; acc holds
 * 9 doubles per vertex of the largest mesh. */
static void pose_mesh(const Job *job, Py_ssize_t m, Py_ssize_t vbase, Py_ssize_t tbase,
                      const double *skin, int rigid, int finite, double *acc) {
    const unsigned char *data = job->b.data;
    const Range r = job->meshes[m];
    float *pos = job->positions + 3 * vbase, *nrm = job->normals + 3 * vbase;
    float *uv = job->uvs + 2 * vbase;
    const Array bi = job->bi, bw = job->bw;
    const Py_ssize_t pos_size = job->pos.size, uv_size = job->uv.size;
    const unsigned char *idx = rigid ? NULL : data + bi.ofs;
    const unsigned char *wts = rigid ? NULL : data + bw.ofs;
    const unsigned char *positions = data + job->pos.ofs;
    const unsigned char *uvs = job->uv.ofs >= 0 ? data + job->uv.ofs : NULL;
    const int float_weights = bw.fmt == FMT_FLOAT;
    const Py_ssize_t K = rigid ? 1 : (bi.size < bw.size ? bi.size : bw.size);
    for (Py_ssize_t i = 0; i < r.nv; i++) {
        Py_ssize_t v = r.v0 + i;
        double blended[12] = {0};
        if (rigid) {
            for (int e = 0; e < 12; e++) blended[e] += skin[e];
        } else {
            /* the weights normalised (reader._rest): a vertex without weight follows its
             * first joint */
            double w[16], total = 0.0;
            for (Py_ssize_t k = 0; k < K; k++) {
                if (float_weights)
                    w[k] = f32_at(wts + 4 * (v * bw.size + k));
                else
                    w[k] = UBYTE_WEIGHT[wts[v * bw.size + k]];
                total += w[k];
            }
            for (Py_ssize_t k = 0; k < K; k++) {
                /* an influence of weight 0 adds zeros, which change no sum that starts at +0
                 * (x + ±0 is x, +0 + -0 is +0) while the matrices are finite: skipped */
                if (w[k] == 0.0 && total > 0 && finite) continue;
                double wk = total > 0 ? w[k] / total : (k == 0 ? 1.0 : 0.0);
                if (wk == 0.0 && finite) continue;
                const double *s = skin + 12 * idx[v * bi.size + k];
                for (int e = 0; e < 12; e++) blended[e] += wk * s[e];
            }
        }
        const unsigned char *p = positions + 4 * v * pos_size;
        double x = f32_at(p), y = f32_at(p + 4), z = f32_at(p + 8);
        for (int a = 0; a < 3; a++) {
            const double *row = blended + 4 * a;
            pos[3 * i + a] = (float)(((row[0] * x + row[1] * y) + row[2] * z) + row[3]);
        }
        if (uvs) {
            const unsigned char *t = uvs + 4 * v * uv_size;
            uv[2 * i] = (float)f32_at(t);
            uv[2 * i + 1] = (float)f32_at(t + 4);
        } else {
            uv[2 * i] = uv[2 * i + 1] = 0.0f;
        }
    }
    /* normals from the posed (float32) triangles as core/build.py's vertex_normals sums them:
     * one sum per corner in triangle order, the three corners' sums added after */
    memset(acc, 0, sizeof(double) * 9 * (size_t)r.nv);
    const unsigned char *tri = data + job->ofs_triangles + TRIANGLE_SIZE * r.t0;
    uint32_t *out = job->indices + 3 * tbase;
    for (Py_ssize_t t = 0; t < r.nt; t++) {
        Py_ssize_t c[3];
        for (int k = 0; k < 3; k++) c[k] = (Py_ssize_t)u32_at(tri + 12 * t + 4 * k) - r.v0;
        out[3 * t] = (uint32_t)c[0];
        out[3 * t + 1] = (uint32_t)c[2];
        out[3 * t + 2] = (uint32_t)c[1];
        double a[3], bb[3];
        for (int k = 0; k < 3; k++) {
            double p0 = pos[3 * c[0] + k];
            a[k] = (double)pos[3 * c[2] + k] - p0;
            bb[k] = (double)pos[3 * c[1] + k] - p0;
        }
        double face[3] = {a[1] * bb[2] - a[2] * bb[1], a[2] * bb[0] - a[0] * bb[2],
                          a[0] * bb[1] - a[1] * bb[0]};
        for (int k = 0; k < 3; k++)
            for (int e = 0; e < 3; e++) acc[9 * c[k] + 3 * k + e] += face[e];
    }
    for (Py_ssize_t i = 0; i < r.nv; i++) {
        double n[3];
        for (int e = 0; e < 3; e++)
            n[e] = ((0.0 + acc[9 * i + e]) + acc[9 * i + 3 + e]) + acc[9 * i + 6 + e];
        double len = sqrt((n[0] * n[0] + n[1] * n[1]) + n[2] * n[2]);
        for (int e = 0; e < 3; e++) nrm[3 * i + e] = len > 1e-30 ? (float)(n[e] / len) : 0.0f;
    }
}

/* Every record read and checked, and the vertices and triangles, before anything is
 * allocated: from here on every size is bounded by the file's (the vertices by their
 * positions', the triangles and joints by their sections'). */
static int check_records(Job *job, Py_ssize_t frame, Py_ssize_t max_joints,
                         Py_ssize_t max_pose_frames) {
    int found = read_vertex_arrays(job);
    if (found == DONE) found = read_meshes(job);
    if (found == DONE) found = find_frame(job, frame, max_pose_frames);
    if (found == DONE) found = check_vertices(job, job->num_joints == 0);
    if (found == DONE) found = check_triangles(job);
    if (found != DONE) return found;
    if (job->num_joints > max_joints ||
        !fits(&job->b, job->ofs_joints, job->num_joints, JOINT_SIZE))
        return FAULT;
    /* meshes sharing vertices or triangles (no exporter writes them) would make the outputs
     * grow as meshes × vertices: the numpy path poses those */
    Py_ssize_t vertices = 0, triangles = 0;
    for (Py_ssize_t m = 0; m < job->num_meshes; m++) {
        vertices += job->meshes[m].nv;
        triangles += job->meshes[m].nt;
    }
    if (vertices > job->num_vertices || triangles > job->num_triangles) return OTHER_FORMAT;
    return DONE;
}

/* The joints and the frame read, then every mesh posed (the records checked first). */
static int run(Job *job) {
    const Py_ssize_t joints = job->num_joints;
    const int rigid = joints == 0;
    int found = DONE;
    Py_ssize_t largest = 0;
    for (Py_ssize_t m = 0; m < job->num_meshes; m++)
        if (job->meshes[m].nv > largest) largest = job->meshes[m].nv;
    const Py_ssize_t slots = rigid ? 1 : joints;
    /* (J,3,4) local, bind world, inverse bind, frame world and skinning matrices, the
     * normals' sums, then the parents */
    size_t doubles = (size_t)slots * 12 * 5 + (size_t)largest * 9;
    double *work = PyMem_Malloc(doubles * sizeof(double) + (size_t)slots * sizeof(int32_t));
    if (work == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    double *local = work, *bind = local + 12 * slots, *inv = bind + 12 * slots;
    double *world = inv + 12 * slots, *skin = world + 12 * slots, *acc = skin + 12 * slots;
    int32_t *parents = (int32_t *)(acc + 9 * largest);
    if (rigid) {
        static const double identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        memcpy(skin, identity, sizeof(identity));
    } else {
        found = read_joints(job, parents, local, bind, inv);
        if (found == DONE && job->frame_at >= 0) {
            found = frame_locals(job, local);
            if (found == DONE) worlds(joints, parents, local, world);
        } else if (found == DONE) {
            memcpy(world, bind, sizeof(Affine) * (size_t)joints); /* the rest pose */
        }
        if (found == DONE)
            for (Py_ssize_t j = 0; j < joints; j++)
                product(world + 12 * j, inv + 12 * j, skin + 12 * j);
    }
    if (found == DONE) {
        int finite = 1; /* every skinning matrix finite (a frame's channels may overflow) */
        for (Py_ssize_t e = 0; e < 12 * slots; e++) finite &= isfinite(skin[e]) != 0;
        Py_ssize_t vbase = 0, tbase = 0;
        for (Py_ssize_t m = 0; m < job->num_meshes; m++) {
            pose_mesh(job, m, vbase, tbase, skin, rigid, finite, acc);
            vbase += job->meshes[m].nv;
            tbase += job->meshes[m].nt;
        }
    }
    PyMem_Free(work);
    return found;
}

/* A new bytes object of n items of itemsize bytes (its buffer filled by the caller). */
static PyObject *new_output(Py_ssize_t n, Py_ssize_t itemsize) {
    return PyBytes_FromStringAndSize(NULL, n * itemsize);
}

PyDoc_STRVAR(pose_doc,
             "pose(data, frame, max_joints, max_pose_frames) -> tuple | int\n\n"
             "Scene frame ``frame`` (>= 0) of the IQM in ``data`` (its header already checked "
             "by the reader) posed: (positions, normals, uvs, indices, counts), the first "
             "four bytes of float32 (V,3), (V,3), (V,2) and uint32 (T,3) over every mesh in "
             "order, counts each mesh's (vertices, triangles) flat; or a positive int when the "
             "file is handed back to the numpy path (see _pose.pyi).");

static PyObject *pose(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer data;
    Py_ssize_t frame, max_joints, max_pose_frames;
    if (!PyArg_ParseTuple(args, "y*nnn:pose", &data, &frame, &max_joints, &max_pose_frames))
        return NULL;
    PyObject *result = NULL, *out[4] = {NULL, NULL, NULL, NULL}, *counts = NULL;
    Job job;
    memset(&job, 0, sizeof(job));
    job.b = (Bytes){(const unsigned char *)data.buf, data.len};
    int found = OTHER_FORMAT;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    goto handed_back; /* the reads here are little-endian's: numpy reads the file */
#endif
    /* every count is a u32: sums and products of two stay exact in 64 bits, not in 32 */
    if (frame < 0 || data.len < HEADER_SIZE || sizeof(Py_ssize_t) < 8) goto handed_back;
    job.num_vertices = header_at(&job.b, NUM_VERTICES);
    job.num_triangles = header_at(&job.b, NUM_TRIANGLES);
    job.ofs_triangles = header_at(&job.b, OFS_TRIANGLES);
    job.num_joints = header_at(&job.b, NUM_JOINTS);
    job.ofs_joints = header_at(&job.b, OFS_JOINTS);
    job.num_poses = header_at(&job.b, NUM_POSES);
    job.ofs_poses = header_at(&job.b, OFS_POSES);
    job.num_frame_channels = header_at(&job.b, NUM_FRAME_CHANNELS);
    job.num_meshes = header_at(&job.b, NUM_MESHES);
    found = FAULT;
    if (!fits(&job.b, header_at(&job.b, OFS_MESHES), job.num_meshes, MESH_SIZE)) goto handed_back;
    job.meshes = PyMem_Malloc(sizeof(Range) * (size_t)(job.num_meshes ? job.num_meshes : 1));
    if (job.meshes == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    /* the outputs' sizes come from the mesh records: read (and checked) first */
    found = check_records(&job, frame, max_joints, max_pose_frames);
    if (found != DONE) goto handed_back;
    Py_ssize_t vertices = 0, triangles = 0;
    counts = PyTuple_New(2 * job.num_meshes);
    if (counts == NULL) goto release;
    for (Py_ssize_t m = 0; m < job.num_meshes; m++) {
        vertices += job.meshes[m].nv;
        triangles += job.meshes[m].nt;
        PyObject *nv = PyLong_FromSsize_t(job.meshes[m].nv);
        if (nv == NULL) goto release;
        PyTuple_SET_ITEM(counts, 2 * m, nv);
        PyObject *nt = PyLong_FromSsize_t(job.meshes[m].nt);
        if (nt == NULL) goto release;
        PyTuple_SET_ITEM(counts, 2 * m + 1, nt);
    }
    const Py_ssize_t items[4] = {3 * vertices, 3 * vertices, 2 * vertices, 3 * triangles};
    for (int k = 0; k < 4; k++)
        if ((out[k] = new_output(items[k], 4)) == NULL) goto release;
    job.positions = (float *)PyBytes_AS_STRING(out[0]);
    job.normals = (float *)PyBytes_AS_STRING(out[1]);
    job.uvs = (float *)PyBytes_AS_STRING(out[2]);
    job.indices = (uint32_t *)PyBytes_AS_STRING(out[3]);
    found = run(&job);
    if (found < 0) goto release;
    if (found == DONE) {
        result = PyTuple_Pack(5, out[0], out[1], out[2], out[3], counts);
        goto release; /* the references made here are released below either way */
    }
handed_back:
    result = PyLong_FromLong(found);
release:
    for (int k = 0; k < 4; k++) Py_XDECREF(out[k]);
    Py_XDECREF(counts);
    PyMem_Free(job.meshes);
    PyBuffer_Release(&data);
    return result;
}

static PyMethodDef methods[] = {
    {"pose", pose, METH_VARARGS, pose_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_pose", "The compiled fast path of an IQM's first pose (see pose).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__pose(void) {
    for (int b = 0; b < 256; b++) UBYTE_WEIGHT[b] = (double)b / 255.0;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    /* the layout this file assumes, for tests/test_iqm_fast.py to hold against layout.py */
    PyObject *layout = Py_BuildValue(
        "{s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,"
        "s:n,s:n,s:n,s:n,s:n,s:n,s:n}",
        "header", (Py_ssize_t)HEADER_SIZE, "len_text", (Py_ssize_t)LEN_TEXT, "ofs_text",
        (Py_ssize_t)OFS_TEXT, "num_meshes", (Py_ssize_t)NUM_MESHES, "ofs_meshes",
        (Py_ssize_t)OFS_MESHES, "num_vertex_arrays", (Py_ssize_t)NUM_VERTEX_ARRAYS,
        "num_vertices", (Py_ssize_t)NUM_VERTICES, "ofs_vertex_arrays",
        (Py_ssize_t)OFS_VERTEX_ARRAYS, "num_triangles", (Py_ssize_t)NUM_TRIANGLES,
        "ofs_triangles", (Py_ssize_t)OFS_TRIANGLES, "num_joints", (Py_ssize_t)NUM_JOINTS,
        "ofs_joints", (Py_ssize_t)OFS_JOINTS, "num_poses", (Py_ssize_t)NUM_POSES, "ofs_poses",
        (Py_ssize_t)OFS_POSES, "num_anims", (Py_ssize_t)NUM_ANIMS, "ofs_anims",
        (Py_ssize_t)OFS_ANIMS, "num_frames", (Py_ssize_t)NUM_FRAMES, "num_frame_channels",
        (Py_ssize_t)NUM_FRAME_CHANNELS, "ofs_frames", (Py_ssize_t)OFS_FRAMES, "mesh",
        (Py_ssize_t)MESH_SIZE, "vertex_array", (Py_ssize_t)VERTEX_ARRAY_SIZE, "anim",
        (Py_ssize_t)ANIM_SIZE, "joint", (Py_ssize_t)JOINT_SIZE, "pose", (Py_ssize_t)POSE_SIZE,
        "triangle", (Py_ssize_t)TRIANGLE_SIZE, "custom", (Py_ssize_t)CUSTOM, "ubyte",
        (Py_ssize_t)FMT_UBYTE, "float", (Py_ssize_t)FMT_FLOAT);
    if (layout == NULL || PyModule_AddObject(m, "LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
