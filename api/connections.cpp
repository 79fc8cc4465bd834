#include "api/connections.h"

#include "core/log.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <malloc.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdexcept>

namespace gleaner::api {
namespace {

/// The numeric address and port of a socket address; an IPv4-mapped IPv6 address is given as
/// IPv4, so one client counts once whichever way it came in.
void address_text(const sockaddr_storage& addr, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(addr);
    inet_ntop(AF_INET, &a.sin_addr, text, sizeof text);
    port = ntohs(a.sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(addr);
    if (IN6_IS_ADDR_V4MAPPED(&a.sin6_addr)) {
      inet_ntop(AF_INET, &a.sin6_addr.s6_addr[12], text, sizeof text);
    } else {
      inet_ntop(AF_INET6, &a.sin6_addr, text, sizeof text);
    }
    port = ntohs(a.sin6_port);
  }
  ip = text;
}

Peer peer_of(int fd) {
  Peer peer;
  peer.fd = fd;
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    address_text(addr, peer.remote_ip, peer.remote_port);
  }
  len = sizeof addr;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    address_text(addr, peer.local_ip, peer.local_port);
  }
  return peer;
}

/// Sends what fits without waiting: for the few bytes of a 100 Continue or of refusing a
/// connection at accept, to a socket with nothing else queued.
void send_now(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n =
        ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

/// Connections admitted over max_connections whose displacement the read thread has not done yet:
/// how far the count may run ahead of the cap.
constexpr int kMaxDisplacing = 64;
/// How often a written answer's delivery is looked at until the client acknowledged it.
constexpr Millis kDeliveryPoll{10};
/// Returning freed memory to the system costs a walk of the heap: done once this much was freed.
constexpr std::size_t kTrimAfterBytes = 64u << 20;

}  // namespace

struct Connections::Connection {
  enum class Phase {
    Idle,       ///< between requests: waiting for a first byte
    Reading,    ///< a request has begun and is being read
    Busy,       ///< a worker is answering; not read meanwhile (pipelined bytes wait in the kernel)
    Writing,    ///< sending `out`; not read meanwhile either
    Confirming,  ///< written; waiting for the client to acknowledge it (Reply::on_delivered)
    Lingering,  ///< answered, shut for writing: reading and dropping until the client closes
    Producing,   ///< a worker makes the next piece of the answer (`pieces`); not polled
  };
  Peer peer;
  std::string key;  ///< client_address_key(peer.remote_ip)
  RequestReader reader;
  std::string in;   ///< received and not yet taken by the reader
  std::string out;  ///< the response being written
  std::size_t out_sent = 0;
  bool close_after = false;  ///< whether the connection ends once `out` is written
  Phase phase = Phase::Reading;
  SteadyClock::time_point started;   ///< the current request's first byte (or the accept)
  SteadyClock::time_point deadline;  ///< when the current phase ends
  bool continue_sent = false;
  int served = 0;
  std::function<void(bool)> on_delivered;  ///< the answer being written's, until called
  /// The rest of the answer being written (Reply::pieces); a worker's while Producing.
  std::function<std::optional<std::string>()> pieces;
  SteadyClock::time_point confirm_until;  ///< when an unacknowledged answer counts as undelivered
  std::size_t reserved = 0;  ///< bytes drawn from max_buffered_bytes
  /// Closed by the worker that answered it after stop(), when the read thread was gone.
  bool closed = false;

  Connection(Peer p, RequestReader::Limits limits)
      : peer(std::move(p)), key(client_address_key(peer.remote_ip)), reader(limits) {}
};

Connections::Connections(ConnectionLimits limits, int threads, Answer answer, Refusal refusal)
    : limits_(limits), answer_(std::move(answer)), refusal_(std::move(refusal)) {
  if (threads < 1) throw std::invalid_argument("the server needs at least one worker thread");
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) throw std::runtime_error("eventfd failed");
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work_loop(); });
  reader_ = std::thread([this] { read_loop(); });
}

Connections::~Connections() {
  join();
  close(wake_fd_);
}

