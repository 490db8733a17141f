# lab-title: A QP's life: RESET -> INIT -> RTR -> RTS, each MODIFY_QP decoded, and an error that takes it to ERR
# lab-part: 09
# lab-nodes: 2
# lab-program: guest-tests/c/lab-verbs.c (qp-error)
# lab-device: mlx5_cmd_fields mlx5_qp_state mlx5_sq_doorbell mlx5_sq_wqe_fields mlx5_roce_fields mlx5_rc_resp_err mlx5_rc_nak* mlx5_rc_fail mlx5_cqe_fields mlx5_qp_flush mlx5_sq_flush
# lab-layers: application libibverbs kernel firmware datapath wire
# lab-order: 1:application:RESET -. INIT > 1:libibverbs:ibv_modify_qp > 1:kernel:mlx5_ib_modify_qp > 1:firmware:RST2INIT_QP in: > 1:firmware:mlx5_qp_state .* 0 -> 1 > 1:firmware:INIT2RTR_QP in: > 1:firmware:mlx5_qp_state .* 1 -> 2 > 1:firmware:RTR2RTS_QP in: > 1:firmware:mlx5_qp_state .* 2 -> 3 > 1:application:connected
# lab-order: 1:application:wrong rkey > 1:datapath:sq_wqe_fields.*RDMA_WRITE > 1:datapath:tx BTH.opcode=RC_RDMA_WRITE_ONLY > 0:datapath:rc_resp_err > 0:datapath:tx .*NAK_REMOTE_ACCESS_ERROR > 1:datapath:rx .*NAK_REMOTE_ACCESS_ERROR > 1:datapath:cqe_fields.*REMOTE_ACCESS_ERR > 1:datapath:cqe_fields.*WR_FLUSH_ERR > 1:application:flushed
# lab-read: Linux drivers/infiniband/hw/mlx5/qp.c `mlx5_ib_modify_qp` -> `__mlx5_ib_modify_qp`: the verbs attributes become a qpc (`to_mlx5_st`, `mlx5_set_path` for the address path), the transition's opcode from `optab`
# lab-read: Linux drivers/infiniband/hw/mlx5/qpc.c `mlx5_core_qp_modify` -> `modify_qp_mbox_alloc`: the RST2INIT_QP / INIT2RTR_QP / RTR2RTS_QP command mailboxes
# lab-read: mlx5emu firmware-sim/qp.c (the transitions and what each may change), hw-rdma/rc-responder.c (the responder's checks, each an IBA error class), hw-rdma/rc-completer.c (a NAK fails the WQE; the QP goes to ERR and flushes)
#
# Two guests connect one RC QP each.  Watch ibv_modify_qp go down through
# uverbs and mlx5_ib to the firmware three times: each transition is one
# command (RST2INIT_QP, INIT2RTR_QP, RTR2RTS_QP) whose input the device
# decodes field by field - the qpc, its primary address path (the peer's
# GID and MAC, the UDP source port), PSNs, the RDMA read and atomic depths -
# and one state change.  Then node 1 posts an RDMA WRITE with an rkey that
# is not node 0's region's, and a good WRITE after it: node 0's responder
# refuses the first (remote access, IBA class D) with a NAK, node 1's QP
# goes to ERR, the bad WRITE completes REMOTE_ACCESS_ERR and the good one
# completes flushed (WR_FLUSH_ERR) although it went out: the QP failed
# before its ACK came.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch ib_uverbs_modify_qp _ib_modify_qp mlx5_ib_modify_qp mlx5_core_qp_modify mlx5_cmd_exec
lab-verbs qp-error
rc=$?
lab_done
exit $rc
