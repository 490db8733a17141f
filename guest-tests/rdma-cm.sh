#!/bin/bash
# The rdma_cm tools between two guests, each guest once as the server, run
# in both:
#   scripts/vm --nodes 2 [--peer rxe] -- \
#       /mlx5emu/guest-tests/rdma-cm.sh
# ucmatose (RC through rdma_cm, also 2 connections of 100 4 KiB messages),
# udaddy (UD through rdma_cm), rdma_server/rdma_client, rstream (rsockets,
# 200 64 KiB transfers, data verified), perftest over rdma_cm (ib_send_bw -R,
# ib_write_bw -R, ib_read_lat -R), rping -v -V over IPv6 (the link-local
# address with its %scope, and a ULA added for the test), and mckey (UD
# multicast through rdma_cm).  Prints
# "PASS/FAIL <test>"; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_check

# A global-scope IPv6 address, whose GID the kernel adds to the table.
MY6=fd00:6d6c:35::$((NODE + 1)) PEER6=fd00:6d6c:35::$((1 - NODE + 1))
ip -6 addr add "$MY6/64" dev "$DEV" nodad || fail ula "cannot add $MY6"
sleep 1
port=19100
# cm NAME PATTERN SERVER_CMD CLIENT_CMD: the commands are bash strings that
# see $SIP, $SIP6 and $SLL6 (the server's IPv4, ULA and link-local
# addresses), $PORT (and $PORT_LOW, 1..250) and $MY_IP; pair_check's
# trailing peer address is ignored.
cm() {
    local name=$1 pat=$2
    port=$((port + 1))
    if [ "$NODE" = "$SERVER" ]; then
        SIP=$MY_IP SIP6=$MY6 SLL6=$MY_IP6 cmd=$3
    else
        SIP=$PEER_IP SIP6=$PEER6 SLL6=$PEER_IP6 cmd=$4
    fi
    SIP=$SIP SIP6=$SIP6 SLL6=$SLL6 PORT=$port PORT_LOW=$((port % 250 + 1)) MY_IP=$MY_IP \
        pair_check "$name-node$SERVER-server" "$pat" bash -c "$cmd" _
}
for SERVER in 0 1; do
    cm ucmatose 'test complete' 'ucmatose -p $PORT' 'ucmatose -s $SIP -p $PORT'
    cm ucmatose-2x100x4k 'test complete' 'ucmatose -p $PORT -c 2 -C 100 -S 4096' \
        'ucmatose -s $SIP -p $PORT -c 2 -C 100 -S 4096'
    cm udaddy 'test complete' 'udaddy' 'udaddy -s $SIP'    # its -p is the port space
    cm rdma_server-client 'end 0' 'rdma_server -s $SIP -p $PORT' 'rdma_client -s $SIP -p $PORT'
    cm rstream-verify '^custom' 'rstream -T v -S 65536 -C 200 -p $PORT' \
        'rstream -T v -S 65536 -C 200 -s $SIP -p $PORT'
    # perftest's runs take seconds: a shorter limit keeps the cost of a lost
    # listen race (rdma-lib.sh listen_race) down.
    for t in ib_send_bw ib_write_bw; do
        PAIR_TIMEOUT=120 cm "$t-R" '^ *65536 ' "$t -R -d \$IBDEV -F -s 65536 -n 200 -p \$PORT" \
            "$t -R -d \$IBDEV -F -s 65536 -n 200 -p \$PORT \$SIP"
    done
    PAIR_TIMEOUT=120 cm ib_read_lat-R '^ *2 ' 'ib_read_lat -R -d $IBDEV -F -n 500 -p $PORT' \
        'ib_read_lat -R -d $IBDEV -F -n 500 -p $PORT $SIP'
    cm rping-ipv6-link-local 'rdma-ping-99:' 'rping -s -a $SLL6 -p $PORT -C 100 -v -V' \
        'rping -c -a $SLL6 -p $PORT -C 100 -v -V'
    cm rping-ipv6-ula 'rdma-ping-99:' 'rping -s -a $SIP6 -p $PORT -C 100 -v -V' \
        'rping -c -a $SIP6 -p $PORT -C 100 -v -V'
    # UD multicast: the server joins 239.77.0.N and receives, the client
    # joins and sends (rdma_join_multicast, ATTACH_TO_MCG, QP 0xFFFFFF).
    # MCKEY=node0-sends: only with node 0 the sender - mckey's sender posts
    # unsignaled sends and exits at once, and a Soft-RoCE QP destroyed then
    # drops the sends it has not put on the wire yet.
    if [ "${MCKEY:-both}" = both ] || { [ "$MCKEY" = node0-sends ] && [ "$SERVER" = 1 ]; }; then
        cm mckey 'test complete' 'mckey -m 239.77.0.$PORT_LOW -b $SIP -C 20' \
            'mckey -m 239.77.0.$PORT_LOW -b $MY_IP -s -C 20'
    fi
done
exit $((fails > 0))
