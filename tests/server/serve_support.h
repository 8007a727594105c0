// What the tests of `opsim serve` over sockets share: the bundled first player-turn as a player
// sends it, and a game's event stream read as a browser reads it.
#pragma once

#include <gtest/gtest.h>
#include <poll.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>

#include "test_support.h"

namespace opsim::server::test {

// The bundled first player-turn: the axis orders, and the allied reply (its flood attempt).
inline std::pair<std::string, std::string> FirstTurn() {
  nlohmann::json orders = nlohmann::json::parse(
      opsim::test::ReadFile(opsim::test::BundledOrders("01-axis-may-i-1940.json")));
  nlohmann::json reply = {{"reactions", orders["reactions"]}};
  orders.erase("reactions");
  return {orders.dump(), reply.dump()};
}

// An event stream of game `base` on `port`, once it is ready.
class Events {
 public:
  // `last_id`: the Last-Event-ID of a client back after a lost stream.
  Events(std::uint16_t port, const std::string& base, const std::string& token,
         const std::string& last_id = {})
      : socket_(io_) {
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    const std::string ask = "GET " + base + "/events?token=" + token +
                            " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                            (last_id.empty() ? "" : "Last-Event-ID: " + last_id + "\r\n") + "\r\n";
    boost::asio::write(socket_, boost::asio::buffer(ask));
    Await("ready");
  }
  // The data of the next event named `name` (the others are passed over); a test failure, and
  // null, if none comes within `wait` or the stream ends first: a test never hangs on a stream.
  nlohmann::json Await(const std::string& name,
                       std::chrono::milliseconds wait = std::chrono::seconds(60)) {
    const auto end = std::chrono::steady_clock::now() + wait;
    for (;;) {
      std::size_t cut;
      while ((cut = buffer_.find("\n\n")) == std::string::npos) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            end - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
          ADD_FAILURE() << "no event \"" << name << "\" within " << wait.count() << " ms";
          return nullptr;
        }
        pollfd ready{socket_.native_handle(), POLLIN, 0};
        if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) continue;
        char chunk[4096];
        boost::system::error_code ec;
        const std::size_t n = socket_.read_some(boost::asio::buffer(chunk), ec);
        if (ec) {
          ADD_FAILURE() << "the event stream ended awaiting \"" << name << "\": " << ec.message();
          return nullptr;
        }
        buffer_.append(chunk, n);
      }
      const std::string block = buffer_.substr(0, cut + 2);
      buffer_.erase(0, cut + 2);
      if (const std::size_t id = block.find("id: "); id != std::string::npos) {
        last_id_ = block.substr(id + 4, block.find('\n', id) - id - 4);
      }
      const std::size_t at = block.find("event: " + name + "\n");
      if (at == std::string::npos) continue;
      const std::size_t data = block.find("data: ", at);
      return nlohmann::json::parse(block.substr(data + 6, block.find('\n', data) - data - 6),
                                   nullptr, false);
    }
  }
  // The id of the last event read that had one.
  const std::string& last_id() const { return last_id_; }
  // Whether an event arrives within `wait` (one is read if so).
  bool Quiet(std::chrono::milliseconds wait) {
    socket_.non_blocking(true);
    const auto end = std::chrono::steady_clock::now() + wait;
    char c;
    boost::system::error_code ec;
    while (std::chrono::steady_clock::now() < end) {
      if (buffer_.find("event: ") != std::string::npos) return false;
      const std::size_t n = socket_.read_some(boost::asio::buffer(&c, 1), ec);
      if (n == 1) buffer_ += c;
      if (ec == boost::asio::error::would_block)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      else if (ec)
        break;
    }
    socket_.non_blocking(false);
    return buffer_.find("event: ") == std::string::npos;
  }

 private:
  std::string last_id_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  std::string buffer_;
};

}  // namespace opsim::server::test