std::string client_address_key(const std::string& ip) {
  in6_addr a{};
  if (ip.find(':') == std::string::npos || inet_pton(AF_INET6, ip.c_str(), &a) != 1) return ip;
  if (IN6_IS_ADDR_V4MAPPED(&a)) {
    char v4[INET_ADDRSTRLEN];
    if (inet_ntop(AF_INET, &a.s6_addr[12], v4, sizeof v4)) return v4;
    return ip;
  }
  std::fill(&a.s6_addr[8], &a.s6_addr[16], 0);
  char text[INET6_ADDRSTRLEN];
  if (!inet_ntop(AF_INET6, &a, text, sizeof text)) return ip;
  return std::string(text) + "/64";
}

void Connections::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = write(wake_fd_, &one, sizeof one);
}

void Connections::adopt(int fd) {
  Peer peer = peer_of(fd);
  const std::string key = client_address_key(peer.remote_ip);
  ReadError refusal;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      close(fd);
      return;
    }
    const auto it = per_address_.find(key);
    const int held = it == per_address_.end() ? 0 : it->second;
    if (held >= limits_.connections_per_address) {
      refusal = {429, ErrorCode::TooManyRequests, "too many open connections from this address"};
    } else if (open_ < limits_.max_connections ||
               (displacing_ < kMaxDisplacing && !by_count_.empty() &&
                by_count_.rbegin()->first >= held + 2)) {
      // Under the cap; or at it, from an address holding at least two fewer connections than
      // the one holding most, which gives one up for it (displace_one).
      const bool displaces = open_ >= limits_.max_connections;
      count_address(key);
      ++open_;
      if (displaces) ++displacing_;
      adopted_.push_back(Adopted{std::move(peer), displaces});
      wake();
      return;
    } else {
      refusal = {503, ErrorCode::Unavailable,
                 "the server holds as many connections as it may; try again shortly"};
    }
  }
  refuse_at_accept(fd, peer, refusal);
}

void Connections::refuse_at_accept(int fd, const Peer& peer, const ReadError& error) {
  // Refused without reading the request: the answer is small and the socket's send buffer empty.
  // What the client already sent is dropped, so closing does not reset the connection under the
  // answer.
  send_now(fd, refusal_(peer, error));
  shutdown(fd, SHUT_WR);
  char drop[4096];
  while (recv(fd, drop, sizeof drop, MSG_DONTWAIT) > 0) {
  }
  close(fd);
}

void Connections::count_address(const std::string& key) {
  int& count = per_address_[key];
  if (count > 0) {
    auto& holders = by_count_[count];
    holders.erase(key);
    if (holders.empty()) by_count_.erase(count);
  }
  ++count;
  by_count_[count].insert(key);
}

bool Connections::displace_one() {
  std::set<std::string> most;
  {
    std::lock_guard lock(mutex_);
    if (by_count_.empty()) return false;
    most = by_count_.rbegin()->second;
  }
  // An idle connection first (closing it loses nothing), then one still sending its request,
  // then one lingering after its answer; the oldest of its kind.
  const auto rank = [](Connection::Phase phase) {
    switch (phase) {
      case Connection::Phase::Idle: return 0;
      case Connection::Phase::Lingering: return 1;
      case Connection::Phase::Reading: return 2;
      default: return -1;  // being answered: kept
    }
  };
  Connection* victim = nullptr;
  for (auto& [fd, c] : connections_) {
    const int r = rank(c->phase);
    if (r < 0 || most.count(c->key) == 0) continue;
    if (!victim || r < rank(victim->phase) || (r == rank(victim->phase) && c->started < victim->started)) {
      victim = c.get();
    }
  }
  if (!victim) return false;
  close_connection(victim->peer.fd);
  return true;
}

void Connections::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake();
  // stop() and join() can run on two threads at once (a server's stop() and its run() ending).
  // join() holds threads_mutex_ while it waits for the workers, whose handlers may take long: then
  // it is already ending the read thread, and stop() must not wait behind it (it did, for a whole
  // held handler, in FrontTest.StopReturnsAtOnceAndTheRequestInFlightIsAnswered under load).
  std::unique_lock lock(threads_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  if (reader_.joinable()) reader_.join();
}

