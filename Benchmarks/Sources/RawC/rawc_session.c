// The session extension's declarations are in sqlite3.h only with these defined.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1

#include "rawc_session.h"

#include <sqlite3.h>

/// Starts a session recording every table of `main`.
static int start_session(sqlite3 *db, sqlite3_session **session) {
    int rc = sqlite3session_create(db, "main", session);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3session_attach(*session, NULL);
    if (rc != SQLITE_OK) sqlite3session_delete(*session);
    return rc;
}

int rawc_insert_mixed_recorded(sqlite3 *db, const rawc_mixed *rows, int count, void **out, int *out_size) {
    sqlite3_session *session;
    int rc = start_session(db, &session);
    if (rc != SQLITE_OK) return rc;
    rc = rawc_insert_mixed(db, rows, count);
    if (rc == SQLITE_OK) rc = sqlite3session_changeset(session, out_size, out);
    sqlite3session_delete(session);
    return rc;
}

int rawc_record(sqlite3 *db, const char *sql, void **out, int *out_size) {
    sqlite3_session *session;
    int rc = start_session(db, &session);
    if (rc != SQLITE_OK) return rc;
    rc = rawc_exec(db, sql);
    if (rc == SQLITE_OK) rc = sqlite3session_changeset(session, out_size, out);
    sqlite3session_delete(session);
    return rc;
}

static int abort_on_conflict(void *context, int kind, sqlite3_changeset_iter *iterator) {
    (void)context;
    (void)kind;
    (void)iterator;
    return SQLITE_CHANGESET_ABORT;
}

int rawc_invert_apply(sqlite3 *db, const void *changeset, int size) {
    int inverse_size = 0;
    void *inverse = NULL;
    int rc = sqlite3changeset_invert(size, changeset, &inverse_size, &inverse);
    if (rc == SQLITE_OK) {
        rc = sqlite3changeset_apply_v2(db, inverse_size, inverse, NULL, abort_on_conflict, NULL, NULL, NULL, 0);
    }
    sqlite3_free(inverse);
    return rc;
}

void rawc_free_changeset(void *changeset) { sqlite3_free(changeset); }
