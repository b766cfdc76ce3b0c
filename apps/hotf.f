c     hotf: a Fortran PVM task whose computing is known in advance, the subject of the
c     sampling suite's Fortran test (tests/integration/test_sampling.c builds it with
c     gfortran): of its compute, subroutine hotsub does 70% and subroutine warmsb 30%,
c     interleaved in 50 rounds. Both run the same serial chain (one multiply and one add
c     a step on the value the next step needs), so the shares are the step counts' 7:3.
c     It measures each part's CPU time itself and prints the shares
c     ("hotf: hot 70.1 warm 29.9"), for the test to compare with the samples.
      program hotf
      include 'fpvm3.h'
      integer mytid, info, round, nrounds
      integer*8 steps
      double precision x, t0, t1, t2, inhot, inwarm
      character*20 arg
      parameter (nrounds = 50)
      call pvmfmytid(mytid)
      if (mytid .lt. 0) stop 1
      steps = 600000000
      if (command_argument_count() .ge. 1) then
         call get_command_argument(1, arg)
         read (arg, *) steps
      endif
      x = 1.0d0
      inhot = 0.0d0
      inwarm = 0.0d0
      do round = 1, nrounds
         call cpu_time(t0)
         call hotsub(steps / nrounds * 7 / 10, x)
         call cpu_time(t1)
         call warmsb(steps / nrounds * 3 / 10, x)
         call cpu_time(t2)
         inhot = inhot + (t1 - t0)
         inwarm = inwarm + (t2 - t1)
      enddo
      write (*, '(a, f5.1, a, f5.1, a, f12.3)') 'hotf: hot ',
     &   100.0d0 * inhot / (inhot + inwarm), ' warm ',
     &   100.0d0 * inwarm / (inhot + inwarm), ' x ', x
      call pvmfexit(info)
      end

c     The hot subroutine: n steps of the chain on x.
      subroutine hotsub(n, x)
      integer*8 n, i
      double precision x
      do i = 1, n
         x = x * 0.9999999d0 + 1.0d0
      enddo
      end

c     The warm one: the same chain with other constants.
      subroutine warmsb(n, x)
      integer*8 n, i
      double precision x
      do i = 1, n
         x = x * 0.9999998d0 + 2.0d0
      enddo
      end
