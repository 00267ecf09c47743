/*
 * mnrb: run a Ruby script with M:N threads.
 *
 *   mnrb [options] script.rb [args]      mnrb [options] -e 'code' [args]
 *
 * Like `ruby`: ARGV and $0, an uncaught exception prints its message and backtrace and exits 1,
 * a syntax error names the line, exit/exit!/at_exit behave as in CRuby. -I puts directories in
 * front of $LOAD_PATH and -r requires a feature through Kernel#require (mrbgems/mnrb-require).
 * Switches are CRuby's and combine as its do (`-lane`, `-rjson`, `-W0`); RUBYOPT adds -I, -r, -w,
 * -W, -d and -E ones. -n/-p/-l/-a wrap the script in CRuby's `while gets` loop, built by the
 * parser (mruby patch 0251), so that BEGIN/END blocks stay at the top level.
 */
#define _GNU_SOURCE   /* memmem */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/compile.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/version.h>
#include "mnrb/core.h"
#include "mnrb/thread.h"
#include "mnrb/trace.h"

#define MNRB_VERSION "0.1.0"

typedef struct script {
  const char *name;           /* $0 and the file name in backtraces */
  char *code;                 /* as read (freed at the end) */
  const char *start;          /* where parsing starts: code, or its `#!...ruby` line under -x */
  size_t len;                 /* from start */
  uint32_t lineno;            /* start's line */
  uint8_t loop;               /* MRB_SCRIPT_LOOP_* bits: -n, -p, -l, -a */
} script;

#define MAX_LIST_OPTS 64

typedef struct options {
  const char *libs[MAX_LIST_OPTS];      /* -r, in order */
  int nlibs;
  const char *incdirs[MAX_LIST_OPTS];   /* -I, in order */
  int nincdirs;
  int debug;                            /* -d, --debug: $DEBUG true */
  int verbose;                          /* -W0, -W1, -W2 (-w, -W) plus one: $VERBOSE nil, false, true; 0: unset */
  const char *categories[8];            /* -W:[no-]category (-W:no-experimental), in order: Warning[category] */
  int ncategories;
  int check;                            /* -c: parse, say "Syntax OK", run nothing */
  int switches;                         /* -s: the script's own -name[=value] arguments set $name */
  int shebang;                          /* -x: start at the first #! line that names ruby */
  int print_version;                    /* -v, --verbose: the version first ($VERBOSE too); alone, only it */
  int record_sep;                       /* -0[octal]: 1 + the separator byte, -1 paragraphs (-00), -2 nil (-0777); 0: unset */
  const char *field_sep;                /* -F pattern: $; */
  const char *encodings;                /* -E ext[:int], --encoding */
  const char *inplace;                  /* -i[ext]: ARGF's in-place mode, the backup suffix ("" none) */
  int no_rubyopt;                       /* --disable=rubyopt (or all) */
  char *rubyopt;                        /* RUBYOPT's copy, which -I and -r point into */
  const char *sw[MAX_LIST_OPTS];        /* -s: the script's "name" and "name=value" arguments */
  int nsw;
  script main;
  char **argv;                /* ARGV */
  int argc;
  const char *trace;          /* --trace=FILE */
  mn_trace_options trace_opt;
} options;

