# Front door: `make demo` runs the samples, `make test` runs every test.
# Both install the Debian packages they need first (scripts/install-deps.sh).
BUILD ?= build
JOBS  ?= $(shell nproc)

.PHONY: all deps configure build test test-long demo lint clean gen isa-pkg ptx soak soak-launches mutate formal sanitize fuzz synth area fpga fpga-sim flash

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# Every test but those labelled `long` (the slowest formal proofs and board
# estimates: `make test-long`), each bounded: 15 minutes unless it sets its
# own TIMEOUT.
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 900 -LE long

test-long: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 900 -L long

# Every sample on the verilated device (command processor + SM) through the
# host driver, each result checked, with a waveform of the first cycles: one
# line per sample and a summary; DEMO_FLAGS=-v adds every launch's details.
DEMO_TRACE ?= $(BUILD)/demo.fst
DEMO_FLAGS ?=
demo: build
	@$(BUILD)/sim/baresm run --all --backend rtl --trace $(DEMO_TRACE) --trace-window 0:20000 $(DEMO_FLAGS)
	@echo "waveform: $(DEMO_TRACE)  (scripts/view-wave.sh $(DEMO_TRACE))"

# Thousands of random programs in lockstep (scripts/soak.sh): SEEDS=FIRST:COUNT
# per profile and configuration, SHARD=I/N to split a range over N machines.
SEEDS ?= 100000:200
SHARD ?= 0/1
soak: build
	@scripts/soak.sh $(SEEDS) $(SHARD)

# Launches through the driver under random faults, memory errors and resets
# (tests/soak, docs/reliability.md): SOAK_LAUNCHES on the model, then
# SOAK_RTL_LAUNCHES on the RTL. `make test` runs 2,000 and 500.
SOAK_LAUNCHES ?= 10000
SOAK_RTL_LAUNCHES ?= 2000
SOAK_SEED ?= 1
soak-launches: build
	@$(BUILD)/tests/soak/soak_launches --backend model --launches $(SOAK_LAUNCHES) --seed $(SOAK_SEED)
	@$(BUILD)/tests/soak/soak_launches --backend rtl --launches $(SOAK_RTL_LAUNCHES) --seed $(SOAK_SEED)

# Mutation score (scripts/mutate.sh): COUNT seeded mutants of rtl/sm, rtl/cp, rtl/ssm, rtl/msm and rtl/mcu.
COUNT ?= 40
mutate: deps
	@scripts/mutate.sh --count $(COUNT) --seed $(or $(MUTATE_SEED),1)

# The isa library's unit and fuzz tests under ASan + UBSan, in $(BUILD)/sanitize
# (scripts/sanitize.sh; `make test` runs it too, as the ctest test sanitize_unit).
sanitize: deps
	@BUILD=$(BUILD) scripts/sanitize.sh $(JOBS)

# Coverage-guided fuzzing (scripts/fuzz.sh; docs/verification.md "Fuzzing"):
# FUZZ_TIME seconds per target, the corpus kept in $(BUILD)/fuzz/work/TARGET
# between runs; FUZZ_TARGETS picks some of asm, module, disasm, ptx. `make test`
# runs each for 20 s (ctest label fuzz).
FUZZ_TIME ?= 600
FUZZ_TARGETS ?=
fuzz: deps
	@BUILD=$(BUILD) scripts/fuzz.sh build $(JOBS)
	@BUILD=$(BUILD) scripts/fuzz.sh long $(FUZZ_TIME) $(FUZZ_TARGETS)

# The wide `micro` SM's iCE40 area per module against its budget (about 6
# CPU-minutes; make test checks the iCEBreaker's serial SM, area_serial_budget).
area: deps
	@AREA_OUT=$(BUILD)/area scripts/area.sh --ice40-only --blackbox baresm_sm_rf --budget 22900 micro

# Yosys' full generic synthesis of the SM with its cell count per module
# (scripts/synth.sh; make test runs only the coarse part).
synth: deps
	@scripts/synth.sh $(BUILD)/synth

lint: deps
	@scripts/lint.sh

# The FPGA flow (scripts/fpga.sh, docs/fpga.md): Yosys -> nextpnr-ice40 ->
# icepack, a bitstream in $(BUILD)/fpga/BOARD/BOARD.bin, the utilization and
# the Fmax; fails with one line when the design does not fit or misses the
# clock. BOARD=icebreaker is the whole device (it does not fit the UP5K yet),
# BOARD=icebreaker-link the link and memory bring-up top. `make flash`
# programs the board with iceprog (scripts/flash.sh). BOARD=arty, ulx3s,
# ulx3s-25f and tangnano20k (the bigger boards) print a Yosys utilization
# estimate against the XC7A100T / LFE5U-85F / LFE5U-25F / GW2AR-18 (no
# place-and-route here: FPGA_ARGS=--flow runs the vendor or open flow on a
# machine that has it, untested here); FPGA_ARGS="--blackbox baresm_sm"
# leaves the SM out (minutes instead of hours).
BOARD ?= icebreaker-link
FPGA_ARGS ?=
fpga: deps
	@scripts/fpga.sh -o $(BUILD)/fpga/$(BOARD) $(FPGA_ARGS) $(BOARD)

# The whole iCEBreaker device as Yosys' gate-level netlist (the bitstream's
# synth_ice40 run, with Yosys' iCE40 cell models) under Verilator, driven by
# drv::SerialTransport over the simulated UART: every sample and the link's
# cases, each against the model (docs/fpga.md "Netlist simulation"). Turns on
# BARESM_DEVICE_NETLIST in $(BUILD) (its synthesis runs when CMake configures).
fpga-sim: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBARESM_DEVICE_NETLIST=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target test_serial_link_netlist
	@BARESM_SERIAL_ALL_SAMPLES=1 BARESM_SERIAL_TIMEOUT_MS=60000 $(BUILD)/tests/serial/test_serial_link_netlist \
	  --gtest_filter='*SampleOverSerial*'

flash:
	@BUILD=$(BUILD) scripts/flash.sh $(BOARD)

# Formal proofs (BMC + k-induction) and their planted-bug self-tests
# (docs/verification.md "Formal proofs").
formal: deps
	@scripts/formal.sh -o $(BUILD)/formal
	@scripts/formal.sh -o $(BUILD)/formal --selftest

clean:
	rm -rf $(BUILD)

# kernels/cuda/*.ptx from their .cu with nvcc (skipped, with a message, without nvcc).
ptx:
	@scripts/gen-ptx.sh || [ $$? -eq 77 ]

# Every generated file (RTL packages, the CP's register block, docs, GTKWave
# filters) from its table (scripts/gen.sh lists them); the ctest
# generated_files_current fails when a committed one is stale.
gen: configure
	@cmake --build $(BUILD) --target gen

isa-pkg: gen
