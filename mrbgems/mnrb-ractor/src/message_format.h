/* The byte format of a message (message.c writes it, materialize.c reads it): see message.c. */
#ifndef MNRB_RACTOR_MESSAGE_FORMAT_H
#define MNRB_RACTOR_MESSAGE_FORMAT_H

enum {
  T_NIL, T_TRUE, T_FALSE, T_INT, T_FLOAT, T_SYM, T_REF,
  T_STR, T_ARY, T_HASH, T_RANGE, T_STRUCT, T_EXC, T_OBJ, T_CLASS, T_MODULE, T_RACTOR, T_TIME,
  T_BIGINT,
  T_XREF,
  T_RATIONAL, T_COMPLEX,
  T_REGEXP, T_MATCH,
  T_SINGLETON,       /* before an object with a singleton class: its modules and methods (message.c) */
  T_METHOD,          /* a Method / UnboundMethod: flags (F_FROZEN, M_UNBOUND), name, holder (a leaf) */
  T_ENCODING,        /* an Encoding: its name (a value: not numbered; the receiver's Encoding.find) */
};
/* STR, EXC (its message) and MATCH (its string) carry their string's encoding, a byte after their
 * flags: mnrb-encoding's index (MRB_STR_ENC_*, the same table in every state) */
/* a singleton method's body in T_SINGLETON */
enum { S_IREP, S_CFUNC, S_CLOSURE, S_UNSHAREABLE };
/* where a class's path (u32 length, bytes) would be: an anonymous class (anon_class.c), then its
 * xid (i64), whether its description follows (u8: the first time in a message), the description */
#define ANON_REF 0xFFFFFFFFu
enum { M_UNBOUND = 2 };
enum { F_FROZEN = 1, F_DEFAULT = 2, F_IDENTITY = 4 /* a Hash's compare_by_identity */ };

#endif