static void usage(FILE *f) {
  fputs("Usage: mnrb [options] [--] [script.rb | -e 'code'] [arguments]\n"
        "  -0[octal]          input record separator ($/): -0 NUL, -00 paragraphs, -0777 whole files\n"
        "  -a                 with -n or -p: $F = $_.split for each line\n"
        "  -c                 check the syntax only (prints \"Syntax OK\")\n"
        "  -C dir             change to dir first\n"
        "  -d, --debug        set $DEBUG (and $VERBOSE) to true\n"
        "  -e 'code'          run this code (may be given more than once, one line each)\n"
        "  -E ext[:int]       default external (and internal) encoding\n"
        "  -F pattern         field separator for split and -a ($;)\n"
        "  -i[ext]            edit ARGV's files in place, keeping a copy with ext appended if given\n"
        "  -I dir             put dir in front of $LOAD_PATH (may be given more than once)\n"
        "  -l                 with -n or -p: chomp each line; $\\ = $/ (print ends lines)\n"
        "  -n                 run the script for each line of input: while gets; ...; end\n"
        "  -p                 as -n, and print $_ after each line\n"
        "  -r feature         require feature before the script (may be given more than once)\n"
        "  -s                 the script's -name[=value] arguments set $name\n"
        "  -w, -W             turn warnings on ($VERBOSE = true)\n"
        "  -W0, -W1, -W2      warning level: none ($VERBOSE = nil), some (false, the default), all (true)\n"
        "  -x[dir]            skip text before the first #!...ruby line (and change to dir)\n"
        "  --max-proc=N       native threads for Ruby threads (env RUBY_MAX_PROC; default: usable CPUs)\n"
        "  --timeslice=MS     preempt a thread after MS ms while others wait (env MNRB_TIMESLICE; 100)\n"
        "  --trace=FILE       write a timeline of every thread's GVL states to FILE (Perfetto format)\n"
        "  --trace-flight=MB  with --trace: keep only about the last MB megabytes of events\n"
        "  -v, --verbose      print the version, turn warnings on; alone, print the version only\n"
        "  --version          print the version\n"
        "  --disable=rubyopt  ignore RUBYOPT (also --disable=all); gems, did_you_mean,\n"
        "                     error_highlight and syntax_suggest are accepted (mnrb has none)\n"
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

/* -x: the script starts at its first line that begins with #! and names ruby; the lines before
   it are not parsed, and line numbers stay the file's. */
static void skip_to_shebang(script *s) {
  const char *p = s->code, *end = s->code + s->len;
  uint32_t line = 1;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    if (eol - p >= 2 && p[0] == '#' && p[1] == '!' && memmem(p, (size_t)(eol - p), "ruby", 4)) {
      s->start = p;
      s->len = (size_t)(end - p);
      s->lineno = line;
      return;
    }
    if (!nl) break;
    p = nl + 1;
    line++;
  }
  fputs("mnrb: no Ruby script found in input (LoadError)\n", stderr);
  exit(1);
}

static void fail(const char *fmt, const char *arg) {
  fputs("mnrb: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs(" (RuntimeError)\n", stderr);
  exit(1);
}

static void add_list(const char **list, int *n, const char *v, char opt) {
  if (*n == MAX_LIST_OPTS) { fprintf(stderr, "mnrb: too many -%c options\n", opt); exit(2); }
  list[(*n)++] = v;
}

static void add_code(char **code, size_t *len, const char *v) {
  size_t vl = strlen(v);
  *code = realloc(*code, *len + vl + 2);
  memcpy(*code + *len, v, vl);
  *len += vl;
  (*code)[(*len)++] = '\n';
}

/* --disable=LIST / --enable=LIST (and --disable-NAME): the features CRuby names. mnrb has no
   gems, did_you_mean, error_highlight or syntax_suggest to turn off; rubyopt it does. */
static void feature_opt(options *o, const char *list, int enable) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
    if (!strcmp(f, "rubyopt") || !strcmp(f, "all")) o->no_rubyopt = !enable;
    else if (!strcmp(f, "frozen-string-literal") || !strcmp(f, "frozen_string_literal")) {
      if (enable)   /* not for every file: the magic comment is per file */
        fputs("mnrb: warning: --enable=frozen-string-literal is not supported; use the "
              "`# frozen_string_literal: true` comment\n", stderr);
    } else if (strcmp(f, "gems") && strcmp(f, "did_you_mean") && strcmp(f, "did-you-mean") &&
               strcmp(f, "error_highlight") && strcmp(f, "error-highlight") &&
               strcmp(f, "syntax_suggest") && strcmp(f, "syntax-suggest"))
      fprintf(stderr, "mnrb: warning: unknown argument for --%s: '%s'\n", enable ? "enable" : "disable", f);
  }
}

/* One argument of switches, CRuby's way: single letters combine (`-lane`); those taking a value
   take the rest of the argument or the next one (-e, -r, -I, -C, -F, -E); -0, -W and -x take what
   follows them in the same argument. Returns the index of the last argument used. With `env`
   (RUBYOPT), only the switches CRuby allows there. */
