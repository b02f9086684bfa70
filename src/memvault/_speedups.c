/*
 * memvault._speedups -- the hot loops of memvault, in C.
 *
 *   jcs_dumps(obj, count=False) -> bytes | (bytes, members)
 *       RFC 8785 (JSON Canonicalization Scheme) serialization.  Used for PAM
 *       integrity checksums (PAM v1.0 section 15) and signature payloads
 *       (section 18), where one byte of difference breaks verification.
 *       With count, also the number of object members written (all depths).
 *
 *   value_end(buf, pos) -> int
 *   object_members(buf, pos, items_of=None) -> (list[(key_start, key_end, value_start, value_end)], end[, items])
 *   array_items(buf, pos, stats=False) -> (list[(start, end)], end)
 *       A structural JSON scanner.  It finds the byte spans of the members of
 *       one object / the items of one array inside a (possibly memory-mapped)
 *       document without building Python objects for it, so a reader can hand
 *       each slice to orjson.loads and keep memory bounded.  With stats, each
 *       array item is (start, end, members, depth): the object members in the
 *       item (':' tokens, all depths, duplicates included) and its nesting
 *       depth.  A parser that keeps one of several equal keys produces fewer
 *       members than the text has, which is how duplicates show up cheaply.
 *
 *   nesting_scan(data, state, limit) -> (state, over)
 *       How deep a JSON text nests, a chunk at a time, before anything parses
 *       it: brackets outside strings are counted (O(1) state, no per-level
 *       memory), so a reader refuses 100,000 levels before ijson or orjson
 *       builds state for each of them.
 *
 *   memory_run(...), checksum_runs(runs, update), index_facts(...)
 *       The hot loops of PAM memory-store validation (memvault.formats.pam
 *       .memory_pass): the per-memory checks for memories with nothing to
 *       report (any other memory is left to the Python checks, which word the
 *       findings), the integrity checksum input merged from sorted runs, and
 *       the index of memory facts by id.
 *
 * Plain CPython C API, C99.  The scanner runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ======================================================================
 * Part 1: RFC 8785 serializer
 * ====================================================================== */

#define JCS_MAX_DEPTH 1000

/* Legacy (not yet "ready") strings exist only before Python 3.12. */
#if PY_VERSION_HEX < 0x030C0000
#define STR_READY(s) PyUnicode_READY(s)
#else
#define STR_READY(s) 0
#endif

/* Memory-level parallelism: start loading objects we are about to visit.
   Matters when the input is scattered over the heap (e.g. memories sorted by
   id for a PAM checksum); a no-op where the compiler lacks the builtin. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch((const void *)(p))
#else
#define PREFETCH(p) ((void)0)
#endif
#define JCS_MAX_SAFE_INT 9007199254740991LL /* 2^53 - 1 */

/* One member of the dict currently being serialized, cached for sorting. */
typedef struct {
    PyObject *key;   /* borrowed: no Python code runs while we hold these */
    PyObject *value; /* borrowed */
    const void *data;
    Py_ssize_t len;
    int kind;
} KeyEntry;

typedef struct {
    PyObject *bytes; /* PyBytes being filled; resized as it grows */
    char *buf;       /* PyBytes_AS_STRING(bytes) */
    Py_ssize_t len;
    Py_ssize_t cap;
    /* Scratch space for member sorting, used as a stack: a dict at depth d
       owns entries [base, base + n) while its members are written.  Always
       index it through the Encoder (it may move when a nested dict grows
       it). */
    KeyEntry *ents;
    Py_ssize_t nents;
    Py_ssize_t capents;
    /* object members written so far, all depths (jcs_dumps(count=True)) */
    Py_ssize_t members;
} Encoder;

static int
enc_grow(Encoder *e, Py_ssize_t extra)
{
    Py_ssize_t need, cap;
    if (extra > PY_SSIZE_T_MAX - e->len) {
        PyErr_NoMemory();
        return -1;
    }
    need = e->len + extra;
    cap = e->cap;
    while (cap < need) {
        if (cap > PY_SSIZE_T_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    if (_PyBytes_Resize(&e->bytes, cap) < 0) {
        return -1;
    }
    e->buf = PyBytes_AS_STRING(e->bytes);
    e->cap = cap;
    return 0;
}

/* Make room for `extra` more bytes. */
static inline int
enc_reserve(Encoder *e, Py_ssize_t extra)
{
    if (e->cap - e->len >= extra) {
        return 0;
    }
    return enc_grow(e, extra);
}

static inline int
enc_write(Encoder *e, const char *s, Py_ssize_t n)
{
    if (enc_reserve(e, n) < 0) {
        return -1;
    }
    memcpy(e->buf + e->len, s, (size_t)n);
    e->len += n;
    return 0;
}

static inline int
enc_putc(Encoder *e, char c)
{
    if (enc_reserve(e, 1) < 0) {
        return -1;
    }
    e->buf[e->len++] = c;
    return 0;
}

/* --- strings (RFC 8785 section 3.2.2.2: JSON.stringify escaping) --- */

/* 0: copy literally; 'u': \u00xx; any other value: the letter after '\'. */
static const unsigned char ESCAPE[128] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    0, 0, '"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static const char HEX[] = "0123456789abcdef";

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Nonzero if any byte of w is < 0x20, '"' or '\\' (exact "any", no false
   positives when the answer is no).  Bytes >= 0x80 never match. */
static inline uint64_t
swar_special(uint64_t w)
{
    uint64_t q = w ^ (ONES * (uint64_t)'"');
    uint64_t b = w ^ (ONES * (uint64_t)'\\');
    uint64_t lt = (w - ONES * 0x20) & ~w;
    uint64_t zq = (q - ONES) & ~q;
    uint64_t zb = (b - ONES) & ~b;
    return (lt | zq | zb) & HIGHS;
}

/* Index (0..7) of the first byte, in memory order, that swar_special flagged.
   Borrows in the subtraction can only flag bytes more significant than a real
   match, so on little-endian machines the lowest flagged byte is exact. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIRST_FLAGGED(m, p) ((int)(__builtin_ctzll(m) >> 3))
#else
static inline int
first_special_byte(const unsigned char *p)
{
    int j;
    for (j = 0; j < 8; j++) {
        if (p[j] < 0x20 || p[j] == '"' || p[j] == '\\') {
            return j;
        }
    }
    return 8;
}
#define FIRST_FLAGGED(m, p) first_special_byte(p)
#endif

static inline char *
put_escape(char *out, Py_UCS4 c)
{
    unsigned char x = ESCAPE[c];
    *out++ = '\\';
    if (x == 'u') {
        *out++ = 'u';
        *out++ = '0';
        *out++ = '0';
        *out++ = HEX[(c >> 4) & 0xF];
        *out++ = HEX[c & 0xF];
    }
    else {
        *out++ = (char)x;
    }
    return out;
}

/* Append code point c as UTF-8 (escaped per RFC 8785 if it is ASCII);
   NULL for a surrogate, which has no UTF-8 form. */
static inline char *
utf8_char(char *out, Py_UCS4 c)
{
    if (c < 0x80) {
        if (ESCAPE[c]) {
            return put_escape(out, c);
        }
        *out++ = (char)c;
    }
    else if (c < 0x800) {
        *out++ = (char)(0xC0 | (c >> 6));
        *out++ = (char)(0x80 | (c & 0x3F));
    }
    else if (c < 0x10000) {
        if (c >= 0xD800 && c <= 0xDFFF) {
            return NULL;
        }
        *out++ = (char)(0xE0 | (c >> 12));
        *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *out++ = (char)(0x80 | (c & 0x3F));
    }
    else {
        *out++ = (char)(0xF0 | (c >> 18));
        *out++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *out++ = (char)(0x80 | (c & 0x3F));
    }
    return out;
}

static int
surrogate_error(Py_UCS4 c, Py_ssize_t i)
{
    char msg[120];
    snprintf(msg, sizeof(msg),
             "lone surrogate U+%04X at index %zd of a string cannot be encoded as UTF-8 "
             "(RFC 8785 section 3.2.2.2)",
             (unsigned int)c, i);
    PyErr_SetString(PyExc_ValueError, msg);
    return -1;
}

static int
enc_str(Encoder *e, PyObject *s)
{
    Py_ssize_t n, i;
    int kind;
    const void *data;
    char *out;

    if (STR_READY(s) < 0) {
        return -1;
    }
    n = PyUnicode_GET_LENGTH(s);
    kind = PyUnicode_KIND(s);
    data = PyUnicode_DATA(s);
    /* Worst case: 6 output bytes per code point (\u00xx), plus quotes. */
    if (n > (PY_SSIZE_T_MAX - 2) / 6) {
        PyErr_NoMemory();
        return -1;
    }
    if (enc_reserve(e, 6 * n + 2) < 0) {
        return -1;
    }
    out = e->buf + e->len;
    *out++ = '"';

    if (PyUnicode_IS_ASCII(s)) {
        const unsigned char *p = (const unsigned char *)data;
        i = 0;
        while (i < n) {
            /* Copy 8 bytes at a time up to the next byte that needs escaping
               (at least 6 * 8 bytes are reserved while 8 input bytes remain). */
            while (i + 8 <= n) {
                uint64_t w, m;
                memcpy(&w, p + i, 8);
                memcpy(out, p + i, 8);
                m = swar_special(w);
                if (m) {
                    int k = FIRST_FLAGGED(m, p + i);
                    out += k;
                    i += k;
                    break;
                }
                out += 8;
                i += 8;
            }
            if (i >= n) {
                break;
            }
            {
                unsigned char c = p[i++];
                if (ESCAPE[c]) {
                    out = put_escape(out, c);
                }
                else {
                    *out++ = (char)c;
                }
            }
        }
    }
    else {
        /* One loop per storage width, so the compiler sees a plain array. */
#define ENCODE_CHARS(TYPE)                                                   \
        for (i = 0; i < n; i++) {                                            \
            Py_UCS4 c = ((const TYPE *)data)[i];                             \
            out = utf8_char(out, c);                                         \
            if (out == NULL) {                                               \
                return surrogate_error(c, i);                                \
            }                                                                \
        }
        if (kind == PyUnicode_1BYTE_KIND) {
            ENCODE_CHARS(Py_UCS1)
        }
        else if (kind == PyUnicode_2BYTE_KIND) {
            ENCODE_CHARS(Py_UCS2)
        }
        else {
            ENCODE_CHARS(Py_UCS4)
        }
#undef ENCODE_CHARS
    }
    *out++ = '"';
    e->len = out - e->buf;
    return 0;
}

/* --- numbers (RFC 8785 section 3.2.2.3: ECMAScript Number::toString) --- */

/* Write a signed integer with |v| < 2^63. */
static int
enc_int64(Encoder *e, long long v)
{
    char tmp[24];
    char *end = tmp + sizeof(tmp);
    char *p = end;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        *--p = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (v < 0) {
        *--p = '-';
    }
    return enc_write(e, p, end - p);
}

static int
enc_long(Encoder *e, PyObject *o)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || v > JCS_MAX_SAFE_INT || v < -JCS_MAX_SAFE_INT) {
        /* PyLong_Type.tp_repr: never a subclass's own __repr__ */
        PyObject *r = PyLong_Type.tp_repr(o);
        if (r == NULL) { /* e.g. more digits than sys.get_int_max_str_digits() */
            PyErr_Clear();
            r = PyUnicode_FromString(overflow > 0 ? "(huge)" : "(huge negative)");
            if (r == NULL) {
                return -1;
            }
        }
        PyErr_Format(PyExc_ValueError,
                     "integer %.80U is outside the range RFC 8785 can represent "
                     "exactly, -(2**53-1) .. 2**53-1",
                     r);
        Py_DECREF(r);
        return -1;
    }
    return enc_int64(e, v);
}

