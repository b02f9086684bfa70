/*
 * memvault._memory_schema: a conservative C check of PAM memory objects against the
 * project's memory-store schema ($defs/Memory in formats/pam/schemas/memory-store.schema.json).
 *
 *   unclear(memories) -> list[int]
 *
 * For each item of the list, decide whether it certainly satisfies the schema. The indices
 * of the others are returned, and the caller validates those with the full JSON Schema
 * validator (jsonschema-rs), which is the reference and produces every finding. "Certainly"
 * is deliberately narrow: anything unusual (a str subclass, a non-ASCII date, a leap second,
 * lower-case 't', more than 16 tags ...) is left to the reference, so a memory this code
 * clears is always one the reference accepts; tests/test_memory_schema_fast.py holds the two
 * to that with generated and mutated memories.
 *
 * Why it exists: validating a 100,000-memory store spends a fifth of its time in the schema
 * check of memories that are nearly all valid, and this check costs a fraction of that.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* -- small predicates -------------------------------------------------------------------- */

/* A name and its length, in lists ended by {NULL, 0}. */
typedef struct {
    const char *s;
    Py_ssize_t n;
} Name;
#define N(text) {text, sizeof(text) - 1}

/* An exact str with only ASCII characters: its bytes and length. */
static int
ascii_str(PyObject *o, const char **s, Py_ssize_t *n)
{
    if (!PyUnicode_CheckExact(o) || !PyUnicode_IS_ASCII(o)) {
        return 0;
    }
    *s = (const char *)PyUnicode_1BYTE_DATA(o);
    *n = PyUnicode_GET_LENGTH(o);
    return 1;
}

static int
nonempty_str(PyObject *o)
{
    return PyUnicode_CheckExact(o) && PyUnicode_GET_LENGTH(o) > 0;
}

static int
str_or_null(PyObject *o)
{
    return o == Py_None || PyUnicode_CheckExact(o);
}

/* o is an exact str equal to one of names (a NULL-terminated list). */
static int
in_enum(PyObject *o, const Name *names)
{
    const char *s;
    Py_ssize_t n;
    if (!ascii_str(o, &s, &n)) {
        return 0;
    }
    for (; names->s != NULL; names++) {
        if (names->n == n && memcmp(names->s, s, (size_t)n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* A key of a memory object, as an index into names, or -1 when it is none of them. */
static int
key_index(PyObject *key, const Name *names)
{
    const char *s;
    Py_ssize_t n;
    int i;
    if (!ascii_str(key, &s, &n)) {
        return -1;
    }
    for (i = 0; names[i].s != NULL; i++) {
        if (names[i].n == n && memcmp(names[i].s, s, (size_t)n) == 0) {
            return i;
        }
    }
    return -1;
}

static int
digits(const char *s, int n, int *value)
{
    int v = 0, i;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
        v = v * 10 + (s[i] - '0');
    }
    *value = v;
    return 1;
}

/* RFC 3339 date-time in its most common spelling only:
   YYYY-MM-DDTHH:MM:SS[.F{1,9}](Z|+HH:MM|-HH:MM), a real calendar date, seconds 00-59. */
static int
date_time_ok(PyObject *o)
{
    static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const char *s;
    Py_ssize_t n, i;
    int year, month, day, hour, minute, second, oh, om, last;
    if (!ascii_str(o, &s, &n) || n < 20) {
        return 0;
    }
    if (!digits(s, 4, &year) || s[4] != '-' || !digits(s + 5, 2, &month) || s[7] != '-'
        || !digits(s + 8, 2, &day) || s[10] != 'T' || !digits(s + 11, 2, &hour)
        || s[13] != ':' || !digits(s + 14, 2, &minute) || s[16] != ':'
        || !digits(s + 17, 2, &second)) {
        return 0;
    }
    if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59
        || second > 59) {
        return 0;
    }
    last = month_days[month - 1];
    if (month == 2 && ((year % 4 == 0 && year % 100 != 0) || year % 400 == 0)) {
        last = 29;
    }
    if (day > last) {
        return 0;
    }
    i = 19;
    if (s[i] == '.') {
        Py_ssize_t start = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
        }
        if (i == start || i - start > 9) {
            return 0;
        }
    }
    if (i == n - 1 && s[i] == 'Z') {
        return 1;
    }
    if (i == n - 6 && (s[i] == '+' || s[i] == '-') && digits(s + i + 1, 2, &oh)
        && s[i + 3] == ':' && digits(s + i + 4, 2, &om)) {
        return oh <= 23 && om <= 59;
    }
    return 0;
}

static int
date_time_or_null_ok(PyObject *o)
{
    return o == Py_None || date_time_ok(o);
}

/* A number (not a bool) in [0, 1]. */
static int
score_ok(PyObject *o)
{
    if (PyFloat_CheckExact(o)) {
        double v = PyFloat_AS_DOUBLE(o);
        return v >= 0.0 && v <= 1.0;
    }
    if (PyLong_CheckExact(o)) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(o, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return !overflow && (v == 0 || v == 1);
    }
    return 0;
}

static int
lower_digit(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ^[a-z0-9_-]{2,32}$ */
static int
platform_id_ok(PyObject *o)
{
    const char *s;
    Py_ssize_t n, i;
    if (!ascii_str(o, &s, &n) || n < 2 || n > 32) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (!lower_digit(s[i]) && s[i] != '_' && s[i] != '-') {
            return 0;
        }
    }
    return 1;
}

/* ^[a-z0-9][a-z0-9_-]*$ */
static int
tag_ok(PyObject *o)
{
    const char *s;
    Py_ssize_t n, i;
    if (!ascii_str(o, &s, &n) || n < 1 || !lower_digit(s[0])) {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if (!lower_digit(s[i]) && s[i] != '_' && s[i] != '-') {
            return 0;
        }
    }
    return 1;
}

/* ^sha256:[a-f0-9]{64}$ */
static int
content_hash_ok(PyObject *o)
{
    const char *s;
    Py_ssize_t n, i;
    if (!ascii_str(o, &s, &n) || n != 71 || memcmp(s, "sha256:", 7) != 0) {
        return 0;
    }
    for (i = 7; i < n; i++) {
        if (!((s[i] >= 'a' && s[i] <= 'f') || (s[i] >= '0' && s[i] <= '9'))) {
            return 0;
        }
    }
    return 1;
}

static int
alnum_(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || c == '_' || c == '-';
}

/* null, or ^[a-zA-Z0-9_-]+/[0-9]+\.[0-9]+\.[0-9]+$ */
static int
system_version_or_null_ok(PyObject *o)
{
    const char *s;
    Py_ssize_t n, i = 0;
    int part;
    if (o == Py_None) {
        return 1;
    }
    if (!ascii_str(o, &s, &n)) {
        return 0;
    }
    while (i < n && alnum_(s[i])) {
        i++;
    }
    if (i == 0 || i >= n || s[i] != '/') {
        return 0;
    }
    i++;
    for (part = 0; part < 3; part++) {
        Py_ssize_t start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
        }
        if (i == start) {
            return 0;
        }
        if (part < 2) {
            if (i >= n || s[i] != '.') {
                return 0;
            }
            i++;
        }
    }
    return i == n;
}

