/*
 * What both C parts of the ChatGPT importer write the same way: a message's
 * time as RFC 3339 text and a message's id as UUID text (`ids.stable_id`).
 *
 * Included by _chatgpt.c (which works on parsed Python objects) and
 * _chatgpt_direct.c (which works on the export's bytes); everything here is
 * static, so each module has its own copy.
 */
#ifndef MEMVAULT_CHATGPT_COMMON_H
#define MEMVAULT_CHATGPT_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Seconds of the latest time a ChatGPT timestamp may hold (year 3000), and a
   day more: `_epoch` refuses anything later. */
#define LAST_SECOND 32503766400.0
/* The latest time `_epoch` accepts (year 3000). */
#define LAST_EPOCH 32503680000.0
/* Room for "YYYY-MM-DDTHH:MM:SS.ffffffZ". */
#define ISO_SIZE 32
/* A UUID's text: 36 characters. */
#define UUID_SIZE 36

/* The civil date of a day counted from 1970-01-01 (proleptic Gregorian). */
static void
civil_date(long long day, long long *year, int *month, int *mday)
{
    long long z = day + 719468; /* days since 0000-03-01 */
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;                                  /* [0, 146096] */
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);           /* [0, 365] */
    long long mp = (5 * doy + 2) / 153;                                /* [0, 11], March first */
    *mday = (int)(doy - (153 * mp + 2) / 5 + 1);
    *month = (int)(mp < 10 ? mp + 3 : mp - 9);
    *year = yoe + era * 400 + (*month <= 2);
}

/* `value` in `width` decimal digits, zero-padded (0 <= value < 10^width). */
static void
put_digits(char *out, long long value, int width)
{
    for (int i = width - 1; i >= 0; i--) {
        out[i] = (char)('0' + value % 10);
        value /= 10;
    }
}

/* `epoch` (0 <= epoch < LAST_SECOND) as "YYYY-MM-DDTHH:MM:SS[.ffffff]Z" in
   `text` (ISO_SIZE bytes): its length, or -1 with ValueError set for any other
   value.  Microseconds are rounded half to even, as Python's round(). */
static Py_ssize_t
iso_text(double epoch, char *text)
{
    if (!(epoch >= 0.0 && epoch < LAST_SECOND)) {
        char shown[40];
        snprintf(shown, sizeof shown, "%.17g", epoch);
        PyErr_Format(PyExc_ValueError, "not a ChatGPT timestamp: %s", shown);
        return -1;
    }
    long long seconds = (long long)epoch;
    /* round() in Python: half to even, which is the default rounding mode. */
    long long micros = (long long)nearbyint((epoch - (double)seconds) * 1e6);
    if (micros >= 1000000) {
        seconds += 1;
        micros -= 1000000;
    }
    long long year;
    int month, mday;
    civil_date(seconds / 86400, &year, &month, &mday);
    long long rest = seconds % 86400;
    /* Written digit by digit: snprintf cost a tenth of the message loop. */
    put_digits(text, year, 4);
    text[4] = '-';
    put_digits(text + 5, month, 2);
    text[7] = '-';
    put_digits(text + 8, mday, 2);
    text[10] = 'T';
    put_digits(text + 11, rest / 3600, 2);
    text[13] = ':';
    put_digits(text + 14, rest / 60 % 60, 2);
    text[16] = ':';
    put_digits(text + 17, rest % 60, 2);
    Py_ssize_t size = 19;
    if (micros) {
        text[size++] = '.';
        put_digits(text + size, micros, 6);
        size += 6;
    }
    text[size++] = 'Z';
    return size;
}

/* The id text of a SHA-1 digest in `text` (UUID_SIZE bytes): its first 16 bytes,
   version 4, RFC 4122 variant (`ids.stable_id`: the UUID v5 hash in the v4 layout). */
