# The user's interface: `make help` lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash

SBPF_LINKER_VERSION := 0.2.6
TOOLS := $(CURDIR)/.tools
LINKER := $(TOOLS)/bin/sbpf-linker
SBF_TARGET := bpfel-unknown-none
DEPLOY := target/deploy
# Cargo's output folder; target/deploy stays in the workspace either way.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
# Every folder under programs/<family>/ with a Cargo.toml is a program.
programs_of = $(sort $(notdir $(patsubst %/Cargo.toml,%,$(wildcard programs/$(1)/*/Cargo.toml))))
TOKEN := $(call programs_of,token)
MESSAGE := $(call programs_of,message)
METADATA := $(call programs_of,metadata)

export RUST_LOG ?= error

# upstream (default): pinned nightly + sbpf-linker, installed by `make setup`.
# build-sbf: the Solana CLI's `cargo build-sbf`, where the user has it.
SBF_TOOLCHAIN ?= upstream
# $(call build,<package>,<dir>,<path>,<features>) builds <package> with <features>
# into target/deploy/<path>.so and records the toolchain in target/deploy/<path>.toolchain.
ifeq ($(SBF_TOOLCHAIN),upstream)
TOOLCHAIN_READY := setup
build = cargo build -Z build-std=core,alloc --release --target $(SBF_TARGET) -p $(1) $(4) \
	&& mkdir -p $(dir $(DEPLOY)/$(3)) && cp $(TARGET_DIR)/$(SBF_TARGET)/release/lib$(subst -,_,$(1)).so $(DEPLOY)/$(3).so \
	&& echo upstream > $(DEPLOY)/$(3).toolchain
else ifeq ($(SBF_TOOLCHAIN),build-sbf)
TOOLCHAIN_READY := check-build-sbf
build = cargo build-sbf --manifest-path $(2)/Cargo.toml --sbf-out-dir $(TARGET_DIR)/build-sbf $(4) \
	&& mkdir -p $(dir $(DEPLOY)/$(3)) && cp $(TARGET_DIR)/build-sbf/$(subst -,_,$(1)).so $(DEPLOY)/$(3).so \
	&& cargo build-sbf --version | paste -sd, - | sed 's/,/, /g' > $(DEPLOY)/$(3).toolchain
else
$(error SBF_TOOLCHAIN is '$(SBF_TOOLCHAIN)'; use upstream (the default) or build-sbf)
endif

.PHONY: help setup check-build-sbf all floor bench bench-check bench-baseline sweep wire wire-baseline fixtures litesvm test lint new-program clean

help: ## List the targets
	@grep -hE '^[a-z%-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z%-]+):.*## /  make \1\t/' | expand -t 24

setup: ## Install the pinned nightly (with rust-src) and sbpf-linker into .tools/
	@command -v rustup >/dev/null || { echo "setup failed: rustup not found. Install it from rustup.rs, then run make setup again." >&2; exit 1; }
	@rustup run $$(sed -n 's/^channel *= *"\(.*\)".*/\1/p' rust-toolchain.toml) rustc --version >/dev/null 2>&1 || { \
	  echo "setup: installing the Rust toolchain named in rust-toolchain.toml (about 20 s)..."; \
	  rustup toolchain install || { echo "setup failed: rustup could not install the pinned nightly. Check the network, then run make setup again." >&2; exit 1; }; }
	@command -v protoc >/dev/null || { \
	  echo "setup: installing protoc (Debian's protobuf-compiler), which Mollusk's fixtures need to build..."; \
	  { apt-get update -qq && apt-get install -y -qq protobuf-compiler >/dev/null; } || { echo "setup failed: could not install protobuf-compiler with apt-get. Install protoc (or set PROTOC to one), then run make setup again." >&2; exit 1; }; }
	@$(LINKER) --version 2>/dev/null | grep -q "^sbpf-linker $(SBPF_LINKER_VERSION)$$" || { \
	  echo "setup: compiling sbpf-linker $(SBPF_LINKER_VERSION) into .tools/ (about 2 minutes on 2 cores)..."; \
	  cargo install sbpf-linker@$(SBPF_LINKER_VERSION) --locked --root $(TOOLS) || { echo "setup failed: could not install sbpf-linker $(SBPF_LINKER_VERSION) from crates.io. Check the network, then run make setup again." >&2; exit 1; }; }

check-build-sbf:
	@cargo build-sbf --version >/dev/null 2>&1 || { echo "SBF_TOOLCHAIN=build-sbf: cargo build-sbf not found. Install the Solana CLI (see docs.anza.xyz/cli/install), or leave SBF_TOOLCHAIN unset for the self-installing toolchain." >&2; exit 1; }

all: $(addprefix build-token-,$(TOKEN)) $(addprefix build-message-,$(MESSAGE)) $(addprefix build-metadata-,$(METADATA)) floor ## Build every program into target/deploy/<family>/

# A token program in its three length shapes (common/src/token/shape.rs).
# $(call token_shapes,<package>,<dir>,<name>)
define token_shapes
	$(call build,$(1),$(2),token/exact/$(3),)
	$(call build,$(1),$(2),token/at_least/$(3),--features common/at_least)
	$(call build,$(1),$(2),token/unchecked/$(3),--features common/unchecked)
endef

build-token-%: $(TOOLCHAIN_READY) ## Build one token program in every shape: make build-token-<name>
	@test -f programs/token/$*/Cargo.toml || { echo "no program '$*' under programs/token/. Token programs: $(TOKEN)" >&2; exit 1; }
	$(call token_shapes,$*-program,programs/token/$*,$*)

build-message-%: $(TOOLCHAIN_READY) ## Build one message program: make build-message-<name>
	@test -f programs/message/$*/Cargo.toml || { echo "no program '$*' under programs/message/. Message programs: $(MESSAGE)" >&2; exit 1; }
	$(call build,$*-message-program,programs/message/$*,message/$*,)

build-metadata-%: $(TOOLCHAIN_READY) ## Build one metadata program: make build-metadata-<name>
	@test -f programs/metadata/$*/Cargo.toml || { echo "no program '$*' under programs/metadata/. Metadata programs: $(METADATA)" >&2; exit 1; }
	$(call build,$*-metadata-program,programs/metadata/$*,metadata/$*,)

floor: $(TOOLCHAIN_READY) ## Build the no-op floor program (benches/noop) in every shape
	$(call token_shapes,noop-program,benches/noop,noop)

bench: $(TOOLCHAIN_READY) ## Measure every program x operation into target/benches/
	cargo run -p benches --bin bench

bench-check: $(TOOLCHAIN_READY) ## Measure, then fail on any CU that differs from benches/baseline.json
	cargo run -p benches --bin bench -- check

bench-baseline: $(TOOLCHAIN_READY) ## Measure, then rewrite benches/baseline.json
	cargo run -p benches --bin bench -- baseline

sweep: $(TOOLCHAIN_READY) ## Where the stack runs out: build and run programs/stack/* at 1-32 accounts, both ways, into target/benches/sweep.*
	cargo run -q -p benches --bin sweep

wire: $(TOOLCHAIN_READY) ## Encoded sizes, RPC encodings, client decode time into target/benches/wire.*
	cargo run -p wire --bin wire

wire-baseline: $(TOOLCHAIN_READY) ## make wire, then rewrite the README's wire charts in benches/wire/
	cargo run -p wire --bin wire -- baseline

fixtures: $(TOOLCHAIN_READY) ## One Mollusk fixture (JSON) per benchmark case into target/benches/fixtures/
	cargo run -p fixtures --bin fixtures

litesvm: $(TOOLCHAIN_READY) ## Replay every case make bench measured in LiteSVM; compare CUs and data
	cargo run --manifest-path benches/litesvm/Cargo.toml --target-dir $(TARGET_DIR)/litesvm

test: all ## Build, then run the tests (contract, random input, report, wire), then the LiteSVM replay
	cargo test -p benches -p wire -p fixtures
	cargo run -q -p benches --bin bench > /dev/null
	$(MAKE) --no-print-directory litesvm

lint: setup ## cargo fmt --check and clippy -D warnings (the workspace and benches/litesvm)
	cargo fmt --all --check
	cargo fmt --manifest-path benches/litesvm/Cargo.toml --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --manifest-path benches/litesvm/Cargo.toml --target-dir $(TARGET_DIR)/litesvm -- -D warnings

new-program: setup ## Create a program from its family's template: make new-program FAMILY=token NAME=<crate>
	cargo run -p benches --bin new-program -- "$(FAMILY)" "$(NAME)"

clean: ## Remove build output (keeps .tools/)
	cargo clean
