! Baton for coupled codes in Fortran (docs/embedding.md, "Fortran"): the C ABI of
! include/baton/baton.h through ISO_C_BINDING, with Fortran strings in and out.
!
! Handles are type(c_ptr); every function returns a status (baton_ok, ...), and
! baton_session_error(session) / baton_layout_error(layout) say why one failed.
! A layout's parts are row-major (C order): a Fortran code holds its part of a
! rows x cols layout as a(local_cols, local_rows), whose memory is the same.
module baton_f
  use, intrinsic :: iso_c_binding
  implicit none
  private

  integer(c_int), parameter, public :: baton_ok = 0, baton_invalid_argument = 1, baton_unknown_name = 2, &
                                       baton_region_too_small = 3, baton_unreachable = 4, baton_job_failed = 5, &
                                       baton_timeout = 6, baton_internal = 7

  ! What a handoff did (baton_report of baton.h).
  type, bind(c), public :: baton_report
    integer(c_int) :: state
    integer(c_int64_t) :: job
    integer(c_int) :: reused_spec
    integer(c_int64_t) :: bytes
    integer(c_int64_t) :: steps
    real(c_double) :: predicted_seconds
    real(c_double) :: measured_seconds
    real(c_double) :: lower_bound_seconds
  end type baton_report

  public :: baton_session_create, baton_session_set, baton_session_start, baton_session_error, &
            baton_session_destroy, baton_session_set_agree, baton_layout_create, baton_layout_add_node, &
            baton_layout_distribute, baton_layout_distribute_ranges, baton_layout_local_shape, &
            baton_layout_error, baton_layout_destroy, baton_share, baton_unshare, baton_handoff

  interface
    integer(c_int) function c_session_create(out) bind(c, name="baton_session_create")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function c_session_set(session, key, value) bind(c, name="baton_session_set")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: session
      character(kind=c_char), intent(in) :: key(*), value(*)
    end function
    integer(c_int) function c_session_start(session) bind(c, name="baton_session_start")
      import :: c_int, c_ptr
      type(c_ptr), value :: session
    end function
    type(c_ptr) function c_session_error(session) bind(c, name="baton_session_error")
      import :: c_ptr
      type(c_ptr), value :: session
    end function
    subroutine c_session_destroy(session) bind(c, name="baton_session_destroy")
      import :: c_ptr
      type(c_ptr), value :: session
    end subroutine
    integer(c_int) function c_session_set_agree(session, agree, context) bind(c, name="baton_session_set_agree")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: session
      type(c_funptr), value :: agree
      type(c_ptr), value :: context
    end function
    integer(c_int) function c_layout_create(out, rows, cols, element_size) bind(c, name="baton_layout_create")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), intent(out) :: out
      integer(c_int64_t), value :: rows, cols, element_size
    end function
    integer(c_int) function c_layout_add_node(layout, node) bind(c, name="baton_layout_add_node")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: layout
      character(kind=c_char), intent(in) :: node(*)
    end function
    integer(c_int) function c_layout_distribute(layout, dim, block) bind(c, name="baton_layout_distribute")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: layout
      integer(c_int), value :: dim
      integer(c_int64_t), value :: block
    end function
    integer(c_int) function c_layout_distribute_ranges(layout, dim, counts, n) &
        bind(c, name="baton_layout_distribute_ranges")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: layout
      integer(c_int), value :: dim
      integer(c_int64_t), intent(in) :: counts(*)
      integer(c_size_t), value :: n
    end function
    integer(c_int) function c_layout_local_shape(layout, node, rows, cols) bind(c, name="baton_layout_local_shape")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: layout
      character(kind=c_char), intent(in) :: node(*)
      integer(c_int64_t), intent(out) :: rows, cols
    end function
    type(c_ptr) function c_layout_error(layout) bind(c, name="baton_layout_error")
      import :: c_ptr
      type(c_ptr), value :: layout
    end function
    subroutine c_layout_destroy(layout) bind(c, name="baton_layout_destroy")
      import :: c_ptr
      type(c_ptr), value :: layout
    end subroutine
    integer(c_int) function c_share(session, name, layout, data, bytes) bind(c, name="baton_share")
      import :: c_int, c_ptr, c_char, c_size_t
      type(c_ptr), value :: session
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: layout, data
      integer(c_size_t), value :: bytes
    end function
    integer(c_int) function c_unshare(session, name) bind(c, name="baton_unshare")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: session
      character(kind=c_char), intent(in) :: name(*)
    end function
    integer(c_int) function c_handoff(session, name, from, to, report) bind(c, name="baton_handoff")
      import :: c_int, c_ptr, c_char, baton_report
      type(c_ptr), value :: session
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: from, to
      type(baton_report), intent(out) :: report
    end function
    integer(c_size_t) function c_strlen(text) bind(c, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: text
    end function
  end interface

contains

  ! A Fortran string as a NUL-terminated C string (trailing blanks dropped).
  pure function c_string(text) result(out)
    character(len=*), intent(in) :: text
    character(kind=c_char, len=len_trim(text) + 1) :: out
    out = trim(text) // c_null_char
  end function

  function fortran_string(text) result(out)
    type(c_ptr), intent(in) :: text
    character(len=:), allocatable :: out
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    n = int(c_strlen(text))
    call c_f_pointer(text, chars, [n])
    allocate(character(len=n) :: out)
    do i = 1, n
      out(i:i) = chars(i)
    end do
  end function

  integer(c_int) function baton_session_create(session)
    type(c_ptr), intent(out) :: session
    baton_session_create = c_session_create(session)
  end function

  integer(c_int) function baton_session_set(session, key, value)
    type(c_ptr), intent(in) :: session
    character(len=*), intent(in) :: key, value
    baton_session_set = c_session_set(session, c_string(key), c_string(value))
  end function

  integer(c_int) function baton_session_start(session)
    type(c_ptr), intent(in) :: session
    baton_session_start = c_session_start(session)
  end function

  function baton_session_error(session) result(message)
    type(c_ptr), intent(in) :: session
    character(len=:), allocatable :: message
    message = fortran_string(c_session_error(session))
  end function

  subroutine baton_session_destroy(session)
    type(c_ptr), intent(inout) :: session
    call c_session_destroy(session)
    session = c_null_ptr
  end subroutine

  ! agree: a bind(c) function (integer(c_int64_t), value :: v; type(c_ptr), value :: context)
  ! returning the largest v over every process of both codes (MPI_Allreduce, MPI_MAX).
  integer(c_int) function baton_session_set_agree(session, agree, context)
    type(c_ptr), intent(in) :: session
    type(c_funptr), intent(in) :: agree
    type(c_ptr), intent(in) :: context
    baton_session_set_agree = c_session_set_agree(session, agree, context)
  end function

  integer(c_int) function baton_layout_create(layout, rows, cols, element_size)
    type(c_ptr), intent(out) :: layout
    integer(c_int64_t), intent(in) :: rows, cols, element_size
    baton_layout_create = c_layout_create(layout, rows, cols, element_size)
  end function

  integer(c_int) function baton_layout_add_node(layout, node)
    type(c_ptr), intent(in) :: layout
    character(len=*), intent(in) :: node
    baton_layout_add_node = c_layout_add_node(layout, c_string(node))
  end function

  ! dim: 0 cuts rows, 1 cuts columns; block: 0 for blocks, else the block-cyclic block size.
  integer(c_int) function baton_layout_distribute(layout, dim, block)
    type(c_ptr), intent(in) :: layout
    integer, intent(in) :: dim
    integer(c_int64_t), intent(in) :: block
    baton_layout_distribute = c_layout_distribute(layout, int(dim, c_int), block)
  end function

  ! Index ranges instead: the n-th node added holds the next counts(n) rows (or columns).
  integer(c_int) function baton_layout_distribute_ranges(layout, dim, counts)
    type(c_ptr), intent(in) :: layout
    integer, intent(in) :: dim
    integer(c_int64_t), intent(in) :: counts(:)
    baton_layout_distribute_ranges = c_layout_distribute_ranges(layout, int(dim, c_int), counts, &
                                                                int(size(counts), c_size_t))
  end function

  integer(c_int) function baton_layout_local_shape(layout, node, rows, cols)
    type(c_ptr), intent(in) :: layout
    character(len=*), intent(in) :: node
    integer(c_int64_t), intent(out) :: rows, cols
    baton_layout_local_shape = c_layout_local_shape(layout, c_string(node), rows, cols)
  end function

  function baton_layout_error(layout) result(message)
    type(c_ptr), intent(in) :: layout
    character(len=:), allocatable :: message
    message = fortran_string(c_layout_error(layout))
  end function

  subroutine baton_layout_destroy(layout)
    type(c_ptr), intent(inout) :: layout
    call c_layout_destroy(layout)
    layout = c_null_ptr
  end subroutine

  ! data: c_loc of this node's part (a target array), bytes: its size in bytes.
  integer(c_int) function baton_share(session, name, layout, data, bytes)
    type(c_ptr), intent(in) :: session, layout, data
    character(len=*), intent(in) :: name
    integer(c_size_t), intent(in) :: bytes
    baton_share = c_share(session, c_string(name), layout, data, bytes)
  end function

  integer(c_int) function baton_unshare(session, name)
    type(c_ptr), intent(in) :: session
    character(len=*), intent(in) :: name
    baton_unshare = c_unshare(session, c_string(name))
  end function

  integer(c_int) function baton_handoff(session, name, from, to, report)
    type(c_ptr), intent(in) :: session, from, to
    character(len=*), intent(in) :: name
    type(baton_report), intent(out) :: report
    baton_handoff = c_handoff(session, c_string(name), from, to, report)
  end function

end module baton_f
