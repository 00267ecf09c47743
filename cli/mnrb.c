/*
 * mnrb: run a Ruby script with M:N threads.
 *
 *   mnrb [options] script.rb [args]      mnrb [options] -e 'code' [args]
 *
 * Like `ruby`: ARGV and $0, an uncaught exception prints its message and backtrace and exits 1,
 * a syntax error names the line, exit/exit!/at_exit behave as in CRuby. -I puts directories in
 * front of $LOAD_PATH and -r requires a feature through Kernel#require (mrbgems/mnrb-require).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/compile.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/version.h>
#include "mnrb/core.h"
#include "mnrb/thread.h"
#include "mnrb/trace.h"

#define MNRB_VERSION "0.1.0"

typedef struct script {
  const char *name;           /* $0 and the file name in backtraces */
  char *code;
  size_t len;
} script;

#define MAX_LIST_OPTS 64

typedef struct options {
  const char *libs[MAX_LIST_OPTS];      /* -r, in order */
  int nlibs;
  const char *incdirs[MAX_LIST_OPTS];   /* -I, in order */
  int nincdirs;
  int debug;                            /* -d, --debug: $DEBUG true */
  int verbose;                          /* -W0, -W1, -W2 (-w, -W) plus one: $VERBOSE nil, false, true; 0: unset */
  script main;
  char **argv;                /* ARGV */
  int argc;
  const char *trace;          /* --trace=FILE */
  mn_trace_options trace_opt;
} options;

static void usage(FILE *f) {
  fputs("Usage: mnrb [options] [--] [script.rb | -e 'code'] [arguments]\n"
        "  -e 'code'          run this code (may be given more than once, one line each)\n"
        "  -I dir             put dir in front of $LOAD_PATH (may be given more than once)\n"
        "  -r feature         require feature before the script (may be given more than once)\n"
        "  -w, -W             turn warnings on ($VERBOSE = true)\n"
        "  -d, --debug        set $DEBUG (and $VERBOSE) to true\n"
        "  -W0, -W1, -W2      warning level: none ($VERBOSE = nil), some (false, the default), all (true)\n"
        "  --max-proc=N       native threads for Ruby threads (env RUBY_MAX_PROC; default: usable CPUs)\n"
        "  --timeslice=MS     preempt a thread after MS ms while others wait (env MNRB_TIMESLICE; 100)\n"
        "  --trace=FILE       write a timeline of every thread's GVL states to FILE (Perfetto format)\n"
        "  --trace-flight=MB  with --trace: keep only about the last MB megabytes of events\n"
        "  -v, --version      print the version\n"
        "  -h, --help         print this help\n"
        "Environment: RUBY_MN_THREADS=0 runs each Ruby thread on its own native thread (1:1);\n"
        "RUBY_THREAD_MACHINE_STACK_SIZE sets the C stack of each thread (bytes).\n", f);
}

static void version(void) { printf("mnrb %s (mruby " MRUBY_VERSION ") [x86_64-linux]\n", MNRB_VERSION); }

static char *read_file(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 8192, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (n == cap && !(buf = realloc(buf, cap *= 2))) break;
    size_t r = fread(buf + n, 1, cap - n, f);
    if (r == 0) break;
    n += r;
  }
  if (f != stdin) fclose(f);
  *len = n;
  return buf;
}

static long parse_long_opt(const char *arg, const char *name, long min, long max) {
  char *end;
  long v = strtol(arg, &end, 10);
  if (*arg == '\0' || *end || v < min || v > max) {
    fprintf(stderr, "mnrb: invalid value for %s: %s\n", name, arg);
    exit(2);
  }
  return v;
}

/* Adds the value of -I/-r (joined, "-Idir", or the next argument) to a list. */
static int list_opt(int argc, char **argv, int i, const char **list, int *n) {
  const char *a = argv[i], *v = a + 2;
  if (*v == '\0') {
    if (i + 1 >= argc) { fprintf(stderr, "mnrb: no argument given for %s\n", a); exit(2); }
    v = argv[++i];
  }
  if (*n == MAX_LIST_OPTS) { fprintf(stderr, "mnrb: too many %.2s options\n", a); exit(2); }
  list[(*n)++] = v;
  return i;
}

