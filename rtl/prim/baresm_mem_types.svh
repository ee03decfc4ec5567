// The memory ports' types (docs/lsu.md "Memory port"): one packed struct per
// direction of a port, the valid bit and its payload; the ready bits stay
// single ports beside them (mem_req_ready_i, mem_rsp_ready_o), so that no
// struct carries a bit that depends combinationally on another bit of the
// same struct (which Verilator would report as UNOPTFLAT).
//
// Three kinds of port:
//
// - The line port: the SM's global-memory port (baresm_lsu, baresm_mem_arb,
//   baresm_sm, baresm_ssm_seq) and the device's memory port (baresm_cp_memarb,
//   baresm_top, baresm_fpga_mem), which has one more id bit. Line READ /
//   WRITE (wstrb) and 32-bit ATOMIC (amo), ids, responses in any order.
// - The single-master port: one request in flight, no ids, no atomics: the
//   command processor's engine (baresm_cp) and the SM's instruction fetch,
//   source A of baresm_mem_arb.
// - The byte port: the UART bridge's one byte per request (baresm_uart_bridge,
//   baresm_fpga_link, baresm_fpga_mem's bridge port).
//
// The line and single-master ports are as wide as their module's parameters
// (LineBytes, id bits), and a typedef in a header cannot take a module's
// parameters. So the header gives each struct's body as a macro of those
// widths, and a module names its types in its own scope:
//
//   typedef `BARESM_MEM_REQ_T(MemIdWidth, MemLineBytes) mem_req_t;
//
// A port of such a type must be declared after the typedef, in the module
// body: those modules list their ports by name in the header (non-ANSI
// style), the one form that Yosys 0.23, Verilator 5.006 and Icarus 11 all
// take (Yosys does not parse an anonymous `struct packed` in an ANSI port
// list). Packed structs of the same width connect to each other as vectors.
// The byte port is of fixed width: plain typedefs, ANSI ports.
`ifndef BARESM_MEM_TYPES_SVH
`define BARESM_MEM_TYPES_SVH

// Line port, request: op 0 READ (addr line-aligned), 1 WRITE (line-aligned,
// the bytes whose wstrb bit is set), 2 ATOMIC (addr 4-byte aligned; amo =
// ATOM mod[4:0], b = wdata[31:0], c = wdata[63:32]).
`define BARESM_MEM_REQ_T(IdW, LineBytes) \
  struct packed { \
    logic                     valid; \
    logic [(IdW)-1:0]         id; \
    logic [31:0]              addr; \
    logic [1:0]               op; \
    logic [4:0]               amo; \
    logic [(LineBytes)*8-1:0] wdata; \
    logic [(LineBytes)-1:0]   wstrb; \
  }

// Line port, response: the request's id; rdata the line (READ) or the old
// value in [31:0] (ATOMIC); err: the request failed (bus/ECC error, an
// address outside memory): no data, no effect. rdata is the lowest field, so
// that it starts on a 32-bit word: Verilator copies it between the structs
// (and the verilated tops' field-by-field ports) word by word instead of
// shifting every word by one bit (docs/cosim.md, simulation speed).
`define BARESM_MEM_RSP_T(IdW, LineBytes) \
  struct packed { \
    logic                     valid; \
    logic [(IdW)-1:0]         id; \
    logic                     err; \
    logic [(LineBytes)*8-1:0] rdata; \
  }

// Single-master port, request: op 0 READ, 1 WRITE, as on the line port.
`define BARESM_MEM1_REQ_T(LineBytes) \
  struct packed { \
    logic                     valid; \
    logic [31:0]              addr; \
    logic [1:0]               op; \
    logic [(LineBytes)*8-1:0] wdata; \
    logic [(LineBytes)-1:0]   wstrb; \
  }

// Single-master port, response.
`define BARESM_MEM1_RSP_T(LineBytes) \
  struct packed { \
    logic                     valid; \
    logic                     err; \
    logic [(LineBytes)*8-1:0] rdata; \
  }

// Byte port, request: one byte read or written.
typedef struct packed {
  logic        valid;
  logic        write;
  logic [31:0] addr;
  logic [7:0]  wdata;
} baresm_byte_req_t;

// Byte port, response: the byte read, or the write's acknowledgement.
typedef struct packed {
  logic       valid;
  logic [7:0] rdata;
} baresm_byte_rsp_t;

`endif  // BARESM_MEM_TYPES_SVH
