
    {
        .name       = "mlx5",
        .args_type  = "",
        .params     = "",
        .help       = "show each mlx5 device's objects: QPs, CQs, EQs, MKeys, flow tables",
        .flags      = "p",
    },

SRST
  ``info mlx5``
    Show the objects of each mlx5 device (mlx5emu): port counters, EQs
    and CQs with their counters and arming, QPs with state and PSNs,
    work queues, MKeys, flow tables.
ERST
