/*
 * The String (and Symbol) methods that take a Regexp: =~ match match? sub gsub (and !) scan split
 * index rindex [] slice start_with? partition rpartition. Each sets $~ of its caller's frame as
 * CRuby does (see last_match.c). Where the pattern is not a Regexp, index, rindex, [], slice and
 * split run mruby's own implementation unchanged; sub, gsub, scan and partition treat a String
 * pattern as a literal (quoted) Regexp, which is CRuby's meaning.
 *
 * Positions given and returned are characters (positions.c); the loops below work in bytes.
 *
 * Searches run over a copy of the subject taken at the start (it shares the buffer), so a block
 * that modifies the receiver does not disturb the loop. Results are built in mruby strings: a Ruby
 * exception (from a block, or an interrupt) can leave any of these functions without leaking.
 */
#include "internal.h"
#include "region.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mrb_str_byte_subseq: pieces keep the subject's encoding */

/* mruby's own String methods, run when the pattern is not a Regexp (same in every state) */
static mrb_func_t orig_index, orig_rindex, orig_aref, orig_split;

static mrb_func_t original(mrb_state *mrb, mrb_sym name) {
  mrb_method_t m = mrb_method_search(mrb, mrb->string_class, name);
  if (!MRB_METHOD_CFUNC_P(m)) mrb_raisef(mrb, E_RUNTIME_ERROR, "mnrb-regexp: String#%n is not a C function", name);
  return MRB_METHOD_CFUNC(m);
}

static mrb_func_t orig_get(mrb_func_t *slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }

static mrb_value string_pattern_regexp(mrb_state *mrb, mrb_value pat) {
  /* String#match and #match? compile a String pattern as a regexp source (CRuby), through the
     literal cache: a frozen Regexp shared by every use of the same source */
  if (rx_regexp_p(mrb, pat)) return pat;
  if (mrb_symbol_p(pat)) pat = mrb_sym_str(mrb, mrb_symbol(pat));
  pat = rx_pattern_string(mrb, pat);
  struct RClass *cls = mrb_class_get_id(mrb, MRB_SYM(Regexp));
  return mrb_funcall_argv(mrb, mrb_obj_value(cls), MRB_SYM(compile), 1, &pat);
}

/* `subject =~ pat` with a Regexp: the match's start or nil; another object answers `pat =~ subject`. */
static mrb_value match_op_on(mrb_state *mrb, mrb_value subject, mrb_value pat) {
  if (!rx_regexp_p(mrb, pat)) return mrb_funcall_argv(mrb, pat, MRB_OPSYM(match), 1, &subject);
  mrb_value m = rx_match_into_last(mrb, pat, subject, 0, TRUE);
  return mrb_nil_p(m) ? m : mrb_fixnum_value(rx_byte_to_char(subject, rx_match_get(mrb, m).beg[0]));
}

/* `subject.match(pat, pos = 0) { |m| }` with the current call's arguments. */
static mrb_value match_on(mrb_state *mrb, mrb_value subject) {
  mrb_value pat, blk, posv = mrb_undef_value();
  if (!rx_one_arg(mrb, &pat, &blk)) mrb_get_args(mrb, "o|o&", &pat, &posv, &blk);
  mrb_int pos = rx_opt_int(mrb, posv, 0);
  mrb_value m = rx_match_into_last(mrb, string_pattern_regexp(mrb, pat), subject, pos, TRUE);
  if (!mrb_nil_p(m) && !mrb_nil_p(blk)) return mrb_yield(mrb, blk, m);
  return m;
}

static mrb_value str_match_op(mrb_state *mrb, mrb_value self) {
  mrb_value pat = mrb_get_arg1(mrb);
  if (mrb_string_p(pat)) mrb_raise(mrb, E_TYPE_ERROR, "type mismatch: String given");
  return match_op_on(mrb, self, pat);
}

static mrb_value str_match(mrb_state *mrb, mrb_value self) { return match_on(mrb, self); }

static mrb_value str_match_p(mrb_state *mrb, mrb_value self) {
  mrb_value pat, posv = mrb_undef_value();
  mrb_get_args(mrb, "o|o", &pat, &posv);
  mrb_int pos = rx_opt_int(mrb, posv, 0);
  pat = string_pattern_regexp(mrb, pat);
  mrb_value args[2] = { self, mrb_fixnum_value(pos) };
  return mrb_funcall_argv(mrb, pat, MRB_SYM_Q(match), 2, args);
}

