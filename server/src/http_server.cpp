#include "opsim/server/http_server.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <spdlog/spdlog.h>
#include <algorithm>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <climits>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "opsim/core/error_json.h"
#include "opsim/core/json_source.h"

namespace opsim::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr std::uint32_t kHeaderLimit = 16 * 1024;
constexpr std::size_t kStaticFileLimit = 16 * 1024 * 1024;
constexpr std::chrono::seconds kHeartbeat{15};
// The wait before accepting again after an accept found no free descriptor.
constexpr std::chrono::milliseconds kAcceptPause{100};
// Below this a gzip member's header and the client's inflate cost more than the bytes saved.
constexpr std::size_t kGzipMin = 1024;
// Level 1 for an answer made per request: a 100,000-hex position (1.55 MB) in a fifth of the
// time level 6 takes, for 245 KB instead of 174 KB; level 6 for one compressed once and cached
// (an ETag's: the theater, the client's files). docs/performance.md, "gzip".
constexpr int kGzipLevelEach = 1;
constexpr int kGzipLevelCached = 6;
// The compressed bodies kept by ETag; past this many bytes the cache starts again.
constexpr std::size_t kGzipCacheBytes = 64 * 1024 * 1024;

// The JSON error body every refusal carries, as the API's (docs/api.md, Errors). A message may
// echo the request's path, any bytes: what is not UTF-8 is sent as U+FFFD (dump would throw).
std::string ErrorBody(std::string_view code, std::string_view message) {
  return nlohmann::json{{"error", ErrorJson(code, message)}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string_view View(beast::string_view s) {
  return {s.data(), s.size()};
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; nullopt for a bad escape or a NUL. In a query, '+' is a space.
std::optional<std::string> Decode(std::string_view s, bool query) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = HexDigit(s[i + 1]);
      const int lo = HexDigit(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (query && c == '+') {
      c = ' ';
    }
    if (c == '\0') return std::nullopt;
    out += c;
  }
  return out;
}

// Splits a request target into a Request's path and query; false if it cannot be decoded.
bool ParseTarget(std::string_view target, Request& r) {
  const std::size_t q = target.find('?');
  auto path = Decode(target.substr(0, q), false);
  if (!path || path->empty() || path->front() != '/') return false;
  r.path = std::move(*path);
  if (q == std::string_view::npos) return true;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    auto key = Decode(pair.substr(0, eq), true);
    auto value =
        Decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
    if (!key || !value) return false;
    r.query.emplace_back(std::move(*key), std::move(*value));
  }
  return true;
}

// The next item of a comma-separated header list, its spaces trimmed; `header` moves past it.
std::string_view NextListItem(std::string_view& header) {
  const std::size_t comma = header.find(',');
  std::string_view item = header.substr(0, comma);
  header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  return item;
}

// Whether an Accept-Encoding header takes gzip: named (or "*") without q=0.
bool AcceptsGzip(std::string_view header) {
  bool named = false, any = false;
  while (!header.empty()) {
    const std::string_view item = NextListItem(header);
    const std::size_t semi = item.find(';');
    std::string_view coding = item.substr(0, semi);
    while (!coding.empty() && coding.back() == ' ') coding.remove_suffix(1);
    bool zero = false;
    if (semi != std::string_view::npos) {
      std::string_view q = item.substr(semi + 1);
      q.remove_prefix(std::min(q.find_first_not_of(' '), q.size()));
      if (q.starts_with("q=") || q.starts_with("Q=")) {
        q.remove_prefix(2);
        zero = !q.empty() && q.find_first_not_of("0.") == std::string_view::npos;
      }
    }
    const beast::string_view name(coding.data(), coding.size());
    if (beast::iequals(name, "gzip") || beast::iequals(name, "x-gzip")) {
      if (zero) return false;
      named = true;
    } else if (coding == "*") {
      any = !zero;
    }
  }
  return named || any;
}

// Text worth compressing: JSON, the client's scripts, styles, pages and drawings.
bool Compressible(std::string_view type) {
  return type.starts_with("application/json") || type.starts_with("text/") ||
         type.starts_with("image/svg+xml");
}

// A body as one gzip member (RFC 1952), by zlib; nullopt if zlib fails (out of memory): the
// body then goes as it is.
std::optional<std::string> Gzip(std::string_view body, int level) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return std::nullopt;
  }
  std::string out(deflateBound(&z, body.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  z.avail_in = static_cast<uInt>(body.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const bool done = deflate(&z, Z_FINISH) == Z_STREAM_END;
  out.resize(z.total_out);
  deflateEnd(&z);
  if (!done) return std::nullopt;
  return out;
}

// The ETag of a body's gzip form: a representation of its own (RFC 9110 8.8.3).
std::string GzipEtag(std::string_view etag) {
  std::string out(etag);
  if (out.ends_with('"')) out.insert(out.size() - 1, "-gzip");
  return out;
}

// Whether If-None-Match names this ETag (or is "*"); weak ones compare by their tag.
bool NoneMatch(std::string_view header, std::string_view etag) {
  while (!header.empty()) {
    std::string_view tag = NextListItem(header);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
  }
  return false;
}

std::string_view ContentTypeOf(std::string_view path) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
  };
  for (const auto& [ext, type] : kTypes) {
    if (path.ends_with(ext)) return type;
  }
  return "application/octet-stream";
}

