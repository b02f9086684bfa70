/*
 * memvault.importers._chatgpt_direct -- a ChatGPT conversation converted from
 * the export's JSON bytes straight to the JSON bytes of its PAM document, with
 * no Python object built for what it holds.
 *
 *   convert(item, namespace, import_metadata, account, fallback[, rows_of])
 *       -> (document, provider_id, id, title, created_at, updated_at, messages[,
 *           passages]) | None
 *
 *   `item` is one element of conversations.json, as bytes.  `namespace` is a
 *   hashlib SHA-1 object holding memvault's id namespace, which the ids
 *   continue (`ids.stable_id`, `chatgpt._message_hash`).  `import_metadata` and
 *   `account` are the JSON of the import_metadata block (sorted keys) and of
 *   the account id.
 *
 *   `document` is byte for byte what `orjson.dumps(doc, option=OPT_SORT_KEYS)`
 *   makes of the document the importer's Python code (`_ConversationReader.
 *   convert`) builds from `orjson.loads(item)`; the tests hold the two equal.
 *   The rest are the index columns the vault keeps beside it.
 *
 *   A message of the common shape (a text message with one string part or
 *   none, a role PAM has, no attachments, citations or tool call, and JSON
 *   this code writes as orjson does) is written here.  Any other message is
 *   handed to `fallback(provider_id, node, holder, id, parent_id,
 *   children_ids, created_at, own_time_known, parent) -> (json, role,
 *   instructions)`: the importer's Python code converts the node (`holder`,
 *   its bytes) and gives its JSON, its role and what it adds to the
 *   conversation's system_instruction (memories it holds stay with the
 *   caller).  With `fallback` None such a conversation is declined.
 *
 *   With `rows_of`, `passages` is the JSON array of the conversation's recall
 *   passages, the rows `memvault.recall.index.message_rows` makes of the
 *   document (see put_rows), so the reader process need not parse the
 *   document again to cut them; `rows_of(message_json, title)` gives the rows
 *   of a message this code does not cut itself (JSON, without brackets).
 *
 *   None means "not here", and the caller converts the item in Python:
 *   invalid or unusual JSON (lone surrogates, numbers orjson refuses, escaped
 *   or repeated keys where the conversation and its graph are read), a graph
 *   `_Graph` must repair, conversation members the importer would warn about
 *   or overwrite.
 *
 * Converting in Python was most of an import's time: parsing, building,
 * serializing and freeing objects.  Here it is a pass over a token list.
 *
 * Plain CPython C API, C99.
 */
#include "_chatgpt_common.h"

#include <stdint.h>
#include <stdlib.h>

/* Results of the steps below: done, "not here" (the caller converts in
   Python), or an error with a Python exception set. */
#define OK 0
#define DECLINE 1
#define ERROR -1

/* Nesting deeper than this is left to Python. */
#define MAX_DEPTH 256
/* Tokens one item may have (40 bytes each): an item with more, a conversation of some
   20 MB or hostile input such as a long array of zeros, is left to Python, so that this
   code never holds more than 80 MB for one. */
#define MAX_TOKENS (1 << 21)
/* Integers with more digits are left to Python (orjson reads some as floats). */
#define MAX_INT_DIGITS 18

/* ----------------------------------------------------------------------
 * Tokens
 * ---------------------------------------------------------------------- */

enum { T_OBJ, T_ARR, T_STR, T_INT, T_FLOAT, T_TRUE, T_FALSE, T_NULL };

typedef struct {
    unsigned char type;
    unsigned char escaped; /* T_STR: holds a backslash escape */
    Py_ssize_t start;      /* T_STR: first byte after the quote; else: first byte */
    Py_ssize_t len;        /* T_STR: bytes before the closing quote; else: its bytes */
    Py_ssize_t count;      /* T_OBJ: members; T_ARR: items */
    Py_ssize_t end;        /* the token after this value and everything in it */
} Tok;

typedef struct {
    const unsigned char *s;
    Py_ssize_t n, pos;
    Tok *toks;
    Py_ssize_t ntoks, cap;
    int depth;
} Parser;

/* A new token's index; -2 past MAX_TOKENS, -1 with MemoryError set. */
static Py_ssize_t
new_tok(Parser *p, int type)
{
    if (p->ntoks == MAX_TOKENS)
        return -2;
    if (p->ntoks == p->cap) {
        Py_ssize_t cap = p->cap ? p->cap * 2 : 1024;
        Tok *grown = PyMem_Realloc(p->toks, cap * sizeof(Tok));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        p->toks = grown;
        p->cap = cap;
    }
    Tok *t = &p->toks[p->ntoks];
    memset(t, 0, sizeof *t);
    t->type = (unsigned char)type;
    return p->ntoks++;
}

static void
skip_ws(Parser *p)
{
    while (p->pos < p->n) {
        unsigned char c = p->s[p->pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return;
        p->pos++;
    }
}

static int
hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The four hex digits at s[at]: the code unit, or -1. */
static long
hex4(const unsigned char *s, Py_ssize_t at, Py_ssize_t n)
{
    if (at + 4 > n)
        return -1;
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = hex_value(s[at + i]);
        if (digit < 0)
            return -1;
        value = value * 16 + digit;
    }
    return value;
}

/* The length of the well-formed UTF-8 sequence (RFC 3629) of two or more
   bytes at s[at], or 0. */
static int
utf8_sequence(const unsigned char *s, Py_ssize_t at, Py_ssize_t n)
{
    unsigned char c = s[at];
    int size;
    unsigned char low = 0x80, high = 0xBF; /* the second byte's range */
    if (c >= 0xC2 && c <= 0xDF)
        size = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        size = 3;
        if (c == 0xE0)
            low = 0xA0;
        else if (c == 0xED)
            high = 0x9F; /* no surrogates */
    }
    else if (c >= 0xF0 && c <= 0xF4) {
        size = 4;
        if (c == 0xF0)
            low = 0x90;
        else if (c == 0xF4)
            high = 0x8F;
    }
    else
        return 0;
    if (at + size > n || s[at + 1] < low || s[at + 1] > high)
        return 0;
    for (int i = 2; i < size; i++)
        if ((s[at + i] & 0xC0) != 0x80)
            return 0;
    return size;
}

/* Whether any of the 8 bytes in `v` is a control character, a quote, a
   backslash or not ASCII (never wrong when it says no). */
static inline int
special8(uint64_t v)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = v ^ (ones * '"'), backslash = v ^ (ones * '\\');
    uint64_t found = (v - ones * 0x20) | (quote - ones) | (backslash - ones);
    return ((found & ~v) | v) & highs ? 1 : 0;
}

/* A string at p->pos (its opening quote). */
static int
parse_string(Parser *p)
{
    Py_ssize_t index = new_tok(p, T_STR);
    if (index < 0)
        return index == -2 ? DECLINE : ERROR;
    const unsigned char *s = p->s;
    Py_ssize_t n = p->n, pos = p->pos + 1;
    int escaped = 0;
    p->toks[index].start = pos;
    for (;;) {
        uint64_t word;
        while (pos + 8 <= n && (memcpy(&word, s + pos, 8), !special8(word)))
            pos += 8;
        while (pos < n && s[pos] >= 0x20 && s[pos] < 0x80 && s[pos] != '"' && s[pos] != '\\')
            pos++;
        if (pos >= n)
            return DECLINE;
        unsigned char c = s[pos];
        if (c == '"')
            break;
        if (c < 0x20)
            return DECLINE;
        if (c == '\\') {
            escaped = 1;
            if (pos + 1 >= n)
                return DECLINE;
            unsigned char e = s[pos + 1];
            if (e == 'u') {
                long unit = hex4(s, pos + 2, n);
                if (unit < 0)
                    return DECLINE;
                pos += 6;
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    /* A high surrogate must be followed by a low one. */
                    if (pos + 1 >= n || s[pos] != '\\' || s[pos + 1] != 'u')
                        return DECLINE;
                    long low = hex4(s, pos + 2, n);
                    if (low < 0xDC00 || low > 0xDFFF)
                        return DECLINE;
                    pos += 6;
                }
                else if (unit >= 0xDC00 && unit <= 0xDFFF)
                    return DECLINE;
            }
            else if (strchr("\"\\/bfnrt", e) != NULL && e != '\0')
                pos += 2;
            else
                return DECLINE;
            continue;
        }
        int size = utf8_sequence(s, pos, n);
        if (size == 0)
            return DECLINE;
        pos += size;
    }
    p->toks[index].len = pos - p->toks[index].start;
    p->toks[index].escaped = (unsigned char)escaped;
    p->toks[index].end = p->ntoks;
    p->pos = pos + 1;
    return OK;
}

static int
parse_number(Parser *p)
{
    const unsigned char *s = p->s;
    Py_ssize_t n = p->n, pos = p->pos;
    int is_float = 0, exponent = 0;
    if (s[pos] == '-')
        pos++;
    if (pos >= n)
        return DECLINE;
    if (s[pos] == '0')
        pos++;
    else if (s[pos] >= '1' && s[pos] <= '9')
        while (pos < n && s[pos] >= '0' && s[pos] <= '9')
            pos++;
    else
        return DECLINE;
    if (pos < n && s[pos] == '.') {
        is_float = 1;
        pos++;
        if (pos >= n || s[pos] < '0' || s[pos] > '9')
            return DECLINE;
        while (pos < n && s[pos] >= '0' && s[pos] <= '9')
            pos++;
    }
    if (pos < n && (s[pos] == 'e' || s[pos] == 'E')) {
        is_float = exponent = 1;
        pos++;
        if (pos < n && (s[pos] == '+' || s[pos] == '-'))
            pos++;
        if (pos >= n || s[pos] < '0' || s[pos] > '9')
            return DECLINE;
        while (pos < n && s[pos] >= '0' && s[pos] <= '9')
            pos++;
    }
    if (exponent || pos - p->pos > 300) {
        /* orjson refuses a number that reads as infinity; so does this. */
        char copy[64];
        Py_ssize_t size = pos - p->pos;
        if (size >= (Py_ssize_t)sizeof copy)
            return DECLINE;
        memcpy(copy, s + p->pos, size);
        copy[size] = '\0';
        double value = PyOS_string_to_double(copy, NULL, NULL);
        if (value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return DECLINE;
        }
        if (!isfinite(value))
            return DECLINE;
    }
    Py_ssize_t index = new_tok(p, is_float ? T_FLOAT : T_INT);
    if (index < 0)
        return index == -2 ? DECLINE : ERROR;
    p->toks[index].start = p->pos;
    p->toks[index].len = pos - p->pos;
    p->toks[index].end = p->ntoks;
    p->pos = pos;
    return OK;
}