static int switch_arg(int argc, char **argv, int i, options *o, char **ecode, size_t *elen, int env) {
  const char *a = argv[i];
  for (const char *c = a + 1; *c; c++) {
    if (env && !strchr("IrwWdEv", *c)) fail("invalid switch in RUBYOPT: -%s", (char[]){ *c, 0 });
    switch (*c) {
    case 'n': o->main.loop |= MRB_SCRIPT_LOOP_GETS; break;
    case 'p': o->main.loop |= MRB_SCRIPT_LOOP_GETS | MRB_SCRIPT_LOOP_PRINT; break;
    case 'l': o->main.loop |= MRB_SCRIPT_LOOP_CHOMP; break;
    case 'a': o->main.loop |= MRB_SCRIPT_LOOP_SPLIT; break;
    case 'c': o->check = 1; break;
    case 's': o->switches = 1; break;
    case 'w': o->verbose = 3; break;
    case 'd': o->debug = 1; o->verbose = 3; break;   /* $DEBUG, and $VERBOSE as -w sets it */
    case 'v': o->print_version = !env; o->verbose = 3; break;   /* in RUBYOPT: $VERBOSE only */
    case 'h': usage(stdout); exit(0);
    case 'W':
      if (c[1] >= '0' && c[1] <= '2') o->verbose = *++c - '0' + 1;
      else if (c[1] == ':') {                       /* -W:no-experimental: Warning[:experimental] = false */
        if (o->ncategories < 8) o->categories[o->ncategories++] = c + 2;
        return i;
      }
      else o->verbose = 3;
      break;
    case 'i':                                       /* -i[ext]: the rest of the argument */
      o->inplace = c + 1;
      return i;
    case 'x':
      o->shebang = 1;
      if (c[1] && chdir(c + 1) != 0) fail("Can't chdir to %s", c + 1);
      return i;
    case '0': {
      unsigned v = 0, n = 0;
      while (n < 3 && c[1] >= '0' && c[1] <= '7') { v = v * 8 + (unsigned)(*++c - '0'); n++; }
      o->record_sep = n == 0 ? 1 : v == 0 ? -1 : v > 0377 ? -2 : (int)v + 1;   /* -0: NUL; -00: ""; -0777: nil */
      break;
    }
    case 'e': case 'r': case 'I': case 'C': case 'F': case 'E': {
      const char *v = c + 1;
      if (!*v) {
        if (i + 1 >= argc) {
          if (*c == 'e') fail("no code specified for -e", NULL);
          fail("no argument given for -%s", (char[]){ *c, 0 });
        }
        v = argv[++i];
      }
      switch (*c) {
      case 'e': add_code(ecode, elen, v); break;
      case 'r': add_list(o->libs, &o->nlibs, v, 'r'); break;
      case 'I': add_list(o->incdirs, &o->nincdirs, v, 'I'); break;
      case 'C': if (chdir(v) != 0) fail("Can't chdir to %s", v); break;
      case 'F': o->field_sep = v; break;
      case 'E': o->encodings = v; break;
      }
      return i;
    }
    default:
      fprintf(stderr, "mnrb: invalid option -%c  (-h will show valid options) (RuntimeError)\n", *c);
      exit(1);
    }
  }
  return i;
}

/* RUBYOPT: switches separated by spaces, taken after the command line's (its -I directories and
   -r features follow theirs). */
static void rubyopt(options *o, char **ecode, size_t *elen) {
  const char *env = getenv("RUBYOPT");
  if (!env || !*env) return;
  char *copy = o->rubyopt = strdup(env);
  char *words[64];
  int n = 0;
  for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w && n < 64; w = strtok_r(NULL, " \t", &save))
    words[n++] = w;
  for (int i = 0; i < n; i++) {
    char *w = words[i];
    if (w[0] == '-' && w[1] == '-') continue;               /* --disable=... and kin */
    if (w[0] != '-') { /* CRuby: a word without a dash is a -r feature */ add_list(o->libs, &o->nlibs, w, 'r'); continue; }
    i = switch_arg(n, words, i, o, ecode, elen, 1);
  }
}

/* -s: the script's leading -name and -name=value arguments set $name (dashes in name become
   underscores) and leave ARGV; `--` ends them. */
