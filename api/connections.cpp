#include "api/connections.h"

#include "core/log.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

}  // namespace

struct Connections::Connection {
  enum class Phase {
    Idle,       ///< between requests: waiting for a first byte
    Reading,    ///< a request has begun and is being read
    Busy,       ///< a worker is answering; not read meanwhile (pipelined bytes wait in the kernel)
    Writing,    ///< sending `out`; not read meanwhile either
    Lingering,  ///< answered, shut for writing: reading and dropping until the client closes
  };
  Peer peer;
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
  /// Closed by the worker that answered it after stop(), when the read thread was gone.
  bool closed = false;

  Connection(Peer p, RequestReader::Limits limits) : peer(std::move(p)), reader(limits) {}
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
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      close(fd);
      return;
    }
    const std::string key = client_address_key(peer.remote_ip);
    int& count = per_address_[key];
    if (count < limits_.connections_per_address) {
      ++count;
      adopted_.push_back(std::move(peer));
      wake();
      return;
    }
    if (count == 0) per_address_.erase(key);
  }
  // Refused here, on the accept thread, without reading the request: the answer is small and the
  // socket's send buffer empty. What the client already sent is dropped, so closing does not
  // reset the connection under the answer.
  send_now(fd, refusal_(peer, ReadError{429, ErrorCode::TooManyRequests,
                                        "too many open connections from this address"}));
  shutdown(fd, SHUT_WR);
  char drop[4096];
  while (recv(fd, drop, sizeof drop, MSG_DONTWAIT) > 0) {
  }
  close(fd);
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
  for (const auto& peer : adopted_) close(peer.fd);
  adopted_.clear();
  finished_.clear();
  per_address_.clear();
}

void Connections::release_address(const std::string& ip) {
  std::lock_guard lock(mutex_);
  auto it = per_address_.find(client_address_key(ip));
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

void Connections::close_connection(int fd) {
  auto it = connections_.find(fd);
  if (it == connections_.end()) return;
  const std::string ip = it->second->peer.remote_ip;
  connections_.erase(it);
  close(fd);
  release_address(ip);
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
    Reply reply{"", true};
    try {
      reply = answer_(job.connection->peer, job.request, job.last);
      reply.close = reply.close || job.last;
    } catch (const std::exception& e) {
      log::error("http") << "answering a request failed: " << e.what();
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
    // socket's send timeout) and the connection ends with it. join() reads `closed` only once
    // every worker has ended.
    const int fd = job.connection->peer.fd;
    for (std::size_t sent = 0; sent < reply.bytes.size();) {
      const ssize_t n =
          ::send(fd, reply.bytes.data() + sent, reply.bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    close(fd);
    job.connection->closed = true;
  }
}

void Connections::refuse(Connection& c, const ReadError& error, SteadyClock::time_point now) {
  c.in.clear();
  c.in.shrink_to_fit();
  start_writing(c, Reply{refusal_(c.peer, error), true}, now);
}

void Connections::start_writing(Connection& c, Reply reply, SteadyClock::time_point now) {
  c.out = std::move(reply.bytes);
  c.out_sent = 0;
  c.close_after = reply.close;
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
  c.out.clear();
  c.out.shrink_to_fit();
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
  if (progress == RequestReader::Progress::Done) {
    Job job{&c, c.reader.take(), false};
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
}

void Connections::read_loop() {
  std::vector<pollfd> polled;
  std::vector<Connection*> polled_connections;
  for (;;) {
    std::uint64_t ignored;
    [[maybe_unused]] auto drained = read(wake_fd_, &ignored, sizeof ignored);
    std::vector<Peer> adopted;
    std::vector<std::pair<int, Reply>> finished;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
      adopted.swap(adopted_);
      finished.swap(finished_);
    }
    auto now = SteadyClock::now();
    for (auto& peer : adopted) {
      const int fd = peer.fd;
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
      if (c->phase == Connection::Phase::Busy) continue;
      const short events = c->phase == Connection::Phase::Writing ? POLLOUT : POLLIN;
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
      } else {
        on_readable(*it->second, now);
      }
    }
    std::vector<int> expired;
    for (auto& [fd, c] : connections_) {
      if (c->phase != Connection::Phase::Busy && c->deadline <= now) expired.push_back(fd);
    }
    for (int fd : expired) {
      Connection& c = *connections_.at(fd);
      if (c.phase == Connection::Phase::Reading) {
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
    if (c->phase != Connection::Phase::Busy) open.push_back(fd);
  }
  for (int fd : open) close_connection(fd);
}

}  // namespace gleaner::api
