/* memvault's full-text analysis as a loadable SQLite extension.
 *
 * It registers the FTS5 tokenizer `memvault` and the SQL function `memvault_terms(text)`:
 *
 * - the text is split, lower-cased and folded by FTS5's own `unicode61` tokenizer with
 *   `remove_diacritics 2` (found through the fts5_api, not reimplemented);
 * - each folded token is stemmed by Snowball English and Snowball Portuguese (libstemmer);
 *   a document gets the English stem and, when it differs, the Portuguese stem at the same
 *   position (FTS5_TOKEN_COLOCATED), so a query finds a word through either stem.
 * - A query (FTS5_TOKENIZE_QUERY) is folded but not stemmed: its terms are the stems that
 *   `memvault_terms` gave the query side already, and a stem stemmed again is not always the
 *   same stem.
 * - `memvault_terms(text)` returns, as a JSON array, one array per token: the folded token
 *   followed by its distinct stems (English first), through the very same code.
 * - `memvault_rows(rows)`: the recall passages of a conversation (JSON) as rows (below), and
 *   `memvault_write_passages(id, handle, batch)`: a batch of conversations' passages written
 *   into the recall tables, each with its full-text entry (below).
 * - Text that is not valid UTF-8 (a blob) can make unicode61 write tokens that are not either
 *   (code points past U+10FFFF): each invalid byte of such a token becomes U+FFFD before it is
 *   stemmed or indexed, so every index term and every memvault_terms result is valid UTF-8.
 *
 * It is compiled against Debian's sqlite3ext.h (SQLite 3.40): the routines it calls and the
 * fts5_api version 2 it uses are all older than that, and the SQLite it is loaded into
 * (SQLCipher's, 3.53) keeps both compatible. It never links libsqlite3: every call goes
 * through the routines the loading connection hands over.
 *
 * setuptools builds it as a Python extension module, so it is one too, an empty one: whatever
 * imports every module of the package (pkgutil.walk_packages) imports it without error.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <libstemmer.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *FOLD_ARGS[] = {"remove_diacritics", "2"};

/* A word cache: conversation text repeats its words, and looking a word up costs a fraction of
 * stemming it twice. Direct-mapped (a colliding word replaces the one in its slot); only words
 * whose token and stems fit in CACHE_BYTES are kept. */
#ifndef CACHE_SLOTS
#define CACHE_SLOTS 16384 /* a power of two: 16,384 x 88 bytes, 1.4 MiB per user */
#endif
#define CACHE_BYTES 28

typedef struct CacheEntry {
  unsigned char n_token, n_en, n_pt; /* n_token 0: empty; n_pt 0: the stems are equal */
  char token[CACHE_BYTES], en[CACHE_BYTES], pt[CACHE_BYTES];
} CacheEntry;

/* The two stemmers and their cache (their output buffers belong to them: one set per user,
 * never shared). */
typedef struct Stemmers {
  struct sb_stemmer *en;
  struct sb_stemmer *pt;
  CacheEntry *cache;
} Stemmers;

static int stemmers_open(Stemmers *s) {
  s->en = sb_stemmer_new("english", "UTF_8");
  s->pt = sb_stemmer_new("portuguese", "UTF_8");
  s->cache = sqlite3_malloc64(sizeof(CacheEntry) * CACHE_SLOTS);
  if (s->cache) memset(s->cache, 0, sizeof(CacheEntry) * CACHE_SLOTS);
  return (s->en && s->pt && s->cache) ? SQLITE_OK : SQLITE_NOMEM;
}

static void stemmers_close(Stemmers *s) {
  if (s->en) sb_stemmer_delete(s->en);
  if (s->pt) sb_stemmer_delete(s->pt);
  sqlite3_free(s->cache);
  s->en = s->pt = 0;
  s->cache = 0;
}

/* unicode61 with the folding of the analysis rules, made through the connection's fts5_api. */
typedef struct Folder {
  fts5_tokenizer methods;
  Fts5Tokenizer *instance;
} Folder;

static int folder_open(fts5_api *api, Folder *f) {
  void *user = 0;
  int rc = api->xFindTokenizer(api, "unicode61", &user, &f->methods);
  if (rc != SQLITE_OK) return rc;
  return f->methods.xCreate(user, FOLD_ARGS, 2, &f->instance);
}

static void folder_close(Folder *f) {
  if (f->instance) f->methods.xDelete(f->instance);
  f->instance = 0;
}

/* Stem one folded token; *en and *pt point into the stemmers' buffers or their cache, valid
 * until the next call (pt NULL when the stems are equal). */
