# scripts/ecp5.mk: the ULX3S 85F (or 25F) bitstream with the open ECP5 flow (docs/fpga.md
# "Bigger boards"): Yosys synth_ecp5 -> nextpnr-ecp5 -> ecppack.
# UNTESTED: Debian 12 packages neither nextpnr-ecp5 nor Project Trellis
# (ecppack), so this has never been run on the project's machines; Yosys'
# part alone runs here as `make fpga BOARD=ulx3s` (an estimate).
#
#   make -f scripts/ecp5.mk [DEVICE=85k|25k] [OUT=DIR] [FREQ=25] [SEED=1] [PARAMS=...]   bitstream
#   make -f scripts/ecp5.mk prog                                 SRAM (openFPGALoader)
#   make -f scripts/ecp5.mk flash                                SPI flash
#
# DEVICE: the ULX3S's part, 85k (LFE5U-85F, the default) or 25k (LFE5U-25F);
# `scripts/fpga.sh --flow ulx3s|ulx3s-25f` runs this Makefile with it.
# Tools: YOSYS, NEXTPNR (nextpnr-ecp5), ECPPACK, LOADER (openFPGALoader).
# nextpnr-ecp5 fails when the design misses FREQ MHz (no --timing-allow-fail).

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
DEVICE ?= 85k
OUT ?= $(ROOT)/build/fpga/ulx3s$(if $(filter 25k,$(DEVICE)),-25f)-pnr
TOP := baresm_ulx3s_top
LPF := $(ROOT)/rtl/fpga/ulx3s.lpf
FREQ ?= 25
SEED ?= 1
YOSYS ?= yosys
NEXTPNR ?= nextpnr-ecp5
ECPPACK ?= ecppack
LOADER ?= openFPGALoader

# The top's parameters (NAME=VALUE ...). The 25F's 56 EBR hold neither the
# hardwired device's 256 KB nor its logic (docs/fpga.md "Bigger boards"): on
# it the top is the whole device as one program with 64 KB of memory.
PARAMS ?= $(if $(filter 25k,$(DEVICE)),Microprogrammed=1 MemBytes=65536)
CHPARAM := $(if $(strip $(PARAMS)),chparam $(foreach p,$(PARAMS),-set $(subst =, ,$(p))) $(TOP);)

# The board top's files of rtl/baresm.f, in order (not the other boards' tops).
FILES := $(shell cd $(ROOT) && scripts/rtl-files.sh | grep -v -e baresm_icebreaker -e baresm_arty_top -e baresm_tangnano20k_top)

.PHONY: all prog flash clean params

all: $(OUT)/$(TOP).bit

$(OUT)/$(TOP).json: $(addprefix $(ROOT)/,$(FILES)) $(ROOT)/rtl/baresm.f
	mkdir -p $(OUT)
	cd $(ROOT) && $(YOSYS) -l $(OUT)/yosys.log -p "read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm $(FILES); \
	  $(CHPARAM) synth_ecp5 -top $(TOP) -json $@; tee -o $(OUT)/yosys-stat.txt stat"

# LFE5U-85F-6BG381C (--85k) or LFE5U-25F-6BG381C (--25k): the CABGA381 package,
# speed grade 6 (the pins of rtl/fpga/ulx3s.lpf are the same on both).
$(OUT)/$(TOP).config: $(OUT)/$(TOP).json $(LPF)
	$(NEXTPNR) --$(DEVICE) --package CABGA381 --speed 6 --lpf $(LPF) --freq $(FREQ) --seed $(SEED) \
	  --json $< --textcfg $@ --report $(OUT)/nextpnr-report.json --log $(OUT)/nextpnr.log

$(OUT)/$(TOP).bit: $(OUT)/$(TOP).config
	$(ECPPACK) --compress $< $@

prog: $(OUT)/$(TOP).bit
	$(LOADER) --board ulx3s $<

flash: $(OUT)/$(TOP).bit
	$(LOADER) --board ulx3s --write-flash $<

clean:
	rm -rf $(OUT)

# The parameters this DEVICE builds the top with (scripts/fpga.sh's estimate reads them here).
params:
	@echo $(PARAMS)
