/* Loading a trace file: see trace_file.h. */
#define _GNU_SOURCE
#include "trace_file.h"
#include "buf.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_all(trace_file *tf, int fd, char *err, size_t errlen) {
  size_t cap = 1 << 20, len = 0;
  unsigned char *p = xmalloc(cap);
  for (;;) {
    if (len == cap) p = xrealloc(p, cap *= 2);
    ssize_t n = read(fd, p + len, cap - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) { snprintf(err, errlen, "%s", strerror(errno)); free(p); return -1; }
    if (n == 0) break;
    len += (size_t)n;
  }
  tf->data = p;
  tf->len = len;
  tf->owned = true;
  return 0;
}

int trace_file_open(trace_file *tf, const char *path, char *err, size_t errlen) {
  *tf = (trace_file){0};
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) { snprintf(err, errlen, "%s", strerror(errno)); return -1; }
  struct stat st;
  int rc = -1;
  if (fstat(fd, &st) != 0) { snprintf(err, errlen, "%s", strerror(errno)); goto out; }
  if (S_ISDIR(st.st_mode)) { snprintf(err, errlen, "is a directory"); goto out; }
  if (!S_ISREG(st.st_mode)) { rc = read_all(tf, fd, err, errlen); goto out; }
  if (st.st_size == 0) { tf->data = (const unsigned char *)""; rc = 0; goto out; }
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) { rc = read_all(tf, fd, err, errlen); goto out; }
  madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
  tf->data = p;
  tf->len = (size_t)st.st_size;
  tf->mapped = true;
  rc = 0;
out:
  close(fd);
  return rc;
}

void trace_file_close(trace_file *tf) {
  if (tf->mapped) munmap((void *)tf->data, tf->len);
  else if (tf->owned) free((void *)tf->data);
  *tf = (trace_file){0};
}
