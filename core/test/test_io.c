/* Managed I/O: a thread waiting for a descriptor parks and frees its native thread. The tests run
 * on one native thread, so a wait that blocked the native thread would hang them (and time out). */
#define _GNU_SOURCE
#include "harness.h"
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static mn_config one_native_thread(void) {
  mn_config c = harness_config();
  c.max_proc = 1;
  return c;
}

/* Parks the caller until every other thread of its ractor has died. */
static void join_others(mn_thread *self) {
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1)
    mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 200000, false);
}

static void spawn(mn_thread *self, mn_thread_fn fn, void *arg) {
  mn_thread_start(mn_thread_new(mn_thread_ractor(self), fn, arg, NULL));
}

/* Reads one byte, waiting through the event loop while the pipe is empty. */
static int read_byte(mn_thread *self, int fd, char *out) {
  for (;;) {
    ssize_t n = read(fd, out, 1);
    if (n == 1) return 1;
    if (n == 0) return 0;
    if (mn_errno() != EAGAIN) return -1;   /* errno after a switch: see mn_errno */
    if (mn_io_wait(self, fd, MN_IO_READ, MN_FOREVER) < 0) return -1;
  }
}

static int pipe_fds[2];
static char got;
static atomic_int reader_parked;

static void reader(mn_thread *self, void *arg) {
  atomic_store(&reader_parked, 1);
  CHECK_EQ(read_byte(self, pipe_fds[0], &got), 1);
}

static void pipe_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe2(pipe_fds, O_NONBLOCK), 0);
  spawn(self, reader, NULL);
  while (!atomic_load(&reader_parked)) mn_yield(self, MN_WAIT_NONE);
  mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 5000000, false);   /* the reader is parked meanwhile */
  CHECK_EQ(got, 0);
  CHECK_EQ(write(pipe_fds[1], "x", 1), 1);
  join_others(self);
  CHECK_EQ(got, 'x');
}
TEST(io_wait_parks_a_reader_until_its_pipe_is_written) {
  mn_config c = one_native_thread();
  harness_run(&c, NULL, pipe_main, NULL);
}

static void timeout_main(mn_thread *self, void *arg) {
  int fds[2];
  CHECK_EQ(pipe2(fds, O_NONBLOCK), 0);
  uint64_t t0 = mn_now_ns();
  int rc;
  do rc = mn_io_wait(self, fds[0], MN_IO_READ, t0 + 20000000); while (rc == 0 && mn_now_ns() < t0 + 20000000);
  CHECK_EQ(rc, 0);
  CHECK(mn_now_ns() - t0 >= 20000000);
  CHECK(mn_io_wait(self, fds[1], MN_IO_WRITE, MN_FOREVER) & MN_IO_WRITE);   /* an empty pipe is writable */
}
TEST(io_wait_times_out_at_its_deadline) {
  harness_run(NULL, NULL, timeout_main, NULL);
}

static int closed_rc, closed_errno;
static void closed_reader(mn_thread *self, void *arg) {
  atomic_store(&reader_parked, 1);
  closed_rc = mn_io_wait(self, pipe_fds[0], MN_IO_READ, MN_FOREVER);
  closed_errno = mn_errno();
}
static void close_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe2(pipe_fds, O_NONBLOCK), 0);
  spawn(self, closed_reader, NULL);
  while (!atomic_load(&reader_parked)) mn_yield(self, MN_WAIT_NONE);
  int woken;
  while ((woken = mn_io_close(pipe_fds[0])) == 0) mn_yield(self, MN_WAIT_NONE);   /* until it waits */
  CHECK_EQ(woken, 1);
  close(pipe_fds[0]);
  join_others(self);
  CHECK_EQ(closed_rc, -1);
  CHECK_EQ(closed_errno, EBADF);
}
TEST(closing_a_descriptor_wakes_its_waiters_with_ebadf) {
  mn_config c = one_native_thread();
  harness_run(&c, NULL, close_main, NULL);
}

/* Two readers and a writer parked on one socket at once: each wakes for its own readiness. */
static int sock[2];
static char buf_a, buf_b;
static atomic_int waiting;
static void sock_reader(mn_thread *self, void *arg) {
  atomic_fetch_add(&waiting, 1);
  CHECK_EQ(read_byte(self, sock[0], arg), 1);
}
static void sock_writer(mn_thread *self, void *arg) {
  atomic_fetch_add(&waiting, 1);
  CHECK(mn_io_wait(self, sock[0], MN_IO_WRITE, MN_FOREVER) & MN_IO_WRITE);
  *(int *)arg = 1;
}
static void shared_main(mn_thread *self, void *arg) {
  CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sock), 0);
  char chunk[4096];
  memset(chunk, 'w', sizeof chunk);
  while (write(sock[0], chunk, sizeof chunk) > 0) {}    /* sock[0] is not writable any more */
  CHECK_EQ(mn_errno(), EAGAIN);
  int wrote = 0;
  spawn(self, sock_reader, &buf_a);
  spawn(self, sock_reader, &buf_b);
  spawn(self, sock_writer, &wrote);
  while (atomic_load(&waiting) < 3) mn_yield(self, MN_WAIT_NONE);
  mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 2000000, false);
  CHECK_EQ(write(sock[1], "a", 1), 1);                   /* one reader gets it... */
  CHECK_EQ(write(sock[1], "b", 1), 1);                   /* ... the other this one */
  while (!buf_a || !buf_b) mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 200000, false);
  CHECK_EQ(wrote, 0);                                    /* the writer still waits */
  while (read(sock[1], chunk, sizeof chunk) > 0) {}      /* room: the writer wakes */
  join_others(self);
  CHECK_EQ(wrote, 1);
  CHECK(buf_a != buf_b);
}
TEST(readers_and_a_writer_wait_on_one_socket_at_once) {
  mn_config c = one_native_thread();
  harness_run(&c, NULL, shared_main, NULL);
}

