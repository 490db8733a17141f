# lab-title: Each verbs object at every layer: the application's handle, uverbs, mlx5_ib, the device's number
# lab-part: 03
# lab-nodes: 2
# lab-program: guest-tests/c/lab-verbs.c (objects)
# lab-device: mlx5_cmd_fields mlx5_cmd_err mlx5_qp_create mlx5_cq_create mlx5_mkey_create mlx5_umr mlx5_qp_state
# lab-layers: application libibverbs kernel firmware
# lab-filter: all
# lab-order: 1:application:ibv_open_device > 1:libibverbs:ibv_alloc_pd > 1:kernel:ib_uverbs_alloc_pd > 1:kernel:mlx5_ib_alloc_pd > 1:firmware:ALLOC_PD out: .*pd= > 1:application:PD handle > 1:application:ibv_reg_mr > 1:libibverbs:ibv_reg_mr > 1:kernel:mlx5_ib_reg_user_mr > 1:application:MR handle > 1:application:ibv_create_cq > 1:kernel:mlx5_ib_create\w*cq > 1:firmware:CREATE_CQ out: cqn= > 1:kernel:mlx5_ib_create_qp > 1:firmware:CREATE_QP out: qpn= > 1:application:QP handle
# lab-read: rdma-core libibverbs/cmd_pd.c, cmd_mr.c, cmd_cq.c, cmd_qp.c: each verb a uverbs command (write or ioctl) whose answer carries the object's handle
# lab-read: Linux drivers/infiniband/core/uverbs_cmd.c `ib_uverbs_alloc_pd`, `ib_uverbs_reg_mr`; uverbs_std_types_cq.c, uverbs_std_types_qp.c (the ioctl methods): the uobject and its handle
# lab-read: Linux drivers/infiniband/hw/mlx5/main.c `mlx5_ib_alloc_pd` (ALLOC_PD), mr.c `mlx5_ib_reg_user_mr` (an mkey from the cache, its pages by UMR), cq.c `mlx5_ib_create_user_cq` (7.x; `mlx5_ib_create_cq` before, and for the kernel's CQs: CREATE_CQ), qp.c `mlx5_ib_create_qp` (CREATE_QP)
# lab-read: mlx5emu firmware-sim/objects.c (the numbers the device hands out), hw-rdma/umr.c
#
# Two guests make the objects of an RC connection - a context, a PD, a
# 4 KiB MR, a CQ and a QP - and connect the QPs.  For each object watch
# the application's call and what it gets back (the handle libibverbs
# keeps, the MR's keys, the QP number), the uverbs command that carried it
# into the kernel, mlx5_ib's verb, and the command that made it in the
# device, whose output is the device's number for it: ALLOC_PD's pd,
# CREATE_CQ's cqn, CREATE_QP's qpn; the MR becomes a key of mlx5_ib's
# cache, its pages written by a UMR WQE.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch ib_uverbs_alloc_pd ib_uverbs_reg_mr '*UVERBS_METHOD_CQ_CREATE' \
    '*UVERBS_METHOD_QP_CREATE' ib_uverbs_create_qp ib_uverbs_ex_create_qp ib_uverbs_create_cq \
    mlx5_ib_alloc_pd mlx5_ib_reg_user_mr 'mlx5_ib_create*cq' mlx5_ib_create_qp
lab-verbs objects
rc=$?
lab_done
exit $rc
