// The verilated baresm_top (Vbaresm_top, an sc_module) is this library's
// generated code; this file only records which configuration it is.
#include "Vbaresm_top.h"

namespace baresm::cosim {

const char* top_configuration() {
#define BARESM_STR2(x) #x
#define BARESM_STR(x) BARESM_STR2(x)
  return "NumLanes=" BARESM_STR(BARESM_TOP_NumLanes) " NumWarps=" BARESM_STR(BARESM_TOP_NumWarps)
      " CtaSlots=" BARESM_STR(BARESM_TOP_CtaSlots) " SharedBytes=" BARESM_STR(BARESM_TOP_SharedBytes)
      " MemLineBytes=" BARESM_STR(BARESM_TOP_MemLineBytes) " NumQueues=" BARESM_STR(BARESM_TOP_NumQueues)
      " MemBytes=" BARESM_STR(BARESM_TOP_MemBytes) " NumWindows=" BARESM_STR(BARESM_TOP_NumWindows);
#undef BARESM_STR
#undef BARESM_STR2
}

}  // namespace baresm::cosim