// A token bucket per client: `burst` requests at once, then `rate` a second.
class RateLimiter {
 public:
  RateLimiter(double rate, double burst) : rate_(rate), burst_(std::max(burst, 1.0)) {}

  bool Allow(const std::string& client) {
    if (rate_ <= 0) return true;
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    if (buckets_.size() > kMaxClients) Forget(now);
    auto [it, fresh] = buckets_.try_emplace(client, Bucket{burst_, now});
    Bucket& b = it->second;
    if (!fresh) {
      const double elapsed = std::chrono::duration<double>(now - b.last).count();
      b.tokens = std::min(burst_, b.tokens + elapsed * rate_);
      b.last = now;
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

 private:
  static constexpr std::size_t kMaxClients = 10000;
  struct Bucket {
    double tokens;
    std::chrono::steady_clock::time_point last;
  };
  // Drops the buckets that have refilled: those clients are as if new.
  void Forget(std::chrono::steady_clock::time_point now) {
    std::erase_if(buckets_, [&](const auto& kv) {
      return kv.second.tokens +
                 std::chrono::duration<double>(now - kv.second.last).count() * rate_ >=
             burst_;
    });
  }
  const double rate_;
  const double burst_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
};

class Session;

// The body a request may send: a scenario to the workshop's endpoints (/api/scenario/, as large
// as a scenario file), max_body to any other.
std::uint64_t BodyLimit(std::string_view target, std::size_t max_body) {
  return target.starts_with("/api/scenario/") ? kMaxScenarioBytes : max_body;
}

// The requests a connection's parser takes: headers to kHeaderLimit, a body to the largest
// BodyLimit until the header says which applies (Narrow).
void Limit(http::request_parser<http::string_body>& parser, std::size_t max_body) {
  parser.header_limit(kHeaderLimit);
  parser.body_limit(std::max<std::uint64_t>(max_body, kMaxScenarioBytes));
}

// Once the header is read: the request's own BodyLimit, and body_limit at once if its
// Content-Length is over it.
beast::error_code Narrow(http::request_parser<http::string_body>& parser, std::size_t max_body) {
  const std::uint64_t limit = BodyLimit(View(parser.get().target()), max_body);
  if (parser.content_length() && *parser.content_length() > limit) return http::error::body_limit;
  parser.body_limit(limit);
  return {};
}

// Whether a read ended because the peer went away or went quiet (the connection just closes),
// rather than on what it sent (answered, then closed).
bool PeerGone(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == beast::error::timeout ||
         ec == asio::error::operation_aborted || ec == asio::error::connection_reset ||
         ec == asio::error::eof;
}

// An accept that failed for want of a descriptor or memory: accepting again at once fails again
// at once.
bool OutOfDescriptors(const beast::error_code& ec) {
  return ec == asio::error::no_descriptors ||
         ec == boost::system::errc::too_many_files_open_in_system ||
         ec == asio::error::no_buffer_space || ec == asio::error::no_memory;
}

// The connections RLIMIT_NOFILE leaves room for: the limit less a margin for what else the
// server holds open (standard streams, the listening socket, the event loop, the log) and what
// each thread's request opens (a turn log, its WAL and shared memory, a secrets or scenario
// file). At least 1.
std::size_t ConnectionRoom(int threads) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
  const rlim_t margin = 32 + 8 * static_cast<rlim_t>(threads);
  return limit.rlim_cur > margin ? static_cast<std::size_t>(limit.rlim_cur - margin) : 1;
}

// Whether `path` is `root` or inside it (both resolved).
bool Within(std::string_view path, const std::string& root) {
  return !root.empty() && path.starts_with(root) &&
         (path.size() == root.size() || path[root.size()] == '/');
}

// A folder's path with every link resolved; nullopt if it is not there.
std::optional<std::string> Resolved(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

}  // namespace

struct HttpServer::Impl {
  Impl(Api& a, ServerOptions o)
      : api(a),
        options(std::move(o)),
        max_connections(std::min(options.max_connections, ConnectionRoom(Threads()))),
        io(std::max(1, Threads())),
        acceptor(asio::make_strand(io)),
        accept_pause(acceptor.get_executor()),
        signals(io),
        limiter(options.rate, options.burst),
        address_limiter(options.rate * kPerAddress, options.burst * kPerAddress) {}

