# rfkit Makefile
#
# Flags are composed as
#   CFLAGS  = $(STD) $(WARN) $(OPT) $(DEBUG) $(SAN) $(DEPFLAGS) $(EXTRA) $(PAPI_CFLAGS)
#   LDLIBS  = $(LIBS) $(PAPI_LIBS)
# (cli/mpi.c compiled as cli/mpi-on.o and its test add $(MPI_CFLAGS), rfkit-mpi $(MPI_LIBS)).
# Override OPT (default -O2), DEBUG (default -g), CC, PREFIX, EXTRA on the command
# line.  SANITIZE=address,undefined builds everything with those sanitizers in
# build-san/ so a sanitized and a plain build can live side by side.
# Objects go to $(BUILD)/; sources are never touched by the build.

CC      ?= cc
OPT     ?= -O2
DEBUG   ?= -g
PREFIX  ?= /usr/local
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Wpedantic -Wstrict-prototypes -Wshadow -Wno-unused-parameter
DEPFLAGS = -MMD -MP
LIBS     = -lgsl -lgslcblas -lcsv -lpthread -lm

ifneq ($(SANITIZE),)
BUILD   ?= build-san
SAN      = -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD   ?= build
SAN      =
endif

# PAPI is optional: hardware counters in the sampler's speed report.
ifneq ($(wildcard /usr/include/papi.h),)
PAPI_CFLAGS = -DRF_HAVE_PAPI
PAPI_LIBS   = -lpapi
endif

# MPI is optional: with mpicc on the PATH, rfkit batch and calibrate run over
# the ranks of mpirun / srun (cli/mpi.c).  The compile and link flags are
# those mpicc adds (Open MPI's --showme, else MPICH's -compile-info /
# -link-info, less the compiler name); NO_MPI=1 builds without.  They go
# into a second binary, rfkit-mpi (cli/mpi.c compiled with them), which
# rfkit runs in its place when an MPI launcher started it: rfkit itself
# does not load the MPI libraries, which cost every command about 3 ms
# of start-up.  Only that object and tests/test_cli_mpi.c see the flags, and
# a stamp named after the choice rebuilds both when it changes (MPI
# installed by `make deps` after an earlier build).
ifeq ($(NO_MPI),)
MPICC := $(shell command -v mpicc 2>/dev/null)
endif
ifneq ($(MPICC),)
MPI_INC  := $(shell mpicc --showme:compile 2>/dev/null || mpicc -compile-info 2>/dev/null | cut -d' ' -f2-)
MPI_LINK := $(shell mpicc --showme:link 2>/dev/null || mpicc -link-info 2>/dev/null | cut -d' ' -f2-)
MPI_CFLAGS = -DRF_HAVE_MPI $(MPI_INC)
MPI_LIBS   = $(MPI_LINK)
MPI_STATE  = on
else
MPI_STATE  = off
endif
MPI_STAMP = $(BUILD)/mpi-$(MPI_STATE).stamp

CFLAGS  = $(STD) $(WARN) $(OPT) $(DEBUG) $(SAN) $(DEPFLAGS) $(EXTRA) $(PAPI_CFLAGS)
LDFLAGS = $(SAN)
LDLIBS  = $(LIBS) $(PAPI_LIBS)

# rfkit links GSL and libcsv from their archives where they are installed
# (Debian's libgsl-dev and libcsv-dev ship them): binding GSL's shared
# library at load cost every command about 0.5 ms of start-up.  The same
# code either way; the shared libraries where an archive is missing.
STATIC_ARCHIVES := $(foreach a,libgsl.a libgslcblas.a libcsv.a,$(filter /%,$(shell $(CC) -print-file-name=$(a))))
ifeq ($(words $(STATIC_ARCHIVES)),3)
RFKIT_LIBS = -Wl,-Bstatic -lgsl -lgslcblas -lcsv -Wl,-Bdynamic \
             $(filter-out -lgsl -lgslcblas -lcsv,$(LDLIBS))
