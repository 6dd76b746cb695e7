# Shufflebox: the two commands a newcomer runs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
LIBRARY ?=
DEVICE ?= default
FUZZ_SECONDS ?= 60
BOARD ?= qemu
# Release builds link the Swift runtime statically, as the image does: the box runs this binary, and the
# benchmarks measure it (it maps ~2 MiB less than the runtime's shared libraries, and starts faster).
RELEASE := -c release --static-swift-stdlib
# The machine the release binary is for (Debian's names: amd64, arm64). ARCH=arm64 on an x86_64 host
# cross-builds the Raspberry Pi binary with Debian 13's Swift (scripts/release-debian13, as root).
HOST_ARCH := $(shell dpkg --print-architecture 2>/dev/null || uname -m)
ARCH ?= $(HOST_ARCH)

.PHONY: all build release test demo bench fuzz sanitize deps lint clean image image-test

all: build

deps:
	@scripts/install-deps test

build:
	@scripts/install-deps build
	$(SWIFT) build

release:
ifeq ($(ARCH),$(HOST_ARCH))
	@scripts/install-deps build
	$(SWIFT) build $(RELEASE)
else ifeq ($(ARCH)-$(HOST_ARCH),arm64-amd64)
	@scripts/release-debian13 arm64
else
	@echo "make release: ARCH=$(ARCH) on a $(HOST_ARCH) host is not supported (amd64 or arm64 natively, arm64 from amd64)" >&2; exit 1
endif

# Every test: unit tests, the real executable end to end, real SQLite, MP3 and ALSA (file PCM).
test:
	@scripts/install-deps test
	$(SWIFT) build
	$(SWIFT) test
	@scripts/check-overlays

# Builds, makes a small sample library unless LIBRARY=DIR is given, indexes it and plays it shuffled.
demo:
	@scripts/install-deps demo
	$(SWIFT) build $(RELEASE) --product shufflebox
	$(SWIFT) build $(RELEASE) --product shufflebox-decoder
	$(SWIFT) build $(RELEASE) --product shufflebox-speech
	@LIBRARY="$(LIBRARY)" DEVICE="$(DEVICE)" scripts/demo

bench:
	@scripts/install-deps bench
	$(SWIFT) build $(RELEASE)
	@scripts/bench

fuzz:
	@scripts/install-deps build
	$(SWIFT) build --sanitize=fuzzer --product ShuffleboxFuzz -Xswiftc -sanitize=fuzzer,address --build-path .build/fuzz
	@scripts/fuzz $(FUZZ_SECONDS)

# TSAN_OPTIONS=atexit_sleep_ms=0: ThreadSanitizer otherwise sleeps 1 s in every process that exits, and the
# daemon tests run `shufflebox status` many times against a player that keeps real time.
sanitize:
	@scripts/install-deps test
	$(SWIFT) build --sanitize=address --build-path .build/asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --build-path .build/asan
	$(SWIFT) build --sanitize=thread --build-path .build/tsan
	TSAN_OPTIONS=atexit_sleep_ms=0 $(SWIFT) test --sanitize=thread --build-path .build/tsan

# A bootable disk image for board/$(BOARD) in .image/out/$(BOARD)/ (root; see image/README.md).
image:
	@image/build $(BOARD)

# Boots the qemu image with virtual USB sticks, snd-aloop and gpio-sim; not part of `make test`.
# BOARD=qemu-arm64 runs the same test on the Pi images' arm64 root under qemu-system-aarch64 -M virt;
# BOARD=rpi3 boots the Raspberry Pi 3 image's own kernel, device tree and card under qemu -M raspi3b.
# ROUNDS=N sets how many power cuts in a row (default 3).
image-test:
ifeq ($(BOARD),rpi3)
	@image/test-raspi3b
else
	@image/test --board $(BOARD) $(if $(ROUNDS),--rounds $(ROUNDS))
endif

lint:
	$(SWIFT) format lint --strict -r Sources Tests

clean:
	rm -rf .build .demo .bench .fuzz
