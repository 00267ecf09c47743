# Etc: nprocessors and uname are in src/etc.c.
MNRB::Loader.provide "etc", "etc.so"