/* ---- sub and gsub ---- */

static void cat_group(mrb_state *mrb, mrb_value out, const char *s, OnigRegion *r, int g) {
  if (g >= 0 && g < r->num_regs && r->beg[g] >= 0) mrb_str_cat(mrb, out, s + r->beg[g], r->end[g] - r->beg[g]);
}

/* a replacement string's \0..\9 \& \` \' \\ \k<name>, as CRuby expands them */
static void expand(mrb_state *mrb, mrb_value out, mrb_value repl, rx_regexp *re, const char *s, mrb_int len,
                   OnigRegion *r) {
  const char *p = RSTRING_PTR(repl), *e = p + RSTRING_LEN(repl), *lit = p;
  while (p < e) {
    if (*p != '\\' || p + 1 >= e) { p++; continue; }
    char c = p[1];
    const char *next = p + 2;
    int g = -2;   /* -2: not special */
    if (c >= '0' && c <= '9') g = c - '0';
    else if (c == '&') g = 0;
    else if (c == '`' || c == '\'' || c == '\\') g = -1;
    else if (c == 'k' && next < e && *next == '<') {
      const char *name = next + 1, *close = memchr(name, '>', (size_t)(e - name));
      if (close) {
        int n = onig_name_to_backref_number(re->re, (const OnigUChar *)name, (const OnigUChar *)close, r);
        if (n < 0) mrb_raisef(mrb, mrb_exc_get_id(mrb, MRB_SYM(IndexError)), "undefined group name reference: %v",
                              mrb_str_new(mrb, name, close - name));
        g = n;
        next = close + 1;
      }
    }
    if (g == -2) { p += 2; continue; }
    mrb_str_cat(mrb, out, lit, p - lit);
    if (c == '`') mrb_str_cat(mrb, out, s, r->beg[0]);
    else if (c == '\'') mrb_str_cat(mrb, out, s + r->end[0], len - r->end[0]);
    else if (c == '\\') mrb_str_cat(mrb, out, "\\", 1);
    else cat_group(mrb, out, s, r, g);
    p = lit = next;
  }
  mrb_str_cat(mrb, out, lit, e - lit);
}

static mrb_value to_enum(mrb_state *mrb, mrb_value self, mrb_sym meth, mrb_int argc, mrb_value *argv) {
  mrb_value args[3] = { mrb_symbol_value(meth), argc > 0 ? argv[0] : mrb_nil_value(), argc > 1 ? argv[1] : mrb_nil_value() };
  return mrb_funcall_argv(mrb, self, MRB_SYM(to_enum), argc + 1, args);
}