/* Exact powers of ten (10^0 .. 10^22 are all representable as doubles). */
static const double POW10[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * Fast path for the common case, e.g. a confidence of 0.95: find a decimal
 * r * 10^-p with at most 15 significant digits that converts back to a == |v|.
 * Distinct decimals of <= 15 significant digits (DBL_DIG) map to distinct
 * doubles, so such a decimal is the only short one and the first p that works
 * gives exactly the shortest round-trip digits dtoa would.  Both operands of
 * the check r / 10^p are exact, so the division is correctly rounded, i.e. it
 * is the double nearest r * 10^-p.  At the right p the product a * 10^p is
 * within 0.25 of the integer r, so truncating (a * 10^p + 0.5) finds it.
 * Returns the digit count (digits written to `digits`, no trailing zeros) and
 * sets *n so that a = 0.d1d2...dk * 10^n; 0 if no such short decimal exists.
 */
static int
short_digits(double a, char *digits, int *n)
{
    int p;
    if (!(a >= 1e-7 && a < 1e15)) {
        return 0;
    }
    for (p = 1; p <= 22; p++) {
        double m = a * POW10[p];
        long long r;
        if (m >= 1e15) {
            return 0;
        }
        r = (long long)(m + 0.5);
        if (r > 0 && (double)r / POW10[p] == a) {
            char tmp[24];
            int len = 0, k, i;
            while (r % 10 == 0) { /* cannot loop forever: r > 0 */
                r /= 10;
                p--;
            }
            while (r) {
                tmp[len++] = (char)('0' + (int)(r % 10));
                r /= 10;
            }
            k = len;
            for (i = 0; i < k; i++) {
                digits[i] = tmp[k - 1 - i];
            }
            *n = k - p;
            return k;
        }
    }
    return 0;
}

/* Shortest round-trip digits via Python's dtoa (correct for every double). */
static int
dtoa_digits(double a, char *digits, int *n)
{
    char *r = PyOS_double_to_string(a, 'r', 0, 0, NULL);
    const char *s;
    int k = 0, point = -1, exp = 0, expneg = 0, start = 0, i;
    if (r == NULL) {
        return -1;
    }
    for (s = r; (*s >= '0' && *s <= '9') || *s == '.'; s++) {
        if (*s == '.') {
            point = k;
        }
        else if (k < 32) {
            digits[k++] = *s;
        }
    }
    if (point < 0) {
        point = k;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '-' || *s == '+') {
            expneg = *s == '-';
            s++;
        }
        for (; *s >= '0' && *s <= '9'; s++) {
            exp = exp * 10 + (*s - '0');
        }
        if (expneg) {
            exp = -exp;
        }
    }
    PyMem_Free(r);
    /* digits[0..k) with the decimal point after `point` digits, times 10^exp */
    *n = point + exp;
    while (start < k && digits[start] == '0') {
        start++;
        (*n)--;
    }
    while (k > start && digits[k - 1] == '0') {
        k--;
    }
    k -= start;
    for (i = 0; i < k; i++) {
        digits[i] = digits[start + i];
    }
    return k;
}

static int
enc_double(Encoder *e, double v)
{
    char digits[40];
    char out[64];
    char *o;
    const char *d = digits;
    int k, n = 0, i;
    double a;

    if (isnan(v)) {
        PyErr_SetString(PyExc_ValueError, "NaN is not allowed in RFC 8785 JSON");
        return -1;
    }
    if (isinf(v)) {
        PyErr_SetString(PyExc_ValueError,
                        v > 0 ? "Infinity is not allowed in RFC 8785 JSON"
                              : "-Infinity is not allowed in RFC 8785 JSON");
        return -1;
    }
    if (v == 0.0) {
        return enc_putc(e, '0'); /* both +0 and -0 */
    }
    /* Whole numbers below 2^53 print exactly as integers in ECMAScript. */
    if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(long long)v) {
        return enc_int64(e, (long long)v);
    }
    a = v < 0 ? -v : v;
    /* value = 0.d1 d2 ... dk * 10^n, with d1 != 0 and dk != 0 */
    k = short_digits(a, digits, &n);
    if (k == 0) {
        k = dtoa_digits(a, digits, &n);
        if (k < 0) {
            return -1;
        }
        if (k == 0) { /* cannot happen for a nonzero finite double */
            return enc_putc(e, '0');
        }
    }

    /* ECMAScript Number::toString, steps for k, n as above. */
    o = out;
    if (v < 0) {
        *o++ = '-';
    }
    if (k <= n && n <= 21) {
        memcpy(o, d, (size_t)k);
        o += k;
        for (i = 0; i < n - k; i++) {
            *o++ = '0';
        }
    }
    else if (0 < n && n <= 21) {
        memcpy(o, d, (size_t)n);
        o += n;
        *o++ = '.';
        memcpy(o, d + n, (size_t)(k - n));
        o += k - n;
    }
    else if (-6 < n && n <= 0) {
        *o++ = '0';
        *o++ = '.';
        for (i = 0; i < -n; i++) {
            *o++ = '0';
        }
        memcpy(o, d, (size_t)k);
        o += k;
    }
    else {
        int e10 = n - 1;
        *o++ = d[0];
        if (k > 1) {
            *o++ = '.';
            memcpy(o, d + 1, (size_t)(k - 1));
            o += k - 1;
        }
        o += snprintf(o, 8, "e%c%d", e10 < 0 ? '-' : '+', e10 < 0 ? -e10 : e10);
    }
    return enc_write(e, out, o - out);
}

/* --- objects (RFC 8785 section 3.2.3: members sorted by UTF-16 code units) --- */

/* Order two distinct code points as their UTF-16 encodings order. */
static inline int
utf16_cmp_cp(Py_UCS4 a, Py_UCS4 b)
{
    Py_UCS4 ua = a >= 0x10000 ? 0xD800 + ((a - 0x10000) >> 10) : a;
    Py_UCS4 ub = b >= 0x10000 ? 0xD800 + ((b - 0x10000) >> 10) : b;
    if (ua != ub) {
        return ua < ub ? -1 : 1;
    }
    /* same lead unit: both astral, trail units order like the code points */
    return a < b ? -1 : (a > b ? 1 : 0);
}

static int
key_cmp(const KeyEntry *x, const KeyEntry *y)
{
    Py_ssize_t m = x->len < y->len ? x->len : y->len;
    Py_ssize_t i;
    if (x->kind == PyUnicode_1BYTE_KIND && y->kind == PyUnicode_1BYTE_KIND) {
        /* Latin-1: one UTF-16 unit per byte, same order.  Keys usually differ
           in the first byte; skip the memcmp call for those. */
        const unsigned char *a = (const unsigned char *)x->data;
        const unsigned char *b = (const unsigned char *)y->data;
        int r;
        if (m && a[0] != b[0]) {
            return a[0] < b[0] ? -1 : 1;
        }
        r = m ? memcmp(a, b, (size_t)m) : 0;
        if (r) {
            return r;
        }
    }
    else {
        for (i = 0; i < m; i++) {
            Py_UCS4 a = PyUnicode_READ(x->kind, x->data, i);
            Py_UCS4 b = PyUnicode_READ(y->kind, y->data, i);
            if (a != b) {
                return utf16_cmp_cp(a, b);
            }
        }
    }
    return (x->len > y->len) - (x->len < y->len);
}

static int
key_cmp_qsort(const void *a, const void *b)
{
    return key_cmp((const KeyEntry *)a, (const KeyEntry *)b);
}

static void
sort_keys(KeyEntry *a, Py_ssize_t n)
{
    Py_ssize_t i, j;
    if (n > 24) {
        qsort(a, (size_t)n, sizeof(KeyEntry), key_cmp_qsort);
        return;
    }
    for (i = 1; i < n; i++) {
        KeyEntry t = a[i];
        for (j = i; j > 0 && key_cmp(&a[j - 1], &t) > 0; j--) {
            a[j] = a[j - 1];
        }
        a[j] = t;
    }
}

static int enc_value(Encoder *e, PyObject *o, int depth);

static int
enc_dict(Encoder *e, PyObject *o, int depth)
{
    Py_ssize_t n = PyDict_GET_SIZE(o);
    Py_ssize_t base = e->nents, pos = 0, i;
    PyObject *k, *v;
    int subclass_keys = 0;

    if (n == 0) {
        return enc_write(e, "{}", 2);
    }
    if (e->capents - base < n) {
        Py_ssize_t cap = e->capents ? e->capents : 64;
        KeyEntry *ne;
        while (cap - base < n) {
            cap *= 2;
        }
        ne = PyMem_Realloc(e->ents, (size_t)cap * sizeof(KeyEntry));
        if (ne == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->ents = ne;
        e->capents = cap;
    }
    i = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        KeyEntry *ent;
        if (!PyUnicode_Check(k)) {
            PyErr_Format(PyExc_ValueError,
                         "object keys must be str, not %.100s (RFC 8785 section 3.2.3)",
                         Py_TYPE(k)->tp_name);
            return -1;
        }
        if (STR_READY(k) < 0) {
            return -1;
        }
        if (!PyUnicode_CheckExact(k)) {
            subclass_keys = 1;
        }
        if (i >= n) { /* the dict cannot change under us, but never overrun */
            break;
        }
        PREFETCH(v);
        ent = &e->ents[base + i++];
        ent->key = k;
        ent->value = v;
        ent->data = PyUnicode_DATA(k);
        ent->len = PyUnicode_GET_LENGTH(k);
        ent->kind = PyUnicode_KIND(k);
    }
    n = i;
    e->nents = base + n;
    e->members += n;
    sort_keys(e->ents + base, n);
    if (subclass_keys) {
        /* str subclasses with their own __eq__/__hash__ can smuggle in two
           keys with the same text. */
        for (i = 1; i < n; i++) {
            if (key_cmp(&e->ents[base + i - 1], &e->ents[base + i]) == 0) {
                PyErr_Format(PyExc_ValueError, "duplicate object key %R",
                             e->ents[base + i].key);
                return -1;
            }
        }
    }
    /* The values' headers were prefetched while gathering; now start on the
       hash tables of nested objects. */
    for (i = 0; i < n; i++) {
        PyObject *v2 = e->ents[base + i].value;
        if (PyDict_CheckExact(v2)) {
            const char *keys = (const char *)((PyDictObject *)v2)->ma_keys;
            PREFETCH(keys);
            PREFETCH(keys + 64);
            PREFETCH(keys + 128);
            PREFETCH(keys + 192);
        }
    }
    if (enc_putc(e, '{') < 0) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (i && enc_putc(e, ',') < 0) {
            return -1;
        }
        if (enc_str(e, e->ents[base + i].key) < 0) {
            return -1;
        }
        if (enc_putc(e, ':') < 0) {
            return -1;
        }
        if (enc_value(e, e->ents[base + i].value, depth + 1) < 0) {
            return -1;
        }
    }
    e->nents = base;
    return enc_putc(e, '}');
}

