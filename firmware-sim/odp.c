/*
 * On-demand paging, the firmware's side (PRM "Page Fault"; the drivers'
 * needs: docs/odp-driver-map.md).
 *
 * Concepts
 * --------
 * A device that pages (cmd_hca_cap.pg) finds, in an MTT entry, whether a
 * page is there for a read and a write.  When a WQE or a request needs a
 * page that is not, the queue stalls and the device posts a page-fault
 * event (type 0x0c) to the EQ that subscribed to it; mlx5_ib maps the
 * pages, writes them into the key through its UMR QP and answers with
 * PAGE_FAULT_RESUME, naming the fault by its type, work queue and token.
 * The data path raises and keeps the faults (hw-rdma/odp.c); this
 * command hands the answer over.  A resume that names no outstanding
 * fault - the QP went to reset or was destroyed meanwhile, or the resume
 * came twice - is answered OK and ignored: mlx5_ib only logs a failure
 * (odp.c mlx5_ib_page_fault_resume), and the queue it named is gone or
 * was flushed.
 */
#include "cmd.h"

unsigned cmd_page_fault_resume(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned type = PRM_GET(page_fault_resume_in, page_fault_type, c->in);
    uint32_t wq = PRM_GET(page_fault_resume_in, wq_number, c->in);
    uint32_t token = PRM_GET(page_fault_resume_in, token, c->in);
    bool error = PRM_GET(page_fault_resume_in, error, c->in);
    bool found = fw->dp_ops && fw->dp_ops->page_fault_resume(fw->dp, type, wq, token, error);

    mlx5emu_trace_page_fault_resume(type, wq, token, error, found);
    return MLX5_CMD_STAT_OK;
}

/* The keys with a meaning of their own (PRM "QUERY_SPECIAL_CONTEXTS").
 * mlx5_ib asks at probe when a cap names one (cmd.c
 * mlx5r_cmd_query_special_mkeys; a failure aborts probe).  The device
 * has the null mkey alone (cap null_mkey; fw.h MLX5_NULL_MKEY): no
 * dump-fill key (cap dump_fill_mkey 0), no reserved lkey (kernel DMA
 * goes through PA keys of CREATE_MKEY), and it ends a scatter list at
 * the invalid lkey 0x100, the driver's default (cap
 * terminate_scatter_list_mkey 0) - those fields stay 0. */
unsigned cmd_query_special_contexts(Mlx5Fw *fw, Mlx5Cmd *c)
{
    PRM_SET(query_special_contexts_out, null_mkey, c->out, MLX5_NULL_MKEY);
    mlx5emu_trace_query_special_contexts(MLX5_NULL_MKEY);
    return MLX5_CMD_STAT_OK;
}