  int Threads() const {
    if (options.threads > 0) return options.threads;
    return std::max(4, 2 * static_cast<int>(std::thread::hardware_concurrency()));
  }

  void Accept();
  void Register(const std::shared_ptr<Session>& s);
  void Unregister(Session* s);
  // The gzip form of a body that never changes for its ETag, compressed once (null: see Gzip).
  std::shared_ptr<const std::string> GzipOf(const std::string& etag, std::string_view body);

  Api& api;
  const ServerOptions options;
  // options.max_connections, or fewer if the descriptor limit leaves room for fewer.
  const std::size_t max_connections;
  std::string web_root;    // web_dir, resolved; empty: no static files
  std::string games_root;  // options.games_dir, resolved: never served
  asio::io_context io;
  tcp::acceptor acceptor;
  // After an accept failed for want of descriptors: the wait before the next (on its strand).
  asio::steady_timer accept_pause;
  bool starved = false;  // the accept loop is waiting for descriptors (said once)
  bool at_cap = false;   // connections are being refused at max_connections (said once)
  asio::signal_set signals;
  // A client is its address and token; one address may be many players (a club behind one
  // router, the load test), but a client that changes its token each time still meets a limit.
  static constexpr double kPerAddress = 20;
  RateLimiter limiter;
  RateLimiter address_limiter;
  std::atomic<bool> stopping{false};
  std::mutex sessions_mutex;
  std::unordered_map<Session*, std::weak_ptr<Session>> sessions;
  std::mutex gzip_mutex;
  std::unordered_map<std::string, std::shared_ptr<const std::string>> gzipped;  // by gzip ETag
  std::size_t gzipped_bytes = 0;
};

namespace {

using Answer = std::shared_ptr<http::response<http::string_body>>;

// One request and its answer, apart from the connection it came on: a Session writes what it
// makes, HttpServer::AnswerBytes (the fuzzer's way in) serializes it.
class Exchange {
 public:
  Exchange(HttpServer::Impl& server, std::string peer) : server_(server), peer_(std::move(peer)) {}

  const std::string& peer() const { return peer_; }

  // The answer to a read that failed on what the peer sent (not PeerGone): a limit, or bytes
  // that are not HTTP. The connection closes after it.
  Answer Refuse(const beast::error_code& ec, std::string_view target) {
    head_ = false;
    gzip_ = false;
    if_none_match_.clear();
    if (ec == http::error::body_limit) {
      return Error(http::status::payload_too_large, "too-large",
                   "request body: over the server's limit of " +
                       std::to_string(BodyLimit(target, server_.options.max_body)) + " bytes",
                   true);
    }
    if (ec == http::error::header_limit) {
      return Error(http::status::request_header_fields_too_large, "too-large",
                   "request headers: over 16384 bytes", true);
    }
    return Error(http::status::bad_request, "invalid-input",
                 "request: not HTTP/1.1 (" + ec.message() + ")", true);
  }