static int stem(Stemmers *s, const char *token, int n, const char **en, int *n_en,
                const char **pt, int *n_pt) {
  CacheEntry *entry = 0;
  if (n > 0 && n <= CACHE_BYTES) {
    unsigned hash = 2166136261u; /* FNV-1a */
    for (int i = 0; i < n; i++) hash = (hash ^ (unsigned char)token[i]) * 16777619u;
    entry = &s->cache[hash & (CACHE_SLOTS - 1)];
    if (entry->n_token == n && memcmp(entry->token, token, (size_t)n) == 0) {
      *en = entry->en;
      *n_en = entry->n_en;
      *pt = entry->n_pt ? entry->pt : 0;
      *n_pt = entry->n_pt;
      return SQLITE_OK;
    }
  }
  const sb_symbol *a = sb_stemmer_stem(s->en, (const sb_symbol *)token, n);
  if (!a) return SQLITE_NOMEM;
  *en = (const char *)a;
  *n_en = sb_stemmer_length(s->en);
  const sb_symbol *b = sb_stemmer_stem(s->pt, (const sb_symbol *)token, n);
  if (!b) return SQLITE_NOMEM;
  *n_pt = sb_stemmer_length(s->pt);
  *pt = (*n_pt == *n_en && memcmp(a, b, (size_t)*n_en) == 0) ? 0 : (const char *)b;
  if (entry && *n_en > 0 && *n_en <= CACHE_BYTES && (!*pt || (*n_pt > 0 && *n_pt <= CACHE_BYTES))) {
    entry->n_token = (unsigned char)n;
    memcpy(entry->token, token, (size_t)n);
    entry->n_en = (unsigned char)*n_en;
    memcpy(entry->en, *en, (size_t)*n_en);
    entry->n_pt = *pt ? (unsigned char)*n_pt : 0;
    if (*pt) memcpy(entry->pt, *pt, (size_t)*n_pt);
  }
  return SQLITE_OK;
}

/* -- valid UTF-8 ------------------------------------------------------------------------- */

typedef struct Buffer {
  char *data;
  sqlite3_int64 size;
} Buffer;

/* The length of the well-formed UTF-8 sequence at s (n bytes left), 0 if there is none. */
static int utf8_length(const unsigned char *s, int n) {
  unsigned c = s[0];
  int length;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    length = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    length = 3;
  else if (c >= 0xF0 && c <= 0xF4)
    length = 4;
  else
    return 0;
  if (n < length) return 0;
  for (int i = 1; i < length; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xF0 && s[1] < 0x90)) return 0; /* overlong */
  if (c == 0xED && s[1] > 0x9F) return 0;                                 /* surrogate */
  if (c == 0xF4 && s[1] > 0x8F) return 0;                                 /* > U+10FFFF */
  return length;
}

/* `token` itself when it is valid UTF-8, else a copy in `buffer` with U+FFFD for each byte
 * that starts no well-formed sequence. */
static int valid_utf8(Buffer *buffer, const char *token, int n, const char **out, int *n_out) {
  const unsigned char *s = (const unsigned char *)token;
  int i = 0, length;
  while (i < n && s[i] < 0x80) i++; /* most tokens are ASCII: no call a byte */
  while (i < n && (length = utf8_length(s + i, n - i)) > 0) i += length;
  *out = token;
  *n_out = n;
  if (i == n) return SQLITE_OK;
  sqlite3_int64 need = (sqlite3_int64)n * 3;
  if (need > INT_MAX) return SQLITE_TOOBIG;
  if (buffer->size < need) {
    char *grown = sqlite3_realloc64(buffer->data, (sqlite3_uint64)need);
    if (!grown) return SQLITE_NOMEM;
    buffer->data = grown;
    buffer->size = need;
  }
  char *w = buffer->data;
  memcpy(w, token, (size_t)i);
  w += i;
  while (i < n) {
    length = utf8_length(s + i, n - i);
    if (length) {
      memcpy(w, s + i, (size_t)length);
      w += length;
      i += length;
    } else {
      memcpy(w, "\xEF\xBF\xBD", 3);
      w += 3;
      i++;
    }
  }
  *out = buffer->data;
  *n_out = (int)(w - buffer->data);
  return SQLITE_OK;
}

/* -- the FTS5 tokenizer ------------------------------------------------------------------ */

typedef struct Tokenizer {
  Folder folder;
  Stemmers stemmers;
  Buffer buffer;
} Tokenizer;

typedef int (*TokenCallback)(void *, int, const char *, int, int, int);

typedef struct TokenizeCall {
  Tokenizer *tokenizer;
  void *ctx;
  TokenCallback emit;
  int stem;
} TokenizeCall;

static void tokenizer_delete(Fts5Tokenizer *p) {
  Tokenizer *t = (Tokenizer *)p;
  if (!t) return;
  folder_close(&t->folder);
  stemmers_close(&t->stemmers);
  sqlite3_free(t->buffer.data);
  sqlite3_free(t);
}

static int tokenizer_create(void *user, const char **args, int n_args, Fts5Tokenizer **out) {
  (void)args;
  *out = 0;
  if (n_args != 0) return SQLITE_ERROR; /* the analysis is fixed: no options */
  Tokenizer *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  int rc = folder_open((fts5_api *)user, &t->folder);
  if (rc == SQLITE_OK) rc = stemmers_open(&t->stemmers);
  if (rc != SQLITE_OK) {
    tokenizer_delete((Fts5Tokenizer *)t);
    return rc;
  }
  *out = (Fts5Tokenizer *)t;
  return SQLITE_OK;
}