/* null, or ^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$ */
static int
language_or_null_ok(PyObject *o)
{
    const char *s;
    Py_ssize_t n, i = 0;
    if (o == Py_None) {
        return 1;
    }
    if (!ascii_str(o, &s, &n)) {
        return 0;
    }
    while (i < n && s[i] >= 'a' && s[i] <= 'z') {
        i++;
    }
    if (i < 2 || i > 3) {
        return 0;
    }
    if (n - i >= 5 && s[i] == '-' && s[i + 1] >= 'A' && s[i + 1] <= 'Z' && s[i + 2] >= 'a'
        && s[i + 2] <= 'z' && s[i + 3] >= 'a' && s[i + 3] <= 'z' && s[i + 4] >= 'a'
        && s[i + 4] <= 'z') {
        i += 5;
    }
    if (n - i == 3 && s[i] == '-' && s[i + 1] >= 'A' && s[i + 1] <= 'Z' && s[i + 2] >= 'A'
        && s[i + 2] <= 'Z') {
        i += 3;
    }
    return i == n;
}

/* A list of at most MAX_UNIQUE items, all exact str, pairwise different. */
#define MAX_UNIQUE 16

static int
unique_strs(PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list), i, j;
    if (n > MAX_UNIQUE) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            int c = PyUnicode_Compare(PyList_GET_ITEM(list, i), PyList_GET_ITEM(list, j));
            if (c == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
            if (c == 0) {
                return 0;
            }
        }
    }
    return 1;
}

/* -- the objects --------------------------------------------------------------------------- */

static const Name MEMORY_TYPES[] = {
    N("fact"), N("preference"), N("skill"), N("context"), N("relationship"), N("goal"),
    N("instruction"), N("identity"), N("environment"), N("project"), N("custom"), {NULL, 0}
};
static const Name STATUSES[] = {
    N("active"), N("superseded"), N("deprecated"), N("retracted"), N("archived"), {NULL, 0}
};
static const Name DECAY_MODELS[] = {
    N("time_linear"), N("time_exponential"), N("none"), {NULL, 0}
};
static const Name METHODS[] = {
    N("llm_inference"), N("explicit_user_input"), N("api_export"), N("browser_extraction"),
    N("manual"), {NULL, 0}
};
static const Name VISIBILITIES[] = {N("private"), N("shared"), N("public"), {NULL, 0}};
static const Name PERMISSIONS[] = {N("read"), N("write"), N("delete"), {NULL, 0}};