void Connections::join() {
  stop();
  {
    std::lock_guard lock(jobs_mutex_);
    workers_stopping_ = true;
  }
  jobs_ready_.notify_all();
  std::lock_guard threads_lock(threads_mutex_);
  if (reader_.joinable()) reader_.join();  // when stop() above found another stop() joining it
  for (auto& w : workers_) {
    if (w.joinable()) w.join();
  }
  // Every thread is gone: what is still open (connections whose answers ended just as the read
  // thread stopped, adopted ones it never saw) is closed here.
  std::lock_guard lock(mutex_);
  for (auto& [fd, c] : connections_) {
    if (!c->closed) close(fd);
  }
  connections_.clear();
  for (const auto& adopted : adopted_) close(adopted.peer.fd);
  adopted_.clear();
  finished_.clear();
  per_address_.clear();
  by_count_.clear();
  open_ = displacing_ = 0;
}

void Connections::release_address(const std::string& key) {
  std::lock_guard lock(mutex_);
  --open_;
  auto it = per_address_.find(key);
  if (it == per_address_.end()) return;
  auto holders = by_count_.find(it->second);
  if (holders != by_count_.end()) {
    holders->second.erase(key);
    if (holders->second.empty()) by_count_.erase(holders);
  }
  if (--it->second <= 0) {
    per_address_.erase(it);
  } else {
    by_count_[it->second].insert(key);
  }
}

void Connections::close_connection(int fd) {
  auto it = connections_.find(fd);
  if (it == connections_.end()) return;
  Connection& c = *it->second;
  if (c.on_delivered) settle_delivery(c, false);
  release_buffer(c);
  const std::string key = c.key;
  connections_.erase(it);
  close(fd);
  release_address(key);
}

void Connections::queue_task(std::function<void()> task) {
  {
    std::lock_guard lock(jobs_mutex_);
    Job job;
    job.task = std::move(task);
    jobs_.push_back(std::move(job));
  }
  jobs_ready_.notify_one();
}

void Connections::settle_delivery(Connection& c, bool delivered) {
  // On a worker: the callback may take its time (billing commits to the store).
  queue_task([settle = std::move(c.on_delivered), delivered] { settle(delivered); });
  c.on_delivered = nullptr;
}

bool Connections::reserve_buffer(Connection& c) {
  const std::size_t holds = c.in.size() + c.reader.buffered_body();
  const std::size_t need = holds > kFreeRequestBytes ? holds - kFreeRequestBytes : 0;
  if (need <= c.reserved) return true;
  if (buffered_ - c.reserved + need > limits_.max_buffered_bytes) return false;
  buffered_ += need - c.reserved;
  c.reserved = need;
  return true;
}

void Connections::release_buffer(Connection& c) {
  buffered_ -= c.reserved;
  released_since_trim_ += c.reserved;
  c.reserved = 0;
  if (released_since_trim_ >= kTrimAfterBytes) {
    // Freed bodies are mmapped chunks and go back at once (prepare_process() fixes glibc's mmap
    // threshold); what smaller pieces leave in the heap is returned here.
    released_since_trim_ = 0;
    malloc_trim(0);
  }
}

