/*
 * Lab 05 (scripts/lab 05): the kernel's uverbs interface as a process
 * uses it, and what the kernel does for a process that dies holding
 * objects (seed chapters part 05).
 *
 * One guest.  The process opens the device (a file on
 * /dev/infiniband/uverbsN and a context), makes a PD, a 4 KiB MR, a CQ
 * and an RC QP - each verb one ioctl() (a method of an object, with its
 * attributes, or a legacy command carried by the INVOKE_WRITE method) or
 * one write() of the legacy ABI, which the lab's kprobes decode - then
 * forks a child that makes the same objects on its own context and is
 * killed with SIGKILL while holding them.  Its file is released by the
 * kernel at exit, and uverbs destroys every object the child left, in an
 * order that respects their dependencies (the QP before the CQ and the PD
 * it uses), each a command to the device.  Then the parent destroys its
 * own objects with the verbs, and closes the device.
 *
 * Each step is announced in the kernel's trace buffer (trace_marker).
 * The objects' handles (the uverbs object numbers the process knows
 * them by) and the device's numbers are printed.  Exits non-zero if a
 * verb fails or the child was not killed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "pair.h"

enum { REGION = 4096 };

typedef struct Objects {
    Rdma r;
    struct ibv_mr *mr;
    Rc c;
} Objects;

/* A context, a PD, an MR, a CQ and a QP, each verb announced first. */
static void make_objects(Objects *o, const char *who)
{
    lab_mark("app: %s: ibv_open_device, ibv_alloc_pd", who);
    rdma_open(&o->r);
    lab_mark("app: %s: context on fd %d, PD handle %u", who, o->r.ctx->cmd_fd, o->r.pd->handle);
    lab_mark("app: %s: ibv_reg_mr %d bytes", who, REGION);
    o->mr = ibv_reg_mr(o->r.pd, aligned_alloc(4096, REGION), REGION,
                       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!o->mr) {
        die("register the region");
    }
    lab_mark("app: %s: MR handle %u, lkey 0x%x", who, o->mr->handle, o->mr->lkey);
    lab_mark("app: %s: ibv_create_cq, ibv_create_qp", who);
    rc_create(&o->c, &o->r, 8);
    lab_mark("app: %s: CQ handle %u, QP handle %u, QP 0x%x", who, o->c.cq->handle,
         o->c.qp->handle, o->c.qp->qp_num);
}

static void destroy_objects(Objects *o)
{
    lab_mark("app: parent: ibv_destroy_qp");
    if (ibv_destroy_qp(o->c.qp)) {
        die("destroy the QP");
    }
    lab_mark("app: parent: ibv_destroy_cq");
    if (ibv_destroy_cq(o->c.cq)) {
        die("destroy the CQ");
    }
    lab_mark("app: parent: ibv_dereg_mr");
    if (ibv_dereg_mr(o->mr)) {
        die("deregister the MR");
    }
    lab_mark("app: parent: ibv_dealloc_pd");
    if (ibv_dealloc_pd(o->r.pd)) {
        die("free the PD");
    }
    lab_mark("app: parent: ibv_close_device");
    if (ibv_close_device(o->r.ctx)) {
        die("close the device");
    }
}

/* A child makes the objects and is killed holding them. */
static void killed_child(void)
{
    int status;
    pid_t pid = fork();

    if (pid < 0) {
        die("fork");
    }
    if (pid == 0) {
        Objects o;

        make_objects(&o, "child");
        lab_mark("app: child: killed by SIGKILL now, holding its context, PD, MR, CQ and QP");
        raise(SIGKILL);
        _exit(1);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
        die("the child was not killed by SIGKILL");
    }
    lab_mark("app: parent: the child was killed; the kernel released its file and destroyed its objects");
}

int main(void)
{
    Objects o;

    pair_prog = "lab-uverbs";
    make_objects(&o, "parent");
    killed_child();
    destroy_objects(&o);
    say("PASS lab-uverbs: objects made through uverbs, a killed child's destroyed by the kernel, "
        "the parent's by the verbs");
    return 0;
}
