/*
 * QEMU glue for mlx5emu: -device mlx5, an emulated NVIDIA ConnectX
 * (mlx5) PCIe function.
 *
 * This file is thin on purpose: it owns the PCI function (config space,
 * BAR0, MSI-X, FLR), the NIC backend and the bottom half that runs
 * firmware commands, and implements the platform table (platform.h) with
 * QEMU APIs.  Everything the device does lives in firmware-sim/ and
 * hw-rdma/, which never include QEMU headers.
 *
 * BAR0 (32 MiB, 64-bit prefetchable, as on real ConnectX):
 *   0x0000-0x200f  initialization segment (firmware-sim/iseg.c)
 *   0x4000         MSI-X table, 0x6000 MSI-X PBA
 *   0x8000-        UAR pages 8 ... (doorbells, hw-rdma/device.c)
 *   top 256 KiB    device memory (MEMIC, firmware-sim/memic.c): RAM
 *                  over the device's bytes, so ibv_memcpy_to_dm is a
 *                  memory copy, not an MMIO exit per word
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/iov.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/type-helpers.h"
#include "hw/boards.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "monitor/monitor.h"
#include "net/net.h"
#include "hw/net/net_tx_pkt.h"
#include "trace.h"

#include "mlx5-dev.h"

#define TYPE_MLX5 "mlx5"
OBJECT_DECLARE_SIMPLE_TYPE(Mlx5State, MLX5)

#define MLX5_VENDOR_ID 0x15b3
#define MLX5_DEFAULT_DEVICE_ID 0x101d     /* ConnectX-6 Dx */
#define MLX5_MAX_MSIX_VECTORS 128

struct Mlx5State {
    PCIDevice parent_obj;

    MemoryRegion bar0;
    MemoryRegion mmio;
    MemoryRegion memic;
    NICState *nic;
    NICConf conf;
    QEMUBH *cmd_bh;
    QEMUTimer *timer;           /* the core's timer (CQ event moderation) */
    uint8_t *tx_seg;            /* a frame out of net_tx_pkt (mlx5_tx_segment) */
    size_t tx_seg_size;
    struct NetTxPkt *tx_pkt;

    uint16_t device_id;
    uint32_t msix_vectors;
    char *fw_version;
    char *psid;
    bool cq_moderation;

    Mlx5Device *dev;
};

/* --- platform table ------------------------------------------------- */

/* DMA to and from guest RAM only (platform.h): MemTxAttrs.memory makes
 * QEMU refuse MMIO - the device's own BAR above all, which an RDMA READ's
 * scatter list could otherwise name and so ring its doorbells from inside
 * the data path. */
static const MemTxAttrs mlx5_dma_attrs = { .memory = 1 };

static int mlx5_plat_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    return pci_dma_rw(PCI_DEVICE(opaque), addr, buf, len, DMA_DIRECTION_TO_DEVICE,
                      mlx5_dma_attrs) == MEMTX_OK ? 0 : -1;
}

static int mlx5_plat_dma_write(void *opaque, uint64_t addr, const void *buf,
                               size_t len)
{
    return pci_dma_rw(PCI_DEVICE(opaque), addr, (void *)buf, len, DMA_DIRECTION_FROM_DEVICE,
                      mlx5_dma_attrs) == MEMTX_OK ? 0 : -1;
}

static void mlx5_plat_msix_notify(void *opaque, unsigned vector)
{
    Mlx5State *s = opaque;
    PCIDevice *pd = PCI_DEVICE(s);

    trace_mlx5_dev_msix(vector);
    if (vector < s->msix_vectors && msix_enabled(pd)) {
        msix_notify(pd, vector);
    }
}

/* The frame buffer belongs to the core; nothing to unmap. */
static void mlx5_tx_frag_done(void *context, void *base, size_t len)
{
}

/* One frame out of net_tx_pkt (a TSO segment, or the frame itself): the
 * core gives its TCP checksum the form a NIC sends (see
 * mlx5_tx_finish_segment), then it goes to the netdev.  net_tx_pkt passes
 * the frame twice, without and with a virtio-net header; we send plain
 * frames (offload=false: net_tx_pkt checksums and segments). */
