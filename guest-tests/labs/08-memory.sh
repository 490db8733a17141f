# lab-title: Memory: an MR's pinned pages become a key's translation, device memory gets a key of its own, and remote WRITEs are translated through both
# lab-part: 08
# lab-nodes: 2
# lab-program: guest-tests/c/lab-verbs.c (memory)
# lab-device: mlx5_cmd_fields mlx5_mkey_create mlx5_umr mlx5_sq_wqe_fields mlx5_memic_alloc mlx5_mkey_mtt mlx5_mkey_memic mlx5_roce_fields mlx5_cqe_fields
# lab-layers: application libibverbs kernel firmware datapath wire
# lab-filter: all
# lab-order: 0:application:ibv_reg_mr 16384 > 0:libibverbs:ibv_reg_mr > 0:kernel:mlx5_ib_reg_user_mr > 0:kernel:ib_umem_get|__ib_umem_get_va > 0:*:mlx5_umr|CREATE_MKEY in: > 0:application:got MR handle
# lab-order: 0:application:ibv_alloc_dm > 0:kernel:mlx5_ib_alloc_dm > 0:firmware:ALLOC_MEMIC in: > 0:firmware:mlx5_memic_alloc > 0:application:ibv_reg_dm_mr > 0:kernel:mlx5_ib_reg_dm_mr > 0:firmware:CREATE_MKEY in: > 0:firmware:mlx5_mkey_create .*access_mode=5 > 0:application:device memory MR rkey
# lab-order: 1:application:RDMA_WRITE 8192 > 1:datapath:mlx5_mkey_mtt .*write=0 > 1:datapath:tx BTH.opcode=RC_RDMA_WRITE_FIRST > 0:datapath:rx BTH.opcode=RC_RDMA_WRITE_FIRST > 0:datapath:mlx5_mkey_mtt .*write=1 > 0:datapath:rx BTH.opcode=RC_RDMA_WRITE_LAST > 1:datapath:cqe_fields.*RDMA_WRITE
# lab-order: 1:application:device memory \(rkey > 1:datapath:tx BTH.opcode=RC_RDMA_WRITE_ONLY > 0:datapath:mlx5_mkey_memic .*write=1 ok=1 > 1:datapath:cqe_fields.*RDMA_WRITE > 0:application:both WRITEs landed
# lab-read: Linux drivers/infiniband/hw/mlx5/mr.c `mlx5_ib_reg_user_mr` -> drivers/infiniband/core/umem.c `ib_umem_get` (7.2: `__ib_umem_get_va`; pin_user_pages_fast: the pages stay where they are while the MR lives, and their DMA addresses), then a key from mlx5_ib's cache whose translation is written by a UMR WQE (umr.c `mlx5r_umr_update_mr_pas`), or CREATE_MKEY with the list in its mailbox
# lab-read: Linux drivers/infiniband/hw/mlx5/dm.c `mlx5_ib_alloc_dm` -> `mlx5_cmd_alloc_memic` (ALLOC_MEMIC: bytes in the device's BAR, which the process may also map) and mr.c `mlx5_ib_reg_dm_mr` (a MEMIC key: access mode 5, zero-based)
# lab-read: rdma-core libibverbs/verbs.c `ibv_reg_mr`, providers/mlx5/verbs.c `mlx5_alloc_dm`, `mlx5_reg_dm_mr`
# lab-read: mlx5emu hw-rdma/mkey.c (a key's checks, then its MTT pages, indirect entries or device memory), firmware-sim/memic.c, hw-rdma/umr.c
#
# Two guests, one RC QP each.  Node 0 registers a 16 KiB buffer: the
# kernel pins its pages (ib_umem_get) and mlx5_ib gives the MR a key whose
# translation - one 8-byte entry per page, the page's guest-physical
# address - the device holds; the program reads its own pages'
# guest-physical addresses from /proc/self/pagemap to show where they are.
# Then it allocates 4 KiB of device memory (ALLOC_MEMIC) and registers it:
# a MEMIC key, zero-based.  Node 1 writes 8 KiB across three of node 0's
# pages: watch node 1's device gather them through its own key (write=0)
# and node 0's device scatter each packet through node 0's key into the
# guest-physical pages the program printed (write=1).  Then 64 bytes into
# the device memory, translated to an offset in the device's own memory.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch mlx5_ib_reg_user_mr ib_umem_get __ib_umem_get_va mlx5r_umr_update_mr_pas \
    mlx5_ib_alloc_dm mlx5_ib_reg_dm_mr
lab-verbs memory
rc=$?
lab_done
exit $rc
