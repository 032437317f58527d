#!/usr/bin/env bash
# Builds programs for the Makefile, quietly: cargo's whole output appended
# to $BUILD_LOG, and one line per program (where it went, its size).
# Each is built once, with line tables, and split (benches/split-debug):
# <name>.so without its debug sections, the program measured, and
# <name>.so.debug beside it, the file as linked, for `make profile`.
# On a failure it prints the compiler's errors and the log's path and exits
# with cargo's status. Warnings other than two harmless ones are shown.
#
#   benches/build-programs.sh <deploy subfolder> "<cargo features>" <program dir>...
#
# Environment: DEPLOY (default target/deploy), BUILD_LOG (default
# target/build.log), CARGO_TARGET_DIR, SBF_TOOLCHAIN (upstream | build-sbf),
# START (the make run's start, for the elapsed seconds on each line),
# FRAMEWORK_WORKSPACE (another copy of the framework's workspace to build
# the same packages in: `make anchor-versions`' per-release copies),
# LINE_TABLES (0: without .cargo/line-tables.toml, as the toolchain
# matrix builds, with linkers and flags of its own),
# TIMINGS (a file to append `<subfolder>\t<start>\t<end>\t<CPU>` to, for
# `make all`'s table of where its time went: benches/timings.sh).
# CARGO_BUILD_WARNINGS (cargo's own: deny, as make lint builds, fails on
# any warning, those cargo replays from a fresh crate's build among them).
set -uo pipefail
began=$(date +%s)

subfolder=$1 features=$2
shift 2
deploy=${DEPLOY:-target/deploy}/$subfolder
log=${BUILD_LOG:-target/build.log}
mkdir -p "$deploy" "$(dirname "$log")"

# The two messages that are not the user's concern: sbpf-linker probing for
# an LLVM library it does not need (rustc's own LLVM serves), and cargo
# install's advice to put .tools/bin on PATH. Each ends a warning block.
harmless='unable to open LLVM shared lib|dlopen failed|be sure to add .* to your PATH|generated [0-9]+ warnings?( \(.*\))?$|linker_messages|^ *\|$|contain code that will be rejected by a future version of Rust|future-incompat-report|cargo report future-incompatibilities'
# Cargo's progress lines.
progress='^ *(Compiling|Finished|Downloading|Downloaded|Updating|Locking|Adding|Blocking|Fresh|Checking|Building|Running) '