static int
parse_literal(Parser *p, const char *word, int type)
{
    Py_ssize_t size = (Py_ssize_t)strlen(word);
    if (p->pos + size > p->n || memcmp(p->s + p->pos, word, size) != 0)
        return DECLINE;
    Py_ssize_t index = new_tok(p, type);
    if (index < 0)
        return index == -2 ? DECLINE : ERROR;
    p->toks[index].end = p->ntoks;
    p->pos += size;
    return OK;
}

static int parse_value(Parser *p);

/* An object or an array at p->pos. */
static int
parse_container(Parser *p, int type)
{
    Py_ssize_t index = new_tok(p, type);
    if (index < 0)
        return index == -2 ? DECLINE : ERROR;
    if (++p->depth > MAX_DEPTH)
        return DECLINE;
    unsigned char close = type == T_OBJ ? '}' : ']';
    Py_ssize_t count = 0;
    p->toks[index].start = p->pos;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->n && p->s[p->pos] == close)
        p->pos++;
    else {
        for (;;) {
            int status;
            if (type == T_OBJ) {
                skip_ws(p);
                if (p->pos >= p->n || p->s[p->pos] != '"')
                    return DECLINE;
                if ((status = parse_string(p)) != OK)
                    return status;
                skip_ws(p);
                if (p->pos >= p->n || p->s[p->pos] != ':')
                    return DECLINE;
                p->pos++;
            }
            if ((status = parse_value(p)) != OK)
                return status;
            count++;
            skip_ws(p);
            if (p->pos >= p->n)
                return DECLINE;
            if (p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->s[p->pos] != close)
                return DECLINE;
            p->pos++;
            break;
        }
    }
    p->depth--;
    p->toks[index].count = count;
    p->toks[index].len = p->pos - p->toks[index].start;
    p->toks[index].end = p->ntoks;
    return OK;
}

static int
parse_value(Parser *p)
{
    skip_ws(p);
    if (p->pos >= p->n)
        return DECLINE;
    switch (p->s[p->pos]) {
    case '{':
        return parse_container(p, T_OBJ);
    case '[':
        return parse_container(p, T_ARR);
    case '"':
        return parse_string(p);
    case 't':
        return parse_literal(p, "true", T_TRUE);
    case 'f':
        return parse_literal(p, "false", T_FALSE);
    case 'n':
        return parse_literal(p, "null", T_NULL);
    default:
        return parse_number(p);
    }
}

/* ----------------------------------------------------------------------
 * Looking things up
 * ---------------------------------------------------------------------- */

typedef struct {
    const unsigned char *s; /* the item */
    const Tok *toks;
} Doc;

/* Whether string token `t` holds exactly `text` (`size` bytes, no escapes). */
static int
str_is_n(const Doc *d, Py_ssize_t t, const char *text, Py_ssize_t size)
{
    const Tok *tok = &d->toks[t];
    return tok->type == T_STR && !tok->escaped && tok->len == size &&
           memcmp(d->s + tok->start, text, size) == 0;
}

#define str_is(d, t, text) str_is_n((d), (t), (text), (Py_ssize_t)(sizeof(text) - 1))

/* Whether two string tokens, neither escaped, hold the same text. */
static int
same_str(const Doc *d, Py_ssize_t a, Py_ssize_t b)
{
    const Tok *x = &d->toks[a], *y = &d->toks[b];
    return x->len == y->len && memcmp(d->s + x->start, d->s + y->start, x->len) == 0;
}

#define ABSENT -1
#define AMBIGUOUS -2

/* The value of member `key` of object `obj`: its token, ABSENT, or AMBIGUOUS
   when the object has an escaped key or the key twice (Python's rules then). */
static Py_ssize_t
find_n(const Doc *d, Py_ssize_t obj, const char *key, Py_ssize_t size)
{
    const Tok *toks = d->toks;
    Py_ssize_t found = ABSENT;
    Py_ssize_t k = obj + 1;
    for (Py_ssize_t i = 0; i < toks[obj].count; i++) {
        const Tok *name = &toks[k];
        if (name->escaped)
            return AMBIGUOUS;
        if (name->len == size && memcmp(d->s + name->start, key, size) == 0) {
            if (found != ABSENT)
                return AMBIGUOUS;
            found = k + 1;
        }
        k = toks[k + 1].end;
    }
    return found;
}

#define find(d, obj, key) find_n((d), (obj), (key), (Py_ssize_t)(sizeof(key) - 1))

/* The type of token `t`, T_NULL for ABSENT (what dict.get gives). */
static int
type_of(const Doc *d, Py_ssize_t t)
{
    return t == ABSENT ? T_NULL : d->toks[t].type;
}

/* A member name and its length; lists of them end with a NULL name. */
typedef struct {
    const char *text;
    Py_ssize_t size;
} Name;

#define NAME(text) {(text), (Py_ssize_t)(sizeof(text) - 1)}

static int
is_one_of(const Doc *d, Py_ssize_t key, const Name *names)
{
    const Tok *tok = &d->toks[key];
    for (; names->text != NULL; names++)
        if (tok->len == names->size && memcmp(d->s + tok->start, names->text, names->size) == 0)
            return !tok->escaped;
    return 0;
}

/* `_epoch` of token `t` (ABSENT allowed): 1 and *out set for a usable time,
   0 for "unknown". */
static int
epoch_of(const Doc *d, Py_ssize_t t, double *out)
{
    if (t == ABSENT)
        return 0;
    const Tok *tok = &d->toks[t];
    double value;
    if (tok->type == T_INT) {
        const unsigned char *text = d->s + tok->start;
        if (text[0] == '-' || tok->len > MAX_INT_DIGITS)
            return 0; /* negative, or far after year 3000 */
        long long n = 0;
        for (Py_ssize_t i = 0; i < tok->len; i++)
            n = n * 10 + (text[i] - '0');
        if (n <= 0 || n > (long long)LAST_EPOCH)
            return 0;
        *out = (double)n;
        return 1;
    }
    if (tok->type != T_FLOAT)
        return 0;
    char text[64];
    if (tok->len >= (Py_ssize_t)sizeof text)
        return 0;
    memcpy(text, d->s + tok->start, tok->len);
    text[tok->len] = '\0';
    value = PyOS_string_to_double(text, NULL, NULL);
    if (value == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (!(value > 0 && value <= LAST_EPOCH))
        return 0;
    *out = value;
    return 1;
}

/* ----------------------------------------------------------------------
 * Writing JSON as orjson.dumps(..., option=OPT_SORT_KEYS) does
 * ---------------------------------------------------------------------- */

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Buf;

static int
put(Buf *b, const void *bytes, Py_ssize_t size)
{
    /* Nothing to copy (an empty run before an escape, say) may meet a buffer not yet
       allocated: memcpy with a null pointer is undefined even for zero bytes. */
    if (size <= 0)
        return OK;
    if (b->len + size > b->cap) {
        Py_ssize_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + size)
            cap *= 2;
        char *grown = PyMem_Realloc(b->data, cap);
        if (grown == NULL) {
            PyErr_NoMemory();
            return ERROR;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, bytes, size);
    b->len += size;
    return OK;
}

#define PUT(b, text) put((b), (text), (Py_ssize_t)(sizeof(text) - 1))

static int
put_utf8(Buf *b, long cp)
{
    unsigned char out[4];
    int size;
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        size = 1;
    }
    else if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        size = 2;
    }
    else if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        size = 3;
    }
    else {
        out[0] = (unsigned char)(0xF0 | (cp >> 18));
        out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (unsigned char)(0x80 | (cp & 0x3F));
        size = 4;
    }
    return put(b, out, size);
}

/* One code point of a decoded string as orjson writes it. */
static int
put_char(Buf *b, long cp)
{
    static const char hex[] = "0123456789abcdef";
    switch (cp) {
    case '"':
        return PUT(b, "\\\"");
    case '\\':
        return PUT(b, "\\\\");
    case '\b':
        return PUT(b, "\\b");
    case '\f':
        return PUT(b, "\\f");
    case '\n':
        return PUT(b, "\\n");
    case '\r':
        return PUT(b, "\\r");
    case '\t':
        return PUT(b, "\\t");
    }
    if (cp < 0x20) {
        char text[6] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 0xF]};
        return put(b, text, 6);
    }
    return put_utf8(b, cp);
}

/* The text of escaped string token `t`: each escape decoded and written by
   put_char (as JSON) when `json`, else as UTF-8. */
static int
put_unescaped(Buf *b, const Doc *d, Py_ssize_t t, int json)
{
    const Tok *tok = &d->toks[t];
    const unsigned char *s = d->s + tok->start;
    Py_ssize_t i = 0, run = 0;
    while (i < tok->len) {
        if (s[i] != '\\') {
            i++;
            continue;
        }
        if (put(b, s + run, i - run) < 0)
            return ERROR;
        unsigned char e = s[i + 1];
        long cp;
        if (e == 'u') {
            cp = hex4(s, i + 2, tok->len);
            i += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF) { /* the parser checked the pair */
                long low = hex4(s, i + 2, tok->len);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                i += 6;
            }
        }
        else {
            cp = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r'
               : e == 't' ? '\t' : e; /* '"', '\\' or '/' */
            i += 2;
        }
        if ((json ? put_char(b, cp) : put_utf8(b, cp)) < 0)
            return ERROR;
        run = i;
    }
    return put(b, s + run, tok->len - run);
}

