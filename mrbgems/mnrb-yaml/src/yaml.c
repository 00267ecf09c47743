/*
 * yaml.c - libyaml's parser and emitter for Psych (lib/psych.rb), made at `require "psych"`.
 *
 * Psych.__parse(string, path) runs libyaml's event parser over the whole string and returns the
 * stream as nested Arrays, one root node per document (lib/psych.rb's ToRuby reads them):
 *   scalar   [0, tag, anchor, value, quoted, style, line, column]   quoted: libyaml's
 *            quoted_implicit (a quoted or block scalar without a tag: always a String)
 *   sequence [1, tag, anchor, children, style, line, column]
 *   mapping  [2, tag, anchor, [key, value, key, value...], style, line, column]
 *   alias    [3, anchor]
 * The tree is built with an explicit stack (no C recursion: any nesting depth), and aliases stay
 * nodes: they are resolved to the anchored object by ToRuby, so "billion laughs" input costs its
 * own size here. A libyaml error raises Psych::SyntaxError.new(path, line, column, offset,
 * problem, context) with the context mark's line and column (1-based), as CRuby's psych does.
 *
 * Psych.__emit(events, line_width, indentation, canonical) emits a flat Array of events (lib/
 * psych.rb's YAMLTree makes them) through libyaml's emitter and returns the text:
 *   [1, version_major, version_minor, implicit]   document start (version 0: none)
 *   [2, implicit]                                 document end
 *   [3, anchor, tag, value, plain_implicit, quoted_implicit, style]
 *   [4, anchor, tag, implicit, style]  [5]        sequence start, end
 *   [6, anchor, tag, implicit, style]  [7]        mapping start, end
 *   [8, anchor]                                   alias
 * The stream start and end events are added here. Styles are libyaml's numbers (Psych's too).
 *
 * libyaml's parser and emitter live in Data objects whose free function deletes them: an exception
 * (a syntax error, NoMemoryError) anywhere leaves them to the GC instead of leaking. No Ruby code
 * runs while either works.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb_feature.h"

typedef struct parser_box {
  yaml_parser_t parser;
  yaml_event_t event;
  int has_event;   /* event holds data to delete */
} parser_box;

static void
parser_free(mrb_state *mrb, void *p)
{
  parser_box *b = p;
  if (!b) return;
  if (b->has_event) yaml_event_delete(&b->event);
  yaml_parser_delete(&b->parser);
  mrb_free(mrb, b);
}
static const struct mrb_data_type parser_type = { "Psych::Parser(libyaml)", parser_free };

static mrb_value
str_or_nil(mrb_state *mrb, const yaml_char_t *s)
{
  return s ? mrb_str_new_cstr(mrb, (const char *)s) : mrb_nil_value();
}

static struct RClass *
psych_module(mrb_state *mrb)
{
  return mrb_module_get(mrb, "Psych");
}

static void
raise_syntax_error(mrb_state *mrb, yaml_parser_t *p, mrb_value path)
{
  if (p->error == YAML_MEMORY_ERROR) mrb_raise(mrb, E_RUNTIME_ERROR, "libyaml: out of memory");
  mrb_value args[6] = {
    path,
    mrb_int_value(mrb, (mrb_int)p->context_mark.line + 1),
    mrb_int_value(mrb, (mrb_int)p->context_mark.column + 1),
    mrb_int_value(mrb, (mrb_int)p->problem_offset),
    str_or_nil(mrb, (const yaml_char_t *)p->problem),
    str_or_nil(mrb, (const yaml_char_t *)p->context),
  };
  struct RClass *c = mrb_class_get_under(mrb, psych_module(mrb), "SyntaxError");
  mrb_exc_raise(mrb, mrb_obj_new(mrb, c, 6, args));
}

/* Adds a finished node to the container on top of the stack, or to the documents. */
static void
attach(mrb_state *mrb, mrb_value stack, mrb_value docs, mrb_value node)
{
  mrb_int n = RARRAY_LEN(stack);
  if (n == 0) {
    mrb_ary_push(mrb, docs, node);
  } else {
    mrb_value top = RARRAY_PTR(stack)[n - 1];
    mrb_ary_push(mrb, RARRAY_PTR(top)[3], node);
  }
}

static mrb_value
collection(mrb_state *mrb, int kind, const yaml_char_t *tag, const yaml_char_t *anchor, int style, yaml_mark_t m)
{
  mrb_value v[7] = {
    mrb_fixnum_value(kind), str_or_nil(mrb, tag), str_or_nil(mrb, anchor), mrb_ary_new(mrb),
    mrb_fixnum_value(style), mrb_int_value(mrb, (mrb_int)m.line), mrb_int_value(mrb, (mrb_int)m.column),
  };
  return mrb_ary_new_from_values(mrb, 7, v);
}

