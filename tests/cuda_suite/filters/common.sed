# Applied to the H200's and baresm's output alike before they are compared:
# only what names the device or measures time is blanked.
# polybench: "setting device 0 with name NVIDIA H200", timings "0.001234"
s/^(setting device [0-9]+ with name ).*/\1<device>/
s/^[0-9]+\.[0-9]{6}$/<time>/
# the path of the program in argv[0] (the CUDA samples print it)
s|/[^ ]*/bin/([A-Za-z0-9_]+)|bin/\1|g