package_of() { sed -n 's/^name *= *"\(.*\)"/\1/p' "$1/Cargo.toml" | head -1; }
# Another framework's programs are a workspace of their own (a folder
# under programs/ with its Cargo.toml, as the Makefile's FRAMEWORKS finds
# them): built from its folder, so that its .cargo/config.toml (if any)
# adds its flags, into a target folder of its own (but for std's sake;
# below).
# A published program on a framework of its own (benches/published/
# tip_distribution: anchor-lang 0.31) is a workspace of one, built from
# its folder the same way.
framework_of() {
	if [[ $1 =~ ^programs/([^/]+)/ && -f programs/${BASH_REMATCH[1]}/Cargo.toml ]]; then
		echo "${BASH_REMATCH[1]}"
	elif grep -q '^\[workspace\]' "$1/Cargo.toml"; then
		echo "$1"
	fi
}
# The folder a framework's programs are built from.
workspace_of() { if [[ $1 == */* ]]; then echo "$1"; else echo "programs/$1"; fi; }
# A framework's value of <key> in programs/frameworks.toml (one
# `key = value` a line; empty for a folder it does not declare).
registry() { awk -F' = ' -v f="$1" -v k="$2" '$1 == "name" { gsub(/"/, "", $2); n = $2 } n == f && $1 == k { gsub(/"/, "", $2); print $2; exit }' programs/frameworks.toml; }
# What needs `std` (solana-program's programs, the published ones, and the
# frameworks the registry builds with std) is built for
# the std target (benches/std/bpfel-solana.json) with std from the patched
# sources make setup installs; everything else for bpfel-unknown-none with
# core and alloc.
std_target=$PWD/benches/std/bpfel-solana.json
# Paths in the programs relative, not this machine's (.cargo/trim-paths.toml).
trim_paths=(--config "$PWD/.cargo/trim-paths.toml")
# Line tables and the linker that resolves their addresses (.cargo/line-tables.toml).
line_tables=(--config "$PWD/.cargo/line-tables.toml")
[[ ${LINE_TABLES:-1} == 0 ]] && line_tables=()
# LLVM's crash writing a program's BTF (the link, with --btf, killed by
# SIGILL in BTFDebug::visitTypeEntry on some Anchor programs): the program
# alone compiled again and linked without BTF (`cargo rustc ... --
# -C link-arg=--without-btf`, benches/profile-linker/without-btf.patch),
# its dependencies as built; it keeps no debug sections (the bytes a build
# without line tables links) and is named by function in its profiles (no
# .so.debug).
btf_crash='BTFDebug|^error: linking with .* failed: signal: '
# The frameworks' own programs (programs/<framework>/) are checked by
# clippy beside their build, crate by crate (benches/lint/clippy-beside,
# cargo's workspace wrapper, named and found on PATH: cargo hashes it into
# the crates' metadata as it is written), so that make lint replays their
# lints (CARGO_BUILD_WARNINGS=deny) rather than checking every framework's
# dependencies again. Only there, and with the pinned toolchain's clippy:
# not for a published program's workspace, another copy of a framework's
# (FRAMEWORK_WORKSPACE), or another toolchain (RUSTUP_TOOLCHAIN, as the
# toolchain matrix sets it).
PATH=$PWD/benches/lint:$PATH
clippy_beside=(--config 'build.rustc-workspace-wrapper="clippy-beside"')
pinned=$(sed -n 's/^channel = "\(.*\)"/\1/p' rust-toolchain.toml)
checked_beside() {
	[[ $framework != */* && -z ${FRAMEWORK_WORKSPACE:-} && ${RUSTUP_TOOLCHAIN:-$pinned} == "$pinned"* ]]
}
split_debug=$PWD/.tools/bin/split-debug
# Where make setup put the sources std is built from (benches/std/install-std.sh).
std_sources=$(cat .tools/std/source-root 2>/dev/null)
needs_std() { [[ $subfolder =~ ^(solana-program|published)(/|$) || $(registry "${subfolder%%/*}" std) == true ]]; }
# A published program (benches/published/) is a dependency whose own
# crate-type includes cdylib, so cargo links it alone too, without the
# memcpy family solana-compiler-builtins gives the final program: that
# throwaway link takes them from std's compiler-builtins (`mem`, weak
# symbols the final program's own override).
std_features() { if [[ $subfolder =~ ^published(/|$) ]]; then echo compiler-builtins-mem; fi; }
name_of() { if [[ $1 == benches/noop ]]; then echo noop; else basename "$1"; fi; }

# Runs one build command, its output to the log; shows what matters. With
# BTF_CRASH_RETRIED set, a failure that is LLVM's crash writing BTF
# returns 3, silently, for the caller to link again without BTF.
run() {
	local step status
	step=$(mktemp)
	"$@" >"$step" 2>&1
	status=$?
	# Appended whole, the command above its output: make programs builds
	# two lanes at once into the same log.
	flock "$log" sh -c 'echo "$1"; cat "$2"' log "=== $subfolder: $*" "$step" >>"$log"
	if ((status != 0)) && [[ -n ${BTF_CRASH_RETRIED:-} ]] && grep -Eq "$btf_crash" "$step"; then
		rm -f "$step"
		return 3
	fi
	if ((status != 0)); then
		echo "build failed: $subfolder ($*), exit $status${CARGO_BUILD_WARNINGS:+ (every warning denied, as make lint builds: clippy warnings among them)}:" >&2
		grep -Ev "$progress" "$step" | grep -Ev "$harmless" | grep -v '^ *= note: `#\[warn' >&2
		echo "cargo's whole output: $log" >&2
	else
		# Real warnings still show (with their context).
		grep -Ev "$progress" "$step" | grep -Ev "$harmless" | grep -v '^\s*$' | grep -v '^ *= note: `#\[warn' >&2
	fi
	rm -f "$step"
	return $status
}