enum { PIPES = 200 };
static int many[PIPES][2];
static char many_got[PIPES];
static void many_reader(mn_thread *self, void *arg) {
  long i = (long)arg;
  atomic_fetch_add(&waiting, 1);
  CHECK_EQ(read_byte(self, many[i][0], &many_got[i]), 1);
}
static void many_main(mn_thread *self, void *arg) {
  atomic_store(&waiting, 0);
  for (long i = 0; i < PIPES; i++) {
    CHECK_EQ(pipe2(many[i], O_NONBLOCK), 0);
    spawn(self, many_reader, (void *)i);
  }
  while (atomic_load(&waiting) < PIPES) mn_yield(self, MN_WAIT_NONE);
  for (long k = 0; k < PIPES; k++) {
    long i = (k * 37) % PIPES;              /* shuffled */
    char c = (char)('a' + i % 26);
    CHECK_EQ(write(many[i][1], &c, 1), 1);
  }
  join_others(self);
  for (long i = 0; i < PIPES; i++) CHECK_EQ(many_got[i], 'a' + i % 26);
}
TEST(two_hundred_threads_wait_on_two_hundred_pipes) {
  mn_config c = one_native_thread();
  harness_run(&c, NULL, many_main, NULL);
}

static void file_main(mn_thread *self, void *arg) {
  char path[] = "/tmp/mnrb-io-test-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  unlink(path);
  CHECK_EQ(mn_io_wait(self, fd, MN_IO_READ, MN_FOREVER), -1);
  CHECK_EQ(mn_errno(), EPERM);                   /* a regular file cannot be polled: a blocking call */
  int fds[2];
  CHECK_EQ(pipe2(fds, O_NONBLOCK), 0);
  int both[2] = { fds[0], fd };
  unsigned ev[2] = { MN_IO_READ, MN_IO_READ };
  CHECK(mn_io_wait_any(self, both, ev, 2, MN_FOREVER) > 0);   /* select: a file is always ready */
  CHECK_EQ(mn_io_wait(self, -1, MN_IO_READ, MN_FOREVER), -1);
  CHECK_EQ(mn_errno(), EBADF);
}
TEST(regular_files_are_not_pollable_and_bad_fds_fail) {
  harness_run(NULL, NULL, file_main, NULL);
}

static int any_rc;
static int any_fds[3][2];
static void any_waiter(mn_thread *self, void *arg) {
  int fds[3] = { any_fds[0][0], any_fds[1][0], any_fds[2][0] };
  unsigned ev[3] = { MN_IO_READ, MN_IO_READ, MN_IO_READ };
  atomic_store(&reader_parked, 1);
  while ((any_rc = mn_io_wait_any(self, fds, ev, 3, MN_FOREVER)) == 0) {}
}
static void any_main(mn_thread *self, void *arg) {
  for (int i = 0; i < 3; i++) CHECK_EQ(pipe2(any_fds[i], O_NONBLOCK), 0);
  atomic_store(&reader_parked, 0);
  spawn(self, any_waiter, NULL);
  while (!atomic_load(&reader_parked)) mn_yield(self, MN_WAIT_NONE);
  mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 2000000, false);
  CHECK_EQ(write(any_fds[2][1], "z", 1), 1);
  CHECK_EQ(write(any_fds[1][1], "y", 1), 1);   /* a second readiness must not disturb anything */
  join_others(self);
  CHECK(any_rc & MN_IO_READ);
}
TEST(waiting_on_several_descriptors_wakes_on_the_first_ready) {
  mn_config c = one_native_thread();
  harness_run(&c, NULL, any_main, NULL);
}

static mn_thread *interrupted;
static int interrupted_rc = 99;
static void interrupted_reader(mn_thread *self, void *arg) {
  interrupted = self;
  interrupted_rc = mn_io_wait(self, pipe_fds[0], MN_IO_READ, MN_FOREVER);
}
static void unpark_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe2(pipe_fds, O_NONBLOCK), 0);
  spawn(self, interrupted_reader, NULL);
  while (!interrupted) mn_yield(self, MN_WAIT_NONE);
  mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 2000000, false);
  mn_unpark(interrupted);                      /* Thread#raise: the wait ends with nothing ready */
  join_others(self);
  CHECK_EQ(interrupted_rc, 0);
}
TEST(an_unpark_ends_an_io_wait_with_nothing_ready) {
  mn_config c = one_native_thread();
  harness_run(&c, NULL, unpark_main, NULL);
}
