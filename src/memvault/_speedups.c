/*
 * memvault._speedups -- the two hot loops of memvault, in C.
 *
 *   jcs_dumps(obj, count=False) -> bytes | (bytes, members)
 *       RFC 8785 (JSON Canonicalization Scheme) serialization.  Used for PAM
 *       integrity checksums (PAM v1.0 section 15) and signature payloads
 *       (section 18), where one byte of difference breaks verification.
 *       With count, also the number of object members written (all depths).
 *
 *   value_end(buf, pos) -> int
 *   object_members(buf, pos) -> (list[(key_start, key_end, value_start, value_end)], end)
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
        Py_ssize_t span[4];
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
        i = scan_value(S, i);
        if (i < 0) {
            return -1;
        }
        span[3] = i;
        if (add_spans(S, span, 4) < 0) {
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

static PyObject *
spans_result(Scanner *S, Py_ssize_t end, int k)
{
    Py_ssize_t count = S->nspans / k, i;
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
            PyObject *num = PyLong_FromSsize_t(S->spans[i * k + j]);
            if (num == NULL) {
                Py_DECREF(t);
                Py_DECREF(list);
                return NULL;
            }
            PyTuple_SET_ITEM(t, j, num);
        }
        PyList_SET_ITEM(list, i, t);
    }
    return Py_BuildValue("(Nn)", list, end);
}

static PyObject *
py_object_members(PyObject *module, PyObject *args)
{
    Scanner S;
    Py_ssize_t end;
    PyObject *res = NULL;
    (void)module;
    end = run_scan_args(args, &S, scan_object_members);
    if (end >= 0) {
        res = spans_result(&S, end, 4);
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
"object_members(buf, pos, /) -> (list[(key_start, key_end, value_start, value_end)], end)\n--\n\n"
"Byte spans of the members of the JSON object starting at pos; key spans\n"
"include the quotes.  end is the offset past the closing brace.");

PyDoc_STRVAR(array_items_doc,
"array_items(buf, pos, /, stats=False) -> (list[(start, end)], end)\n--\n\n"
"Byte spans of the items of the JSON array starting at pos; end is the\n"
"offset past the closing bracket.  With stats=True each item is\n"
"(start, end, members, depth): members counts the object members (':'\n"
"tokens outside strings, duplicate names included) anywhere inside the\n"
"item, depth is its deepest nesting (a scalar 0, {} or [] 1, {\"a\":[1]} 2).");

static PyMethodDef speedups_methods[] = {
    {"jcs_dumps", (PyCFunction)(void (*)(void))jcs_dumps, METH_FASTCALL | METH_KEYWORDS,
     jcs_dumps_doc},
    {"value_end", (PyCFunction)py_value_end, METH_VARARGS, value_end_doc},
    {"object_members", (PyCFunction)py_object_members, METH_VARARGS, object_members_doc},
    {"array_items", (PyCFunction)(void (*)(void))py_array_items, METH_VARARGS | METH_KEYWORDS,
     array_items_doc},
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
    return PyModule_Create(&speedups_module);
}