/* String token `t` as a JSON string. */
static int
put_string(Buf *b, const Doc *d, Py_ssize_t t)
{
    const Tok *tok = &d->toks[t];
    /* Unescaped, it is valid UTF-8 with no control character, quote or
       backslash (the parser saw to it): orjson writes it as it is. */
    if (PUT(b, "\"") < 0 ||
        (tok->escaped ? put_unescaped(b, d, t, 1) : put(b, d->s + tok->start, tok->len)) < 0 ||
        PUT(b, "\"") < 0)
        return ERROR;
    return OK;
}

/* String token `t` as a Python str (decoded). */
static PyObject *
str_object(const Doc *d, Py_ssize_t t)
{
    const Tok *tok = &d->toks[t];
    if (!tok->escaped)
        return PyUnicode_DecodeUTF8((const char *)d->s + tok->start, tok->len, "strict");
    Buf b = {0};
    PyObject *result = NULL;
    if (put_unescaped(&b, d, t, 0) == OK)
        result = PyUnicode_DecodeUTF8(b.data ? b.data : "", b.len, "strict");
    PyMem_Free(b.data);
    return result;
}

/* A number token as orjson writes what it reads from it. */
static int
put_number(Buf *b, const Doc *d, Py_ssize_t t)
{
    const Tok *tok = &d->toks[t];
    const char *text = (const char *)d->s + tok->start;
    if (tok->type == T_INT) {
        Py_ssize_t digits = tok->len - (text[0] == '-');
        if (digits > MAX_INT_DIGITS)
            return DECLINE;
        if (tok->len == 2 && text[0] == '-' && text[1] == '0')
            return PUT(b, "0");
        return put(b, text, tok->len);
    }
    /* A float: Python's shortest repr, which is orjson's text for every float
       Python writes without an exponent; the others are left to Python. */
    char copy[64];
    if (tok->len >= (Py_ssize_t)sizeof copy)
        return DECLINE;
    memcpy(copy, text, tok->len);
    copy[tok->len] = '\0';
    double value = PyOS_string_to_double(copy, NULL, NULL);
    if (value == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return DECLINE;
    }
    char *repr = PyOS_double_to_string(value, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (repr == NULL)
        return ERROR;
    int status = DECLINE;
    if (strpbrk(repr, "eEnN") == NULL) /* no exponent, not inf or nan */
        status = put(b, repr, (Py_ssize_t)strlen(repr));
    PyMem_Free(repr);
    return status;
}

/* A member of an object being written: a key and either a token or bytes
   already written elsewhere. */
typedef struct {
    const unsigned char *key;
    Py_ssize_t key_len;
    Py_ssize_t value; /* a token, or -1 */
    const char *text; /* else: the value's JSON */
    Py_ssize_t text_len;
    int hidden; /* not written: there only so that a repeated key is seen */
} Member;

typedef struct {
    Member *items;
    Py_ssize_t len, cap;
    Member inline_items[24];
} Members;

static void
members_init(Members *m)
{
    m->items = m->inline_items;
    m->len = 0;
    m->cap = 24;
}

static void
members_free(Members *m)
{
    if (m->items != m->inline_items)
        PyMem_Free(m->items);
}

static int
add_member(Members *m, const unsigned char *key, Py_ssize_t key_len, Py_ssize_t value,
           const char *text, Py_ssize_t text_len)
{
    if (m->len == m->cap) {
        Py_ssize_t cap = m->cap * 2;
        Member *grown = PyMem_Malloc(cap * sizeof(Member));
        if (grown == NULL) {
            PyErr_NoMemory();
            return ERROR;
        }
        memcpy(grown, m->items, m->len * sizeof(Member));
        members_free(m);
        m->items = grown;
        m->cap = cap;
    }
    Member *item = &m->items[m->len++];
    item->key = key;
    item->key_len = key_len;
    item->value = value;
    item->text = text;
    item->text_len = text_len;
    item->hidden = 0;
    return OK;
}

#define ADD_TEXT(m, name, text, size)                                                  \
    add_member((m), (const unsigned char *)(name), (Py_ssize_t)(sizeof(name) - 1), -1, (text), \
               (size))

/* A token member: its key token (unescaped) and value token; `hidden` ones
   are only checked for repeats. */
static int
add_token(Members *m, const Doc *d, Py_ssize_t key, Py_ssize_t value, int hidden)
{
    const Tok *name = &d->toks[key];
    if (add_member(m, d->s + name->start, name->len, value, NULL, 0) < 0)
        return ERROR;
    m->items[m->len - 1].hidden = hidden;
    return OK;
}

/* Keys compare as their UTF-8 bytes, which is code point order (orjson's). */
static int
compare_members(const void *a, const void *b)
{
    const Member *x = a, *y = b;
    Py_ssize_t common = x->key_len < y->key_len ? x->key_len : y->key_len;
    int order = memcmp(x->key, y->key, common);
    if (order != 0)
        return order;
    return (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

static int put_value(Buf *b, const Doc *d, Py_ssize_t t);

/* The members, sorted, as a JSON object; DECLINE for a repeated key. */
static int
put_members(Buf *b, const Doc *d, Members *m)
{
    if (m->len > 16)
        qsort(m->items, m->len, sizeof(Member), compare_members);
    else
        for (Py_ssize_t i = 1; i < m->len; i++) {
            Member item = m->items[i];
            Py_ssize_t j = i;
            for (; j > 0 && compare_members(&m->items[j - 1], &item) > 0; j--)
                m->items[j] = m->items[j - 1];
            m->items[j] = item;
        }
    for (Py_ssize_t i = 1; i < m->len; i++)
        if (compare_members(&m->items[i - 1], &m->items[i]) == 0)
            return DECLINE;
    if (PUT(b, "{") < 0)
        return ERROR;
    int first = 1;
    for (Py_ssize_t i = 0; i < m->len; i++) {
        Member *item = &m->items[i];
        if (item->hidden)
            continue;
        /* Keys reach here unescaped and valid: written as they are. */
        if ((!first && PUT(b, ",") < 0) || PUT(b, "\"") < 0 ||
            put(b, item->key, item->key_len) < 0 || PUT(b, "\":") < 0)
            return ERROR;
        first = 0;
        int status = item->value >= 0 ? put_value(b, d, item->value)
                                      : put(b, item->text, item->text_len);
        if (status != OK)
            return status;
    }
    return PUT(b, "}");
}

/* Gather the members of object `obj` whose key is none of `skip`; DECLINE
   for an escaped key. */
static int
gather(Members *m, const Doc *d, Py_ssize_t obj, const Name *skip)
{
    Py_ssize_t k = obj + 1;
    for (Py_ssize_t i = 0; i < d->toks[obj].count; i++) {
        if (d->toks[k].escaped)
            return DECLINE;
        if (add_token(m, d, k, k + 1, skip != NULL && is_one_of(d, k, skip)) < 0)
            return ERROR;
        k = d->toks[k + 1].end;
    }
    return OK;
}

/* Object `obj` without the members named in `skip`, keys sorted. */
static int
put_object(Buf *b, const Doc *d, Py_ssize_t obj, const Name *skip)
{
    Members m;
    members_init(&m);
    int status = gather(&m, d, obj, skip);
    if (status == OK)
        status = put_members(b, d, &m);
    members_free(&m);
    return status;
}

static int
put_value(Buf *b, const Doc *d, Py_ssize_t t)
{
    const Tok *tok = &d->toks[t];
    switch (tok->type) {
    case T_STR:
        return put_string(b, d, t);
    case T_INT:
    case T_FLOAT:
        return put_number(b, d, t);
    case T_TRUE:
        return PUT(b, "true");
    case T_FALSE:
        return PUT(b, "false");
    case T_NULL:
        return PUT(b, "null");
    case T_ARR: {
        if (PUT(b, "[") < 0)
            return ERROR;
        Py_ssize_t item = t + 1;
        for (Py_ssize_t i = 0; i < tok->count; i++) {
            if (i && PUT(b, ",") < 0)
                return ERROR;
            int status = put_value(b, d, item);
            if (status != OK)
                return status;
            item = d->toks[item].end;
        }
        return PUT(b, "]");
    }
    default:
        return put_object(b, d, t, NULL);
    }
}

/* ----------------------------------------------------------------------
 * The message graph (`_Graph`, its common case as `_chatgpt.graph` reads it)
 * ---------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t size;    /* mapping members */
    Py_ssize_t *key;    /* each member's key token */
    Py_ssize_t *node;   /* its value token */
    Py_ssize_t *kept;   /* its index among the kept nodes, or -1 */
    Py_ssize_t *slots;  /* hash table of member indices, -1 for free */
    Py_ssize_t mask;
    /* the kept nodes (those holding a message), in mapping order */
    Py_ssize_t count;
    Py_ssize_t *member;   /* mapping member of each */
    Py_ssize_t *message;  /* message token */
    Py_ssize_t *parent;   /* kept index of the parent, or -1 */
    Py_ssize_t *kids;     /* the children array token */
    Py_ssize_t *kid_at;   /* offset of its children in kid_list */
    Py_ssize_t *kid_list; /* kept indices of every node's children */
    double *own;
    char *has_own;
    Py_ssize_t *order;
    double *times;
    Py_ssize_t *seen; /* walk stamps by mapping member */
    Py_ssize_t empty; /* members without a message */
} Graph;

static void
graph_free(Graph *g)
{
    PyMem_Free(g->key);
    PyMem_Free(g->node);
    PyMem_Free(g->kept);
    PyMem_Free(g->slots);
    PyMem_Free(g->member);
    PyMem_Free(g->message);
    PyMem_Free(g->parent);
    PyMem_Free(g->kids);
    PyMem_Free(g->kid_at);
    PyMem_Free(g->kid_list);
    PyMem_Free(g->own);
    PyMem_Free(g->has_own);
    PyMem_Free(g->order);
    PyMem_Free(g->times);
    PyMem_Free(g->seen);
}

static size_t
hash_bytes(const unsigned char *s, Py_ssize_t n)
{
    size_t h = 1469598103934665603ULL;
    for (Py_ssize_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ULL;
    return h;
}

/* The mapping member whose key is string token `t` (unescaped), or -1. */
static Py_ssize_t
member_of(const Graph *g, const Doc *d, Py_ssize_t t)
{
    const Tok *tok = &d->toks[t];
    size_t at = hash_bytes(d->s + tok->start, tok->len) & g->mask;
    for (;;) {
        Py_ssize_t m = g->slots[at];
        if (m < 0)
            return -1;
        if (same_str(d, g->key[m], t))
            return m;
        at = (at + 1) & g->mask;
    }
}

/* `_Graph._kept_ancestor` of member `m`, whose recorded parent is member
   `current` (holding no message): a kept index, -1 for none, or -2 to
   decline. */
static Py_ssize_t
kept_ancestor(Graph *g, const Doc *d, Py_ssize_t m, Py_ssize_t current, Py_ssize_t walk)
{
    g->seen[m] = walk;
    while (current >= 0 && g->seen[current] != walk) {
        if (g->kept[current] >= 0)
            return g->kept[current];
        g->seen[current] = walk;
        Py_ssize_t parent = find(d, g->node[current], "parent");
        if (parent == AMBIGUOUS)
            return -2;
        if (parent == ABSENT || d->toks[parent].type != T_STR)
            return -1;
        if (d->toks[parent].escaped)
            return -2;
        current = member_of(g, d, parent);
    }
    return -1;
}

#define ALLOC(field, n, type)                                    \
    do {                                                         \
        if ((g->field = PyMem_Calloc((n) + 1, sizeof(type))) == NULL) \
            goto no_memory;                                      \
    } while (0)

/* Read the graph of mapping `mapping`; `conv_time` is the time of a message
   with none of its own or around it. */
static int
read_graph(Graph *g, const Doc *d, Py_ssize_t mapping, int has_conv_time, double conv_time)
{
    Py_ssize_t size = d->toks[mapping].count;
    g->size = size;
    Py_ssize_t slots = 8;
    while (slots < 2 * size)
        slots *= 2;
    g->mask = slots - 1;
    ALLOC(key, size, Py_ssize_t);
    ALLOC(node, size, Py_ssize_t);
    ALLOC(kept, size, Py_ssize_t);
    ALLOC(slots, slots, Py_ssize_t);
    ALLOC(member, size, Py_ssize_t);
    ALLOC(message, size, Py_ssize_t);
    ALLOC(parent, size, Py_ssize_t);
    ALLOC(kids, size, Py_ssize_t);
    ALLOC(kid_at, size, Py_ssize_t);
    ALLOC(own, size, double);
    ALLOC(has_own, size, char);
    ALLOC(order, size, Py_ssize_t);
    ALLOC(times, size, double);
    ALLOC(seen, size, Py_ssize_t);
    for (Py_ssize_t i = 0; i < slots; i++)
        g->slots[i] = -1;

    /* The members, which hold a message, and the key table. */
    Py_ssize_t k = mapping + 1;
    for (Py_ssize_t m = 0; m < size; m++) {
        const Tok *name = &d->toks[k];
        if (name->escaped || d->toks[k + 1].type != T_OBJ)
            return DECLINE;
        g->key[m] = k;
        g->node[m] = k + 1;
        size_t at = hash_bytes(d->s + name->start, name->len) & g->mask;
        while (g->slots[at] >= 0) {
            if (same_str(d, g->key[g->slots[at]], k))
                return DECLINE; /* a key twice: orjson keeps the last */
            at = (at + 1) & g->mask;
        }
        g->slots[at] = m;
        Py_ssize_t message = find(d, k + 1, "message");
        if (message == AMBIGUOUS)
            return DECLINE;
        int type = type_of(d, message);
        if (type == T_NULL) {
            g->kept[m] = -1;
            g->empty++;
        }
        else if (type == T_OBJ) {
            Py_ssize_t c = g->count++;
            g->kept[m] = c;
            g->member[c] = m;
            g->message[c] = message;
            Py_ssize_t given = find(d, message, "create_time");
            if (given == AMBIGUOUS)
                return DECLINE;
            g->has_own[c] = (char)epoch_of(d, given, &g->own[c]);
        }
        else
            return DECLINE; /* Python words the error */
        k = d->toks[k + 1].end;
    }

    /* Parents: the recorded one when it holds a message, else the nearest
       kept ancestor. */
    for (Py_ssize_t c = 0; c < g->count; c++) {
        Py_ssize_t parent = find(d, g->node[g->member[c]], "parent");
        if (parent == AMBIGUOUS)
            return DECLINE;
        int type = type_of(d, parent);
        if (type == T_NULL) {
            g->parent[c] = -1;
            continue;
        }
        if (type != T_STR || d->toks[parent].escaped)
            return DECLINE;
        Py_ssize_t m = member_of(g, d, parent);
        if (m >= 0 && g->kept[m] >= 0)
            g->parent[c] = g->kept[m];
        else if (m < 0)
            g->parent[c] = -1; /* no such node: an orphan, a root */
        else {
            Py_ssize_t found = kept_ancestor(g, d, g->member[c], m, c + 1);
            if (found == -2)
                return DECLINE;
            g->parent[c] = found;
        }
    }

    /* Children: each list as it is, when it names exactly the kept nodes whose
       parent it is, once each. */
    Py_ssize_t edges = 0;
    for (Py_ssize_t c = 0; c < g->count; c++) {
        Py_ssize_t kids = find(d, g->node[g->member[c]], "children");
        if (kids < 0 || d->toks[kids].type != T_ARR)
            return DECLINE;
        g->kids[c] = kids;
        g->kid_at[c] = edges;
        edges += d->toks[kids].count;
    }
    ALLOC(kid_list, edges, Py_ssize_t);
    char *listed = PyMem_Calloc(g->count + 1, 1);
    if (listed == NULL)
        goto no_memory;
    for (Py_ssize_t c = 0; c < g->count; c++) {
        Py_ssize_t item = g->kids[c] + 1;
        for (Py_ssize_t i = 0; i < d->toks[g->kids[c]].count; i++) {
            Py_ssize_t m = d->toks[item].type == T_STR && !d->toks[item].escaped
                               ? member_of(g, d, item)
                               : -1;
            Py_ssize_t child = m >= 0 ? g->kept[m] : -1;
            if (child < 0 || g->parent[child] != c || listed[child]) {
                PyMem_Free(listed);
                return DECLINE;
            }
            listed[child] = 1;
            g->kid_list[g->kid_at[c] + i] = child;
            item = d->toks[item].end;
        }
    }
    for (Py_ssize_t c = 0; c < g->count; c++)
        if (g->parent[c] >= 0 && !listed[c]) {
            PyMem_Free(listed);
            return DECLINE;
        }
    PyMem_Free(listed);

    /* Depth first: roots in mapping order, then any node left (a cycle). */
    Py_ssize_t *stack = PyMem_Calloc(edges + g->count + 1, sizeof(Py_ssize_t));
    char *visited = PyMem_Calloc(g->count + 1, 1);
    char *done = PyMem_Calloc(g->count + 1, 1);
    double *at_time = PyMem_Calloc(g->count + 1, sizeof(double));
    Py_ssize_t *mark = PyMem_Calloc(g->count + 1, sizeof(Py_ssize_t));
    if (stack == NULL || visited == NULL || done == NULL || at_time == NULL || mark == NULL) {
        PyMem_Free(stack);
        PyMem_Free(visited);
        PyMem_Free(done);
        PyMem_Free(at_time);
        PyMem_Free(mark);
        goto no_memory;
    }
    Py_ssize_t placed = 0;
    for (int pass = 0; pass < 2; pass++)
        for (Py_ssize_t start = 0; start < g->count; start++) {
            if (visited[start] || (pass == 0 && g->parent[start] >= 0))
                continue;
            Py_ssize_t top = 0;
            stack[top++] = start;
            while (top) {
                Py_ssize_t c = stack[--top];
                if (visited[c])
                    continue;
                visited[c] = 1;
                g->order[placed++] = c;
                Py_ssize_t count = d->toks[g->kids[c]].count;
                for (Py_ssize_t i = count - 1; i >= 0; i--) {
                    Py_ssize_t kid = g->kid_list[g->kid_at[c] + i];
                    if (!visited[kid])
                        stack[top++] = kid;
                }
            }
        }

    /* Times: a message's own, else its parent's, else the nearest
       descendant's (depth first), else the conversation's. */
    Py_ssize_t walks = 0;
    for (Py_ssize_t n = 0; n < placed; n++) {
        Py_ssize_t c = g->order[n];
        double value = has_conv_time ? conv_time : 0.0;
        if (g->has_own[c])
            value = g->own[c];
        else if (g->parent[c] >= 0 && done[g->parent[c]])
            value = at_time[g->parent[c]];
        else {
            Py_ssize_t top = 0;
            walks++;
            Py_ssize_t count = d->toks[g->kids[c]].count;
            for (Py_ssize_t i = count - 1; i >= 0; i--)
                stack[top++] = g->kid_list[g->kid_at[c] + i];
            while (top) {
                Py_ssize_t x = stack[--top];
                if (mark[x] == walks)
                    continue;
                mark[x] = walks;
                if (g->has_own[x]) {
                    value = g->own[x];
                    break;
                }
                Py_ssize_t kids = d->toks[g->kids[x]].count;
                for (Py_ssize_t i = kids - 1; i >= 0; i--)
                    stack[top++] = g->kid_list[g->kid_at[x] + i];
            }
        }
        at_time[c] = value;
        done[c] = 1;
        g->times[n] = value;
    }
    PyMem_Free(stack);
    PyMem_Free(visited);
    PyMem_Free(done);
    PyMem_Free(at_time);
    PyMem_Free(mark);
    return OK;

no_memory:
    PyErr_NoMemory();
    return ERROR;
}

/* ----------------------------------------------------------------------
 * Messages (`_ConversationReader._message` and `_messages`, common shape)
 * ---------------------------------------------------------------------- */

static const Name MESSAGE_MAPPED[] = {NAME("id"),      NAME("author"),   NAME("create_time"),
                                      NAME("content"), NAME("metadata"), {NULL, 0}};
/* Message members the importer's raw_metadata members would overwrite. */
static const Name MESSAGE_CLASHING[] = {NAME("message_id"), NAME("provider_parent"),
                                        NAME("node"), NAME("feedback"), {NULL, 0}};
static const Name NODE_MAPPED[] = {NAME("id"), NAME("message"), NAME("parent"),
                                   NAME("children"), {NULL, 0}};
static const Name ROLE_ONLY[] = {NAME("role"), {NULL, 0}};
static const Name MODEL_SLUG[] = {NAME("model_slug"), {NULL, 0}};
static const Name ROLES[] = {NAME("system"), NAME("user"), NAME("assistant"), NAME("tool"),
                             {NULL, 0}};

/* The value is one of `_EMPTY`: null, {} or []. */
static int
is_blank(const Doc *d, Py_ssize_t t)
{
    const Tok *tok = &d->toks[t];
    return tok->type == T_NULL || ((tok->type == T_OBJ || tok->type == T_ARR) && !tok->count);
}

typedef struct {
    Buf *out;
    Buf scratch; /* raw_metadata members written ahead, then sorted in */
    const Doc *d;
    const Graph *g;
    char (*ids)[UUID_SIZE];
    int roles_seen; /* bit i: ROLES[i] */
    PyObject *fallback;     /* converts a message of another shape, or None */
    PyObject *provider_id;  /* str */
    PyObject *instructions; /* list: what the fallback's messages give system_instruction */
    /* The recall passages of the messages (with `rows_of`), see put_rows. */
    PyObject *rows_of;   /* rows_of(message_json, title) -> bytes, or NULL: no passages */
    PyObject *title;     /* str or None */
    Buf rows;            /* the JSON array of the rows, without its closing bracket */
    Buf context;         /* the JSON string of the title, stripped */
    Py_ssize_t row_count;
    Py_ssize_t text;     /* set by put_common_message: its text token, or ABSENT */
    int role_index;      /* set by put_common_message */
} Writer;

/* The message in position `n` of the order, if it has the common shape. */
static int
put_common_message(Writer *w, Py_ssize_t n)
{
    const Doc *d = w->d;
    const Graph *g = w->g;
    Buf *out = w->out;
    Py_ssize_t c = g->order[n];
    Py_ssize_t message = g->message[c], node = g->node[g->member[c]];
    Py_ssize_t node_key = g->key[g->member[c]];

    Py_ssize_t author = find(d, message, "author");
    if (author < 0 || d->toks[author].type != T_OBJ)
        return DECLINE;
    Py_ssize_t role = find(d, author, "role");
    if (role < 0)
        return DECLINE;
    int role_index = -1;
    for (int i = 0; ROLES[i].text != NULL; i++)
        if (str_is_n(d, role, ROLES[i].text, ROLES[i].size))
            role_index = i;
    if (role_index < 0)
        return DECLINE;
    Py_ssize_t metadata = find(d, message, "metadata");
    if (metadata == AMBIGUOUS)
        return DECLINE;
    if (type_of(d, metadata) == T_OBJ) {
        /* Attachments and citations have PAM homes of their own: Python's. */
        Py_ssize_t a = find(d, metadata, "attachments"), b = find(d, metadata, "citations");
        if (a != ABSENT || b != ABSENT)
            return DECLINE;
    }
    Py_ssize_t content = find(d, message, "content"), text = ABSENT;
    if (content == AMBIGUOUS)
        return DECLINE;
    int empty_text = 0;
    if (type_of(d, content) != T_NULL) {
        if (d->toks[content].type != T_OBJ || d->toks[content].count != 2)
            return DECLINE;
        Py_ssize_t kind = find(d, content, "content_type");
        if (kind < 0 || !str_is(d, kind, "text"))
            return DECLINE;
        Py_ssize_t parts = find(d, content, "parts");
        if (parts < 0 || d->toks[parts].type != T_ARR || d->toks[parts].count > 1)
            return DECLINE;
        if (d->toks[parts].count == 1) {
            text = parts + 1;
            if (d->toks[text].type != T_STR)
                return DECLINE;
        }
        else
            empty_text = 1;
    }
    if (role_index == 2) {
        /* A message to a tool is a tool call: Python's. */
        Py_ssize_t recipient = find(d, message, "recipient");
        if (recipient == AMBIGUOUS)
            return DECLINE;
        if (type_of(d, recipient) == T_STR && d->toks[recipient].len > 0 &&
            !str_is(d, recipient, "all"))
            return DECLINE;
    }
    Py_ssize_t message_id = find(d, message, "id");
    if (message_id == AMBIGUOUS)
        return DECLINE;
    int id_is_node = 0;
    if (type_of(d, message_id) == T_STR) {
        if (d->toks[message_id].escaped)
            return DECLINE;
        id_is_node = same_str(d, message_id, node_key);
    }

    /* raw_metadata: every member with no PAM home, and what the importer adds. */
    Members m;
    members_init(&m);
    Buf *scratch = &w->scratch;
    scratch->len = 0;
    /* Offsets into scratch of what is written ahead (it may move as it grows). */
    Py_ssize_t at_author = -1, author_len = 0, at_meta = -1, meta_len = 0, at_node = -1,
               node_len = 0;
    int status = OK;
    Py_ssize_t k = message + 1;
    for (Py_ssize_t i = 0; i < d->toks[message].count && status == OK; i++) {
        Py_ssize_t value = k + 1;
        if (d->toks[k].escaped || is_one_of(d, k, MESSAGE_CLASHING))
            status = DECLINE;
        else if (!is_one_of(d, k, MESSAGE_MAPPED))
            status = add_token(&m, d, k, value, d->toks[value].type == T_NULL);
        k = d->toks[value].end;
    }
    if (status != OK)
        goto done;
    if (d->toks[author].count > 1) {
        /* The author's other members, if any is worth keeping. */
        Py_ssize_t a = author + 1;
        int keep = 0;
        for (Py_ssize_t i = 0; i < d->toks[author].count; i++) {
            if (!str_is(d, a, "role") && !is_blank(d, a + 1))
                keep = 1;
            a = d->toks[a + 1].end;
        }
        if (keep) {
            at_author = scratch->len;
            if ((status = put_object(scratch, d, author, ROLE_ONLY)) != OK)
                goto done;
            author_len = scratch->len - at_author;
        }
    }
    Py_ssize_t model = ABSENT;
    if (type_of(d, metadata) == T_OBJ) {
        model = find(d, metadata, "model_slug");
        if (model == AMBIGUOUS) {
            status = DECLINE;
            goto done;
        }
        Py_ssize_t rest = d->toks[metadata].count - (model != ABSENT);
        if (rest > 0) {
            at_meta = scratch->len;
            if ((status = put_object(scratch, d, metadata, MODEL_SLUG)) != OK)
                goto done;
            meta_len = scratch->len - at_meta;
        }
        if (model != ABSENT && d->toks[model].type != T_STR)
            model = ABSENT;
    }
    /* Node members beyond id, message, parent and children (a node may lack any of them). */
    int node_extra = 0;
    Py_ssize_t k_node = node + 1;
    for (Py_ssize_t i = 0; i < d->toks[node].count; i++) {
        node_extra |= !is_one_of(d, k_node, NODE_MAPPED);
        k_node = d->toks[k_node + 1].end;
    }
    if (node_extra) {
        at_node = scratch->len;
        if ((status = put_object(scratch, d, node, NODE_MAPPED)) != OK)
            goto done;
        node_len = scratch->len - at_node;
    }
    /* Members whose values are tokens or fixed text need no scratch. */
    if (!id_is_node) {
        if (message_id == ABSENT)
            status = ADD_TEXT(&m, "message_id", "null", 4);
        else
            status = add_member(&m, (const unsigned char *)"message_id", 10, message_id, NULL, 0);
        if (status != OK)
            goto done;
    }
    if (type_of(d, metadata) != T_OBJ && metadata != ABSENT &&
        d->toks[metadata].type != T_NULL &&
        (status = add_member(&m, (const unsigned char *)"metadata", 8, metadata, NULL, 0)) != OK)
        goto done;
    if (!g->has_own[c]) {
        Py_ssize_t given = find(d, message, "create_time");
        status = given == ABSENT ? ADD_TEXT(&m, "create_time", "null", 4)
                                 : add_member(&m, (const unsigned char *)"create_time", 11,
                                              given, NULL, 0);
        if (status != OK)
            goto done;
    }
    Py_ssize_t recorded = find(d, node, "parent");
    Py_ssize_t parent = g->parent[c];
    if (type_of(d, recorded) == T_STR &&
        !(parent >= 0 && same_str(d, recorded, g->key[g->member[parent]])) &&
        (status = add_member(&m, (const unsigned char *)"provider_parent", 15, recorded, NULL,
                             0)) != OK)
        goto done;
    /* scratch is written: point at it. */
    if (at_author >= 0 && (status = ADD_TEXT(&m, "author", scratch->data + at_author,
                                             author_len)) != OK)
        goto done;
    if (at_meta >= 0 &&
        (status = ADD_TEXT(&m, "metadata", scratch->data + at_meta, meta_len)) != OK)
        goto done;
    if (at_node >= 0 &&
        (status = ADD_TEXT(&m, "node", scratch->data + at_node, node_len)) != OK)
        goto done;

    /* The PAM message, keys in order. */
    if (PUT(out, "{\"children_ids\":[") < 0)
        goto error;
    Py_ssize_t kid_count = d->toks[g->kids[c]].count;
    for (Py_ssize_t i = 0; i < kid_count; i++) {
        Py_ssize_t kid = g->kid_list[g->kid_at[c] + i];
        if ((i && PUT(out, ",") < 0) || PUT(out, "\"") < 0 ||
            put(out, w->ids[kid], UUID_SIZE) < 0 || PUT(out, "\"") < 0)
            goto error;
    }
    if (PUT(out, "],\"content\":{\"text\":") < 0)
        goto error;
    if (text != ABSENT)
        status = put_string(out, d, text);
    else
        status = empty_text ? PUT(out, "\"\"") : PUT(out, "null");
    if (status != OK)
        goto done;
    char iso[ISO_SIZE];
    Py_ssize_t iso_len = iso_text(g->times[n], iso);
    if (iso_len < 0)
        goto error;
    if (PUT(out, ",\"type\":\"text\"},\"created_at\":\"") < 0 || put(out, iso, iso_len) < 0 ||
        PUT(out, "\",\"id\":\"") < 0 || put(out, w->ids[c], UUID_SIZE) < 0 || PUT(out, "\",") < 0)
        goto error;
    if (model != ABSENT &&
        (PUT(out, "\"model\":") < 0 || put_string(out, d, model) < 0 || PUT(out, ",") < 0))
        goto error;
    if (PUT(out, "\"parent_id\":") < 0)
        goto error;
    if (parent < 0) {
        if (PUT(out, "null") < 0)
            goto error;
    }
    else if (PUT(out, "\"") < 0 || put(out, w->ids[parent], UUID_SIZE) < 0 || PUT(out, "\"") < 0)
        goto error;
    if (PUT(out, ",\"provider_message_id\":") < 0)
        goto error;
    if (put_string(out, d, type_of(d, message_id) == T_STR ? message_id : node_key) < 0 ||
        PUT(out, ",\"raw_metadata\":") < 0)
        goto error;
    if ((status = put_members(out, d, &m)) != OK)
        goto done;
    if (PUT(out, ",\"role\":\"") < 0 ||
        put(out, ROLES[role_index].text, ROLES[role_index].size) < 0 || PUT(out, "\"}") < 0)
        goto error;
    w->roles_seen |= 1 << role_index;
    w->text = text;
    w->role_index = role_index;
    status = OK;
    goto done;

error:
    status = ERROR;
done:
    members_free(&m);
    return status;
}

/* UTF-8 text as a JSON string, as orjson writes it. */
static int
put_text(Buf *b, const char *text, Py_ssize_t size)
{
    if (PUT(b, "\"") < 0)
        return ERROR;
    Py_ssize_t run = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == '"' || c == '\\') {
            if (put(b, text + run, i - run) < 0 || put_char(b, c) < 0)
                return ERROR;
            run = i + 1;
        }
    }
    if (put(b, text + run, size - run) < 0 || PUT(b, "\"") < 0)
        return ERROR;
    return OK;
}

static PyObject *
uuid_object(const char *text)
{
    return PyUnicode_FromStringAndSize(text, UUID_SIZE);
}

/* The message in position `n` of the order, of another shape: converted by
   the importer's Python code, `fallback(provider_id, node, holder, id,
   parent_id, children_ids, created_at, own_time_known, parent) -> (json,
   role, instructions)`, given the node's bytes and where the graph puts it. */
static int
put_fallback_message(Writer *w, Py_ssize_t n)
{
    const Doc *d = w->d;
    const Graph *g = w->g;
    Py_ssize_t c = g->order[n], parent = g->parent[c];
    const Tok *holder = &d->toks[g->node[g->member[c]]];
    char iso[ISO_SIZE];
    Py_ssize_t iso_len = iso_text(g->times[n], iso);
    if (iso_len < 0)
        return ERROR;
    Py_ssize_t kid_count = d->toks[g->kids[c]].count;
    PyObject *kids = PyList_New(kid_count);
    if (kids == NULL)
        return ERROR;
    for (Py_ssize_t i = 0; i < kid_count; i++) {
        PyObject *kid = uuid_object(w->ids[g->kid_list[g->kid_at[c] + i]]);
        if (kid == NULL) {
            Py_DECREF(kids);
            return ERROR;
        }
        PyList_SET_ITEM(kids, i, kid);
    }
    PyObject *args[9] = {
        w->provider_id,
        str_object(d, g->key[g->member[c]]),
        PyBytes_FromStringAndSize((const char *)d->s + holder->start, holder->len),
        uuid_object(w->ids[c]),
        parent >= 0 ? uuid_object(w->ids[parent]) : Py_NewRef(Py_None),
        kids,
        PyUnicode_FromStringAndSize(iso, iso_len),
        PyBool_FromLong(g->has_own[c]),
        parent >= 0 ? str_object(d, g->key[g->member[parent]]) : Py_NewRef(Py_None),
    };
    PyObject *result = NULL;
    int i, status = ERROR;
    for (i = 1; i < 9; i++)
        if (args[i] == NULL)
            break;
    if (i == 9)
        result = PyObject_Vectorcall(w->fallback, args, 9, NULL);
    for (i = 1; i < 9; i++)
        Py_XDECREF(args[i]);
    if (result == NULL)
        return ERROR;
    PyObject *json, *role, *instructions;
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) != 3 ||
        !PyBytes_Check(json = PyTuple_GET_ITEM(result, 0)) ||
        !PyUnicode_Check(role = PyTuple_GET_ITEM(result, 1))) {
        PyErr_SetString(PyExc_TypeError, "fallback must return (bytes, role, instructions)");
        goto finish;
    }
    instructions = PyTuple_GET_ITEM(result, 2);
    int role_index = -1;
    for (int r = 0; ROLES[r].text != NULL; r++)
        if (PyUnicode_CompareWithASCIIString(role, ROLES[r].text) == 0)
            role_index = r;
    if (role_index < 0) {
        PyErr_SetString(PyExc_ValueError, "fallback gave a role PAM does not have");
        goto finish;
    }
    if (put(w->out, PyBytes_AS_STRING(json), PyBytes_GET_SIZE(json)) < 0 ||
        (instructions != Py_None && PyList_Append(w->instructions, instructions) < 0))
        goto finish;
    w->roles_seen |= 1 << role_index;
    status = OK;