static mrb_value sub_common(mrb_state *mrb, mrb_value self, mrb_bool global, mrb_bool bang) {
  mrb_value *argv, blk;
  mrb_int argc;
  mrb_get_args(mrb, "*&", &argv, &argc, &blk);
  if (argc < 1 || argc > 2 || (argc == 1 && mrb_nil_p(blk))) {
    if (global && argc == 1) return to_enum(mrb, self, bang ? MRB_SYM_B(gsub) : MRB_SYM(gsub), argc, argv);
    if (argc == 1) mrb_argnum_error(mrb, argc, 2, 2);   /* sub without a block needs the replacement */
    mrb_argnum_error(mrb, argc, 1, 2);
  }
  if (bang) mrb_check_frozen(mrb, mrb_basic_ptr(self));   /* even when nothing matches, as CRuby */
  mrb_value pat = rx_from_pattern(mrb, argv[0]);
  mrb_gc_protect(mrb, pat);   /* a quoted String pattern lives only here: keep it through the yields */
  mrb_value repl = argc == 2 ? argv[1] : mrb_nil_value();
  mrb_bool hash = argc == 2 && mrb_hash_p(repl);
  if (argc == 2 && !hash) repl = rx_to_str(mrb, repl);
  mrb_bool callback = argc == 1 || hash;

  mrb_value subject = mrb_obj_freeze(mrb, mrb_str_dup(mrb, self));
  rx_regexp *re = rx_for_subject(mrb, pat, subject);
  const char *s = RSTRING_PTR(subject);
  mrb_int len = RSTRING_LEN(subject);
  rx_region rg, last;
  rx_region_init(mrb, &rg, re);
  rx_region_init(mrb, &last, re);
  mrb_value out = mrb_str_buf_new(mrb, len);
  RSTR_SET_ENC(mrb_str_ptr(out), RSTR_ENC(mrb_str_ptr(subject)));
  mrb_int pos = 0, copied = 0;
  mrb_bool found = FALSE;
  int ai = mrb_gc_arena_save(mrb);
  while (pos <= len) {
    if (rx_search(mrb, re, s, len, pos, FALSE, &rg.r) < 0) break;
    found = TRUE;
    mrb_int b = rg.r.beg[0], e = rg.r.end[0];
    mrb_str_cat(mrb, out, s + copied, b - copied);
    if (callback) {
      mrb_value m = rx_match_new(mrb, pat, subject, &rg.r);
      rx_last_match_set(mrb, m);
      mrb_value whole = rx_match_group(mrb, m, 0);
      mrb_value v = hash ? mrb_funcall_argv(mrb, repl, MRB_OPSYM(aref), 1, &whole) : mrb_yield(mrb, blk, whole);
      mrb_str_cat_str(mrb, out, mrb_obj_as_string(mrb, v));
      rx_last_match_set(mrb, m);   /* the block may have matched in between */
    } else {
      expand(mrb, out, repl, re, s, len, &rg.r);
      memcpy(last.r.beg, rg.r.beg, sizeof(int) * (size_t)rg.r.num_regs);
      memcpy(last.r.end, rg.r.end, sizeof(int) * (size_t)rg.r.num_regs);
      last.r.num_regs = rg.r.num_regs;
    }
    copied = e;
    if (e == b) {            /* empty match: keep the next character and move past it */
      if (b >= len) { pos = len + 1; break; }
      mrb_int cl = rx_char_len(re, s, len, b);
      mrb_str_cat(mrb, out, s + b, cl);
      copied = pos = b + cl;
    } else {
      pos = e;
    }
    mrb_gc_arena_restore(mrb, ai);
    if (!global) break;
  }
  if (!found) {
    rx_last_match_set(mrb, mrb_nil_value());
    return bang ? mrb_nil_value() : mrb_str_dup(mrb, self);
  }
  if (!callback) rx_last_match_set(mrb, rx_match_new(mrb, pat, subject, &last.r));
  if (copied < len) mrb_str_cat(mrb, out, s + copied, len - copied);
  if (!bang) return out;
  mrb_funcall_argv(mrb, self, MRB_SYM(replace), 1, &out);
  return self;
}

static mrb_value str_sub(mrb_state *mrb, mrb_value self) { return sub_common(mrb, self, FALSE, FALSE); }
static mrb_value str_sub_bang(mrb_state *mrb, mrb_value self) { return sub_common(mrb, self, FALSE, TRUE); }
static mrb_value str_gsub(mrb_state *mrb, mrb_value self) { return sub_common(mrb, self, TRUE, FALSE); }
static mrb_value str_gsub_bang(mrb_state *mrb, mrb_value self) { return sub_common(mrb, self, TRUE, TRUE); }

/* ---- scan ---- */

static mrb_value scan_item(mrb_state *mrb, mrb_value subject, OnigRegion *r) {
  if (r->num_regs == 1) return mrb_str_byte_subseq(mrb, subject, r->beg[0], r->end[0] - r->beg[0]);
  mrb_value a = mrb_ary_new_capa(mrb, r->num_regs - 1);
  for (int i = 1; i < r->num_regs; i++)
    mrb_ary_push(mrb, a, r->beg[i] < 0 ? mrb_nil_value() : mrb_str_byte_subseq(mrb, subject, r->beg[i], r->end[i] - r->beg[i]));
  return a;
}

