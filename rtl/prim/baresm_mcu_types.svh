// The control core's ports (rtl/mcu/baresm_mcu_core.sv, docs/mcu.md): its one
// memory bus (fetch and data), its stop status and its retire trace. All of
// fixed width: plain typedefs, ANSI ports (as the byte port of
// baresm_mem_types.svh).
//
// Bus: a request is offered with req.valid and taken in a cycle where
// req_ready_i is high; until then it is held unchanged. A read (we = 0) is
// answered by exactly one rsp.valid cycle, one or more cycles after the
// request was taken, with the whole word; a write (we = 1) has no response:
// it is done when taken. The core has at most one request outstanding and
// ignores rsp.valid when it waits for none.
`ifndef BARESM_MCU_TYPES_SVH
`define BARESM_MCU_TYPES_SVH

typedef struct packed {
  logic        valid;
  logic        we;     // 1: write the bytes of strb
  logic [29:0] addr;   // word address (byte address >> 2)
  logic [31:0] wdata;  // byte k of the word in wdata[8k +: 8]
  logic [3:0]  strb;   // write: byte enables; read: the bytes the load uses
} baresm_mcu_req_t;

typedef struct packed {
  logic        valid;
  logic [31:0] rdata;  // the word read
} baresm_mcu_rsp_t;

// The load or store that the bus request is, if it is one, with its address
// straight from the core's adder (req.addr passes the fetch's multiplexer,
// whose branch decision is the core's longest path): a bus that routes data
// accesses to I/O decodes this address, so that the branch decision does not
// reach the I/O registers (rtl/msm/baresm_msm.sv; the UP5K's 12 MHz).
typedef struct packed {
  logic        valid;  // req is this load or store (req.addr == addr then)
  logic [29:0] addr;   // word address
} baresm_mcu_ls_t;

// Loading the firmware RAM from outside (baresm_flash_loader: the iCEBreaker
// keeps the whole device's firmware in its SPI flash): while hold is set the
// core stays in reset and each we writes data to word addr of its RAM.
typedef struct packed {
  logic        hold;
  logic        we;
  logic [15:0] addr;   // word address
  logic [31:0] data;
} baresm_fw_load_t;

// Why the core stopped (status.cause). The C++ model (sim/mcu/rv32_iss.h,
// rv32::Cause) numbers them the same.
typedef enum logic [2:0] {
  MCU_RUNNING          = 3'd0,
  MCU_ECALL            = 3'd1,
  MCU_EBREAK           = 3'd2,
  MCU_ILLEGAL          = 3'd3,  // an encoding outside RV32I (or a CSR/xRET/WFI)
  MCU_FETCH_MISALIGNED = 3'd4,  // a jump or taken branch to an address not 4-aligned
  MCU_LOAD_MISALIGNED  = 3'd5,
  MCU_STORE_MISALIGNED = 3'd6
} baresm_mcu_cause_e;

typedef struct packed {
  logic        halted;  // stopped until reset
  logic [2:0]  cause;   // baresm_mcu_cause_e
  logic [31:0] pc;      // running: the instruction being executed; halted: the
                        // one that stopped the core (it did not retire)
  logic [31:0] insn;    // halted: that instruction's word
} baresm_mcu_status_t;

// One retired instruction, valid for one cycle (for tests and debug; nothing
// in it costs a flip-flop).
typedef struct packed {
  logic        valid;
  logic [31:0] pc;
  logic [31:0] insn;
  logic        rd_we;    // it wrote rd (rd != 0)
  logic [4:0]  rd;
  logic [31:0] rd_val;
  logic        st_we;    // it was a store: the bus write below
  logic [29:0] st_addr;  // word address
  logic [31:0] st_data;  // the bus's wdata (the bytes outside st_strb are don't-care)
  logic [3:0]  st_strb;
} baresm_mcu_trace_t;

`endif  // BARESM_MCU_TYPES_SVH