finish:
    Py_DECREF(result);
    return status;
}

/* ----------------------------------------------------------------------
 * Recall passages
 *
 * With `rows_of`, each message's recall passages are written as the rows
 * `memvault.recall.index.message_rows` makes of the stored document (message
 * id, part, role, participant, time, text, analysed words, context), so the
 * reader need not parse the document again.  A common message whose text is
 * one passage as it stands (not longer than MAX_PASSAGE_CHARS code points, no
 * white space Python's str.strip would take at either end) is written here;
 * any other message (a fallback's, a long text, one to strip) is given to
 * `rows_of(message_json, title)`, which runs message_rows itself on it.
 * ---------------------------------------------------------------------- */

/* memvault.recall.index.MAX_PASSAGE_CHARS (the tests hold the two equal). */
#define MAX_PASSAGE_CHARS 1500

/* What `timestamp_epoch` reads from iso_text(epoch), as JSON: the whole
   microseconds of the text over 10**6 (timedelta.total_seconds divides them,
   correctly rounded), written as the decimal those microseconds are, which a
   JSON reader rounds to the same double (and which is Python's repr of it
   below 2**32 seconds). No dtoa: it was most of what a row cost. */
static int
put_epoch(Buf *b, double epoch)
{
    long long seconds = (long long)epoch;
    long long micros = (long long)nearbyint((epoch - (double)seconds) * 1e6);
    if (micros >= 1000000) { /* as iso_text */
        seconds += 1;
        micros -= 1000000;
    }
    char text[40];
    int size = 0;
    char digits_of[24];
    int count = 0;
    do {
        digits_of[count++] = (char)('0' + seconds % 10);
        seconds /= 10;
    } while (seconds);
    while (count)
        text[size++] = digits_of[--count];
    text[size++] = '.';
    if (micros == 0)
        text[size++] = '0';
    else {
        int digits = 6;
        while (micros % 10 == 0) {
            micros /= 10;
            digits--;
        }
        for (int i = digits - 1; i >= 0; i--) {
            text[size + i] = (char)('0' + micros % 10);
            micros /= 10;
        }
        size += digits;
    }
    return put(b, text, size);
}