static mrb_value
psych_parse(mrb_state *mrb, mrb_value self)
{
  mrb_value str, path;
  mrb_get_args(mrb, "So", &str, &path);
  str = mrb_str_dup(mrb, str);   /* libyaml reads these bytes throughout: nobody else may change them */
  mrb_value docs = mrb_ary_new(mrb), stack = mrb_ary_new(mrb);
  parser_box *b = mrb_calloc(mrb, 1, sizeof *b);
  struct RData *holder = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &parser_type);
  if (!yaml_parser_initialize(&b->parser)) {
    mrb_free(mrb, b);
    mrb_raise(mrb, E_RUNTIME_ERROR, "libyaml: cannot make a parser");
  }
  holder->data = b;
  yaml_parser_set_input_string(&b->parser, (const unsigned char *)RSTRING_PTR(str), (size_t)RSTRING_LEN(str));
  yaml_parser_set_encoding(&b->parser, YAML_UTF8_ENCODING);   /* as psych for a UTF-8 String: no BOM sniffing */
  int ai = mrb_gc_arena_save(mrb);
  for (;;) {
    if (!yaml_parser_parse(&b->parser, &b->event)) raise_syntax_error(mrb, &b->parser, path);
    b->has_event = 1;
    yaml_event_t *e = &b->event;
    int done = 0;
    switch (e->type) {
    case YAML_STREAM_END_EVENT:
      done = 1;
      break;
    case YAML_SCALAR_EVENT: {
      mrb_value v[8] = {
        mrb_fixnum_value(0), str_or_nil(mrb, e->data.scalar.tag), str_or_nil(mrb, e->data.scalar.anchor),
        mrb_str_new(mrb, (const char *)e->data.scalar.value, (mrb_int)e->data.scalar.length),
        mrb_bool_value(e->data.scalar.quoted_implicit), mrb_fixnum_value(e->data.scalar.style),
        mrb_int_value(mrb, (mrb_int)e->start_mark.line), mrb_int_value(mrb, (mrb_int)e->start_mark.column),
      };
      attach(mrb, stack, docs, mrb_ary_new_from_values(mrb, 8, v));
      break;
    }
    case YAML_ALIAS_EVENT: {
      mrb_value v[2] = { mrb_fixnum_value(3), str_or_nil(mrb, e->data.alias.anchor) };
      attach(mrb, stack, docs, mrb_ary_new_from_values(mrb, 2, v));
      break;
    }
    case YAML_SEQUENCE_START_EVENT:
      mrb_ary_push(mrb, stack, collection(mrb, 1, e->data.sequence_start.tag, e->data.sequence_start.anchor,
                                          e->data.sequence_start.style, e->start_mark));
      break;
    case YAML_MAPPING_START_EVENT:
      mrb_ary_push(mrb, stack, collection(mrb, 2, e->data.mapping_start.tag, e->data.mapping_start.anchor,
                                          e->data.mapping_start.style, e->start_mark));
      break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: {
      mrb_value node = mrb_ary_pop(mrb, stack);
      attach(mrb, stack, docs, node);
      break;
    }
    default:   /* stream and document starts and ends: documents are the stack's bottom */
      break;
    }
    yaml_event_delete(e);
    b->has_event = 0;
    mrb_gc_arena_restore(mrb, ai);
    if (done) break;
  }
  holder->data = NULL;
  parser_free(mrb, b);
  return docs;
}

/* ---- emitter ---- */

typedef struct emitter_box {
  yaml_emitter_t emitter;
  char *out;        /* the text so far, malloc'd */
  size_t len, cap;
  int oom;          /* a realloc failed */
} emitter_box;

static void
emitter_free(mrb_state *mrb, void *p)
{
  emitter_box *b = p;
  if (!b) return;
  yaml_emitter_delete(&b->emitter);
  free(b->out);
  mrb_free(mrb, b);
}
static const struct mrb_data_type emitter_type = { "Psych::Emitter(libyaml)", emitter_free };

static int
emitter_write(void *data, unsigned char *buf, size_t size)
{
  emitter_box *b = data;
  if (b->len + size > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + size) cap *= 2;
    char *n = realloc(b->out, cap);
    if (!n) { b->oom = 1; return 0; }
    b->out = n;
    b->cap = cap;
  }
  memcpy(b->out + b->len, buf, size);
  b->len += size;
  return 1;
}

/* A C string of an event field (String or nil), valid while the events array holds it. */
static yaml_char_t *
field_cstr(mrb_state *mrb, mrb_value ev, int i)
{
  mrb_value v = mrb_ary_entry(ev, i);
  if (mrb_nil_p(v)) return NULL;
  return (yaml_char_t *)mrb_string_value_cstr(mrb, &v);
}

static mrb_int
field_int(mrb_state *mrb, mrb_value ev, int i)
{
  return mrb_as_int(mrb, mrb_ary_entry(ev, i));
}

static void
emit(mrb_state *mrb, emitter_box *b, yaml_event_t *e)
{
  if (!yaml_emitter_emit(&b->emitter, e)) {
    const char *problem = b->emitter.problem ? b->emitter.problem : "emitter error";
    mrb_raise(mrb, E_RUNTIME_ERROR, problem);
  }
}

