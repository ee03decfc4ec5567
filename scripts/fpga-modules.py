#!/usr/bin/env python3
# The per-module counts of one flattened synth_ice40 run (scripts/fpga.sh):
# SB_LUT4, flip-flops and SB_CARRY per instance path, read from the same
# JSON that nextpnr places. Yosys flattens the design, so a cell is counted
# to the module whose named net it drives (its output: a LUT's O, a flip-flop's
# Q, a carry's CO); a LUT that computes a block's input from a net named
# there (a port of a RAM, for example) counts to that block.
#   scripts/fpga-modules.py TOP.json
import collections
import json
import sys

design = json.load(open(sys.argv[1]))
top = next(v for v in design["modules"].values() if v.get("attributes", {}).get("top"))


def better(new, old):
    """A readable name beats a $-name; then the shorter one."""
    if old is None:
        return True
    if old.startswith("$") != new.startswith("$"):
        return old.startswith("$")
    return len(new) < len(old)


names = {}
for name, net in top["netnames"].items():
    for bit in net["bits"]:
        if isinstance(bit, int) and better(name, names.get(bit)):
            names[bit] = name

OUT = {"SB_LUT4": "O", "SB_CARRY": "CO"}
counts = collections.defaultdict(collections.Counter)
for cell in top["cells"].values():
    kind = "FF" if cell["type"].startswith("SB_DFF") else cell["type"]
    port = "Q" if kind == "FF" else OUT.get(kind)
    if not port:
        continue
    net = next((names[b] for b in cell["connections"].get(port, []) if isinstance(b, int) and b in names), "$")
    if net.startswith("$"):
        path = "(unnamed)"
    else:
        parts = net.lstrip("\\").split(".")[:-1]
        path = ".".join(p for p in parts if p.startswith(("u_", "g_"))) or "(top)"
    counts[path][kind] += 1

total = collections.Counter()
print(f"{'module (instance path)':64s} {'SB_LUT4':>8s} {'FF':>6s} {'SB_CARRY':>8s}")
for path in sorted(counts, key=lambda p: (-counts[p]["SB_LUT4"], p)):
    c = counts[path]
    total.update(c)
    print(f"{path:64s} {c['SB_LUT4']:8d} {c['FF']:6d} {c['SB_CARRY']:8d}")
print(f"{'total':64s} {total['SB_LUT4']:8d} {total['FF']:6d} {total['SB_CARRY']:8d}")