/* The rows of the message just written (out[mark:]) from rows_of. */
static int
rows_from_python(Writer *w, Py_ssize_t mark)
{
    PyObject *args[2] = {
        PyBytes_FromStringAndSize(w->out->data + mark, w->out->len - mark), w->title};
    if (args[0] == NULL)
        return ERROR;
    PyObject *rows = PyObject_Vectorcall(w->rows_of, args, 2, NULL);
    Py_DECREF(args[0]);
    if (rows == NULL)
        return ERROR;
    int status = ERROR;
    if (!PyBytes_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "rows_of must return bytes");
        goto finish;
    }
    if (PyBytes_GET_SIZE(rows) > 0) {
        if ((w->row_count && PUT(&w->rows, ",") < 0) ||
            put(&w->rows, PyBytes_AS_STRING(rows), PyBytes_GET_SIZE(rows)) < 0)
            goto finish;
        w->row_count++;
    }
    status = OK;
finish:
    Py_DECREF(rows);
    return status;
}

/* The code point of the JSON string's character at s[*at] (raw bytes between
   the quotes, validated by the parser), moving *at past it; -1 for an escaped
   surrogate (left to Python). */
static long
next_char(const unsigned char *s, Py_ssize_t n, Py_ssize_t *at)
{
    Py_ssize_t i = *at;
    unsigned char c = s[i];
    if (c == '\\') {
        unsigned char e = s[i + 1];
        *at = i + 2;
        switch (e) {
        case 'b': return '\b';
        case 'f': return '\f';
        case 'n': return '\n';
        case 'r': return '\r';
        case 't': return '\t';
        case 'u': {
            long cp = hex4(s, i + 2, n);
            *at = i + 6;
            return (cp < 0 || (cp >= 0xD800 && cp <= 0xDFFF)) ? -1 : cp;
        }
        default: return e; /* " \ / */
        }
    }
    if (c < 0x80) {
        *at = i + 1;
        return c;
    }
    int size = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    long cp = c & (0x3F >> (size - 1));
    for (int k = 1; k < size; k++)
        cp = (cp << 6) | (s[i + k] & 0x3F);
    *at = i + size;
    return cp;
}