  // The answer to a request read whole; null with `events` set for an event stream
  // (GET /api/games/{id}/events), which the caller starts.
  Answer Handle(http::request<http::string_body> req, std::optional<Request>& events) {
    version_ = req.version();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    gzip_ = AcceptsGzip(View(req[http::field::accept_encoding]));
    if_none_match_ = std::string(View(req[http::field::if_none_match]));
    Request r;
    r.method = std::string(req.method_string());
    r.peer = peer_;
    if (!ParseTarget(View(req.target()), r)) {
      return Error(http::status::bad_request, "invalid-input",
                   "request: a path or query that cannot be decoded", false);
    }
    r.last_event_id = std::string(View(req["Last-Event-ID"]));
    const std::string_view auth = View(req[http::field::authorization]);
    if (auth.starts_with("Bearer ")) {
      r.token = std::string(auth.substr(7));
    } else {
      for (const auto& [k, v] : r.query) {
        if (k == "token") r.token = v;
      }
    }
    if (!server_.limiter.Allow(peer_ + '|' + r.token) || !server_.address_limiter.Allow(peer_)) {
      return Error(http::status::too_many_requests, "rate-limited",
                   "too many requests: at most " + std::to_string(server_.options.rate) +
                       " a second; try again in a second",
                   false, {{"Retry-After", "1"}});
    }
    const bool api = r.path == "/api" || r.path.starts_with("/api/");
    if (!api) return Static(r);
    r.body = std::move(req.body());
    if (r.method == "GET" && r.path.ends_with("/events") && r.path.starts_with("/api/games/")) {
      events = std::move(r);
      return nullptr;
    }
    return FromApi(Ask(r));
  }

  // An API answer as the client gets it.
  Answer FromApi(Response res) {
    std::vector<std::pair<std::string, std::string>> extra;
    if (res.retry_after > 0) extra.emplace_back("Retry-After", std::to_string(res.retry_after));
    return Make(res.status, std::move(res.body), res.content_type, res.etag,
                res.cache_control.empty() ? "no-store" : res.cache_control, std::move(extra));
  }

 private:
  // The API promises not to throw; should it, the client gets a 500 and the server goes on.
  Response Ask(const Request& r) {
    try {
      return server_.api.Handle(r);
    } catch (const std::exception& e) {
      spdlog::error("serve: {} {}: {}", r.method, r.path, e.what());
      Response res;
      res.status = 500;
      res.body = ErrorBody(ErrorCodeName(ErrorCode::kInternal),
                           std::string("internal error (a bug in opsim): ") + e.what());
      return res;
    }
  }

