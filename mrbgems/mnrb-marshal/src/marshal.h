/*
 * Marshal: CRuby's binary serialization, format 4.8 (two version bytes, then one object).
 *
 * Each value starts with a type byte: '0' 'T' 'F' (nil, true, false), 'i' (a fixnum that fits in
 * 31 bits, in the packed "long" form), 'l' (Bignum: sign, 16-bit word count, bytes), 'f' (Float as
 * text), ':' and ';' (a Symbol and a link to an earlier one), '"' '/' '[' '{' '}' (String, Regexp,
 * Array, Hash, Hash with default), 'c' 'm' (Class, Module by name), 'S' (Struct), 'o' (object and
 * its instance variables), 'U' (marshal_dump), 'u' (_dump), 'I' (an object followed by instance
 * variables: a String's encoding), 'e' (extended by a module), 'C' (a subclass of a core class),
 * '@' (a link to an earlier object, so shared references and cycles survive).
 *
 * Both sides number objects in the order they are first met (the links' indices), symbols apart;
 * the dumper and loader must agree on which objects take a number and when (marshal_dump's object
 * before its data, _dump's after it, a Float each time: CRuby's rules).
 */
#ifndef MNRB_MARSHAL_H
#define MNRB_MARSHAL_H

#include <mruby.h>

#define MARSHAL_MAJOR 4
#define MARSHAL_MINOR 8

/* nesting deeper than this raises SystemStackError, before the C stack runs out (a thread has
   1 MiB by default, and a level costs a few hundred bytes, more under ASan) */
#define MARSHAL_MAX_DEPTH 3000

mrb_value mnrb_marshal_dump(mrb_state *mrb, mrb_value obj, mrb_int limit);   /* the bytes */
mrb_value mnrb_marshal_load(mrb_state *mrb, mrb_value src, mrb_value proc, mrb_bool freeze);

/* Float <-> CRuby's text ("1.5", "1e100", "-0", "inf", "nan") */
mrb_int mnrb_marshal_float_text(double d, char *buf, size_t size);
double mnrb_marshal_float_parse(const char *s, mrb_int len);

/* the class or module a path names ("A::B"), or ArgumentError "undefined class/module A::B" */
struct RClass *mnrb_marshal_path_class(mrb_state *mrb, const char *s, mrb_int len);

/* time.c: Time as CRuby's Time#_dump writes it (8 bytes; ivars pushed as [sym, value] pairs) */
mrb_bool mnrb_marshal_time_p(mrb_state *mrb, mrb_value v);
mrb_bool mnrb_marshal_time_class_p(mrb_state *mrb, struct RClass *c);
mrb_value mnrb_marshal_time_dump(mrb_state *mrb, mrb_value t, mrb_value ivars);
mrb_value mnrb_marshal_time_load(mrb_state *mrb, struct RClass *c, mrb_value bytes, mrb_value ivars);

#endif