/* The rows of the message in position `n`, just written at out[mark:]. */
static int
put_rows(Writer *w, Py_ssize_t n, Py_ssize_t mark, int common)
{
    if (!common)
        return rows_from_python(w, mark);
    Py_ssize_t t = w->text;
    if (t == ABSENT || w->d->toks[t].len == 0) /* no text: no passage */
        return OK;
    const Tok *tok = &w->d->toks[t];
    const unsigned char *s = w->d->s + tok->start;
    Py_ssize_t at = 0, chars = 0;
    long first = 0, last = 0;
    while (at < tok->len) {
        long cp = next_char(s, tok->len, &at);
        if (cp < 0)
            return rows_from_python(w, mark);
        if (!chars++)
            first = cp;
        last = cp;
    }
    if (chars > MAX_PASSAGE_CHARS || Py_UNICODE_ISSPACE((Py_UCS4)first) ||
        Py_UNICODE_ISSPACE((Py_UCS4)last))
        return rows_from_python(w, mark);
    const Graph *g = w->g;
    Py_ssize_t c = g->order[n];
    Buf *b = &w->rows;
    if ((w->row_count && PUT(b, ",") < 0) || PUT(b, "[\"") < 0 ||
        put(b, w->ids[c], UUID_SIZE) < 0 || PUT(b, "\",0,\"") < 0 ||
        put(b, ROLES[w->role_index].text, ROLES[w->role_index].size) < 0 ||
        PUT(b, "\",null,") < 0 || put_epoch(b, g->times[n]) < 0 || PUT(b, ",") < 0 ||
        put_string(b, w->d, t) < 0 || PUT(b, ",null,") < 0 ||
        put(b, w->context.data, w->context.len) < 0 || PUT(b, "]") < 0)
        return ERROR;
    w->row_count++;
    return OK;
}

