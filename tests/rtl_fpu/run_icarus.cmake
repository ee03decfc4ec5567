# ctest driver for the Icarus run of baresm_fpu: generate vectors, compile,
# simulate, require PASS. Variables: GEN IVERILOG VVP SOURCES (|-separated)
# INCDIR (rtl/prim, the assertion header) LATENCY COUNT SEED WORK.
string(REPLACE "|" ";" srcs "${SOURCES}")
file(MAKE_DIRECTORY ${WORK})
set(vec ${WORK}/fpu_vectors_l${LATENCY}.hex)
set(sim ${WORK}/tb_fpu_icarus_l${LATENCY}.vvp)
execute_process(COMMAND ${GEN} ${COUNT} ${SEED} ${vec} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "fpu_vectors failed: ${rc}")
endif()
execute_process(COMMAND ${IVERILOG} -g2012 -I${INCDIR} -P tb_fpu_icarus.Latency=${LATENCY} -s tb_fpu_icarus
                        -o ${sim} ${srcs}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "iverilog failed:\n${err}")
endif()
execute_process(COMMAND ${VVP} -n ${sim} +vectors=${vec} +n=${COUNT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(rc OR NOT out MATCHES "PASS")
  message(FATAL_ERROR "Icarus run failed (${rc}):\n${out}\n${err}")
endif()