static int script_switches(options *o, char **argv, int i, int argc) {
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "--")) return i + 1;
    if (o->nsw < MAX_LIST_OPTS) o->sw[o->nsw++] = argv[i] + 1;
  }
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
    if (a[1] != '-') {
      i = switch_arg(argc, argv, i, o, &ecode, &elen, 0);
    } else if (strcmp(a, "--debug") == 0) {
      o->debug = 1;
      o->verbose = 3;
    } else if (strcmp(a, "--version") == 0) {
      version();
      exit(0);
    } else if (strcmp(a, "--verbose") == 0) {
      o->print_version = 1;
      o->verbose = 3;
    } else if (strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    } else if (strcmp(a, "--copyright") == 0) {
      puts("mnrb - Copyright (C) the mnrb authors; mruby - Copyright (c) mruby developers");
      exit(0);
    } else if (strncmp(a, "--disable=", 10) == 0 || strncmp(a, "--enable=", 9) == 0) {
      feature_opt(o, strchr(a, '=') + 1, a[2] == 'e');
    } else if (strncmp(a, "--disable-", 10) == 0 || strncmp(a, "--enable-", 9) == 0) {
      feature_opt(o, strchr(a + 2, '-') + 1, a[2] == 'e');
    } else if (strncmp(a, "--encoding=", 11) == 0 || strncmp(a, "--external-encoding=", 20) == 0) {
      o->encodings = strchr(a, '=') + 1;
    } else if (strncmp(a, "--max-proc=", 11) == 0) {
      cfg->max_proc = (int)parse_long_opt(a + 11, "--max-proc", 1, 1024);
    } else if (strncmp(a, "--timeslice=", 12) == 0) {
      cfg->timeslice_ns = (uint64_t)parse_long_opt(a + 12, "--timeslice", 1, 60000) * 1000000u;
    } else if (strncmp(a, "--trace=", 8) == 0 && a[8]) {
      o->trace = a + 8;
    } else if (strncmp(a, "--trace-flight=", 15) == 0) {
      o->trace_opt.flight_recorder_bytes = (size_t)parse_long_opt(a + 15, "--trace-flight", 1, 1 << 20) << 20;
    } else {
      fprintf(stderr, "mnrb: invalid option %s  (-h will show valid options) (RuntimeError)\n", a);
      exit(1);
    }
  }
  if (!o->no_rubyopt) rubyopt(o, &ecode, &elen);   /* an -e there is refused: ecode stays */
  if (o->trace_opt.flight_recorder_bytes && !o->trace) {
    fputs("mnrb: --trace-flight needs --trace=FILE\n", stderr);
    exit(2);
  }
  if (o->print_version) {
    version();
    fflush(stdout);                                  /* before the script's own output */
    if (!ecode && i >= argc) exit(0);                /* `ruby -v` alone prints the version only */
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
  o->main.start = o->main.code;
  o->main.lineno = 1;
  if (o->shebang) skip_to_shebang(&o->main);
  if (o->switches) i = script_switches(o, argv, i, argc);
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
  if (off > (size_t)(s->start - s->code) + s->len) return;
  size_t at = off > 0 && s->code[off - 1] == '\n' ? off - 1 : off;   /* the end of the line */
  if (at < n || memcmp(s->code + at - n, end, n) != 0) return;
  if (at > n && s->code[at - n - 1] != '\n') return;
  mrb_value file = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "File")), "open", 1,
                               mrb_str_new_cstr(mrb, s->name));
  if (mrb->exc) { mrb->exc = NULL; return; }
  mrb_funcall(mrb, file, "seek", 1, mrb_fixnum_value((mrb_int)off));
  mrb_define_global_const(mrb, "DATA", file);
}

/* Parses and runs one file in the main thread (with -c, parses only). A syntax error is reported
   as `ruby` does. */
static int verbose_warnings;   /* -w, -W2, -d: the parser's other warnings are printed too */

