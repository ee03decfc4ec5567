// The register map moved to the device contract (cq_model/regs.h, with
// cq_model/regmap.def): the functional model implements it and needs no
// driver. This forwarder keeps programs that include the old path building.
#pragma once
#include "cq_model/regs.h"