# Runs the build command "$@" (`... cargo build ...`) with $flags (the
# line tables) after its `build` where set; where LLVM crashes writing
# their BTF, the program is linked again without it (`cargo rustc`, the
# same flags; it then has no .so.debug, and is profiled by function).
build_with_line_tables() {
	((${#flags[@]} > 0)) || { run "$@"; return; }
	local with=() again=() arg placed=
	for arg in "$@"; do
		if [[ -z $placed && $arg == build ]]; then
			with+=(build "${flags[@]}") again+=(rustc "${flags[@]}") placed=1
		else
			with+=("$arg") again+=("$arg")
		fi
	done
	BTF_CRASH_RETRIED=1 run "${with[@]}"
	local status=$?
	((status == 3)) || return $status
	echo "  $subfolder/$name: LLVM crashed writing the BTF of its line tables (see $log); linked again without BTF, so its profiles name functions, not inlined frames" >&2
	run "${again[@]}" --lib -- -C link-arg=--without-btf
}

feature_args=()
[[ -n $features ]] && feature_args=(--features "$features")
target_dir=${CARGO_TARGET_DIR:-target}

# One cargo invocation per program: built together, cargo would unify the
# programs' features, and a program's code (and CUs) would depend on which
# others were built with it (measured: 106 message rows moved).
for dir in "$@"; do
	package=$(package_of "$dir")
	name=$(name_of "$dir")
	case ${SBF_TOOLCHAIN:-upstream} in
	upstream)
		framework=$(framework_of "$dir")
		if needs_std; then
			triple=bpfel-solana
			target_args=(-Zjson-target-spec -Zbuild-std=std,panic_abort -Zbuild-std-features="$(std_features)" --target "$std_target")
			# Where -Zbuild-std reads the library's sources (cargo's only way to name them).
			cargo=(env __CARGO_TESTS_ONLY_SRC_ROOT="$std_sources" cargo)
			[[ -n $std_sources && -f ${std_sources%/library}/.installed ]] || { echo "build failed: $subfolder: no std sources for SBF (${std_sources:-.tools/std/source-root is missing}); run make setup" >&2; exit 1; }
		else
			triple=bpfel-unknown-none
			target_args=(-Zbuild-std=core,alloc --target bpfel-unknown-none)
			cargo=(cargo)
		fi
		if [[ -n $framework ]]; then
			# A framework's target folder, as the registry names it: its
			# own, or the workspace's (`.`), where std (the same sources,
			# flags and profile, so the same crate hash) is built once for
			# solana-program's programs and the frameworks built beside
			# them; a folder several frameworks share, built one after
			# the other beside those (make programs' two lanes), where in
			# the workspace's folder cargo's lock would have them wait.
			# A published program's: the workspace's where it needs std.
			own_target=$(registry "$framework" target)
			if [[ -z $own_target ]]; then
				own_target=$(basename "$framework")
				needs_std && own_target=.
			fi
			abs_target=$(realpath -m "$target_dir/$own_target")
			workspace=${FRAMEWORK_WORKSPACE:-$(workspace_of "$framework")}
			flags=("${line_tables[@]}")
			lint=()
			checked_beside && lint=("${clippy_beside[@]}")
			build_with_line_tables env -C "$workspace" "${cargo[@]}" build "${trim_paths[@]}" "${lint[@]}" "${target_args[@]}" --release \
				--target-dir "$abs_target" -p "$package" "${feature_args[@]}" || exit $?
			built=$abs_target/$triple/release/lib${package//-/_}.so
		else
			flags=("${line_tables[@]}")
			build_with_line_tables "${cargo[@]}" build "${trim_paths[@]}" "${target_args[@]}" --release \
				-p "$package" "${feature_args[@]}" || exit $?
			built=$target_dir/$triple/release/lib${package//-/_}.so
		fi
		stamp=upstream
		;;
	build-sbf)
		run cargo build-sbf --manifest-path "$dir/Cargo.toml" --sbf-out-dir "$target_dir/build-sbf" \
			"${feature_args[@]}" || exit $?
		built=$target_dir/build-sbf/${package//-/_}.so
		stamp=$(cargo build-sbf --version | paste -sd, - | sed 's/,/, /g')
		;;
	*)
		echo "SBF_TOOLCHAIN is '$SBF_TOOLCHAIN'; use upstream (the default) or build-sbf" >&2
		exit 2
		;;
	esac
	if [[ ${SBF_TOOLCHAIN:-upstream} == upstream ]]; then
		"$split_debug" "$built" "$deploy/$name.so" || { echo "build failed: $subfolder/$name: the linked program could not be split from its debug sections (above); run make setup" >&2; exit 1; }
	else
		cp "$built" "$deploy/$name.so" && rm -f "$deploy/$name.so.debug" || exit $?
	fi
	echo "$stamp" >"$deploy/$name.toolchain"
	printf '  %-40s %8s bytes  [%s s]\n' "$subfolder/$name.so" "$(stat -c %s "$deploy/$name.so")" \
		$(($(date +%s) - ${START:-$(date +%s)}))
done
[[ -n ${TIMINGS:-} ]] && "$(dirname "$0")"/timings.sh note "$subfolder" "$TIMINGS" "$began" $$
exit 0
