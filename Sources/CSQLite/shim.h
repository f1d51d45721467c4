// Waymark's view of SQLite's C API (Debian's libsqlite3): the header, and what Swift cannot import from it.
#ifndef WAYMARK_CSQLITE_SHIM_H
#define WAYMARK_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT`, a cast macro Swift does not import: SQLite copies the bound bytes at once.
static inline sqlite3_destructor_type waymark_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
