c     A Fortran task life cycle for the tests (tests/integration/test_life.c builds it
c     with gfortran): the master spawns one worker (this program); the worker sends
c     tag 1, leaves PVM with pvmfexit, enrols again with pvmfmytid (a new tid), sends
c     tag 2 from there and ends without pvmfexit. The master takes both, then waits for
c     a tag 3 from the worker's second tid that never comes.
      program lifef
      include 'fpvm3.h'
      integer mytid, parent, tid, info, bufid, numt, v, nb, tag, src
      call pvmfmytid(mytid)
      call pvmfparent(parent)
      if (parent .lt. 0) then
         call pvmfspawn('lifef', PVMDEFAULT, '*', 1, tid, numt)
         if (numt .ne. 1) stop 1
         call pvmfrecv(tid, 1, bufid)
         call pvmfunpack(INTEGER4, v, 1, 1, info)
         print *, 'lifef: first', v
         call pvmfrecv(-1, 2, bufid)
         call pvmfbufinfo(bufid, nb, tag, src, info)
         call pvmfunpack(INTEGER4, v, 1, 1, info)
         print *, 'lifef: second', v
c        LIFEF-MASTER-WAIT
         call pvmfrecv(src, 3, bufid)
         call pvmfexit(info)
      else
         call pvmfinitsend(PVMDEFAULT, info)
         call pvmfpack(INTEGER4, mytid, 1, 1, info)
         call pvmfsend(parent, 1, info)
         call pvmfexit(info)
         call pvmfmytid(mytid)
         call pvmfinitsend(PVMDEFAULT, info)
         call pvmfpack(INTEGER4, mytid, 1, 1, info)
c        LIFEF-SEND
         call pvmfsend(parent, 2, info)
      endif
      end