static mrb_value
psych_emit(mrb_state *mrb, mrb_value self)
{
  mrb_value events;
  mrb_int width, indent;
  mrb_bool canonical;
  mrb_get_args(mrb, "Aiib", &events, &width, &indent, &canonical);
  emitter_box *b = mrb_calloc(mrb, 1, sizeof *b);
  struct RData *holder = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &emitter_type);
  if (!yaml_emitter_initialize(&b->emitter)) {
    mrb_free(mrb, b);
    mrb_raise(mrb, E_RUNTIME_ERROR, "libyaml: cannot make an emitter");
  }
  holder->data = b;
  yaml_emitter_set_output(&b->emitter, emitter_write, b);
  yaml_emitter_set_unicode(&b->emitter, 1);
  yaml_emitter_set_width(&b->emitter, (int)width);
  yaml_emitter_set_indent(&b->emitter, (int)indent);
  yaml_emitter_set_canonical(&b->emitter, canonical);

  yaml_event_t e;
  yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING);
  emit(mrb, b, &e);
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(events); i++) {
    mrb_value ev = RARRAY_PTR(events)[i];
    if (!mrb_array_p(ev) || RARRAY_LEN(ev) < 1) mrb_raise(mrb, E_ARGUMENT_ERROR, "bad YAML event");
    int ok = 1;
    switch (field_int(mrb, ev, 0)) {
    case 1: {
      yaml_version_directive_t ver = { (int)field_int(mrb, ev, 1), (int)field_int(mrb, ev, 2) };
      ok = yaml_document_start_event_initialize(&e, ver.major ? &ver : NULL, NULL, NULL,
                                                mrb_test(mrb_ary_entry(ev, 3)));
      break;
    }
    case 2:
      ok = yaml_document_end_event_initialize(&e, mrb_test(mrb_ary_entry(ev, 1)));
      break;
    case 3: {
      mrb_value v = mrb_ary_entry(ev, 3);
      mrb_ensure_string_type(mrb, v);
      ok = yaml_scalar_event_initialize(&e, field_cstr(mrb, ev, 1), field_cstr(mrb, ev, 2),
                                        (yaml_char_t *)RSTRING_PTR(v), (int)RSTRING_LEN(v),
                                        mrb_test(mrb_ary_entry(ev, 4)), mrb_test(mrb_ary_entry(ev, 5)),
                                        (yaml_scalar_style_t)field_int(mrb, ev, 6));
      break;
    }
    case 4:
      ok = yaml_sequence_start_event_initialize(&e, field_cstr(mrb, ev, 1), field_cstr(mrb, ev, 2),
                                                mrb_test(mrb_ary_entry(ev, 3)),
                                                (yaml_sequence_style_t)field_int(mrb, ev, 4));
      break;
    case 5:
      ok = yaml_sequence_end_event_initialize(&e);
      break;
    case 6:
      ok = yaml_mapping_start_event_initialize(&e, field_cstr(mrb, ev, 1), field_cstr(mrb, ev, 2),
                                               mrb_test(mrb_ary_entry(ev, 3)),
                                               (yaml_mapping_style_t)field_int(mrb, ev, 4));
      break;
    case 7:
      ok = yaml_mapping_end_event_initialize(&e);
      break;
    case 8:
      ok = yaml_alias_event_initialize(&e, field_cstr(mrb, ev, 1));
      break;
    default:
      mrb_raise(mrb, E_ARGUMENT_ERROR, "bad YAML event");
    }
    if (!ok) mrb_raise(mrb, E_RUNTIME_ERROR, "libyaml: bad event (an anchor or tag libyaml refuses)");
    emit(mrb, b, &e);   /* the emitter owns e's copies from here (it deletes them) */
    mrb_gc_arena_restore(mrb, ai);
  }
  yaml_stream_end_event_initialize(&e);
  emit(mrb, b, &e);
  if (!yaml_emitter_flush(&b->emitter) || b->oom) mrb_raise(mrb, E_RUNTIME_ERROR, "libyaml: cannot write");
  mrb_value out = mrb_str_new(mrb, b->out ? b->out : "", (mrb_int)b->len);
  holder->data = NULL;
  emitter_free(mrb, b);
  return out;
}

static mrb_value
psych_libyaml_version(mrb_state *mrb, mrb_value self)
{
  return mrb_str_new_cstr(mrb, yaml_get_version_string());
}

static void
yaml_init_feature(mrb_state *mrb)
{
  struct RClass *p = mrb_define_module(mrb, "Psych");
  mrb_define_module_function(mrb, p, "__parse", psych_parse, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, p, "__emit", psych_emit, MRB_ARGS_REQ(4));
  mrb_define_module_function(mrb, p, "libyaml_version_string", psych_libyaml_version, MRB_ARGS_NONE());
}

extern const struct RProc mnrb_yaml_psych[], mnrb_yaml_yaml[];
static const char *const needs_psych[] = { "psych", NULL };
static const mnrb_feature features[] = {
  { "psych", "psych.rb", NULL, mnrb_yaml_psych, yaml_init_feature },
  { "yaml", "yaml.rb", needs_psych, mnrb_yaml_yaml, NULL },
};

void
mrb_mnrb_yaml_gem_init(mrb_state *mrb)
{
  mnrb_feature_on_demand(mrb, features, sizeof features / sizeof features[0]);
}

void
mrb_mnrb_yaml_gem_final(mrb_state *mrb)
{
}
