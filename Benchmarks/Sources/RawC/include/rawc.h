#ifndef RAWC_H
#define RAWC_H

// The raw C API baseline: each workload written as carefully as possible against the SQLite C API.
// One prepared statement per workload, bind/step/reset, no per-row allocation beyond the copied values.

#include <stdint.h>
#include <stddef.h>

typedef struct sqlite3 sqlite3;

/// Ten integer columns; `id` is the INTEGER PRIMARY KEY.
typedef struct {
    int64_t id, c1, c2, c3, c4, c5, c6, c7, c8, c9;
} rawc_ints;

/// A mixed row. `name`, `note` and `payload` are malloc'd copies (NULL `note` for SQL NULL).
typedef struct {
    int64_t id;
    double score;
    char *name;
    size_t name_length;
    char *note;
    size_t note_length;
    void *payload;
    size_t payload_length;
} rawc_mixed;

/// The SQLite version string, as sqlite3_libversion() reports it.
const char *rawc_libversion(void);

/// Opens `path` (":memory:" for an in-memory database) with SQLITE_OPEN_NOMUTEX; NULL on failure.
/// For a file, sets journal_mode=WAL and synchronous=NORMAL.
sqlite3 *rawc_open(const char *path);
void rawc_close(sqlite3 *db);
/// Runs SQL without results; returns an SQLite result code.
int rawc_exec(sqlite3 *db, const char *sql);

/// Inserts `count` rows in one transaction with one prepared statement.
int rawc_insert_ints(sqlite3 *db, const rawc_ints *rows, int count);
/// Fetches every row of `ints` into a malloc'd array (grown by doubling); *out_count receives the count.
int rawc_fetch_ints(sqlite3 *db, rawc_ints **out_rows, int *out_count);

int rawc_insert_mixed(sqlite3 *db, const rawc_mixed *rows, int count);
int rawc_fetch_mixed(sqlite3 *db, rawc_mixed **out_rows, int *out_count);
void rawc_free_mixed(rawc_mixed *rows, int count);

/// Looks up each id in `ids` through one prepared statement, reading all ten columns; *out_sum receives the
/// sum of column c1 over the found rows.
int rawc_lookup_ints(sqlite3 *db, const int64_t *ids, int count, int64_t *out_sum);

/// Steps through every row of `ints`, reading all ten columns; *out_sum receives the sum of c1.
int rawc_stream_ints(sqlite3 *db, int64_t *out_sum, int *out_count);

/// rawc_fetch_ints and rawc_stream_ints reading each column as SQLiteSwiftly does: sqlite3_column_value, then
/// sqlite3_value_type must be SQLITE_INTEGER (else SQLITE_MISMATCH, nothing converted), then sqlite3_value_int64.
/// On error rawc_fetch_ints_checked frees its rows and sets *out_rows to NULL.
int rawc_fetch_ints_checked(sqlite3 *db, rawc_ints **out_rows, int *out_count);
int rawc_stream_ints_checked(sqlite3 *db, int64_t *out_sum, int *out_count);

/// A wide orders row: two integers, a double, a TEXT and ten optional TEXT columns (NULL pointer for SQL NULL).
/// `text[0]` is `status`; `text[1...10]` are the optional columns. Each text is a malloc'd copy.
typedef struct {
    int64_t id, customer_id;
    double total;
    char *text[11];
    size_t text_length[11];
} rawc_order;

/// Fetches every row of `orders` into a malloc'd array (grown by doubling), copying each text.
int rawc_fetch_orders(sqlite3 *db, rawc_order **out_rows, int *out_count);
/// The checksum of fetched orders: ids, customer ids, total * 4 and the byte length of every text.
int64_t rawc_orders_checksum(const rawc_order *rows, int count);
void rawc_free_orders(rawc_order *rows, int count);

/// Runs `count` one-off statements, each compiled (sqlite3_prepare_v2), stepped to its end and finalized.
/// Rows are read as a query console would: every column by its storage class, text and blobs copied and freed.
/// *out_sum receives the sum of the integers read, the byte lengths of texts and blobs, and the changed rows.
int rawc_one_off(sqlite3 *db, const char *const *sqls, int count, int64_t *out_sum);

/// Registers `regexp(pattern, text)` on `db` through POSIX regcomp(REG_EXTENDED | REG_NOSUB) and regexec, the
/// compiled pattern kept as auxiliary data (compiled once per statement run for a constant pattern).
int rawc_register_posix_regexp(sqlite3 *db);

/// Toggles callgrind's instruction collection (no-op outside valgrind).
void rawc_profile_toggle(void);
/// Writes callgrind's counts so far to a file of their own, labelled `name`, and zeroes them.
void rawc_profile_dump(const char *name);

#endif
