## Pins and clock of baresm_arty_top on a Digilent Arty A7-100T (Rev. D/E,
## XC7A100T-1CSG324C). Written for this top from Digilent's published master
## constraints, Arty-A7-100-Master.xdc in the repository Digilent/digilent-xdc
## (the same pin for each board signal; the port names are this top's).
## Used by scripts/vivado-arty.tcl. UNTESTED: no Vivado and no board here
## (docs/fpga.md "Bigger boards").

## Configuration bank voltage (the Arty's banks 0/14/15 are at 3.3 V).
set_property CFGBVS VCCO [current_design]
set_property CONFIG_VOLTAGE 3.3 [current_design]

## 100 MHz oscillator, CLK100MHZ (IO_L12P_T1_MRCC_35).
set_property -dict {PACKAGE_PIN E3 IOSTANDARD LVCMOS33} [get_ports clk_i]
create_clock -name sys_clk -period 10.000 -waveform {0.000 5.000} [get_ports clk_i]

## The red RESET button, ck_rst (IO_L16P_T2_35): low when pressed.
set_property -dict {PACKAGE_PIN C2 IOSTANDARD LVCMOS33} [get_ports btn_ni]

## USB-UART (FT2232HQ channel B). Digilent names the nets from the FTDI's side:
## uart_txd_in (A9) is the host's TX, the FPGA's receive pin; uart_rxd_out
## (D10) the FPGA's transmit pin.
set_property -dict {PACKAGE_PIN A9  IOSTANDARD LVCMOS33} [get_ports uart_rx_i]
set_property -dict {PACKAGE_PIN D10 IOSTANDARD LVCMOS33} [get_ports uart_tx_o]

## Status LEDs (active high): LD4..LD7 are led[0..3] of the master file,
## LD0's green is led0_g.
set_property -dict {PACKAGE_PIN H5  IOSTANDARD LVCMOS33} [get_ports led_idle_o]
set_property -dict {PACKAGE_PIN J5  IOSTANDARD LVCMOS33} [get_ports led_busy_o]
set_property -dict {PACKAGE_PIN T9  IOSTANDARD LVCMOS33} [get_ports led_fault_o]
set_property -dict {PACKAGE_PIN T10 IOSTANDARD LVCMOS33} [get_ports led_error_o]
set_property -dict {PACKAGE_PIN F6  IOSTANDARD LVCMOS33} [get_ports led_act_o]

## The button, the UART and the LEDs are asynchronous to the clock: the
## button and the UART's RX go through two-flop synchronizers in RTL
## (baresm_fpga_link, baresm_uart_rx); the LEDs are slow. No I/O timing.
set_false_path -from [get_ports {btn_ni uart_rx_i}]
set_false_path -to [get_ports {uart_tx_o led_idle_o led_busy_o led_fault_o led_error_o led_act_o}]

## Bitstream: compressed, and the SPI flash in x4 mode for `write_cfgmem`
## (the Arty's 16 MB Quad-SPI flash).
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property CONFIG_MODE SPIx4 [current_design]
