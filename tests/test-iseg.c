/*
 * The initialization segment (BAR0 0x0000-0x200f, firmware-sim/iseg.c) as
 * the driver reads it before anything else: firmware and command-interface
 * revisions, the command queue address/geometry register, health counter,
 * sub-word reads.  BAR0's routing of it is test-datapath's.
 */
#include "harness.h"

enum {
    FW_REV = 0x000, CMDIF_REV_FW_SUB = 0x004, CMDQ_ADDR_H = 0x010,
    CMDQ_ADDR_L_SZ = 0x014, INITIALIZING = 0x1fc, HEALTH_SYND = 0x200,
    HEALTH_FW_VER = 0x230, HEALTH_HW_ID = 0x234, TIMER_H = 0x1000, TIMER_L = 0x1004,
    HEALTH_COUNTER = 0x1010,
};

static uint32_t rd(Harness *h, uint32_t off, unsigned size)
{
    return mlx5_iseg_read(h->fw, off, size);
}

static void test_fw_rev_and_cmdif_rev(void)
{
    g_autoptr(Harness) h = h_new();

    g_assert_cmphex(rd(h, FW_REV, 4), ==, 39u << 16 | 22);
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB, 4) >> 16, ==, 5);
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB, 4) & 0xffff, ==, 1002);
    g_assert_cmphex(rd(h, HEALTH_FW_VER, 4), ==, 22u << 16 | 39);
    g_assert_cmphex(rd(h, HEALTH_HW_ID, 4), ==, 0x101d);
}

/* "initializing" is set while the firmware boots after a reset, then
 * clears: the handshake the driver's wait_fw_init() polls. */
static void test_initializing_handshake(void)
{
    g_autoptr(Harness) h = h_new();

    h->clock_ns = 0;
    mlx5_fw_reset(h->fw, "test");
    g_assert_cmphex(rd(h, INITIALIZING, 4) >> 31, ==, 1);
    h->clock_ns = MLX5_FW_BOOT_NS - 1;
    g_assert_cmphex(rd(h, INITIALIZING, 4) >> 31, ==, 1);
    h->clock_ns = MLX5_FW_BOOT_NS;
    g_assert_cmphex(rd(h, INITIALIZING, 4), ==, 0);
}

static void test_ready_and_healthy(void)
{
    g_autoptr(Harness) h = h_new();

    h->clock_ns += MLX5_FW_BOOT_NS;
    g_assert_cmphex(rd(h, INITIALIZING, 4) >> 31, ==, 0);
    for (uint32_t off = HEALTH_SYND; off < HEALTH_FW_VER; off += 4) {
        g_assert_cmphex(rd(h, off, 4), ==, 0);
    }
}

/* Low byte of 0x14 reads log_sz 5 / log_stride 6 whatever was written. */
static void test_cmdq_geometry_reads_0x56(void)
{
    static const uint32_t writes[] = { 0, 0x12345000, 0xffffffff, 0x000000ff, 0x56 };
    g_autoptr(Harness) h = h_new();

    g_assert_cmphex(rd(h, CMDQ_ADDR_L_SZ, 4) & 0xff, ==, 0x56);
    for (size_t i = 0; i < G_N_ELEMENTS(writes); i++) {
        mlx5_iseg_write(h->fw, CMDQ_ADDR_L_SZ, writes[i], 4);
        g_assert_cmphex(rd(h, CMDQ_ADDR_L_SZ, 4) & 0xff, ==, 0x56);
        g_assert_cmphex(rd(h, CMDQ_ADDR_L_SZ, 4) & ~0xfffu, ==, writes[i] & ~0xfffu);
    }
}

static void test_cmdq_address_reads_back(void)
{
    g_autoptr(Harness) h = h_new();

    mlx5_iseg_write(h->fw, CMDQ_ADDR_H, 0x12, 4);
    mlx5_iseg_write(h->fw, CMDQ_ADDR_L_SZ, 0xabcde000, 4);
    g_assert_cmphex(rd(h, CMDQ_ADDR_H, 4), ==, 0x12);
}

/* nic_interface (bits 10:8 of 0x14), set by mlx5_set_nic_state(). */
static void test_nic_interface_reads_back(void)
{
    g_autoptr(Harness) h = h_new();

    mlx5_iseg_write(h->fw, CMDQ_ADDR_L_SZ, (uint32_t)h->cmdq | 1u << 8, 4);
    g_assert_cmphex((rd(h, CMDQ_ADDR_L_SZ, 4) >> 8) & 7, ==, 1);
}

