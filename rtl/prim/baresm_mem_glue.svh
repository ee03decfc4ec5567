// The line port's struct <-> field-by-field glue (rtl/prim/baresm_mem_types.svh),
// written once. The verilated tops (baresm_sm, baresm_ssm, baresm_top) keep
// field-by-field ports for the C++ side and pack them here; the response's
// line data is the struct's lowest field (word-aligned), so Verilator copies
// it word by word instead of shifting it (docs/cosim.md, simulation speed).
//
//   `BARESM_MEM_REQ_TO_PORTS(s)       mem_req_*_o  <- request struct s
//   `BARESM_MEM_RSP_FROM_PORTS(s)     response struct s <- mem_rsp_*_i
//   `BARESM_MEM_REQ_FROM_NETS(s, p)   request struct s  <- p``valid, p``id, ...
//   `BARESM_MEM_RSP_TO_NETS(s, p)     p``valid, p``id, ... <- response struct s
//
// Continuous assignments member by member (Yosys then builds the same
// netlist as from field-by-field ports; docs/microarchitecture.md "Typed ports").
`ifndef BARESM_MEM_GLUE_SVH
`define BARESM_MEM_GLUE_SVH

`define BARESM_MEM_REQ_TO_PORTS(s) \
  assign mem_req_valid_o = s.valid; \
  assign mem_req_id_o = s.id; \
  assign mem_req_addr_o = s.addr; \
  assign mem_req_op_o = s.op; \
  assign mem_req_amo_o = s.amo; \
  assign mem_req_wdata_o = s.wdata; \
  assign mem_req_wstrb_o = s.wstrb;

`define BARESM_MEM_RSP_FROM_PORTS(s) \
  assign s.valid = mem_rsp_valid_i; \
  assign s.id = mem_rsp_id_i; \
  assign s.rdata = mem_rsp_rdata_i; \
  assign s.err = mem_rsp_err_i;

`define BARESM_MEM_REQ_FROM_NETS(s, p) \
  assign s.valid = p``valid; \
  assign s.id = p``id; \
  assign s.addr = p``addr; \
  assign s.op = p``op; \
  assign s.amo = p``amo; \
  assign s.wdata = p``wdata; \
  assign s.wstrb = p``wstrb;

`define BARESM_MEM_RSP_TO_NETS(s, p) \
  assign p``valid = s.valid; \
  assign p``id = s.id; \
  assign p``rdata = s.rdata; \
  assign p``err = s.err;

`endif  // BARESM_MEM_GLUE_SVH