static mrb_value str_scan(mrb_state *mrb, mrb_value self) {
  mrb_value pat, blk;
  mrb_get_args(mrb, "o&", &pat, &blk);
  pat = rx_from_pattern(mrb, pat);
  mrb_gc_protect(mrb, pat);
  mrb_value subject = mrb_obj_freeze(mrb, mrb_str_dup(mrb, self));
  rx_regexp *re = rx_for_subject(mrb, pat, subject);
  const char *s = RSTRING_PTR(subject);
  mrb_int len = RSTRING_LEN(subject);
  rx_region rg, last;
  rx_region_init(mrb, &rg, re);
  rx_region_init(mrb, &last, re);
  mrb_value result = mrb_nil_p(blk) ? mrb_ary_new(mrb) : self;
  mrb_bool found = FALSE;
  mrb_int pos = 0;
  int ai = mrb_gc_arena_save(mrb);
  while (pos <= len && rx_search(mrb, re, s, len, pos, FALSE, &rg.r) >= 0) {
    found = TRUE;
    mrb_int b = rg.r.beg[0], e = rg.r.end[0];
    mrb_value item = scan_item(mrb, subject, &rg.r);
    if (mrb_nil_p(blk)) {
      mrb_ary_push(mrb, result, item);
      memcpy(last.r.beg, rg.r.beg, sizeof(int) * (size_t)rg.r.num_regs);
      memcpy(last.r.end, rg.r.end, sizeof(int) * (size_t)rg.r.num_regs);
      last.r.num_regs = rg.r.num_regs;
    } else {
      mrb_value m = rx_match_new(mrb, pat, subject, &rg.r);
      rx_last_match_set(mrb, m);
      mrb_yield(mrb, blk, item);
      rx_last_match_set(mrb, m);
    }
    pos = e == b ? (b >= len ? len + 1 : b + rx_char_len(re, s, len, b)) : e;
    mrb_gc_arena_restore(mrb, ai);
  }
  if (!found) rx_last_match_set(mrb, mrb_nil_value());
  else if (mrb_nil_p(blk)) rx_last_match_set(mrb, rx_match_new(mrb, pat, subject, &last.r));
  return result;
}

/* ---- split ---- */

static mrb_value str_split(mrb_state *mrb, mrb_value self) {
  mrb_value pat = mrb_nil_value(), limv = mrb_undef_value();
  mrb_get_args(mrb, "|oo", &pat, &limv);
  if (!rx_regexp_p(mrb, pat)) return orig_get(&orig_split)(mrb, self);
  mrb_int lim = rx_opt_int(mrb, limv, 0);
  rx_regexp *re = rx_for_subject(mrb, pat, self);
  const char *s = RSTRING_PTR(self);
  mrb_int len = RSTRING_LEN(self);
  mrb_value result = mrb_ary_new(mrb);
  if (lim == 1) {
    if (len > 0) mrb_ary_push(mrb, result, mrb_str_dup(mrb, self));
    return result;
  }
  rx_region rg;
  rx_region_init(mrb, &rg, re);
  mrb_int beg = 0, pos = 0, pieces = 1;
  int ai = mrb_gc_arena_save(mrb);
  while (pos <= len && (lim <= 0 || pieces < lim)) {
    if (rx_search(mrb, re, s, len, pos, FALSE, &rg.r) < 0) break;
    mrb_int b = rg.r.beg[0], e = rg.r.end[0];
    if (b == e && b == beg) {          /* an empty separator where the piece starts: look one char on */
      if (b >= len) break;
      pos = b + rx_char_len(re, s, len, b);
      continue;
    }
    if (b == e && b >= len) break;     /* an empty separator at the very end */
    mrb_ary_push(mrb, result, mrb_str_byte_subseq(mrb, self, beg, b - beg));
    for (int i = 1; i < rg.r.num_regs; i++)
      if (rg.r.beg[i] >= 0) mrb_ary_push(mrb, result, mrb_str_byte_subseq(mrb, self, rg.r.beg[i], rg.r.end[i] - rg.r.beg[i]));
    pieces++;
    beg = pos = e;
    mrb_gc_arena_restore(mrb, ai);
  }
  if (len > 0 && (lim != 0 || len > beg)) mrb_ary_push(mrb, result, mrb_str_byte_subseq(mrb, self, beg, len - beg));
  if (lim == 0) {
    while (RARRAY_LEN(result) > 0 && RSTRING_LEN(RARRAY_PTR(result)[RARRAY_LEN(result) - 1]) == 0)
      mrb_ary_pop(mrb, result);
  }
  return result;
}

/* ---- index, rindex, [], slice, start_with?, partition ---- */

