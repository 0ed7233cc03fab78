"""A seccomp filter for the bubblewrap sandbox: no system call that holds host RAM outside every limit.

A SysV shared-memory segment (or semaphore set, or message queue) lives in the sandbox's IPC
namespace until the sandbox ends (a red team held 1.5 GB in semaphores under a 1 GiB limit), a memfd
is RAM in a file nobody sees, and a socket pair holds its unread buffers in the kernel (some
200 kB each, one pair per two descriptors); none is counted by the address-space limit, and
without a control group nothing else bounds them: a few processes can hold gigabytes. A numpy
exercise needs none of them (the sandbox has no network either), so the filter refuses them
(EPERM), and refuses every system call made through another ABI than the machine's own, whose
numbers differ. The same goes for what the kernel charges to the user who started the sandbox,
host-wide, whatever namespace it is asked from: message queues, keys, inotify and fanotify
instances and queued real-time signals; a student could otherwise hold all of that user's share
while its worker lives. It also refuses new processes (fork, vfork, a clone that is not a thread, and
clone3, which answers ENOSYS so the C library falls back to clone): a student needs none, and
without them no per-user process limit is needed, which without root would be counted across
everything the grading user runs on the host. io_uring is refused too: its requests open sockets
(and do much else) without the system calls above ever being made. So are the calls that tell or
set which pages of a file are in the host's page cache (mincore, cachestat, readahead, fadvise,
preadv2/pwritev2 with their RWF_NOWAIT, madvise's COLD and PAGEOUT): every sandbox reads the same
runtime files, and a red team passed 64 bits a run from one student to the next through which of
their pages were cached. So are the calls that take a number from the kernel's one host-wide
inode counter (pipes, hugetlb mappings, userfaultfd, memfd_secret) and pidfd_open, which reads
another (every task's pidfs inode): a worker that was sent a hidden input moved the counter by it,
and a later worker, in any sandbox, read it back from a pipe of its own and showed it in a public
check (a red team read a hidden depth of 11,646 that way, give or take 60). Threads stay allowed,
but not with a pidfd (its inode number comes from another host-wide counter). So are the calls
that tell a mount's host-wide id (statx, which answers ENOSYS so that callers use stat, as on an
older kernel; name_to_handle_at, statmount, listmount): every sandbox a run starts takes ids, and
a red team read how many sandboxes another student's workers had cost. So are perf counters, and
any clock of another process (a clock id below 0): the zygote's CPU time tells how much sweeping
the last child left it, which that child chose. So are record locks, flock, leases and directory
notices (a lock on the host's /dev/null, which every sandbox binds, is seen by any process on the
host: a red team passed 64-bit values between two students graded at once), aio contexts (their
numbers come from the host-wide inode counter), and the ioctls that set a folder's inode flags
(/tmp's nodump and noatime outlived the zygote's sweep).
Built by hand as classic BPF, so no library is needed; on an architecture it does not know,
:func:`program` returns None and no filter is used.
"""

from __future__ import annotations

import errno
import platform
import struct

# machine: (AUDIT_ARCH_*, {refused system call: number}, clone, clone3, madvise, mmap, statx,
# (timer_create, clock_settime, clock_gettime, clock_getres, clock_nanosleep), fcntl, ioctl)
_ARCHES = {
    "x86_64": (0xC000003E, {"shmget": 29, "memfd_create": 319, "socket": 41, "socketpair": 53,
                            "fork": 57, "vfork": 58, "mq_open": 240, "add_key": 248, "request_key": 249,
                            "keyctl": 250, "inotify_init": 253, "inotify_init1": 294, "fanotify_init": 300,
                            "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "io_uring_setup": 425,
                            "io_uring_enter": 426, "io_uring_register": 427, "semget": 64, "msgget": 68,
                            "mincore": 27, "readahead": 187, "fadvise64": 221, "preadv2": 327, "pwritev2": 328,
                            "cachestat": 451, "pipe": 22, "pipe2": 293, "userfaultfd": 323, "memfd_secret": 447,
                            "pidfd_open": 434, "perf_event_open": 298, "name_to_handle_at": 303, "statmount": 457,
                            "listmount": 458, "flock": 73, "io_setup": 206}, 56, 435, 28, 9, 332,
               (222, 227, 228, 229, 230), 72, 16),
    "aarch64": (0xC00000B7, {"shmget": 194, "memfd_create": 279, "socket": 198, "socketpair": 199,
                             "mq_open": 180, "add_key": 217, "request_key": 218, "keyctl": 219,
                             "inotify_init1": 26, "fanotify_init": 262, "rt_sigqueueinfo": 138,
                             "rt_tgsigqueueinfo": 240, "io_uring_setup": 425, "io_uring_enter": 426,
                             "io_uring_register": 427, "semget": 190, "msgget": 186, "mincore": 232,
                             "readahead": 213, "fadvise64": 223, "preadv2": 286, "pwritev2": 287,
                             "cachestat": 451, "pipe2": 59, "userfaultfd": 282, "memfd_secret": 447,
                             "pidfd_open": 434, "perf_event_open": 241, "name_to_handle_at": 264,
                             "statmount": 457, "listmount": 458, "flock": 32, "io_setup": 0}, 220, 435, 233, 222, 291,
                (107, 112, 113, 114, 115), 25, 29),
}
_CLONE_THREAD = 0x00010000
_CLONE_PIDFD = 0x00001000  # a thread's pidfd: its inode number comes from a host-wide counter
_NEGATIVE = 0x80000000  # a clock id below 0 names another process's (or thread's) CPU clock
_COMMAND_OFFSET = 24  # args[1], low word: fcntl's and ioctl's command
# Record locks (F_GETLK, F_SETLK, F_SETLKW and their open-file forms), leases and directory
# notices: a lock lives on a file every sandbox binds from the host (/dev/null, a library), where
# any process sees it, and on an open file a zygote's children share.
_FCNTL_REFUSED = (5, 6, 7, 36, 37, 38, 1024, 1026)
# The inode flags of /tmp (nodump, noatime, ...) and its extended attributes' project and flags,
# which a child could set for the next and the zygote's sweep does not put back.
_IOCTL_REFUSED = (0x40086602, 0x40046602, 0x401C5820)  # FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS, FS_IOC_FSSETXATTR
_X32_BIT = 0x40000000  # x86_64's x32 ABI: the same calls under other numbers
_LOAD_WORD, _JUMP_EQUAL, _JUMP_SET, _RETURN = 0x20, 0x15, 0x45, 0x06
_NUMBER_OFFSET, _ARCH_OFFSET, _FLAGS_OFFSET = 0, 4, 16  # in struct seccomp_data (flags: args[0], low word)
_ADVICE_OFFSET = 32  # args[2], low word: madvise's advice
_MADV_COLD, _MADV_PAGEOUT = 20, 21
_MMAP_FLAGS_OFFSET = 40  # args[3], low word: mmap's flags
_MAP_HUGETLB = 0x40000  # a hugetlbfs inode per mapping, numbered from the host-wide counter
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000


