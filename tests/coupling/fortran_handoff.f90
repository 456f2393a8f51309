! The Fortran module baton_f (coupling/fortran) end to end: three sessions of this program
! (p0, c0, c1) against the coordinator whose addresses are the arguments; a 6 x 4 array of
! doubles goes from block rows over p0 to columns cyclic over c0 and c1, and every element
! is checked; then the errors of an unknown node and a name nobody shared. Prints
! "fortran: verified". Run by tests/coupling/python/test_baton.py, which starts the coordinator.
!
!   fortran_handoff API AGENTS SECRET_FILE
program fortran_handoff
  use, intrinsic :: iso_c_binding
  use baton_f
  implicit none
  character(len=256) :: api, agents, secret_file
  type(c_ptr) :: p0, c0, c1, from, to
  type(baton_report) :: report
  real(c_double), target :: a(4, 6), b0(2, 6), b1(2, 6)  ! row-major 6 x 4, 6 x 2, 6 x 2
  integer(c_int64_t) :: rows, cols
  integer :: i, j

  call get_command_argument(1, api)
  call get_command_argument(2, agents)
  call get_command_argument(3, secret_file)
  p0 = started("p0")
  c0 = started("c0")
  c1 = started("c1")

  call check(baton_layout_create(from, 6_c_int64_t, 4_c_int64_t, 8_c_int64_t), "layout")
  call check(baton_layout_add_node(from, "p0"), "layout")
  call check(baton_layout_distribute_ranges(from, 0, [6_c_int64_t]), "layout")  ! p0: all 6 rows
  call check(baton_layout_create(to, 6_c_int64_t, 4_c_int64_t, 8_c_int64_t), "layout")
  call check(baton_layout_add_node(to, "c0"), "layout")
  call check(baton_layout_add_node(to, "c1"), "layout")
  call check(baton_layout_distribute(to, 1, 1_c_int64_t), "layout")
  call check(baton_layout_local_shape(to, "c1", rows, cols), "local shape")
  if (rows /= 6 .or. cols /= 2) error stop "c1's part is not 6 x 2"
  if (baton_layout_local_shape(to, "c7", rows, cols) /= baton_unknown_name) error stop "c7 was found"
  if (index(baton_layout_error(to), "node c7 is not in the layout's group") == 0) error stop "c7's error"

  do i = 1, 6
    do j = 1, 4
      a(j, i) = 10 * i + j  ! element (i, j), counted from 1
    end do
  end do
  b0 = 0
  b1 = 0
  call check(baton_share(p0, "field", from, c_loc(a), int(8 * size(a), c_size_t)), baton_session_error(p0))
  call check(baton_share(c0, "field", to, c_loc(b0), int(8 * size(b0), c_size_t)), baton_session_error(c0))
  call check(baton_share(c1, "field", to, c_loc(b1), int(8 * size(b1), c_size_t)), baton_session_error(c1))
  call check(baton_handoff(p0, "field", from, to, report), baton_session_error(p0))
  if (report%state /= 0 .or. report%bytes /= 192) error stop "the report is not a done job of 192 bytes"
  do i = 1, 6
    do j = 1, 2
      if (b0(j, i) /= a(2 * j - 1, i) .or. b1(j, i) /= a(2 * j, i)) error stop "a column arrived wrong"
    end do
  end do

  if (baton_handoff(p0, "wind", from, to, report) /= baton_unknown_name) error stop "wind was handed off"
  if (index(baton_session_error(p0), "node p0 shared no array named wind") == 0) error stop "wind's error"

  call baton_session_destroy(c1)
  call baton_session_destroy(c0)
  call baton_session_destroy(p0)
  call baton_layout_destroy(from)
  call baton_layout_destroy(to)
  print "(a)", "fortran: verified"

contains

  function started(node) result(session)
    character(len=*), intent(in) :: node
    type(c_ptr) :: session
    call check(baton_session_create(session), "create")
    call check(baton_session_set(session, "node_id", node), baton_session_error(session))
    call check(baton_session_set(session, "api", trim(api)), baton_session_error(session))
    call check(baton_session_set(session, "coordinator", trim(agents)), baton_session_error(session))
    call check(baton_session_set(session, "secret_file", trim(secret_file)), baton_session_error(session))
    call check(baton_session_set(session, "timeout", "30"), baton_session_error(session))
    call check(baton_session_start(session), baton_session_error(session))
  end function

  subroutine check(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status /= baton_ok) then
      print "(a, i0, 2a)", "fortran: status ", status, ": ", what
      error stop 1
    end if
  end subroutine

end program fortran_handoff