/* The message in position `n` of the order. */
static int
put_message(Writer *w, Py_ssize_t n)
{
    Py_ssize_t mark = w->out->len;
    w->text = ABSENT;
    int status = put_common_message(w, n);
    int common = status == OK;
    if (status == DECLINE && w->fallback != Py_None) {
        w->out->len = mark; /* what the common path wrote before it declined */
        status = put_fallback_message(w, n);
    }
    if (status != OK || w->rows_of == NULL)
        return status;
    return put_rows(w, n, mark, common);
}

/* `system_instruction`: the instructions the messages gave, each once, in
   order, joined by a blank line; null for none. */
static int
put_instructions(Buf *out, PyObject *instructions)
{
    if (PyList_GET_SIZE(instructions) == 0)
        return PUT(out, "null");
    PyObject *unique = PyDict_New(), *keys = NULL, *joined = NULL, *separator = NULL;
    int status = ERROR;
    if (unique == NULL)
        goto finish;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(instructions); i++)
        if (PyDict_SetItem(unique, PyList_GET_ITEM(instructions, i), Py_None) < 0)
            goto finish;
    if ((keys = PyDict_Keys(unique)) == NULL || (separator = PyUnicode_FromString("\n\n")) == NULL ||
        (joined = PyUnicode_Join(separator, keys)) == NULL)
        goto finish;
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(joined, &size);
    if (text == NULL)
        goto finish;
    status = size ? put_text(out, text, size) : PUT(out, "null");
finish:
    Py_XDECREF(unique);
    Py_XDECREF(keys);
    Py_XDECREF(separator);
    Py_XDECREF(joined);
    return status;
}

/* ----------------------------------------------------------------------
 * The conversation (`_ConversationReader.convert`, common shape)
 * ---------------------------------------------------------------------- */

static const Name CONVERSATION_MAPPED[] = {
    NAME("title"), NAME("create_time"),     NAME("update_time"), NAME("mapping"),
    NAME("id"),    NAME("conversation_id"), NAME("is_archived"), {NULL, 0}};
/* Conversation members the importer's raw_metadata members would overwrite. */
static const Name CONVERSATION_CLASHING[] = {NAME("empty_nodes"), NAME("message_feedback"),
                                             {NULL, 0}};

typedef struct {
    PyObject *fallback;
    PyObject *namespace;
    const char *import_metadata;
    Py_ssize_t import_metadata_len;
    const char *account;
    Py_ssize_t account_len;
    PyObject *rows_of; /* NULL: no recall passages */
} Settings;

/* Convert the conversation at token 0 into `out`; on OK *result holds the
   tuple convert() returns. */