static int
enc_seq(Encoder *e, PyObject *o, int depth, int is_list)
{
    Py_ssize_t i;
    if (enc_putc(e, '[') < 0) {
        return -1;
    }
    for (i = 0; i < (is_list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o)); i++) {
        PyObject *item = is_list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
        Py_ssize_t size = is_list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
        if (i + 2 < size) {
            PREFETCH(is_list ? PyList_GET_ITEM(o, i + 2) : PyTuple_GET_ITEM(o, i + 2));
        }
        if (i + 1 < size) {
            /* its header was prefetched a step ago; now its hash table */
            PyObject *next = is_list ? PyList_GET_ITEM(o, i + 1) : PyTuple_GET_ITEM(o, i + 1);
            if (PyDict_CheckExact(next)) {
                const char *keys = (const char *)((PyDictObject *)next)->ma_keys;
                int line;
                for (line = 0; line < 8; line++) {
                    PREFETCH(keys + 64 * line);
                }
            }
        }
        if (i && enc_putc(e, ',') < 0) {
            return -1;
        }
        if (enc_value(e, item, depth + 1) < 0) {
            return -1;
        }
    }
    return enc_putc(e, ']');
}

static int
depth_error(void)
{
    PyErr_Format(PyExc_ValueError,
                 "nesting deeper than %d levels is not supported", JCS_MAX_DEPTH);
    return -1;
}

/* depth = number of containers enclosing o */
static int
enc_value(Encoder *e, PyObject *o, int depth)
{
    PyTypeObject *t = Py_TYPE(o);
    /* exact types first: they are nearly all of the input */
    if (t == &PyUnicode_Type) {
        return enc_str(e, o);
    }
    if (t == &PyDict_Type) {
        if (depth >= JCS_MAX_DEPTH) {
            return depth_error();
        }
        return enc_dict(e, o, depth);
    }
    if (t == &PyFloat_Type) {
        return enc_double(e, PyFloat_AS_DOUBLE(o));
    }
    if (o == Py_None) {
        return enc_write(e, "null", 4);
    }
    if (o == Py_True) {
        return enc_write(e, "true", 4);
    }
    if (o == Py_False) {
        return enc_write(e, "false", 5);
    }
    if (t == &PyLong_Type) {
        return enc_long(e, o);
    }
    if (t == &PyList_Type || t == &PyTuple_Type) {
        if (depth >= JCS_MAX_DEPTH) {
            return depth_error();
        }
        return enc_seq(e, o, depth, t == &PyList_Type);
    }
    /* subclasses are serialized as their base type (bool cannot be subclassed) */
    if (PyLong_Check(o)) {
        return enc_long(e, o);
    }
    if (PyFloat_Check(o)) {
        return enc_double(e, PyFloat_AS_DOUBLE(o));
    }
    if (PyUnicode_Check(o)) {
        return enc_str(e, o);
    }
    if (PyDict_Check(o) || PyList_Check(o) || PyTuple_Check(o)) {
        if (depth >= JCS_MAX_DEPTH) {
            return depth_error();
        }
        if (PyDict_Check(o)) {
            return enc_dict(e, o, depth);
        }
        return enc_seq(e, o, depth, PyList_Check(o));
    }
    PyErr_Format(PyExc_TypeError,
                 "objects of type %.100s cannot be serialized as RFC 8785 JSON",
                 t->tp_name);
    return -1;
}

