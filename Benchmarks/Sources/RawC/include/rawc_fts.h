#ifndef RAWC_FTS_H
#define RAWC_FTS_H

// Full-text search (issue #28) through the raw C API: building an FTS5 external-content index by inserting rows
// into its table (the triggers index them), running user queries, and a tokenizer written against fts5_tokenizer.

#include <stdint.h>

typedef struct sqlite3 sqlite3;

/// One document of the corpus. The texts are not NUL-terminated copies the caller keeps alive.
typedef struct {
    int64_t id;
    const char *title;
    int title_length;
    const char *body;
    int body_length;
} rawc_doc;

/// One query as a person typed it, with `prefixes` set for search-as-you-type (every word a prefix).
typedef struct {
    const char *text;
    int length;
    int prefixes;
} rawc_query;

/// Inserts the documents into `docs (id, title, body)` in one transaction with one prepared statement.
int rawc_fts_insert(sqlite3 *db, const rawc_doc *docs, int count);

/// Runs each query: the person's text becomes an FTS5 query (each word between double quotes, quotes doubled,
/// `*` after each word for prefixes), bound to `sql`'s only parameter; every row's id, title and body (copied and
/// freed) and rank are read. *out_sum receives the number of rows plus each rank times 10^6, rounded (the ranks of
/// the first rows do not depend on how ties are ordered; their rows may).
int rawc_fts_search(sqlite3 *db, const char *sql, const rawc_query *queries, int count, int64_t *out_sum);

/// Registers `rawc_words` on `db`: words are runs of ASCII letters and digits and non-ASCII bytes, ASCII letters
/// folded to lower case; a word longer than 64 bytes is cut there.
int rawc_register_words_tokenizer(sqlite3 *db);

/// Finds the tokenizer `name` of `db`, creates it, and splits the body of every document with it as FTS5 splits
/// a document; *out_sum receives the sum, over the tokens, of their length, first byte and end offset.
int rawc_tokenize_all(sqlite3 *db, const char *name, const rawc_doc *docs, int count, int64_t *out_sum);

/// While on, every connection opened (SQLiteSwiftly's too) gets `rawc_words` and is remembered, so that a
/// benchmark can drive a tokenizer that SQLiteSwiftly registered on its connection.
int rawc_capture_connections(int on);
/// The last connection opened while capturing.
sqlite3 *rawc_captured_connection(void);

#endif
