#include "harness.h"
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_TESTS = 128, TIME_LIMIT_S = 60 };
static test_case tests[MAX_TESTS];
static int ntests;

void harness_register(const char *name, void (*fn)(void)) {
  if (ntests < MAX_TESTS) tests[ntests++] = (test_case){ name, fn };
}

mn_config harness_config(void) {
  mn_config c;
  mn_config_from_env(&c);
  c.stack_size = 256 * 1024;
  return c;
}

typedef struct { main_fn fn; void *arg; } main_args;
static void main_wrapper(mn_thread *self, void *p) {
  main_args *m = p;
  m->fn(self, m->arg);
  mn_runtime_stop();
}

mn_ractor *harness_run(const mn_config *cfg, const mn_ractor_ops *ops, main_fn fn, void *arg) {
  mn_config c = cfg ? *cfg : harness_config();
  if (mn_runtime_init(&c) != 0) { fprintf(stderr, "runtime init failed\n"); _Exit(1); }
  mn_ractor *r = mn_ractor_new(ops, NULL);
  static main_args m;
  m.fn = fn;
  m.arg = arg;
  mn_thread *main = mn_thread_new(r, main_wrapper, &m, NULL);
  mn_runtime_run(main);
  return r;
}

static int run_one(const test_case *t) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(TIME_LIMIT_S);
    t->fn();
    fflush(stdout);
    _Exit(0);
  }
  int st;
  waitpid(pid, &st, 0);
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) { printf("ok   %s\n", t->name); return 1; }
  if (WIFSIGNALED(st)) printf("FAIL %s (signal %d%s)\n", t->name, WTERMSIG(st), WTERMSIG(st) == SIGALRM ? ": timed out" : "");
  else printf("FAIL %s (exit %d)\n", t->name, WEXITSTATUS(st));
  return 0;
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  for (int i = 0; i < ntests; i++) {
    if (argc > 1) {
      int want = 0;
      for (int j = 1; j < argc; j++) if (strcmp(argv[j], tests[i].name) == 0) want = 1;
      if (!want) continue;
    }
    if (run_one(&tests[i])) passed++; else failed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