else
RFKIT_LIBS = $(LDLIBS)
endif

# rfkit itself is linked statically where the C library's archives are
# installed (Debian's libc6-dev ships libc.a and libm.a) with GSL's and
# libcsv's, and no sanitizer is on: loading and relocating libc and libm
# cost every command about 1.3 ms of start-up (rfkit gpus 5.0 -> 3.6 ms on
# the 2-core development VM; estimate and calibrate outputs byte-identical).
# It calls no library function that needs glibc's dynamic loading (no
# NSS, no dlopen, no iconv) and does not use PAPI.  rfkit-mpi, the
# sanitized build and systems without the archives link as above.
LIBC_ARCHIVE := $(filter /%,$(shell $(CC) -print-file-name=libc.a))
ifeq ($(SAN)$(words $(STATIC_ARCHIVES)),3)
ifneq ($(LIBC_ARCHIVE),)
RFKIT_LINK = -static $(filter-out $(PAPI_LIBS),$(LDLIBS))
endif
endif
RFKIT_LINK ?= $(RFKIT_LIBS)

LIB_SRC   = $(sort $(wildcard common/*.c analytic/*.c inputs/*.c sampler/*.c calibrate/*.c results/*.c))
CLI_SRC   = $(sort $(wildcard cli/*.c))
TEST_SRC  = $(sort $(wildcard tests/test_*.c))
BENCH_SRC = $(sort $(wildcard tests/bench_*.c))
FUZZ_SRC  = $(sort $(wildcard tests/fuzz_*.c))
TEST_SUPPORT = $(sort $(wildcard tests/support/*.c))

LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  = $(TEST_SRC:%.c=$(BUILD)/%)
BENCH_BIN = $(BENCH_SRC:%.c=$(BUILD)/%)
SUPPORT_OBJ = $(TEST_SUPPORT:%.c=$(BUILD)/%.o)

LIBRARY = $(BUILD)/librfkit.a
RFKIT   = $(BUILD)/rfkit
ifneq ($(MPICC),)
RFKIT_MPI = $(BUILD)/rfkit-mpi
endif
CLI_OBJ_MPI = $(filter-out $(BUILD)/cli/mpi.o,$(CLI_OBJ)) $(BUILD)/cli/mpi-on.o

.PHONY: all test bench clean install deps run fuzz fuzz-ci fuzz-build kernels check-san

all: $(RFKIT) $(RFKIT_MPI)

# The default what-if: an estimate on a bundled kernel and GPU.
RUN_ARGS ?= estimate --gpu fermi-gtx480 --kernel inputs/kernels/hotspot.spec --design stealing --banks 8
run: deps $(RFKIT)
	./$(RFKIT) $(RUN_ARGS)

deps:
	@sh .ci/deps

# The targets that install packages do so before anything compiles, also
# under make -j (a plain `make` never calls apt-get).
ifneq ($(filter run test bench,$(MAKECMDGOALS)),)
DEPS_FIRST = deps
endif

$(LIBRARY): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(RFKIT): $(CLI_OBJ) $(LIBRARY)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBRARY) $(RFKIT_LINK)

$(BUILD)/rfkit-mpi: $(CLI_OBJ_MPI) $(LIBRARY)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ_MPI) $(LIBRARY) $(RFKIT_LIBS) $(MPI_LIBS)

$(MPI_STAMP):
	@mkdir -p $(BUILD)
	@rm -f $(BUILD)/mpi-*.stamp
	@touch $@

$(BUILD)/cli/mpi-on.o: cli/mpi.c $(MPI_STAMP) | $(DEPS_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MPI_CFLAGS) -c $< -o $@

# rfkit's own cli/mpi.o is compiled without the MPI flags (rfkit-mpi has
# them in cli/mpi-on.o).  A build folder from before that split holds a
# cli/mpi.o compiled with them, newer than its source, and rfkit would not
# link; this stamp, new to such a folder, has it compiled again once.
$(BUILD)/cli/mpi.o: $(BUILD)/mpi-split.stamp

$(BUILD)/mpi-split.stamp:
	@mkdir -p $(BUILD)
	@touch $@

$(BUILD)/tests/test_cli_mpi: CFLAGS += $(MPI_CFLAGS)
$(BUILD)/tests/test_cli_mpi: $(MPI_STAMP) $(RFKIT_MPI)

$(BUILD)/%.o: %.c | $(DEPS_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/%.c $(SUPPORT_OBJ) $(LIBRARY) | $(DEPS_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(SUPPORT_OBJ) $(LIBRARY) -lcmocka $(LDLIBS)

test: deps $(RFKIT) $(RFKIT_MPI) $(TEST_BIN)
	@sh tests/run.sh $(BUILD) $(TEST_BIN)

# Same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
check-san:
	$(MAKE) test SANITIZE=address,undefined

bench: deps $(RFKIT) $(RFKIT_MPI) $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; ./$$b || exit 1; done

# libFuzzer over the readers (tests/fuzz_*.c), built by clang with ASan and
# UBSan, every finding fatal (-fno-sanitize-recover=all: clang's UBSan sees
# some undefined behaviour gcc's does not).  The library is compiled once into
# $(FUZZ_BUILD)/obj with -fsanitize=fuzzer-no-link; each target links it.
#   make fuzz       each target FUZZ_SECONDS (default 60) over its seeds
#   make fuzz-ci    the seeds alone as regression inputs, then FUZZ_SECONDS
#                   (default 20) each; skipped with a note without clang
# Seeds live in tests/fuzz-seeds/<target>/; new inputs go to
# $(FUZZ_BUILD)/corpus-<target>.  tests/fuzz.sh prints one line per target,
# "fuzz_x: N execs in S s, 0 findings", and fails on any finding.
FUZZ_BUILD  = build-fuzz
FUZZ_CC     = clang
FUZZ_SAN    = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(STD) -g -O1 $(FUZZ_SAN) $(PAPI_CFLAGS)
FUZZ_OBJ    = $(LIB_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_BIN    = $(FUZZ_SRC:tests/%.c=$(FUZZ_BUILD)/%)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz_%.c tests/fuzz_msg.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

fuzz-build: $(FUZZ_OBJ) $(FUZZ_BIN)

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: $(FUZZ_CC) not found"; exit 1; }
	@$(MAKE) --no-print-directory fuzz-build
	@sh tests/fuzz.sh $(FUZZ_BUILD) $${FUZZ_SECONDS:-60} $(FUZZ_BIN)

fuzz-ci:
	@if ! command -v $(FUZZ_CC) >/dev/null; then \
	  echo "fuzz-ci: $(FUZZ_CC) not found, fuzzing skipped"; \
	else \
	  $(MAKE) --no-print-directory fuzz-build && \
	  sh tests/fuzz.sh --seeds $(FUZZ_BUILD) 0 $(FUZZ_BIN) && \
	  sh tests/fuzz.sh $(FUZZ_BUILD) $${FUZZ_SECONDS:-20} $(FUZZ_BIN); \
	fi

install: $(RFKIT) $(RFKIT_MPI) $(LIBRARY)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib
	install -m 755 $(RFKIT) $(DESTDIR)$(PREFIX)/bin/rfkit
	$(if $(RFKIT_MPI),install -m 755 $(RFKIT_MPI) $(DESTDIR)$(PREFIX)/bin/rfkit-mpi)
	install -m 644 $(LIBRARY) $(DESTDIR)$(PREFIX)/lib/librfkit.a

clean:
	rm -rf build build-san build-fuzz

-include inputs/kernels/kernels.mk
-include inputs/validation/validation.mk
-include $(LIB_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(BUILD)/cli/mpi-on.d $(SUPPORT_OBJ:.o=.d) $(TEST_BIN:=.d) $(BENCH_BIN:=.d)
