# lab-title: mlx5_core's probe as the command conversation it is, EQ set-up, and events travelling EQE -> MSI-X -> handler
# lab-part: 07
# lab-nodes: 1
# lab-program: this script (modprobe)
# lab-device: mlx5_cmd_exec mlx5_cmd_fields mlx5_cmd_err mlx5_cmd_eqe mlx5_eq_create mlx5_eqe mlx5_eq_interrupt mlx5_dev_msix mlx5_port_state
# lab-layers: application kernel firmware
# lab-order: 0:application:modprobe mlx5_core > 0:kernel:pci_device_probe > 0:kernel:probe_one > 0:firmware:ENABLE_HCA in: > 0:firmware:QUERY_HCA_CAP in: > 0:firmware:SET_HCA_CAP in: > 0:firmware:INIT_HCA in: > 0:firmware:CREATE_EQ in: > 0:firmware:mlx5_eq_create > 0:firmware:CREATE_CQ in: > 0:application:ip link set
# lab-order: 0:firmware:mlx5_eq_create .*events=0x400 > 0:firmware:mlx5_eqe eq=0x[0-9a-f]+ type=0xa > 0:firmware:mlx5_eq_interrupt > 0:kernel:mlx5_eq_async_int > 0:kernel:cmd_comp_notifier
# lab-order: 0:application:ip link set > 0:firmware:mlx5_port_state oper_up=1 > 0:firmware:mlx5_eqe eq=0x[0-9a-f]+ type=0x9 > 0:firmware:mlx5_eq_interrupt > 0:kernel:mlx5_eq_async_int > 0:application:carrier
# lab-read: Linux drivers/net/ethernet/mellanox/mlx5/core/main.c `probe_one` -> `mlx5_init_one` -> `mlx5_function_setup` (ENABLE_HCA, ISSI, pages, capabilities, INIT_HCA) and `mlx5_load` (EQs, then everything else)
# lab-read: Linux drivers/net/ethernet/mellanox/mlx5/core/cmd.c `mlx5_cmd_exec` -> `cmd_exec` (the command queue entry, mailboxes, the doorbell), `mlx5_cmd_use_events` and `cmd_comp_notifier` (completions as EQEs once the async EQ exists)
# lab-read: Linux drivers/net/ethernet/mellanox/mlx5/core/eq.c `create_async_eqs`, `mlx5_eq_async_int` (one handler for command completions, port changes, page requests...)
# lab-read: mlx5emu firmware-sim/cmdif.c (the command queue), cmd-table.c (one handler per opcode), eq.c (EQEs and their interrupt), port.c (PORT_CHANGE)
#
# One guest.  The lab unloads mlx5_ib and mlx5_core, then loads them again
# while watching: every command mlx5_core sends during its probe, decoded
# field by field (ENABLE_HCA, QUERY_HCA_CAP for each capability page,
# SET_HCA_CAP, MANAGE_PAGES, INIT_HCA, the EQs, the objects of the
# netdev...), the EQs being created, and from the moment the async EQ
# exists, each command completion arriving as an EQE (type 0x0a) with its
# MSI-X interrupt and mlx5_core's handlers.  Then `ip link set up`: the
# port goes up and the device says so with a PORT_CHANGE event (type
# 0x09) on the same EQ.
. /mlx5emu/guest-tests/labs/lab-lib.sh

modprobe -r mlx5_ib mlx5_core || exit 1
# mlx5_core's functions are named for when it loads (func:mod:module is
# kept until then); pci_device_probe keeps the filter from being empty -
# an empty one would trace every function of the kernel.
lab_watch pci_device_probe probe_one:mod:mlx5_core mlx5_cmd_exec:mod:mlx5_core \
    mlx5_eq_async_int:mod:mlx5_core cmd_comp_notifier:mod:mlx5_core irq_int_handler:mod:mlx5_core
lab_mark "modprobe mlx5_core mlx5_ib"
modprobe mlx5_core && modprobe mlx5_ib
for _ in $(seq 300); do [ -e /sys/class/net/"$DEV" ] && [ -e /sys/class/infiniband/mlx5_0 ] && break; sleep 0.1; done
lab_mark "ip link set $DEV up"
ip link set "$DEV" up
for _ in $(seq 100); do [ "$(cat /sys/class/net/"$DEV"/carrier 2>/dev/null)" = 1 ] && break; sleep 0.1; done
lab_mark "carrier $(cat /sys/class/net/"$DEV"/carrier 2>/dev/null)"
for _ in $(seq 100); do rdma link show mlx5_0/1 2>/dev/null | grep -q ACTIVE && break; sleep 0.1; done
lab_done
grep -q 1 /sys/class/net/"$DEV"/carrier && echo "PASS lab-probe: mlx5_core probed again, link up"