static void test_health_counter_moves(void)
{
    g_autoptr(Harness) h = h_new();
    uint32_t a = rd(h, HEALTH_COUNTER, 4);
    uint32_t b = rd(h, HEALTH_COUNTER, 4);

    g_assert_cmphex(a, !=, b);
}

/* The free-running timer: the platform clock at 1 GHz (device_frequency_khz
 * advertises it), its halves big-endian words, moving with the clock. */
static void test_internal_timer(void)
{
    g_autoptr(Harness) h = h_new();

    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, device_frequency_khz),
                     ==, 1000000);
    h->clock_ns = 0x123456789abull;
    g_assert_cmphex(rd(h, TIMER_H, 4), ==, 0x123);
    g_assert_cmphex(rd(h, TIMER_L, 4), ==, 0x456789ab);
    h->clock_ns += 0x100000000ull + 5;
    g_assert_cmphex(rd(h, TIMER_H, 4), ==, 0x124);
    g_assert_cmphex(rd(h, TIMER_L, 4), ==, 0x456789b0);
}

static void test_sub_word_reads(void)
{
    g_autoptr(Harness) h = h_new();

    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB, 2), ==, 5);
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB + 2, 2), ==, 1002);
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB + 1, 1), ==, 5);
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB + 3, 1), ==, 1002 & 0xff);
    g_assert_cmphex(rd(h, CMDQ_ADDR_L_SZ + 3, 1), ==, 0x56);
    g_assert_cmphex(rd(h, FW_REV + 2, 2), ==, 22);
}

static void test_bad_accesses_read_zero(void)
{
    g_autoptr(Harness) h = h_new();

    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB + 1, 4), ==, 0);  /* unaligned */
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB + 3, 2), ==, 0);  /* crosses a word */
    g_assert_cmphex(rd(h, CMDIF_REV_FW_SUB, 3), ==, 0);
    g_assert_cmphex(rd(h, 0x800, 4), ==, 0);                 /* reserved */
}

/* Writes to read-only registers and odd sizes change nothing. */
static void test_read_only_writes_ignored(void)
{
    g_autoptr(Harness) h = h_new();

    mlx5_iseg_write(h->fw, FW_REV, 0xffffffff, 4);
    mlx5_iseg_write(h->fw, CMDQ_ADDR_H, 0x77, 2);
    mlx5_iseg_write(h->fw, CMDQ_ADDR_L_SZ + 1, 0x77, 4);
    g_assert_cmphex(rd(h, FW_REV, 4), ==, 39u << 16 | 22);
    g_assert_cmphex(rd(h, CMDQ_ADDR_H, 4), ==, h->cmdq >> 32);
    g_assert_cmphex(rd(h, CMDQ_ADDR_L_SZ, 4) & ~0xfffu, ==, (uint32_t)h->cmdq);
}

static void test_reset_clears_cmdq_address(void)
{
    g_autoptr(Harness) h = h_new();

    mlx5_fw_reset(h->fw, "test");
    g_assert_cmphex(rd(h, CMDQ_ADDR_H, 4), ==, 0);
    g_assert_cmphex(rd(h, CMDQ_ADDR_L_SZ, 4), ==, 0x56);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/iseg/fw-rev-and-cmdif-rev", test_fw_rev_and_cmdif_rev);
    g_test_add_func("/iseg/initializing-handshake", test_initializing_handshake);
    g_test_add_func("/iseg/ready-and-healthy", test_ready_and_healthy);
    g_test_add_func("/iseg/cmdq-geometry-reads-0x56", test_cmdq_geometry_reads_0x56);
    g_test_add_func("/iseg/cmdq-address-reads-back", test_cmdq_address_reads_back);
    g_test_add_func("/iseg/nic-interface-reads-back", test_nic_interface_reads_back);
    g_test_add_func("/iseg/health-counter-moves", test_health_counter_moves);
    g_test_add_func("/iseg/internal-timer", test_internal_timer);
    g_test_add_func("/iseg/sub-word-reads", test_sub_word_reads);
    g_test_add_func("/iseg/bad-accesses-read-zero", test_bad_accesses_read_zero);
    g_test_add_func("/iseg/read-only-writes-ignored", test_read_only_writes_ignored);
    g_test_add_func("/iseg/reset-clears-cmdq-address", test_reset_clears_cmdq_address);
    return g_test_run();
}
