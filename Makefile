# coretrace: one entry point.
#
#   make            build the static ./coretrace (BPF object embedded)
#   make test       host unit tests, then the guest tests under QEMU
#   make unit       host unit tests only
#   make vm-test    guest tests only (KERNEL=path/to/bzImage to pick a kernel)
#   make demo       install what is missing, build, trace a workload in a guest
#   make deps       install the Debian packages the project needs (root)
#   make fuzz       libFuzzer on the capture reader (FUZZ_SECONDS=600)

BUILD		?= build
CC		?= gcc
CLANG		?= clang
BPFTOOL		?= bpftool
# one TCG thread for all vCPUs: with multi-threaded TCG, a guest whose
# kernel patches its own text (enabling a tracepoint) while the other vCPU
# runs it hung within 7 attach cycles, every time we tried
ACCEL		?= tcg,thread=single
VM_TIMEOUT	?= 1500
# expanded when a recipe runs, not when make reads this file: on a fresh
# machine deps-check installs linux-image-amd64 first
STOCK_KERNEL	= $(shell ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)
# a KERNEL=... from the command line is a user's own kernel: KIND=other
KIND		?= $(if $(filter command line,$(origin KERNEL)),other,stock)
KERNEL		?= $(STOCK_KERNEL)
KERNELS_DIR	:= $(BUILD)/kernels
# the guest test module (tests/modules) for KERNEL: Debian's stock kernel's
# is built here against its linux-headers package, the control and padded
# kernels' by make kernel, with them
STOCK_MODULE	:= $(BUILD)/modules/stock/ct_freq.ko
MODULE		?= $(if $(filter stock,$(KIND)),$(STOCK_MODULE))

ARCH_DEFINE	:= -D__TARGET_ARCH_x86
WARN		:= -Wall -Wextra -Werror
# link-time optimization: the record path crosses files (the ring's
# callback, the output, the capture writer): ~18 emulated instructions
# per event less in make bench
CFLAGS		?= -O2 -g -flto=auto
USER_CFLAGS	:= -std=c11 -D_DEFAULT_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) \
		   -I$(BUILD) -Ibpf -Iuser -MMD -MP
BPF_CFLAGS	:= -target bpf -mcpu=v3 -g -O2 $(WARN) $(ARCH_DEFINE) \
		   -Ivmlinux -Ibpf -MMD -MP
# libseccomp and libcap: what coretrace gives up once attached (privs.c)
PRIV_LIBS	:= -lseccomp -lcap
# elfutils: user frames named from ELF symbols (usyms.c); libdw.a needs
# the compressions libelf reads sections in (the shared libdw has them)
ELF_LIBS	= -ldw -lelf $(if $(LDSTATIC),-lz -llzma -lbz2)
STATIC_LIBS	= -lbpf $(ELF_LIBS) $(PRIV_LIBS)