def program(machine: str | None = None) -> bytes | None:
    """The filter as the bytes of a ``struct sock_filter`` array, ready for ``bwrap --seccomp``."""
    machine = machine or platform.machine()
    if machine not in _ARCHES:
        return None
    arch, calls, clone, clone3, madvise, mmap, statx, clocks, fcntl, ioctl = _ARCHES[machine]
    refuse = (_RETURN, 0, 0, _ERRNO | errno.EPERM)
    steps = [(_LOAD_WORD, 0, 0, _ARCH_OFFSET), (_JUMP_EQUAL, 1, 0, arch), refuse,
             (_LOAD_WORD, 0, 0, _NUMBER_OFFSET)]
    if machine == "x86_64":
        steps += [(_JUMP_SET, 0, 1, _X32_BIT), refuse]
    for number in sorted(calls.values()):
        steps += [(_JUMP_EQUAL, 0, 1, number), refuse]
    # mmap stays, but not with MAP_HUGETLB (each such mapping takes a number from the host-wide
    # inode counter, as a pipe does; numpy asks for huge pages with madvise, never this way).
    steps += [(_JUMP_EQUAL, 0, 4, mmap), (_LOAD_WORD, 0, 0, _MMAP_FLAGS_OFFSET),
              (_JUMP_SET, 1, 0, _MAP_HUGETLB), (_RETURN, 0, 0, _ALLOW), refuse]
    # madvise stays (the C library's allocator needs it), but not the advice that evicts the pages
    # of a file every sandbox reads (each page cached or not is a bit another student can read).
    steps += [(_JUMP_EQUAL, 0, 5, madvise), (_LOAD_WORD, 0, 0, _ADVICE_OFFSET),
              (_JUMP_EQUAL, 2, 0, _MADV_COLD), (_JUMP_EQUAL, 1, 0, _MADV_PAGEOUT), (_RETURN, 0, 0, _ALLOW), refuse]
    # A clock of another process: the zygote's CPU time shows how much sweeping the last child
    # left it, which that child chose (a red team passed a bit per worker that way).
    for number in clocks:
        steps += [(_JUMP_EQUAL, 0, 4, number), (_LOAD_WORD, 0, 0, _FLAGS_OFFSET),
                  (_JUMP_SET, 0, 1, _NEGATIVE), refuse, (_RETURN, 0, 0, _ALLOW)]
    for number, refused in ((fcntl, _FCNTL_REFUSED), (ioctl, _IOCTL_REFUSED)):
        count = len(refused)
        steps += [(_JUMP_EQUAL, 0, count + 3, number), (_LOAD_WORD, 0, 0, _COMMAND_OFFSET)]
        steps += [(_JUMP_EQUAL, count - position, 0, command) for position, command in enumerate(refused)]
        steps += [(_RETURN, 0, 0, _ALLOW), refuse]
    # statx tells a mount's id, numbered host-wide (a red team read how many sandboxes another
    # student's run had started); ENOSYS, as from an older kernel, so that callers use stat instead.
    steps += [(_JUMP_EQUAL, 0, 1, statx), (_RETURN, 0, 0, _ERRNO | errno.ENOSYS)]
    steps += [(_JUMP_EQUAL, 0, 1, clone3), (_RETURN, 0, 0, _ERRNO | errno.ENOSYS),
              (_JUMP_EQUAL, 0, 4, clone), (_LOAD_WORD, 0, 0, _FLAGS_OFFSET),
              (_JUMP_SET, 1, 0, _CLONE_PIDFD), (_JUMP_SET, 1, 0, _CLONE_THREAD), (_RETURN, 0, 0, _ERRNO | errno.EAGAIN)]
    steps.append((_RETURN, 0, 0, _ALLOW))
    return b"".join(struct.pack("=HBBI", *step) for step in steps)