void Connections::work_loop() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(jobs_mutex_);
      jobs_ready_.wait(lock, [this] { return workers_stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    if (job.task) {
      try {
        job.task();
      } catch (const std::exception& e) {
        log::error("http") << "settling an answer's delivery failed: " << e.what();
      }
      continue;
    }
    Reply reply{"", true, {}, {}};
    if (job.next_piece) {
      reply = next_piece(*job.connection);
    } else {
      try {
        reply = answer_(job.connection->peer, job.request, job.last);
        reply.close = reply.close || job.last;
      } catch (const std::exception& e) {
        log::error("http") << "answering a request failed: " << e.what();
      }
    }
    {
      std::lock_guard lock(mutex_);
      if (!stopping_) {
        finished_.emplace_back(job.connection->peer.fd, std::move(reply));
        wake();
        continue;
      }
    }
    // No read thread to give it back to: the answer is written here (each send waits at most the
    // socket's send timeout) and the connection ends with it; an answer in pieces ends with the
    // one written here, without its last chunk. join() reads `closed` only once every worker has
    // ended.
    const int fd = job.connection->peer.fd;
    std::size_t sent = 0;
    while (sent < reply.bytes.size()) {
      const ssize_t n =
          ::send(fd, reply.bytes.data() + sent, reply.bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    if (reply.on_delivered) reply.on_delivered(sent == reply.bytes.size());
    close(fd);
    job.connection->closed = true;
  }
}

Connections::Reply Connections::next_piece(Connection& c) {
  Reply reply{"", c.close_after, {}, {}};
  try {
    std::optional<std::string> piece;
    do {
      piece = c.pieces();
    } while (piece && piece->empty());  // an empty chunk would end the body
    if (!piece) {
      reply.bytes = "0\r\n\r\n";
      c.pieces = nullptr;
      return reply;
    }
    char size[32];
    const int n = std::snprintf(size, sizeof size, "%zx\r\n", piece->size());
    reply.bytes.reserve(static_cast<std::size_t>(n) + piece->size() + 2);
    reply.bytes.append(size, static_cast<std::size_t>(n));
    reply.bytes += *piece;
    reply.bytes += "\r\n";
    reply.pieces = std::move(c.pieces);
  } catch (const std::exception& e) {
    // The status is sent already: the body ends without its last chunk, which tells the client
    // that it is not whole.
    log::error("http") << "writing an answer's next piece failed, the answer is cut off: "
                       << e.what();
    c.pieces = nullptr;
    reply.bytes.clear();
    reply.close = true;
  }
  return reply;
}

void Connections::ask_next_piece(Connection& c) {
  std::string().swap(c.out);
  c.out_sent = 0;
  c.phase = Connection::Phase::Producing;
  {
    std::lock_guard lock(jobs_mutex_);
    Job job;
    job.connection = &c;
    job.next_piece = true;
    jobs_.push_back(std::move(job));
  }
  jobs_ready_.notify_one();
}

void Connections::refuse(Connection& c, const ReadError& error, SteadyClock::time_point now) {
  std::string().swap(c.in);
  Reply reply{refusal_(c.peer, error), true, {}, {}};  // `error` may be the reader's, reset below
  c.reader = RequestReader(limits_.request);  // frees a body read in part
  release_buffer(c);
  start_writing(c, std::move(reply), now);
}

void Connections::start_writing(Connection& c, Reply reply, SteadyClock::time_point now) {
  release_buffer(c);  // the request's body is gone with its handler
  c.out = std::move(reply.bytes);
  c.out_sent = 0;
  c.close_after = reply.close;
  // A piece of an answer keeps the callback its head came with.
  if (reply.on_delivered) c.on_delivered = std::move(reply.on_delivered);
  c.pieces = std::move(reply.pieces);
  c.phase = Connection::Phase::Writing;
  c.deadline = now + limits_.write_deadline;
  on_writable(c, now);  // most responses fit in the socket's buffer at once
}

void Connections::on_writable(Connection& c, SteadyClock::time_point now) {
  while (c.out_sent < c.out.size()) {
    const ssize_t n = ::send(c.peer.fd, c.out.data() + c.out_sent, c.out.size() - c.out_sent,
                             MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {
      close_connection(c.peer.fd);
      return;
    }
    c.out_sent += static_cast<std::size_t>(n);
  }
  if (c.pieces) {
    ask_next_piece(c);
    return;
  }
  after_written(c, now);
}

std::optional<bool> Connections::delivery_state(int fd) {
  int error = 0;
  socklen_t length = sizeof error;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) return false;
  pollfd p{fd, 0, 0};
  if (poll(&p, 1, 0) > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL))) return false;
  int unacknowledged = 0;
  if (ioctl(fd, SIOCOUTQ, &unacknowledged) != 0) return false;
  if (unacknowledged == 0) return true;
  return std::nullopt;
}