/* jcs_dumps(obj, /, count=False): the arguments past the one-object fast path. */
static int
jcs_dumps_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int *count)
{
    PyObject *count_arg = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0, j;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError,
                        "jcs_dumps() missing required positional argument 'obj'");
        return -1;
    }
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError,
                     "jcs_dumps() takes at most 2 positional arguments (%zd given)", nargs);
        return -1;
    }
    if (nargs == 2) {
        count_arg = args[1];
    }
    for (j = 0; j < nkw; j++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, j);
        if (PyUnicode_CompareWithASCIIString(name, "count") != 0) {
            PyErr_Format(PyExc_TypeError,
                         "jcs_dumps() got an unexpected keyword argument '%U'", name);
            return -1;
        }
        if (count_arg != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "jcs_dumps() got multiple values for argument 'count'");
            return -1;
        }
        count_arg = args[nargs + j];
    }
    if (count_arg != NULL) {
        *count = PyObject_IsTrue(count_arg);
        if (*count < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
jcs_dumps(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Encoder e;
    PyObject *obj;
    int rc, count = 0;
    (void)module;
    if (nargs != 1 || kwnames != NULL) {
        if (jcs_dumps_args(args, nargs, kwnames, &count) < 0) {
            return NULL;
        }
    }
    obj = args[0];
    memset(&e, 0, sizeof(e));
    e.cap = 256;
    e.bytes = PyBytes_FromStringAndSize(NULL, e.cap);
    if (e.bytes == NULL) {
        return NULL;
    }
    e.buf = PyBytes_AS_STRING(e.bytes);
    rc = enc_value(&e, obj, 0);
    PyMem_Free(e.ents);
    if (rc < 0) {
        Py_XDECREF(e.bytes);
        return NULL;
    }
    if (_PyBytes_Resize(&e.bytes, e.len) < 0) {
        return NULL;
    }
    if (count) {
        PyObject *n = PyLong_FromSsize_t(e.members);
        PyObject *t = n ? PyTuple_New(2) : NULL;
        if (t == NULL) {
            Py_XDECREF(n);
            Py_DECREF(e.bytes);
            return NULL;
        }
        PyTuple_SET_ITEM(t, 0, e.bytes);
        PyTuple_SET_ITEM(t, 1, n);
        return t;
    }
    return e.bytes;
}

/* ======================================================================
 * Part 2: structural JSON scanner
 * ====================================================================== */

enum { SE_NONE = 0, SE_EOF, SE_EXPECTED, SE_CTRL, SE_NOMEM };

typedef struct {
    const unsigned char *p;
    Py_ssize_t n;
    /* open containers: '{' or '[' per level (heap; depth is unbounded) */
    unsigned char *stack;
    Py_ssize_t depth;
    Py_ssize_t scap;
    /* collected spans (object_members: 4 per member, array_items: 2 per item,
       or 4 with stats) */
    Py_ssize_t *spans;
    Py_ssize_t nspans;
    Py_ssize_t spcap;
    int stats; /* array_items(stats=True) */
    /* object_members(items_of=KEY): the raw key (quotes included) whose array value's
       items are collected too, into items (4 per item, as array_items(stats=True)) */
    const unsigned char *items_key;
    Py_ssize_t items_key_len;
    Py_ssize_t *items;
    Py_ssize_t nitems;
    int found_items;
    /* what scan_value saw in the value it last skipped: object members
       (':' tokens) at any depth, and the deepest nesting (a scalar is 0) */
    Py_ssize_t val_members;
    Py_ssize_t val_depth;
    /* first error */
    int err;
    Py_ssize_t err_pos;
    const char *expected;
} Scanner;

/* bytes a bare scalar (number / true / false / null) may consist of */
static unsigned char SCALAR[256];
/* space, tab, LF, CR */
static unsigned char WS[256];
/* bytes that end a run of plain string content: '"', '\\', 0x00-0x1F */
static unsigned char STRING_SPECIAL[256];

static void
init_tables(void)
{
    int c;
    for (c = 'A'; c <= 'Z'; c++) {
        SCALAR[c] = 1;
    }
    for (c = 'a'; c <= 'z'; c++) {
        SCALAR[c] = 1;
    }
    for (c = '0'; c <= '9'; c++) {
        SCALAR[c] = 1;
    }
    SCALAR['+'] = SCALAR['.'] = SCALAR['-'] = 1;
    WS[' '] = WS['\t'] = WS['\n'] = WS['\r'] = 1;
    for (c = 0; c < 0x20; c++) {
        STRING_SPECIAL[c] = 1;
    }
    STRING_SPECIAL['"'] = STRING_SPECIAL['\\'] = 1;
}

static inline Py_ssize_t
skip_ws(const Scanner *S, Py_ssize_t i)
{
    while (i < S->n && WS[S->p[i]]) {
        i++;
    }
    return i;
}

static Py_ssize_t
sc_fail(Scanner *S, int err, Py_ssize_t pos, const char *expected)
{
    if (!S->err) {
        S->err = err;
        S->err_pos = pos;
        S->expected = expected;
    }
    return -1;
}

static inline Py_ssize_t
sc_eof(Scanner *S)
{
    return sc_fail(S, SE_EOF, S->n, NULL);
}

/* i at the opening quote; returns the offset past the closing quote. */
static Py_ssize_t
scan_string(Scanner *S, Py_ssize_t i)
{
    const unsigned char *p = S->p;
    Py_ssize_t n = S->n;
    i++;
    for (;;) {
        /* Skip to the next '"', '\\' or control byte, 8 bytes at a time. */
        for (;;) {
            if (i + 8 <= n) {
                uint64_t w, m;
                memcpy(&w, p + i, 8);
                m = swar_special(w);
                if (m) {
                    i += FIRST_FLAGGED(m, p + i);
                    break;
                }
                i += 8;
            }
            else {
                while (i < n && !STRING_SPECIAL[p[i]]) {
                    i++;
                }
                break;
            }
        }
        if (i >= n) {
            return sc_eof(S);
        }
        {
            unsigned char c = p[i];
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                if (i + 1 >= n) {
                    return sc_eof(S);
                }
                i += 2;
            }
            else {
                return sc_fail(S, SE_CTRL, i, NULL);
            }
        }
    }
}

static int
sc_push(Scanner *S, unsigned char c)
{
    if (S->depth == S->scap) {
        Py_ssize_t cap = S->scap ? S->scap * 2 : 64;
        unsigned char *ns = PyMem_RawRealloc(S->stack, (size_t)cap);
        if (ns == NULL) {
            sc_fail(S, SE_NOMEM, 0, NULL);
            return -1;
        }
        S->stack = ns;
        S->scap = cap;
    }
    S->stack[S->depth++] = c;
    return 0;
}

/* Expect `"key" :` at i (after optional whitespace); returns offset past ':'. */
static Py_ssize_t
scan_key_colon(Scanner *S, Py_ssize_t i, const char *what)
{
    i = skip_ws(S, i);
    if (i >= S->n) {
        return sc_eof(S);
    }
    if (S->p[i] != '"') {
        return sc_fail(S, SE_EXPECTED, i, what);
    }
    i = scan_string(S, i);
    if (i < 0) {
        return -1;
    }
    i = skip_ws(S, i);
    if (i >= S->n) {
        return sc_eof(S);
    }
    if (S->p[i] != ':') {
        return sc_fail(S, SE_EXPECTED, i, "':'");
    }
    return i + 1;
}

/* Skip one complete JSON value starting at i (after optional whitespace).
   Iterative: nesting depth is limited only by memory.  On success also sets
   S->val_members and S->val_depth (counting costs next to nothing beside the
   byte scanning, so it is always done). */
static Py_ssize_t
scan_value(Scanner *S, Py_ssize_t i)
{
    const unsigned char *p = S->p;
    Py_ssize_t n = S->n;
    Py_ssize_t base = S->depth;
    Py_ssize_t members = 0, maxd = base;
    int want_value = 1;

    for (;;) {
        if (want_value) {
            unsigned char c;
            i = skip_ws(S, i);
            if (i >= n) {
                return sc_eof(S);
            }
            c = p[i];
            if (c == '"') {
                i = scan_string(S, i);
                if (i < 0) {
                    return -1;
                }
                want_value = 0;
            }
            else if (c == '{') {
                i = skip_ws(S, i + 1);
                if (i >= n) {
                    return sc_eof(S);
                }
                if (p[i] == '}') {
                    i++;
                    want_value = 0;
                    if (S->depth >= maxd) {
                        maxd = S->depth + 1;
                    }
                }
                else {
                    if (sc_push(S, '{') < 0) {
                        return -1;
                    }
                    if (S->depth > maxd) {
                        maxd = S->depth;
                    }
                    i = scan_key_colon(S, i, "a string key or '}'");
                    if (i < 0) {
                        return -1;
                    }
                    members++;
                }
            }
            else if (c == '[') {
                i = skip_ws(S, i + 1);
                if (i >= n) {
                    return sc_eof(S);
                }
                if (p[i] == ']') {
                    i++;
                    want_value = 0;
                    if (S->depth >= maxd) {
                        maxd = S->depth + 1;
                    }
                }
                else {
                    if (sc_push(S, '[') < 0) {
                        return -1;
                    }
                    if (S->depth > maxd) {
                        maxd = S->depth;
                    }
                }
            }
            else if (SCALAR[c]) {
                while (i < n && SCALAR[p[i]]) {
                    i++;
                }
                want_value = 0;
            }
            else {
                return sc_fail(S, SE_EXPECTED, i, "a JSON value");
            }
        }
        else {
            unsigned char top, c;
            if (S->depth == base) {
                S->val_members = members;
                S->val_depth = maxd - base;
                return i;
            }
            i = skip_ws(S, i);
            if (i >= n) {
                return sc_eof(S);
            }
            top = S->stack[S->depth - 1];
            c = p[i];
            if (c == ',') {
                if (top == '{') {
                    i = scan_key_colon(S, i + 1, "a string key");
                    if (i < 0) {
                        return -1;
                    }
                    members++;
                }
                else {
                    i++;
                }
                want_value = 1;
            }
            else if (c == (top == '{' ? '}' : ']')) {
                S->depth--;
                i++;
            }
            else {
                return sc_fail(S, SE_EXPECTED, i, top == '{' ? "',' or '}'" : "',' or ']'");
            }
        }
    }
}

static int
add_spans(Scanner *S, const Py_ssize_t *v, int k)
{
    if (S->spcap - S->nspans < k) {
        Py_ssize_t cap = S->spcap ? S->spcap * 2 : 256;
        Py_ssize_t *ns = PyMem_RawRealloc(S->spans, (size_t)cap * sizeof(Py_ssize_t));
        if (ns == NULL) {
            sc_fail(S, SE_NOMEM, 0, NULL);
            return -1;
        }
        S->spans = ns;
        S->spcap = cap;
    }
    memcpy(S->spans + S->nspans, v, (size_t)k * sizeof(Py_ssize_t));
    S->nspans += k;
    return 0;
}

static Py_ssize_t scan_array_items(Scanner *S, Py_ssize_t i);

/* Scan the array at i as array_items(stats=True) would, into S->items instead of
   S->spans (which hold the enclosing object's members meanwhile). */
static Py_ssize_t
scan_items_aside(Scanner *S, Py_ssize_t i)
{
    Py_ssize_t *members = S->spans, nmembers = S->nspans, capmembers = S->spcap, end;
    int stats = S->stats;
    S->spans = NULL;
    S->nspans = S->spcap = 0;
    S->stats = 1;
    end = scan_array_items(S, i);
    S->items = S->spans;
    S->nitems = S->nspans;
    S->found_items = 1;
    S->spans = members;
    S->nspans = nmembers;
    S->spcap = capmembers;
    S->stats = stats;
    return end;
}

static Py_ssize_t
scan_object_members(Scanner *S, Py_ssize_t i)
{
    const char *what = "a string key or '}'";
    i = skip_ws(S, i);
    if (i >= S->n) {
        return sc_eof(S);
    }
    if (S->p[i] != '{') {
        return sc_fail(S, SE_EXPECTED, i, "'{'");
    }
    i = skip_ws(S, i + 1);
    if (i >= S->n) {
        return sc_eof(S);
    }
    if (S->p[i] == '}') {
        return i + 1;
    }
    for (;;) {
        Py_ssize_t span[6];
        if (S->p[i] != '"') {
            return sc_fail(S, SE_EXPECTED, i, what);
        }
        span[0] = i;
        i = scan_string(S, i);
        if (i < 0) {
            return -1;
        }
        span[1] = i;
        i = skip_ws(S, i);
        if (i >= S->n) {
            return sc_eof(S);
        }
        if (S->p[i] != ':') {
            return sc_fail(S, SE_EXPECTED, i, "':'");
        }
        i = skip_ws(S, i + 1);
        span[2] = i;
        if (S->items_key != NULL && !S->found_items && i < S->n && S->p[i] == '['
            && span[1] - span[0] == S->items_key_len
            && memcmp(S->p + span[0], S->items_key, (size_t)S->items_key_len) == 0) {
            i = scan_items_aside(S, i);
            S->val_members = S->val_depth = -1; /* the items carry their own */
        }
        else {
            i = scan_value(S, i);
        }
        if (i < 0) {
            return -1;
        }
        span[3] = i;
        span[4] = S->val_members;
        span[5] = S->val_depth;
        if (add_spans(S, span, S->items_key != NULL ? 6 : 4) < 0) {
            return -1;
        }
        i = skip_ws(S, i);
        if (i >= S->n) {
            return sc_eof(S);
        }
        if (S->p[i] == '}') {
            return i + 1;
        }
        if (S->p[i] != ',') {
            return sc_fail(S, SE_EXPECTED, i, "',' or '}'");
        }
        i = skip_ws(S, i + 1);
        if (i >= S->n) {
            return sc_eof(S);
        }
        what = "a string key";
    }
}

static Py_ssize_t
scan_array_items(Scanner *S, Py_ssize_t i)
{
    i = skip_ws(S, i);
    if (i >= S->n) {
        return sc_eof(S);
    }
    if (S->p[i] != '[') {
        return sc_fail(S, SE_EXPECTED, i, "'['");
    }
    i = skip_ws(S, i + 1);
    if (i >= S->n) {
        return sc_eof(S);
    }
    if (S->p[i] == ']') {
        return i + 1;
    }
    for (;;) {
        Py_ssize_t span[4];
        span[0] = i;
        i = scan_value(S, i);
        if (i < 0) {
            return -1;
        }
        span[1] = i;
        span[2] = S->val_members;
        span[3] = S->val_depth;
        if (add_spans(S, span, S->stats ? 4 : 2) < 0) {
            return -1;
        }
        i = skip_ws(S, i);
        if (i >= S->n) {
            return sc_eof(S);
        }
        if (S->p[i] == ']') {
            return i + 1;
        }
        if (S->p[i] != ',') {
            return sc_fail(S, SE_EXPECTED, i, "',' or ']'");
        }
        i = skip_ws(S, i + 1);
    }
}

/* Turn the scanner's error into a Python ValueError. */
static void
sc_raise(const Scanner *S)
{
    char msg[160];
    switch (S->err) {
    case SE_EOF:
        snprintf(msg, sizeof(msg), "unexpected end of data at byte %zd (truncated?)",
                 S->err_pos);
        break;
    case SE_CTRL:
        snprintf(msg, sizeof(msg), "control character U+%04X inside a string at byte %zd",
                 (unsigned int)S->p[S->err_pos], S->err_pos);
        break;
    case SE_EXPECTED: {
        unsigned char c = S->p[S->err_pos];
        char found[16];
        if (c > 0x20 && c < 0x7F) {
            snprintf(found, sizeof(found), "'%c'", c);
        }
        else {
            snprintf(found, sizeof(found), "byte 0x%02X", (unsigned int)c);
        }
        snprintf(msg, sizeof(msg), "expected %s at byte %zd, found %s", S->expected,
                 S->err_pos, found);
        break;
    }
    case SE_NOMEM:
        PyErr_NoMemory();
        return;
    default:
        snprintf(msg, sizeof(msg), "invalid JSON");
        break;
    }
    PyErr_SetString(PyExc_ValueError, msg);
}

static void
sc_free(Scanner *S)
{
    PyMem_RawFree(S->stack);
    PyMem_RawFree(S->spans);
    PyMem_RawFree(S->items);
}

typedef Py_ssize_t (*scan_fn)(Scanner *, Py_ssize_t);

/* Run fn over the parsed (buffer, pos) without the GIL and release the
   buffer; returns end or -1 with an exception set.  The buffer export pins
   bytes/bytearray/mmap memory while the GIL is released.  S must be zeroed
   (apart from options) by the caller. */
static Py_ssize_t
run_scan(Py_buffer *view, Py_ssize_t pos, Scanner *S, scan_fn fn)
{
    Py_ssize_t end;
    S->p = (const unsigned char *)view->buf;
    S->n = view->len;
    if (pos < 0 || pos > view->len) {
        PyErr_Format(PyExc_ValueError, "start offset %zd is outside the data (%zd bytes)",
                     pos, view->len);
        PyBuffer_Release(view);
        S->p = NULL;
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
    end = fn(S, pos);
    Py_END_ALLOW_THREADS
    if (end < 0) {
        sc_raise(S);
    }
    PyBuffer_Release(view);
    S->p = NULL; /* the message is built; the buffer may go */
    return end;
}

/* (buf, pos, /) for value_end and object_members */
static Py_ssize_t
run_scan_args(PyObject *args, Scanner *S, scan_fn fn)
{
    Py_buffer view;
    Py_ssize_t pos;
    memset(S, 0, sizeof(*S));
    if (!PyArg_ParseTuple(args, "y*n", &view, &pos)) {
        return -1;
    }
    return run_scan(&view, pos, S, fn);
}

static PyObject *
py_value_end(PyObject *module, PyObject *args)
{
    Scanner S;
    Py_ssize_t end;
    (void)module;
    end = run_scan_args(args, &S, scan_value);
    sc_free(&S);
    if (end < 0) {
        return NULL;
    }
    return PyLong_FromSsize_t(end);
}

/* A list of k-tuples of the n / k spans at v. */
static PyObject *
span_list(const Py_ssize_t *v, Py_ssize_t n, int k)
{
    Py_ssize_t count = n / k, i;
    int j;
    PyObject *list = PyList_New(count);
    if (list == NULL) {
        return NULL;
    }
    for (i = 0; i < count; i++) {
        PyObject *t = PyTuple_New(k);
        if (t == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        for (j = 0; j < k; j++) {
            PyObject *num = PyLong_FromSsize_t(v[i * k + j]);
            if (num == NULL) {
                Py_DECREF(t);
                Py_DECREF(list);
                return NULL;
            }
            PyTuple_SET_ITEM(t, j, num);
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *
spans_result(Scanner *S, Py_ssize_t end, int k)
{
    PyObject *list = span_list(S->spans, S->nspans, k);
    if (list == NULL) {
        return NULL;
    }
    return Py_BuildValue("(Nn)", list, end);
}

static PyObject *
py_object_members(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"", "", "items_of", NULL};
    Scanner S;
    Py_buffer view, key = {0};
    Py_ssize_t pos, end;
    PyObject *res = NULL;
    (void)module;
    memset(&S, 0, sizeof(S));
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*n|y*:object_members", kwlist, &view, &pos,
                                     &key)) {
        return NULL;
    }
    if (key.buf != NULL) {
        S.items_key = (const unsigned char *)key.buf;
        S.items_key_len = key.len;
    }
    end = run_scan(&view, pos, &S, scan_object_members);
    if (end >= 0) {
        if (key.buf == NULL) {
            res = spans_result(&S, end, 4);
        }
        else {
            PyObject *members = span_list(S.spans, S.nspans, 6), *items = NULL;
            if (members != NULL && S.found_items) {
                items = span_list(S.items, S.nitems, 4);
            }
            else if (members != NULL) {
                items = Py_NewRef(Py_None);
            }
            if (items != NULL) {
                res = Py_BuildValue("(NnN)", members, end, items);
            }
            else {
                Py_XDECREF(members);
            }
        }
    }
    if (key.buf != NULL) {
        PyBuffer_Release(&key);
    }
    sc_free(&S);
    return res;
}

static PyObject *
py_array_items(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"", "", "stats", NULL};
    Scanner S;
    Py_buffer view;
    Py_ssize_t pos, end;
    int stats = 0;
    PyObject *res = NULL;
    (void)module;
    memset(&S, 0, sizeof(S));
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*n|p:array_items", kwlist, &view, &pos,
                                     &stats)) {
        return NULL;
    }
    S.stats = stats;
    end = run_scan(&view, pos, &S, scan_array_items);
    if (end >= 0) {
        res = spans_result(&S, end, stats ? 4 : 2);
    }
    sc_free(&S);
    return res;
}

