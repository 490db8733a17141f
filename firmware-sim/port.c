/*
 * The physical port: operational state from the administrative state the
 * driver sets (PAOS) and the carrier of the platform's link.
 *
 * mlx5e learns of carrier changes only from PORT_CHANGE events on the
 * async EQ (Linux en_main.c async_event -> mlx5e_update_carrier, which then
 * asks QUERY_VPORT_STATE), so every change of the operational state posts
 * one: subtype ACTIVE (4) or DOWN (1), port number in bits 7:4 of EQE
 * byte 0x28.
 */
#include "cmd.h"

void mlx5_port_update(Mlx5Fw *fw)
{
    bool up = fw->hca_state == MLX5_HCA_INITIALIZED && fw->paos_admin == 1 &&
              fw->link_carrier;
    uint8_t data[EQE_DATA_BYTES] = { 0 };

    if (up == fw->port_up) {
        return;
    }
    fw->port_up = up;
    mlx5emu_trace_port_state(up, fw->paos_admin, fw->link_carrier);
    data[EQE_PORT - EQE_DATA] = 1 << 4;         /* port 1 */
    mlx5_eq_post_async(fw, MLX5_EVENT_PORT_CHANGE,
                       up ? MLX5_PORT_CHANGE_ACTIVE : MLX5_PORT_CHANGE_DOWN, data);
}

void mlx5_port_set_carrier(Mlx5Fw *fw, bool carrier)
{
    fw->link_carrier = carrier;
    mlx5_port_update(fw);
}
