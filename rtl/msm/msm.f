// The microprogrammed SM's RTL (docs/microarchitecture.md, "The choice
// revisited again"), in compilation order, after rtl/baresm.f's packages,
// RAM primitives and serial-SM blocks (baresm_ssm_alu, baresm_ssm_status)
// and the control core (rtl/mcu/mcu.f). A list of its own for the reason
// rtl/mcu/mcu.f gives: it is not part of the device's build yet.
rtl/msm/baresm_msm_io_pkg.sv
rtl/msm/baresm_msm_fwram.sv
rtl/msm/baresm_msm_lane.sv
rtl/msm/baresm_msm_lsu.sv
rtl/msm/baresm_msm_io.sv
rtl/msm/baresm_msm_launch_io.sv
rtl/msm/baresm_msm.sv