# the BPF programs in parts, one per subject (bpf/*.bpf.c), each compiled
# on its own and linked by bpftool gen object into the one object that
# bpftool gen skeleton embeds in the loader
# maps.bpf.c, which defines the maps and settings the others declare
# extern, goes first: libbpf 1.1's linker fails to place an extern map
# whose definition comes in a later file ("map relo failed to find map")
BPF_PARTS	:= bpf/maps.bpf.c $(filter-out bpf/maps.bpf.c,$(wildcard bpf/*.bpf.c))
BPF_PART_OBJS	:= $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/parts/%.bpf.o,$(BPF_PARTS))
BPF_OBJS	:= $(BUILD)/bpf/coretrace.bpf.o
SKELS		:= $(BUILD)/coretrace.skel.h

# user/ in layers, a folder each (tests/host/layers-check.py): base, model,
# loader, capture, views, commands. CORE_SRCS need no libbpf: the capture
# tools and the fuzzer link them; the unit tests link everything but
# main(), against the shared libbpf
USER_SRCS	:= $(wildcard user/*/*.c)
USER_HDRS	:= $(wildcard user/*/*.h)
CORE_SRCS	:= $(wildcard user/base/*.c user/model/*.c user/capture/*.c user/views/*.c) \
		   user/loader/layout.c
LOADER_SRCS	:= $(filter-out $(CORE_SRCS),$(USER_SRCS))
UNIT_USER_SRCS	:= $(filter-out user/commands/main.c,$(USER_SRCS))
CORE_OBJS	:= $(patsubst user/%.c,$(BUILD)/user/%.o,$(CORE_SRCS))
LOADER_OBJS	:= $(patsubst user/%.c,$(BUILD)/user/%.o,$(LOADER_SRCS))

UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
UNIT_BIN	:= $(BUILD)/unit-tests

WORKLOAD_SRCS	:= $(wildcard tests/workloads/*.c)
WORKLOADS	:= $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WORKLOAD_SRCS))

# test tools: static, may use libbpf
TOOL_SRCS	:= $(wildcard tests/tools/*.c)
TOOLS		:= $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(TOOL_SRCS))

# BPF objects of the tests only (negative controls), never in coretrace
TEST_BPF_SRCS	:= $(wildcard tests/bpf/*.bpf.c)
TEST_SKELS	:= $(patsubst tests/bpf/%.bpf.c,$(BUILD)/testbpf/%.skel.h,$(TEST_BPF_SRCS))

INITRAMFS	:= $(BUILD)/initramfs.cpio.gz
GUEST_FILES	:= $(wildcard tests/guest/*)

.PHONY: all test unit vm-test vm-matrix rig-test demo deps clean kernel bench-ring bench-decode bench-tpbtf checkpatch fuzz bench bench-tracers bench-deps bench-variants
.SECONDARY:

all: coretrace

# LDSTATIC= links against the shared libraries (the Debian package does)
LDSTATIC	?= -static
coretrace: $(LOADER_OBJS) $(CORE_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) $(LDSTATIC) -o $@ $^ $(STATIC_LIBS)

$(BUILD)/bpf/parts/%.bpf.o: bpf/%.bpf.c vmlinux/vmlinux.h
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bpf/coretrace.bpf.o: $(BPF_PART_OBJS)
	$(BPFTOOL) gen object $@.tmp.o $^ && mv $@.tmp.o $@

$(BUILD)/coretrace.skel.h: $(BUILD)/bpf/coretrace.bpf.o
	$(BPFTOOL) gen skeleton $< name coretrace_bpf > $@.tmp && mv $@.tmp $@

# the loader includes the skeleton, which embeds the BPF object
$(LOADER_OBJS): $(SKELS)

$(BUILD)/user/%.o: user/%.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -c $< -o $@

# the unit tests build user/ code again, under ASan and UBSan
SANITIZE	:= -fsanitize=address,undefined -fno-sanitize-recover=all

$(UNIT_BIN): $(UNIT_SRCS) tests/unit/ct_test.h $(UNIT_USER_SRCS) $(USER_HDRS) bpf/ct_abi.h \
	     $(BPF_OBJS) $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(USER_CFLAGS)) $(SANITIZE) -Itests/unit \
		-DCT_TEST_BPF_OBJ='"$(BUILD)/bpf/coretrace.bpf.o"' \
		-o $@ $(UNIT_SRCS) $(UNIT_USER_SRCS) -lbpf $(ELF_LIBS) $(PRIV_LIBS)

# fuzz inputs kept in tests/fuzz (corpus and crashers) replayed under
# the same sanitizers; `make fuzz` runs libFuzzer (clang) for FUZZ_SECONDS
FUZZ_SRCS	:= tests/fuzz/fuzz_ctf_read.c
FUZZ_REPLAY	:= $(BUILD)/fuzz/replay
FUZZ_BIN	:= $(BUILD)/fuzz/fuzz_ctf_read
FUZZ_SECONDS	?= 600
FUZZ_INPUTS	= $(wildcard tests/fuzz/corpus/* tests/fuzz/crashers/*)

$(FUZZ_REPLAY): $(FUZZ_SRCS) tests/fuzz/replay.c $(CORE_SRCS) $(USER_HDRS) bpf/ct_abi.h
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(USER_CFLAGS)) $(SANITIZE) \
		-o $@ $(FUZZ_SRCS) tests/fuzz/replay.c $(CORE_SRCS) $(ELF_LIBS) $(PRIV_LIBS)

$(FUZZ_BIN): $(FUZZ_SRCS) $(CORE_SRCS) $(USER_HDRS) bpf/ct_abi.h
	@mkdir -p $(@D)
	$(CLANG) $(filter-out -MMD -MP,$(USER_CFLAGS)) -Wno-unused-command-line-argument \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $(FUZZ_SRCS) $(CORE_SRCS) $(ELF_LIBS) $(PRIV_LIBS)

# host tools: a synthetic capture writer for the babeltrace2 check and
# the benchmarks
MKCAPTURE	:= $(BUILD)/host/mkcapture

$(MKCAPTURE): tests/host/mkcapture.c $(CORE_SRCS) $(USER_HDRS) bpf/ct_abi.h
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(USER_CFLAGS)) -o $@ $< $(CORE_SRCS) $(ELF_LIBS) $(PRIV_LIBS)

# offcpu's stacks are walked by frame pointers: every function keeps one
# and calls what it calls (no sibling calls, which replace a frame)
$(BUILD)/workloads/offcpu: CFLAGS += -fno-omit-frame-pointer \
	-mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls -fno-lto \
	-fno-ipa-icf -fno-ipa-sra
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(@D)
	$(CC) -static -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -o $@ $<

$(BUILD)/testbpf/%.bpf.o: tests/bpf/%.bpf.c vmlinux/vmlinux.h
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/testbpf/%.skel.h: $(BUILD)/testbpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/tools/%: tests/tools/%.c $(TEST_SKELS) user/loader/layout.c user/loader/layout.h \
		user/loader/btfgen.c user/loader/btfgen.h
	@mkdir -p $(@D)
	$(CC) -static -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I$(BUILD)/testbpf \
		-Iuser -o $@ $< user/loader/layout.c user/loader/btfgen.c $(STATIC_LIBS)

$(INITRAMFS): coretrace $(WORKLOADS) $(TOOLS) $(GUEST_FILES) tests/vm/mkinitramfs.sh
	tests/vm/mkinitramfs.sh $@ coretrace tests/guest $(BUILD)/workloads $(BUILD)/tools

# the benchmark guest also carries Debian's perf, trace-cmd and bpftrace,
# unchanged, with their shared libraries
BENCH_INITRAMFS	:= $(BUILD)/bench-initramfs.cpio.gz
BT2_PLUGINS	:= /usr/lib/x86_64-linux-gnu/babeltrace2/plugins
BENCH_TRACERS	:= /usr/bin/perf /usr/bin/trace-cmd /usr/bin/bpftrace /usr/bin/babeltrace2 \
		   $(BT2_PLUGINS)/babeltrace-plugin-ctf.so $(BT2_PLUGINS)/babeltrace-plugin-text.so \
		   $(BT2_PLUGINS)/babeltrace-plugin-utils.so

# LTTng for make bench: Debian's lttng-modules built against the stock
# kernel's headers and lttng-tools, staged by tests/bench/lttng.sh (which
# runs every time and rebuilds only when a package or the kernel changed)
LTTNG_DIR	:= $(BUILD)/lttng
STOCK_KVER	= $(patsubst vmlinuz-%,%,$(notdir $(STOCK_KERNEL)))

.PHONY: lttng-stage
$(LTTNG_DIR)/root.stamp: lttng-stage
	@tests/bench/lttng.sh $(LTTNG_DIR) $(STOCK_KVER)

# BENCH_REF=FILE: another coretrace binary (e.g. main's) that joins the
# benchmark as the tracer coretrace-ref, for an A/B in the same boot
# (BENCH_PARAMS="tracers=none,coretrace,coretrace-ref")
BENCH_REF	?=
$(BENCH_INITRAMFS): coretrace $(WORKLOADS) $(TOOLS) $(GUEST_FILES) tests/vm/mkinitramfs.sh $(BENCH_REF) \
		$(LTTNG_DIR)/root.stamp
	rm -rf $(BUILD)/bench-ref
	$(if $(BENCH_REF),mkdir -p $(BUILD)/bench-ref && cp $(BENCH_REF) $(BUILD)/bench-ref/coretrace-ref)
	tests/vm/mkinitramfs.sh $(addprefix -x ,$(BENCH_TRACERS)) -t $(LTTNG_DIR)/root $@ coretrace \
		tests/guest $(BUILD)/workloads $(BUILD)/tools $(if $(BENCH_REF),$(BUILD)/bench-ref)

unit: $(UNIT_BIN) $(FUZZ_REPLAY) $(MKCAPTURE) coretrace
	$(UNIT_BIN)
	@echo "$(FUZZ_REPLAY) tests/fuzz/corpus/* tests/fuzz/crashers/*"
	@$(FUZZ_REPLAY) $(FUZZ_INPUTS)
	tests/host/bt2-check.sh $(MKCAPTURE) ./coretrace $(BUILD)/host
	tests/host/text-check.sh $(MKCAPTURE) ./coretrace $(BUILD)/host
	tests/host/outfile-check.sh $(MKCAPTURE) ./coretrace $(BUILD)/host
	tests/host/verifier-matrix-check.sh
	tests/host/layers-check.py --self-test
	tests/host/layers-check.py user
	tests/host/help-check.sh ./coretrace
	tests/host/mutate.py $(MKCAPTURE) ./coretrace $(BUILD)/host
	tests/host/hostile.py $(MKCAPTURE) ./coretrace $(BUILD)/host
	tests/host/bench-check.py $(BUILD)/host/bench-check

fuzz: $(FUZZ_BIN)
	tests/fuzz/run-fuzz.sh $(FUZZ_BIN) $(FUZZ_SECONDS)

vm-test: $(INITRAMFS) $(filter $(STOCK_MODULE),$(MODULE))
	tests/vm/run-vm.sh --kernel "$(KERNEL)" --initrd $(INITRAMFS) \
		--accel $(ACCEL) --timeout $(VM_TIMEOUT) \
		$(if $(MODULE),--module $(MODULE)) \
		--log-dir $(BUILD)/vm/$(KIND) --kind $(KIND) --run guest-tests \
		--param tests=$(words $(wildcard tests/guest/t_*))
	tests/vm/check-capture.sh $(BUILD)/vm/$(KIND)/artifacts
	tests/vm/check-render.sh $(BUILD)/vm/$(KIND)/artifacts
	tests/vm/check-cgattr.sh $(BUILD)/vm/$(KIND)/artifacts
	tests/vm/check-parts.sh $(BUILD)/vm/$(KIND)/artifacts
	tests/vm/check-stacks.sh $(BUILD)/vm/$(KIND)/artifacts
	tests/host/speedscope-check.sh $(BUILD)/vm/$(KIND)/artifacts/stacks.folded \
		$(BUILD)/vm/$(KIND)/speedscope

# against the headers of the stock kernel the guests boot (the release
# in its file name), never loaded here
$(STOCK_MODULE): tests/modules/ct_freq.c tests/modules/Kbuild
	tests/modules/build.sh $(@D) \
		/usr/src/linux-headers-$(patsubst vmlinuz-%,%,$(notdir $(STOCK_KERNEL)))

# the series passes the tree's own checkpatch.pl --strict
checkpatch:
	kernel-patches/checkpatch.sh

# control, padded and nobtf bzImages, cached outside the clone
kernel:
	kernel-patches/build-kernels.sh

# the guest tests on every kernel of the matrix, then the layouts compared
vm-matrix: $(INITRAMFS) kernel
	$(MAKE) vm-test KIND=stock KERNEL="$(STOCK_KERNEL)"
	$(MAKE) vm-test KIND=control KERNEL=$(KERNELS_DIR)/control.bzImage \
		MODULE=$(KERNELS_DIR)/control.ct_freq.ko
	$(MAKE) vm-test KIND=padded KERNEL=$(KERNELS_DIR)/padded.bzImage \
		MODULE=$(KERNELS_DIR)/padded.ct_freq.ko
	$(MAKE) vm-test KIND=nobtf KERNEL=$(KERNELS_DIR)/nobtf.bzImage \
		MODULE=$(KERNELS_DIR)/nobtf.ct_freq.ko
	tests/vm/compare-layouts.sh $(BUILD)/vm/control/artifacts/formats.txt \
		$(BUILD)/vm/padded/artifacts/formats.txt
	tests/vm/compare-streams.sh stock=$(BUILD)/vm/stock/artifacts/stream.txt \
		control=$(BUILD)/vm/control/artifacts/stream.txt \
		padded=$(BUILD)/vm/padded/artifacts/stream.txt \
		nobtf=$(BUILD)/vm/nobtf/artifacts/stream.txt
	tests/vm/verifier-matrix.py $(BUILD)/verifier-matrix.csv \
		tests/verifier-baseline.csv \
		stock=$(BUILD)/vm/stock/artifacts/check.json \
		control=$(BUILD)/vm/control/artifacts/check.json \
		padded=$(BUILD)/vm/padded/artifacts/check.json \
		nobtf=$(BUILD)/vm/nobtf/artifacts/check.json

# Debian's Prometheus scrapes coretrace serve in a guest of the stock
# kernel, over its loopback (tests/guest/prometheus-scrape): the package
# unpacked, never installed here (tests/vm/prometheus-stage.sh), with the
# rules docs/fleet-metrics.md gives
PROM_DIR	:= $(BUILD)/prometheus
PROM_INITRAMFS	:= $(BUILD)/prom-initramfs.cpio.gz

.PHONY: prometheus-stage prometheus-test
$(PROM_DIR)/root.stamp: prometheus-stage
	@tests/vm/prometheus-stage.sh $(PROM_DIR)

$(PROM_INITRAMFS): coretrace $(WORKLOADS) $(TOOLS) $(GUEST_FILES) tests/vm/mkinitramfs.sh \
		$(PROM_DIR)/root.stamp dist/prometheus/coretrace-rules.yml
	rm -rf $(PROM_DIR)/etc && mkdir -p $(PROM_DIR)/etc/etc/prometheus
	cp dist/prometheus/coretrace-rules.yml $(PROM_DIR)/etc/etc/prometheus/
	tests/vm/mkinitramfs.sh -t $(PROM_DIR)/root -t $(PROM_DIR)/etc $@ coretrace \
		tests/guest $(BUILD)/workloads $(BUILD)/tools

prometheus-test: $(PROM_INITRAMFS)
	tests/vm/run-vm.sh --kernel "$(STOCK_KERNEL)" --initrd $(PROM_INITRAMFS) \
		--accel $(ACCEL) --mem 2048 --timeout $(VM_TIMEOUT) \
		--log-dir $(BUILD)/vm/prometheus --kind stock --run prometheus-scrape

# the rig's own checks: a failure, a splat and a hang must each fail
rig-test: $(INITRAMFS)
	tests/vm/rig-selftest.sh "$(STOCK_KERNEL)" $(INITRAMFS) $(ACCEL) $(BUILD)/vm/rig

test: deps-test-check
	$(MAKE) unit
	$(MAKE) checkpatch
	$(MAKE) rig-test
	$(MAKE) vm-matrix
	$(MAKE) prometheus-test
	$(MAKE) deb-test

demo: deps-check
	$(MAKE) $(INITRAMFS)
	tests/vm/run-vm.sh --kernel "$(KERNEL)" --initrd $(INITRAMFS) \
		--accel $(ACCEL) --timeout $(VM_TIMEOUT) --log-dir $(BUILD)/vm/demo \
		--kind $(KIND) --run demo --show --quiet

# classic tracepoint against tp_btf for sched_switch (issue 8's design
# question), on KERNEL: build/vm/bench-tpbtf/artifacts/bench-tpbtf.txt;
# one vCPU on the instruction counter, as make bench
bench-tpbtf: $(INITRAMFS)
	tests/vm/run-vm.sh --kernel "$(KERNEL)" --initrd $(INITRAMFS) \
		--accel $(ACCEL) --smp 1 --icount 0 --timeout 1800 \
		--log-dir $(BUILD)/vm/bench-tpbtf-$(KIND) \
		--kind $(KIND) --run bench-tpbtf
	cat $(BUILD)/vm/bench-tpbtf-$(KIND)/artifacts/bench-tpbtf.txt

# host decode speed: coretrace report against babeltrace2 on a synthetic
# capture of DECODE_RECORDS records, one core (bench/decode.md)
DECODE_RECORDS	?= 10000000
bench-decode: coretrace $(MKCAPTURE)
	tests/bench/decode.sh $(MKCAPTURE) ./coretrace $(BUILD)/bench bench/decode.md \
		$(DECODE_RECORDS) 3

# tracer overhead: coretrace against perf, trace-cmd and bpftrace on the
# padded and the stock kernel (bench/results.md); BENCH_PARAMS go to the
# guest (e.g. BENCH_PARAMS="reps=3 pingpong=5000"); BENCH_OUT is the table
# written (another name keeps bench/results.md, tests/bench/compare.py
# sets two side by side)
BENCH_PARAMS	?= reps=5
BENCH_OUT	?= bench/results.md
bench-tracers: $(BENCH_INITRAMFS) kernel
	tests/bench/tracers.sh $(BENCH_INITRAMFS) $(ACCEL) $(BUILD)/vm/bench $(BENCH_OUT) \
		padded=$(KERNELS_DIR)/padded.bzImage stock="$(STOCK_KERNEL)" -- $(BENCH_PARAMS)

bench: bench-deps
	$(MAKE) bench-tracers
	$(MAKE) bench-decode

# what each per-record guarantee of record -o costs (issue 17): coretrace
# built without it (tests/bench/variants/*.patch) beside coretrace and the
# minimal handlers, in one boot of the stock kernel
bench-variants: coretrace $(WORKLOADS) $(TOOLS)
	tests/bench/variants.sh "$(STOCK_KERNEL)" $(BUILD)/vm/variants bench/variants.md \
		$(BENCH_VARIANTS) -- $(BENCH_PARAMS)

# the ring design's measurements (issue note figures): shared vs per-CPU
# rings, batched vs per-record wakeups, and delivery latency
bench-ring: $(INITRAMFS)
	tests/vm/run-vm.sh --kernel "$(KERNEL)" --initrd $(INITRAMFS) \
		--accel $(ACCEL) --timeout 1800 --log-dir $(BUILD)/vm/bench-ring \
		--kind $(KIND) --run bench-ring
	cat $(BUILD)/vm/bench-ring/artifacts/ring-bench.txt

deps:
	tests/deps.sh --test

# make bench also needs Debian's perf, trace-cmd and bpftrace
bench-deps:
	@tests/deps.sh --check --bench 2>/dev/null || tests/deps.sh --bench

# install what is missing when we may; otherwise say what is missing
.PHONY: deps-check deps-test-check
deps-check:
	@tests/deps.sh --check 2>/dev/null || tests/deps.sh
# make test also needs npm (speedscope), which make demo does not
deps-test-check:
	@tests/deps.sh --check --test 2>/dev/null || tests/deps.sh --test

# the manual pages, made by coretrace from the tables --help is made from:
# coretrace(1) and one per command coretrace --help lists
MANDIR_BUILD	:= $(BUILD)/man
.PHONY: man install deb deb-test pkg-deps
man: coretrace
	rm -rf $(MANDIR_BUILD) && mkdir -p $(MANDIR_BUILD)
	./coretrace help --man > $(MANDIR_BUILD)/coretrace.1
	for c in $$(./coretrace --help | sed -n '/^commands:/,/^$$/s/^  \([a-z][a-z]*\) .*/\1/p'); do \
		[ "$$c" = help ] || ./coretrace help --man $$c > $(MANDIR_BUILD)/coretrace-$$c.1 || exit 1; \
	done

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary, its manual
# pages, the systemd units of the always-on recorder and of serve (their
# ExecStart pointing at BINDIR), and the Prometheus rules
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
MAN1DIR		?= $(PREFIX)/share/man/man1
UNITDIR		?= $(PREFIX)/lib/systemd/system
DATADIR		?= $(PREFIX)/share/coretrace
install: coretrace man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(DATADIR)/prometheus
	install -m 755 coretrace $(DESTDIR)$(BINDIR)/coretrace
	install -m 644 $(MANDIR_BUILD)/*.1 $(DESTDIR)$(MAN1DIR)/
	for unit in dist/*.service; do \
		sed 's|/usr/local/bin/coretrace|$(BINDIR)/coretrace|' $$unit > \
			$(DESTDIR)$(UNITDIR)/$$(basename $$unit) || exit 1; \
		chmod 644 $(DESTDIR)$(UNITDIR)/$$(basename $$unit); \
	done
	install -m 644 dist/prometheus/coretrace-rules.yml $(DESTDIR)$(DATADIR)/prometheus/

# the Debian package (debian/), built with dpkg-buildpackage, checked by
# lintian, then installed in a fresh Debian 12 root (tests/pkg/deb-test.sh)
pkg-deps:
	@tests/deps.sh --check --pkg 2>/dev/null || tests/deps.sh --pkg
deb: pkg-deps
	tests/pkg/build-deb.sh $(BUILD)/deb

deb-test: deb
	tests/pkg/deb-test.sh $(BUILD)/deb

clean:
	rm -rf $(BUILD) coretrace

-include $(wildcard $(BUILD)/user/*/*.d $(BUILD)/bpf/parts/*.d)
