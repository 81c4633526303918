#include "rawc.h"

#include <regex.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

const char *rawc_libversion(void) { return sqlite3_libversion(); }

sqlite3 *rawc_open(const char *path) {
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    if (strcmp(path, ":memory:") != 0) {
        if (rawc_exec(db, "PRAGMA journal_mode=WAL") != SQLITE_OK ||
            rawc_exec(db, "PRAGMA synchronous=NORMAL") != SQLITE_OK) {
            sqlite3_close(db);
            return NULL;
        }
    }
    return db;
}

void rawc_close(sqlite3 *db) { sqlite3_close(db); }

int rawc_exec(sqlite3 *db, const char *sql) {
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static const char *insert_ints_sql =
    "INSERT INTO ints (id, c1, c2, c3, c4, c5, c6, c7, c8, c9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char *select_ints_sql = "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM ints";
static const char *lookup_ints_sql = "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM ints WHERE id = ?";
static const char *insert_mixed_sql = "INSERT INTO mixed (id, score, name, note, payload) VALUES (?, ?, ?, ?, ?)";
static const char *select_mixed_sql = "SELECT id, score, name, note, payload FROM mixed";

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **stmt) {
    return sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, stmt, NULL);
}

int rawc_insert_ints(sqlite3 *db, const rawc_ints *rows, int count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, insert_ints_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    rc = rawc_exec(db, "BEGIN IMMEDIATE");
    for (int i = 0; i < count && rc == SQLITE_OK; i++) {
        const int64_t *values = &rows[i].id;
        for (int c = 0; c < 10; c++) sqlite3_bind_int64(stmt, c + 1, values[c]);
        rc = sqlite3_step(stmt);
        rc = rc == SQLITE_DONE ? sqlite3_reset(stmt) : rc;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_OK) {
        rawc_exec(db, "ROLLBACK");
        return rc;
    }
    return rawc_exec(db, "COMMIT");
}

int rawc_fetch_ints(sqlite3 *db, rawc_ints **out_rows, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, select_ints_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int capacity = 16, count = 0;
    rawc_ints *rows = malloc(sizeof *rows * capacity);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
        }
        rawc_ints *row = &rows[count++];
        row->id = sqlite3_column_int64(stmt, 0);
        row->c1 = sqlite3_column_int64(stmt, 1);
        row->c2 = sqlite3_column_int64(stmt, 2);
        row->c3 = sqlite3_column_int64(stmt, 3);
        row->c4 = sqlite3_column_int64(stmt, 4);
        row->c5 = sqlite3_column_int64(stmt, 5);
        row->c6 = sqlite3_column_int64(stmt, 6);
        row->c7 = sqlite3_column_int64(stmt, 7);
        row->c8 = sqlite3_column_int64(stmt, 8);
        row->c9 = sqlite3_column_int64(stmt, 9);
    }
    sqlite3_finalize(stmt);
    *out_rows = rows;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int rawc_insert_mixed(sqlite3 *db, const rawc_mixed *rows, int count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, insert_mixed_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    rc = rawc_exec(db, "BEGIN IMMEDIATE");
    for (int i = 0; i < count && rc == SQLITE_OK; i++) {
        const rawc_mixed *row = &rows[i];
        sqlite3_bind_int64(stmt, 1, row->id);
        sqlite3_bind_double(stmt, 2, row->score);
        sqlite3_bind_text64(stmt, 3, row->name, row->name_length, SQLITE_STATIC, SQLITE_UTF8);
        if (row->note) {
            sqlite3_bind_text64(stmt, 4, row->note, row->note_length, SQLITE_STATIC, SQLITE_UTF8);
        } else {
            sqlite3_bind_null(stmt, 4);
        }
        sqlite3_bind_blob64(stmt, 5, row->payload, row->payload_length, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
        rc = rc == SQLITE_DONE ? sqlite3_reset(stmt) : rc;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_OK) {
        rawc_exec(db, "ROLLBACK");
        return rc;
    }
    return rawc_exec(db, "COMMIT");
}

static char *copy_bytes(const void *bytes, size_t length) {
    char *copy = malloc(length + 1);
    if (length) memcpy(copy, bytes, length);
    copy[length] = 0;
    return copy;
}

int rawc_fetch_mixed(sqlite3 *db, rawc_mixed **out_rows, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, select_mixed_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int capacity = 16, count = 0;
    rawc_mixed *rows = malloc(sizeof *rows * capacity);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
        }
        rawc_mixed *row = &rows[count++];
        row->id = sqlite3_column_int64(stmt, 0);
        row->score = sqlite3_column_double(stmt, 1);
        const unsigned char *name = sqlite3_column_text(stmt, 2);
        row->name_length = (size_t)sqlite3_column_bytes(stmt, 2);
        row->name = copy_bytes(name, row->name_length);
        const unsigned char *note = sqlite3_column_text(stmt, 3);
        if (note) {
            row->note_length = (size_t)sqlite3_column_bytes(stmt, 3);
            row->note = copy_bytes(note, row->note_length);
        } else {
            row->note = NULL;
            row->note_length = 0;
        }
        const void *payload = sqlite3_column_blob(stmt, 4);
        row->payload_length = (size_t)sqlite3_column_bytes(stmt, 4);
        row->payload = copy_bytes(payload, row->payload_length);
    }
    sqlite3_finalize(stmt);
    *out_rows = rows;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void rawc_free_mixed(rawc_mixed *rows, int count) {
    for (int i = 0; i < count; i++) {
        free(rows[i].name);
        free(rows[i].note);
        free(rows[i].payload);
    }
    free(rows);
}