static int emit_stems(void *p, int flags, const char *token, int n, int start, int end) {
  TokenizeCall *call = p;
  const char *en, *pt;
  int n_en, n_pt;
  int rc = valid_utf8(&call->tokenizer->buffer, token, n, &token, &n);
  if (rc != SQLITE_OK) return rc;
  if (!call->stem) return call->emit(call->ctx, flags, token, n, start, end);
  rc = stem(&call->tokenizer->stemmers, token, n, &en, &n_en, &pt, &n_pt);
  if (rc != SQLITE_OK) return rc;
  rc = call->emit(call->ctx, flags, en, n_en, start, end);
  if (rc == SQLITE_OK && pt) rc = call->emit(call->ctx, FTS5_TOKEN_COLOCATED, pt, n_pt, start, end);
  return rc;
}

static int tokenizer_tokenize(Fts5Tokenizer *p, void *ctx, int flags, const char *text, int n,
                              TokenCallback emit) {
  Tokenizer *t = (Tokenizer *)p;
  Folder *f = &t->folder;
  /* query terms are stems already: fold only */
  TokenizeCall call = {t, ctx, emit, !(flags & FTS5_TOKENIZE_QUERY)};
  return f->methods.xTokenize(f->instance, &call, flags, text, n, emit_stems);
}

/* -- memvault_terms(text) ---------------------------------------------------------------- */

typedef struct Terms {
  fts5_api *api;
  Folder folder;
  Stemmers stemmers;
  Buffer buffer;
} Terms;

typedef struct TermsCall {
  Terms *terms;
  sqlite3_str *out;
  int count;
} TermsCall;

static void terms_free(void *p) {
  Terms *t = p;
  if (!t) return;
  folder_close(&t->folder);
  stemmers_close(&t->stemmers);
  sqlite3_free(t->buffer.data);
  sqlite3_free(t);
}

/* A JSON string: the token's bytes, with quote, backslash and control characters escaped. */
static void json_string(sqlite3_str *out, const char *s, int n) {
  static const char hex[] = "0123456789abcdef";
  sqlite3_str_appendchar(out, 1, '"');
  int run = 0;
  for (int i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    sqlite3_str_append(out, s + run, i - run);
    run = i + 1;
    char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
    if (c == '"' || c == '\\') {
      esc[1] = (char)c;
      sqlite3_str_append(out, esc, 2);
    } else {
      sqlite3_str_append(out, esc, 6);
    }
  }
  sqlite3_str_append(out, s + run, n - run);
  sqlite3_str_appendchar(out, 1, '"');
}

static int terms_token(void *p, int flags, const char *token, int n, int start, int end) {
  (void)flags, (void)start, (void)end;
  TermsCall *call = p;
  const char *en, *pt;
  int n_en, n_pt;
  int rc = valid_utf8(&call->terms->buffer, token, n, &token, &n);
  if (rc != SQLITE_OK) return rc;
  rc = stem(&call->terms->stemmers, token, n, &en, &n_en, &pt, &n_pt);
  if (rc != SQLITE_OK) return rc;
  sqlite3_str_appendall(call->out, call->count++ ? ",[" : "[");
  json_string(call->out, token, n);
  sqlite3_str_appendchar(call->out, 1, ',');
  json_string(call->out, en, n_en);
  if (pt) {
    sqlite3_str_appendchar(call->out, 1, ',');
    json_string(call->out, pt, n_pt);
  }
  sqlite3_str_appendchar(call->out, 1, ']');
  return sqlite3_str_errcode(call->out);
}

static void terms_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
  (void)argc;
  Terms *terms = sqlite3_user_data(context);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return; /* NULL in, NULL out */
  const char *text = (const char *)sqlite3_value_text(argv[0]);
  int n = sqlite3_value_bytes(argv[0]);
  if (!text && n) {
    sqlite3_result_error_nomem(context);
    return;
  }
  if (!terms->folder.instance) { /* made on first use: a connection that never asks pays nothing */
    int rc = folder_open(terms->api, &terms->folder);
    if (rc == SQLITE_OK) rc = stemmers_open(&terms->stemmers);
    if (rc != SQLITE_OK) {
      folder_close(&terms->folder);
      stemmers_close(&terms->stemmers);
      sqlite3_result_error_code(context, rc);
      return;
    }
  }
  TermsCall call = {terms, sqlite3_str_new(0), 0};
  sqlite3_str_appendchar(call.out, 1, '[');
  Folder *f = &terms->folder;
  int rc = f->methods.xTokenize(f->instance, &call, FTS5_TOKENIZE_DOCUMENT, text ? text : "", n,
                                terms_token);
  sqlite3_str_appendchar(call.out, 1, ']');
  if (rc == SQLITE_OK) rc = sqlite3_str_errcode(call.out);
  int length = sqlite3_str_length(call.out);
  char *json = sqlite3_str_finish(call.out);
  if (rc != SQLITE_OK || !json) {
    sqlite3_free(json);
    if (rc == SQLITE_NOMEM || rc == SQLITE_OK)
      sqlite3_result_error_nomem(context);
    else if (rc == SQLITE_TOOBIG)
      sqlite3_result_error_toobig(context);
    else
      sqlite3_result_error_code(context, rc);
    return;
  }
  sqlite3_result_text(context, json, length, sqlite3_free);
}