/* ====================================================================== */

/* The members of every dict in obj, at any depth (lists and dicts are walked; anything
   else counts nothing).  -1 with an exception past 10,000 levels. */
static Py_ssize_t
count_members(PyObject *obj, int depth)
{
    Py_ssize_t total = 0, i, n;
    if (depth > 10000) {
        PyErr_SetString(PyExc_ValueError, "nesting deeper than 10000 levels");
        return -1;
    }
    if (PyDict_Check(obj)) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        total = PyDict_GET_SIZE(obj);
        while (PyDict_Next(obj, &pos, &key, &value)) {
            if (PyDict_Check(value) || PyList_Check(value)) {
                n = count_members(value, depth + 1);
                if (n < 0) {
                    return -1;
                }
                total += n;
            }
        }
    }
    else if (PyList_Check(obj)) {
        for (i = 0; i < PyList_GET_SIZE(obj); i++) {
            PyObject *item = PyList_GET_ITEM(obj, i);
            if (PyDict_Check(item) || PyList_Check(item)) {
                n = count_members(item, depth + 1);
                if (n < 0) {
                    return -1;
                }
                total += n;
            }
        }
    }
    return total;
}

static PyObject *
py_member_count(PyObject *module, PyObject *obj)
{
    Py_ssize_t n;
    (void)module;
    n = count_members(obj, 0);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

PyDoc_STRVAR(member_count_doc,
"member_count(value, /) -> int\n--\n\n"
"How many members the dicts in value (a parsed JSON value) have, at every depth:\n"
"compared with the scanner's count of the raw text, a difference means orjson\n"
"dropped duplicate member names.");

PyDoc_STRVAR(jcs_dumps_doc,
"jcs_dumps(obj, /, count=False)\n--\n\n"
"Serialize obj as RFC 8785 canonical JSON (UTF-8, no whitespace): bytes, or\n"
"with count=True (bytes, members), members being the number of dict members\n"
"serialized at every depth.\n"
"Accepts dict (str keys), list, tuple, str, int, float, bool, None and their\n"
"subclasses.  ValueError for NaN, infinities, integers beyond +-(2**53-1),\n"
"non-str keys, lone surrogates and nesting deeper than 1000; TypeError for\n"
"other types.");

PyDoc_STRVAR(value_end_doc,
"value_end(buf, pos, /) -> int\n--\n\n"
"Offset just past the JSON value starting at pos (structure check only).");

PyDoc_STRVAR(object_members_doc,
"object_members(buf, pos, /, items_of=None)\n--\n\n"
"Byte spans of the members of the JSON object starting at pos, as\n"
"(list[(key_start, key_end, value_start, value_end)], end); key spans include\n"
"the quotes, end is the offset past the closing brace.  With items_of (a raw\n"
"key, quotes included, e.g. b'\"memories\"'): (members, end, items), each member\n"
"then (key_start, key_end, value_start, value_end, value_members, value_depth) with\n"
"the counts array_items(stats=True) gives items, and items what\n"
"array_items(stats=True) gives for the value of the first member with exactly\n"
"that raw key when it is an array, in the same pass (that member's counts are\n"
"-1); else None.");

PyDoc_STRVAR(array_items_doc,
"array_items(buf, pos, /, stats=False) -> (list[(start, end)], end)\n--\n\n"
"Byte spans of the items of the JSON array starting at pos; end is the\n"
"offset past the closing bracket.  With stats=True each item is\n"
"(start, end, members, depth): members counts the object members (':'\n"
"tokens outside strings, duplicate names included) anywhere inside the\n"
"item, depth is its deepest nesting (a scalar 0, {} or [] 1, {\"a\":[1]} 2).");

/* ======================================================================
 * Part 2b: nesting depth, a chunk at a time
 * ====================================================================== */

/* state packs the scan between chunks: depth << 2 | in_string << 1 | escaped.
   Closers beyond depth 0 are ignored (the parsers report such syntax errors). */
static PyObject *
py_nesting_scan(PyObject *self, PyObject *args)
{
    Py_buffer view;
    long long state;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "y*Ln:nesting_scan", &view, &state, &limit)) {
        return NULL;
    }
    if (state < 0 || limit < 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "state and limit must not be negative");
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)view.buf;
    Py_ssize_t n = view.len;
    long long depth = state >> 2;
    int in_string = (int)((state >> 1) & 1);
    int escaped = (int)(state & 1);
    Py_ssize_t over = -1;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t i = 0;
    while (i < n) {
        if (in_string) {
            if (escaped) {
                escaped = 0;
                i++;
                continue;
            }
            /* memchr runs fast over text; a quote is escaped when an odd run of
               backslashes precedes it (a run that starts at i at the earliest: one
               left open by the previous chunk is the escaped flag, handled above) */
            const unsigned char *q = memchr(p + i, '"', (size_t)(n - i));
            Py_ssize_t end = q == NULL ? n : q - p;
            Py_ssize_t run = 0;
            while (end - run > i && p[end - run - 1] == '\\') {
                run++;
            }
            if (q == NULL) {
                escaped = (int)(run & 1);
                i = n;
            }
            else {
                in_string = (int)(run & 1); /* an escaped quote: still inside */
                i = end + 1;
            }
            continue;
        }
        unsigned char c = p[i++];
        if (c == '"') {
            in_string = 1;
        }
        else if (c == '[' || c == '{') {
            if (++depth > (long long)limit) {
                over = i - 1;
                break;
            }
        }
        else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return Py_BuildValue("(Ln)", (depth << 2) | ((long long)in_string << 1) | escaped, over);
}

PyDoc_STRVAR(nesting_scan_doc,
"nesting_scan(data, state, limit, /) -> (state, over)\n--\n\n"
"Count the nesting of a JSON text over one more chunk: brackets outside\n"
"strings.  state is 0 at the start of the text and what the previous call\n"
"returned after (depth << 2 | in_string << 1 | escaped).  over is the offset\n"
"in data of the bracket that opens level limit + 1, or -1.");

/* ======================================================================
 * Part 3: the per-memory checks of PAM memory-store validation
 * ====================================================================== */

/* Member names looked up in every memory, interned once. */
enum {
    K_ID, K_TEMPORAL, K_PROVENANCE, K_STATUS, K_SUPERSEDED_BY, K_CONVERSATION_REF,
    K_EMBEDDING_REF, K_PLATFORM, K_CONTENT, K_CONTENT_HASH, K_UPDATED_AT, K_VALID_UNTIL,
    K_VALID_FROM, K_CREATED_AT, K_ACCESS, K_EXPORTABLE, K_SHARED_WITH, K_VISIBILITY,
    K_TYPE, K_CUSTOM_TYPE, K_EXTRACTION_METHOD, K_ACTIVE, K_SUPERSEDED, K_ARCHIVED,
    K_PRIVATE, K_CUSTOM, K_UNSPECIFIED, K_HEXDIGEST, K_COUNT
};
static const char *const KEY_NAMES[K_COUNT] = {
    "id", "temporal", "provenance", "status", "superseded_by", "conversation_ref",
    "embedding_ref", "platform", "content", "content_hash", "updated_at", "valid_until",
    "valid_from", "created_at", "access", "exportable", "shared_with", "visibility",
    "type", "custom_type", "extraction_method", "active", "superseded", "archived",
    "private", "custom", "unspecified", "hexdigest",
};
static PyObject *KEYS[K_COUNT];
static PyObject *ONE;

static int
init_keys(void)
{
    int i;
    ONE = PyLong_FromLong(1);
    if (ONE == NULL) {
        return -1;
    }
    for (i = 0; i < K_COUNT; i++) {
        KEYS[i] = PyUnicode_InternFromString(KEY_NAMES[i]);
        if (KEYS[i] == NULL) {
            return -1;
        }
    }
    return 0;
}

/* d.get(key), borrowed; NULL (without an error set) when absent.  d may be NULL. */
static inline PyObject *
dget(PyObject *d, int key)
{
    if (d == NULL) {
        return NULL;
    }
    return PyDict_GetItemWithError(d, KEYS[key]);
}

/* The value if it is exactly a str (type(v) is str), else NULL. */
static inline PyObject *
exact_str(PyObject *v)
{
    return v != NULL && PyUnicode_CheckExact(v) ? v : NULL;
}

/* a == b for two str (either may be NULL: never equal then); -1 on error. */
static inline int
str_eq(PyObject *a, PyObject *b)
{
    if (a == NULL || b == NULL) {
        return 0;
    }
    return PyUnicode_Compare(a, b) == 0 ? 1 : (PyErr_Occurred() ? -1 : 0);
}

/* memory_pass._UUID4.fullmatch (case-insensitive, version 4, RFC 4122 variant). */
static int
is_uuid4(PyObject *s)
{
    const unsigned char *p;
    int i;
    if (!PyUnicode_IS_ASCII(s) || PyUnicode_GET_LENGTH(s) != 36) {
        return 0;
    }
    p = (const unsigned char *)PyUnicode_DATA(s);
    for (i = 0; i < 36; i++) {
        unsigned char c = p[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') {
                return 0;
            }
        }
        else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            return 0;
        }
    }
    if (p[14] != '4') {
        return 0;
    }
    return strchr("89abAB", p[19]) != NULL && p[19] != 0;
}

/* Whether s is ASCII "DDDD-DD-DDTDD:DD:DD" followed by anything ending in "Z": fixed-width
   fields of one UTC offset, whose text order is their time order. */
