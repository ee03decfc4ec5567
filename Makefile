# Front door: `make demo` runs the samples, `make test` runs every test.
# Both install the Debian packages they need first (scripts/install-deps.sh).
BUILD ?= build
JOBS  ?= $(shell nproc)

.PHONY: all deps configure build test demo lint clean isa-pkg formal

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Every sample on the verilated device (command processor + SM) through the
# host driver, each result checked, with a waveform of the first cycles.
DEMO_TRACE ?= $(BUILD)/demo.fst
demo: build
	@$(BUILD)/sim/baresm run --all --backend rtl --trace $(DEMO_TRACE) --trace-window 0:20000
	@echo "waveform: $(DEMO_TRACE)  (scripts/view-wave.sh $(DEMO_TRACE))"

lint: deps
	@scripts/lint.sh

# Formal proofs (BMC + k-induction) and their planted-bug self-tests
# (docs/verification.md "Formal proofs").
formal: deps
	@scripts/formal.sh -o $(BUILD)/formal
	@scripts/formal.sh -o $(BUILD)/formal --selftest

clean:
	rm -rf $(BUILD)

isa-pkg: configure
	@cmake --build $(BUILD) --target isa_pkg
