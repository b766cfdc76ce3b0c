c     Group broadcast and reduce in Fortran, for preserve mode's tests and benchmarks
c     (tests/integration/test_preserve.c and bench/run.sh build it with gfortran): the
c     first task spawns NW copies of this program; all join group 'gredf'; for NR
c     rounds the first broadcasts the round's number, every member adds its instance
c     number and the sums are reduced to the first with PvmSum. Prints the total, the
c     same in every run: 5 * (1 + ... + NR) + NR * (0 + 1 + 2 + 3 + 4).
      program gredf
      include 'fpvm3.h'
      external pvmsum
      integer nw, nr
      parameter (nw = 4, nr = 200)
      integer mytid, parent, inst, info, numt, tids(nw), r, v, s
      integer*8 total
      call pvmfmytid(mytid)
      call pvmfparent(parent)
      call pvmfjoingroup('gredf', inst)
      if (parent .lt. 0) then
         call pvmfspawn('gredf', PVMDEFAULT, '*', nw, tids, numt)
         if (numt .ne. nw) stop 1
      endif
      call pvmfbarrier('gredf', nw + 1, info)
      total = 0
      do 10 r = 1, nr
         if (inst .eq. 0) then
            v = r
            call pvmfinitsend(PVMDEFAULT, info)
            call pvmfpack(INTEGER4, v, 1, 1, info)
            call pvmfbcast('gredf', 7, info)
         else
            call pvmfrecv(-1, 7, info)
            call pvmfunpack(INTEGER4, v, 1, 1, info)
         endif
         s = v + inst
         call pvmfreduce(pvmsum, s, 1, INTEGER4, 8, 'gredf', 0, info)
         if (inst .eq. 0) total = total + s
 10   continue
      if (inst .eq. 0) write (*, '(A, I0)') 'gredf: total ', total
      call pvmfbarrier('gredf', nw + 1, info)
      call pvmflvgroup('gredf', info)
      call pvmfexit(info)
      end