static int
utc_layout(PyObject *s)
{
    static const char LAYOUT[] = "dddd-dd-ddTdd:dd:dd";
    const unsigned char *p;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int i;
    if (!PyUnicode_IS_ASCII(s) || n < 20) {
        return 0;
    }
    p = (const unsigned char *)PyUnicode_DATA(s);
    if (p[n - 1] != 'Z') {
        return 0;
    }
    for (i = 0; i < 19; i++) {
        if (LAYOUT[i] == 'd' ? !(p[i] >= '0' && p[i] <= '9') : p[i] != (unsigned char)LAYOUT[i]) {
            return 0;
        }
    }
    return 1;
}

/* 1 when memory_pass._before(earlier, later) is True (a finding), 0 when not, -1 on error.
   Timestamps of one shape compare as strings here; others go to `before` (_before). */
static int
before_needs_python(PyObject *earlier, PyObject *later, PyObject *before)
{
    Py_ssize_t n;
    int same_shape = 0;
    if (exact_str(earlier) == NULL || exact_str(later) == NULL) {
        return 0;
    }
    n = PyUnicode_GET_LENGTH(earlier);
    if (n == PyUnicode_GET_LENGTH(later) && n > 0) {
        Py_UCS4 ze = PyUnicode_READ_CHAR(earlier, n - 1);
        Py_UCS4 zl = PyUnicode_READ_CHAR(later, n - 1);
        if (ze == 'Z' && zl == 'Z') {
            same_shape = 1;
        }
        else if (n >= 6) {
            Py_UCS4 sign = PyUnicode_READ_CHAR(earlier, n - 6);
            if (sign == '+' || sign == '-') {
                Py_ssize_t i;
                same_shape = 1;
                for (i = n - 6; i < n; i++) {
                    if (PyUnicode_READ_CHAR(earlier, i) != PyUnicode_READ_CHAR(later, i)) {
                        same_shape = 0;
                        break;
                    }
                }
            }
        }
    }
    if (!same_shape && utc_layout(earlier) && utc_layout(later)
        && memcmp(PyUnicode_DATA(later), PyUnicode_DATA(earlier), 19) > 0) {
        /* Both "YYYY-MM-DDTHH:MM:SS...Z" and later's date and time (to the second) sort
           after earlier's: later is not before earlier, or one of them does not parse and
           _before is None.  No finding either way. */
        return 0;
    }
    if (!same_shape) {
        /* timestamps of different shapes are parsed by memory_pass._before */
        PyObject *res = PyObject_CallFunctionObjArgs(before, earlier, later, NULL);
        int is_true;
        if (res == NULL) {
            return -1;
        }
        is_true = res == Py_True;
        Py_DECREF(res);
        return is_true;
    }
    {
        int c = PyUnicode_Compare(later, earlier);
        if (c == -1 && PyErr_Occurred()) {
            return -1;
        }
        return c < 0;
    }
}

/* Python's str.isspace() within Latin-1. */
static inline int
latin1_space(unsigned int c)
{
    return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0;
}

/* Python's str.isprintable() within Latin-1. */
static inline int
latin1_printable(unsigned int c)
{
    return (c >= 0x20 && c <= 0x7e) || (c >= 0xa1 && c != 0xad);
}

/* 1 if the content hash matches (no finding), 0 if not, -1 on error.

   canonical.content_hash for Latin-1 text (one byte per character) whose stripped part is
   printable and has no double space: then NFC and the whitespace collapse change nothing
   (every Latin-1 character is NFC; printable text has no whitespace but the space), and
   lowercasing maps A-Z and U+00C0-U+00DE (but U+00D7) 0x20 up.  Other text is hashed by
   the Python function itself. */
static int
content_hash_matches(PyObject *content, PyObject *declared, PyObject *sha256,
                     PyObject *content_hash)
{
    PyObject *hex;
    int ok;
    if (PyUnicode_KIND(content) == PyUnicode_1BYTE_KIND) {
        const unsigned char *p = (const unsigned char *)PyUnicode_DATA(content);
        Py_ssize_t n = PyUnicode_GET_LENGTH(content), lo = 0, hi = n, i, size = 0;
        int simple = 1;
        while (lo < hi && latin1_space(p[lo])) {
            lo++;
        }
        while (hi > lo && latin1_space(p[hi - 1])) {
            hi--;
        }
        for (i = lo; i < hi; i++) {
            if (!latin1_printable(p[i]) || (p[i] == ' ' && i + 1 < hi && p[i + 1] == ' ')) {
                simple = 0;
                break;
            }
            size += p[i] < 0x80 ? 1 : 2;
        }
        if (simple) {
            PyObject *bytes = PyBytes_FromStringAndSize(NULL, size), *h;
            unsigned char *o;
            const unsigned char *d;
            if (bytes == NULL) {
                return -1;
            }
            o = (unsigned char *)PyBytes_AS_STRING(bytes);
            for (i = lo; i < hi; i++) {
                unsigned int c = p[i];
                if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7)) {
                    c += 0x20;
                }
                if (c < 0x80) {
                    *o++ = (unsigned char)c;
                }
                else {
                    *o++ = (unsigned char)(0xc0 | (c >> 6));
                    *o++ = (unsigned char)(0x80 | (c & 0x3f));
                }
            }
            h = PyObject_CallOneArg(sha256, bytes);
            Py_DECREF(bytes);
            if (h == NULL) {
                return -1;
            }
            hex = PyObject_CallMethodNoArgs(h, KEYS[K_HEXDIGEST]);
            Py_DECREF(h);
            if (hex == NULL) {
                return -1;
            }
            if (!PyUnicode_CheckExact(hex) || !PyUnicode_IS_ASCII(hex)
                || PyUnicode_GET_LENGTH(hex) != 64 || !PyUnicode_IS_ASCII(declared)) {
                Py_DECREF(hex);
                return 0;
            }
            d = (const unsigned char *)PyUnicode_DATA(declared);
            ok = memcmp(d, "sha256:", 7) == 0 && memcmp(d + 7, PyUnicode_DATA(hex), 64) == 0;
            Py_DECREF(hex);
            return ok;
        }
    }
    hex = PyObject_CallOneArg(content_hash, content);
    if (hex == NULL) {
        return -1;
    }
    ok = PyUnicode_Check(hex) ? str_eq(hex, declared) : 0;
    Py_DECREF(hex);
    return ok;
}

/* counter[key] += 1 on a collections.Counter (a dict subclass). */
static int
count_one(PyObject *counter, PyObject *key)
{
    PyObject *old = PyDict_GetItemWithError(counter, key), *new;
    int rc;
    if (old == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        new = PyLong_FromLong(1);
    }
    else {
        new = PyNumber_Add(old, ONE);
    }
    if (new == NULL) {
        return -1;
    }
    rc = PyDict_SetItem(counter, key, new);
    Py_DECREF(new);
    return rc;
}

/* Whether v is an exact dict; the empty dict stands for "not an object" as in Python. */
static inline PyObject *
exact_dict(PyObject *v)
{
    return v != NULL && PyDict_CheckExact(v) ? v : NULL;
}

typedef struct {
    PyObject *values, *spans, *ids, *blob, *ends_append, *facts;
    PyObject *by_type, *by_status, *by_platform, *by_method, *state;
    PyObject *sha256, *content_hash, *before;
    Py_ssize_t first;
    int incremental;
} MemoryRun;

/* One memory: 1 if it was accepted (nothing to report, its results recorded), 0 if the
   Python path must take it, -1 on error. */
