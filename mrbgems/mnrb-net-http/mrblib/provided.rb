# What `require` finds built in from this gem.
MNRB::Loader.provide "uri"
MNRB::Loader.provide "net/http"
MNRB::Loader.provide "net/protocol"
MNRB::Loader.provide "open-uri"
