#!/bin/sh
# Builds the benchmarks in release mode and runs every workload once at a small size (1,000 rows; streaming
# 10,000 rows), so that they cannot rot. Not a timing assertion: it fails only if a build fails, an
# implementation throws, or implementations disagree on their results.
set -eu
cd "$(dirname "$0")"
swift build -c release --product sqliteswiftly-bench
"$(swift build -c release --show-bin-path)/sqliteswiftly-bench" --quick "$@"
"$(swift build -c release --show-bin-path)/sqliteswiftly-bench" --observation-idle --quick
"$(swift build -c release --show-bin-path)/sqliteswiftly-bench" --observation-rows --quick
