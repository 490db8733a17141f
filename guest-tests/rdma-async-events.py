#!/usr/bin/env python3
"""Asynchronous events reach the application (ibv_get_async_event), in one
guest through the device's RoCE loopback:

  scripts/vm -- python3 /mlx5emu/guest-tests/rdma-async-events.py

- COMM_EST: the first request that reaches a QP still in RTR;
- SRQ_LIMIT_REACHED: an SRQ armed with limit 7 and 10 receives posted fires
  once 4 are consumed (6 left), and then reads back disarmed (limit 0);
- QP_LAST_WQE_REACHED: that SRQ's QP moved to ERR;
- QP_ACCESS_ERR: a responder QP that refused an RDMA WRITE with a bad rkey
  (the requester gets REM_ACCESS_ERR);
- CQ_ERR: a CQ the device overruns.
Prints "PASS/FAIL <check>"; exit 1 if one failed.
"""
import fcntl
import importlib.util
import os
import sys
import time

from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPCap, QPInitAttr
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
from pyverbs.wr import RecvWR, SendWR, SGE

_spec = importlib.util.spec_from_file_location(
    'verbs_check', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rdma-verbs-check.py'))
vc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vc)
E = vc.E

fails = 0


def report(ok, name, detail=''):
    global fails
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    fails += not ok


class Events:
    """ibv_get_async_event blocks (and pyverbs holds the GIL meanwhile): the
    context's event file, an anon inode "[infinibandevent]", is made
    non-blocking, and the events are polled."""

    def __init__(self, ctx):
        self.ctx, self.kept = ctx, []
        for fd in os.listdir('/proc/self/fd'):
            try:
                target = os.readlink(f'/proc/self/fd/{fd}')
            except OSError:
                continue
            if target == 'anon_inode:[infinibandevent]':
                flags = fcntl.fcntl(int(fd), fcntl.F_GETFL)
                fcntl.fcntl(int(fd), fcntl.F_SETFL, flags | os.O_NONBLOCK)

    def _next(self, deadline):
        while time.monotonic() < deadline:
            try:
                ev = self.ctx.get_async_event()
            except PyverbsRDMAError:
                time.sleep(0.05)            # EAGAIN: none yet
                continue
            t = ev.event_type
            ev.ack()
            return t
        return None

    def expect(self, name, etype, timeout=10):
        """An event of type etype within timeout s (others are kept)."""
        if etype in self.kept:
            self.kept.remove(etype)
            report(True, name)
            return
        deadline = time.monotonic() + timeout
        while True:
            t = self._next(deadline)
            if t is None:
                report(False, name, f'no event {etype} in {timeout} s (others: {self.kept})')
                return
            if t == etype:
                report(True, name)
                return
            self.kept.append(t)


def remote(qp, gid):
    return {'gid': gid, 'qpn': qp.qp_num, 'psn': 100}


def to_rtr(qp, gidx, peer):
    """INIT and RTR only: the responder side."""
    a = vc.QPAttr()
    a.qp_state = E.IBV_QPS_INIT
    a.pkey_index, a.port_num, a.qp_access_flags = 0, 1, vc.ACCESS_ALL
    qp.modify(a, E.IBV_QP_STATE | E.IBV_QP_PKEY_INDEX | E.IBV_QP_PORT | E.IBV_QP_ACCESS_FLAGS)
    a = vc.QPAttr()
    a.qp_state, a.path_mtu = E.IBV_QPS_RTR, E.IBV_MTU_1024
    a.dest_qp_num, a.rq_psn, a.max_dest_rd_atomic, a.min_rnr_timer = peer['qpn'], 100, 4, 12
    a.ah_attr = vc.AHAttr(port_num=1, is_global=1,
                          gr=vc.GlobalRoute(dgid=vc.GID(peer['gid']), sgid_index=gidx, hop_limit=64))
    qp.modify(a, E.IBV_QP_STATE | E.IBV_QP_AV | E.IBV_QP_PATH_MTU | E.IBV_QP_DEST_QPN |
              E.IBV_QP_RQ_PSN | E.IBV_QP_MAX_DEST_RD_ATOMIC | E.IBV_QP_MIN_RNR_TIMER)


