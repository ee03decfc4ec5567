/* The SM alone (the microprogrammed SM, rtl/msm, and its host model,
   sim/fwsm): each launch offered on the launch port runs, and its end is
   reported there. The whole device (fw/dev) calls fwsm_run itself. */
#include "fw/sm/fwsm_hal.h"

void fwsm_main(void) {
  fw_launch_t l;
  fw_fault_t f;
  for (;;) {
    hal_wait_launch(&l);
    hal_done(fwsm_run(&l, &f) == FWSM_REFUSED, &f);
  }
}
