#pragma once
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1), which Swift cannot import.
static inline sqlite3_destructor_type shim_sqlite3_transient(void) { return SQLITE_TRANSIENT; }
