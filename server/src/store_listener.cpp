#include "store_listener.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <chrono>
#include <thread>

#include "opsim/db/hosting.h"

namespace opsim::server {

namespace asio = boost::asio;

struct StoreListener::Loop {
  std::string uri;
  Heard heard;
  asio::io_context io;
  asio::steady_timer retry{io};
  std::unique_ptr<db::PgListener> listener;
  std::optional<asio::posix::stream_descriptor> socket;  // a dup of the listener's
  int listened = -1;                                     // the listener's socket when it was opened
  bool lost = false;  // the connection was lost: once back, every game may have changed
  std::thread thread;

  void Connect() {
    auto opened = db::PgListener::Open(uri);
    if (!opened) {
      spdlog::warn("serve: cannot listen to the store ({}); again in 5 s", opened.error().message);
      return Retry(std::chrono::seconds(5));
    }
    listener = std::move(*opened);
    listened = listener->socket();
    const int fd = ::dup(listened);
    if (fd < 0) return Retry(std::chrono::seconds(5));
    socket.emplace(io, fd);
    if (lost) {
      lost = false;
      heard(std::nullopt);
    }
    Wait();
  }

  void Retry(std::chrono::seconds after) {
    socket.reset();
    listener.reset();
    lost = true;
    retry.expires_after(after);
    retry.async_wait([this](boost::system::error_code ec) {
      if (!ec) Connect();
    });
  }

  void Wait() {
    socket->async_wait(asio::posix::stream_descriptor::wait_read,
                       [this](boost::system::error_code ec) {
                         if (ec == asio::error::operation_aborted) return;
                         auto changes = listener->Take();
                         // libpqxx may connect again by itself, on another socket.
                         if (ec || !changes || listener->socket() != listened) {
                           spdlog::warn("serve: lost the store's notifications; listening again");
                           return Retry(std::chrono::seconds(1));
                         }
                         for (const auto& [game, seq] : *changes) heard(game);
                         Wait();
                       });
  }
};

StoreListener::StoreListener(std::string uri, Heard heard) : loop_(std::make_unique<Loop>()) {
  loop_->uri = std::move(uri);
  loop_->heard = std::move(heard);
  asio::post(loop_->io, [loop = loop_.get()] { loop->Connect(); });
  loop_->thread = std::thread([loop = loop_.get()] {
    auto work = asio::make_work_guard(loop->io);
    loop->io.run();
  });
}

StoreListener::~StoreListener() {
  loop_->io.stop();
  if (loop_->thread.joinable()) loop_->thread.join();
}

}  // namespace opsim::server
