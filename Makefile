# mnrb build. `make` builds bin/mnrb, bin/mnrb-trace and bin/mnrb-tune; `make test` builds the sanitizer variants too and runs every
# test; `make bench` and `make demo` run the benchmarks. Everything it needs it installs or fetches
# itself (scripts/deps.sh, scripts/fetch-mruby.sh): a fresh Debian machine needs nothing else.
#
# Variants: host (release), asan (AddressSanitizer + UBSan), tsan (ThreadSanitizer). Each has its own
# core library (build/VARIANT/libmnrb-core.a), mruby build (build/mruby/VARIANT) and binary.

TOP       := $(abspath .)
BUILD     := $(TOP)/build
PYVENV    := $(BUILD)/pyvenv
MRUBY_SRC := $(BUILD)/mruby-src
JOBS      ?= 2
CC        ?= gcc
ifeq ($(CC),cc)
CC := gcc
endif

CORE_SRCS := $(wildcard core/src/*.c)
CORE_ASM  := core/src/coroutine_x86_64.S
CORE_HDRS := $(wildcard core/include/mnrb/*.h core/src/*.h)
TOOL_SRCS := $(wildcard tools/mnrb-trace/*.c)
TOOL_HDRS := $(wildcard tools/mnrb-trace/*.h)
GEM_SRCS  := $(shell find mrbgems -type f \( -name '*.c' -o -name '*.h' -o -name '*.rb' -o -name '*.rake' \) 2>/dev/null)

WARN       := -Wall -Wextra -Wno-unused-parameter
CFLAGS_host := -O2 -g
CFLAGS_asan := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
CFLAGS_tsan := -O1 -g -fsanitize=thread

.PHONY: stock-mruby all deps mruby examples test test-core test-ruby test-asan test-tsan test-trace test-tool sanitizers bench bench-quick bench-engine bench-interp demo clean distclean
.DELETE_ON_ERROR:

all: bin/mnrb bin/mnrb-trace bin/mnrb-tune

deps: $(BUILD)/.deps
$(BUILD)/.deps: scripts/deps.sh
	@mkdir -p $(BUILD)
	bash scripts/deps.sh
	@touch $@

$(MRUBY_SRC)/.mnrb-stamp: scripts/fetch-mruby.sh scripts/debian-source.sh $(wildcard patches/mruby/*.patch) | $(BUILD)/.deps
	bash scripts/fetch-mruby.sh $(MRUBY_SRC)

# ---- per-variant rules ----
define variant
$(BUILD)/$(1)/core/%.o: core/src/%.c $(CORE_HDRS)
	@mkdir -p $$(dir $$@)
	$(CC) -std=gnu11 $(CFLAGS_$(1)) $(WARN) -pthread -Icore/include -c $$< -o $$@

$(BUILD)/$(1)/core/coroutine_x86_64_S.o: $(CORE_ASM)
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS_$(1)) -c $$< -o $$@

$(BUILD)/$(1)/libmnrb-core.a: $(patsubst core/src/%.c,$(BUILD)/$(1)/core/%.o,$(CORE_SRCS)) $(BUILD)/$(1)/core/coroutine_x86_64_S.o
	rm -f $$@ && ar rcs $$@ $$^

# mruby's rake is incremental; it runs whenever our gems or config may have changed. When the
# patched sources were unpacked again (a patch changed: the stamp is newer than the library), the
# variant is rebuilt from nothing: rake does not track every object's headers (the generated
# gem_init.c files, some gems), and an object left compiled against an older mrb_state layout
# corrupts the state it touches (seen: a new ractor's GC arena pointer, 4 boots in 6).
# The library takes the time its build started, not ended: a gem source edited while rake ran is
# newer than it, so the next make builds again instead of keeping objects made from the old text.
$(BUILD)/mruby/$(1)/lib/libmruby.a: $(MRUBY_SRC)/.mnrb-stamp build_config.rb $(GEM_SRCS) $(CORE_HDRS)
	@if [ -f $$@ ] && [ $(MRUBY_SRC)/.mnrb-stamp -nt $$@ ]; then \
	  echo "mruby's patched sources changed: rebuilding $(BUILD)/mruby/$(1) from nothing"; \
	  rm -rf $(BUILD)/mruby/$(1); fi
	@mkdir -p $(BUILD)/mruby && touch $(BUILD)/mruby/$(1).started
	cd $(MRUBY_SRC) && MRUBY_BUILD_DIR=$(BUILD)/mruby MNRB_BUILDS="$(1)" \
	  rake -m -j$(JOBS) MRUBY_CONFIG=$(TOP)/build_config.rb all > $(BUILD)/mruby-$(1).log 2>&1 \
	  || { tail -n 40 $(BUILD)/mruby-$(1).log; exit 1; }
	@touch -r $(BUILD)/mruby/$(1).started $$@ && rm -f $(BUILD)/mruby/$(1).started

$(BUILD)/$(1)/mnrb: cli/mnrb.c $(BUILD)/mruby/$(1)/lib/libmruby.a $(BUILD)/$(1)/libmnrb-core.a
	$(CC) -std=gnu11 $(CFLAGS_$(1)) $(WARN) -pthread -Icore/include -I$(MRUBY_SRC)/include \
	  -Imrbgems/mnrb-thread/include -Imrbgems/mnrb-compat/include \
	  cli/mnrb.c -o $$@ $(BUILD)/mruby/$(1)/lib/libmruby.a $(BUILD)/$(1)/libmnrb-core.a -lonig -lnettle -l:libyaml.a -l:libutf8proc.a -l:libz.a -lcrypt -lm -pthread

# the embedding example (examples/embed): a C program built on include/mnrb.h alone
$(BUILD)/$(1)/embed-host: examples/embed/host.c mrbgems/mnrb-embed/include/mnrb.h $(BUILD)/mruby/$(1)/lib/libmruby.a $(BUILD)/$(1)/libmnrb-core.a
	$(CC) -std=gnu11 $(CFLAGS_$(1)) $(WARN) -pthread -I$(MRUBY_SRC)/include -Imrbgems/mnrb-embed/include \
	  -Icore/include -Imrbgems/mnrb-thread/include \
	  examples/embed/host.c -o $$@ $(BUILD)/mruby/$(1)/lib/libmruby.a $(BUILD)/$(1)/libmnrb-core.a -lonig -lnettle -l:libyaml.a -l:libutf8proc.a -l:libz.a -lcrypt -lm -pthread

# the trace reader: plain C11 and libc, nothing of mnrb's (it reads the files mnrb writes)
$(BUILD)/$(1)/mnrb-trace: $(TOOL_SRCS) $(TOOL_HDRS)
	@mkdir -p $$(dir $$@)
	$(CC) -std=c11 $(CFLAGS_$(1)) $(WARN) $(TOOL_SRCS) -o $$@ -lm

$(BUILD)/$(1)/core-tests: $(wildcard core/test/*.c core/test/*.h) $(BUILD)/$(1)/libmnrb-core.a
	$(CC) -std=gnu11 $(CFLAGS_$(1)) $(WARN) -pthread -Icore/include -Icore/src \
	  $(wildcard core/test/*.c) -o $$@ $(BUILD)/$(1)/libmnrb-core.a -pthread
endef
$(foreach v,host asan tsan,$(eval $(call variant,$(v))))

# mrbtest: mruby's tests and mnrb-compat's, in the host build (rake builds and runs it)
$(BUILD)/mruby/host/bin/mrbtest: $(BUILD)/mruby/host/lib/libmruby.a $(BUILD)/host/libmnrb-core.a
	@touch $(BUILD)/mruby/mrbtest.started
	cd $(MRUBY_SRC) && MRUBY_BUILD_DIR=$(BUILD)/mruby MNRB_BUILDS=host \
	  rake -m -j$(JOBS) MRUBY_CONFIG=$(TOP)/build_config.rb test:build > $(BUILD)/mrbtest-build.log 2>&1 \
	  || { tail -n 40 $(BUILD)/mrbtest-build.log; exit 1; }
	@touch -r $(BUILD)/mruby/mrbtest.started $@ && rm -f $(BUILD)/mruby/mrbtest.started

bin/mnrb: $(BUILD)/host/mnrb
	@mkdir -p bin
	cp $< $@.tmp && mv -f $@.tmp $@      # a rename: never "text file busy" while tests run it

bin/mnrb-trace: $(BUILD)/host/mnrb-trace
	@mkdir -p bin
	cp $< $@.tmp && mv -f $@.tmp $@

bin/mnrb-tune: tools/mnrb-tune/mnrb-tune
	@mkdir -p bin
	cp $< $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

sanitizers: $(BUILD)/asan/mnrb $(BUILD)/tsan/mnrb $(BUILD)/asan/mnrb-trace

# ---- tests ----
SAN_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
           TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(TOP)/test/tsan.supp

examples: $(BUILD)/host/embed-host $(BUILD)/asan/embed-host

test: deps all sanitizers examples $(BUILD)/mruby/host/bin/mrbtest $(BUILD)/host/core-tests $(BUILD)/asan/core-tests $(BUILD)/tsan/core-tests $(PYVENV)/.stamp
	bash test/run-all.sh

# Python with Perfetto's generated trace schema, to validate traces independently of mnrb's writer.
$(PYVENV)/.stamp: test/trace/requirements.txt | $(BUILD)/.deps
	rm -rf $(PYVENV)
	python3 -m venv $(PYVENV)
	$(PYVENV)/bin/pip install -q -r test/trace/requirements.txt
	touch $@

test-trace: bin/mnrb $(PYVENV)/.stamp
	$(PYVENV)/bin/python test/trace/test_traces.py bin/mnrb

test-tool: bin/mnrb bin/mnrb-trace $(BUILD)/asan/mnrb-trace $(PYVENV)/.stamp
	$(PYVENV)/bin/python test/trace/test_tool.py bin/mnrb bin/mnrb-trace $(BUILD)/asan/mnrb-trace

test-core: $(BUILD)/host/core-tests
	$(BUILD)/host/core-tests

test-ruby: bin/mnrb
	bash test/run-ruby-tests.sh bin/mnrb

test-asan: $(BUILD)/asan/mnrb
	env $(SAN_ENV) bash test/run-ruby-tests.sh $(BUILD)/asan/mnrb

test-tsan: $(BUILD)/tsan/mnrb
	env $(SAN_ENV) bash test/run-ruby-tests.sh $(BUILD)/tsan/mnrb

# ---- benchmarks ----
bench: all $(BUILD)/stock/bin/mruby $(BUILD)/bench/mnrb-no-events $(BUILD)/bench/event-cost $(BUILD)/before/bin/mnrb $(BUILD)/cruby33/bin/ruby
	@mkdir -p $(BUILD)/bench
	bash -o pipefail -c 'bash bench/run.sh | tee $(BUILD)/bench/run.txt'
	awk -f bench/markdown.awk $(BUILD)/bench/run.txt > docs/BENCHMARKS.md
	@echo "wrote docs/BENCHMARKS.md and docs/bench/*.svg"

# CRuby 3.3.8 (the seed's M:N scheduler, MaNy) from Debian stable's ruby3.3 source package, built once
# under build/cruby33 for make bench's rows beside mnrb (bench-quick uses it when it is there).
$(BUILD)/cruby33/bin/ruby: scripts/build-cruby33.sh scripts/debian-source.sh
	bash scripts/build-cruby33.sh $(JOBS)

# The last mnrb on mruby 3.1.0, built beside (its own build/ under build/before) for bench/engine_compare.sh:
# the engine move's before and after in one run.
MNRB_BEFORE_REV ?= 78b3409
$(BUILD)/before/bin/mnrb:
	rm -rf $(BUILD)/before && mkdir -p $(BUILD)/before
	git archive $(MNRB_BEFORE_REV) | tar -x -C $(BUILD)/before
	$(MAKE) -C $(BUILD)/before all JOBS=$(JOBS) > $(BUILD)/before.log 2>&1 || { tail -n 40 $(BUILD)/before.log; exit 1; }

bench-engine: all $(BUILD)/before/bin/mnrb
	bash bench/engine_compare.sh $(BUILD)/before/bin/mnrb bin/mnrb

# the interpreter's rows alone (issue 22): mnrb beside CRuby 3.1 and stock mruby
bench-interp: all $(BUILD)/stock/bin/mruby
	bash bench/interp.sh bin/mnrb ruby 3

# the seeds' tables at small sizes, in under 2 minutes
bench-quick: all
	bash bench/quick.sh

$(BUILD)/bench/event-cost: bench/event_cost.c $(BUILD)/host/libmnrb-core.a
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(CFLAGS_host) $(WARN) -pthread -Icore/include -Icore/src $< -o $@ $(BUILD)/host/libmnrb-core.a -pthread

# The release binary with every event site compiled out: `make bench` measures what the sites cost.
$(BUILD)/bench/mnrb-no-events: cli/mnrb.c $(CORE_SRCS) $(CORE_ASM) $(CORE_HDRS) $(BUILD)/mruby/host/lib/libmruby.a
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(CFLAGS_host) $(WARN) -DMN_NO_EVENTS -pthread -Icore/include -I$(MRUBY_SRC)/include \
	  -Imrbgems/mnrb-thread/include -Imrbgems/mnrb-compat/include \
	  cli/mnrb.c $(CORE_SRCS) $(CORE_ASM) -o $@ $(BUILD)/mruby/host/lib/libmruby.a -lonig -lnettle -l:libyaml.a -l:libutf8proc.a -l:libz.a -lcrypt -lm -pthread

demo: all
	bash bench/run.sh --demo

clean:
	rm -rf $(BUILD)/host $(BUILD)/asan $(BUILD)/tsan $(BUILD)/mruby bin

distclean:
	rm -rf $(BUILD) bin

# ---- the stock mruby baseline for `make bench` ----
$(BUILD)/mruby-stock-src/.mnrb-stamp: scripts/fetch-mruby.sh | $(BUILD)/.deps
	bash scripts/fetch-mruby.sh $(BUILD)/mruby-stock-src --stock

$(BUILD)/stock/bin/mruby: $(BUILD)/mruby-stock-src/.mnrb-stamp bench/stock_config.rb
	cd $(BUILD)/mruby-stock-src && MRUBY_BUILD_DIR=$(BUILD)/stock/build INSTALL_DIR=$(BUILD)/stock/bin \
	  rake -m -j$(JOBS) MRUBY_CONFIG=$(TOP)/bench/stock_config.rb all > $(BUILD)/mruby-stock.log 2>&1 \
	  || { tail -n 40 $(BUILD)/mruby-stock.log; exit 1; }

stock-mruby: $(BUILD)/stock/bin/mruby
