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
  return sqlite3_create_function_v2(db, "memvault_terms", 1,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, terms,
                                    terms_function, 0, 0, terms_free);
}
