# lab-title: The uverbs interface: each verb an ioctl method with attributes or a legacy command, and a killed process's objects destroyed by the kernel
# lab-part: 05
# lab-nodes: 1
# lab-program: guest-tests/c/lab-uverbs.c
# lab-device: mlx5_cmd_fields mlx5_cmd_err mlx5_qp_create mlx5_cq_create mlx5_mkey_create mlx5_umr
# lab-layers: application libibverbs kernel firmware
# lab-filter: all
# lab-order: 0:application:parent: ibv_open_device > 0:libibverbs:ibv_open_device > 0:kernel:ib_uverbs_open > 0:kernel:uverbs_ioctl .*(GET_CONTEXT|INVOKE_WRITE) > 0:kernel:mlx5_ib_alloc_ucontext > 0:application:parent: context
# lab-order: 0:application:parent: ibv_create_cq > 0:libibverbs:ibv_create_cq > 0:kernel:uverbs_ioctl .*UVERBS_METHOD_CQ_CREATE > 0:kernel:mlx5_ib_create\w*cq > 0:firmware:CREATE_CQ in: > 0:kernel:uverbs_.*QP_CREATE|uverbs_write.*CREATE_QP > 0:firmware:CREATE_QP in: > 0:application:parent: CQ handle
# lab-order: 0:application:child: killed > 0:kernel:ib_uverbs_close > 0:kernel:uverbs_destroy_ufile_hw > 0:kernel:mlx5_ib_destroy_qp > 0:firmware:DESTROY_QP in: > 0:kernel:mlx5_ib_destroy_cq > 0:firmware:DESTROY_CQ in: > 0:kernel:mlx5_ib_dealloc_pd > 0:firmware:DEALLOC_PD in: > 0:kernel:mlx5_ib_dealloc_ucontext > 0:application:parent: the child was killed
# lab-order: 0:application:parent: ibv_destroy_qp > 0:libibverbs:ibv_destroy_qp > 0:kernel:uverbs_ioctl .*QP_DESTROY > 0:kernel:mlx5_ib_destroy_qp > 0:firmware:DESTROY_QP in: > 0:application:parent: ibv_destroy_cq
# lab-read: rdma-core libibverbs/cmd_ioctl.c `execute_ioctl` (struct ib_uverbs_ioctl_hdr and its attributes), cmd_fallback.c `_execute_ioctl_fallback` (a method the kernel has, or the legacy write command: `_execute_cmd_write`, carried by UVERBS_METHOD_INVOKE_WRITE when ioctl is there), cmd_cq.c `ibv_icmd_create_cq`, cmd_pd.c `ibv_cmd_alloc_pd`
# lab-read: Linux drivers/infiniband/core/uverbs_main.c `ib_uverbs_open` (the file and its context), `ib_uverbs_write` (the legacy ABI), `ib_uverbs_close`; uverbs_ioctl.c `ib_uverbs_ioctl` -> `ib_uverbs_cmd_verbs` (the method's attributes checked against its specification, the handler called, the new objects committed or rolled back)
# lab-read: Linux drivers/infiniband/core/rdma_core.c `uverbs_destroy_ufile_hw` -> `__uverbs_cleanup_ufile`: every object the file still holds destroyed, dependants first (`uverbs_destroy_uobject`), then the context (`mlx5_ib_dealloc_ucontext`)
# lab-read: mlx5emu firmware-sim/qp.c, cq.c, pd.c: the DESTROY commands the kernel sends for the dead process
#
# One guest (guest-tests/c/lab-uverbs.c).  A process opens the device and
# makes a PD, an MR, a CQ and an RC QP; a kprobe on each of uverbs' entry
# points decodes what libibverbs sends the kernel: an ioctl() names an
# object and a method (UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE ...) and
# carries attributes (their ids shown; ids with 0x1000 set are the
# driver's, mlx5_ib's), or a legacy command - as a write() or inside the
# INVOKE_WRITE method.  Then a child makes the same objects and is killed
# with SIGKILL while it holds them: when its file is released
# (ib_uverbs_close), uverbs destroys every object it left - the QP before
# the CQ and the PD it depends on - and each is a DESTROY command to the
# device.  Last the parent destroys its own with the verbs.
. /mlx5emu/guest-tests/labs/lab-lib.sh

qps() { rdma resource show qp 2>/dev/null | grep -c 'type RC'; }
before=$(qps)
lab_watch ib_uverbs_open ib_uverbs_close uverbs_destroy_ufile_hw mlx5_ib_alloc_ucontext \
    mlx5_ib_dealloc_ucontext 'mlx5_ib_create*cq' mlx5_ib_create_qp mlx5_ib_destroy_qp \
    mlx5_ib_destroy_cq mlx5_ib_dereg_mr mlx5_ib_dealloc_pd
lab_uverbs_probes
lab-uverbs
rc=$?
lab_done
after=$(qps)
echo "lab: RC QPs before the lab $before, after it $after"
[ "$rc" = 0 ] && [ "$after" = "$before" ] && echo "PASS lab-uverbs: no QP left behind"
