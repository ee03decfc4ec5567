/* The microprogrammed SM's I/O registers (contract/msm_io.def) as addresses
   of the control core's bus: IO_<NAME>. */
#ifndef BARESM_MSM_IO_H
#define BARESM_MSM_IO_H

#include <stdint.h>

#define MSM_IO_BASE 0x10000u

enum {
#define MSM_IO(name, offset, access, desc) IO_##name = MSM_IO_BASE + (offset),
#include "contract/msm_io.def"
#undef MSM_IO
};

#define REG(a) (*(volatile uint32_t*)(uintptr_t)(a))

#endif
