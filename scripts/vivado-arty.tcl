# scripts/vivado-arty.tcl: the Arty A7-100T bitstream with Vivado in
# non-project mode (docs/fpga.md "Bigger boards"). UNTESTED: Vivado is not
# on the project's machines; this script has never been run. Report what
# fails (with the Vivado version) in the project's issues.
#
#   vivado -mode batch -source scripts/vivado-arty.tcl [-tclargs OUT_DIR [ALLOW_TIMING_FAIL]]
#
# From the repository root or anywhere: paths are taken from this file's
# place. Reads every RTL file of rtl/baresm.f (the one ordered list; Vivado
# elaborates only what baresm_arty_top instantiates), rtl/fpga/arty_a7.xdc,
# then synth_design -> opt_design -> place_design -> phys_opt_design ->
# route_design, with the utilization and timing reports after synthesis and
# after routing, and write_bitstream. Outputs in OUT_DIR (default
# build/fpga/arty-vivado): baresm_arty.bit, baresm_arty.mcs (for the Quad-SPI
# flash), post_synth.dcp, post_route.dcp, *_utilization.rpt, *_timing.rpt,
# drc.rpt. Stops with an error when the routed design misses the 100 MHz
# clock (worst setup or hold slack below 0), unless ALLOW_TIMING_FAIL is 1.
#
# Parameters: edit the `generics` list below (synth_design -generic), e.g.
# Baud=3000000 or MemBytes=131072; ClockKhz must stay the frequency of the
# clock that reaches clk_i (100000 for the board's oscillator).

set root [file normalize [file join [file dirname [info script]] ..]]
set out $root/build/fpga/arty-vivado
set allow_timing_fail 0
if {[llength $argv] > 0} { set out [file normalize [lindex $argv 0]] }
if {[llength $argv] > 1} { set allow_timing_fail [lindex $argv 1] }
set part xc7a100tcsg324-1
set top baresm_arty_top
set generics {}
file mkdir $out

# ---- sources: rtl/baresm.f ---------------------------------------------------------
# Each line is a path relative to the repository root, `+incdir+DIR`, a
# comment (//) or empty.
set incdirs [list $root/rtl/prim $root/rtl/sm]
set sources {}
set fh [open $root/rtl/baresm.f r]
while {[gets $fh line] >= 0} {
  regsub {//.*$} $line {} line
  set line [string trim $line]
  if {$line eq ""} { continue }
  if {[string match {+incdir+*} $line]} {
    lappend incdirs $root/[string range $line 8 end]
    continue
  }
  lappend sources $root/$line
}
close $fh
puts "vivado-arty: [llength $sources] files from rtl/baresm.f, top $top, part $part"
read_verilog -sv $sources
read_xdc $root/rtl/fpga/arty_a7.xdc

# ---- synthesis ---------------------------------------------------------------------
set synth_args [list -top $top -part $part -include_dirs [lsort -unique $incdirs] \
                  -verilog_define SYNTHESIS=1 -flatten_hierarchy rebuilt]
foreach g $generics { lappend synth_args -generic $g }
synth_design {*}$synth_args
write_checkpoint -force $out/post_synth.dcp
report_utilization -file $out/post_synth_utilization.rpt
report_timing_summary -file $out/post_synth_timing.rpt

# ---- implementation -------------------------------------------------------------------
opt_design
place_design
phys_opt_design
route_design
write_checkpoint -force $out/post_route.dcp
report_utilization -file $out/post_route_utilization.rpt
report_utilization -hierarchical -file $out/post_route_utilization_hier.rpt
report_timing_summary -max_paths 10 -file $out/post_route_timing.rpt
report_drc -file $out/drc.rpt

# ---- timing check ---------------------------------------------------------------------
set setup_path [get_timing_paths -delay_type max -max_paths 1 -nworst 1]
set hold_path [get_timing_paths -delay_type min -max_paths 1 -nworst 1]
set wns [expr {[llength $setup_path] ? [get_property SLACK $setup_path] : 0.0}]
set whs [expr {[llength $hold_path] ? [get_property SLACK $hold_path] : 0.0}]
puts "vivado-arty: worst setup slack $wns ns, worst hold slack $whs ns (clock period 10.000 ns)"
if {$wns < 0 || $whs < 0} {
  set msg "vivado-arty: the design misses timing at 100 MHz (WNS $wns ns, WHS $whs ns): see $out/post_route_timing.rpt"
  if {!$allow_timing_fail} {
    puts "$msg; no bitstream (pass ALLOW_TIMING_FAIL=1 as the second -tclargs to write one anyway, or clock the top from an MMCM and set ClockKhz)"
    exit 1
  }
  puts "$msg; writing the bitstream anyway (ALLOW_TIMING_FAIL)"
}

# ---- bitstream and flash image ------------------------------------------------------------
write_bitstream -force $out/baresm_arty.bit
# The Arty A7's configuration flash: 16 MB Quad-SPI (write_cfgmem's SPIx4).
write_cfgmem -force -format mcs -size 16 -interface SPIx4 \
  -loadbit "up 0x0 $out/baresm_arty.bit" -file $out/baresm_arty.mcs
puts "vivado-arty: $out/baresm_arty.bit and $out/baresm_arty.mcs"
