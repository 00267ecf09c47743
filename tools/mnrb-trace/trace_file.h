/*
 * A trace file in memory: mapped read-only when it is a regular file (a 270 MB trace then costs
 * page cache, not heap, and the svg command's two passes read it twice for free), read into the
 * heap otherwise (a pipe).
 */
#ifndef MNRB_TRACE_FILE_H
#define MNRB_TRACE_FILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct trace_file { const unsigned char *data; size_t len; bool mapped, owned; } trace_file;

/* 0, or -1 with a message in err. */
int trace_file_open(trace_file *tf, const char *path, char *err, size_t errlen);
void trace_file_close(trace_file *tf);

#endif
