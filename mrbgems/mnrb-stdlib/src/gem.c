/* gem.c - entry points of mnrb-stdlib: Etc (etc.c), and the features that load at their first
   require (mnrb_feature.h; their Ruby code is lib/, compiled into features_code.c by the build). */
#include <mruby.h>
#include <mruby/proc.h>
#include "mnrb_feature.h"

void mnrb_stdlib_etc_init(mrb_state *mrb);
void mnrb_stdlib_json_init(mrb_state *mrb);   /* json_parser.c: JSON::Parser */
void mnrb_stdlib_english_init(mrb_state *mrb);   /* english.c: the aliases, no Ruby code */
void mnrb_stdlib_objspace_init(mrb_state *mrb);  /* objspace.c: memsize_of and friends, no Ruby code */

extern const struct RProc mnrb_stdlib_timeout[], mnrb_stdlib_stringio[], mnrb_stdlib_benchmark[],
  mnrb_stdlib_pp[], mnrb_stdlib_json[], mnrb_stdlib_tmpdir[];
/* Ruby-written libraries scripts require (issue 19). */
extern const struct RProc mnrb_stdlib_base64[], mnrb_stdlib_shellwords[], mnrb_stdlib_singleton[],
  mnrb_stdlib_forwardable[], mnrb_stdlib_securerandom[], mnrb_stdlib_ostruct[], mnrb_stdlib_time[],
  mnrb_stdlib_logger[], mnrb_stdlib_fileutils[], mnrb_stdlib_tempfile[], mnrb_stdlib_open3[],
  mnrb_stdlib_optparse[], mnrb_stdlib_erb[];
/* More libraries that programs written for CRuby require. */
extern const struct RProc mnrb_stdlib_delegate[], mnrb_stdlib_pathname[],
  mnrb_stdlib_weakref[], mnrb_stdlib_find[],
  mnrb_stdlib_tsort[], mnrb_stdlib_observer[],
  mnrb_stdlib_abbrev[], mnrb_stdlib_date[], mnrb_stdlib_csv[];
extern const struct RProc mnrb_stdlib_prime[], mnrb_stdlib_cgi_util[], mnrb_stdlib_cgi[],
  mnrb_stdlib_mutex_m[], mnrb_stdlib_prettyprint[], mnrb_stdlib_getoptlong[], mnrb_stdlib_pstore[],
  mnrb_stdlib_ipaddr[];

/* json/add/...: JSON's additions for core and library classes (json/add/core loads the core ones). */
extern const struct RProc mnrb_stdlib_json_add_range[], mnrb_stdlib_json_add_symbol[],
  mnrb_stdlib_json_add_regexp[], mnrb_stdlib_json_add_struct[], mnrb_stdlib_json_add_exception[],
  mnrb_stdlib_json_add_time[], mnrb_stdlib_json_add_date[], mnrb_stdlib_json_add_date_time[],
  mnrb_stdlib_json_add_rational[], mnrb_stdlib_json_add_complex[], mnrb_stdlib_json_add_bigdecimal[],
  mnrb_stdlib_json_add_set[], mnrb_stdlib_json_add_ostruct[];
static const char *const after_json[] = { "json", NULL };
static const char *const after_json_date[] = { "json", "date", NULL };
static const char *const after_json_bigdecimal[] = { "json", "bigdecimal", NULL };
static const char *const after_json_set[] = { "json", "set", NULL };
static const char *const after_json_ostruct[] = { "json", "ostruct", NULL };
static const char *const json_add_core[] = { "json/add/date", "json/add/date_time", "json/add/exception",
  "json/add/range", "json/add/regexp", "json/add/struct", "json/add/symbol", "json/add/time", NULL };
extern const struct RProc mnrb_stdlib_resolv[], mnrb_stdlib_un[];
static const char *const after_socket[] = { "socket", NULL };
static const char *const after_erb[] = { "erb", NULL };
static const char *const after_cgi_util[] = { "cgi/util", NULL };
static const char *const after_prettyprint[] = { "prettyprint", NULL };

