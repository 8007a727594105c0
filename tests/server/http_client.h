// A blocking HTTP/1.1 client for the server tests: real sockets on 127.0.0.1, one keep-alive
// connection per client object (opened on first use, reopened when the server closes it);
// Gunzip, to read a gzipped answer; and CpuSeconds, what a server process has spent.
#pragma once

#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

namespace opsim::server::test {

namespace http = boost::beast::http;

struct Reply {
  int status = 0;
  std::string body;
  http::fields headers;
  bool keep_alive = true;
  // The body as JSON (null if it is not JSON).
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
};

class Client {
 public:
  explicit Client(std::uint16_t port) : port_(port) {}

  Reply Send(http::request<http::string_body> req, const std::string& token = {}) {
    if (!socket_) {
      socket_.emplace(io_);
      socket_->connect({boost::asio::ip::make_address("127.0.0.1"), port_});
    }
    req.set(http::field::host, "127.0.0.1");
    if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
    req.prepare_payload();
    http::write(*socket_, req);
    http::response<http::string_body> res;
    http::read(*socket_, buffer_, res);
    Reply r{static_cast<int>(res.result_int()), res.body(), res.base(), res.keep_alive()};
    if (!res.keep_alive()) socket_.reset();
    return r;
  }
  Reply Get(const std::string& target, const std::string& token = {}) {
    return Send({http::verb::get, target, 11}, token);
  }
  Reply Post(const std::string& target, const std::string& body, const std::string& token = {}) {
    http::request<http::string_body> req{http::verb::post, target, 11};
    req.set(http::field::content_type, "application/json");
    req.body() = body;
    return Send(std::move(req), token);
  }

 private:
  std::uint16_t port_;
  boost::asio::io_context io_;
  std::optional<boost::asio::ip::tcp::socket> socket_;
  boost::beast::flat_buffer buffer_;
};

// A gzip member inflated, by zlib; empty if it is not one.
inline std::string Gunzip(const std::string& in) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  int st = Z_OK;
  while (st == Z_OK) {
    char chunk[16384];
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    st = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - z.avail_out);
  }
  inflateEnd(&z);
  return st == Z_STREAM_END ? out : std::string();
}

// The CPU time, user and system, that process `pid` has used (/proc/PID/stat).
inline double CpuSeconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), {});
  std::istringstream fields(text.substr(text.rfind(')') + 2));  // from field 3, the state
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);  // utime, stime
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace opsim::server::test