static void mlx5_tx_segment(void *opaque, const struct iovec *iov, int iov_cnt,
                            const struct iovec *with_vhdr, int with_vhdr_cnt)
{
    Mlx5State *s = opaque;
    size_t len = iov_size(iov, iov_cnt);

    /* One buffer for every segment (a TSO send makes dozens), grown to
     * the largest frame seen. */
    if (len > s->tx_seg_size) {
        s->tx_seg = g_realloc(s->tx_seg, len);
        s->tx_seg_size = len;
    }
    iov_to_buf(iov, iov_cnt, 0, s->tx_seg, len);
    mlx5_tx_finish_segment(s->tx_seg, len);
    qemu_send_packet(qemu_get_queue(s->nic), s->tx_seg, len);
}

/* Transmit with offloads: QEMU's net_tx_pkt inserts the VLAN tag, fills in
 * checksums and segments LSO frames (in software unless the backend takes
 * virtio-net headers), as for igb and e1000e. */
static void mlx5_plat_tx_frame(void *opaque, const uint8_t *frame, size_t len,
                               const Mlx5TxOffload *off)
{
    Mlx5State *s = opaque;
    struct NetTxPkt *pkt = s->tx_pkt;
    bool ok;

    if (!off->mss && !off->l4_csum && !off->ip_csum && !off->vlan_insert) {
        qemu_send_packet(qemu_get_queue(s->nic), frame, len);
        return;
    }
    ok = net_tx_pkt_add_raw_fragment(pkt, (void *)frame, len) && net_tx_pkt_parse(pkt);
    if (ok && off->vlan_insert) {
        net_tx_pkt_setup_vlan_header(pkt, off->vlan_tci);
    }
    if (ok && off->mss) {
        ok = net_tx_pkt_build_vheader(pkt, true, true, off->mss);
        net_tx_pkt_update_ip_checksums(pkt);
    } else if (ok) {
        ok = !off->l4_csum || net_tx_pkt_build_vheader(pkt, false, true, 0);
        if (ok && off->ip_csum) {
            net_tx_pkt_update_ip_hdr_checksum(pkt);
        }
    }
    if (ok) {
        net_tx_pkt_send_custom(pkt, false, mlx5_tx_segment, s);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "mlx5: offload on a frame QEMU cannot parse\n");
    }
    net_tx_pkt_reset(pkt, mlx5_tx_frag_done, NULL);
}

static uint64_t mlx5_plat_clock_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void mlx5_plat_timer_set(void *opaque, uint64_t deadline_ns)
{
    Mlx5State *s = opaque;

    if (deadline_ns == UINT64_MAX) {
        timer_del(s->timer);
    } else {
        timer_mod(s->timer, (int64_t)MIN(deadline_ns, (uint64_t)INT64_MAX));
    }
}

/* A frame the core could not take while it was busy (mlx5_dev_receive
 * from inside one of its callbacks) or for want of a receive WQE is
 * offered again once the entry point that ran has ended. */
static void mlx5_rx_retry(Mlx5State *s)
{
    if (mlx5_dev_rx_retry(s->dev)) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

/* The timer is an entry point like MMIO, the command bottom half and
 * receive: it holds the device's re-entrancy guard while it runs, as QEMU
 * holds it around those. */
static void mlx5_timer_cb(void *opaque)
{
    Mlx5State *s = opaque;
    MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;

    if (guard->engaged_in_io) {
        timer_mod(s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
        return;
    }
    guard->engaged_in_io = true;
    mlx5_dev_timer(s->dev);
    guard->engaged_in_io = false;
    mlx5_rx_retry(s);
}

static void mlx5_plat_guest_error(void *opaque, const char *msg)
{
    qemu_log_mask(LOG_GUEST_ERROR, "mlx5: %s\n", msg);
}

static const Mlx5Platform mlx5_platform = {
    .dma_read = mlx5_plat_dma_read,
    .dma_write = mlx5_plat_dma_write,
    .msix_notify = mlx5_plat_msix_notify,
    .tx_frame = mlx5_plat_tx_frame,
    .clock_ns = mlx5_plat_clock_ns,
    .timer_set = mlx5_plat_timer_set,
    .guest_error = mlx5_plat_guest_error,
};

/* --- BAR0 ------------------------------------------------------------ */

static uint64_t mlx5_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    Mlx5State *s = opaque;
    return mlx5_dev_mmio_read(s->dev, addr, size);
}

static void mlx5_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    Mlx5State *s = opaque;

    mlx5_dev_mmio_write(s->dev, addr, val, size);
    /* A frame held for want of a receive WQE: the driver's doorbells
     * follow its RX refills, so offer it again. */
    mlx5_rx_retry(s);
    /* Commands run in a bottom half, so the vCPU's doorbell write returns
     * at once whatever the command costs. */
    if (mlx5_dev_commands_pending(s->dev)) {
        qemu_bh_schedule(s->cmd_bh);
    }
}