void Connections::after_written(Connection& c, SteadyClock::time_point now) {
  if (c.on_delivered) {
    // Written is not delivered: a client that closed its connection (not only its sending side)
    // answers the bytes with a reset instead of an acknowledgement.
    if (c.phase != Connection::Phase::Confirming) {
      c.phase = Connection::Phase::Confirming;
      c.confirm_until = now + limits_.write_deadline;
    }
    const std::optional<bool> state = delivery_state(c.peer.fd);
    if (!state && now < c.confirm_until) {
      c.deadline = now + kDeliveryPoll;
      return;
    }
    settle_delivery(c, state.value_or(false));
  }
  std::string().swap(c.out);
  if (c.close_after) {
    // Shut for writing, then drop what the client still sends until it closes: closing at once
    // with its bytes unread would reset the connection under the answer.
    shutdown(c.peer.fd, SHUT_WR);
    c.phase = Connection::Phase::Lingering;
    c.deadline = now + limits_.linger;
    return;
  }
  ++c.served;
  c.continue_sent = false;
  if (c.in.empty()) {
    c.phase = Connection::Phase::Idle;
    c.deadline = now + limits_.keep_alive_idle;
  } else {
    // A pipelined request already received: read it before anything new.
    c.phase = Connection::Phase::Reading;
    c.started = now;
    advance(c, now);
  }
}

void Connections::advance(Connection& c, SteadyClock::time_point now) {
  std::size_t used = 0;
  const auto progress = c.reader.read(c.in, used);
  c.in.erase(0, used);
  if (progress == RequestReader::Progress::Failed) {
    refuse(c, c.reader.error(), now);
    return;
  }
  if (!reserve_buffer(c)) {
    refuse(c,
           ReadError{503, ErrorCode::Unavailable,
                     "the server is receiving too many request bodies at once; try again shortly"},
           now);
    return;
  }
  if (progress == RequestReader::Progress::Done) {
    Job job{&c, c.reader.take(), false, {}};
    bool stopping = false;
    {
      std::lock_guard lock(mutex_);
      stopping = stopping_;
    }
    job.last =
        !job.request.keep_alive || c.served + 1 >= limits_.requests_per_connection || stopping;
    c.phase = Connection::Phase::Busy;
    {
      std::lock_guard lock(jobs_mutex_);
      jobs_.push_back(std::move(job));
    }
    jobs_ready_.notify_one();
    return;
  }
  if (c.reader.awaiting_body()) {
    if (c.reader.expects_continue() && !c.continue_sent) {
      send_now(c.peer.fd, "HTTP/1.1 100 Continue\r\n\r\n");
      c.continue_sent = true;
    }
    c.deadline = c.started + limits_.body_deadline;
  } else {
    c.deadline = c.started + limits_.header_deadline;
  }
}