/* The connection's fts5_api, or NULL (its error message in *error). */
static fts5_api *fts5_api_of(sqlite3 *db, char **error) {
  fts5_api *api = 0;
  sqlite3_stmt *stmt = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0) != SQLITE_OK) {
    *error = sqlite3_mprintf("memvault tokenizer: cannot reach FTS5: %s", sqlite3_errmsg(db));
    return 0;
  }
  sqlite3_bind_pointer(stmt, 1, (void *)&api, "fts5_api_ptr", 0);
  sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  if (!api || api->iVersion < 2) {
    *error = sqlite3_mprintf("memvault tokenizer: this SQLite has no FTS5 (fts5_api v2)");
    return 0;
  }
  return api;
}

/* -- as a Python module ------------------------------------------------------------------ */

static struct PyModuleDef python_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "memvault.recall._tokenizer",
    .m_doc = "memvault's full-text analysis, a SQLite extension: memvault.recall.analysis.prepare "
             "loads it into a connection. Imported, it holds nothing.",
    .m_size = 0,
};

PyMODINIT_FUNC PyInit__tokenizer(void) { return PyModule_Create(&python_module); }

/* -- memvault_rows: a conversation's recall passages, read in C --------------------------- */

/* The table-valued function `memvault_rows(rows)`: `rows` is the JSON array of a conversation's
 * message passages as an import's reader process writes them (memvault.recall.index.
 * message_rows: one array a passage of message id, part, role, participant, time, text,
 * analysed words, analysed context), and each passage is a row of those eight columns, its
 * rowid its place from 0. It reads what `memvault_write_passages` (below) writes, with the
 * same reader: a query can look at a reader process's passages as SQLite takes them.
 *
 * The values are those a JSON reader gives and Python binds: a string (escapes decoded;
 * a lone surrogate or bytes that are not UTF-8 are refused, as orjson refuses them), an integer, a float (strtod: correctly rounded, as orjson
 * reads it), null, true and false as 1 and 0. Anything else is an error naming the byte. */

#define ROW_VALUES 8

/* The reading state of one conversation's passages array (`memvault_rows`) or of a batch of
 * them (`memvault_write_passages`): the text, where reading is, the current passage's values. */
typedef struct RowsReader {
  const char *text;
  int n, at;
  sqlite3_int64 rowid;
  int eof;
  char *error; /* the message of the last failure (sqlite3_malloc'd) */
  int type[ROW_VALUES];
  sqlite3_int64 integer[ROW_VALUES];
  double real[ROW_VALUES];
  const char *string[ROW_VALUES];
  int length[ROW_VALUES];
  char *decoded[ROW_VALUES]; /* a string with escapes, decoded */
  int capacity[ROW_VALUES];
} RowsReader;

static void reader_free(RowsReader *c) {
  for (int i = 0; i < ROW_VALUES; i++) sqlite3_free(c->decoded[i]);
  sqlite3_free(c->error);
  c->error = NULL;
}

typedef struct RowsCursor {
  sqlite3_vtab_cursor base;
  char *copy; /* the argument, copied */
  RowsReader r;
} RowsCursor;

static int rows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **error) {
  (void)aux, (void)argc, (void)argv, (void)error;
  int rc = sqlite3_declare_vtab(db,
                                "CREATE TABLE x(message_id, part, role, participant, at_epoch, "
                                "text, words, context, rows HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab *table = sqlite3_malloc(sizeof *table);
  if (!table) return SQLITE_NOMEM;
  memset(table, 0, sizeof *table);
  *out = table;
  return SQLITE_OK;
}

static int rows_disconnect(sqlite3_vtab *table) {
  sqlite3_free(table);
  return SQLITE_OK;
}

static int rows_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
  (void)table;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->iColumn == ROW_VALUES && c->op == SQLITE_INDEX_CONSTRAINT_EQ) {
      if (!c->usable) return SQLITE_CONSTRAINT;
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 10;
      info->estimatedRows = 10;
      info->idxNum = 1;
      return SQLITE_OK;
    }
  }
  return SQLITE_CONSTRAINT; /* the rows argument is required */
}

static int rows_open(sqlite3_vtab *table, sqlite3_vtab_cursor **out) {
  (void)table;
  RowsCursor *cursor = sqlite3_malloc(sizeof *cursor);
  if (!cursor) return SQLITE_NOMEM;
  memset(cursor, 0, sizeof *cursor);
  *out = &cursor->base;
  return SQLITE_OK;
}