static mrb_value search_set(mrb_state *mrb, mrb_value pat, mrb_value str, mrb_int pos, mrb_bool backward) {
  rx_regexp *re = rx_for_subject(mrb, pat, str);
  const char *s = RSTRING_PTR(str);
  mrb_int len = RSTRING_LEN(str);
  mrb_value m = mrb_nil_value();
  if (pos >= 0 && pos <= len) {
    rx_region rg;
    rx_region_init(mrb, &rg, re);
    if (rx_search(mrb, re, s, len, pos, backward, &rg.r) >= 0) m = rx_match_new(mrb, pat, str, &rg.r);
  }
  rx_last_match_set(mrb, m);
  return m;
}

static mrb_value str_index(mrb_state *mrb, mrb_value self) {
  mrb_value pat, posv = mrb_undef_value();
  mrb_get_args(mrb, "o|o", &pat, &posv);
  if (!rx_regexp_p(mrb, pat)) return orig_get(&orig_index)(mrb, self);
  mrb_int pos = rx_opt_int(mrb, posv, 0);
  if (pos < 0) pos += rx_char_length(self);
  if (pos > 0) pos = rx_char_to_byte(self, pos);
  mrb_value m = search_set(mrb, pat, self, pos, FALSE);
  return mrb_nil_p(m) ? m : mrb_fixnum_value(rx_byte_to_char(self, rx_match_get(mrb, m).beg[0]));
}

static mrb_value str_rindex(mrb_state *mrb, mrb_value self) {
  mrb_value pat, posv = mrb_undef_value();
  mrb_get_args(mrb, "o|o", &pat, &posv);
  if (!rx_regexp_p(mrb, pat)) return orig_get(&orig_rindex)(mrb, self);
  mrb_int clen = rx_char_length(self);
  mrb_int pos = rx_opt_int(mrb, posv, clen);
  if (pos < 0) pos += clen;
  if (pos > clen) pos = clen;
  if (pos > 0) pos = rx_char_to_byte(self, pos);
  mrb_value m = search_set(mrb, pat, self, pos, TRUE);
  return mrb_nil_p(m) ? m : mrb_fixnum_value(rx_byte_to_char(self, rx_match_get(mrb, m).beg[0]));
}

static mrb_value str_aref(mrb_state *mrb, mrb_value self) {
  mrb_int argc = mrb_get_argc(mrb);
  const mrb_value *argv = mrb_get_argv(mrb);
  if (argc < 1 || !rx_regexp_p(mrb, argv[0])) return orig_get(&orig_aref)(mrb, self);
  mrb_value pat, cap = mrb_fixnum_value(0);
  mrb_get_args(mrb, "o|o", &pat, &cap);
  mrb_value m = search_set(mrb, pat, self, 0, FALSE);
  if (mrb_nil_p(m)) return m;
  if (mrb_string_p(cap) || mrb_symbol_p(cap)) {
    mrb_int nlen;
    const char *name = mrb_string_p(cap) ? RSTRING_PTR(cap) : mrb_sym_name_len(mrb, mrb_symbol(cap), &nlen);
    if (mrb_string_p(cap)) nlen = RSTRING_LEN(cap);
    return rx_match_group(mrb, m, rx_name_to_group(mrb, m, name, nlen, TRUE));
  }
  mrb_int i = mrb_as_int(mrb, cap), n = rx_match_get(mrb, m).n;
  if (i < 0) i += n;
  return rx_match_group(mrb, m, (int)(i < 0 || i >= n ? -1 : i));
}

static mrb_value str_start_with(mrb_state *mrb, mrb_value self) {
  mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  for (mrb_int i = 0; i < argc; i++) {
    mrb_value p = argv[i];
    if (rx_regexp_p(mrb, p)) {
      rx_regexp *re = rx_for_subject(mrb, p, self);
      rx_region rg;
      rx_region_init(mrb, &rg, re);
      if (rx_match_at(mrb, re, RSTRING_PTR(self), RSTRING_LEN(self), 0, &rg.r) >= 0) {
        rx_last_match_set(mrb, rx_match_new(mrb, p, self, &rg.r));
        return mrb_true_value();
      }
      rx_last_match_set(mrb, mrb_nil_value());
    } else {
      p = rx_to_str(mrb, p);
      if (RSTRING_LEN(p) <= RSTRING_LEN(self) && memcmp(RSTRING_PTR(self), RSTRING_PTR(p), (size_t)RSTRING_LEN(p)) == 0)
        return mrb_true_value();
    }
  }
  return mrb_false_value();
}

