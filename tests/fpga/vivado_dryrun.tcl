# ctest fpga_vivado_tcl_dryrun: scripts/vivado-arty.tcl under plain tclsh,
# with every Vivado command replaced by a stub that records its call. Not
# Vivado (none here): it checks the script's Tcl, its reading of
# rtl/baresm.f (every file exists, the board top is read, the include
# directories), the order of the flow, the options of its key commands,
# and that a negative slack stops it before write_bitstream.
#   tclsh tests/fpga/vivado_dryrun.tcl OUT_DIR [SLACK]
set calls {}
proc stub {name} {
  proc $name {args} [format {lappend ::calls [list %s {*}$args]; return ""} $name]
}
foreach c {read_verilog read_xdc synth_design write_checkpoint report_utilization
           report_timing_summary opt_design place_design phys_opt_design route_design
           report_drc write_bitstream write_cfgmem} { stub $c }
set slack [expr {[llength $argv] > 1 ? [lindex $argv 1] : 1.5}]
proc get_timing_paths {args} { return path0 }
proc get_property {prop obj} { return $::slack }
set exit_code 0
rename exit real_exit
proc exit {{code 0}} { set ::exit_code $code; return -code return }

set argv [list [lindex $argv 0]]
set argc 1
# The script returns from `source` where it would exit.
source [file join [file dirname [info script]] .. .. scripts vivado-arty.tcl]

set fail 0
proc check {cond what} {
  if {![uplevel 1 [list expr $cond]]} { puts "FAIL $what"; set ::fail 1 } else { puts "ok   $what" }
}
set names [lmap c $calls {lindex $c 0}]
set rv [lsearch -inline -index 0 $calls read_verilog]
set files [lindex $rv end]
check {[lindex $rv 1] eq "-sv"} "read_verilog -sv"
check {[llength $files] > 40} "read_verilog gets the [llength $files] files of rtl/baresm.f"
set missing [lmap f $files {expr {[file exists $f] ? [continue] : $f}}]
check {[llength $missing] == 0} "every file exists ($missing)"
check {[lsearch $files *rtl/fpga/baresm_arty_top.sv] >= 0} "the board top is read"
check {[lsearch -exact $names read_xdc] >= 0 && [string match *rtl/fpga/arty_a7.xdc [lindex [lsearch -inline -index 0 $calls read_xdc] 1]]} "read_xdc rtl/fpga/arty_a7.xdc"
set sd [lsearch -inline -index 0 $calls synth_design]
foreach {opt want} {-top baresm_arty_top -part xc7a100tcsg324-1 -verilog_define SYNTHESIS=1} {
  set i [lsearch -exact $sd $opt]
  check {$i >= 0 && [lindex $sd [expr {$i + 1}]] eq $want} "synth_design $opt $want"
}
set inc [lindex $sd [expr {[lsearch -exact $sd -include_dirs] + 1}]]
check {[lsearch $inc */rtl/prim] >= 0} "include directory rtl/prim"
set order {synth_design opt_design place_design phys_opt_design route_design}
set pos [lmap c $order {lsearch -exact $names $c}]
check {[lsort -integer $pos] eq $pos && [lsearch $pos -1] < 0} "flow order: $order"
if {$slack >= 0} {
  check {[lsearch -exact $names write_bitstream] > [lsearch -exact $names route_design]} "write_bitstream after routing"
  check {[lsearch -exact $names write_cfgmem] >= 0} "write_cfgmem (.mcs for the flash)"
  check {$exit_code == 0} "no error exit"
} else {
  check {[lsearch -exact $names write_bitstream] < 0} "a negative slack ($slack ns) writes no bitstream"
  check {$exit_code == 1} "and exits 1"
}
if {$fail} { puts "FAIL"; real_exit 1 }
puts "PASS"
real_exit 0