static int rows_close(sqlite3_vtab_cursor *base) {
  RowsCursor *cursor = (RowsCursor *)base;
  sqlite3_free(cursor->copy);
  reader_free(&cursor->r);
  sqlite3_free(cursor);
  return SQLITE_OK;
}

static int rows_fail(RowsReader *c, const char *what) {
  sqlite3_free(c->error);
  c->error = sqlite3_mprintf("%s at byte %d of the rows", what, c->at);
  return c->error ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* A reading failure of the table-valued function, as its table's error message. */
static int cursor_failed(RowsCursor *cursor, int rc) {
  if (rc == SQLITE_ERROR && cursor->r.error) {
    sqlite3_free(cursor->base.pVtab->zErrMsg);
    cursor->base.pVtab->zErrMsg = sqlite3_mprintf("memvault_rows: %s", cursor->r.error);
  }
  return rc;
}

static void skip_space(RowsReader *c) {
  while (c->at < c->n && (c->text[c->at] == ' ' || c->text[c->at] == '\t' ||
                          c->text[c->at] == '\n' || c->text[c->at] == '\r'))
    c->at++;
}

static int hex_digits(const char *s, int n, int at) {
  if (at + 4 > n) return -1;
  int value = 0;
  for (int i = 0; i < 4; i++) {
    char h = s[at + i];
    int d = h >= '0' && h <= '9' ? h - '0'
            : h >= 'a' && h <= 'f' ? h - 'a' + 10
            : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                   : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

/* Whether n bytes are well-formed UTF-8 (what a JSON reader such as orjson accepts). */
static int utf8_whole(const char *s, int n) {
  for (int i = 0; i < n;) {
    if ((unsigned char)s[i] < 0x80) {
      i++;
      continue;
    }
    int length = utf8_length((const unsigned char *)s + i, n - i);
    if (!length) return 0;
    i += length;
  }
  return 1;
}

/* A string value whose opening quote is at c->at. */
static int read_string(RowsReader *c, int slot) {
  const char *s = c->text;
  int start = ++c->at, at = start, escaped = 0;
  while (at < c->n && s[at] != '"') {
    if (s[at] == '\\') {
      escaped = 1;
      at++;
    }
    at++;
  }
  if (at >= c->n) return rows_fail(c, "an unterminated string");
  /* escapes decode to UTF-8: the bytes around them are checked here */
  if (!utf8_whole(s + start, at - start)) return rows_fail(c, "a string that is not UTF-8");
  c->type[slot] = SQLITE_TEXT;
  if (!escaped) {
    c->string[slot] = s + start;
    c->length[slot] = at - start;
    c->at = at + 1;
    return SQLITE_OK;
  }
  int need = at - start + 1; /* decoding never lengthens a string */
  if (c->capacity[slot] < need) {
    char *grown = sqlite3_realloc(c->decoded[slot], need);
    if (!grown) return SQLITE_NOMEM;
    c->decoded[slot] = grown;
    c->capacity[slot] = need;
  }
  char *out = c->decoded[slot];
  int size = 0;
  for (int i = start; i < at; i++) {
    char ch = s[i];
    if (ch != '\\') {
      out[size++] = ch;
      continue;
    }
    c->at = i;
    char e = s[++i];
    switch (e) {
    case '"': case '\\': case '/': out[size++] = e; break;
    case 'b': out[size++] = '\b'; break;
    case 'f': out[size++] = '\f'; break;
    case 'n': out[size++] = '\n'; break;
    case 'r': out[size++] = '\r'; break;
    case 't': out[size++] = '\t'; break;
    case 'u': {
      long cp = hex_digits(s, at, i + 1);
      if (cp < 0) return rows_fail(c, "a bad \\u escape");
      i += 4;
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        long low = (i + 2 < at && s[i + 1] == '\\' && s[i + 2] == 'u')
                       ? hex_digits(s, at, i + 3) : -1;
        if (low < 0xDC00 || low > 0xDFFF) return rows_fail(c, "a lone surrogate");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        i += 6;
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return rows_fail(c, "a lone surrogate");
      }
      if (cp < 0x80) {
        out[size++] = (char)cp;
      } else if (cp < 0x800) {
        out[size++] = (char)(0xC0 | (cp >> 6));
        out[size++] = (char)(0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        out[size++] = (char)(0xE0 | (cp >> 12));
        out[size++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[size++] = (char)(0x80 | (cp & 0x3F));
      } else {
        out[size++] = (char)(0xF0 | (cp >> 18));
        out[size++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[size++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[size++] = (char)(0x80 | (cp & 0x3F));
      }
      break;
    }
    default: return rows_fail(c, "a bad escape");
    }
  }
  c->string[slot] = out;
  c->length[slot] = size;
  c->at = at + 1;
  return SQLITE_OK;
}

static int read_number(RowsReader *c, int slot) {
  const char *s = c->text;
  int start = c->at, at = start, real = 0;
  while (at < c->n && (s[at] == '-' || s[at] == '+' || (s[at] >= '0' && s[at] <= '9') ||
                       s[at] == '.' || s[at] == 'e' || s[at] == 'E')) {
    if (s[at] == '.' || s[at] == 'e' || s[at] == 'E') real = 1;
    at++;
  }
  if (at == start) return rows_fail(c, "a bad number");
  /* strtod and strtoll read a terminated string: copy the number (on the heap when long) */
  char small[64];
  char *digits = small;
  if (at - start >= (int)sizeof small) {
    digits = sqlite3_malloc(at - start + 1);
    if (digits == NULL) return SQLITE_NOMEM;
  }
  memcpy(digits, s + start, at - start);
  digits[at - start] = 0;
  char *end = NULL;
  if (!real) {
    errno = 0;
    sqlite3_int64 value = strtoll(digits, &end, 10);
    if (errno == ERANGE) {
      real = 1; /* beyond 64 bits: a float, as orjson reads it */
    } else {
      c->type[slot] = SQLITE_INTEGER;
      c->integer[slot] = value;
    }
  }
  if (real) {
    c->type[slot] = SQLITE_FLOAT;
    c->real[slot] = strtod(digits, &end);
  }
  int whole = end == digits + (at - start);
  if (digits != small) sqlite3_free(digits);
  if (!whole) return rows_fail(c, "a bad number");
  c->at = at;
  return SQLITE_OK;
}

static int read_word(RowsReader *c, int slot, const char *word, int type, int value) {
  int n = (int)strlen(word);
  if (c->at + n > c->n || memcmp(c->text + c->at, word, n) != 0)
    return rows_fail(c, "an unexpected value");
  c->type[slot] = type;
  c->integer[slot] = value;
  c->at += n;
  return SQLITE_OK;
}

/* The next passage into the cursor's values, or eof at the end of the array. */
static int rows_step(RowsReader *c) {
  skip_space(c);
  if (c->at >= c->n) return rows_fail(c, "the end of the rows");
  if (c->text[c->at] == ']') {
    c->eof = 1;
    return SQLITE_OK;
  }
  if (c->rowid > 0) {
    if (c->text[c->at] != ',') return rows_fail(c, "no ',' between passages");
    c->at++;
    skip_space(c);
  }
  if (c->at >= c->n || c->text[c->at] != '[') return rows_fail(c, "no passage");
  c->at++;
  for (int slot = 0; slot < ROW_VALUES; slot++) {
    skip_space(c);
    if (slot > 0) {
      if (c->at >= c->n || c->text[c->at] != ',') return rows_fail(c, "a passage of too few values");
      c->at++;
      skip_space(c);
    }
    if (c->at >= c->n) return rows_fail(c, "the end of the rows");
    char first = c->text[c->at];
    int rc = first == '"'   ? read_string(c, slot)
             : first == 'n' ? read_word(c, slot, "null", SQLITE_NULL, 0)
             : first == 't' ? read_word(c, slot, "true", SQLITE_INTEGER, 1)
             : first == 'f' ? read_word(c, slot, "false", SQLITE_INTEGER, 0)
                            : read_number(c, slot);
    if (rc != SQLITE_OK) return rc;
  }
  skip_space(c);
  if (c->at >= c->n || c->text[c->at] != ']') return rows_fail(c, "a passage of too many values");
  c->at++;
  return SQLITE_OK;
}

static int rows_filter(sqlite3_vtab_cursor *base, int idx, const char *idx_text, int argc,
                       sqlite3_value **argv) {
  (void)idx_text;
  RowsCursor *cursor = (RowsCursor *)base;
  RowsReader *c = &cursor->r;
  sqlite3_free(cursor->copy);
  cursor->copy = NULL;
  c->text = NULL;
  c->n = c->at = 0;
  c->rowid = 0;
  c->eof = 1;
  if (idx != 1 || argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
  const void *data = sqlite3_value_blob(argv[0]);
  int n = sqlite3_value_bytes(argv[0]);
  cursor->copy = sqlite3_malloc(n + 1);
  if (!cursor->copy) return SQLITE_NOMEM;
  if (n) memcpy(cursor->copy, data, n);
  cursor->copy[n] = 0;
  c->text = cursor->copy;
  c->n = n;
  c->eof = 0;
  skip_space(c);
  if (c->at >= c->n || c->text[c->at] != '[') return cursor_failed(cursor, rows_fail(c, "no array"));
  c->at++;
  return cursor_failed(cursor, rows_step(c));
}

static int rows_next(sqlite3_vtab_cursor *base) {
  RowsCursor *cursor = (RowsCursor *)base;
  cursor->r.rowid++;
  return cursor_failed(cursor, rows_step(&cursor->r));
}

static int rows_eof(sqlite3_vtab_cursor *base) { return ((RowsCursor *)base)->r.eof; }

static int rows_column(sqlite3_vtab_cursor *base, sqlite3_context *context, int column) {
  RowsReader *c = &((RowsCursor *)base)->r;
  if (column < 0 || column >= ROW_VALUES) {
    sqlite3_result_null(context);
    return SQLITE_OK;
  }
  switch (c->type[column]) {
  case SQLITE_TEXT:
    sqlite3_result_text(context, c->string[column], c->length[column], SQLITE_TRANSIENT);
    break;
  case SQLITE_INTEGER: sqlite3_result_int64(context, c->integer[column]); break;
  case SQLITE_FLOAT: sqlite3_result_double(context, c->real[column]); break;
  default: sqlite3_result_null(context);
  }
  return SQLITE_OK;
}

static int rows_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *out) {
  *out = ((RowsCursor *)base)->r.rowid;
  return SQLITE_OK;
}

/* Eponymous only (no xCreate), read only. */
static sqlite3_module rows_module = {
    .iVersion = 0,
    .xConnect = rows_connect,
    .xBestIndex = rows_best_index,
    .xDisconnect = rows_disconnect,
    .xOpen = rows_open,
    .xClose = rows_close,
    .xFilter = rows_filter,
    .xNext = rows_next,
    .xEof = rows_eof,
    .xColumn = rows_column,
    .xRowid = rows_rowid,
};

/* -- memvault_write_passages: a batch of conversations' passages written in C --------------- */

/* `memvault_write_passages(first_id, first_handle, batch)`: `batch` is a JSON array holding,
 * for each of a batch of conversations, its passages array as `memvault_rows` reads it. Each
 * passage becomes a `recall_passages` row (ids from first_id on, in order) of its conversation's
 * handle (first_handle for the first conversation that has passages, then one more for each
 * next one that has any), followed at once by its full-text entry (`recall_fts`: the analysed
 * words, or the text itself where they are null, and the context). The result is the JSON
 * array of each conversation's number of passages.
 *
 * It replaces, for an import's passages, an `INSERT ... SELECT FROM memvault_rows(?)` per
 * conversation and an `executemany` from Python of every full-text entry, which read the JSON
 * twice (the second time into Python objects) and bound every entry's values from Python:
 * ~1 CPU-s of the 400,000 passages of the 300 MB ChatGPT export. Every row is inserted by a
 * single-row INSERT, as `executemany` did: such a statement opens no statement savepoint, at
 * which FTS5 would write its pending entries as a segment of their own, so the full-text index
 * is the same, byte for byte. The statements are prepared for one call and finalized before
 * it returns (none is left on the connection). */

#define INSERT_PASSAGE                                                                          \
  "INSERT INTO recall_passages (id, kind, conversation, message_id, part, role, participant, " \
  "at_epoch, text) VALUES (?1, 'message', ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
#define INSERT_ENTRY "INSERT INTO recall_fts (rowid, body, context) VALUES (?1, ?2, ?3)"

/* Bind the reader's value in `slot` to parameter `at` (strings stay the reader's until the
 * statement has run). */
static int bind_value(sqlite3_stmt *stmt, int at, RowsReader *c, int slot) {
  switch (c->type[slot]) {
  case SQLITE_TEXT: return sqlite3_bind_text(stmt, at, c->string[slot], c->length[slot], SQLITE_STATIC);
  case SQLITE_INTEGER: return sqlite3_bind_int64(stmt, at, c->integer[slot]);
  case SQLITE_FLOAT: return sqlite3_bind_double(stmt, at, c->real[slot]);
  default: return sqlite3_bind_null(stmt, at);
  }
}

/* Run a bound single-row INSERT; its error, if any, as the message in *error. */
static int run_insert(sqlite3 *db, sqlite3_stmt *stmt, char **error) {
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE) return sqlite3_reset(stmt);
  rc = sqlite3_reset(stmt);
  if (rc == SQLITE_OK) rc = SQLITE_ERROR;
  *error = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  return rc;
}

static int write_passage(sqlite3 *db, sqlite3_stmt *passage, sqlite3_stmt *entry, RowsReader *c,
                         sqlite3_int64 id, sqlite3_int64 handle, char **error) {
  int rc = sqlite3_bind_int64(passage, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(passage, 2, handle);
  for (int slot = 0; rc == SQLITE_OK && slot < 6; slot++) rc = bind_value(passage, 3 + slot, c, slot);
  if (rc == SQLITE_OK) rc = run_insert(db, passage, error);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_bind_int64(entry, 1, id);
  /* the analysed words (slot 6), the text itself (slot 5) where they are null */
  if (rc == SQLITE_OK) rc = bind_value(entry, 2, c, c->type[6] == SQLITE_NULL ? 5 : 6);
  if (rc == SQLITE_OK) rc = bind_value(entry, 3, c, 7);
  if (rc == SQLITE_OK) rc = run_insert(db, entry, error);
  return rc;
}

/* Read the batch and write its passages; the counts go to `counts` as JSON. */
static int write_batch(sqlite3 *db, RowsReader *c, sqlite3_int64 id, sqlite3_int64 handle,
                       sqlite3_str *counts, char **error) {
  sqlite3_stmt *passage = NULL, *entry = NULL;
  int rc = sqlite3_prepare_v2(db, INSERT_PASSAGE, -1, &passage, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, INSERT_ENTRY, -1, &entry, NULL);
  if (rc != SQLITE_OK) {
    *error = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    goto done;
  }
  skip_space(c);
  if (c->at >= c->n || c->text[c->at] != '[') {
    rc = rows_fail(c, "no array of conversations");
    goto done;
  }
  c->at++;
  sqlite3_str_appendchar(counts, 1, '[');
  for (int conversation = 0;; conversation++) {
    skip_space(c);
    if (c->at < c->n && c->text[c->at] == ']') {
      c->at++;
      break;
    }
    if (conversation > 0) {
      if (c->at >= c->n || c->text[c->at] != ',') {
        rc = rows_fail(c, "no ',' between conversations");
        goto done;
      }
      c->at++;
      skip_space(c);
    }
    if (c->at >= c->n || c->text[c->at] != '[') {
      rc = rows_fail(c, "no array of passages");
      goto done;
    }
    c->at++;
    c->rowid = 0;
    c->eof = 0;
    for (rc = rows_step(c); rc == SQLITE_OK && !c->eof; rc = rows_step(c)) {
      rc = write_passage(db, passage, entry, c, id++, handle, error);
      if (rc != SQLITE_OK) goto done;
      c->rowid++;
    }
    if (rc != SQLITE_OK) goto done;
    c->at++; /* the passages' closing bracket, where rows_step stopped */
    if (c->rowid > 0) handle++;
    sqlite3_str_appendf(counts, conversation ? ",%lld" : "%lld", c->rowid);
  }
  skip_space(c);
  if (c->at < c->n) {
    rc = rows_fail(c, "more after the conversations");
    goto done;
  }
  sqlite3_str_appendchar(counts, 1, ']');
  rc = sqlite3_str_errcode(counts);
done:
  sqlite3_finalize(passage);
  sqlite3_finalize(entry);
  return rc;
}

static void write_passages_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
  (void)argc;
  if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER ||
      sqlite3_value_type(argv[1]) != SQLITE_INTEGER ||
      sqlite3_value_type(argv[2]) == SQLITE_NULL) {
    sqlite3_result_error(context, "memvault_write_passages: an integer id, an integer handle "
                                  "and the passages are required", -1);
    return;
  }
  RowsReader reader;
  memset(&reader, 0, sizeof reader);
  reader.text = sqlite3_value_blob(argv[2]);
  reader.n = sqlite3_value_bytes(argv[2]);
  if (!reader.text && reader.n) {
    sqlite3_result_error_nomem(context);
    return;
  }
  if (!reader.text) reader.text = "";
  char *error = NULL;
  sqlite3_str *counts = sqlite3_str_new(0);
  int rc = write_batch(sqlite3_context_db_handle(context), &reader, sqlite3_value_int64(argv[0]),
                       sqlite3_value_int64(argv[1]), counts, &error);
  int length = sqlite3_str_length(counts);
  char *json = sqlite3_str_finish(counts);
  if (rc == SQLITE_OK && json) {
    sqlite3_result_text(context, json, length, sqlite3_free);
  } else {
    sqlite3_free(json);
    if (rc == SQLITE_NOMEM || rc == SQLITE_OK) {
      sqlite3_result_error_nomem(context);
    } else {
      char *message = sqlite3_mprintf("memvault_write_passages: %s",
                                      error ? error : reader.error ? reader.error : sqlite3_errstr(rc));
      sqlite3_result_error(context, message ? message : "memvault_write_passages failed", -1);
      sqlite3_result_error_code(context, rc);
      sqlite3_free(message);
    }
  }
  sqlite3_free(error);
  reader_free(&reader);
}

/* -- entry point ------------------------------------------------------------------------- */

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_tokenizer_init(sqlite3 *db, char **error, const sqlite3_api_routines *routines) {
  SQLITE_EXTENSION_INIT2(routines);
  fts5_api *api = fts5_api_of(db, error);
  if (!api) return SQLITE_ERROR;
  fts5_tokenizer methods = {tokenizer_create, tokenizer_delete, tokenizer_tokenize};
  int rc = api->xCreateTokenizer(api, "memvault", api, &methods, 0);
  if (rc != SQLITE_OK) return rc;
  Terms *terms = sqlite3_malloc(sizeof *terms);
  if (!terms) return SQLITE_NOMEM;
  memset(terms, 0, sizeof *terms);
  terms->api = api;
  rc = sqlite3_create_function_v2(db, "memvault_terms", 1,
                                  SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, terms,
                                  terms_function, 0, 0, terms_free);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_create_function_v2(db, "memvault_write_passages", 3, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                  0, write_passages_function, 0, 0, 0);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_create_module_v2(db, "memvault_rows", &rows_module, 0, 0);
}