static const mnrb_feature features[] = {
  { "timeout", "timeout.rb", NULL, mnrb_stdlib_timeout },
  { "stringio", "stringio.so", NULL, mnrb_stdlib_stringio },
  { "benchmark", "benchmark.rb", NULL, mnrb_stdlib_benchmark },
  { "prettyprint", "prettyprint.rb", NULL, mnrb_stdlib_prettyprint },
  { "pp", "pp.rb", after_prettyprint, mnrb_stdlib_pp },
  { "json", "json.rb", NULL, mnrb_stdlib_json, mnrb_stdlib_json_init },
  { "tmpdir", "tmpdir.rb", NULL, mnrb_stdlib_tmpdir },
  { "English", "English.rb", NULL, NULL, mnrb_stdlib_english_init },
  { "base64", "base64.rb", NULL, mnrb_stdlib_base64 },
  { "shellwords", "shellwords.rb", NULL, mnrb_stdlib_shellwords },
  { "singleton", "singleton.rb", NULL, mnrb_stdlib_singleton },
  { "forwardable", "forwardable.rb", NULL, mnrb_stdlib_forwardable },
  { "securerandom", "securerandom.rb", NULL, mnrb_stdlib_securerandom },
  { "ostruct", "ostruct.rb", NULL, mnrb_stdlib_ostruct },
  { "time", "time.rb", NULL, mnrb_stdlib_time },
  { "logger", "logger.rb", NULL, mnrb_stdlib_logger },
  { "fileutils", "fileutils.rb", NULL, mnrb_stdlib_fileutils },
  { "tempfile", "tempfile.rb", NULL, mnrb_stdlib_tempfile },
  { "open3", "open3.rb", NULL, mnrb_stdlib_open3 },
  { "optparse", "optparse.rb", NULL, mnrb_stdlib_optparse },
  { "erb", "erb.rb", NULL, mnrb_stdlib_erb },
  { "delegate", "delegate.rb", NULL, mnrb_stdlib_delegate },
  { "pathname", "pathname.rb", NULL, mnrb_stdlib_pathname },
  { "weakref", "weakref.rb", NULL, mnrb_stdlib_weakref },
  { "find", "find.rb", NULL, mnrb_stdlib_find },
  { "tsort", "tsort.rb", NULL, mnrb_stdlib_tsort },
  { "observer", "observer.rb", NULL, mnrb_stdlib_observer },
  { "abbrev", "abbrev.rb", NULL, mnrb_stdlib_abbrev },
  { "date", "date.rb", NULL, mnrb_stdlib_date },
  { "csv", "csv.rb", NULL, mnrb_stdlib_csv },
  { "prime", "prime.rb", NULL, mnrb_stdlib_prime },
  { "cgi/util", "cgi/util.rb", NULL, mnrb_stdlib_cgi_util },
  { "cgi", "cgi.rb", after_cgi_util, mnrb_stdlib_cgi },
  { "erb/util", "erb/util.rb", after_erb, NULL },   /* ERB::Util is in erb.rb */
  { "mutex_m", "mutex_m.rb", NULL, mnrb_stdlib_mutex_m },
  { "getoptlong", "getoptlong.rb", NULL, mnrb_stdlib_getoptlong },
  { "pstore", "pstore.rb", NULL, mnrb_stdlib_pstore },
  { "ipaddr", "ipaddr.rb", NULL, mnrb_stdlib_ipaddr },
  { "objspace", "objspace.so", NULL, NULL, mnrb_stdlib_objspace_init },
  { "json/add/range", "json/add/range.rb", after_json, mnrb_stdlib_json_add_range },
  { "json/add/symbol", "json/add/symbol.rb", after_json, mnrb_stdlib_json_add_symbol },
  { "json/add/regexp", "json/add/regexp.rb", after_json, mnrb_stdlib_json_add_regexp },
  { "json/add/struct", "json/add/struct.rb", after_json, mnrb_stdlib_json_add_struct },
  { "json/add/exception", "json/add/exception.rb", after_json, mnrb_stdlib_json_add_exception },
  { "json/add/time", "json/add/time.rb", after_json, mnrb_stdlib_json_add_time },
  { "json/add/date", "json/add/date.rb", after_json_date, mnrb_stdlib_json_add_date },
  { "json/add/date_time", "json/add/date_time.rb", after_json_date, mnrb_stdlib_json_add_date_time },
  { "json/add/rational", "json/add/rational.rb", after_json, mnrb_stdlib_json_add_rational },
  { "json/add/complex", "json/add/complex.rb", after_json, mnrb_stdlib_json_add_complex },
  { "json/add/bigdecimal", "json/add/bigdecimal.rb", after_json_bigdecimal, mnrb_stdlib_json_add_bigdecimal },
  { "json/add/set", "json/add/set.rb", after_json_set, mnrb_stdlib_json_add_set },
  { "json/add/ostruct", "json/add/ostruct.rb", after_json_ostruct, mnrb_stdlib_json_add_ostruct },
  { "json/add/core", "json/add/core.rb", json_add_core, NULL },
  { "resolv", "resolv.rb", after_socket, mnrb_stdlib_resolv },
  { "un", "un.rb", NULL, mnrb_stdlib_un },
};

void
mrb_mnrb_stdlib_gem_init(mrb_state *mrb)
{
  mnrb_stdlib_etc_init(mrb);
  mnrb_feature_on_demand(mrb, features, sizeof features / sizeof features[0]);
}

void
mrb_mnrb_stdlib_gem_final(mrb_state *mrb)
{
}