static const MemoryRegionOps mlx5_mmio_ops = {
    .read = mlx5_mmio_read,
    .write = mlx5_mmio_write,
    .endianness = DEVICE_BIG_ENDIAN,     /* every mlx5 register is big-endian */
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static void mlx5_cmd_bh(void *opaque)
{
    Mlx5State *s = opaque;

    mlx5_dev_run_commands(s->dev);
    mlx5_rx_retry(s);
}

/* --- NIC backend ----------------------------------------------------- */

static bool mlx5_nc_can_receive(NetClientState *nc)
{
    return true;
}

static ssize_t mlx5_nc_receive(NetClientState *nc, const uint8_t *buf, size_t len)
{
    Mlx5State *s = qemu_get_nic_opaque(nc);

    /* 0: QEMU queues the frame until qemu_flush_queued_packets(). */
    return mlx5_dev_receive(s->dev, buf, len) ? len : 0;
}

static bool mlx5_link_carrier(Mlx5State *s)
{
    NetClientState *nc = qemu_get_queue(s->nic);
    return nc->peer && !nc->link_down;
}

static void mlx5_nc_link_status_changed(NetClientState *nc)
{
    Mlx5State *s = qemu_get_nic_opaque(nc);

    trace_mlx5_dev_link(mlx5_link_carrier(s));
    mlx5_dev_set_link(s->dev, mlx5_link_carrier(s));
}

static NetClientInfo mlx5_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = mlx5_nc_can_receive,
    .receive = mlx5_nc_receive,
    .link_status_changed = mlx5_nc_link_status_changed,
};

/* --- PCI function ---------------------------------------------------- */

static bool mlx5_parse_fw_version(const char *v, Mlx5FwConfig *cfg, Error **errp)
{
    unsigned maj, min, sub;
    char tail;

    if (sscanf(v, "%u.%u.%u%c", &maj, &min, &sub, &tail) != 3 ||
        maj > 0xffff || min > 0xffff || sub > 0xffff) {
        error_setg(errp, "mlx5: fw-version must be MAJOR.MINOR.SUBMINOR, got '%s'", v);
        return false;
    }
    cfg->fw_major = maj;
    cfg->fw_minor = min;
    cfg->fw_sub = sub;
    return true;
}

static unsigned mlx5_default_vectors(void)
{
    MachineState *ms = MACHINE(qdev_get_machine());
    /* One completion vector per vCPU plus the control vector (Linux
     * pci_irq.c: num_online_cpus + 1). */
    return MIN(ms->smp.cpus + 1, MLX5_MAX_MSIX_VECTORS);
}

/*
 * Vendor-specific capability (Linux lib/pci_vsc.c): the driver looks for
 * it at probe and uses its gateway registers (ctrl 0x4, counter 0x8,
 * semaphore 0xc, address 0x10, data 0x14) only for crdump and the
 * software-reset semaphore.  The registers are plain read/write config
 * space here: a lock taken through the semaphore reads back as held.
 */
#define MLX5_VSC_OFFSET 0x50
#define MLX5_VSC_SIZE 0x18

static void mlx5_vsc_init(PCIDevice *pd)
{
    pci_add_capability(pd, PCI_CAP_ID_VNDR, MLX5_VSC_OFFSET, MLX5_VSC_SIZE,
                       &error_abort);
    pci_set_byte(pd->config + MLX5_VSC_OFFSET + 2, MLX5_VSC_SIZE);
    memset(pd->wmask + MLX5_VSC_OFFSET + 4, 0xff, MLX5_VSC_SIZE - 4);
}

