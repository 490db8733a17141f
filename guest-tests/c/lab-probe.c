/*
 * What a lab (scripts/lab) needs to know of the running guest before it
 * can watch it, read off the device itself:
 *
 *   lab-probe ops     where libmlx5's data-path functions are, as uprobe
 *                     targets: "NAME PATH 0xFILE_OFFSET" per line.  libmlx5
 *                     exports none of them (only mlx5dv_*), and Debian
 *                     ships no symbol table; but ibv_post_send() and
 *                     friends are inline calls through the context's ops
 *                     table, which holds their addresses (libibverbs
 *                     verbs.h struct ibv_context_ops), and /proc/self/maps
 *                     turns an address into a file offset.
 *   lab-probe syms NAME...
 *                     the same for functions libibverbs exports (dlsym).
 *   lab-probe clock N N anchors of the guest's CLOCK_MONOTONIC (the clock
 *                     the lab's ftrace runs on) against the device's clock:
 *                     "anchor MONO_BEFORE_NS DEVICE_NS MONO_AFTER_NS".  The
 *                     device value comes from ibv_query_rt_values_ex(), which
 *                     libmlx5 reads from the internal timer mlx5_ib maps into
 *                     the process; the device traces that read
 *                     (mlx5_dev_clock) with the host's time, so the two
 *                     together put guest and host on one clock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

static struct ibv_context *open_dev(void)
{
    const char *name = getenv("IBDEV");
    struct ibv_device **list = ibv_get_device_list(NULL);
    struct ibv_context *ctx = NULL;

    for (int i = 0; list && list[i] && !ctx; i++) {
        if (!name || !*name || !strcmp(ibv_get_device_name(list[i]), name)) {
            ctx = ibv_open_device(list[i]);
        }
    }
    if (!ctx) {
        fprintf(stderr, "lab-probe: cannot open the RDMA device %s\n", name ? name : "");
        exit(1);
    }
    return ctx;
}

/* The mapped file and file offset of a code address, from /proc/self/maps. */
static int file_offset(void *fn, char *path, size_t size, unsigned long *off)
{
    unsigned long a = (unsigned long)fn, start, end, foff;
    char line[512], perms[8], file[384];
    FILE *f = fopen("/proc/self/maps", "r");
    int found = 0;

    while (f && !found && fgets(line, sizeof(line), f)) {
        file[0] = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %383s", &start, &end, perms, &foff, file) >= 4 &&
            a >= start && a < end && file[0] == '/') {
            snprintf(path, size, "%s", file);
            *off = a - start + foff;
            found = 1;
        }
    }
    if (f) {
        fclose(f);
    }
    return found;
}

/* libmlx5 polls CQEs of version 1 (what the device's cqe_version and
 * mlx5_ib gave the context) with mlx5_poll_cq_v1 (mlx5.c
 * mlx5_ctx_cqev1_ops); mlx5dv_query_device() says which, looked up at run
 * time so that the program needs no more than libibverbs to link. */
static const char *poll_cq_name(struct ibv_context *ctx)
{
    int (*query)(struct ibv_context *, struct mlx5dv_context *) =
        (int (*)(struct ibv_context *, struct mlx5dv_context *))dlsym(RTLD_DEFAULT,
                                                                        "mlx5dv_query_device");
    struct mlx5dv_context dv = { 0 };

    if (!query) {
        void *lib = dlopen("libmlx5.so.1", RTLD_NOW | RTLD_NOLOAD);

        query = lib ? (int (*)(struct ibv_context *, struct mlx5dv_context *))
                      dlsym(lib, "mlx5dv_query_device") : NULL;
    }
    return query && !query(ctx, &dv) && dv.version >= 1 ? "mlx5_poll_cq_v1" : "mlx5_poll_cq";
}

static void print_ops(struct ibv_context *ctx)
{
    const char *const names[] = {
        "mlx5_post_send", "mlx5_post_recv", poll_cq_name(ctx), "mlx5_arm_cq",
    };
    void *fns[] = {
        (void *)ctx->ops.post_send, (void *)ctx->ops.post_recv,
        (void *)ctx->ops.poll_cq, (void *)ctx->ops.req_notify_cq,
    };
    char path[384];
    unsigned long off;

    for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
        if (fns[i] && file_offset(fns[i], path, sizeof(path), &off)) {
            printf("%s %s 0x%lx\n", names[i], path, off);
        }
    }
}

static void print_syms(char **names, int n)
{
    char path[384];
    unsigned long off;

    for (int i = 0; i < n; i++) {
        void *fn = dlsym(RTLD_DEFAULT, names[i]);

        if (fn && file_offset(fn, path, sizeof(path), &off)) {
            printf("%s %s 0x%lx\n", names[i], path, off);
        }
    }
}

static unsigned long long mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static int print_anchors(struct ibv_context *ctx, int n)
{
    for (int i = 0; i < n; i++) {
        struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
        unsigned long long before = mono_ns(), after;
        int rc = ibv_query_rt_values_ex(ctx, &v);

        after = mono_ns();
        if (rc || !(v.comp_mask & IBV_VALUES_MASK_RAW_CLOCK)) {
            fprintf(stderr, "lab-probe: ibv_query_rt_values_ex: %s\n", strerror(rc));
            return 1;
        }
        printf("anchor %llu %llu %llu\n", before,
               (unsigned long long)v.raw_clock.tv_sec * 1000000000ull +
               (unsigned long long)v.raw_clock.tv_nsec, after);
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct ibv_context *ctx;
    int rc = 0;

    if (argc < 2 || (strcmp(argv[1], "ops") && strcmp(argv[1], "clock") &&
                     strcmp(argv[1], "syms"))) {
        fprintf(stderr, "usage: lab-probe ops | syms NAME... | clock N\n");
        return 2;
    }
    if (!strcmp(argv[1], "syms")) {
        print_syms(argv + 2, argc - 2);
        return 0;
    }
    ctx = open_dev();
    if (!strcmp(argv[1], "ops")) {
        print_ops(ctx);
    } else {
        rc = print_anchors(ctx, argc > 2 ? atoi(argv[2]) : 3);
    }
    ibv_close_device(ctx);
    return rc;
}