static int
convert_conversation(const Doc *d, const Settings *st, Buf *out, PyObject **result)
{
    if (d->toks[0].type != T_OBJ)
        return DECLINE;
    Py_ssize_t conversation_id = find(d, 0, "conversation_id"), raw_id = find(d, 0, "id");
    Py_ssize_t mapping = find(d, 0, "mapping");
    if (conversation_id == AMBIGUOUS || raw_id == AMBIGUOUS || mapping < 0 ||
        d->toks[mapping].type != T_OBJ)
        return DECLINE;
    /* `raw.get("conversation_id") or raw.get("id")`, a non-empty str. */
    Py_ssize_t provider = conversation_id;
    if (type_of(d, conversation_id) == T_NULL)
        provider = raw_id;
    if (type_of(d, provider) != T_STR || d->toks[provider].len == 0 ||
        d->toks[provider].escaped)
        return DECLINE;
    if (raw_id != ABSENT && d->toks[raw_id].type != T_NULL &&
        (d->toks[raw_id].type != T_STR || d->toks[raw_id].escaped))
        return DECLINE;
    Py_ssize_t created_tok = find(d, 0, "create_time"), updated_tok = find(d, 0, "update_time");
    Py_ssize_t title = find(d, 0, "title"), archived = find(d, 0, "is_archived");
    Py_ssize_t model = find(d, 0, "default_model_slug");
    if (created_tok == AMBIGUOUS || updated_tok == AMBIGUOUS || title == AMBIGUOUS ||
        archived == AMBIGUOUS || model == AMBIGUOUS)
        return DECLINE;
    double created = 0, updated = 0;
    int has_created = epoch_of(d, created_tok, &created);
    int has_updated = epoch_of(d, updated_tok, &updated);

    Graph g = {0};
    char(*ids)[UUID_SIZE] = NULL;
    PyObject *provider_str = NULL, *cid = NULL, *base = NULL;
    char *name = NULL;
    Py_ssize_t room = 0;
    Writer w = {out, {0}, d, &g, NULL, 0, st->fallback, NULL, NULL, st->rows_of, NULL};
    int status = read_graph(&g, d, mapping, has_created || has_updated,
                            has_created ? created : updated);
    if (status != OK)
        goto finish;
    /* `created`: the conversation's, else the earliest message time, else its
       update time; with none of them Python warns. */
    double start = created;
    int has_start = has_created;
    if (!has_start)
        for (Py_ssize_t n = 0; n < g.count; n++)
            if (g.times[n] > 0 && (!has_start || g.times[n] < start)) {
                start = g.times[n];
                has_start = 1;
            }
    if (!has_start) { /* Python warns "no time at all" */
        status = DECLINE;
        goto finish;
    }

    /* The ids (`stable_id`): the conversation's, and each message's, which
       continue the hash of a prefix they share (`_message_hash`). */
    status = ERROR;
    provider_str = str_object(d, provider);
    if (provider_str == NULL)
        goto finish;
    const char *pid = (const char *)d->s + d->toks[provider].start;
    Py_ssize_t pid_size = d->toks[provider].len;
    Py_ssize_t pid_length = PyUnicode_GET_LENGTH(provider_str);
    char cid_text[UUID_SIZE];
    Py_ssize_t cid_len = UUID_SIZE, used;
    PyObject *hash;
    used = id_name("7:chatgpt\x1f" "12:conversation\x1f", pid, pid_size, pid_length, "", &name,
                   &room);
    if (used < 0 || (hash = continued(st->namespace, name, used)) == NULL)
        goto finish;
    int failed = digest_uuid(hash, cid_text);
    Py_DECREF(hash);
    if (failed)
        goto finish;
    used = id_name("7:chatgpt\x1f" "7:message\x1f", pid, pid_size, pid_length, "\x1f", &name,
                   &room);
    if (used < 0 || (base = continued(st->namespace, name, used)) == NULL)
        goto finish;
    if ((cid = PyUnicode_FromStringAndSize(cid_text, UUID_SIZE)) == NULL)
        goto finish;
    ids = PyMem_Calloc(g.count + 1, UUID_SIZE);
    if (ids == NULL) {
        PyErr_NoMemory();
        goto finish;
    }
    w.ids = ids;
    w.provider_id = provider_str;
    if ((w.instructions = PyList_New(0)) == NULL)
        goto finish;
    w.title = type_of(d, title) == T_STR ? str_object(d, title) : Py_NewRef(Py_None);
    if (w.title == NULL)
        goto finish;
    if (w.rows_of != NULL) {
        /* Every row's context: the title, stripped (message_rows). */
        if (w.title == Py_None) {
            if (PUT(&w.context, "\"\"") < 0)
                goto finish;
        }
        else {
            PyObject *stripped = PyObject_CallMethod(w.title, "strip", NULL);
            Py_ssize_t size;
            const char *utf8 = stripped ? PyUnicode_AsUTF8AndSize(stripped, &size) : NULL;
            int failed = utf8 == NULL || put_text(&w.context, utf8, size) != OK;
            Py_XDECREF(stripped);
            if (failed)
                goto finish;
        }
        if (PUT(&w.rows, "[") < 0)
            goto finish;
    }
    for (Py_ssize_t c = 0; c < g.count; c++) {
        const Tok *key = &d->toks[g.key[g.member[c]]];
        const unsigned char *utf8 = d->s + key->start;
        Py_ssize_t length = 0;
        for (Py_ssize_t i = 0; i < key->len; i++)
            length += (utf8[i] & 0xC0) != 0x80;
        if (node_uuid(base, (const char *)utf8, key->len, length, &name, &room, ids[c]) < 0)
            goto finish;
    }

    /* The document, keys in order. */
    if (PUT(out, "{\"id\":\"") < 0 || put(out, cid_text, cid_len) < 0 ||
        PUT(out, "\",\"import_metadata\":") < 0 ||
        put(out, st->import_metadata, st->import_metadata_len) < 0 ||
        PUT(out, ",\"is_archived\":") < 0 ||
        (type_of(d, archived) == T_TRUE ? PUT(out, "true") : PUT(out, "false")) < 0 ||
        PUT(out, ",\"messages\":[") < 0)
        goto finish;
    for (Py_ssize_t n = 0; n < g.count; n++) {
        if (n && PUT(out, ",") < 0)
            goto finish;
        if ((status = put_message(&w, n)) != OK)
            goto finish;
    }
    status = ERROR;
    if (PUT(out, "],\"model\":") < 0)
        goto finish;
    if (type_of(d, model) == T_STR) {
        if ((status = put_string(out, d, model)) != OK)
            goto finish;
        status = ERROR;
    }
    else if (PUT(out, "null") < 0)
        goto finish;
    if (PUT(out, ",\"participants\":[") < 0)
        goto finish;
    for (int i = 0, first = 1; ROLES[i].text != NULL; i++)
        if (w.roles_seen & (1 << i)) {
            if ((!first && PUT(out, ",") < 0) || PUT(out, "{\"role\":\"") < 0 ||
                put(out, ROLES[i].text, ROLES[i].size) < 0 || PUT(out, "\"}") < 0)
                goto finish;
            first = 0;
        }
    if (PUT(out, "],\"provider\":{\"account_id\":") < 0 ||
        put(out, st->account, st->account_len) < 0 ||
        PUT(out, ",\"conversation_id\":") < 0 || put_string(out, d, provider) < 0 ||
        PUT(out, ",\"name\":\"chatgpt\"},\"raw_metadata\":") < 0)
        goto finish;

    /* The conversation's raw_metadata. */
    {
        Members m;
        members_init(&m);
        Buf *scratch = &w.scratch;
        scratch->len = 0;
        status = OK;
        Py_ssize_t k = 1;
        for (Py_ssize_t i = 0; i < d->toks[0].count && status == OK; i++) {
            if (d->toks[k].escaped || is_one_of(d, k, CONVERSATION_CLASHING))
                status = DECLINE;
            else if (!is_one_of(d, k, CONVERSATION_MAPPED))
                status = add_token(&m, d, k, k + 1, 0);
            k = d->toks[k + 1].end;
        }
        int t = type_of(d, title);
        if (status == OK && title != ABSENT && t != T_STR && t != T_NULL)
            status = add_member(&m, (const unsigned char *)"title", 5, title, NULL, 0);
        if (status == OK && created_tok != ABSENT && !has_created)
            status = add_member(&m, (const unsigned char *)"create_time", 11, created_tok, NULL, 0);
        if (status == OK && updated_tok != ABSENT && !has_updated)
            status = add_member(&m, (const unsigned char *)"update_time", 11, updated_tok, NULL, 0);
        t = type_of(d, archived);
        if (status == OK && archived != ABSENT && t != T_TRUE && t != T_FALSE)
            status = add_member(&m, (const unsigned char *)"is_archived", 11, archived, NULL, 0);
        if (status == OK && type_of(d, raw_id) == T_STR &&
            !(type_of(d, conversation_id) == T_STR && same_str(d, raw_id, conversation_id)))
            status = add_member(&m, (const unsigned char *)"id", 2, raw_id, NULL, 0);
        if (status == OK && g.empty) {
            /* The keys of the nodes without a message, in mapping order. */
            status = PUT(scratch, "[");
            for (Py_ssize_t i = 0, first = 1; i < g.size && status == OK; i++)
                if (g.kept[i] < 0) {
                    if (!first)
                        status = PUT(scratch, ",");
                    if (status == OK)
                        status = put_string(scratch, d, g.key[i]);
                    first = 0;
                }
            if (status == OK)
                status = PUT(scratch, "]");
            if (status == OK)
                status = ADD_TEXT(&m, "empty_nodes", scratch->data, scratch->len);
        }
        if (status == OK)
            status = put_members(out, d, &m);
        members_free(&m);
        if (status != OK)
            goto finish;
        status = ERROR;
    }

    char created_iso[ISO_SIZE], updated_iso[ISO_SIZE];
    Py_ssize_t created_len = iso_text(start, created_iso), updated_len = 0;
    if (created_len < 0 || (has_updated && (updated_len = iso_text(updated, updated_iso)) < 0))
        goto finish;
    if (PUT(out, ",\"schema\":\"portable-ai-memory-conversation\",\"schema_version\":\"1.0\","
                 "\"system_instruction\":") < 0 ||
        put_instructions(out, w.instructions) < 0 || PUT(out, ",\"temporal\":{\"created_at\":\"") < 0 ||
        put(out, created_iso, created_len) < 0 || PUT(out, "\",\"updated_at\":") < 0)
        goto finish;
    if (has_updated) {
        if (PUT(out, "\"") < 0 || put(out, updated_iso, updated_len) < 0 || PUT(out, "\"") < 0)
            goto finish;
    }
    else if (PUT(out, "null") < 0)
        goto finish;
    if (PUT(out, "},\"title\":") < 0)
        goto finish;
    if ((type_of(d, title) == T_STR ? put_string(out, d, title) : PUT(out, "null")) < 0 ||
        PUT(out, "}") < 0)
        goto finish;
    if (w.rows_of != NULL) {
        if (PUT(&w.rows, "]") < 0)
            goto finish;
        *result = Py_BuildValue(
            "(y#OOOs#Nny#)", out->data, out->len, provider_str, cid, w.title, created_iso,
            created_len,
            has_updated ? PyUnicode_FromStringAndSize(updated_iso, updated_len)
                        : Py_NewRef(Py_None),
            g.count, w.rows.data, w.rows.len);
    }
    else
        *result = Py_BuildValue(
            "(y#OOOs#Nn)", out->data, out->len, provider_str, cid, w.title, created_iso,
            created_len,
            has_updated ? PyUnicode_FromStringAndSize(updated_iso, updated_len)
                        : Py_NewRef(Py_None),
            g.count);
    status = *result == NULL ? ERROR : OK;

finish:
    if (status == ERROR && !PyErr_Occurred())
        PyErr_SetString(PyExc_SystemError, "conversion failed without an exception");
    PyMem_Free(name);
    PyMem_Free(ids);
    PyMem_Free(w.scratch.data);
    PyMem_Free(w.rows.data);
    PyMem_Free(w.context.data);
    Py_XDECREF(w.title);
    Py_XDECREF(w.instructions);
    Py_XDECREF(provider_str);
    Py_XDECREF(cid);
    Py_XDECREF(base);
    graph_free(&g);
    return status;
}

static PyObject *
convert(PyObject *module, PyObject *args)
{
    Py_buffer item;
    Settings st;
    st.rows_of = Py_None;
    if (!PyArg_ParseTuple(args, "y*Oy#y#O|O:convert", &item, &st.namespace, &st.import_metadata,
                          &st.import_metadata_len, &st.account, &st.account_len, &st.fallback,
                          &st.rows_of))
        return NULL;
    if (st.rows_of == Py_None)
        st.rows_of = NULL;
    Parser p = {item.buf, item.len, 0, NULL, 0, 0, 0};
    PyObject *result = NULL;
    Buf out = {0};
    int status = parse_value(&p);
    if (status == OK) {
        skip_ws(&p);
        if (p.pos != p.n)
            status = DECLINE; /* trailing bytes: the caller's to report */
    }
    if (status == OK) {
        Doc d = {p.s, p.toks};
        status = convert_conversation(&d, &st, &out, &result);
    }
    PyMem_Free(p.toks);
    PyMem_Free(out.data);
    PyBuffer_Release(&item);
    if (status == ERROR)
        return NULL;
    if (status == DECLINE)
        Py_RETURN_NONE;
    return result;
}

static PyMethodDef methods[] = {
    {"convert", convert, METH_VARARGS,
     "convert(item, namespace, import_metadata, account, fallback[, rows_of]) -> (document, "
     "provider_id, id, title, created_at, updated_at, messages[, passages]) | None\n\n"
     "With rows_of, passages is the JSON of the recall rows of the messages (see "
     "memvault.recall.index.message_rows). "
     "The sorted-key JSON of the PAM document of one ChatGPT conversation (bytes) of the "
     "common shape, with its index columns; None for any other (see "
     "memvault.importers.chatgpt)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "memvault.importers._chatgpt_direct",
    "A common ChatGPT conversation converted from JSON bytes to PAM JSON bytes, in C.", -1,
    methods,
};

PyMODINIT_FUNC
PyInit__chatgpt_direct(void)
{
    if (common_init() < 0)
        return NULL;
    return PyModule_Create(&module_def);
}
