# The user's interface: `make help` lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash

SBPF_LINKER_VERSION := 0.2.6
TOOLS := $(CURDIR)/.tools
LINKER := $(TOOLS)/bin/sbpf-linker
SBF_TARGET := bpfel-unknown-none
DEPLOY := target/deploy
# Every folder under programs/ with a Cargo.toml is a program.
PROGRAMS := $(sort $(notdir $(patsubst %/Cargo.toml,%,$(wildcard programs/*/Cargo.toml))))

export RUST_LOG ?= error

.PHONY: help setup all bench test lint clean

help: ## List the targets
	@grep -hE '^[a-z%-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z%-]+):.*## /  make \1\t/' | expand -t 24

setup: ## Install the pinned nightly (with rust-src) and sbpf-linker into .tools/
	@command -v rustup >/dev/null || { echo "setup failed: rustup not found. Install it from rustup.rs, then run make setup again." >&2; exit 1; }
	@rustup run $$(sed -n 's/^channel *= *"\(.*\)".*/\1/p' rust-toolchain.toml) rustc --version >/dev/null 2>&1 || { \
	  echo "setup: installing the Rust toolchain named in rust-toolchain.toml (about 20 s)..."; \
	  rustup toolchain install || { echo "setup failed: rustup could not install the pinned nightly. Check the network, then run make setup again." >&2; exit 1; }; }
	@$(LINKER) --version 2>/dev/null | grep -q "^sbpf-linker $(SBPF_LINKER_VERSION)$$" || { \
	  echo "setup: compiling sbpf-linker $(SBPF_LINKER_VERSION) into .tools/ (about 2 minutes on 2 cores)..."; \
	  cargo install sbpf-linker@$(SBPF_LINKER_VERSION) --locked --root $(TOOLS) || { echo "setup failed: could not install sbpf-linker $(SBPF_LINKER_VERSION) from crates.io. Check the network, then run make setup again." >&2; exit 1; }; }

all: $(addprefix build-sbf-,$(PROGRAMS)) ## Build every program into target/deploy/<name>.so

build-sbf-%: setup ## Build one program: make build-sbf-<name>
	@test -f programs/$*/Cargo.toml || { echo "no program '$*' under programs/. Programs: $(PROGRAMS)" >&2; exit 1; }
	cargo build -Z build-std=core,alloc --release --target $(SBF_TARGET) -p $*-program
	@mkdir -p $(DEPLOY) && cp target/$(SBF_TARGET)/release/lib$(subst -,_,$*)_program.so $(DEPLOY)/$*.so

bench: setup ## Run every program x operation; write target/benches/
	cargo run -p benches --bin bench

test: all ## Build, then run the contract tests through Mollusk
	cargo test -p benches

lint: setup ## cargo fmt --check and clippy -D warnings
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

clean: ## Remove build output (keeps .tools/)
	cargo clean