  // A file of the web folder. Nothing is opened that is not a regular file inside it, outside
  // the games folder: a FIFO or a device would block a thread in open() (or read forever).
  Answer Static(const Request& r) {
    if (r.method != "GET" && r.method != "HEAD") {
      return Error(http::status::method_not_allowed, "method-not-allowed",
                   r.method + " " + r.path + ": only GET and HEAD", false);
    }
    const auto not_found = [&] {
      return Error(http::status::not_found, "not-found", r.path + ": no such file", false);
    };
    if (server_.web_root.empty()) return not_found();
    // "/" is the lobby, "/edit" the workshop (docs/client.md).
    std::string rel = r.path == "/"       ? std::string("/index.html")
                      : r.path == "/edit" ? std::string("/edit.html")
                                          : r.path;
    // Every part a plain name: no "..", ".", empty parts or backslashes.
    for (std::size_t at = 1; at <= rel.size();) {
      const std::size_t slash = std::min(rel.find('/', at), rel.size());
      const std::string_view part(rel.data() + at, slash - at);
      if (part.empty() || part == "." || part == ".." || part.find('\\') != part.npos) {
        return not_found();
      }
      at = slash + 1;
    }
    // Links are followed only if they stay inside the web folder, and out of the games folder.
    const auto resolved = Resolved(server_.web_root + rel);
    if (!resolved || !resolved->starts_with(server_.web_root + '/') ||
        Within(*resolved, server_.games_root)) {
      return not_found();
    }
    struct stat st {};
    if (lstat(resolved->c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return not_found();
    // O_NONBLOCK: should it have become a FIFO since, open() does not wait for a writer.
    const int fd = open(resolved->c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return not_found();
    std::string body;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<std::size_t>(st.st_size) <= kStaticFileLimit;
    if (ok) {
      body.resize(static_cast<std::size_t>(st.st_size));
      std::size_t got = 0;
      while (ok && got < body.size()) {
        const ssize_t n = read(fd, body.data() + got, body.size() - got);
        if (n <= 0) ok = false;
        got += n > 0 ? static_cast<std::size_t>(n) : 0;
      }
    }
    close(fd);
    if (!ok) return not_found();
    const std::string etag = '"' + std::to_string(st.st_size) + '-' +
                             std::to_string(st.st_mtim.tv_sec) + '.' +
                             std::to_string(st.st_mtim.tv_nsec) + '"';
    return Make(200, std::move(body), ContentTypeOf(rel), etag, "no-cache");
  }

  Answer Error(http::status status, std::string_view code, const std::string& message, bool close,
               std::vector<std::pair<std::string, std::string>> extra = {}) {
    if (close) keep_alive_ = false;
    if (version_ == 0) version_ = 11;
    return Make(static_cast<int>(status), ErrorBody(code, message), "application/json", {},
                "no-store", std::move(extra));
  }

  // A 200 with an ETag the request's If-None-Match names becomes a 304. A body of text over
  // kGzipMin goes gzipped to a client that takes gzip, under its own ETag (an ETag's gzip is
  // made once); event streams never come here.
  Answer Make(int status, std::string body, std::string_view type, std::string_view etag,
              std::string_view cache, std::vector<std::pair<std::string, std::string>> extra = {}) {
    const bool varies = status == 200 && body.size() >= kGzipMin && Compressible(type);
    bool gzip = varies && gzip_;
    std::string tag = gzip && !etag.empty() ? GzipEtag(etag) : std::string(etag);
    if (status == 200 && !tag.empty() && NoneMatch(if_none_match_, tag)) {
      status = 304;
      body.clear();
    } else if (gzip && tag.empty()) {
      std::optional<std::string> zipped = Gzip(body, kGzipLevelEach);
      gzip = zipped.has_value();
      if (gzip) body = std::move(*zipped);
    } else if (gzip) {
      std::shared_ptr<const std::string> zipped = server_.GzipOf(tag, body);
      gzip = zipped != nullptr;
      if (gzip)
        body = *zipped;
      else
        tag = std::string(etag);
    }
    auto res = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(status), version_ == 0 ? 11 : version_);
    res->set(http::field::server, "opsim");
    res->set(http::field::content_type, std::string(type));
    res->set(http::field::cache_control, std::string(cache));
    if (!tag.empty()) res->set(http::field::etag, tag);
    if (varies) res->set(http::field::vary, "Accept-Encoding");
    if (gzip && status == 200) res->set(http::field::content_encoding, "gzip");
    // The client's files are all ours: nothing from another origin, no framing, no referrer
    // (side links carry their token).
    res->set("Content-Security-Policy",
             "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
    res->set("X-Content-Type-Options", "nosniff");
    res->set("Referrer-Policy", "no-referrer");
    for (const auto& [k, v] : extra) res->set(k, v);
    res->keep_alive(keep_alive_);
    const std::size_t length = body.size();
    if (!head_) res->body() = std::move(body);
    res->prepare_payload();
    if (head_) res->content_length(length);
    return res;
  }

  HttpServer::Impl& server_;
  std::string peer_;
  unsigned version_ = 11;
  bool gzip_ = false;          // the request's Accept-Encoding takes gzip
  std::string if_none_match_;  // the request's If-None-Match
  bool keep_alive_ = true;
  bool head_ = false;
};

// The event stream's header and first event.
constexpr std::string_view kEventsHeader =
    "HTTP/1.1 200 OK\r\nServer: opsim\r\nContent-Type: text/event-stream\r\n"
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
    "Connection: keep-alive\r\n\r\n"
    "retry: 2000\nevent: ready\ndata: {}\n\n";

// One connection: requests in turn (HTTP/1.1 keep-alive), or one event stream. Everything it
// does runs on its strand, so Stop's message waits for a request being handled to finish.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, HttpServer::Impl& server)
      : stream_(std::move(socket)),
        server_(server),
        heartbeat_(stream_.get_executor()),
        exchange_(server, PeerOf(stream_.socket())) {}
  ~Session() { server_.Unregister(this); }

  void Start() {
    server_.Register(shared_from_this());
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::Read, shared_from_this()));
  }