void Connections::on_readable(Connection& c, SteadyClock::time_point now) {
  char buffer[64 * 1024];
  const ssize_t n = recv(c.peer.fd, buffer, sizeof buffer, MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
  if (n <= 0) {
    // Closed or reset by the client; a request it left half-sent has nobody to answer to.
    close_connection(c.peer.fd);
    return;
  }
  if (c.phase == Connection::Phase::Lingering) return;  // dropped
  if (c.phase == Connection::Phase::Idle) {
    c.phase = Connection::Phase::Reading;
    c.started = now;
  }
  c.in.append(buffer, static_cast<std::size_t>(n));
  advance(c, now);
  // What the reader took is gone from `in`; a connection that waits keeps no read buffer.
  if (c.in.empty() && c.in.capacity() > 4096) std::string().swap(c.in);
}

void Connections::read_loop() {
  std::vector<pollfd> polled;
  std::vector<Connection*> polled_connections;
  for (;;) {
    std::uint64_t ignored;
    [[maybe_unused]] auto drained = read(wake_fd_, &ignored, sizeof ignored);
    std::vector<Adopted> adopted;
    std::vector<std::pair<int, Reply>> finished;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
      adopted.swap(adopted_);
      finished.swap(finished_);
    }
    auto now = SteadyClock::now();
    for (auto& [peer, displaces] : adopted) {
      const int fd = peer.fd;
      if (displaces) {
        {
          std::lock_guard lock(mutex_);
          --displacing_;
        }
        if (!displace_one()) {
          refuse_at_accept(fd, peer,
                           ReadError{503, ErrorCode::Unavailable,
                                     "the server holds as many connections as it may; try again "
                                     "shortly"});
          release_address(client_address_key(peer.remote_ip));
          continue;
        }
      }
      auto c = std::make_unique<Connection>(std::move(peer), limits_.request);
      // A new connection's first request is timed from the accept: a client that connects and
      // sends nothing is dropped at the header deadline, not kept idle.
      c->started = now;
      c->deadline = now + limits_.header_deadline;
      connections_[fd] = std::move(c);
    }
    for (auto& [fd, reply] : finished) {
      auto it = connections_.find(fd);
      if (it != connections_.end()) start_writing(*it->second, std::move(reply), now);
    }

    polled.assign(1, pollfd{wake_fd_, POLLIN, 0});
    polled_connections.assign(1, nullptr);
    auto next_deadline = SteadyClock::time_point::max();
    for (auto& [fd, c] : connections_) {
      if (c->phase == Connection::Phase::Busy || c->phase == Connection::Phase::Producing) {
        continue;
      }
      // A connection whose answer awaits its acknowledgement is only watched for errors.
      const short events = c->phase == Connection::Phase::Writing      ? POLLOUT
                           : c->phase == Connection::Phase::Confirming ? 0
                                                                       : POLLIN;
      polled.push_back(pollfd{fd, events, 0});
      polled_connections.push_back(c.get());
      next_deadline = std::min(next_deadline, c->deadline);
    }
    int timeout_ms = -1;
    if (next_deadline != SteadyClock::time_point::max()) {
      const auto left = std::chrono::ceil<Millis>(next_deadline - now).count();
      timeout_ms = static_cast<int>(std::clamp<long long>(left, 0, 60'000));
    }
    if (poll(polled.data(), polled.size(), timeout_ms) < 0 && errno != EINTR) {
      log::error("http") << "poll failed: errno " << errno;
    }

    now = SteadyClock::now();
    for (std::size_t i = 1; i < polled.size(); ++i) {
      if (polled[i].revents == 0) continue;
      auto it = connections_.find(polled[i].fd);
      if (it == connections_.end() || it->second.get() != polled_connections[i]) continue;
      if (it->second->phase == Connection::Phase::Writing) {
        on_writable(*it->second, now);
      } else if (it->second->phase == Connection::Phase::Confirming) {
        after_written(*it->second, now);
      } else {
        on_readable(*it->second, now);
      }
    }
    std::vector<int> expired;
    for (auto& [fd, c] : connections_) {
      if (c->phase != Connection::Phase::Busy && c->phase != Connection::Phase::Producing &&
          c->deadline <= now) {
        expired.push_back(fd);
      }
    }
    for (int fd : expired) {
      Connection& c = *connections_.at(fd);
      if (c.phase == Connection::Phase::Confirming) {
        after_written(c, now);
      } else if (c.phase == Connection::Phase::Reading) {
        const bool head_read = c.reader.awaiting_body();
        refuse(c,
               ReadError{408, ErrorCode::Timeout,
                         head_read ? "the request body did not arrive in time"
                                   : "the request headers did not arrive in time"},
               now);
      } else {
        close_connection(fd);
      }
    }
  }
  // Stopping: connections not being answered are closed now; the rest once their answers end.
  std::vector<int> open;
  for (auto& [fd, c] : connections_) {
    if (c->phase != Connection::Phase::Busy && c->phase != Connection::Phase::Producing) {
      open.push_back(fd);
    }
  }
  for (int fd : open) close_connection(fd);
}

}  // namespace gleaner::api