static void mlx5_realize(PCIDevice *pd, Error **errp)
{
    Mlx5State *s = MLX5(pd);
    DeviceState *ds = DEVICE(pd);
    Mlx5FwConfig cfg = { 0 };
    uint8_t *c = pd->config;

    if (!mlx5_parse_fw_version(s->fw_version, &cfg, errp)) {
        return;
    }
    if (s->msix_vectors == 0) {
        s->msix_vectors = mlx5_default_vectors();
    }
    if (s->msix_vectors < 2 || s->msix_vectors > MLX5_MAX_MSIX_VECTORS) {
        error_setg(errp, "mlx5: msix-vectors must be 2..%d", MLX5_MAX_MSIX_VECTORS);
        return;
    }
    pci_set_word(c + PCI_VENDOR_ID, MLX5_VENDOR_ID);
    pci_set_word(c + PCI_DEVICE_ID, s->device_id);
    pci_set_word(c + PCI_SUBSYSTEM_VENDOR_ID, MLX5_VENDOR_ID);
    pci_set_word(c + PCI_SUBSYSTEM_ID, 0x0001);

    memory_region_init(&s->bar0, OBJECT(s), "mlx5-bar0", MLX5_BAR0_SIZE);
    memory_region_init_io(&s->mmio, OBJECT(s), &mlx5_mmio_ops, s, "mlx5-mmio",
                          MLX5_BAR0_SIZE);
    memory_region_add_subregion_overlap(&s->bar0, 0, &s->mmio, -1);
    /* QEMU's RAM, so it outlives the core (freed with the device object,
     * after mlx5_exit), lent to the firmware as its device memory. */
    if (!memory_region_init_ram(&s->memic, OBJECT(s), "mlx5-memic", MLX5_MEMIC_BAR_BYTES,
                                errp)) {
        return;
    }
    memory_region_add_subregion(&s->bar0, MLX5_MEMIC_BAR_OFFSET, &s->memic);
    pci_register_bar(pd, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 | PCI_BASE_ADDRESS_MEM_PREFETCH,
                     &s->bar0);

    mlx5_vsc_init(pd);
    if (pcie_endpoint_cap_init(pd, 0xa0) < 0) {
        error_setg(errp, "mlx5: cannot add the PCIe capability");
        return;
    }
    if (msix_init(pd, s->msix_vectors, &s->bar0, 0, MLX5_MSIX_TABLE_OFFSET,
                  &s->bar0, 0, MLX5_MSIX_PBA_OFFSET, 0x70, errp) < 0) {
        return;
    }
    for (unsigned i = 0; i < s->msix_vectors; i++) {
        msix_vector_use(pd, i);
    }
    if (pci_is_express(pd)) {
        pcie_cap_flr_init(pd);
    }

    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    s->nic = qemu_new_nic(&mlx5_net_info, &s->conf, object_get_typename(OBJECT(s)),
                          ds->id, &ds->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);
    s->cmd_bh = qemu_bh_new_guarded(mlx5_cmd_bh, s, &ds->mem_reentrancy_guard);
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, mlx5_timer_cb, s);
    net_tx_pkt_init(&s->tx_pkt, 1);

    memcpy(cfg.mac, s->conf.macaddr.a, 6);
    cfg.msix_vectors = s->msix_vectors;
    cfg.device_id = s->device_id;
    pstrcpy(cfg.psid, sizeof(cfg.psid), s->psid);
    cfg.cq_moderation = s->cq_moderation;
    cfg.roce_loopback = true;
    cfg.memic = memory_region_get_ram_ptr(&s->memic);
    s->dev = mlx5_dev_new(&mlx5_platform, s, &cfg);
    mlx5_dev_set_link(s->dev, mlx5_link_carrier(s));
    trace_mlx5_dev_realize(s->device_id, s->msix_vectors, s->fw_version);
}

static void mlx5_exit(PCIDevice *pd)
{
    Mlx5State *s = MLX5(pd);

    qemu_bh_delete(s->cmd_bh);
    timer_free(s->timer);
    g_free(s->tx_seg);
    net_tx_pkt_uninit(s->tx_pkt);
    mlx5_dev_free(s->dev);
    s->dev = NULL;
    qemu_del_nic(s->nic);
    msix_uninit(pd, &s->bar0, &s->bar0);
}

/* Config space writes: a Function Level Reset request resets the device. */
static void mlx5_write_config(PCIDevice *pd, uint32_t addr, uint32_t val, int len)
{
    pci_default_write_config(pd, addr, val, len);
    if (pci_is_express(pd)) {
        pcie_cap_flr_write_config(pd, addr, val, len);
    }
}

/* Cold reset, FLR and system reset: every object and queued command goes. */
static void mlx5_reset_hold(Object *obj, ResetType type)
{
    Mlx5State *s = MLX5(obj);

    if (!s->dev) {
        return;                 /* not realized (yet) */
    }
    qemu_bh_cancel(s->cmd_bh);
    trace_mlx5_dev_reset("reset", mlx5_dev_reset(s->dev, "reset"));
}

/* --- the objects on demand (hw-rdma/describe.c) ------------------------- */

