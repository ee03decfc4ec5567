# GTKWave Tcl script (gtkwave -S): reads back what the viewer displays for
# every translated trace of the loaded layout, for tests/cosim's layout test
# (docs/cosim.md). Runs in GTKWave 3.3.118's Tcl (gtkwave::* commands).
#
# For each trace whose flags carry a translate filter (TR_FTRANSLATED 0x2000,
# a filter file; TR_PTRANSLATED 0x4000, a filter process) it adds the same
# signal again, untranslated, at the end of the trace list, then sets the
# marker at BARESM_PROBE_SAMPLES evenly spaced times and prints, per time
# and trace, one line:
#   probe <time> <flags> <name> |<displayed value>|<raw value>|
# and "probe-end <traces>" last; then it exits GTKWave. Output goes to
# BARESM_PROBE_OUT (stdout is not GTKWave's own under every launcher).
set out [open $::env(BARESM_PROBE_OUT) w]
set samples 200
if {[info exists ::env(BARESM_PROBE_SAMPLES)]} { set samples $::env(BARESM_PROBE_SAMPLES) }

set total [gtkwave::getTotalNumTraces]
set probed {}
set names {}
for {set i 0} {$i < $total} {incr i} {
  set flags [gtkwave::getTraceFlagsFromIndex $i]
  if {($flags & 0x6000) == 0} continue
  set name [gtkwave::getTraceNameFromIndex $i]
  lappend probed [list $i $flags $name]
  lappend names $name
}
puts $out "probe-traces $total [llength $probed]"
# The raw copies: appended in order after the layout's traces.
set added [gtkwave::addSignalsFromList $names]
gtkwave::nop
set total2 [gtkwave::getTotalNumTraces]
puts $out "probe-added $added $total2"

set t0 [gtkwave::getMinTime]
set t1 [gtkwave::getMaxTime]
for {set s 0} {$s < $samples} {incr s} {
  set t [expr {$t0 + ($t1 - $t0) * $s / $samples}]
  gtkwave::setMarker $t
  gtkwave::nop
  set k 0
  foreach p $probed {
    lassign $p i flags name
    set shown [gtkwave::getTraceValueAtMarkerFromIndex $i]
    set raw [gtkwave::getTraceValueAtMarkerFromIndex [expr {$total + $k}]]
    puts $out "probe $t $flags $name |$shown|$raw|"
    incr k
  }
}
puts $out "probe-end [llength $probed]"
close $out
exit 0
