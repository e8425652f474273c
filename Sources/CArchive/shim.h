#ifndef RHR_CARCHIVE_SHIM_H
#define RHR_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