/* QOM property "objects": the device's objects as JSON (QMP qom-get). */
static char *mlx5_get_objects(Object *obj, Error **errp)
{
    Mlx5State *s = MLX5(obj);
    GString *out = g_string_new("");

    if (s->dev) {
        mlx5_dev_describe(s->dev, out, true);
    } else {
        g_string_append(out, "{}");
    }
    return g_string_free(out, false);
}

static int mlx5_describe_one(Object *obj, void *opaque)
{
    Mlx5State *s = (Mlx5State *)object_dynamic_cast(obj, TYPE_MLX5);
    g_autofree char *path = NULL;

    if (!s || !s->dev) {
        return 0;
    }
    path = object_get_canonical_path(obj);
    g_string_append_printf(opaque, "%s%s (%s):\n", ((GString *)opaque)->len ? "\n" : "",
                           DEVICE(obj)->id ? DEVICE(obj)->id : "mlx5", path);
    mlx5_dev_describe(s->dev, opaque, false);
    return 0;
}

/* HMP `info mlx5`: every mlx5 device's objects as tables. */
static HumanReadableText *mlx5_hmp_info(Error **errp)
{
    g_autoptr(GString) out = g_string_new("");

    object_child_foreach_recursive(object_get_root(), mlx5_describe_one, out);
    if (!out->len) {
        g_string_append(out, "no mlx5 device\n");
    }
    return human_readable_text_from_str(out);
}

static const VMStateDescription mlx5_vmstate = {
    .name = "mlx5",
    .unmigratable = 1,
};

static const Property mlx5_properties[] = {
    DEFINE_NIC_PROPERTIES(Mlx5State, conf),
    DEFINE_PROP_UINT16("device-id", Mlx5State, device_id, MLX5_DEFAULT_DEVICE_ID),
    DEFINE_PROP_UINT32("msix-vectors", Mlx5State, msix_vectors, 0),
    DEFINE_PROP_STRING("fw-version", Mlx5State, fw_version),
    DEFINE_PROP_STRING("psid", Mlx5State, psid),
    DEFINE_PROP_BOOL("cq-moderation", Mlx5State, cq_moderation, true),
};

static void mlx5_instance_init(Object *obj)
{
    Mlx5State *s = MLX5(obj);

    s->fw_version = g_strdup("22.43.1014");
    s->psid = g_strdup("MLX5EMU0000001");
}

static void mlx5_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    pc->realize = mlx5_realize;
    pc->exit = mlx5_exit;
    pc->config_write = mlx5_write_config;
    pc->vendor_id = MLX5_VENDOR_ID;
    pc->device_id = MLX5_DEFAULT_DEVICE_ID;
    pc->class_id = PCI_CLASS_NETWORK_ETHERNET;
    rc->phases.hold = mlx5_reset_hold;
    dc->desc = "NVIDIA ConnectX (mlx5) Ethernet/RoCE adapter (mlx5emu)";
    dc->vmsd = &mlx5_vmstate;
    device_class_set_props(dc, mlx5_properties);
    object_class_property_set_description(klass, "device-id",
        "PCI device ID of an mlx5 physical function (0x101d ConnectX-6 Dx, "
        "0x1017 ConnectX-5, 0x1021 ConnectX-7, ...)");
    object_class_property_set_description(klass, "msix-vectors",
        "MSI-X vectors: the control vector plus completion vectors "
        "(0 = one per vCPU plus one)");
    object_class_property_set_description(klass, "fw-version",
        "firmware version MAJOR.MINOR.SUBMINOR reported to the driver");
    object_class_property_set_description(klass, "psid",
        "board ID (PSID) reported by QUERY_ADAPTER");
    object_class_property_set_description(klass, "cq-moderation",
        "advertise CQ event moderation (cq_moderation, cq_period_mode_modify): "
        "the driver then batches completion interrupts (net DIM); off gives "
        "one interrupt per armed CQ event");
    object_class_property_add_str(klass, "objects", mlx5_get_objects, NULL);
    object_class_property_set_description(klass, "objects",
        "the device's objects now, as JSON: port, EQs, CQs, QPs (state, PSNs, "
        "WQEs in flight), work queues, MKeys, flow tables (also: info mlx5)");
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo mlx5_info = {
    .name = TYPE_MLX5,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(Mlx5State),
    .instance_init = mlx5_instance_init,
    .class_init = mlx5_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void mlx5_register_types(void)
{
    type_register_static(&mlx5_info);
    /* its line in hmp-commands-info.hx: hw/info-mlx5.hx */
    monitor_register_hmp_info_hrt("mlx5", mlx5_hmp_info);
}

type_init(mlx5_register_types)