int rawc_lookup_ints(sqlite3 *db, const int64_t *ids, int count, int64_t *out_sum) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, lookup_ints_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int64_t sum = 0;
    for (int i = 0; i < count; i++) {
        sqlite3_bind_int64(stmt, 1, ids[i]);
        rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            rawc_ints row;
            row.id = sqlite3_column_int64(stmt, 0);
            row.c1 = sqlite3_column_int64(stmt, 1);
            row.c2 = sqlite3_column_int64(stmt, 2);
            row.c3 = sqlite3_column_int64(stmt, 3);
            row.c4 = sqlite3_column_int64(stmt, 4);
            row.c5 = sqlite3_column_int64(stmt, 5);
            row.c6 = sqlite3_column_int64(stmt, 6);
            row.c7 = sqlite3_column_int64(stmt, 7);
            row.c8 = sqlite3_column_int64(stmt, 8);
            row.c9 = sqlite3_column_int64(stmt, 9);
            // The column calls are opaque to the compiler, so all ten reads happen.
            sum += row.c1;
        } else if (rc != SQLITE_DONE) {
            break;
        }
        rc = sqlite3_reset(stmt);
        if (rc != SQLITE_OK) break;
    }
    sqlite3_finalize(stmt);
    *out_sum = sum;
    return rc;
}

int rawc_stream_ints(sqlite3 *db, int64_t *out_sum, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, select_ints_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int64_t sum = 0;
    int count = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rawc_ints row;
        row.id = sqlite3_column_int64(stmt, 0);
        row.c1 = sqlite3_column_int64(stmt, 1);
        row.c2 = sqlite3_column_int64(stmt, 2);
        row.c3 = sqlite3_column_int64(stmt, 3);
        row.c4 = sqlite3_column_int64(stmt, 4);
        row.c5 = sqlite3_column_int64(stmt, 5);
        row.c6 = sqlite3_column_int64(stmt, 6);
        row.c7 = sqlite3_column_int64(stmt, 7);
        row.c8 = sqlite3_column_int64(stmt, 8);
        row.c9 = sqlite3_column_int64(stmt, 9);
        sum += row.c1;
        count++;
    }
    sqlite3_finalize(stmt);
    *out_sum = sum;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

// Reads column `column` into *out only if it holds an INTEGER, as SQLiteSwiftly reads an Int: no silent
// conversion.
static inline int read_integer(sqlite3_stmt *stmt, int column, int64_t *out) {
    sqlite3_value *value = sqlite3_column_value(stmt, column);
    if (sqlite3_value_type(value) != SQLITE_INTEGER) return 0;
    *out = sqlite3_value_int64(value);
    return 1;
}

static int read_ints_checked(sqlite3_stmt *stmt, rawc_ints *row) {
    return read_integer(stmt, 0, &row->id) && read_integer(stmt, 1, &row->c1) && read_integer(stmt, 2, &row->c2) &&
           read_integer(stmt, 3, &row->c3) && read_integer(stmt, 4, &row->c4) && read_integer(stmt, 5, &row->c5) &&
           read_integer(stmt, 6, &row->c6) && read_integer(stmt, 7, &row->c7) && read_integer(stmt, 8, &row->c8) &&
           read_integer(stmt, 9, &row->c9);
}

int rawc_fetch_ints_checked(sqlite3 *db, rawc_ints **out_rows, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, select_ints_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int capacity = 16, count = 0;
    rawc_ints *rows = malloc(sizeof *rows * capacity);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
        }
        if (!read_ints_checked(stmt, &rows[count++])) {
            rc = SQLITE_MISMATCH;
            break;
        }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        free(rows);
        *out_rows = NULL;
        *out_count = 0;
        return rc;
    }
    *out_rows = rows;
    *out_count = count;
    return SQLITE_OK;
}

int rawc_stream_ints_checked(sqlite3 *db, int64_t *out_sum, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, select_ints_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int64_t sum = 0;
    int count = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rawc_ints row;
        if (!read_ints_checked(stmt, &row)) {
            rc = SQLITE_MISMATCH;
            break;
        }
        sum += row.c1;
        count++;
    }
    sqlite3_finalize(stmt);
    *out_sum = sum;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static const char *select_orders_sql =
    "SELECT id, customer_id, total, status, email, phone, ship_name, ship_line1, ship_line2, ship_city, "
    "ship_region, ship_postcode, ship_country, note FROM orders";