static int
memory_one(MemoryRun *r, Encoder *e, Py_ssize_t k)
{
    PyObject *memory = PyList_GET_ITEM(r->values, k);
    PyObject *record, *temporal, *provenance, *status, *sb, *conv, *emb, *platform;
    PyObject *content, *declared, *access, *mtype, *method, *created, *fact, *num;
    Py_ssize_t index = r->first + k, old;
    int rc;

    if (!PyDict_CheckExact(memory)) {
        return 0;
    }
    record = exact_str(dget(memory, K_ID));
    if (record == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    e->len = 0;
    e->members = 0;
    e->nents = 0;
    if (enc_value(e, memory, 0) < 0) {
        /* not canonicalizable: the Python path reports it */
        PyErr_Clear();
        return 0;
    }
    if (r->spans != Py_None) {
        PyObject *span = PyList_GET_ITEM(r->spans, index);
        Py_ssize_t members, depth;
        if (!PyTuple_CheckExact(span) || PyTuple_GET_SIZE(span) != 4) {
            return 0;
        }
        members = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 2));
        depth = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 3));
        if (PyErr_Occurred()) {
            return -1;
        }
        if (depth < 0 || members != e->members) {
            return 0; /* maybe duplicate member names */
        }
    }
    temporal = exact_dict(dget(memory, K_TEMPORAL));
    provenance = exact_dict(dget(memory, K_PROVENANCE));
    status = dget(memory, K_STATUS);
    if (status == NULL || !PyUnicode_CheckExact(status)) {
        status = KEYS[K_ACTIVE];
    }
    sb = exact_str(dget(temporal, K_SUPERSEDED_BY));
    conv = exact_str(dget(provenance, K_CONVERSATION_REF));
    emb = exact_str(dget(memory, K_EMBEDDING_REF));
    platform = exact_str(dget(provenance, K_PLATFORM));
    content = exact_str(dget(memory, K_CONTENT));
    declared = exact_str(dget(memory, K_CONTENT_HASH));
    if (PyErr_Occurred()) {
        return -1;
    }
    /* PAM section 6: content hash */
    if (content != NULL && declared != NULL && PyUnicode_GET_LENGTH(declared) == 71) {
        rc = content_hash_matches(content, declared, r->sha256, r->content_hash);
        if (rc <= 0) {
            return rc;
        }
    }
    /* PAM section 4.1: temporal order (incremental exports take the Python path) */
    if (temporal != NULL && PyDict_GET_SIZE(temporal) > 0) {
        PyObject *updated = dget(temporal, K_UPDATED_AT);
        PyObject *until = dget(temporal, K_VALID_UNTIL);
        if (PyErr_Occurred()) {
            return -1;
        }
        if (r->incremental) {
            return 0;
        }
        if (updated != NULL || (until != NULL && until != Py_None)) {
            PyObject *created_at = dget(temporal, K_CREATED_AT);
            PyObject *valid_from = dget(temporal, K_VALID_FROM);
            if (PyErr_Occurred()) {
                return -1;
            }
            rc = before_needs_python(created_at, updated, r->before);
            if (rc != 0) {
                return rc < 0 ? -1 : 0;
            }
            rc = before_needs_python(valid_from, until, r->before);
            if (rc != 0) {
                return rc < 0 ? -1 : 0;
            }
        }
    }
    /* PAM section 7: lifecycle */
    {
        int superseded = str_eq(status, KEYS[K_SUPERSEDED]);
        if (superseded < 0) {
            return -1;
        }
        if (sb != NULL || superseded) {
            int self = str_eq(sb, record), archived;
            if (self != 0) {
                return self < 0 ? -1 : 0;
            }
            if (superseded && sb == NULL) {
                return 0;
            }
            archived = str_eq(status, KEYS[K_ARCHIVED]);
            if (archived < 0) {
                return -1;
            }
            if (sb != NULL && !superseded && !archived) {
                return 0;
            }
        }
    }
    /* PAM sections 21.1 and 9: access */
    access = exact_dict(dget(memory, K_ACCESS));
    if (access != NULL) {
        PyObject *exportable = dget(access, K_EXPORTABLE);
        PyObject *grants = dget(access, K_SHARED_WITH);
        int shared;
        if (PyErr_Occurred()) {
            return -1;
        }
        if (exportable == Py_False) {
            return 0;
        }
        shared = grants == NULL ? 0 : PyObject_IsTrue(grants);
        if (shared < 0) {
            return -1;
        }
        if (shared) {
            PyObject *visibility = dget(access, K_VISIBILITY);
            int private;
            if (visibility == NULL) {
                if (PyErr_Occurred()) {
                    return -1;
                }
                visibility = KEYS[K_PRIVATE];
            }
            private = PyObject_RichCompareBool(visibility, KEYS[K_PRIVATE], Py_EQ);
            if (private < 0) {
                return -1;
            }
            if (private && PyList_CheckExact(grants) && PyList_GET_SIZE(grants) > 0) {
                return 0;
            }
        }
    }

    /* Nothing to report: record what the later checks need. */
    if (PyList_Append(r->ids, record) < 0) {
        return -1;
    }
    old = PyByteArray_GET_SIZE(r->blob);
    if (PyByteArray_Resize(r->blob, old + e->len) < 0) {
        return -1;
    }
    memcpy(PyByteArray_AS_STRING(r->blob) + old, e->buf, (size_t)e->len);
    num = PyLong_FromSsize_t(old + e->len);
    if (num == NULL) {
        return -1;
    }
    {
        PyObject *res = PyObject_CallOneArg(r->ends_append, num);
        Py_DECREF(num);
        if (res == NULL) {
            return -1;
        }
        Py_DECREF(res);
    }
    if (!is_uuid4(record)) {
        PyObject *n1 = PyNumber_Add(PyList_GET_ITEM(r->state, 0), ONE);
        if (n1 == NULL) {
            return -1;
        }
        PyList_SetItem(r->state, 0, n1);
    }
    num = PyLong_FromSsize_t(index);
    if (num == NULL) {
        return -1;
    }
    fact = PyTuple_Pack(7, num, record, status, sb ? sb : Py_None, conv ? conv : Py_None,
                        emb ? emb : Py_None, platform ? platform : Py_None);
    Py_DECREF(num);
    if (fact == NULL) {
        return -1;
    }
    rc = PyList_Append(r->facts, fact);
    Py_DECREF(fact);
    if (rc < 0) {
        return -1;
    }
    /* counts */
    mtype = exact_str(dget(memory, K_TYPE));
    if (mtype != NULL) {
        PyObject *custom = NULL, *key = mtype;
        int is_custom = str_eq(mtype, KEYS[K_CUSTOM]);
        if (is_custom < 0) {
            return -1;
        }
        if (is_custom) {
            custom = exact_str(dget(memory, K_CUSTOM_TYPE));
            if (custom != NULL) {
                key = PyUnicode_FromFormat("custom:%U", custom);
                if (key == NULL) {
                    return -1;
                }
            }
        }
        rc = count_one(r->by_type, key);
        if (key != mtype) {
            Py_DECREF(key);
        }
        if (rc < 0) {
            return -1;
        }
    }
    if (count_one(r->by_status, status) < 0) {
        return -1;
    }
    if (platform != NULL && count_one(r->by_platform, platform) < 0) {
        return -1;
    }
    method = exact_str(dget(provenance, K_EXTRACTION_METHOD));
    if (count_one(r->by_method, method ? method : KEYS[K_UNSPECIFIED]) < 0) {
        return -1;
    }
    created = exact_str(dget(temporal, K_CREATED_AT));
    if (created != NULL) {
        PyObject *lo = PyList_GET_ITEM(r->state, 1), *hi = PyList_GET_ITEM(r->state, 2);
        if (lo == Py_None || PyUnicode_Compare(created, lo) < 0) {
            Py_INCREF(created);
            PyList_SetItem(r->state, 1, created);
        }
        if (hi == Py_None || PyUnicode_Compare(created, hi) > 0) {
            Py_INCREF(created);
            PyList_SetItem(r->state, 2, created);
        }
    }
    return PyErr_Occurred() ? -1 : 1;
}

/* memory_run(values, spans, first, start, ids, blob, ends_append, facts, by_type,
              by_status, by_platform, by_method, state, sha256, content_hash, before,
              incremental) -> stop */
static PyObject *
py_memory_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    MemoryRun r;
    Encoder e;
    Py_ssize_t start, k, n;
    (void)module;
    if (nargs != 17) {
        PyErr_SetString(PyExc_TypeError, "memory_run() takes 17 positional arguments");
        return NULL;
    }
    r.values = args[0];
    r.spans = args[1];
    r.first = PyLong_AsSsize_t(args[2]);
    start = PyLong_AsSsize_t(args[3]);
    r.ids = args[4];
    r.blob = args[5];
    r.ends_append = args[6];
    r.facts = args[7];
    r.by_type = args[8];
    r.by_status = args[9];
    r.by_platform = args[10];
    r.by_method = args[11];
    r.state = args[12];
    r.sha256 = args[13];
    r.content_hash = args[14];
    r.before = args[15];
    r.incremental = PyObject_IsTrue(args[16]);
    if (PyErr_Occurred() || r.incremental < 0) {
        return NULL;
    }
    if (!PyList_CheckExact(r.values) || !(r.spans == Py_None || PyList_CheckExact(r.spans))
        || !PyList_CheckExact(r.ids) || !PyByteArray_CheckExact(r.blob)
        || !PyList_CheckExact(r.facts) || !PyDict_Check(r.by_type) || !PyDict_Check(r.by_status)
        || !PyDict_Check(r.by_platform) || !PyDict_Check(r.by_method)
        || !PyList_CheckExact(r.state) || PyList_GET_SIZE(r.state) != 3) {
        PyErr_SetString(PyExc_TypeError, "memory_run(): unexpected argument types");
        return NULL;
    }
    n = PyList_GET_SIZE(r.values);
    if (start < 0 || r.first < 0
        || (r.spans != Py_None && PyList_GET_SIZE(r.spans) < r.first + n)) {
        PyErr_SetString(PyExc_ValueError, "memory_run(): range out of bounds");
        return NULL;
    }
    memset(&e, 0, sizeof(e));
    e.cap = 4096;
    e.bytes = PyBytes_FromStringAndSize(NULL, e.cap);
    if (e.bytes == NULL) {
        return NULL;
    }
    e.buf = PyBytes_AS_STRING(e.bytes);
    for (k = start; k < n; k++) {
        int rc = memory_one(&r, &e, k);
        if (rc < 0) {
            PyMem_Free(e.ents);
            Py_DECREF(e.bytes);
            return NULL;
        }
        if (rc == 0) {
            break;
        }
    }
    PyMem_Free(e.ents);
    Py_DECREF(e.bytes);
    return PyLong_FromSsize_t(k);
}

PyDoc_STRVAR(memory_run_doc,
"memory_run(values, spans, first, start, ids, blob, ends_append, facts, by_type,\n"
"           by_status, by_platform, by_method, state, sha256, content_hash,\n"
"           before, incremental) -> stop\n--\n\n"
"The per-memory checks of memvault.formats.pam.memory_pass._memory for\n"
"values[start:], values[k] being memory number first + k.  Each memory with\n"
"nothing to report has its results recorded as _memory records them (canonical\n"
"bytes appended to blob, its id to ids, its end offset through ends_append, its\n"
"fact tuple to facts, its counts; state is [non_uuid_ids, first_created,\n"
"last_created]).  Stops at the first memory it cannot clear -- one with a finding,\n"
"or a case it leaves to Python -- and returns its position (len(values) when\n"
"all were done), so the caller runs the Python checks on that one and resumes.");

/* ======================================================================
 * Part 4: the PAM integrity checksum input from sorted runs
 * ====================================================================== */

typedef struct {
    PyObject *ids;     /* list[str] */
    Py_buffer order;   /* uint64 positions in id order */
    Py_buffer blob;    /* canonical bytes, back to back */
    Py_buffer ends;    /* uint64 end offset of each */
    Py_ssize_t next;   /* next position in order */
    Py_ssize_t count;
    /* the ids' code points, taken while holding the GIL so that the merge can run
       without it: data, length and kind of ids[j] */
    const void **id_data;
    Py_ssize_t *id_len;
    int *id_kind;
} SortedRun;

/* Feed update() the n bytes at data, without copying them: update must not keep the
   buffer (hashlib's does not). */
static int
feed(PyObject *update, char *data, Py_ssize_t n)
{
    PyObject *chunk = PyMemoryView_FromMemory(data, n, PyBUF_READ), *res;
    if (chunk == NULL) {
        return -1;
    }
    res = PyObject_CallOneArg(update, chunk);
    Py_DECREF(chunk);
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

static int
get_u64_buffer(PyObject *obj, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->itemsize != 8 || view->format == NULL
        || (strcmp(view->format, "Q") != 0 && strcmp(view->format, "L") != 0)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "expected an array of unsigned 64-bit integers");
        return -1;
    }
    return 0;
}

/* Compare two ids by code point, as PyUnicode_Compare would (no GIL needed). */
static int
compare_ids(const void *a, Py_ssize_t alen, int akind, const void *b, Py_ssize_t blen,
            int bkind)
{
    Py_ssize_t n = alen < blen ? alen : blen, i;
    if (akind == PyUnicode_1BYTE_KIND && bkind == PyUnicode_1BYTE_KIND) {
        int c = memcmp(a, b, (size_t)n);
        if (c != 0) {
            return c < 0 ? -1 : 1;
        }
    }
    else {
        for (i = 0; i < n; i++) {
            Py_UCS4 x = PyUnicode_READ(akind, a, i), y = PyUnicode_READ(bkind, b, i);
            if (x != y) {
                return x < y ? -1 : 1;
            }
        }
    }
    return alen < blen ? -1 : (alen > blen ? 1 : 0);
}

/* The state of one checksum_runs merge, filled chunk by chunk. */
typedef struct {
    SortedRun *runs;
    Py_ssize_t nruns;
    Py_ssize_t written; /* items written so far */
    const char *pending; /* the rest of the item being copied */
    Py_ssize_t pending_len;
    int opened, closed;
} Merge;

/* Fill scratch[0:cap] with the next bytes of "[" + ",".join(items) + "]"; returns how
   many (less than cap only at the end). Touches no Python object: runs without the GIL. */
