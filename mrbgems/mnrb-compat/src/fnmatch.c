/*
** fnmatch.c - the matcher under File.fnmatch and Dir.glob (mrblib/fnmatch.rb adds the flags'
** defaults and {a,b} for FNM_EXTGLOB; mrblib/dir.rb walks directories with it).
**
** CRuby's rules: `*` any run, `?` one character, `[a-z]`/`[!a-z]`/`[^a-z]` a class (unclosed: no
** match), `\` escapes (FNM_NOESCAPE: an ordinary character), FNM_CASEFOLD compares ASCII letters
** without case. A leading "." (of the string, and of every component under FNM_PATHNAME) is
** matched only by a literal "." unless FNM_DOTMATCH. Under FNM_PATHNAME, wildcards stop at "/"
** and "**" followed by "/" matches zero or more directories (none hidden, unless FNM_DOTMATCH).
*/
#include <ctype.h>
#include <string.h>
#include <mruby.h>
#include <mruby/string.h>
#include "internal.h"

#define FNM_NOESCAPE 0x01
#define FNM_PATHNAME 0x02
#define FNM_DOTMATCH 0x04
#define FNM_CASEFOLD 0x08

static int
fold(int c, int flags)
{
  c = (unsigned char)c;
  return (flags & FNM_CASEFOLD) ? tolower(c) : c;
}

static int
escapes(const char *p, const char *pend, int flags)
{
  return *p == '\\' && !(flags & FNM_NOESCAPE) && p + 1 < pend;
}

/* Whether c is in the class that starts at p (just past "["); *next is past its "]", or NULL if
   the class is not closed. */
static int
in_class(const char *p, const char *pend, int c, int flags, const char **next)
{
  int negate = 0, found = 0;
  if (p < pend && (*p == '!' || *p == '^')) { negate = 1; p++; }
  c = fold(c, flags);
  while (p < pend && *p != ']') {
    if (escapes(p, pend, flags)) p++;
    int lo = fold(*p++, flags), hi = lo;
    if (p + 1 < pend && *p == '-' && p[1] != ']') {
      p++;
      if (escapes(p, pend, flags)) p++;
      hi = fold(*p++, flags);
    }
    if (lo <= c && c <= hi) found = 1;
  }
  *next = p < pend ? p + 1 : NULL;
  return found != negate;
}

/* Whether the first token of the pattern is a literal "." (what a leading "." needs). */
static int
literal_dot_first(const char *p, const char *pend, int flags)
{
  if (p >= pend) return 0;
  if (escapes(p, pend, flags)) return p[1] == '.';
  return *p == '.';
}

/* One component (or, without FNM_PATHNAME, the whole string): the usual backtracking over the
   last `*`, which is enough because a later `*` can always absorb what an earlier one did. */
static int
match_run(const char *p, const char *pend, const char *s, const char *send, int flags)
{
  const char *star_p = NULL, *star_s = NULL;

  if (s < send && *s == '.' && !(flags & FNM_DOTMATCH) && !literal_dot_first(p, pend, flags)) return 0;
  while (s < send) {
    if (p < pend && *p == '*') {
      star_p = ++p;
      star_s = s;
      continue;
    }
    if (p < pend) {
      const char *next = NULL;
      int ok;
      if (*p == '?') {
        ok = 1;
        next = p + 1;
      }
      else if (*p == '[') {
        ok = in_class(p + 1, pend, *s, flags, &next) && next;
      }
      else if (*p == '\\' && !(flags & FNM_NOESCAPE) && p + 1 == pend) {
        ok = 0;   /* a trailing escape escapes nothing: CRuby matches nothing with it */
      }
      else {
        if (escapes(p, pend, flags)) p++;
        ok = fold(*p, flags) == fold(*s, flags);
        next = p + 1;
      }
      if (ok) {
        p = next;
        s++;
        continue;
      }
    }
    if (!star_p) return 0;
    p = star_p;
    s = ++star_s;
  }
  while (p < pend && *p == '*') p++;
  return p == pend;
}

static const char *
component_end(const char *p, const char *pend)
{
  const char *slash = memchr(p, '/', pend - p);
  return slash ? slash : pend;
}

static int
match_path(const char *p, const char *pend, const char *s, const char *send, int flags)
{
  for (;;) {
    if (pend - p >= 3 && p[0] == '*' && p[1] == '*' && p[2] == '/') {
      const char *rest = p + 3;
      for (;;) {
        if (match_path(rest, pend, s, send, flags)) return 1;
        if (s < send && *s == '.' && !(flags & FNM_DOTMATCH)) return 0;
        const char *slash = memchr(s, '/', send - s);
        if (!slash) return 0;
        s = slash + 1;
      }
    }
    const char *pe = component_end(p, pend), *se = component_end(s, send);
    if (!match_run(p, pe, s, se, flags)) return 0;
    if (pe == pend || se == send) return pe == pend && se == send;
    p = pe + 1;
    s = se + 1;
  }
}

/* File.__fnmatch(pattern, path, flags) -> true or false; braces are fnmatch.rb's. */
static mrb_value
file_fnmatch(mrb_state *mrb, mrb_value klass)
{
  const char *p, *s;
  mrb_int plen, slen, flags;
  mrb_get_args(mrb, "ssi", &p, &plen, &s, &slen, &flags);
  if (flags & FNM_PATHNAME) return mrb_bool_value(match_path(p, p + plen, s, s + slen, (int)flags));
  return mrb_bool_value(match_run(p, p + plen, s, s + slen, (int)flags));
}

void
mnrb_compat_fnmatch_init(mrb_state *mrb)
{
  struct RClass *file = mrb_class_get(mrb, "File");
  mrb_define_class_method(mrb, file, "__fnmatch", file_fnmatch, MRB_ARGS_REQ(3));
}
