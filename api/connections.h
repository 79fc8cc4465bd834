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
// - more open connections in all than `max_connections` (a cap kept below the process's file
//   descriptor limit, so that Chromium, the gateway, the store and webhooks always find
//   descriptors): a newcomer whose address holds fewer connections than the address holding the
//   most takes the place of one of that address's connections that is not being answered (the
//   oldest idle one first), so a flood from many addresses cannot lock others out; otherwise it is
//   refused with 503 at once;
// - request bytes buffered by all connections together (bodies as announced by Content-Length,
//   or as they grow when chunked; heads past a small allowance) over `max_buffered_bytes`: 503
//   before the body is read;
// - the head not complete within `header_deadline` of the request's first byte (of the
//   connection's accept for its first request), or the whole request not within `body_deadline`:
//   408;
// - a response not taken by the client within `write_deadline`: the connection is closed;
// - a head or body over its size limit: 431 or 413, before the rest is read (RequestReader).
// An answer can come with a callback told whether it was delivered: every byte written and
// acknowledged by the client's TCP within `write_deadline` (api/billing.cpp charges a client that
// half-closed its connection this way: only the write tells such a client from one that left).
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
#include <optional>
#include <set>
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
  /// Open connections from all addresses together.
  int max_connections = 10000;
  /// Request bytes all connections may hold at once (bodies being read, heads past
  /// kFreeRequestBytes each).
  std::size_t max_buffered_bytes = 256u << 20;
  /// Requests one connection may make; the last one is answered with `Connection: close`.
  int requests_per_connection = 100;
};

/// Request bytes a connection may hold without drawing on `max_buffered_bytes`: an ordinary
/// request's head, so that GETs are never refused for the budget.
inline constexpr std::size_t kFreeRequestBytes = 16 * 1024;

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
    /// When set, called once on a worker thread: true when every byte was written and the
    /// client's TCP acknowledged them within the write deadline, false when the connection
    /// failed or closed first.
    std::function<void(bool delivered)> on_delivered;
    /// When set, `bytes` is only the head of a response whose body follows in pieces, each sent
    /// as a chunk once the client has taken what came before: the next piece is asked for on a
    /// worker thread (a read of the store, never a wait on the client), so a slow reader holds
    /// one piece and no thread. None means the end; the connection closing first drops it.
    std::function<std::optional<std::string>()> pieces;
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
  /// holds its share of connections, with 503 when all connections are taken and it may not
  /// replace one (see the top of this file), otherwise read from now on. The socket is ours to
  /// close.
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
    Connection* connection = nullptr;
    IncomingRequest request;
    bool last = false;
    /// Instead of a request: a task to run (an answer's on_delivered).
    std::function<void()> task;
    /// Instead of a request: the next piece of `connection`'s answer (Reply::pieces).
    bool next_piece = false;
  };
  /// An accepted socket on its way to the read thread.
  struct Adopted {
    Peer peer;
    /// Admitted over `max_connections`: it replaces a connection of the address holding most.
    bool displaces = false;
  };

  void read_loop();
  void work_loop();
  void wake();
  void on_readable(Connection& c, SteadyClock::time_point now);
  void on_writable(Connection& c, SteadyClock::time_point now);
  /// Asks a worker for the next piece of `c`'s answer (the connection waits, unpolled).
  void ask_next_piece(Connection& c);
  /// On a worker: the next piece of `c`'s answer as a chunk, the last chunk at its end; the
  /// reply carries the pieces on.
  static Reply next_piece(Connection& c);
  void start_writing(Connection& c, Reply reply, SteadyClock::time_point now);
  void advance(Connection& c, SteadyClock::time_point now);
  void refuse(Connection& c, const ReadError& error, SteadyClock::time_point now);
  void close_connection(int fd);
  /// Counts one connection of address `key` less.
  void release_address(const std::string& key);
  /// Counts one more connection for `key` (mutex_ held).
  void count_address(const std::string& key);
  /// Refuses an accepted socket at once (accept thread or read thread), without reading it.
  void refuse_at_accept(int fd, const Peer& peer, const ReadError& error);
  /// Closes a connection of the address holding the most that is not being answered, to make
  /// room for a newcomer; false when there is none.
  bool displace_one();
  /// After an answer was written whole: confirms its delivery, then keeps the connection for the
  /// next request or lingers before closing it.
  void after_written(Connection& c, SteadyClock::time_point now);
  /// Whether the client has acknowledged every byte written (true), failed (false), or neither
  /// yet (nullopt).
  static std::optional<bool> delivery_state(int fd);
  void settle_delivery(Connection& c, bool delivered);
  void queue_task(std::function<void()> task);
  /// Draws on the buffered-bytes budget for what `c` now holds; false when it is spent.
  bool reserve_buffer(Connection& c);
  void release_buffer(Connection& c);

  const ConnectionLimits limits_;
  const Answer answer_;
  const Refusal refusal_;
  int wake_fd_ = -1;

  std::mutex mutex_;  // guards the members up to stopping_
  std::vector<Adopted> adopted_;
  std::vector<std::pair<int, Reply>> finished_;  ///< answered requests' connections
  std::map<std::string, int> per_address_;
  /// The addresses holding each count of connections (a count's set is never empty), so the one
  /// holding most is found at once.
  std::map<int, std::set<std::string>> by_count_;
  int open_ = 0;  ///< connections adopted and not yet closed
  int displacing_ = 0;  ///< adopted over the cap, their displacement still to come
  bool stopping_ = false;

  /// Request bytes drawn from max_buffered_bytes; read thread only.
  std::size_t buffered_ = 0;
  /// Bytes given back since memory was last returned to the system (malloc_trim).
  std::size_t released_since_trim_ = 0;

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