  auto Executor() { return stream_.get_executor(); }

  // From Stop(), on the strand: after the request being handled, if any, is answered.
  void Shutdown() {
    stopping_ = true;
    if (writing_) return;  // closes once written
    Close();
  }

 private:
  static std::string PeerOf(const tcp::socket& socket) {
    beast::error_code ec;
    const auto endpoint = socket.remote_endpoint(ec);
    return ec ? "?" : endpoint.address().to_string();
  }

  void Read() {
    if (stopping_ || server_.stopping) return Close();
    parser_.emplace();
    Limit(*parser_, server_.options.max_body);
    stream_.expires_after(server_.options.idle_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::OnHeader, shared_from_this()));
  }

  void OnHeader(beast::error_code ec, std::size_t) {
    if (PeerGone(ec) || stopping_) return Close();
    if (!ec) ec = Narrow(*parser_, server_.options.max_body);
    if (ec) return Write(exchange_.Refuse(ec, Target()));
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  // The request's target, as far as it was read.
  std::string_view Target() const { return View(parser_->get().target()); }

  void OnRead(beast::error_code ec, std::size_t) {
    if (PeerGone(ec) || stopping_) return Close();
    if (ec) return Write(exchange_.Refuse(ec, Target()));
    std::optional<Request> events;
    Answer answer = exchange_.Handle(parser_->release(), events);
    if (events) return StartEvents(std::move(*events));
    Write(std::move(answer));
  }

  void Write(Answer res) {
    const bool keep = res->keep_alive() && !stopping_ && !server_.stopping;
    res->keep_alive(keep);
    writing_ = true;
    stream_.expires_after(server_.options.idle_timeout);
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res, keep](beast::error_code ec, std::size_t) {
                        self->writing_ = false;
                        if (ec || !keep || self->stopping_) return self->Close();
                        self->Read();
                      });
  }

  // An event stream: the header, then each change of the game as it happens, and a comment
  // every kHeartbeat so that proxies and dead peers are noticed.
  void StartEvents(Request r) {
    auto self = shared_from_this();
    std::weak_ptr<Session> weak = self;
    auto sub = server_.api.Subscribe(
        r, [weak](const std::string& event, const std::string& data, const std::string& id) {
          if (auto s = weak.lock()) {
            // An id is one line (a stamp is digits, spaces and hex): never a line break.
            std::string message = id.empty() || id.find_first_of("\r\n") != std::string::npos
                                      ? std::string()
                                      : "id: " + id + "\n";
            message += "event: " + event + "\n";
            std::size_t at = 0;
            do {  // one data: line per line of data
              const std::size_t nl = std::min(data.find('\n', at), data.size());
              message += "data: " + data.substr(at, nl - at) + "\n";
              at = nl + 1;
            } while (at < data.size());
            message += "\n";
            asio::post(s->stream_.get_executor(),
                       [s, m = std::move(message)]() mutable { s->Push(std::move(m)); });
          }
        });
    if (!sub) return Write(exchange_.FromApi(std::move(sub.error())));
    subscription_ = std::move(*sub);
    stream_.expires_never();
    Push(std::string(kEventsHeader));
    Beat();
    // The client sends nothing more: a read ends when it goes away.
    stream_.socket().async_read_some(asio::buffer(sink_),
                                     [self](beast::error_code, std::size_t) { self->Close(); });
  }

  void Beat() {
    heartbeat_.expires_after(kHeartbeat);
    heartbeat_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_) return;
      self->Push(": ping\n\n");
      self->Beat();
    });
  }

  void Push(std::string message) {
    if (closed_) return;
    outbox_.push_back(std::move(message));
    if (outbox_.size() == 1) WriteNext();
  }

  void WriteNext() {
    writing_ = true;
    asio::async_write(stream_.socket(), asio::buffer(outbox_.front()),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->writing_ = false;
                        if (ec || self->closed_) return self->Close();
                        self->outbox_.pop_front();
                        if (!self->outbox_.empty()) return self->WriteNext();
                        if (self->stopping_) self->Close();
                      });
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    subscription_.reset();
    heartbeat_.cancel();
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  asio::steady_timer heartbeat_;
  Exchange exchange_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::unique_ptr<Subscription> subscription_;
  std::deque<std::string> outbox_;
  std::array<char, 256> sink_{};
  bool writing_ = false;
  bool stopping_ = false;
  bool closed_ = false;
};

}  // namespace