static Py_ssize_t
merge_fill(Merge *m, char *scratch, Py_ssize_t cap)
{
    Py_ssize_t fill = 0;
    if (!m->opened) {
        scratch[fill++] = '[';
        m->opened = 1;
    }
    while (fill < cap) {
        Py_ssize_t i, best = -1, take;
        if (m->pending_len > 0) {
            take = m->pending_len < cap - fill ? m->pending_len : cap - fill;
            memcpy(scratch + fill, m->pending, (size_t)take);
            fill += take;
            m->pending += take;
            m->pending_len -= take;
            continue;
        }
        for (i = 0; i < m->nruns; i++) {
            SortedRun *r = &m->runs[i], *b;
            if (r->next >= r->count) {
                continue;
            }
            if (best >= 0) {
                b = &m->runs[best];
                if (compare_ids(r->id_data[r->next], r->id_len[r->next], r->id_kind[r->next],
                                b->id_data[b->next], b->id_len[b->next], b->id_kind[b->next])
                    >= 0) {
                    continue;
                }
            }
            best = i;
        }
        if (best < 0) {
            if (!m->closed) {
                scratch[fill++] = ']';
                m->closed = 1;
            }
            break;
        }
        if (m->written++) {
            scratch[fill++] = ',';
        }
        {
            SortedRun *r = &m->runs[best];
            uint64_t k = ((const uint64_t *)r->order.buf)[r->next++];
            const uint64_t *ends = (const uint64_t *)r->ends.buf;
            Py_ssize_t lo = (Py_ssize_t)(k ? ends[k - 1] : 0);
            m->pending = (const char *)r->blob.buf + lo;
            m->pending_len = (Py_ssize_t)ends[k] - lo;
        }
    }
    return fill;
}

/* checksum_runs(runs, update): feed update() the bytes "[" + ",".join(items) + "]", the
   items being the canonical bytes of every run merged by id (stable: on equal ids the
   earlier run first), as heapq.merge over each run's id order would give them. The merge
   runs without the GIL, a few megabytes at a time, so that it and the hashing (hashlib
   releases the GIL too) can go on beside other threads. */
static PyObject *
py_checksum_runs(PyObject *module, PyObject *args)
{
    PyObject *runs_arg, *update, *result = NULL;
    SortedRun *runs = NULL;
    Merge m;
    Py_ssize_t nruns, i, got = 0, fill;
    const Py_ssize_t CHUNK = 1 << 24;
    char *scratch = NULL;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O:checksum_runs", &PyList_Type, &runs_arg, &update)) {
        return NULL;
    }
    nruns = PyList_GET_SIZE(runs_arg);
    runs = PyMem_Calloc((size_t)(nruns ? nruns : 1), sizeof(SortedRun));
    scratch = PyMem_Malloc((size_t)CHUNK + 2);
    if (runs == NULL || scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < nruns; i++) {
        PyObject *t = PyList_GET_ITEM(runs_arg, i);
        SortedRun *r = &runs[i];
        Py_ssize_t j;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4
            || !PyList_CheckExact(PyTuple_GET_ITEM(t, 0))) {
            PyErr_SetString(PyExc_TypeError, "each run is (ids, order, blob, ends)");
            goto done;
        }
        r->ids = PyTuple_GET_ITEM(t, 0);
        if (get_u64_buffer(PyTuple_GET_ITEM(t, 1), &r->order) < 0) {
            goto done;
        }
        got = i * 3 + 1;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(t, 2), &r->blob, PyBUF_SIMPLE) < 0) {
            goto done;
        }
        got = i * 3 + 2;
        if (get_u64_buffer(PyTuple_GET_ITEM(t, 3), &r->ends) < 0) {
            goto done;
        }
        got = i * 3 + 3;
        r->count = PyList_GET_SIZE(r->ids);
        if (r->order.len / 8 != r->count || r->ends.len / 8 != r->count) {
            PyErr_SetString(PyExc_ValueError, "a run's ids, order and ends differ in length");
            goto done;
        }
        {
            const uint64_t *ends = (const uint64_t *)r->ends.buf;
            const uint64_t *order = (const uint64_t *)r->order.buf;
            for (j = 0; j < r->count; j++) {
                if (order[j] >= (uint64_t)r->count || ends[j] > (uint64_t)r->blob.len
                    || (j && ends[j] < ends[j - 1])) {
                    PyErr_SetString(PyExc_ValueError, "a run's offsets are out of range");
                    goto done;
                }
            }
        }
        r->id_data = PyMem_Malloc((size_t)(r->count ? r->count : 1) * sizeof(void *));
        r->id_len = PyMem_Malloc((size_t)(r->count ? r->count : 1) * sizeof(Py_ssize_t));
        r->id_kind = PyMem_Malloc((size_t)(r->count ? r->count : 1) * sizeof(int));
        if (r->id_data == NULL || r->id_len == NULL || r->id_kind == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        /* In merge order, so the merge reads them front to back. The list holds the
           strings for as long as this call runs (the caller keeps it). */
        for (j = 0; j < r->count; j++) {
            PyObject *id = PyList_GET_ITEM(r->ids, ((const uint64_t *)r->order.buf)[j]);
            if (!PyUnicode_Check(id)) {
                PyErr_SetString(PyExc_TypeError, "ids must be str");
                goto done;
            }
            r->id_data[j] = PyUnicode_DATA(id);
            r->id_len[j] = PyUnicode_GET_LENGTH(id);
            r->id_kind[j] = PyUnicode_KIND(id);
        }
    }
    memset(&m, 0, sizeof(m));
    m.runs = runs;
    m.nruns = nruns;
    /* A run's ids are read by merge position (r->next), not by list position. */
    for (;;) {
        Py_BEGIN_ALLOW_THREADS
        fill = merge_fill(&m, scratch, CHUNK);
        Py_END_ALLOW_THREADS
        if (fill > 0 && feed(update, scratch, fill) < 0) {
            goto done;
        }
        if (m.closed) {
            break;
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (i = 0; i < got; i++) {
        SortedRun *r = &runs[i / 3];
        Py_buffer *views[3] = {&r->order, &r->blob, &r->ends};
        PyBuffer_Release(views[i % 3]);
    }
    for (i = 0; runs != NULL && i < nruns; i++) {
        PyMem_Free(runs[i].id_data);
        PyMem_Free(runs[i].id_len);
        PyMem_Free(runs[i].id_kind);
    }
    PyMem_Free(runs);
    PyMem_Free(scratch);
    return result;
}

PyDoc_STRVAR(checksum_runs_doc,
"checksum_runs(runs, update, /) -> None\n--\n\n"
"Feed update() the PAM section 15.2 checksum input -- \"[\" + \",\".join(items) + \"]\" --\n"
"from runs of canonical bytes.  Each run is (ids, order, blob, ends): ids a list\n"
"of str, order (array 'Q') the positions in id order, blob the items back to\n"
"back, ends (array 'Q') the end offset of each.  Runs are merged by id; equal\n"
"ids keep the earlier run first.");

/* ======================================================================
 * Part 5: indexing the memory facts of a PAM memory-store
 * ====================================================================== */

/* index_facts(facts, cls, memories, by_conversation, with_ref) -> list[int]

   For each 7-tuple in facts (position, id, status, superseded_by, conversation_ref,
   embedding_ref, platform): when memories has no entry for its id, memories[id] =
   cls(*fact) and, if its conversation_ref is set, by_conversation[ref].append(id) and
   with_ref.append(that object).  Returns the indices in facts of the others (ids seen
   before).  cls is a namedtuple class of 7 fields. */
static PyObject *
py_index_facts(PyObject *module, PyObject *args)
{
    PyObject *facts, *memories, *by_conv, *with_ref, *dups;
    PyTypeObject *cls;
    Py_ssize_t i, n;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!:index_facts", &PyList_Type, &facts, &PyType_Type,
                          &cls, &PyDict_Type, &memories, &PyDict_Type, &by_conv, &PyList_Type,
                          &with_ref)) {
        return NULL;
    }
    if (!PyType_IsSubtype(cls, &PyTuple_Type) || cls->tp_alloc == NULL) {
        PyErr_SetString(PyExc_TypeError, "index_facts(): cls must be a tuple subclass");
        return NULL;
    }
    dups = PyList_New(0);
    if (dups == NULL) {
        return NULL;
    }
    n = PyList_GET_SIZE(facts);
    for (i = 0; i < n; i++) {
        PyObject *t = PyList_GET_ITEM(facts, i), *id, *ref, *obj, *group;
        Py_ssize_t j;
        int present;
        if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != 7) {
            PyErr_SetString(PyExc_TypeError, "index_facts(): each fact is a 7-tuple");
            goto fail;
        }
        id = PyTuple_GET_ITEM(t, 1);
        present = PyDict_Contains(memories, id);
        if (present < 0) {
            goto fail;
        }
        if (present) {
            PyObject *num = PyLong_FromSsize_t(i);
            if (num == NULL || PyList_Append(dups, num) < 0) {
                Py_XDECREF(num);
                goto fail;
            }
            Py_DECREF(num);
            continue;
        }
        obj = cls->tp_alloc(cls, 7);
        if (obj == NULL) {
            goto fail;
        }
        for (j = 0; j < 7; j++) {
            PyObject *item = PyTuple_GET_ITEM(t, j);
            Py_INCREF(item);
            PyTuple_SET_ITEM(obj, j, item);
        }
        if (PyDict_SetItem(memories, id, obj) < 0) {
            Py_DECREF(obj);
            goto fail;
        }
        ref = PyTuple_GET_ITEM(t, 4);
        if (ref != Py_None) {
            group = PyDict_GetItemWithError(by_conv, ref);
            if (group == NULL) {
                if (PyErr_Occurred()) {
                    Py_DECREF(obj);
                    goto fail;
                }
                group = PyList_New(0);
                if (group == NULL || PyDict_SetItem(by_conv, ref, group) < 0) {
                    Py_XDECREF(group);
                    Py_DECREF(obj);
                    goto fail;
                }
                Py_DECREF(group); /* the dict holds it */
            }
            if (PyList_Append(group, id) < 0 || PyList_Append(with_ref, obj) < 0) {
                Py_DECREF(obj);
                goto fail;
            }
        }
        Py_DECREF(obj);
    }
    return dups;
fail:
    Py_DECREF(dups);
    return NULL;
}

PyDoc_STRVAR(index_facts_doc,
"index_facts(facts, cls, memories, by_conversation, with_ref, /) -> list[int]\n--\n\n"
"Index memory facts (7-tuples) by id: memories[id] = cls(*fact) for the first\n"
"fact of each id, grouping ids by conversation_ref (item 4) in by_conversation\n"
"and listing those facts in with_ref.  Returns the indices of repeated ids.");

static PyMethodDef speedups_methods[] = {
    {"jcs_dumps", (PyCFunction)(void (*)(void))jcs_dumps, METH_FASTCALL | METH_KEYWORDS,
     jcs_dumps_doc},
    {"value_end", (PyCFunction)py_value_end, METH_VARARGS, value_end_doc},
    {"member_count", (PyCFunction)py_member_count, METH_O, member_count_doc},
    {"object_members", (PyCFunction)(void (*)(void))py_object_members,
     METH_VARARGS | METH_KEYWORDS, object_members_doc},
    {"array_items", (PyCFunction)(void (*)(void))py_array_items, METH_VARARGS | METH_KEYWORDS,
     array_items_doc},
    {"memory_run", (PyCFunction)(void (*)(void))py_memory_run, METH_FASTCALL, memory_run_doc},
    {"checksum_runs", (PyCFunction)py_checksum_runs, METH_VARARGS, checksum_runs_doc},
    {"index_facts", (PyCFunction)py_index_facts, METH_VARARGS, index_facts_doc},
    {"nesting_scan", (PyCFunction)py_nesting_scan, METH_VARARGS, nesting_scan_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    "memvault._speedups",
    "C accelerators: RFC 8785 serialization and a structural JSON span scanner.",
    -1,
    speedups_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    init_tables();
    if (init_keys() < 0) {
        return NULL;
    }
    return PyModule_Create(&speedups_module);
}