static void parse_args(int argc, char **argv, options *o, mn_config *cfg) {
  size_t elen = 0;
  char *ecode = NULL;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) { i++; break; }
    if (a[0] != '-' || a[1] == '\0') break;
    if (strcmp(a, "-e") == 0) {
      if (i + 1 >= argc) { fprintf(stderr, "mnrb: no code specified for %s\n", a); exit(2); }
      const char *v = argv[++i];
      size_t vl = strlen(v);
      ecode = realloc(ecode, elen + vl + 2);
      memcpy(ecode + elen, v, vl);
      elen += vl;
      ecode[elen++] = '\n';
    } else if (strncmp(a, "-r", 2) == 0) {
      i = list_opt(argc, argv, i, o->libs, &o->nlibs);
    } else if (strncmp(a, "-I", 2) == 0) {
      i = list_opt(argc, argv, i, o->incdirs, &o->nincdirs);
    } else if (strcmp(a, "-w") == 0 || strcmp(a, "-W") == 0 || strcmp(a, "-W2") == 0) {
      o->verbose = 3;
    } else if (strcmp(a, "-d") == 0 || strcmp(a, "--debug") == 0) {
      o->debug = 1;                     /* $DEBUG, and $VERBOSE as -w sets it */
      o->verbose = 3;
    } else if (strcmp(a, "-W0") == 0 || strcmp(a, "-W1") == 0) {
      o->verbose = a[2] - '0' + 1;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--version") == 0) {
      version();
      exit(0);
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    } else if (strncmp(a, "--max-proc=", 11) == 0) {
      cfg->max_proc = (int)parse_long_opt(a + 11, "--max-proc", 1, 1024);
    } else if (strncmp(a, "--timeslice=", 12) == 0) {
      cfg->timeslice_ns = (uint64_t)parse_long_opt(a + 12, "--timeslice", 1, 60000) * 1000000u;
    } else if (strncmp(a, "--trace=", 8) == 0 && a[8]) {
      o->trace = a + 8;
    } else if (strncmp(a, "--trace-flight=", 15) == 0) {
      o->trace_opt.flight_recorder_bytes = (size_t)parse_long_opt(a + 15, "--trace-flight", 1, 1 << 20) << 20;
    } else {
      fprintf(stderr, "mnrb: invalid option %s  (-h will show valid options)\n", a);
      exit(2);
    }
  }
  if (o->trace_opt.flight_recorder_bytes && !o->trace) {
    fputs("mnrb: --trace-flight needs --trace=FILE\n", stderr);
    exit(2);
  }
  if (ecode) {
    o->main.name = "-e";
    o->main.code = ecode;
    o->main.len = elen;
  } else if (i < argc) {
    o->main.name = argv[i++];
    if (!(o->main.code = read_file(o->main.name, &o->main.len))) {
      fprintf(stderr, "mnrb: No such file or directory -- %s (LoadError)\n", o->main.name);
      exit(1);
    }
  } else {
    o->main.name = "-";
    if (!(o->main.code = read_file("-", &o->main.len))) { fputs("mnrb: cannot read stdin\n", stderr); exit(1); }
  }
  o->argv = argv + i;
  o->argc = argc - i;
}

/* DATA, as CRuby: when the parser stopped at a line `__END__` of a script read from a file, the
   file opened for reading at the line after it. The parser leaves its read position just past
   that line (or at the end, for a last line without a newline). */
static void define_data(mrb_state *mrb, script *s, struct mrb_parser_state *p) {
  static const char end[] = "__END__";
  size_t n = sizeof end - 1;
  if (!strcmp(s->name, "-e") || !strcmp(s->name, "-") || !p->s) return;
  size_t off = (size_t)(p->s - s->code);
  if (off > (size_t)s->len) return;
  size_t at = off > 0 && s->code[off - 1] == '\n' ? off - 1 : off;   /* the end of the line */
  if (at < n || memcmp(s->code + at - n, end, n) != 0) return;
  if (at > n && s->code[at - n - 1] != '\n') return;
  mrb_value file = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "File")), "open", 1,
                               mrb_str_new_cstr(mrb, s->name));
  if (mrb->exc) { mrb->exc = NULL; return; }
  mrb_funcall(mrb, file, "seek", 1, mrb_fixnum_value((mrb_int)off));
  mrb_define_global_const(mrb, "DATA", file);
}

