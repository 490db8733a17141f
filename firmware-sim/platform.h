/*
 * The platform interface: everything the device model needs from its host.
 *
 * Concepts
 * --------
 * firmware-sim and hw-rdma never include QEMU headers.  They reach guest
 * memory, interrupts, the wire, time and the log only through this table,
 * which the QEMU device (hw/mlx5.c) fills with QEMU APIs and which unit
 * tests, fuzzers and benchmarks fill with in-process fakes.
 *
 * Trace events are the exception: they are plain functions declared in the
 * generated "mlx5emu-trace.h" (one per line of hw/trace-events), bound at
 * link time to QEMU's trace backend or to a stderr printer for tests.
 *
 * All calls are made from the thread that runs the device (QEMU's main loop
 * under the BQL).  DMA reaches guest RAM only: a dma_read/dma_write that
 * touches anything else (the device's own BAR, another device) fails.
 * The device also refuses to be entered from inside one of these
 * callbacks (hw-rdma/device.c dev_enter), so a platform that cannot
 * promise that - a fuzzer's RAM with a window onto BAR0, a wire that
 * loops a frame back from inside tx_frame - loses a doorbell or delays a
 * frame, never corrupts the device.
 */
#ifndef MLX5EMU_PLATFORM_H
#define MLX5EMU_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the device asks of the wire for one frame (Ethernet SQ offloads,
 * PRM "Ethernet Segment"): the platform does the generic packet work
 * (QEMU: net_tx_pkt, as igb and e1000e use it). */
typedef struct Mlx5TxOffload {
    bool ip_csum;               /* fill in the IPv4 header checksum */
    bool l4_csum;               /* fill in the TCP/UDP checksum */
    uint16_t mss;               /* non-zero: TCP segmentation (LSO) at this MSS */
    bool vlan_insert;           /* insert an 802.1Q tag ... */
    uint16_t vlan_tci;          /* ... with this TCI */
} Mlx5TxOffload;

/* BAR0 as the platform maps it (real ConnectX: 32 MiB, 64-bit): the
 * initialization segment at 0, the MSI-X table and PBA, UAR pages from
 * MLX5_FIRST_UAR_INDEX (pages 0-2: init segment; 4-7: MSI-X), and at the
 * top the device memory (MEMIC, firmware-sim/memic.c) that ibv_alloc_dm
 * hands out and processes map.  Device memory is plain memory: a
 * platform may lend its own (Mlx5FwConfig.memic) and map it straight into
 * the BAR, as QEMU does; mlx5_dev_mmio_read/write serve it too.  256 KiB:
 * mlx5_ib tracks the window in a bitmap of MLX5_MAX_MEMIC_PAGES (256)
 * pages, so it may not exceed 1 MiB (ib/dm.c mlx5_cmd_alloc_memic). */
#define MLX5_BAR0_SIZE (32u << 20)
#define MLX5_MSIX_TABLE_OFFSET 0x4000
#define MLX5_MSIX_PBA_OFFSET 0x6000
#define MLX5_FIRST_UAR_INDEX 8
#define MLX5_MEMIC_BAR_BYTES (256u << 10)
#define MLX5_MEMIC_BAR_OFFSET (MLX5_BAR0_SIZE - MLX5_MEMIC_BAR_BYTES)

/* A UAR page's doorbell registers (Linux uar.c, cq.h, eq.c, en/txrx.h). */
enum {
    MLX5_UAR_PAGE_BYTES = 4096,
    MLX5_UAR_CQ_DOORBELL = 0x20,        /* 64 bits: sn << 28 | cmd << 24 | ci, cqn */
    MLX5_UAR_EQ_DOORBELL_ARM = 0x40,    /* 32 bits: eqn << 24 | ci, and re-arm */
    MLX5_UAR_EQ_DOORBELL = 0x48,        /* the same without re-arm */
    MLX5_UAR_BF_BASE = 0x800,           /* BlueFlame registers: SQ doorbells */
    MLX5_UAR_BF_HALF = 0x100,           /* bf_reg_size / 2: one BlueFlame buffer */
};

/* What the platform tells the firmware about the board. */
typedef struct Mlx5FwConfig {
    uint16_t fw_major, fw_minor, fw_sub;
    uint8_t mac[6];
    unsigned msix_vectors;
    uint16_t device_id;
    char psid[17];
    bool cq_moderation;         /* advertise CQ event moderation */
    bool roce_loopback;         /* RoCE to our own MAC comes back in (hw-rdma/transport.c) */
    /* Host memory the guest's objects may hold, in bytes (fw.h
     * Mlx5Fw.host_mem); 0: the default, MLX5_HOST_MEM_PER_QP for each QP
     * the capabilities advertise. */
    uint64_t host_mem_budget;
    /* Device memory: MLX5_MEMIC_BAR_BYTES the platform maps at BAR0 +
     * MLX5_MEMIC_BAR_OFFSET as memory (QEMU: a RAM region), lent to the
     * firmware for the device's life; NULL: the firmware allocates its
     * own and BAR0 accesses reach it through mlx5_dev_mmio_read/write. */
    uint8_t *memic;
} Mlx5FwConfig;

typedef struct Mlx5Platform {
    /* Guest-physical memory.  Return 0 on success, -1 if any byte of the
     * range is not guest RAM - MMIO included (the device then answers the
     * PRM way). */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf, size_t len);
    /* Raise MSI-X vector `vector` (already bounded by the core). */
    void (*msix_notify)(void *opaque, unsigned vector);
    /* Send one Ethernet frame (no FCS) on the port, after the offloads. */
    void (*tx_frame)(void *opaque, const uint8_t *frame, size_t len,
                     const Mlx5TxOffload *off);
    /* Monotonic clock in nanoseconds. */
    uint64_t (*clock_ns)(void *opaque);
    /* The device's one timer: call mlx5_dev_timer() once clock_ns() has
     * reached deadline_ns (a later call moves it; UINT64_MAX stops it). */
    void (*timer_set)(void *opaque, uint64_t deadline_ns);
    /* A guest programming error, already rate-limited by the core. */
    void (*guest_error)(void *opaque, const char *msg);
} Mlx5Platform;

#endif
