#pragma once
// The server's front door: every accepted connection until it is closed. One thread reads all
// connections that are between requests or in the middle of sending one, and writes every
// response (poll, no blocking reads or writes), so a slow or silent client holds a socket but never
// a worker thread; only a complete request, read within its deadlines and limits, is handed to a
// worker, which returns its response as bytes. That is how slow clients cannot starve the rest:
// the workers only ever wait on handlers, never on a client's bytes, whichever way they go.
//
// Limits, each answered at once and followed by closing the connection:
// - more open connections from one address than allowed: 429;
// - the head not complete within `header_deadline` of the request's first byte (of the
//   connection's accept for its first request), or the whole request not within `body_deadline`:
//   408;
// - a response not taken by the client within `write_deadline`: the connection is closed;
// - a head or body over its size limit: 431 or 413, before the rest is read (RequestReader).
// After an error the connection is closed gracefully: shut for writing, then what the client still
// sends is read and dropped for at most `linger` (never kept), so the client sees the answer
// instead of a reset.
#include "api/request_reader.h"
#include "core/clock.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gleaner::api {

struct ConnectionLimits {
  RequestReader::Limits request;
  Millis header_deadline{10000};
  Millis body_deadline{30000};
  /// How long a connection may wait, idle, for its next request.
  Millis keep_alive_idle{30000};
  /// How long a client may take to receive a response, from when it is ready.
  Millis write_deadline{30000};
  /// How long dropping a refused client's remaining bytes may go on before the socket is closed.
  Millis linger{2000};
  int connections_per_address = 32;
  /// Requests one connection may make; the last one is answered with `Connection: close`.
  int requests_per_connection = 100;
};

/// One accepted connection's socket and addresses.
struct Peer {
  int fd = -1;
  std::string remote_ip;
  int remote_port = 0;
  std::string local_ip;
  int local_port = 0;
};

/// The key a client's connections are counted under (connections_per_address): an IPv4 address
/// as it is; an IPv6 address by its /64 ("2001:db8:1:2::/64"), the block one subscriber is
/// usually given, so a client cannot escape the cap by rotating addresses inside it; an
/// IPv4-mapped IPv6 address by its IPv4 address.
std::string client_address_key(const std::string& ip);

class Connections {
 public:
  /// A response, written to the client by the read thread.
  struct Reply {
    std::string bytes;
    /// Whether the connection ends after it.
    bool close = false;
  };
  /// Answers a request on a worker thread; `last` means the connection is closed after it (the
  /// response must say so). `peer.fd` is only for looking at (client_connected()).
  using Answer = std::function<Reply(const Peer& peer, IncomingRequest& request, bool last)>;
  /// The whole HTTP response (closing the connection) that refuses a request for `error`.
  using Refusal = std::function<std::string(const Peer& peer, const ReadError& error)>;

  Connections(ConnectionLimits limits, int threads, Answer answer, Refusal refusal);
  ~Connections();
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  /// Takes an accepted socket (any thread): refused at once with 429 when its address already
  /// holds its share of connections, otherwise read from now on. The socket is ours to close.
  void adopt(int fd);
  /// Stops reading and returns at once: every connection not being answered is closed now, the
  /// others once their answers are written. Idempotent.
  void stop();
  /// Stops, then waits until the requests being answered (and those read before stop()) have been
  /// answered. Idempotent.
  void join();

 private:
  struct Connection;
  struct Job {
    Connection* connection;
    IncomingRequest request;
    bool last;
  };

  void read_loop();
  void work_loop();
  void wake();
  void on_readable(Connection& c, SteadyClock::time_point now);
  void on_writable(Connection& c, SteadyClock::time_point now);
  void start_writing(Connection& c, Reply reply, SteadyClock::time_point now);
  void advance(Connection& c, SteadyClock::time_point now);
  void refuse(Connection& c, const ReadError& error, SteadyClock::time_point now);
  void close_connection(int fd);
  void release_address(const std::string& ip);

  const ConnectionLimits limits_;
  const Answer answer_;
  const Refusal refusal_;
  int wake_fd_ = -1;

  std::mutex mutex_;  // guards adopted_, finished_, per_address_, stopping_
  std::vector<Peer> adopted_;
  std::vector<std::pair<int, Reply>> finished_;  ///< answered requests' connections
  std::map<std::string, int> per_address_;
  bool stopping_ = false;

  /// Every open connection, by fd; only the read thread touches it (and join(), once it and the
  /// workers have ended).
  std::map<int, std::unique_ptr<Connection>> connections_;

  std::mutex jobs_mutex_;  // guards jobs_, workers_stopping_
  std::condition_variable jobs_ready_;
  std::deque<Job> jobs_;
  bool workers_stopping_ = false;

  std::mutex threads_mutex_;  // guards joining the threads below
  // Threads last: they use everything above.
  std::vector<std::thread> workers_;
  std::thread reader_;
};

}  // namespace gleaner::api
