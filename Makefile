# The user's interface: `make help` lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash

SBPF_LINKER_VERSION := 0.2.6
TOOLS := $(CURDIR)/.tools
LINKER := $(TOOLS)/bin/sbpf-linker
SBF_TARGET := bpfel-unknown-none
# Cargo's output folder; target/deploy stays in the workspace either way.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# Every folder under programs/<family>/ with a Cargo.toml is a program.
programs_of = $(sort $(notdir $(patsubst %/Cargo.toml,%,$(wildcard programs/$(1)/*/Cargo.toml))))
TOKEN := $(call programs_of,token)
MESSAGE := $(call programs_of,message)
METADATA := $(call programs_of,metadata)
# The frameworks' programs: each framework declared in
# programs/frameworks.toml (its name, how it is built, its lines in the
# reports), a workspace of its own (programs/<framework>/), its programs
# per family (programs/<framework>/<family>/<program>/) and its floor
# (programs/<framework>/noop). Read here a line at a time.
REGISTRY := programs/frameworks.toml
# $(call registry,<key>): each framework's value of <key>, as <name>=<value>.
registry = $(shell awk -F' = ' '$$1 == "name" { gsub(/"/, "", $$2); n = $$2 } $$1 == "$(1)" && n != "" { gsub(/"/, "", $$2); print n "=" $$2 }' $(REGISTRY))
# $(call declared,<framework>,<key list>): its value in that list.
declared = $(patsubst $(1)=%,%,$(filter $(1)=%,$(2)))
FRAMEWORKS := $(shell sed -n 's/^name = "\(.*\)"/\1/p' $(REGISTRY))
REGISTRY_TARGETS := $(call registry,target)
REGISTRY_SETUPS := $(call registry,setup)
REGISTRY_SETUP_INTO := $(call registry,setup_into)
# make programs' lanes: the frameworks built in the workspace's target
# folder (target "."), after solana-program's programs, and the others,
# beside them.
WORKSPACE_LANE := $(foreach f,$(FRAMEWORKS),$(if $(filter .,$(call declared,$(f),$(REGISTRY_TARGETS))),$(f)))
OWN_LANE := $(filter-out $(WORKSPACE_LANE),$(FRAMEWORKS))
# The target folders std is built in (the workspace's, and those of the
# frameworks built with std), which make setup clears when std's sources change.
STD_FRAMEWORKS := $(patsubst %=true,%,$(filter %=true,$(call registry,std)))
STD_TARGETS := $(sort . $(foreach f,$(STD_FRAMEWORKS),$(call declared,$(f),$(REGISTRY_TARGETS))))
FRAMEWORK_FAMILIES := token metadata
# $(call framework_family,<framework>,<family>): those programs' folders.
framework_family = $(sort $(patsubst %/Cargo.toml,%,$(wildcard programs/$(1)/$(2)/*/Cargo.toml)))
FRAMEWORK_PROGRAMS := $(foreach f,$(FRAMEWORKS),$(foreach family,$(FRAMEWORK_FAMILIES),$(call framework_family,$(f),$(family))))
define newline


endef
# $(call build_framework,<framework>): its programs, a family at a time,
# then its floor.
build_framework = $(foreach family,$(FRAMEWORK_FAMILIES),$(if $(call framework_family,$(1),$(family)),@$(BUILD) $(1)/$(family) "" $(call framework_family,$(1),$(family))$(newline)))@$(BUILD) $(1) "" programs/$(1)/noop
# What make programs builds, counted once: the pinocchio programs (the
# token family's in its three shapes and on solana-program's entrypoint),
# every framework's, and each build's floor (benches/noop, or the
# framework's noop).
PROGRAMS_BUILT := $(TOKEN) $(TOKEN) $(TOKEN) $(TOKEN) $(MESSAGE) $(METADATA) $(FRAMEWORK_PROGRAMS)
FLOORS := token/exact token/at_least token/unchecked solana-program $(FRAMEWORKS)
# Programs no one here wrote, from their crates.io sources (make published).
PUBLISHED := $(sort $(patsubst %/Cargo.toml,%,$(wildcard benches/published/*/Cargo.toml)))

export RUST_LOG ?= error

# upstream (default): pinned nightly + sbpf-linker, installed by `make setup`.
# build-sbf: the Solana CLI's `cargo build-sbf`, where the user has it.
export SBF_TOOLCHAIN ?= upstream
ifeq ($(SBF_TOOLCHAIN),upstream)
TOOLCHAIN_READY := setup
else ifeq ($(SBF_TOOLCHAIN),build-sbf)
TOOLCHAIN_READY := check-build-sbf
else
$(error SBF_TOOLCHAIN is '$(SBF_TOOLCHAIN)'; use upstream (the default) or build-sbf)
endif
# Where the programs go, and cargo's whole build output.
DEPLOY ?= target/deploy
BUILD_LOG ?= $(TARGET_DIR)/build.log
# $(BUILD) <deploy subfolder> "<features>" <program dir>...: each program
# built on its own, one line each.
BUILD := DEPLOY=$(DEPLOY) BUILD_LOG=$(BUILD_LOG) benches/build-programs.sh
family_dirs = $(addprefix programs/$(1)/,$($(2)))
# $(call token_shapes,<program dirs>): each in the token family's three
# length shapes, one feature each (common/src/token/shape.rs).
define token_shapes
	@$(BUILD) token/exact "" $(1)
	@$(BUILD) token/at_least common/at_least $(1)
	@$(BUILD) token/unchecked common/unchecked $(1)
endef
# The first make's start; a sub-make inherits it.
ifndef START
export START := $(shell date +%s)
endif
HARNESS_LOG := $(TARGET_DIR)/harness-build.log
# Where make all's steps note their start and end (benches/timings.sh).
TIMINGS := $(TARGET_DIR)/timings.tsv
# cargo for the host crates (the harness, its tools and tests, and
# benches/litesvm): their own crates compiled through clippy-driver, so
# make lint reads their lints from the builds make all and make test made
# (cargo replays a fresh crate's warnings) instead of checking every
# dependency again. Passed on the command line, not in the environment, so
# no SBF build the harness runs goes through it (clippy turns MIR
# optimizations off). make wire and wire-baseline, which time client-side
# decoding, use plain cargo.
HOST_CARGO := cargo --config 'build.rustc-workspace-wrapper="clippy-driver"'
# The host crates make test compiles and runs. Any of them alone, built or
# tested, resolves their dependencies with the same features
# (benches/workspace-hack), so no command compiles the runtime again.
TESTED := -p benches -p wire -p fixtures -p profile-so -p idl
# With benches/split-debug, which has no dependencies to resolve alike.
TESTS := $(TESTED) -p split-debug
# make test's steps, timed the same way (benches/timings.sh), each named.
TEST_TIMINGS := $(TARGET_DIR)/test-timings.tsv
# The output of make test's lanes that run beside another step (below).
PUBLISHED_BROWSER_LOG := $(TARGET_DIR)/published-browser.log
PROFILE_LOG := $(TARGET_DIR)/profile.log
LITESVM_LOG := $(TARGET_DIR)/litesvm-families.log
PAGE_LOG := $(TARGET_DIR)/page.log
timed = benches/timings.sh run "$(1)" $(TEST_TIMINGS)
# $(call beside,<lane>,<log>,<steps>,<other step>,<other command>): a lane of
# make test's steps (each `$(call timed,<step>) <command>`, joined by &&) in
# the background, its output into <log> and printed when both are done,
# beside the other step, timed; fails if either does.
beside = { $(3); } > $(2) 2>&1 & first=$$!; \
  $(call timed,$(4)) $(5); other=$$?; \
  wait $$first; status=$$?; cat $(2); \
  [ $$status = 0 ] || echo "make test: $(1), run beside $(4), failed (its output is above and in $(2)); run it alone to see why" >&2; \
  [ $$status = 0 ] && [ $$other = 0 ]
# Seconds since make started, for progress messages (in a recipe).
elapsed = $$(( $$(date +%s) - $(START) )) s
SETUP_LOG := $(TARGET_DIR)/setup.log

.PHONY: clippy-frameworks clippy-rest help rust-toolchain setup check-build-sbf all programs build-solana-program published deployed $(addprefix build-,$(subst _,-,$(FRAMEWORKS))) floor bench bench-check bench-diff bench-diff-rev bench-baseline profile docs sweep sweep-baseline toolchains toolchains-report anchor-versions anchor-copies anchor-versions-baseline anchor-versions-report wire wire-baseline idl fixtures litesvm litesvm-baseline test browser lint new-program project-bench clean

##@ Start here

help: ## List the targets, by group
	@awk 'BEGIN { FS = ":.*## " } /^##@ / { printf "\n%s:\n", substr($$0, 5); next } /^[a-z0-9%-]+:.*## / { sub("%", "<name>", $$1); printf "  make %-25s %s\n", $$1, $$2 } \
	  /^#> frameworks/ { while ((getline l < "$(REGISTRY)") > 0) { if (l ~ /^name = /) { n = l; gsub(/^name = "|"$$/, "", n); gsub(/_/, "-", n) } \
	  if (l ~ /^title = /) { t = l; gsub(/^title = "|"$$/, "", t); printf "  make %-25s %s\n", "build-" n, "Build the " t " programs and their floor" } } }' $(MAKEFILE_LIST)

# sbpf-linker is installed unoptimized (--debug, no debug info) but for
# the crates a link spends its time in (LINKER_OPTIMIZED, at opt-level 3):
# its own passes over the program, bpf-linker's pass over the debug info,
# the LLVM bindings it calls through, and the ELF it reads. It compiles in
# less time than the optimized build, a link takes as little time as with
# the optimized build (half the time it took with its own passes alone
# optimized), and every program it links is byte-identical either way
# (see docs/toolchain.md). The stamp names how it was built, so a change
# here installs it again.
LINKER_OPTIMIZED := sbpf-ir sbpf-linker bpf-linker aya-rustc-llvm-proxy libloading object hashbrown
LINKER_CONFIG := $(foreach p,$(LINKER_OPTIMIZED),--config profile.dev.package.$(p).opt-level=3)
LINKER_STAMP := $(SBPF_LINKER_VERSION), opt-level 3: $(LINKER_OPTIMIZED)
# Its build folder is kept (.tools/linker-build/, about 330 MB): make
# setup builds the patched copy there, reusing every dependency
# (seconds instead of a minute and a half).
LINKER_BUILD := $(TOOLS)/linker-build
# Install the pinned nightly (with rust-src), sbpf-linker and std's sources
# for SBF into .tools/, and what a framework's programs build with, where
# programs/frameworks.toml names a setup script (anchor-lang, edited for
# this route; output: target/setup.log)
setup: rust-toolchain ## Install the toolchain into .tools/ (make all runs it)
	@command -v protoc >/dev/null || { \
	  echo "setup [$(elapsed)]: installing protoc (Debian's protobuf-compiler), which Mollusk's fixtures need to build..."; \
	  { apt-get update -qq && apt-get install -y -qq protobuf-compiler; } >>$(SETUP_LOG) 2>&1 || { echo "setup failed: could not install protobuf-compiler with apt-get (see $(SETUP_LOG)). Install protoc (or set PROTOC to one), then run make setup again." >&2; exit 1; }; }
	@$(LINKER) --version 2>/dev/null | grep -q "^sbpf-linker $(SBPF_LINKER_VERSION)$$" && [ "$$(cat $(TOOLS)/sbpf-linker.installed 2>/dev/null)" = "$(LINKER_STAMP)" ] || { \
	  echo "setup [$(elapsed)]: compiling sbpf-linker $(SBPF_LINKER_VERSION) into .tools/ (about a minute on 2 cores)..."; \
	  CARGO_PROFILE_DEV_DEBUG=false cargo install sbpf-linker@$(SBPF_LINKER_VERSION) --locked --force --debug $(LINKER_CONFIG) --root $(TOOLS) --target-dir $(LINKER_BUILD) >>$(SETUP_LOG) 2>&1 || { tail -n 20 $(SETUP_LOG) >&2; echo "setup failed: could not install sbpf-linker $(SBPF_LINKER_VERSION) from crates.io (whole output: $(SETUP_LOG)). Check the network, then run make setup again." >&2; exit 1; }; \
	  echo "$(LINKER_STAMP)" > $(TOOLS)/sbpf-linker.installed; \
	  echo "setup [$(elapsed)]: sbpf-linker $(SBPF_LINKER_VERSION) installed"; }
	@want="$(LINKER_STAMP), $$(cat benches/profile-linker/*.patch | sha256sum | cut -c1-16)"; \
	  [ -x $(TOOLS)/profile-linker/bin/sbpf-linker ] && [ "$$(cat $(TOOLS)/profile-linker/.installed 2>/dev/null)" = "$$want" ] || { \
	  echo "setup [$(elapsed)]: compiling sbpf-linker $(SBPF_LINKER_VERSION) with the patches in benches/profile-linker/ (the linker every program is linked with: it resolves the line tables' addresses, looks each LLVM function up once, reports frame sizes for make idl, lets LLVM write BTF where optimization dropped a return value, links without BTF where LLVM still cannot write it, exports what SBPF_LINKER_EXPORT names, and spares each link what no program depends on: freeing LLVM's context, SipHash in bpf-linker's pass over the debug info) into .tools/profile-linker/ (seconds, reusing the stock build's dependencies)..."; \
	  benches/profile-linker/install.sh $(SBPF_LINKER_VERSION) $(TOOLS)/profile-linker $(LINKER_BUILD) "$(LINKER_STAMP)" $(LINKER_CONFIG) >>$(SETUP_LOG) 2>&1 || { tail -n 20 $(SETUP_LOG) >&2; echo "setup failed: could not build the patched sbpf-linker (whole output: $(SETUP_LOG)). Check the network, then run make setup again." >&2; exit 1; }; }
	@# cargo does not track the linker's binary: a new one is only taken up by programs built after it (make clean rebuilds them all).
	@want="$$(cat benches/split-debug/Cargo.toml benches/split-debug/src/*.rs | sha256sum | cut -c1-16)"; \
	  [ -x $(TOOLS)/bin/split-debug ] && [ "$$(cat $(TOOLS)/split-debug.installed 2>/dev/null)" = "$$want" ] || { \
	  echo "setup [$(elapsed)]: compiling benches/split-debug into .tools/bin/ (a second)..."; \
	  cargo install --path benches/split-debug --root $(TOOLS) --target-dir $(TOOLS)/split-debug-build --force --quiet >>$(SETUP_LOG) 2>&1 || { tail -n 20 $(SETUP_LOG) >&2; echo "setup failed: could not compile benches/split-debug (whole output: $(SETUP_LOG))." >&2; exit 1; }; \
	  echo "$$want" > $(TOOLS)/split-debug.installed; }
	$(foreach f,$(FRAMEWORKS),$(if $(call declared,$(f),$(REGISTRY_SETUPS)),$(call framework_setup,$(f),programs/$(f)/$(call declared,$(f),$(REGISTRY_SETUPS)),programs/$(f)/$(call declared,$(f),$(REGISTRY_SETUP_INTO)))$(newline)))
	@benches/std/install-std.sh $(TOOLS)/std $(foreach t,$(STD_TARGETS),$(TARGET_DIR)/$(if $(filter .,$(t)),,$(t)/)bpfel-solana) >>$(SETUP_LOG) 2>&1 || { tail -n 5 $(SETUP_LOG) >&2; echo "setup failed: could not install std's sources for SBF into .tools/std (whole output: $(SETUP_LOG)). Run rustup component add rust-src, then make setup again." >&2; exit 1; }

# $(call framework_setup,<framework>,<script>,<folder>): the registry's
# setup script of a framework, installing into its folder.
framework_setup = @$(2) $(3) >>$(SETUP_LOG) 2>&1 || { tail -n 5 $(SETUP_LOG) >&2; echo "setup failed: $(2) could not install into $(3) (whole output: $(SETUP_LOG)). Check the network, then run make setup again." >&2; exit 1; }

rust-toolchain:
	@command -v rustup >/dev/null || { echo "setup failed: rustup not found. Install it from rustup.rs, then run make setup again." >&2; exit 1; }
	@mkdir -p $(TARGET_DIR)
	@rustup run $$(sed -n 's/^channel *= *"\(.*\)".*/\1/p' rust-toolchain.toml) rustc --version >/dev/null 2>&1 || { \
	  echo "setup [$(elapsed)]: installing the Rust toolchain named in rust-toolchain.toml (about 20 s)..."; \
	  rustup toolchain install >>$(SETUP_LOG) 2>&1 || { echo "setup failed: rustup could not install the pinned nightly (see $(SETUP_LOG)). Check the network, then run make setup again." >&2; exit 1; }; }

check-build-sbf:
	@cargo build-sbf --version >/dev/null 2>&1 || { echo "SBF_TOOLCHAIN=build-sbf: cargo build-sbf not found. Install the Solana CLI (see docs.anza.xyz/cli/install), or leave SBF_TOOLCHAIN unset for the self-installing toolchain." >&2; exit 1; }

# Build every program into target/deploy/<family>/ and, alongside, the
# harness; then a table of where the time went
all: $(TOOLCHAIN_READY) ## Build every program into target/deploy/, and the harness
	@echo "make all: compiling the harness alongside the programs (its output: $(HARNESS_LOG))"
	@benches/timings.sh begin setup $(TIMINGS) $(START) $$PPID
	@benches/timings.sh run "harness (alongside)" $(TIMINGS) $(HOST_CARGO) build -p benches --bin bench > $(HARNESS_LOG) 2>&1 & harness=$$!; \
	  TIMINGS=$(TIMINGS) $(MAKE) --no-print-directory programs || { kill $$harness 2>/dev/null; exit 1; }; \
	  wait $$harness || { grep -E '^error' -A8 $(HARNESS_LOG) | head -40 >&2; \
	    echo "make all: the harness (benches/) did not compile; cargo's output: $(HARNESS_LOG)" >&2; exit 1; }; \
	  echo "make all: harness compiled ($(elapsed) since make started)"
	@benches/timings.sh table $(TIMINGS) $(START)

bench: $(TOOLCHAIN_READY) ## Measure every program x operation into target/benches/
	$(HOST_CARGO) run -p benches --bin bench

# Build, then run the tests (contract, random input, report, wire, idl) with
# make profile (every row, by inlined frame), the stack sweep and the
# families' LiteSVM replay beside them; make idl's profiled tip-distribution
# run, the profile's checks (make profile SO= on the published spl-token and
# jito-tip-distribution among them, the latter with its IDL's make idl run,
# profiled; make profile SO= BASE= on two builds, and as in a team's CI),
# then the page in Chromium and the sweep against benches/sweep.md beside
# the replay of every make idl run; then a table of where the time went
test: all ## Build, then run every test (the profile, sweep and LiteSVM too)
	@benches/timings.sh begin all $(TEST_TIMINGS) $(START) $$PPID
	@# Each lane beside another step leaves a core idle on its own (the
	@# table's cores column):
	@# - make published and make browser (mostly apt-get), beside the
	@#   tests' compilation and then make anchor-copies (two anchor-lang
	@#   releases' builds of one program, for make profile SO= BASE=);
	@# - the families' LiteSVM replay (mostly LiteSVM's build, in a target
	@#   folder of its own), beside make profile (every row, from make
	@#   all's .so.debug files) and the stack sweep, all beside the tests
	@#   (which write under target/benches/ only their make idl runs and
	@#   report.html, which the page's test writes again, and read nothing
	@#   the profile, the sweep or the replay writes);
	@# - after the profile's tests (one reads the tip run's summary.md,
	@#   which the replay rewrites), the page in Chromium (which reads each
	@#   make idl run's results.json, which the replay rewrites whole: the
	@#   old file or the new one, never half of one) beside the replay of
	@#   every make idl run.
	@$(call beside,make published and make browser,$(PUBLISHED_BROWSER_LOG),$(call timed,published) $(MAKE) --no-print-directory published && $(call timed,browser) $(MAKE) --no-print-directory browser,cargo test: compile,$(HOST_CARGO) test $(TESTS) --no-run && $(call timed,anchor copies) $(MAKE) --no-print-directory anchor-copies)
	$(call timed,bench) $(HOST_CARGO) run -q -p benches --bin bench > /dev/null
	@$(call beside,the families' LiteSVM replay; make profile and the sweep,$(PROFILE_LOG),$(call beside,litesvm: the families,$(LITESVM_LOG),$(call timed,litesvm: the families) $(MAKE) --no-print-directory litesvm && $(call timed,litesvm: the recorder's tests) $(HOST_CARGO) test -q --workspace --manifest-path benches/litesvm/Cargo.toml --target-dir $(TARGET_DIR)/litesvm,profile,$(MAKE) --no-print-directory profile && $(call timed,sweep) $(MAKE) --no-print-directory sweep > /dev/null),cargo test: run,$(HOST_CARGO) test $(TESTS))
	$(call timed,idl: tip_distribution) $(MAKE) --no-print-directory idl IDL=benches/published/tip_distribution/idl.json PROFILE=1 > /dev/null
	$(call timed,profile tests) $(HOST_CARGO) test -q $(TESTED) --test integration -- --ignored profile::
	$(call timed,profile SO= tests) $(HOST_CARGO) test -q -p profile-so --test integration -- --ignored
	$(call timed,profile SO= BASE= as in CI) benches/profile_so/tests/ci.sh
	@$(call beside,the page and the sweep's test,$(PAGE_LOG),$(call timed,page in Chromium) $(HOST_CARGO) test -q $(TESTED) --test integration -- --ignored page:: && $(call timed,sweep test) $(HOST_CARGO) test -q $(TESTED) --test integration -- --ignored sweep::,litesvm: the idl runs,$(MAKE) --no-print-directory litesvm IDL_RUN=target/benches/idl)
	@benches/timings.sh table $(TEST_TIMINGS) $(START) "make test"

clean: ## Remove build output (keeps .tools/)
	cargo clean

##@ Your own program

# Your accounts and instructions, measured from your program's IDL: make idl
# IDL=path/to/program.json (PROFILE=1: every row profiled by inlined frame;
# options: docs/idl.md)
idl: $(TOOLCHAIN_READY) ## Your accounts and instructions, from your IDL: IDL=<file>
	@test -n "$(IDL)" || { echo "make idl: give the IDL to measure: make idl IDL=path/to/program.json (docs/idl.md)" >&2; exit 1; }
	@ZERO_COPY="$(ZERO_COPY)" PACKED="$(PACKED)" READ="$(READ)" UPDATE="$(UPDATE)" ARG="$(ARG)" STRING_LEN="$(STRING_LEN)" VEC_LEN="$(VEC_LEN)" DATA="$(DATA)" ANCHOR="$(ANCHOR)" PROFILE="$(PROFILE)" BASELINE="$(BASELINE)" ACCOUNTS="$(ACCOUNTS)" CAPACITY="$(CAPACITY)" $(HOST_CARGO) run -q -p idl --bin idl -- "$(IDL)"

# Where every CU goes (after make all): each row of make bench profiled,
# summing exactly to its CUs, by inlined frame, into target/benches/profile/
# (DOCS=1: rewrite the docs' profile figures; SO=<your .so>
# FIXTURES=<folder> [IDL=<its IDL>]: your program per instruction, or
# TRACES=<SBF_TRACE_DIR> [HEAP=<bytes>]: per traced invocation; BASE=<the build before>
# [MAX_INCREASE=<CUs or N%>]: the two builds compared, a CI gate;
# docs/profile.md)
profile: $(TOOLCHAIN_READY) ## Where every CU goes, by inlined frame (SO=: your .so; BASE=)
ifdef SO
	SO="$(SO)" BASE="$(BASE)" FIXTURES="$(FIXTURES)" TRACES="$(TRACES)" HEAP="$(HEAP)" IDL="$(IDL)" DISCRIMINATOR="$(DISCRIMINATOR)" MAX_INCREASE="$(MAX_INCREASE)" ALLOW_BEHAVIOUR_CHANGE="$(ALLOW_BEHAVIOUR_CHANGE)" $(HOST_CARGO) run -q -p profile-so --bin profile-so
else
	$(HOST_CARGO) run -q -p benches --bin bench -- profile $(if $(DOCS),docs)
endif

# One Mollusk fixture (JSON) per benchmark case into
# target/benches/fixtures/; IDL_RUN=target/benches/idl/<program>: a make idl
# run's, into its fixtures/
fixtures: $(TOOLCHAIN_READY) ## One Mollusk fixture per case (IDL_RUN=: a make idl run)
	IDL_RUN="$(IDL_RUN)" $(HOST_CARGO) run -p fixtures --bin fixtures

# Replay every case make bench measured in LiteSVM (CUs, data, mainnet's
# faults vs benches/mainnet.json); IDL_RUN=target/benches/idl/<program>: a
# make idl run's
litesvm: $(TOOLCHAIN_READY) ## Replay every measured case in LiteSVM (IDL_RUN=: an idl run)
	IDL_RUN="$(IDL_RUN)" $(HOST_CARGO) run --manifest-path benches/litesvm/Cargo.toml --target-dir $(TARGET_DIR)/litesvm

##@ More measurements

# Where the stack runs out: build and run programs/stack/* at 1-32 accounts,
# both ways, into target/benches/sweep.*
sweep: $(TOOLCHAIN_READY) ## Where the stack runs out: programs/stack/* at 1-32 accounts
	$(HOST_CARGO) run -q -p benches --bin sweep

# Encoded sizes, RPC encodings, client decode time into
# target/benches/wire.*
wire: $(TOOLCHAIN_READY) ## Encoded sizes, RPC encodings, client decode time
	cargo run -p wire --bin wire

# Published programs built from their crates.io sources (benches/published/:
# spl-token, spl-token-2022 for make deployed, and jito-tip-distribution on
# Anchor 0.31), for make profile SO='s proof, into target/deploy/published/,
# and benches/token_cpi (a CPI into spl-token) into target/deploy/cpi/
published: $(TOOLCHAIN_READY) ## Published programs built from their crates.io sources
	@$(BUILD) published "" $(PUBLISHED)
	@$(BUILD) cpi "" benches/token_cpi

# Token-2022 7.0.0 as mainnet runs it (its ELF from
# mollusk-svm-programs-token-2022) against the same source built here, on
# the same calls, both profiled: target/benches/deployed/summary.md (DOCS=1:
# rewrite the README's ratio and docs/toolchain.md's tables)
deployed: published ## Token-2022 as mainnet runs it, against its source built here
	DOCS="$(DOCS)" $(HOST_CARGO) run -q -p profile-so --bin deployed

# The Anchor 1.x programs on every anchor-lang release from 0.29 into
# target/benches/anchor_versions.md (after make all;
# ANCHOR_VERSIONS="0.32.2": only those)
anchor-versions: $(TOOLCHAIN_READY) ## The Anchor 1.x programs on every anchor-lang release from 0.29
	$(HOST_CARGO) run -q -p benches --bin anchor_versions

# The toolchain matrix into benches/toolchains.json: every program with LLVM
# 23 as sBPF v0 and v3, and LLVM 21 and 22 with why they build none
# (TOOLCHAINS="llvm23": only those)
toolchains: setup ## The toolchain matrix: LLVM 23 as sBPF v0 and v3, LLVM 21 and 22
	$(HOST_CARGO) run -q -p benches --bin toolchains

# make bench-diff's worktree and build folder: beside the checkout, not in
# it (cargo would read this checkout's .cargo/config.toml too from a folder
# under it, and give the linker its flags twice).
BENCH_DIFF ?= $(abspath $(CURDIR)/..)/$(notdir $(CURDIR))-bench-diff
# Every row whose CUs differ at REV=<git revision> (built in a worktree
# beside the checkout, <checkout>-bench-diff/), by category and inlined
# frame, into target/benches/bench-diff/
bench-diff: bench-diff-rev $(TOOLCHAIN_READY) ## Every row whose CUs differ at REV=<revision>, frame by frame
	@benches/bench-diff.sh "$(REV)" $(BENCH_DIFF)
	$(HOST_CARGO) run -q -p benches --bin bench -- diff $(BENCH_DIFF)/tree "$(REV)"

bench-diff-rev:
	@[ -n "$(REV)" ] || { echo "make bench-diff: give REV=<git revision> (for example REV=HEAD~1): its programs are built in a worktree and every row compared with this tree's" >&2; exit 1; }

##@ Keeping the benchmark

bench-check: $(TOOLCHAIN_READY) ## Measure, then fail on any CU not in benches/baseline.json
	$(HOST_CARGO) run -p benches --bin bench -- check

bench-baseline: $(TOOLCHAIN_READY) ## Measure, then rewrite benches/baseline.json
	$(HOST_CARGO) run -p benches --bin bench -- baseline

# Measure, then rewrite every figure and block the README and docs/ quote
# from the run
docs: $(TOOLCHAIN_READY) ## Measure, then rewrite every figure the README and docs/ quote
	$(HOST_CARGO) run -q -p benches --bin bench -- docs

# make sweep, then rewrite benches/sweep.md, the table
# docs/stack-and-heap.md quotes
sweep-baseline: $(TOOLCHAIN_READY) ## make sweep, then rewrite benches/sweep.md
	$(HOST_CARGO) run -q -p benches --bin sweep -- baseline

# make wire, then rewrite the wire charts and benches/wire/wire.md, the
# report docs/wire.md quotes
wire-baseline: $(TOOLCHAIN_READY) ## make wire, then rewrite benches/wire/wire.md and its charts
	cargo run -p wire --bin wire -- baseline

# make litesvm, then rewrite benches/mainnet.json (the rows marked † as
# faulting on mainnet)
litesvm-baseline: $(TOOLCHAIN_READY) ## make litesvm, then rewrite benches/mainnet.json
	$(HOST_CARGO) run --manifest-path benches/litesvm/Cargo.toml --target-dir $(TARGET_DIR)/litesvm -- baseline

# make anchor-versions, then rewrite benches/anchor_versions.json and each
# release's lockfile
anchor-versions-baseline: $(TOOLCHAIN_READY) ## make anchor-versions, then rewrite benches/anchor_versions.json
	$(HOST_CARGO) run -q -p benches --bin anchor_versions -- baseline

# The release matrix's report from benches/anchor_versions.json into
# target/benches/anchor_versions.md
anchor-versions-report: ## The release matrix report from benches/anchor_versions.json
	$(HOST_CARGO) run -q -p benches --bin anchor_versions -- report

# The toolchain matrix's report from benches/toolchains.json into
# target/benches/toolchains.md
toolchains-report: ## The toolchain matrix report from benches/toolchains.json
	$(HOST_CARGO) run -q -p benches --bin toolchains -- report

# Anchor 1.x's token/account built on anchor-lang 0.32.2 and 1.0.3
# (ANCHOR_VERSIONS= others) as make anchor-versions builds it, its .so.debug
# beside it, into target/anchor-versions/<release>/deploy/: make profile SO=
# BASE='s known answer
anchor-copies: $(TOOLCHAIN_READY) ## Anchor 1.x token/account on two releases (BASE= known answer)
	$(HOST_CARGO) run -q -p benches --bin anchor_versions -- copies

# cargo fmt --check and clippy -D warnings: the framework workspaces under
# programs/ as make all builds them (clippy checks each of their crates
# beside its build; after make all it compiles nothing), the harness and
# benches/litesvm as make test builds them, and the workspace's programs on
# the host
lint: setup ## cargo fmt --check and clippy -D warnings, every workspace
	cargo fmt --all --check
	cargo fmt --manifest-path benches/litesvm/Cargo.toml --all --check
	cargo fmt --manifest-path benches/profile_so/example/counter/Cargo.toml --check
	cargo fmt --manifest-path benches/published/tip_distribution/Cargo.toml --check
	cargo fmt --manifest-path benches/published/spl_token_2022/Cargo.toml --check
	$(foreach framework,$(FRAMEWORKS),cargo fmt --manifest-path programs/$(framework)/Cargo.toml --all --check$(newline))
	@# Two lanes, one per core.
	@$(MAKE) --no-print-directory -j2 --output-sync=target clippy-frameworks clippy-rest

# The framework workspaces' programs built as make all builds them, every
# warning denied: benches/lint/clippy-beside checked each of their crates
# with clippy beside its build, and cargo replays what it said while the
# crate is fresh (benches/build-programs.sh; on the upstream route: cargo
# build-sbf's builds carry no clippy). One after another, as make all
# builds them: without make's jobserver, which cargo would be told of but
# not given.
clippy-frameworks:
	@env -u MAKEFLAGS -u MFLAGS CARGO_BUILD_WARNINGS=deny $(MAKE) --no-print-directory $(addprefix build-,$(subst _,-,$(FRAMEWORKS)))

# The harness and its tests, benches/litesvm and the example team's tests
# (benches/profile_so/example/counter), as make test builds them
# (HOST_CARGO: fresh after make test, their warnings replayed and denied);
# the workspace's other crates (the programs, on the host) checked.
HARNESS_CRATES := benches wire fixtures profile-so idl split-debug workspace-hack
clippy-rest:
	+$(HOST_CARGO) --config 'build.warnings="deny"' test --no-run $(TESTS)
	+$(HOST_CARGO) --config 'build.warnings="deny"' test --no-run --workspace --manifest-path benches/litesvm/Cargo.toml --target-dir $(TARGET_DIR)/litesvm
	+$(HOST_CARGO) --config 'build.warnings="deny"' test --no-run --manifest-path benches/profile_so/example/counter/Cargo.toml --target-dir $(TARGET_DIR)/litesvm
	+cargo clippy --workspace $(addprefix --exclude ,$(HARNESS_CRATES)) --all-targets -- -D warnings

# Install Debian's chromium where it is missing (the page's test opens
# report.html in it; needs root)
browser: ## Install Debian chromium for the page test (needs root)
	@mkdir -p $(TARGET_DIR)
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "browser [$(elapsed)]: installing Debian's chromium for the page's test (a minute or two)..."; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >>$(SETUP_LOG) 2>&1 || { echo "make browser: apt-get could not install chromium (see $(SETUP_LOG)). Check the network, or install chromium yourself, then run make test again." >&2; exit 1; }; \
	  else echo "make browser: no chromium and no root to install it; the page's browser test will say so and be skipped (with CI=true it fails)"; fi; }

# Create a program from its family's template: make new-program FAMILY=token
# NAME=<crate>
new-program: setup ## A program from its family template: FAMILY=token NAME=<crate>
	$(HOST_CARGO) run -p benches --bin new-program -- "$(FAMILY)" "$(NAME)"

# The project's own benchmark: cold make all, make bench and make test from
# a fresh clone of HEAD with an empty cargo home, timed (about an hour on 2
# cores; RUNS=2 for a median) into target/project-bench/summary.md
project-bench: ## Time cold make all, make bench and make test from a fresh clone
	benches/project-bench.sh

##@ Building part of it

# Build every program into target/deploy/<family>/ (cargo's output:
# target/build.log)
programs: $(TOOLCHAIN_READY) ## Build every program (make all without the harness)
	@mkdir -p $(dir $(BUILD_LOG)) && : > $(BUILD_LOG)
	@echo "make programs: building $(words $(PROGRAMS_BUILT)) programs and the $(words $(FLOORS)) floors; cargo's output goes to $(BUILD_LOG)"
	$(call token_shapes,$(call family_dirs,token,TOKEN) benches/noop)
	@$(BUILD) message "" $(call family_dirs,message,MESSAGE)
	@$(BUILD) metadata "" $(call family_dirs,metadata,METADATA)
	@# Two lanes at a time: solana-program's programs, then the frameworks
	@# built in the workspace's target folder (with std, one after the other:
	@# cargo's lock would have them take turns), and beside them every
	@# other framework, each in its own target folder, on the core those
	@# leave idle (make all's table: the steps' cores).
	@$(MAKE) --no-print-directory $(addprefix build-,$(subst _,-,$(OWN_LANE))) & own=$$!; \
	  $(MAKE) --no-print-directory build-solana-program $(addprefix build-,$(subst _,-,$(WORKSPACE_LANE))); status=$$?; \
	  wait $$own && [ $$status = 0 ]
	@echo "make programs: $(words $(PROGRAMS_BUILT) $(FLOORS)) programs built into $(DEPLOY)/ ($(elapsed) since make started)"

floor: $(TOOLCHAIN_READY) ## Build the no-op floor program (benches/noop) in every shape
	$(call token_shapes,benches/noop)

# Build one token program in every shape and on solana-program: make
# build-token-<name>
build-token-%: $(TOOLCHAIN_READY) ## Build one token program in every shape
	@test -f programs/token/$*/Cargo.toml || { echo "no program '$*' under programs/token/. Token programs: $(TOKEN)" >&2; exit 1; }
	$(call token_shapes,programs/token/$*)
	@$(BUILD) solana-program/token common/solana-program programs/token/$*

build-message-%: $(TOOLCHAIN_READY) ## Build one message program
	@test -f programs/message/$*/Cargo.toml || { echo "no program '$*' under programs/message/. Message programs: $(MESSAGE)" >&2; exit 1; }
	@$(BUILD) message "" programs/message/$*

build-metadata-%: $(TOOLCHAIN_READY) ## Build one metadata program
	@test -f programs/metadata/$*/Cargo.toml || { echo "no program '$*' under programs/metadata/. Metadata programs: $(METADATA)" >&2; exit 1; }
	@$(BUILD) metadata "" programs/metadata/$*

# Build the token programs on solana-program's entrypoint (with std) and its
# floor into target/deploy/solana-program/
build-solana-program: $(TOOLCHAIN_READY) ## Build the token programs on solana-program and its floor
	@$(BUILD) solana-program/token common/solana-program $(call family_dirs,token,TOKEN)
	@$(BUILD) solana-program common/solana-program benches/noop

# make build-<framework>: each framework of the registry, its programs,
# then its floor (make help lists them here, from the registry).
#> frameworks
define framework_build
build-$(subst _,-,$(1)): $$(TOOLCHAIN_READY)
	$$(call build_framework,$(1))
endef
$(foreach f,$(FRAMEWORKS),$(eval $(call framework_build,$(f))))
