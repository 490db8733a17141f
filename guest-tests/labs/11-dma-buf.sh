# lab-title: DMA-BUF: an exporter's buffer (udmabuf standing in for a GPU's) imported by the RNIC, written by the peer, and revoked
# lab-part: 11
# lab-nodes: 2
# lab-program: guest-tests/c/dmabuf-mr.c (DMABUF_KIB=16)
# lab-device: mlx5_cmd_fields mlx5_umr mlx5_mkey_create mlx5_mkey_mtt mlx5_roce_fields mlx5_rc_resp_err mlx5_rc_nak* mlx5_cqe_fields
# lab-layers: application libibverbs kernel firmware datapath wire
# lab-filter: all
# lab-order: 0:application:ibv_reg_dmabuf_mr > 0:libibverbs:ibv_reg_dmabuf_mr > 0:kernel:mlx5_ib_reg_user_mr_dmabuf > 0:kernel:ib_umem_dmabuf_get > 0:kernel:dma_buf_dynamic_attach > 0:kernel:ib_umem_dmabuf_map_pages > 0:kernel:dma_buf_map_attachment > 0:kernel:get_sg_table > 0:datapath:mlx5_umr > 0:application:DMA-BUF MR lkey
# lab-order: 1:application:RDMA WRITE 16384 > 1:datapath:tx BTH.opcode=RC_RDMA_WRITE_FIRST > 0:datapath:mlx5_mkey_mtt .*write=1 > 1:datapath:cqe_fields.*RDMA_WRITE > 0:application:SHA-256 matches
# lab-order: 0:application:ibv_dereg_mr of the DMA-BUF > 0:kernel:mlx5_ib_dereg_mr > 0:datapath:mlx5_umr .*free=1 > 0:application:deregistered > 0:datapath:rc_resp_err > 1:datapath:cqe_fields.*REMOTE_ACCESS_ERR > 1:application:remote access error
# lab-read: rdma-core libibverbs/verbs.c `ibv_reg_dmabuf_mr` -> providers/mlx5/verbs.c `mlx5_reg_dmabuf_mr` -> libibverbs/cmd_mr.c `ibv_cmd_reg_dmabuf_mr` (UVERBS_METHOD_REG_DMABUF_MR: the fd, offset, length, iova)
# lab-read: Linux drivers/infiniband/hw/mlx5/mr.c `mlx5_ib_reg_user_mr_dmabuf` -> drivers/infiniband/core/umem_dmabuf.c `ib_umem_dmabuf_get` (`dma_buf_dynamic_attach`: the RNIC an importer that can be told to move, `mlx5_ib_dmabuf_invalidate_cb`) -> `ib_umem_dmabuf_map_pages` (`dma_buf_map_attachment`: the exporter's scatter list), then mr.c `mlx5_ib_init_dmabuf_mr` -> umr.c `mlx5r_umr_update_mr_pas` (the key's translation by UMR)
# lab-read: Linux drivers/dma-buf/udmabuf.c `get_sg_table` (the exporter's side: memfd pages; a GPU driver's exporter hands out its VRAM or GTT pages here), drivers/dma-buf/dma-buf.c
# lab-read: Linux drivers/infiniband/hw/mlx5/mr.c `mlx5_ib_dereg_mr` -> `mlx5r_umr_revoke_mr` (the key made free by UMR before the pages go back to the exporter: the next access is a remote access error)
#
# Two guests.  Node 0 has no GPU: the udmabuf driver exports 16 KiB of
# memfd pages as a DMA-BUF, as a GPU driver exports its memory, and the
# program registers that DMA-BUF's file descriptor with
# ibv_reg_dmabuf_mr.  Watch the importer side, which is the RNIC's and the
# same whatever the exporter: mlx5_ib attaches to the DMA-BUF as a dynamic
# importer, maps the attachment (the exporter's get_sg_table hands over
# its pages) and writes the pages into a key by UMR.  Node 1 writes 16 KiB
# into it; node 0's device translates each packet through that key, and
# the program checks the bytes through the exporter's own mapping.  Then
# node 0 deregisters the MR while node 1 keeps writing: the key is
# revoked by UMR, the next WRITE is refused (NAK, remote access error on
# node 1) and nothing lands after deregistration.
. /mlx5emu/guest-tests/labs/lab-lib.sh

lab_watch mlx5_ib_reg_user_mr_dmabuf ib_umem_dmabuf_get dma_buf_dynamic_attach \
    ib_umem_dmabuf_map_pages dma_buf_map_attachment 'get_sg_table*' mlx5_ib_init_dmabuf_mr \
    mlx5_ib_dereg_mr mlx5r_umr_revoke_mr ib_umem_dmabuf_release dma_buf_detach
DMABUF_KIB=16 dmabuf-mr
rc=$?
lab_done
exit $rc
