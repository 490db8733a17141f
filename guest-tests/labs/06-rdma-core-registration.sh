# lab-title: The kernel RDMA core: mlx5_ib registers mlx5_0, installs its ib_device_ops, and the MAD layer uses it with kernel verbs
# lab-part: 06
# lab-nodes: 1
# lab-program: this script (modprobe mlx5_ib)
# lab-device: mlx5_cmd_fields mlx5_cmd_err mlx5_cq_create mlx5_qp_create mlx5_qp_state mlx5_gid_set
# lab-layers: application kernel firmware
# lab-filter: all
# lab-order: 0:application:modprobe mlx5_ib > 0:kernel:mlx5r_probe > 0:kernel:ib_alloc_device|_ib_alloc_device > 0:kernel:__mlx5_ib_add > 0:kernel:ib_set_device_ops > 0:kernel:ib_register_device > 0:kernel:enable_device_and_get > 0:kernel:add_client_context > 0:kernel:ib_mad_init_device > 0:kernel:mlx5_ib_create_cq > 0:firmware:CREATE_CQ in: > 0:kernel:mlx5_ib_create_qp > 0:firmware:CREATE_QP in: > 0:firmware:mlx5_qp_create > 0:kernel:ib_modify_qp > 0:firmware:RST2INIT_QP in: > 0:kernel:mlx5_ib_post_recv > 0:application:registered
# lab-order: 0:kernel:ib_register_device > 0:kernel:ib_uverbs_add_one > 0:application:registered
# lab-read: Linux drivers/infiniband/hw/mlx5/main.c `mlx5r_probe` -> `__mlx5_ib_add`: the profile's stages, each installing its part of the `ib_device_ops` with `ib_set_device_ops` (`mlx5_ib_dev_ops`, `mlx5_ib_dev_xrc_ops`, ...), the last `mlx5_ib_stage_ib_reg_init` -> `ib_register_device`
# lab-read: Linux drivers/infiniband/core/device.c `ib_register_device` -> `enable_device_and_get` -> `add_client_context` for each registered client: the MAD layer (mad.c `ib_mad_init_device`), uverbs (uverbs_main.c `ib_uverbs_add_one`: /dev/infiniband/uverbs0), the CM, the SA, rdma_cm
# lab-read: Linux drivers/infiniband/core/mad.c `ib_mad_port_open` (a CQ with `ib_alloc_cq`, the QP1 with `ib_create_qp`), `ib_mad_port_start` (`ib_modify_qp` to RTS), `ib_mad_post_receive_mads` (`ib_post_recv`): a kernel consumer's verbs, dispatched through `ib_device_ops` to mlx5_ib with no uverbs in between
# lab-read: mlx5emu firmware-sim/qp.c (the QP1 the device makes for the GSI QP), hw-rdma/rq.c (its receive queue, read through the doorbell record)
#
# One guest.  The lab unloads mlx5_ib (mlx5_core stays) and loads it again while watching
# the RDMA core: mlx5_ib's probe allocates the ib_device, runs its stages
# (each installs part of the device's ib_device_ops with
# ib_set_device_ops, several send commands to the device), and registers
# it; ib_register_device then gives the new device to every client
# already registered with the core.  The MAD layer is the kernel consumer
# to watch: for port 1 it creates a CQ and the GSI QP (QP1) through the
# kernel verbs - the same ib_device_ops a user's verbs reach through
# uverbs - moves the QP to RTS and posts receive WQEs for MADs.  uverbs
# makes /dev/infiniband/uverbs0 for it.  Each driver step that needs the
# device is a command the device decodes.
. /mlx5emu/guest-tests/labs/lab-lib.sh

rmmod mlx5_ib || exit 1          # mlx5_ib alone: mlx5_core and its netdev stay
# mlx5_ib's functions are named for when it loads (func:mod:module is kept
# until then); ib_core's and the clients' are loaded already.
lab_watch ib_alloc_device _ib_alloc_device ib_set_device_ops ib_register_device \
    enable_device_and_get add_client_context ib_mad_init_device ib_uverbs_add_one \
    ib_modify_qp ib_create_qp_kernel __ib_alloc_cq \
    mlx5r_probe:mod:mlx5_ib __mlx5_ib_add:mod:mlx5_ib mlx5_ib_create_cq:mod:mlx5_ib \
    mlx5_ib_create_qp:mod:mlx5_ib mlx5_ib_post_recv:mod:mlx5_ib mlx5_ib_modify_qp:mod:mlx5_ib
lab_mark "modprobe mlx5_ib"
modprobe mlx5_ib
for _ in $(seq 100); do rdma link show mlx5_0/1 2>/dev/null | grep -q ACTIVE && break; sleep 0.1; done
lab_mark "mlx5_0 registered: $(rdma link show mlx5_0/1 2>/dev/null | head -1); $(ls /dev/infiniband | tr '\n' ' ')"
lab_done
rdma link show mlx5_0/1 | grep -q ACTIVE && [ -e /dev/infiniband/uverbs0 ] &&
    echo "PASS lab-registration: mlx5_0 registered again, port ACTIVE, uverbs0 there"
