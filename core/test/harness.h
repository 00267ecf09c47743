/*
 * A minimal test harness for the core: TEST(name) { ... } registers a test; each runs in a child
 * process of its own (the runtime is per process), with a time limit, and CHECK failures end it.
 */
#ifndef MNRB_TEST_HARNESS_H
#define MNRB_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include "mnrb/core.h"

typedef struct test_case { const char *name; void (*fn)(void); } test_case;
void harness_register(const char *name, void (*fn)(void));

#define TEST(name) \
  static void test_##name(void); \
  __attribute__((constructor)) static void reg_##name(void) { harness_register(#name, test_##name); } \
  static void test_##name(void)

#define CHECK(cond) do { if (!(cond)) { \
  fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); fflush(stderr); _Exit(1); } } while (0)
#define CHECK_EQ(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) { \
  fprintf(stderr, "  %s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); \
  fflush(stderr); _Exit(1); } } while (0)

/* Starts the runtime with `cfg` (NULL: defaults), runs main_fn(arg) as the main thread of a new
 * ractor, and returns when it has finished. */
typedef void (*main_fn)(mn_thread *self, void *arg);
mn_ractor *harness_run(const mn_config *cfg, const mn_ractor_ops *ops, main_fn fn, void *arg);
mn_config harness_config(void);

#endif
