#include "rawc_relations.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static char *copy_name(sqlite3_stmt *stmt, int column, size_t *length) {
    const unsigned char *text = sqlite3_column_text(stmt, column);
    size_t bytes = (size_t)sqlite3_column_bytes(stmt, column);
    char *copy = malloc(bytes + 1);
    if (bytes) memcpy(copy, text, bytes);
    copy[bytes] = 0;
    *length = bytes;
    return copy;
}

static void read_child(sqlite3_stmt *stmt, int first, rawc_child *child) {
    child->id = sqlite3_column_int64(stmt, first);
    child->parent_id = sqlite3_column_int64(stmt, first + 1);
    child->name = copy_name(stmt, first + 2, &child->name_length);
    child->value = sqlite3_column_int64(stmt, first + 3);
}

static const char *select_joined_sql =
    "SELECT children.*, parents.* FROM children JOIN parents ON parents.id = children.parent_id";

int rawc_fetch_joined(sqlite3 *db, rawc_joined **out_rows, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v3(db, select_joined_sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
    if (rc != SQLITE_OK) return rc;
    int capacity = 16, count = 0;
    rawc_joined *rows = malloc(sizeof *rows * capacity);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
        }
        rawc_joined *row = &rows[count++];
        read_child(stmt, 0, &row->child);
        row->parent.id = sqlite3_column_int64(stmt, 4);
        row->parent.name = copy_name(stmt, 5, &row->parent.name_length);
    }
    sqlite3_finalize(stmt);
    *out_rows = rows;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int64_t rawc_joined_checksum(const rawc_joined *rows, int count) {
    int64_t sum = 0;
    for (int i = 0; i < count; i++) {
        const rawc_joined *row = &rows[i];
        sum += row->child.id + row->parent.id + row->child.value;
        sum += (int64_t)(row->child.name_length + row->parent.name_length);
    }
    return sum;
}

void rawc_free_joined(rawc_joined *rows, int count) {
    for (int i = 0; i < count; i++) {
        free(rows[i].child.name);
        free(rows[i].parent.name);
    }
    free(rows);
}

int rawc_fetch_parents(sqlite3 *db, rawc_parent **out_rows, int *out_count) {
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v2(db, "SELECT id, name FROM parents ORDER BY id", -1, &stmt, NULL);
    if (rc != SQLITE_OK) return rc;
    int capacity = 16, count = 0;
    rawc_parent *rows = malloc(sizeof *rows * capacity);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (count == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
        }
        rawc_parent *row = &rows[count++];
        row->id = sqlite3_column_int64(stmt, 0);
        row->name = copy_name(stmt, 1, &row->name_length);
    }
    sqlite3_finalize(stmt);
    *out_rows = rows;
    *out_count = count;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void rawc_free_parents(rawc_parent *rows, int count) {
    for (int i = 0; i < count; i++) free(rows[i].name);
    free(rows);
}

// An open-addressing table from a parent's id to its position, sized to a power of two at least twice the count.
typedef struct {
    int64_t *keys;
    int *positions;
    unsigned mask;
} position_table;

static unsigned slot_of(int64_t key, unsigned mask) {
    uint64_t hash = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (unsigned)(hash >> 32) & mask;
}

static void table_init(position_table *table, const rawc_parent *parents, int count) {
    unsigned size = 16;
    while (size < (unsigned)count * 2) size *= 2;
    table->mask = size - 1;
    table->keys = malloc(sizeof *table->keys * size);
    table->positions = malloc(sizeof *table->positions * size);
    for (unsigned i = 0; i < size; i++) table->positions[i] = -1;
    for (int i = 0; i < count; i++) {
        unsigned slot = slot_of(parents[i].id, table->mask);
        while (table->positions[slot] >= 0 && table->keys[slot] != parents[i].id) slot = (slot + 1) & table->mask;
        if (table->positions[slot] < 0) {  // the first of parents with one id keeps it
            table->keys[slot] = parents[i].id;
            table->positions[slot] = i;
        }
    }
}

static int table_find(const position_table *table, int64_t key) {
    unsigned slot = slot_of(key, table->mask);
    while (table->positions[slot] >= 0) {
        if (table->keys[slot] == key) return table->positions[slot];
        slot = (slot + 1) & table->mask;
    }
    return -1;
}

int rawc_fetch_children(sqlite3 *db, const rawc_parent *parents, int count, rawc_grouped *out) {
    // SELECT id, parent_id, name, value FROM children WHERE parent_id IN (?, ?, ..., ?)
    static const char *head = "SELECT id, parent_id, name, value FROM children WHERE parent_id IN (";
    size_t head_length = strlen(head);
    char *sql = malloc(head_length + (size_t)count * 3 + 2);
    memcpy(sql, head, head_length);
    char *end = sql + head_length;
    for (int i = 0; i < count; i++) {
        if (i) *end++ = ',';
        *end++ = '?';
    }
    *end++ = ')';
    *end = 0;
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v2(db, sql, (int)(end - sql) + 1, &stmt, NULL);
    free(sql);
    if (rc != SQLITE_OK) return rc;
    for (int i = 0; i < count; i++) sqlite3_bind_int64(stmt, i + 1, parents[i].id);

    position_table table;
    table_init(&table, parents, count);
    int capacity = 16, found = 0;
    rawc_child *rows = malloc(sizeof *rows * capacity);
    int *owners = malloc(sizeof *owners * capacity);
    int *counts = calloc((size_t)count + 1, sizeof *counts);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (found == capacity) {
            capacity *= 2;
            rows = realloc(rows, sizeof *rows * capacity);
            owners = realloc(owners, sizeof *owners * capacity);
        }
        read_child(stmt, 0, &rows[found]);
        int owner = table_find(&table, rows[found].parent_id);
        owners[found] = owner;
        counts[owner + 1] += 1;
        found += 1;
    }
    sqlite3_finalize(stmt);
    free(table.keys);
    free(table.positions);
    // A counting sort: each parent's children together, in the order the query returned them.
    int *offsets = malloc(sizeof *offsets * ((size_t)count + 1));
    offsets[0] = 0;
    for (int i = 0; i < count; i++) offsets[i + 1] = offsets[i] + counts[i + 1];
    int *next = counts;  // reused: the next free place of each parent
    for (int i = 0; i < count; i++) next[i] = offsets[i];
    rawc_child *grouped = malloc(sizeof *grouped * (found ? (size_t)found : 1));
    for (int i = 0; i < found; i++) grouped[next[owners[i]]++] = rows[i];
    free(rows);
    free(owners);
    free(counts);
    out->children = grouped;
    out->offsets = offsets;
    out->count = found;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int64_t rawc_grouped_checksum(const rawc_grouped *grouped, int parent_count) {
    int64_t sum = 0;
    for (int parent = 0; parent < parent_count; parent++) {
        for (int i = grouped->offsets[parent]; i < grouped->offsets[parent + 1]; i++) {
            const rawc_child *child = &grouped->children[i];
            sum += child->id + child->value + (int64_t)child->name_length + parent;
        }
    }
    return sum;
}

void rawc_free_grouped(rawc_grouped *grouped) {
    for (int i = 0; i < grouped->count; i++) free(grouped->children[i].name);
    free(grouped->children);
    free(grouped->offsets);
}