void HttpServer::Impl::Register(const std::shared_ptr<Session>& s) {
  std::lock_guard lock(sessions_mutex);
  sessions.emplace(s.get(), s);
}

void HttpServer::Impl::Unregister(Session* s) {
  std::lock_guard lock(sessions_mutex);
  sessions.erase(s);
}

std::shared_ptr<const std::string> HttpServer::Impl::GzipOf(const std::string& etag,
                                                            std::string_view body) {
  {
    std::lock_guard lock(gzip_mutex);
    if (auto it = gzipped.find(etag); it != gzipped.end()) return it->second;
  }
  std::optional<std::string> zipped = Gzip(body, kGzipLevelCached);
  if (!zipped) return nullptr;
  auto made = std::make_shared<const std::string>(std::move(*zipped));
  std::lock_guard lock(gzip_mutex);
  if (gzipped_bytes + made->size() > kGzipCacheBytes) {
    gzipped.clear();
    gzipped_bytes = 0;
  }
  if (gzipped.emplace(etag, made).second) gzipped_bytes += made->size();
  return made;
}

// Runs on the acceptor's strand. Each state that would repeat a log line per connection (out
// of descriptors, at the connection cap) is said once when it begins and once when it ends.
void HttpServer::Impl::Accept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || stopping) return;
    if (OutOfDescriptors(ec)) {
      // The connection waits in the backlog until a descriptor is free; accepting again at once
      // would fail again at once, a core's worth of retries and log lines.
      if (!starved) {
        spdlog::warn("serve: accept: {}: accepting again every {} ms until one is free",
                     ec.message(), kAcceptPause.count());
        starved = true;
      }
      accept_pause.expires_after(kAcceptPause);
      accept_pause.async_wait([this](beast::error_code e) {
        if (!e && !stopping) Accept();
      });
      return;
    }
    if (starved) {
      spdlog::info("serve: accepting again");
      starved = false;
    }
    if (!ec) {
      std::size_t open = 0;
      {
        std::lock_guard lock(sessions_mutex);
        open = sessions.size();
      }
      if (open >= max_connections) {
        if (!at_cap) {
          spdlog::warn("serve: {} connections open: refusing more until one closes", open);
          at_cap = true;
        }
        beast::error_code ignored;
        socket.close(ignored);
      } else {
        if (at_cap) spdlog::info("serve: {} connections open: accepting again", open);
        at_cap = false;
        std::make_shared<Session>(std::move(socket), *this)->Start();
      }
    } else {
      spdlog::warn("serve: accept: {}", ec.message());
    }
    Accept();
  });
}

HttpServer::HttpServer(Api& api, ServerOptions options)
    : impl_(std::make_unique<Impl>(api, std::move(options))) {}

HttpServer::~HttpServer() = default;

Result<std::uint16_t> HttpServer::Listen() {
  Impl& s = *impl_;
  if (!s.options.web_dir.empty()) {
    auto web = Resolved(s.options.web_dir);
    if (!web) {
      return Fail(ErrorCode::kNotFound, "the web client's folder does not exist",
                  s.options.web_dir);
    }
    s.web_root = std::move(*web);
  }
  if (!s.options.games_dir.empty()) {
    auto games = Resolved(s.options.games_dir);
    if (!games)
      return Fail(ErrorCode::kNotFound, "the games folder does not exist", s.options.games_dir);
    s.games_root = std::move(*games);
    // Its secrets and logs would be files of the client's.
    if (Within(s.games_root, s.web_root)) {
      return Fail(ErrorCode::kInvalidInput,
                  "the games folder is inside the web client's folder (" + s.web_root +
                      "), which serves its files to anyone: keep the games elsewhere",
                  s.options.games_dir);
    }
  }
  // Said when asked (-v): a soft limit of 1024, the common default, caps a little below 1024.
  if (s.max_connections < s.options.max_connections) {
    spdlog::info(
        "serve: at most {} connections: the descriptor limit (ulimit -n) leaves no room "
        "for more",
        s.max_connections);
  }
  beast::error_code ec;
  const auto address = asio::ip::make_address(s.options.bind, ec);
  if (ec) return Fail(ErrorCode::kInvalidInput, "not an IP address", s.options.bind);
  const tcp::endpoint endpoint(address, s.options.port);
  const std::string where = s.options.bind + ":" + std::to_string(s.options.port);
  s.acceptor.open(endpoint.protocol(), ec);
  if (!ec) s.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) s.acceptor.bind(endpoint, ec);
  if (!ec) s.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Fail(ErrorCode::kIOError, "cannot listen: " + ec.message(), where);
  return s.acceptor.local_endpoint().port();
}