static const Name CONFIDENCE_KEYS[] = {
    N("initial"), N("current"), N("decay_model"), N("last_reinforced"), {NULL, 0}
};

static int
confidence_ok(PyObject *o)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        switch (key_index(key, CONFIDENCE_KEYS)) {
        case 0:
        case 1:
            if (!score_ok(value)) {
                return 0;
            }
            break;
        case 2:
            if (value != Py_None && !in_enum(value, DECAY_MODELS)) {
                return 0;
            }
            break;
        case 3:
            if (!date_time_or_null_ok(value)) {
                return 0;
            }
            break;
        default:
            return 0;
        }
    }
    return 1;
}

static const Name TEMPORAL_KEYS[] = {
    N("created_at"), N("updated_at"), N("valid_from"), N("valid_until"), N("superseded_by"),
    {NULL, 0}
};

static int
temporal_ok(PyObject *o)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    int created = 0;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        switch (key_index(key, TEMPORAL_KEYS)) {
        case 0:
            if (!date_time_ok(value)) {
                return 0;
            }
            created = 1;
            break;
        case 1:
        case 2:
        case 3:
            if (!date_time_or_null_ok(value)) {
                return 0;
            }
            break;
        case 4:
            if (!str_or_null(value)) {
                return 0;
            }
            break;
        default:
            return 0;
        }
    }
    return created;
}

static const Name PROVENANCE_KEYS[] = {
    N("platform"), N("platform_user_id"), N("conversation_ref"), N("message_ref"),
    N("extraction_method"), N("extracted_at"), N("extractor"), {NULL, 0}
};

static int
provenance_ok(PyObject *o)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    int platform = 0;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        switch (key_index(key, PROVENANCE_KEYS)) {
        case 0:
            if (!platform_id_ok(value)) {
                return 0;
            }
            platform = 1;
            break;
        case 1:
        case 2:
        case 3:
            if (!str_or_null(value)) {
                return 0;
            }
            break;
        case 4:
            if (value != Py_None && !in_enum(value, METHODS)) {
                return 0;
            }
            break;
        case 5:
            if (!date_time_or_null_ok(value)) {
                return 0;
            }
            break;
        case 6:
            if (!system_version_or_null_ok(value)) {
                return 0;
            }
            break;
        default:
            return 0;
        }
    }
    return platform;
}

static const Name GRANT_KEYS[] = {N("entity"), N("permissions"), {NULL, 0}};

static int
access_grant_ok(PyObject *o)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0, i;
    int entity = 0, permissions = 0;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        switch (key_index(key, GRANT_KEYS)) {
        case 0:
            if (!nonempty_str(value)) {
                return 0;
            }
            entity = 1;
            break;
        case 1:
            if (!PyList_CheckExact(value) || PyList_GET_SIZE(value) < 1) {
                return 0;
            }
            for (i = 0; i < PyList_GET_SIZE(value); i++) {
                if (!in_enum(PyList_GET_ITEM(value, i), PERMISSIONS)) {
                    return 0;
                }
            }
            if (!unique_strs(value)) {
                return 0;
            }
            permissions = 1;
            break;
        default:
            return 0;
        }
    }
    return entity && permissions;
}

static const Name ACCESS_KEYS[] = {
    N("visibility"), N("exportable"), N("shared_with"), {NULL, 0}
};

static int
access_ok(PyObject *o)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0, i;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        switch (key_index(key, ACCESS_KEYS)) {
        case 0:
            if (!in_enum(value, VISIBILITIES)) {
                return 0;
            }
            break;
        case 1:
            if (!PyBool_Check(value)) {
                return 0;
            }
            break;
        case 2:
            if (!PyList_CheckExact(value)) {
                return 0;
            }
            for (i = 0; i < PyList_GET_SIZE(value); i++) {
                if (!access_grant_ok(PyList_GET_ITEM(value, i))) {
                    return 0;
                }
            }
            break;
        default:
            return 0;
        }
    }
    return 1;
}

static const Name METADATA_KEYS[] = {N("language"), N("domain"), {NULL, 0}};

/* Metadata allows any other member; only language and domain are constrained. */
static int
metadata_ok(PyObject *o)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) {
            return 0;
        }
        switch (key_index(key, METADATA_KEYS)) {
        case 0:
            if (!language_or_null_ok(value)) {
                return 0;
            }
            break;
        case 1:
            if (!str_or_null(value)) {
                return 0;
            }
            break;
        default:
            break;
        }
    }
    return 1;
}