static void
uuid_text(const unsigned char *digest, char *text)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char bytes[16];
    memcpy(bytes, digest, 16);
    bytes[6] = (unsigned char)((bytes[6] & 0x0f) | 0x40);
    bytes[8] = (unsigned char)((bytes[8] & 0x3f) | 0x80);
    int at = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            text[at++] = '-';
        text[at++] = hex[bytes[i] >> 4];
        text[at++] = hex[bytes[i] & 0x0f];
    }
}

/* Method names node_uuid calls (common_init). */
static PyObject *N_copy, *N_update, *N_digest;

static int
common_init(void)
{
    N_copy = PyUnicode_InternFromString("copy");
    N_update = PyUnicode_InternFromString("update");
    N_digest = PyUnicode_InternFromString("digest");
    return N_copy != NULL && N_update != NULL && N_digest != NULL ? 0 : -1;
}

/* A copy of the hashlib object `base` continued with `size` bytes: a new
   reference, or NULL with an exception set. */
static PyObject *
continued(PyObject *base, const char *bytes, Py_ssize_t size)
{
    PyObject *hash = PyObject_CallMethodNoArgs(base, N_copy);
    if (hash == NULL)
        return NULL;
    PyObject *data = PyBytes_FromStringAndSize(bytes, size);
    PyObject *done = data == NULL ? NULL : PyObject_CallMethodOneArg(hash, N_update, data);
    Py_XDECREF(data);
    if (done == NULL) {
        Py_DECREF(hash);
        return NULL;
    }
    Py_DECREF(done);
    return hash;
}

/* The id text (`uuid_text`) of hashlib object `hash`'s digest in `text`: 0, or -1
   with an exception set. */
static int
digest_uuid(PyObject *hash, char *text)
{
    PyObject *digest = PyObject_CallMethodNoArgs(hash, N_digest);
    if (digest == NULL)
        return -1;
    if (!PyBytes_Check(digest) || PyBytes_GET_SIZE(digest) < 16) {
        Py_DECREF(digest);
        PyErr_SetString(PyExc_TypeError, "the hash's digest must be 16 bytes or more");
        return -1;
    }
    uuid_text((const unsigned char *)PyBytes_AS_STRING(digest), text);
    Py_DECREF(digest);
    return 0;
}

/* "<prefix><length>:<name><suffix>" in `*scratch` (grown as needed; the
   caller frees it with PyMem_Free): its size, or -1 with MemoryError set.
   `length` is the name's length in code points, `size` in bytes. */
static Py_ssize_t
id_name(const char *prefix, const char *name, Py_ssize_t size, Py_ssize_t length,
        const char *suffix, char **scratch, Py_ssize_t *room)
{
    Py_ssize_t before = (Py_ssize_t)strlen(prefix), after = (Py_ssize_t)strlen(suffix);
    Py_ssize_t need = before + 24 + size + after;
    if (*room < need) {
        PyMem_Free(*scratch);
        *scratch = PyMem_Malloc(need);
        *room = *scratch == NULL ? 0 : need;
        if (*scratch == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    char *at = *scratch;
    memcpy(at, prefix, before);
    at += before;
    at += snprintf(at, 24, "%zd:", length);
    memcpy(at, name, size);
    at += size;
    memcpy(at, suffix, after);
    return at + after - *scratch;
}

/* The id of the message at node `utf8` (`size` bytes, `length` code points):
   the hashlib SHA-1 object `base` (the namespace and the name's shared prefix,
   `chatgpt._message_hash`) continued with "<length>:<node>", as id text
   in `text`.  0, or -1 with an exception set. */
static int
node_uuid(PyObject *base, const char *utf8, Py_ssize_t size, Py_ssize_t length,
          char **scratch, Py_ssize_t *room, char *text)
{
    Py_ssize_t used = id_name("", utf8, size, length, "", scratch, room);
    if (used < 0)
        return -1;
    PyObject *hash = continued(base, *scratch, used);
    if (hash == NULL)
        return -1;
    int status = digest_uuid(hash, text);
    Py_DECREF(hash);
    return status;
}

#endif
