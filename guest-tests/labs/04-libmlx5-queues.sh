# lab-title: libmlx5's queues: the WQEs in the send buffer, doorbell records, the UAR doorbell (and why not BlueFlame), CQEs in the CQ buffer
# lab-part: 04
# lab-nodes: 2
# lab-program: guest-tests/c/lab-verbs.c (queues)
# lab-device: mlx5_sq_doorbell mlx5_sq_blueflame mlx5_dbr_read mlx5_sq_wqe_fields mlx5_roce_fields mlx5_cqe_fields
# lab-layers: application libmlx5 datapath wire
# lab-order: 1:application:libmlx5's QP 0x > 1:application:SEND 64 bytes gathered > 1:libmlx5:mlx5_post_send > 1:datapath:mlx5_sq_doorbell > 1:datapath:mlx5_dbr_read .* 1 posted > 1:datapath:sq_wqe_fields.*SEND > wire:wire:Send Only > 0:datapath:mlx5_dbr_read > 0:datapath:cqe_fields.*RESP_SEND > 0:libmlx5:mlx5_poll_cq > 0:application:CQ buffer CQE 0
# lab-order: 1:application:BlueFlame buffers of 0 bytes > 1:application:SEND 32 bytes inline > 1:libmlx5:mlx5_post_send > 1:datapath:mlx5_sq_doorbell > 1:datapath:sq_wqe_fields.*inline\{byte_count=32 > 0:datapath:cqe_fields.*byte_cnt=32
# lab-order: 1:application:two RDMA_WRITEs in one call > 1:libmlx5:mlx5_post_send > 1:datapath:mlx5_sq_doorbell > 1:datapath:mlx5_dbr_read .* 2 posted > 1:datapath:sq_wqe_fields.*RDMA_WRITE > 1:datapath:sq_wqe_fields.*RDMA_WRITE > 1:datapath:cqe_fields.*RDMA_WRITE > 1:libmlx5:mlx5_poll_cq > 1:application:CQ buffer CQE 3
# lab-read: rdma-core providers/mlx5/verbs.c `mlx5_create_qp` -> `mlx5_calc_wq_size`, `mlx5_alloc_qp_buf` (the queue buffer: receive WQEs first, then the send queue's 64-byte basic blocks) and `mlx5_alloc_dbrec` (the doorbell record); mlx5.c `mlx5_init_context` (the UAR pages and their BlueFlame registers)
# lab-read: rdma-core providers/mlx5/qp.c `_mlx5_post_send` (control segment `mlx5_set_ctrl_seg`, remote address, data or inline segments), then `post_send_db`: the doorbell record, then either `mlx5_bf_copy` (one small WQE with inline data: the whole WQE through the BlueFlame register) or an 8-byte `mmio_write64_be` of the control segment's first bytes; `mlx5_post_recv` writes the receive WQEs and the doorbell record only
# lab-read: rdma-core providers/mlx5/cq.c `mlx5_poll_cq_v1` -> `mlx5_get_next_cqe` (the owner bit), `mlx5_parse_cqe`, `update_cons_index` (the CQ's doorbell record)
# lab-read: Linux drivers/net/ethernet/mellanox/mlx5/core/wc.c `mlx5_core_test_wc` (at the first process's context, mlx5_ib asks `mlx5_wc_support_get`): 255 NOP WQEs copied through a BlueFlame register, only the copies asking for a CQE; a CQE for the first says the device took the WQE from the copy
# lab-read: mlx5emu hw-rdma/queue.c (the doorbell record as the device reads it), device.c `uar_doorbell64` (doorbells, and BlueFlame copies, which only show in the trace), sq.c (fetching WQEs), hw-rdma/decode.c (the decoded fields)
#
# Two guests, one RC QP each (guest-tests/c/lab-verbs.c queues).  Each
# prints libmlx5's view of its QP and CQ (mlx5dv_init_obj): the queue
# buffer, the doorbell record, the doorbell register and its BlueFlame
# buffers, the CQ buffer and its doorbell record.  Node 0 posts two
# receives: libmlx5 writes two receive WQEs and moves the record's receive
# counter - no doorbell; its device reads the record when a SEND arrives.
# Node 1 posts three ways: a SEND gathered from its region (one WQE, the
# record, then 8 bytes to the doorbell register), a SEND of 32 inline
# bytes (the data inside the WQE), and two RDMA WRITEs in one
# ibv_post_send (two WQEs, one doorbell whose record says 2 posted).  Each
# WQE's control segment is printed as it lies in the send buffer and
# decoded by the device as it fetches it; each CQE is printed as it lies in
# the CQ buffer after libmlx5's poll consumed it, beside the device's
# decoding of the CQE it wrote.
# BlueFlame: libmlx5 would copy a small inline WQE whole through the
# register (`mlx5_bf_copy`) if mlx5_ib gave it BlueFlame buffers; it gives
# none (size 0) because mlx5_core's write-combining test failed on this
# device: the emulated device takes every WQE from the ring as soon as the
# doorbell's first 8 bytes arrive, so the test's copies, which alone ask
# for a CQE, are not what it executes ("Write combining is not supported"
# in the kernel log).  The copies still show in the device's trace
# (mlx5_sq_blueflame) wherever a driver makes them.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch
lab-verbs queues
rc=$?
lab_done
exit $rc