static int
tags_ok(PyObject *o)
{
    Py_ssize_t i;
    if (!PyList_CheckExact(o)) {
        return 0;
    }
    for (i = 0; i < PyList_GET_SIZE(o); i++) {
        if (!tag_ok(PyList_GET_ITEM(o, i))) {
            return 0;
        }
    }
    return unique_strs(o);
}

enum {
    M_ID, M_TYPE, M_CUSTOM_TYPE, M_STATUS, M_CONTENT, M_CONTENT_HASH, M_SUMMARY, M_TAGS,
    M_CONFIDENCE, M_TEMPORAL, M_PROVENANCE, M_ACCESS, M_EMBEDDING_REF, M_METADATA
};
static const Name MEMORY_KEYS[] = {
    N("id"), N("type"), N("custom_type"), N("status"), N("content"), N("content_hash"),
    N("summary"), N("tags"), N("confidence"), N("temporal"), N("provenance"), N("access"),
    N("embedding_ref"), N("metadata"), {NULL, 0}
};

static int
memory_ok(PyObject *o)
{
    PyObject *key, *value, *type = NULL, *custom_type = NULL;
    Py_ssize_t pos = 0;
    int seen = 0, ok;
    if (!PyDict_CheckExact(o)) {
        return 0;
    }
    while (PyDict_Next(o, &pos, &key, &value)) {
        int k = key_index(key, MEMORY_KEYS);
        switch (k) {
        case M_ID:
        case M_CONTENT:
            ok = nonempty_str(value);
            break;
        case M_TYPE:
            ok = in_enum(value, MEMORY_TYPES);
            type = value;
            break;
        case M_CUSTOM_TYPE:
            ok = 1; /* checked below, against type */
            custom_type = value;
            break;
        case M_STATUS:
            ok = in_enum(value, STATUSES);
            break;
        case M_CONTENT_HASH:
            ok = content_hash_ok(value);
            break;
        case M_SUMMARY:
        case M_EMBEDDING_REF:
            ok = str_or_null(value);
            break;
        case M_TAGS:
            ok = tags_ok(value);
            break;
        case M_CONFIDENCE:
            ok = confidence_ok(value);
            break;
        case M_TEMPORAL:
            ok = temporal_ok(value);
            break;
        case M_PROVENANCE:
            ok = provenance_ok(value);
            break;
        case M_ACCESS:
            ok = access_ok(value);
            break;
        case M_METADATA:
            ok = metadata_ok(value);
            break;
        default:
            return 0;
        }
        if (!ok) {
            return 0;
        }
        seen |= 1 << k;
    }
    /* required: id, type, content, content_hash, temporal, provenance */
    if ((seen & ((1 << M_ID) | (1 << M_TYPE) | (1 << M_CONTENT) | (1 << M_CONTENT_HASH)
                 | (1 << M_TEMPORAL) | (1 << M_PROVENANCE)))
        != ((1 << M_ID) | (1 << M_TYPE) | (1 << M_CONTENT) | (1 << M_CONTENT_HASH)
            | (1 << M_TEMPORAL) | (1 << M_PROVENANCE))) {
        return 0;
    }
    /* §5.1: custom needs a non-empty custom_type; any other type a null or absent one */
    if (PyUnicode_CompareWithASCIIString(type, "custom") == 0) {
        return custom_type != NULL && nonempty_str(custom_type);
    }
    return custom_type == NULL || custom_type == Py_None;
}

/* -- the module ---------------------------------------------------------------------------- */

static PyObject *
py_unclear(PyObject *module, PyObject *list)
{
    PyObject *out;
    Py_ssize_t i;
    (void)module;
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "unclear() takes a list of memory objects");
        return NULL;
    }
    out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    for (i = 0; i < PyList_GET_SIZE(list); i++) {
        if (!memory_ok(PyList_GET_ITEM(list, i))) {
            PyObject *index = PyLong_FromSsize_t(i);
            if (index == NULL || PyList_Append(out, index) < 0) {
                Py_XDECREF(index);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(index);
        }
    }
    return out;
}

PyDoc_STRVAR(unclear_doc,
"unclear(memories, /) -> list[int]\n--\n\n"
"The indices of the items of memories (a list) that this check cannot clear as\n"
"certainly valid against the PAM memory schema; validate those with the full\n"
"JSON Schema validator.  Every other item is valid.");

static PyMethodDef memory_schema_methods[] = {
    {"unclear", (PyCFunction)py_unclear, METH_O, unclear_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef memory_schema_module = {
    PyModuleDef_HEAD_INIT,
    "memvault._memory_schema",
    "A conservative C check of PAM memory objects against the memory schema.",
    -1,
    memory_schema_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__memory_schema(void)
{
    return PyModule_Create(&memory_schema_module);
}