/* Parses and runs one file in the main thread. A syntax error is reported as `ruby` does. */
static mrb_value run_script(mrb_state *mrb, script *s) {
  mrbc_context *cx = mrbc_context_new(mrb);
  mrbc_filename(mrb, cx, s->name);
  cx->capture_errors = TRUE;
  struct mrb_parser_state *p = mrb_parse_nstring(mrb, s->code, s->len, cx);
  if (!p || p->nerr) {
    if (p) {
      fprintf(stderr, "%s:%d: %s\n", s->name, p->error_buffer[0].lineno, p->error_buffer[0].message);
      fprintf(stderr, "%s: compile error (SyntaxError)\n", s->name);
      mrb_parser_free(p);
    }
    mrbc_context_free(mrb, cx);
    fflush(stdout);
    _Exit(1);
  }
  define_data(mrb, s, p);
  mrb_value v = mrb_load_exec(mrb, p, cx);
  mrbc_context_free(mrb, cx);
  return v;
}

/* -I directories, expanded as CRuby does, go in front of $LOAD_PATH (which holds RUBYLIB's). */
static void add_include_dirs(mrb_state *mrb, options *o) {
  mrb_value load_path = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$LOAD_PATH"));
  mrb_value file = mrb_obj_value(mrb_class_get(mrb, "File"));
  for (int i = o->nincdirs - 1; i >= 0; i--) {
    mrb_value dir = mrb_funcall(mrb, file, "expand_path", 1, mrb_str_new_cstr(mrb, o->incdirs[i]));
    mrb_funcall(mrb, load_path, "unshift", 1, dir);
  }
}

static mrb_value main_body(mrb_state *mrb, void *arg) {
  options *o = arg;
  if (o->verbose)
    mrb_gv_set(mrb, mrb_intern_lit(mrb, "$VERBOSE"),
               o->verbose == 1 ? mrb_nil_value() : mrb_bool_value(o->verbose == 3));
  if (o->debug) mrb_gv_set(mrb, mrb_intern_lit(mrb, "$DEBUG"), mrb_true_value());
  add_include_dirs(mrb, o);
  for (int i = 0; i < o->nlibs; i++) {
    mrb_funcall(mrb, mrb_top_self(mrb), "require", 1, mrb_str_new_cstr(mrb, o->libs[i]));
    if (mrb->exc) return mrb_nil_value();
  }
  return run_script(mrb, &o->main);
}

int main(int argc, char **argv) {
  mn_config cfg;
  options o;
  memset(&o, 0, sizeof o);
  mn_config_from_env(&cfg);
  parse_args(argc, argv, &o, &cfg);

  mrb_state *mrb = mnrb_open(&cfg);
  if (!mrb) { fputs("mnrb: cannot start the runtime\n", stderr); return 1; }
  mrb_value args = mrb_ary_new_capa(mrb, o.argc);
  for (int i = 0; i < o.argc; i++) mrb_ary_push(mrb, args, mrb_str_new_cstr(mrb, o.argv[i]));
  mrb_define_global_const(mrb, "ARGV", args);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$*"), args);   /* the same Array, as CRuby's alias */
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$0"), mrb_str_new_cstr(mrb, o.main.name));
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$PROGRAM_NAME"), mrb_str_new_cstr(mrb, o.main.name));
  mrb_define_global_const(mrb, "MNRB_VERSION", mrb_str_new_lit(mrb, MNRB_VERSION));

  if (o.trace && mn_trace_start(o.trace, &o.trace_opt) != 0) {
    fprintf(stderr, "mnrb: cannot trace to %s: %s\n", o.trace, strerror(errno));
    return 2;
  }
  int status = mnrb_run_main(mrb, main_body, &o);
  fflush(stdout);
  if (o.trace && mn_trace_running() && mn_trace_stop() != 0) {   /* the script may have stopped it */
    fprintf(stderr, "mnrb: cannot write the trace %s: %s\n", o.trace, strerror(errno));
    if (status == 0) status = 1;
  }
  mnrb_close(mrb);
  free(o.main.code);
  return status;
}
