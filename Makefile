# Entry points for people and CI. Every target installs what is missing
# (Debian packages, via scripts/install-deps.sh) and configures the build.
BUILD ?= build
JOBS  ?= $(shell nproc)
PREFIX ?= /usr/local

.PHONY: all deps configure build demo test bench fuzz fuzz-smoke difftest test-sanitize install clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/tfs run samples/hello.tfs

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# tfs, its man page and bash completion under $(PREFIX) (bin/, share/man/man1,
# share/bash-completion/completions).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	@bash scripts/install-deps.sh --bench
	@bash bench/run.sh ./$(BUILD)/tfs

fuzz: deps
	@bash scripts/fuzz.sh

# Every seed and reproducer once, then 15 s per target, sanitized (the
# regular build's `make test` replays the same inputs unsanitized).
fuzz-smoke: deps
	@bash scripts/fuzz.sh --smoke

# A long campaign of the random differential tester (ctest runs seeds 0..44):
# DIFFTEST_SEEDS=A:B to choose the range.
DIFFTEST_SEEDS ?= 45:2045
difftest: build
	/usr/bin/python3 tests/difftest/difftest.py ./$(BUILD)/tfs --seeds $(DIFFTEST_SEEDS) --jobs $(JOBS)

# The whole suite under AddressSanitizer + UBSan + LeakSanitizer (-O1; any
# report fails the test).
test-sanitize: deps
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DTFS_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) build-asan
