/*
 * The gem's features, loaded at their first require (mnrb_feature.h): "uri"; "net/http" (Net::HTTP
 * and MNRB::HTTPServer; CRuby's "net/protocol" comes with it); "open-uri". Their code is lib/,
 * compiled by the gem's build into features_code.c.
 */
#include <mruby.h>
#include <mruby/proc.h>
#include "mnrb_feature.h"

extern const struct RProc mnrb_net_http_uri[], mnrb_net_http_net_http[], mnrb_net_http_open_uri[];

static const char *const net_http_requires[] = { "uri", "socket", "timeout", "stringio", NULL };
static const char *const needs_net_http[] = { "net/http", NULL };

static const mnrb_feature features[] = {
  { "uri", "uri.rb", NULL, mnrb_net_http_uri },
  { "net/http", "net/http.rb", net_http_requires, mnrb_net_http_net_http },
  { "net/protocol", "net/protocol.rb", needs_net_http, NULL },
  { "open-uri", "open-uri.rb", needs_net_http, mnrb_net_http_open_uri },
};

void mrb_mnrb_net_http_gem_init(mrb_state *mrb) {
  mnrb_feature_on_demand(mrb, features, sizeof features / sizeof features[0]);
}

void mrb_mnrb_net_http_gem_final(mrb_state *mrb) { (void)mrb; }
