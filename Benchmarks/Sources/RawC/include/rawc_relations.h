#ifndef RAWC_RELATIONS_H
#define RAWC_RELATIONS_H

// The raw C API baselines of the joins-and-relations workloads: a two-table join read into child and parent
// structs, and the children of many parents loaded with one `IN (...)` query and grouped by parent.

#include <stdint.h>
#include <stddef.h>

typedef struct sqlite3 sqlite3;

/// A child row, with its name a malloc'd copy.
typedef struct {
    int64_t id, parent_id, value;
    char *name;
    size_t name_length;
} rawc_child;

/// A parent row, with its name a malloc'd copy.
typedef struct {
    int64_t id;
    char *name;
    size_t name_length;
} rawc_parent;

/// One joined row: the child and its parent.
typedef struct {
    rawc_child child;
    rawc_parent parent;
} rawc_joined;

/// Reads `SELECT children.*, parents.* FROM children JOIN parents ON parents.id = children.parent_id` into a
/// malloc'd array (grown by doubling), copying both names.
int rawc_fetch_joined(sqlite3 *db, rawc_joined **out_rows, int *out_count);
/// The checksum of joined rows: child id, parent id, value and both names' byte lengths.
int64_t rawc_joined_checksum(const rawc_joined *rows, int count);
void rawc_free_joined(rawc_joined *rows, int count);

/// Fetches every row of `parents` ordered by id into a malloc'd array, copying each name.
int rawc_fetch_parents(sqlite3 *db, rawc_parent **out_rows, int *out_count);
void rawc_free_parents(rawc_parent *rows, int count);

/// The children of `count` parents grouped by parent: `children` holds them parent after parent, and parent `i`'s
/// are `children[offsets[i]] ..< children[offsets[i + 1]]`.
typedef struct {
    rawc_child *children;
    int *offsets;
    int count;
} rawc_grouped;

/// Loads the children of `parents` with one `SELECT ... FROM children WHERE parent_id IN (?, ?, ...)`, one
/// parameter per parent, then groups them by parent through a hash table of the parents' ids (a counting sort:
/// no per-parent allocation).
int rawc_fetch_children(sqlite3 *db, const rawc_parent *parents, int count, rawc_grouped *out);
/// The checksum of grouped children: for each child, its id, value, name length and its parent's position.
int64_t rawc_grouped_checksum(const rawc_grouped *grouped, int parent_count);
void rawc_free_grouped(rawc_grouped *grouped);

#endif
