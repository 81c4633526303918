#include "rawc_fts.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

int rawc_fts_insert(sqlite3 *db, const rawc_doc *docs, int count) {
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v3(db, "INSERT INTO docs (id, title, body) VALUES (?, ?, ?)", -1,
                                SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    for (int i = 0; i < count && rc == SQLITE_OK; i++) {
        sqlite3_bind_int64(stmt, 1, docs[i].id);
        sqlite3_bind_text(stmt, 2, docs[i].title, docs[i].title_length, SQLITE_STATIC);
        sqlite3_bind_text(stmt, 3, docs[i].body, docs[i].body_length, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
        rc = rc == SQLITE_DONE ? sqlite3_reset(stmt) : rc;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_OK) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
}

/// Writes the FTS5 query for a person's text into `out` (at least 3 * length + 4 bytes); returns its length,
/// 0 when the text has no word. White space and control characters separate words.
static int make_pattern(const char *text, int length, int prefixes, char *out) {
    int n = 0;
    int i = 0;
    while (i < length) {
        while (i < length && ((unsigned char)text[i] < 0x21 || (unsigned char)text[i] == 0x7F)) i++;
        if (i == length) break;
        if (n > 0) out[n++] = ' ';
        out[n++] = '"';
        while (i < length && (unsigned char)text[i] >= 0x21 && (unsigned char)text[i] != 0x7F) {
            if (text[i] == '"') out[n++] = '"';
            out[n++] = text[i++];
        }
        out[n++] = '"';
        if (prefixes) out[n++] = '*';
    }
    return n;
}

int rawc_fts_search(sqlite3 *db, const char *sql, const rawc_query *queries, int count, int64_t *out_sum) {
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
    if (rc != SQLITE_OK) return rc;
    int64_t sum = 0;
    char buffer[4096];
    for (int q = 0; q < count && rc == SQLITE_OK; q++) {
        if (queries[q].length * 3 + 4 > (int)sizeof(buffer)) {
            rc = SQLITE_TOOBIG;
            break;
        }
        int n = make_pattern(queries[q].text, queries[q].length, queries[q].prefixes, buffer);
        if (n == 0) continue;
        sqlite3_bind_text(stmt, 1, buffer, n, SQLITE_STATIC);
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            int64_t id = sqlite3_column_int64(stmt, 0);
            int title_length = sqlite3_column_bytes(stmt, 1);
            char *title = malloc((size_t)title_length + 1);
            memcpy(title, sqlite3_column_text(stmt, 1), (size_t)title_length + 1);
            int body_length = sqlite3_column_bytes(stmt, 2);
            char *body = malloc((size_t)body_length + 1);
            memcpy(body, sqlite3_column_text(stmt, 2), (size_t)body_length + 1);
            double rank = sqlite3_column_double(stmt, 3);
            (void)id;
            sum += 1 + (int64_t)(rank * 1e6 + (rank < 0 ? -0.5 : 0.5));
            free(title);
            free(body);
        }
        rc = rc == SQLITE_DONE ? sqlite3_reset(stmt) : rc;
    }
    sqlite3_finalize(stmt);
    *out_sum = sum;
    return rc;
}

// MARK: - The tokenizer

static int words_create(void *context, const char **arguments, int count, Fts5Tokenizer **out) {
    (void)context;
    (void)arguments;
    (void)count;
    *out = (Fts5Tokenizer *)sqlite3_malloc(1);
    return *out ? SQLITE_OK : SQLITE_NOMEM;
}

static void words_delete(Fts5Tokenizer *tokenizer) { sqlite3_free(tokenizer); }

static int words_tokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int length,
                          int (*token)(void *, int, const char *, int, int, int)) {
    (void)tokenizer;
    (void)flags;
    char folded[64];
    int i = 0;
    while (i < length) {
        unsigned char c = (unsigned char)text[i];
        int isWord = c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
        if (!isWord) {
            i++;
            continue;
        }
        int start = i;
        int n = 0;
        while (i < length) {
            c = (unsigned char)text[i];
            if (!(c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))) break;
            if (n < (int)sizeof(folded)) folded[n++] = (char)(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
            i++;
        }
        int rc = token(context, 0, folded, n, start, i);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

static fts5_api *fts5(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(stmt, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    return api;
}

int rawc_register_words_tokenizer(sqlite3 *db) {
    fts5_api *api = fts5(db);
    if (!api) return SQLITE_ERROR;
    fts5_tokenizer methods = {words_create, words_delete, words_tokenize};
    return api->xCreateTokenizer(api, "rawc_words", NULL, &methods, NULL);
}

static int sum_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags;
    (void)start;
    *(int64_t *)context += length + (length > 0 ? (unsigned char)token[0] : 0) + end;
    return SQLITE_OK;
}

int rawc_tokenize_all(sqlite3 *db, const char *name, const rawc_doc *docs, int count, int64_t *out_sum) {
    fts5_api *api = fts5(db);
    if (!api) return SQLITE_ERROR;
    void *user_data;
    fts5_tokenizer methods;
    int rc = api->xFindTokenizer(api, name, &user_data, &methods);
    if (rc != SQLITE_OK) return rc;
    Fts5Tokenizer *tokenizer;
    rc = methods.xCreate(user_data, NULL, 0, &tokenizer);
    if (rc != SQLITE_OK) return rc;
    int64_t sum = 0;
    for (int i = 0; i < count && rc == SQLITE_OK; i++) {
        rc = methods.xTokenize(tokenizer, &sum, FTS5_TOKENIZE_DOCUMENT, docs[i].body, docs[i].body_length,
                               sum_token);
    }
    methods.xDelete(tokenizer);
    *out_sum = sum;
    return rc;
}

// MARK: - Capturing connections

static sqlite3 *captured;

static int capture(sqlite3 *db, char **error, const struct sqlite3_api_routines *routines) {
    (void)error;
    (void)routines;
    captured = db;
    return rawc_register_words_tokenizer(db);
}

int rawc_capture_connections(int on) {
    typedef void (*entry)(void);
    if (on) return sqlite3_auto_extension((entry)capture);
    sqlite3_cancel_auto_extension((entry)capture);
    return SQLITE_OK;
}

sqlite3 *rawc_captured_connection(void) { return captured; }