static mrb_value partition(mrb_state *mrb, mrb_value self, mrb_bool backward) {
  mrb_value pat = mrb_get_arg1(mrb);
  if (!rx_regexp_p(mrb, pat)) {
    pat = rx_from_pattern(mrb, pat);
  }
  mrb_value m = search_set(mrb, pat, self, backward ? RSTRING_LEN(self) : 0, backward);
  mrb_value out = mrb_ary_new_capa(mrb, 3);
  if (mrb_nil_p(m)) {
    mrb_value e1 = mrb_str_new(mrb, NULL, 0), e2 = mrb_str_new(mrb, NULL, 0);
    if (backward) { mrb_ary_push(mrb, out, e1); mrb_ary_push(mrb, out, e2); mrb_ary_push(mrb, out, mrb_str_dup(mrb, self)); }
    else { mrb_ary_push(mrb, out, mrb_str_dup(mrb, self)); mrb_ary_push(mrb, out, e1); mrb_ary_push(mrb, out, e2); }
    return out;
  }
  rx_match md = rx_match_get(mrb, m);
  mrb_ary_push(mrb, out, mrb_str_byte_subseq(mrb, self, 0, md.beg[0]));
  mrb_ary_push(mrb, out, rx_match_group(mrb, m, 0));
  mrb_ary_push(mrb, out, mrb_str_byte_subseq(mrb, self, md.end[0], RSTRING_LEN(self) - md.end[0]));
  return out;
}

static mrb_value str_partition(mrb_state *mrb, mrb_value self) { return partition(mrb, self, FALSE); }
static mrb_value str_rpartition(mrb_state *mrb, mrb_value self) { return partition(mrb, self, TRUE); }

/* ---- Symbol ---- */

static mrb_value sym_match_op(mrb_state *mrb, mrb_value self) {
  mrb_value pat = mrb_get_arg1(mrb);
  mrb_value str = mrb_sym_str(mrb, mrb_symbol(self));
  if (!rx_regexp_p(mrb, pat)) return mrb_funcall_argv(mrb, str, MRB_OPSYM(match), 1, &pat);
  return match_op_on(mrb, str, pat);
}

static mrb_value sym_match(mrb_state *mrb, mrb_value self) {
  return match_on(mrb, mrb_sym_str(mrb, mrb_symbol(self)));
}

static mrb_value sym_match_p(mrb_state *mrb, mrb_value self) {
  mrb_value pat, posv = mrb_undef_value();
  mrb_get_args(mrb, "o|o", &pat, &posv);
  mrb_int pos = rx_opt_int(mrb, posv, 0);
  pat = string_pattern_regexp(mrb, pat);
  mrb_value args[2] = { mrb_sym_str(mrb, mrb_symbol(self)), mrb_fixnum_value(pos) };
  return mrb_funcall_argv(mrb, pat, MRB_SYM_Q(match), 2, args);
}

static void keep_original(mrb_state *mrb, mrb_func_t *slot, mrb_sym name) {
  mrb_func_t f = original(mrb, name);
  mrb_func_t expected = NULL;
  __atomic_compare_exchange_n(slot, &expected, f, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void rx_init_string(mrb_state *mrb) {
  struct RClass *s = mrb->string_class;
  keep_original(mrb, &orig_index, MRB_SYM(index));
  keep_original(mrb, &orig_rindex, MRB_SYM(rindex));
  keep_original(mrb, &orig_aref, MRB_OPSYM(aref));
  keep_original(mrb, &orig_split, MRB_SYM(split));
  mrb_define_method(mrb, s, "=~", str_match_op, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "match", str_match, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "match?", str_match_p, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, s, "sub", str_sub, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "sub!", str_sub_bang, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "gsub", str_gsub, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "gsub!", str_gsub_bang, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "scan", str_scan, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "split", str_split, MRB_ARGS_OPT(2));
  mrb_define_method(mrb, s, "index", str_index, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, s, "rindex", str_rindex, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, s, "[]", str_aref, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, s, "slice", str_aref, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, s, "start_with?", str_start_with, MRB_ARGS_ANY());
  mrb_define_method(mrb, s, "partition", str_partition, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "rpartition", str_rpartition, MRB_ARGS_REQ(1));
  struct RClass *sym = mrb->symbol_class;
  mrb_define_method(mrb, sym, "=~", sym_match_op, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, sym, "match", sym_match, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, sym, "match?", sym_match_p, MRB_ARGS_ARG(1, 1));
}