void HttpServer::Run() {
  Impl& s = *impl_;
  if (s.options.handle_signals) {
    s.signals.add(SIGTERM);
    s.signals.add(SIGINT);
    s.signals.async_wait([this](beast::error_code ec, int signal) {
      if (ec) return;
      spdlog::info("serve: signal {}: finishing the requests in flight", signal);
      Stop();
    });
  }
  asio::dispatch(s.acceptor.get_executor(), [&s] { s.Accept(); });
  std::vector<std::thread> threads;
  for (int i = 1; i < s.Threads(); ++i) threads.emplace_back([&s] { s.io.run(); });
  s.io.run();
  for (auto& t : threads) t.join();
}

void HttpServer::Stop() {
  Impl& s = *impl_;
  if (s.stopping.exchange(true)) return;
  asio::post(s.acceptor.get_executor(), [&s] {
    beast::error_code ec;
    s.acceptor.close(ec);
    s.accept_pause.cancel();
  });
  asio::post(s.io, [&s] {
    beast::error_code ec;
    s.signals.cancel(ec);
  });
  std::vector<std::shared_ptr<Session>> open;
  {
    std::lock_guard lock(s.sessions_mutex);
    for (auto& [raw, weak] : s.sessions) {
      if (auto p = weak.lock()) open.push_back(std::move(p));
    }
  }
  // Each on its own strand: after the request it is handling, if any.
  for (auto& session : open) {
    asio::post(session->Executor(), [session] { session->Shutdown(); });
  }
}

std::string HttpServer::AnswerBytes(std::string_view bytes, const std::string& peer) {
  Impl& s = *impl_;
  Exchange exchange(s, peer);
  std::string out;
  const auto put = [&out](const Answer& res) {
    std::ostringstream text;
    text << *res;
    out += text.str();
  };
  while (!bytes.empty()) {
    http::request_parser<http::string_body> parser;
    Limit(parser, s.options.max_body);
    beast::error_code ec;
    bool narrowed = false;  // the header read and its body limit applied (Narrow)
    while (!ec && !parser.is_done() && !bytes.empty()) {
      const std::size_t used = parser.put(asio::buffer(bytes.data(), bytes.size()), ec);
      bytes.remove_prefix(used);
      if (ec == http::error::need_more) ec = {};
      if (!ec && !narrowed && parser.is_header_done()) {
        narrowed = true;
        ec = Narrow(parser, s.options.max_body);
        parser.eager(true);
        continue;
      }
      if (!ec && used == 0) break;  // it needs more than there is
    }
    if (!ec && !parser.is_done()) parser.put_eof(ec);
    if (!ec && !parser.is_done()) return out;  // the peer went away mid-request
    if (PeerGone(ec)) return out;
    if (ec) {
      put(exchange.Refuse(ec, View(parser.get().target())));
      return out;
    }
    std::optional<Request> events;
    Answer answer = exchange.Handle(parser.release(), events);
    if (events) {
      auto sub = s.api.Subscribe(*events,
                                 [](const std::string&, const std::string&, const std::string&) {});
      if (sub) {
        out += kEventsHeader;
        return out;  // the stream ends when the client goes away: now
      }
      answer = exchange.FromApi(std::move(sub.error()));
    }
    put(answer);
    if (!answer->keep_alive()) return out;
  }
  return out;
}

}  // namespace opsim::server