def send(qp, mr, n, opcode=None, rkey=None):
    for i in range(n):
        wr = SendWR(wr_id=i, opcode=E.IBV_WR_SEND if opcode is None else opcode,
                    num_sge=1, sg=[SGE(mr.buf, 64, mr.lkey)], send_flags=E.IBV_SEND_SIGNALED)
        if rkey is not None:
            wr.set_wr_rdma(rkey, mr.buf)
        qp.post_send(wr)


def main():
    ibdev = os.environ.get('IBDEV', 'mlx5_0')
    gidx = vc.gid_index(ibdev, os.environ['MY_IP'])
    ctx = Context(name=ibdev)
    gid = str(ctx.query_gid(1, gidx))
    ev = Events(ctx)
    pd = PD(ctx)
    cq = CQ(ctx, 256)
    mr = MR(pd, 1 << 16, vc.ACCESS_ALL)

    # COMM_EST and the SRQ limit: qa -> qb, qb on the SRQ and still in RTR
    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=16, max_sge=1)))
    qa, _ = vc.make_qp(pd, cq, cq)
    qb = QP(pd, QPInitAttr(qp_type=E.IBV_QPT_RC, scq=cq, rcq=cq, srq=srq,
                           cap=QPCap(max_send_wr=4, max_recv_wr=0, max_send_sge=1,
                                     max_recv_sge=1)))
    to_rtr(qb, gidx, remote(qa, gid))
    vc.connect(qa, gidx, remote(qb, gid), 100)
    for i in range(10):
        srq.post_recv(RecvWR(wr_id=100 + i, num_sge=1, sg=[SGE(mr.buf + 4096, 256, mr.lkey)]))
    srq.modify(SrqAttr(srq_limit=7), E.IBV_SRQ_LIMIT)
    send(qa, mr, 4)
    wcs = vc.poll(cq, 8)
    report(len(wcs) == 8 and all(w.status == 0 for w in wcs), 'srq-sends',
           f'{len(wcs)} of 8 completions')
    ev.expect('comm-est', E.IBV_EVENT_COMM_EST)
    ev.expect('srq-limit-reached', E.IBV_EVENT_SRQ_LIMIT_REACHED)
    limit = srq.query().srq_limit
    report(limit == 0, 'srq-limit-disarmed', f'srq_limit {limit} after the event')

    # the last WQE: qb to ERR
    a = vc.QPAttr()
    a.qp_state = E.IBV_QPS_ERR
    qb.modify(a, E.IBV_QP_STATE)
    ev.expect('qp-last-wqe-reached', E.IBV_EVENT_QP_LAST_WQE_REACHED)

    # the responder's access error: qc WRITEs to qd with a bad rkey
    qc, _ = vc.make_qp(pd, cq, cq)
    qd, _ = vc.make_qp(pd, cq, cq)
    vc.connect(qc, gidx, remote(qd, gid), 100, retry_cnt=1)
    vc.connect(qd, gidx, remote(qc, gid), 100)
    send(qc, mr, 1, E.IBV_WR_RDMA_WRITE, rkey=mr.rkey ^ 0x80)
    wcs = vc.poll(cq, 1)
    report(len(wcs) == 1 and wcs[0].status == E.IBV_WC_REM_ACCESS_ERR, 'write-bad-rkey',
           vc.status_name(wcs[0].status) if wcs else 'no completion')
    ev.expect('qp-access-err', E.IBV_EVENT_QP_ACCESS_ERR)

    # a CQ overrun: 8 signaled sends on a send CQ nobody polls
    small = CQ(ctx, 1)
    qe = QP(pd, QPInitAttr(qp_type=E.IBV_QPT_RC, scq=small, rcq=cq,
                           cap=QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=1,
                                     max_recv_sge=1)))
    qf, _ = vc.make_qp(pd, cq, cq)
    vc.connect(qe, gidx, remote(qf, gid), 100)
    vc.connect(qf, gidx, remote(qe, gid), 100)
    for i in range(8):
        qf.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[SGE(mr.buf + 8192, 256, mr.lkey)]))
    send(qe, mr, 8)
    ev.expect('cq-err', E.IBV_EVENT_CQ_ERR)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
