/* english.c - `require "English"`: longer names for Ruby's punctuation globals, the list CRuby's
   library gives. Each is an alias (`alias $ERROR_INFO $!`, mruby patch 0066): it reads and writes
   the variable itself, through the same hook, so $ERROR_INFO is the running thread's $! and
   $LAST_MATCH_INFO the calling frame's $~. In C rather than lib/: lib/ bytecode is shared by every
   state and may not intern names at load, and these are names no built-in code uses. */
#include <mruby.h>
#include <mruby/variable.h>

static const char *const aliases[][2] = {
  /* exceptions */
  { "$ERROR_INFO", "$!" }, { "$ERROR_POSITION", "$@" },
  /* separators */
  { "$FS", "$;" }, { "$FIELD_SEPARATOR", "$;" }, { "$OFS", "$," }, { "$OUTPUT_FIELD_SEPARATOR", "$," },
  { "$RS", "$/" }, { "$INPUT_RECORD_SEPARATOR", "$/" },
  { "$ORS", "$\\" }, { "$OUTPUT_RECORD_SEPARATOR", "$\\" },
  /* reading and writing */
  { "$INPUT_LINE_NUMBER", "$." }, { "$NR", "$." }, { "$LAST_READ_LINE", "$_" },
  { "$DEFAULT_OUTPUT", "$stdout" },   /* $> is $stdout (the parser reads it so) */
  { "$DEFAULT_INPUT", "$<" }, { "$ARGV", "$*" },
  /* the process */
  { "$PID", "$$" }, { "$PROCESS_ID", "$$" }, { "$CHILD_STATUS", "$?" },
  /* the last match */
  { "$LAST_MATCH_INFO", "$~" }, { "$MATCH", "$&" }, { "$PREMATCH", "$`" }, { "$POSTMATCH", "$'" },
  { "$LAST_PAREN_MATCH", "$+" }, { "$IGNORECASE", "$=" },
};

void
mnrb_stdlib_english_init(mrb_state *mrb)
{
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
    mrb_gv_alias(mrb, mrb_intern_cstr(mrb, aliases[i][0]), mrb_intern_cstr(mrb, aliases[i][1]));
  }
}
