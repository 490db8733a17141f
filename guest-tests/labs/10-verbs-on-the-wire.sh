# lab-title: Verbs on the wire: WRITE, READ, atomic and SEND, from the application to the peer's completion
# lab-part: 10
# lab-nodes: 2
# lab-program: guest-tests/c/lab-verbs.c
# lab-device: mlx5_sq_doorbell mlx5_sq_wqe_fields mlx5_roce_fields mlx5_cqe_fields mlx5_cq_arm mlx5_cq_event mlx5_eqe mlx5_eq_interrupt mlx5_dev_msix mlx5_eq_doorbell mlx5_rc_nak* mlx5_rc_retransmit
# lab-layers: application libibverbs libmlx5 kernel firmware datapath wire
# lab-order: 1:application:post_send RDMA_WRITE > 1:libmlx5:mlx5_post_send > 1:datapath:mlx5_sq_doorbell > 1:datapath:sq_wqe_fields.*RDMA_WRITE > wire:wire:RDMA Write Only > 0:datapath:rx BTH.opcode=RC_RDMA_WRITE_ONLY > 0:datapath:tx BTH.opcode=RC_ACKNOWLEDGE > 1:datapath:cqe_fields.*wqe_opcode=RDMA_WRITE > 1:libmlx5:mlx5_poll_cq
# lab-order: 1:application:post_send RDMA_READ > 1:datapath:sq_wqe_fields.*RDMA_READ > 1:datapath:tx BTH.opcode=RC_RDMA_READ_REQUEST > wire:wire:RDMA Read Request > 0:datapath:tx BTH.opcode=RC_RDMA_READ_RESPONSE_ONLY > wire:wire:RDMA Read Response Only > 1:datapath:cqe_fields.*wqe_opcode=RDMA_READ
# lab-order: 1:application:FETCH_AND_ADD > 1:datapath:tx .*AtomicETH > 0:datapath:tx BTH.opcode=RC_ATOMIC_ACKNOWLEDGE > 1:datapath:cqe_fields.*ATOMIC_FA
# lab-order: 1:application:post_send SEND > 1:datapath:tx BTH.opcode=RC_SEND_ONLY > 0:datapath:rx BTH.opcode=RC_SEND_ONLY > 0:datapath:cqe_fields.*RESP_SEND > 0:datapath:mlx5_cq_event > 0:firmware:mlx5_eqe > 0:firmware:mlx5_eq_interrupt > 0:kernel:mlx5_ib_cq_comp > 0:application:woken
# lab-order: 0:application:ibv_get_cq_event > 0:application:woken
# lab-read: rdma-core providers/mlx5/qp.c `_mlx5_post_send`: the control, remote-address and data segments of each WQE, then `post_send_db`: the doorbell record and the BlueFlame/UAR doorbell (the device's `mlx5_sq_doorbell`)
# lab-read: rdma-core providers/mlx5/cq.c `mlx5_poll_cq_v1` -> `mlx5_parse_cqe`: the CQE becomes a work completion; `mlx5_arm_cq`: the CQ armed for one completion event
# lab-read: Linux drivers/net/ethernet/mellanox/mlx5/core/eq.c `mlx5_eq_comp_int`, drivers/infiniband/hw/mlx5/cq.c `mlx5_ib_cq_comp`, drivers/infiniband/core/uverbs_main.c `ib_uverbs_comp_handler`: the completion event's way to the sleeping application
# lab-read: mlx5emu hw-rdma/rc-requester.c (WQE to packets), rc-responder.c (packets to memory, ACKs, READ responses), rc-completer.c (ACKs to CQEs), hw-rdma/decode.c (the decoded fields)
#
# Two guests, one RC QP each (guest-tests/c/lab-verbs.c).  Node 1 posts
# an RDMA WRITE, an RDMA READ, an atomic FETCH_AND_ADD and a SEND to node 0
# and polls for each completion; node 0 posts a receive and sleeps in
# ibv_get_cq_event until the SEND's completion event wakes it.  Watch
# libmlx5 build each WQE (the device decodes it as it fetches it: control,
# remote-address, atomic and data segments), the doorbell, the packets on
# the wire with their BTH, RETH, AETH and AtomicETH, the responder's ACK,
# READ response and atomic response, and each CQE; on node 0, the CQE, the
# EQE and the MSI-X interrupt, then the kernel's part of the data path:
# mlx5_core's EQ handler, mlx5_ib's CQ handler and uverbs' completion
# channel, which wakes the application.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch irq_int_handler mlx5_eq_comp_int mlx5_ib_cq_comp ib_uverbs_comp_handler \
    ib_uverbs_comp_event_read
lab_event irq/irq_handler_entry
echo 'name ~ "mlx5_comp*"' >$T/events/irq/irq_handler_entry/filter
lab-verbs
rc=$?
lab_done
exit $rc