static mrb_value run_script(mrb_state *mrb, script *s, int check) {
  mrbc_context *cx = mrbc_context_new(mrb);
  mrbc_filename(mrb, cx, s->name);
  cx->capture_errors = TRUE;
  cx->lineno = s->lineno;
  cx->script_loop = s->loop;
  struct mrb_parser_state *p = mrb_parse_nstring(mrb, s->start, s->len, cx);
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
  for (size_t w = 0; w < p->nwarn && w < sizeof p->warn_buffer / sizeof p->warn_buffer[0]; w++) {
    const char *m = p->warn_buffer[w].message;       /* CRuby says this one always, the rest under -w */
    if (verbose_warnings || (m && !strcmp(m, "END in method; use at_exit")))
      fprintf(stderr, "%s:%d: warning: %s\n", s->name, p->warn_buffer[w].lineno, m ? m : "");
  }
  if (check) {
    puts("Syntax OK");
    mrb_parser_free(p);
    mrbc_context_free(mrb, cx);
    return mrb_nil_value();
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

static void gv(mrb_state *mrb, const char *name, mrb_value v) { mrb_gv_set(mrb, mrb_intern_cstr(mrb, name), v); }

/* -n/-p's Kernel#sub and #gsub: String#sub/#gsub of $_, which becomes the result. String's C
   method runs in this very frame (called, not sent), so the match it records is the calling
   script's, the one a block given here reads as $~ and $1, as in CRuby. A String#sub redefined in
   Ruby is sent to instead. */
static mrb_value line_subst(mrb_state *mrb, const char *name) {
  mrb_value line = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$_"));
  if (!mrb_string_p(line))
    mrb_raisef(mrb, E_TYPE_ERROR, "$_ value need to be String (%!v given)", line);
  mrb_sym mid = mrb_intern_cstr(mrb, name);
  mrb_method_t m = mrb_method_search(mrb, mrb->string_class, mid);
  mrb_func_t f = MRB_METHOD_UNDEF_P(m) ? NULL : MRB_METHOD_CFUNC(m);
  mrb_value r;
  if (f) {
    r = f(mrb, line);
  } else {
    const mrb_value *argv;
    mrb_int argc;
    mrb_value blk;
    mrb_get_args(mrb, "*&", &argv, &argc, &blk);
    r = mrb_funcall_with_block(mrb, line, mid, argc, argv, blk);
  }
  gv(mrb, "$_", r);
  return r;
}

static mrb_value line_sub(mrb_state *mrb, mrb_value self) { (void)self; return line_subst(mrb, "sub"); }
static mrb_value line_gsub(mrb_state *mrb, mrb_value self) { (void)self; return line_subst(mrb, "gsub"); }

/* The globals the switches set: $-p, $-l, $-a; $/ (-0), $\ (-l), $; (-F); the default encodings
   (-E); and -s's $name from the script's arguments. */
static void set_switch_globals(mrb_state *mrb, options *o) {
  uint8_t loop = o->main.loop;
  if (loop & MRB_SCRIPT_LOOP_PRINT) gv(mrb, "$-p", mrb_true_value());
  if (loop & MRB_SCRIPT_LOOP_CHOMP) gv(mrb, "$-l", mrb_true_value());
  if (loop & MRB_SCRIPT_LOOP_SPLIT) gv(mrb, "$-a", mrb_true_value());
  if (o->record_sep) {
    char c = (char)(o->record_sep - 1);
    gv(mrb, "$/", o->record_sep == -2 ? mrb_nil_value() :
                  o->record_sep == -1 ? mrb_str_new_lit(mrb, "") : mrb_str_new(mrb, &c, 1));
  }
  if (loop & MRB_SCRIPT_LOOP_CHOMP) gv(mrb, "$\\", mrb_gv_get(mrb, mrb_intern_lit(mrb, "$/")));
  if (o->field_sep) {
    mrb_value re = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "Regexp")), "new", 1,
                               mrb_str_new_cstr(mrb, o->field_sep));
    if (mrb->exc) return;
    gv(mrb, "$;", re);
  }
  if (o->encodings) {
    mrb_value enc = mrb_obj_value(mrb_class_get(mrb, "Encoding"));
    const char *colon = strchr(o->encodings, ':');
    size_t n = colon ? (size_t)(colon - o->encodings) : strlen(o->encodings);
    if (n) mrb_funcall(mrb, enc, "default_external=", 1, mrb_str_new(mrb, o->encodings, n));
    if (!mrb->exc && colon && colon[1]) mrb_funcall(mrb, enc, "default_internal=", 1, mrb_str_new_cstr(mrb, colon + 1));
    if (mrb->exc) return;
  }
  if (o->inplace) {
    mrb_value ext = mrb_str_new_cstr(mrb, o->inplace);
    mrb_value argf = mrb_const_get(mrb, mrb_obj_value(mrb->object_class), mrb_intern_lit(mrb, "ARGF"));
    mrb_funcall(mrb, argf, "inplace_mode=", 1, ext);
    gv(mrb, "$-i", ext);
  }
  if (loop & MRB_SCRIPT_LOOP_GETS) {
    /* -n/-p's Kernel#sub, #gsub, #chomp and #chop: on $_, as CRuby defines them under these only */
    static const char line_methods[] =
      "module Kernel\n"
      "  private def chomp(*a) = $_ = $_.chomp(*a)\n"
      "  private def chop = $_ = $_.chop\n"
      "end\n";
    mrb_load_string(mrb, line_methods);
    if (mrb->exc) return;
    struct RClass *k = mrb->kernel_module;
    mrb_define_method(mrb, k, "sub", line_sub, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
    mrb_define_method(mrb, k, "gsub", line_gsub, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
    mrb_mod_set_method_vis(mrb, k, mrb_intern_lit(mrb, "sub"), MRB_METHOD_VIS_PRIVATE);
    mrb_mod_set_method_vis(mrb, k, mrb_intern_lit(mrb, "gsub"), MRB_METHOD_VIS_PRIVATE);
  }
  for (int i = 0; i < o->nsw; i++) {
    const char *a = o->sw[i], *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    char name[256];
    if (n + 2 > sizeof name) continue;
    name[0] = '$';
    for (size_t k = 0; k < n; k++) name[k + 1] = a[k] == '-' ? '_' : a[k];
    name[n + 1] = '\0';
    gv(mrb, name, eq ? mrb_str_new_cstr(mrb, eq + 1) : mrb_true_value());
  }
}

/* -W:category and -W:no-category set Warning[category] (CRuby's; one it does not know is passed over:
   CRuby warns "unknown warning category"). */
static void set_warning_categories(mrb_state *mrb, const options *o) {
  mrb_value warning = mrb_obj_value(mrb_module_get(mrb, "Warning"));
  mrb_value known = mrb_funcall(mrb, warning, "categories", 0);
  for (int i = 0; i < o->ncategories; i++) {
    const char *name = o->categories[i];
    mrb_bool on = strncmp(name, "no-", 3) != 0;
    mrb_value sym = mrb_symbol_value(mrb_intern_cstr(mrb, on ? name : name + 3));
    if (mrb_array_p(known) && mrb_test(mrb_funcall(mrb, known, "include?", 1, sym)))
      mrb_funcall(mrb, warning, "[]=", 2, sym, mrb_bool_value(on));
  }
}

static mrb_value main_body(mrb_state *mrb, void *arg) {
  options *o = arg;
  if (o->verbose)
    mrb_gv_set(mrb, mrb_intern_lit(mrb, "$VERBOSE"),
               o->verbose == 1 ? mrb_nil_value() : mrb_bool_value(o->verbose == 3));
  if (o->debug) mrb_gv_set(mrb, mrb_intern_lit(mrb, "$DEBUG"), mrb_true_value());
  verbose_warnings = o->verbose == 3;
  set_warning_categories(mrb, o);
  if (o->check) return run_script(mrb, &o->main, 1);
  /* CRuby's TOPLEVEL_BINDING: self is main; its local variables are its own, not the script's
     (README, where mnrb differs) */
  mrb_load_string(mrb, "TOPLEVEL_BINDING = binding");
  if (mrb->exc) return mrb_nil_value();
  set_switch_globals(mrb, o);
  if (mrb->exc) return mrb_nil_value();
  add_include_dirs(mrb, o);
  for (int i = 0; i < o->nlibs; i++) {
    mrb_funcall(mrb, mrb_top_self(mrb), "require", 1, mrb_str_new_cstr(mrb, o->libs[i]));
    if (mrb->exc) return mrb_nil_value();
  }
  return run_script(mrb, &o->main, 0);
}

int main(int argc, char **argv) {
  mn_config cfg;
  options o;
  memset(&o, 0, sizeof o);
  mn_config_from_env(&cfg);
  parse_args(argc, argv, &o, &cfg);

  /* The runtime first, so that a failure says why (a descriptor or thread limit: errno) */
  errno = 0;
  if (mn_runtime_init(&cfg) != 0) {
    fprintf(stderr, "mnrb: cannot start the runtime: %s\n", errno ? strerror(errno) : "unknown error");
    return 1;
  }
  mrb_state *mrb = mnrb_open(&cfg);
  if (!mrb) { fputs("mnrb: cannot start the runtime: the main ractor could not be made\n", stderr); return 1; }
  mrb_value args = mrb_ary_new_capa(mrb, o.argc);
  for (int i = 0; i < o.argc; i++) mrb_ary_push(mrb, args, mrb_str_new_cstr(mrb, o.argv[i]));
  mrb_define_global_const(mrb, "ARGV", args);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$*"), args);   /* the same Array, as CRuby's alias */
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$0"), mrb_str_new_cstr(mrb, o.main.name));
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$PROGRAM_NAME"), mrb_str_new_cstr(mrb, o.main.name));
  mrb_define_global_const(mrb, "MNRB_VERSION", mrb_str_new_lit(mrb, MNRB_VERSION));

  if (o.trace && mn_trace_start(o.trace, &o.trace_opt) != 0) {
    fprintf(stderr, "mnrb: cannot trace to %s: %s\n", o.trace, strerror(errno));
    free(o.main.code);
    free(o.rubyopt);
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
  free(o.rubyopt);
  return status;
}