int rawc_fetch_orders(sqlite3 *db, rawc_order **out_rows, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = prepare(db, select_orders_sql, &stmt);
    if (rc != SQLITE_OK) return rc;
    int capacity = 16, count = 0;
    rawc_order *rows = malloc(sizeof *rows * capacity);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
        }
        rawc_order *row = &rows[count++];
        row->id = sqlite3_column_int64(stmt, 0);
        row->customer_id = sqlite3_column_int64(stmt, 1);
        row->total = sqlite3_column_double(stmt, 2);
        for (int t = 0; t < 11; t++) {
            const unsigned char *text = sqlite3_column_text(stmt, 3 + t);
            if (text) {
                row->text_length[t] = (size_t)sqlite3_column_bytes(stmt, 3 + t);
                row->text[t] = copy_bytes(text, row->text_length[t]);
            } else {
                row->text[t] = NULL;
                row->text_length[t] = 0;
            }
        }
    }
    sqlite3_finalize(stmt);
    *out_rows = rows;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int64_t rawc_orders_checksum(const rawc_order *rows, int count) {
    int64_t sum = 0;
    for (int i = 0; i < count; i++) {
        sum += rows[i].id + rows[i].customer_id + (int64_t)(rows[i].total * 4);
        for (int t = 0; t < 11; t++) sum += (int64_t)rows[i].text_length[t];
    }
    return sum;
}

void rawc_free_orders(rawc_order *rows, int count) {
    for (int i = 0; i < count; i++) {
        for (int t = 0; t < 11; t++) free(rows[i].text[t]);
    }
    free(rows);
}

int rawc_one_off(sqlite3 *db, const char *const *sqls, int count, int64_t *out_sum) {
    int64_t sum = 0;
    int rc = SQLITE_OK;
    for (int i = 0; i < count && rc == SQLITE_OK; i++) {
        sqlite3_stmt *stmt;
        rc = sqlite3_prepare_v2(db, sqls[i], -1, &stmt, NULL);
        if (rc != SQLITE_OK) break;
        int columns = sqlite3_column_count(stmt);
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int c = 0; c < columns; c++) {
                switch (sqlite3_column_type(stmt, c)) {
                case SQLITE_INTEGER: sum += sqlite3_column_int64(stmt, c); break;
                case SQLITE_FLOAT: sum += (int64_t)sqlite3_column_double(stmt, c); break;
                case SQLITE_TEXT: {
                    const unsigned char *text = sqlite3_column_text(stmt, c);
                    size_t length = (size_t)sqlite3_column_bytes(stmt, c);
                    char *copy = copy_bytes(text, length);
                    sum += (int64_t)length;
                    free(copy);
                    break;
                }
                case SQLITE_BLOB: {
                    const void *blob = sqlite3_column_blob(stmt, c);
                    size_t length = (size_t)sqlite3_column_bytes(stmt, c);
                    char *copy = copy_bytes(blob, length);
                    sum += (int64_t)length;
                    free(copy);
                    break;
                }
                default: break;
                }
            }
        }
        if (rc == SQLITE_DONE) {
            if (!sqlite3_stmt_readonly(stmt)) sum += sqlite3_changes(db);
            rc = SQLITE_OK;
        }
        sqlite3_finalize(stmt);
    }
    *out_sum = sum;
    return rc;
}

// REGEXP through POSIX regcomp/regexec, the pattern compiled once per statement run and kept as SQLite's
// auxiliary data of the pattern argument, as SQLiteSwiftly keeps its own.
static void posix_regexp_free(void *compiled) {
    regfree(compiled);
    free(compiled);
}

static void posix_regexp(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    regex_t *compiled = sqlite3_get_auxdata(context, 0);
    int fresh = 0;
    if (!compiled) {
        const char *pattern = (const char *)sqlite3_value_text(argv[0]);
        if (!pattern) {
            sqlite3_result_null(context);
            return;
        }
        compiled = malloc(sizeof *compiled);
        if (!compiled || regcomp(compiled, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
            free(compiled);
            sqlite3_result_error(context, "invalid pattern", -1);
            return;
        }
        fresh = 1;
    }
    const char *text = (const char *)sqlite3_value_text(argv[1]);
    if (text) {
        sqlite3_result_int(context, regexec(compiled, text, 0, NULL, 0) == 0);
    } else {
        sqlite3_result_null(context);
    }
    // Last: SQLite may free the data at once (out of memory).
    if (fresh) sqlite3_set_auxdata(context, 0, compiled, posix_regexp_free);
}

int rawc_register_posix_regexp(sqlite3 *db) {
    return sqlite3_create_function_v2(db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, NULL,
                                      posix_regexp, NULL, NULL, NULL);
}

// Under `valgrind --tool=callgrind --collect-atstart=no`, toggles instruction collection around timed bodies
// (the --profile flag), so that setup is not counted. Does nothing outside valgrind or without its headers.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
void rawc_profile_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void rawc_profile_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
#else
void rawc_profile_toggle(void) {}
void rawc_profile_dump(const char *name) { (void)name; }
#endif
