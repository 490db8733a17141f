# lab-title: The layers: one control verb down to a firmware command, one data verb past the kernel, one completion event back up
# lab-part: 02
# lab-nodes: 2
# lab-program: guest-tests/c/lab-verbs.c
# lab-device: mlx5_cmd_fields mlx5_cq_create mlx5_sq_doorbell mlx5_roce_fields mlx5_cqe_fields mlx5_cq_event mlx5_eqe mlx5_eq_interrupt mlx5_dev_msix
# lab-layers: application libibverbs libmlx5 kernel firmware datapath wire
# lab-filter: all
# lab-order: 1:application:ibv_create_cq > 1:libibverbs:ibv_create_cq > 1:kernel:ib_uverbs_ioctl > 1:kernel:UVERBS_METHOD_CQ_CREATE > 1:kernel:mlx5_ib_create\w*cq > 1:kernel:mlx5_core_create_cq > 1:firmware:CREATE_CQ in: > 1:firmware:mlx5_cq_create > 1:firmware:CREATE_CQ out: .*cqn= > 1:application:got CQ handle
# lab-order: 1:application:post_send RDMA_WRITE > 1:libmlx5:mlx5_post_send > 1:datapath:mlx5_sq_doorbell > 1:datapath:tx BTH.opcode=RC_RDMA_WRITE_ONLY > wire:wire:RDMA Write Only > 0:datapath:rx BTH.opcode=RC_RDMA_WRITE_ONLY > 0:datapath:tx BTH.opcode=RC_ACKNOWLEDGE > 1:datapath:cqe_fields.*wqe_opcode=RDMA_WRITE > 1:libmlx5:mlx5_poll_cq > 1:application:RDMA_WRITE completed
# lab-order: 0:application:ibv_get_cq_event > 0:datapath:rx BTH.opcode=RC_SEND_ONLY > 0:datapath:cqe_fields.*RESP_SEND > 0:datapath:mlx5_cq_event > 0:firmware:mlx5_eqe > 0:firmware:mlx5_eq_interrupt > 0:kernel:mlx5_eq_comp_int > 0:kernel:mlx5_ib_cq_comp > 0:kernel:ib_uverbs_comp_handler > 0:application:woken
# lab-read: rdma-core libibverbs/verbs.c `ibv_create_cq` -> the provider's `mlx5_create_cq` (providers/mlx5/verbs.c) -> libibverbs/cmd_cq.c `ibv_icmd_create_cq`: the ioctl that carries it into the kernel
# lab-read: Linux drivers/infiniband/core/uverbs_main.c `ib_uverbs_ioctl` -> uverbs_ioctl.c `ib_uverbs_cmd_verbs` -> uverbs_std_types_cq.c `UVERBS_HANDLER(UVERBS_METHOD_CQ_CREATE)` -> the driver's `create_cq` op: drivers/infiniband/hw/mlx5/cq.c, drivers/net/ethernet/mellanox/mlx5/core/cq.c `mlx5_core_create_cq` -> cmd.c (the command queue)
# lab-read: rdma-core providers/mlx5/qp.c `mlx5_post_send` and cq.c `mlx5_poll_cq_v1`: the data path is a function call into libmlx5, memory writes and one MMIO doorbell; the kernel is not on it
# lab-read: Linux drivers/net/ethernet/mellanox/mlx5/core/eq.c `mlx5_eq_comp_int` -> drivers/infiniband/hw/mlx5/cq.c `mlx5_ib_cq_comp` -> drivers/infiniband/core/uverbs_main.c `ib_uverbs_comp_handler`: the event path, through the kernel because a sleeping process must be woken
#
# Two guests, one RC QP each (guest-tests/c/lab-verbs.c).  Watch the three
# ways through the stack the series' part 02 separates.  The control path:
# ibv_create_cq goes from the application through libibverbs and libmlx5
# into the kernel (an ioctl on /dev/infiniband/uverbs0), through uverbs'
# method handler to mlx5_ib and mlx5_core, which sends CREATE_CQ to the
# device's firmware on its command queue; the CQ number comes back up the
# same way.  The data path: node 1's RDMA WRITE is a call into libmlx5,
# which writes a WQE and rings a doorbell - no kernel function runs
# between the application's post and its poll - the device sends the
# packet, node 0's device writes the memory and acknowledges, node 1's
# device writes a CQE, which libmlx5's poll reads.  The event path: node
# 0 sleeps in ibv_get_cq_event; the SEND's CQE makes the device raise an
# EQE and an MSI-X interrupt, and mlx5_core's, mlx5_ib's and uverbs'
# handlers wake the application.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch ib_uverbs_ioctl '*UVERBS_METHOD_CQ_CREATE' 'mlx5_ib_create*cq' mlx5_core_create_cq \
    irq_int_handler mlx5_eq_comp_int mlx5_ib_cq_comp ib_uverbs_comp_handler
lab-verbs
rc=$?
lab_done
exit $rc
