// The HTTP layer over real sockets on 127.0.0.1, with a test double of the game API: what the
// transport promises (http_server.h) whatever the API answers. The API itself over sockets is
// in serve_test.cpp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "http_client.h"
#include "opsim/core/json_source.h"
#include "opsim/server/http_server.h"

namespace opsim::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Answers every request with what it was given; /api/slow takes half a second.
class EchoApi final : public Api {
 public:
  Response Handle(const Request& r) override {
    ++calls;
    if (r.path == "/api/slow") std::this_thread::sleep_for(500ms);
    if (r.path.starts_with("/api/big")) {  // a body worth compressing; /cached never changes
      Response big;
      big.body = nlohmann::json(std::vector<std::string>(500, r.path + " 16A:0827")).dump();
      if (r.path == "/api/big/cached") big.etag = "\"big-1\"";
      return big;
    }
    nlohmann::json q = nlohmann::json::array();
    for (const auto& [k, v] : r.query) q.push_back({k, v});
    Response res;
    res.body = nlohmann::json{
        {"method", r.method},
        {"path", r.path},
        {"query", q},
        {"token", r.token},
        {"body",
         r.body}}.dump();
    return res;
  }

  std::expected<std::unique_ptr<Subscription>, Response> Subscribe(const Request& r,
                                                                   Listener listener) override {
    if (r.token != "good") {
      Response refused;
      refused.status = 401;
      refused.body = R"({"error":{}})";
      return std::unexpected(refused);
    }
    std::lock_guard lock(mutex);
    listeners.push_back(std::move(listener));
    return std::make_unique<Subscription>();
  }

  void Fire(const std::string& event, const std::string& data, const std::string& id = {}) {
    std::lock_guard lock(mutex);
    for (auto& l : listeners) l(event, data, id);
  }

  std::atomic<int> calls{0};
  std::mutex mutex;
  std::vector<Listener> listeners;
};

class HttpTest : public ::testing::Test {
 protected:
  void Start(ServerOptions options = {}) {
    options.port = 0;
    options.threads = 2;
    options.web_dir = web_.string();
    server_ = std::make_unique<HttpServer>(api_, options);
    auto port = server_->Listen();
    ASSERT_TRUE(port.has_value()) << port.error().to_string();
    port_ = *port;
    runner_ = std::thread([this] { server_->Run(); });
  }

  void SetUp() override {
    web_ = std::filesystem::temp_directory_path() /
           ("opsim-http-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(web_);
    std::filesystem::create_directories(web_ / "js");
    std::ofstream(web_ / "index.html") << "<!doctype html><title>opsim</title>";
    std::ofstream(web_ / "js" / "app.js") << "export {};";
    std::ofstream(web_.string() + "-secret.txt") << "not for clients";
  }

  void TearDown() override {
    if (server_) server_->Stop();
    if (runner_.joinable()) runner_.join();
    std::filesystem::remove_all(web_);
    std::filesystem::remove(web_.string() + "-secret.txt");
  }

  tcp::socket Connect() {
    tcp::socket s(io_);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
    return s;
  }

  test::Reply Ask(http::request<http::string_body> req) {
    test::Client c(port_);
    return c.Send(std::move(req));
  }

  test::Reply Get(const std::string& target, const std::string& token = {}) {
    test::Client c(port_);
    return c.Get(target, token);
  }

  // Sends raw bytes and reads until the server closes.
  std::string Raw(const std::string& bytes) {
    tcp::socket s = Connect();
    asio::write(s, asio::buffer(bytes));
    std::string out;
    beast::error_code ec;
    std::array<char, 4096> chunk{};
    for (;;) {
      const std::size_t n = s.read_some(asio::buffer(chunk), ec);
      if (ec) break;
      out.append(chunk.data(), n);
    }
    return out;
  }

  asio::io_context io_;
  EchoApi api_;
  std::filesystem::path web_;
  std::unique_ptr<HttpServer> server_;
  std::thread runner_;
  std::uint16_t port_ = 0;
};

TEST_F(HttpTest, HandsTheApiTheDecodedPathQueryTokenAndBody) {
  Start();
  http::request<http::string_body> req{http::verb::post, "/api/games/g%2D1/check?at=3&side=a+b",
                                       11};
  req.set(http::field::authorization, "Bearer T0KEN");
  req.body() = R"({"x":1})";
  const auto res = Ask(std::move(req));
  ASSERT_EQ(res.status, 200);
  const auto j = nlohmann::json::parse(res.body);
  EXPECT_EQ(j["method"], "POST");
  EXPECT_EQ(j["path"], "/api/games/g-1/check");
  EXPECT_EQ(j["query"], nlohmann::json::parse(R"([["at","3"],["side","a b"]])"));
  EXPECT_EQ(j["token"], "T0KEN");
  EXPECT_EQ(j["body"], R"({"x":1})");
  EXPECT_EQ(res.headers[http::field::cache_control], "no-store");
  EXPECT_EQ(res.headers["Content-Security-Policy"].substr(0, 18), "default-src 'self'");
}

TEST_F(HttpTest, TakesTheTokenFromTheQueryWithoutAHeader) {
  Start();
  const auto res = Get("/api/games?token=abc");
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(nlohmann::json::parse(res.body)["token"], "abc");
}

// docs/api.md, "Scenarios (the workshop)": a scenario sent to /api/scenario/ may be as large as
// a scenario file, whatever --max-body says; past that it is refused before it is read.
TEST_F(HttpTest, TheWorkshopTakesAScenarioSizedBodyAndNoMore) {
  ServerOptions o;
  o.max_body = 1000;
  Start(o);
  http::request<http::string_body> req{http::verb::post, "/api/scenario/check", 11};
  req.body() = std::string(5000, 'x');
  const auto res = Ask(std::move(req));
  EXPECT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.json()["body"].get<std::string>().size(), 5000u);
  const std::string over = Raw("POST /api/scenario/format HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                               std::to_string(kMaxScenarioBytes + 1) + "\r\n\r\n{");
  EXPECT_EQ(over.rfind("HTTP/1.1 413", 0), 0u) << over;
  EXPECT_NE(over.find("over the server's limit of " + std::to_string(kMaxScenarioBytes) + " bytes"),
            std::string::npos)
      << over;
  // Any other path keeps max_body.
  const std::string other =
      Raw("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n{");
  EXPECT_EQ(other.rfind("HTTP/1.1 413", 0), 0u) << other;
  EXPECT_EQ(api_.calls, 1);
}

TEST_F(HttpTest, ServesTheWorkshopPageAtEdit) {
  std::ofstream(web_ / "edit.html") << "<!doctype html><title>workshop</title>";
  Start();
  const auto res = Get("/edit");
  EXPECT_EQ(res.status, 200);
  EXPECT_NE(res.body.find("workshop"), std::string::npos);
  EXPECT_EQ(api_.calls, 0);
}

TEST_F(HttpTest, KeepsAConnectionAliveForManyRequests) {
  Start();
  test::Client c(port_);
  for (int i = 0; i < 3; ++i) {
    const auto res = c.Get("/api/n" + std::to_string(i));
    ASSERT_EQ(res.status, 200);
    EXPECT_EQ(nlohmann::json::parse(res.body)["path"], "/api/n" + std::to_string(i));
  }
  EXPECT_EQ(api_.calls, 3);
}

TEST_F(HttpTest, RefusesABodyOverTheLimitBeforeTheApiSeesIt) {
  ServerOptions o;
  o.max_body = 1000;
  Start(o);
  http::request<http::string_body> req{http::verb::post, "/api/games", 11};
  req.body() = std::string(1001, 'x');
  const auto res = Ask(std::move(req));
  EXPECT_EQ(res.status, 413);
  EXPECT_NE(res.body.find("over the server's limit of 1000 bytes"), std::string::npos);
  EXPECT_EQ(res.json()["error"]["code"], "too-large");
  EXPECT_EQ(api_.calls, 0);
  // A body at the limit is handed on.
  http::request<http::string_body> ok{http::verb::post, "/api/games", 11};
  ok.body() = std::string(1000, 'x');
  EXPECT_EQ(Ask(std::move(ok)).status, 200);
}

TEST_F(HttpTest, RefusesHeadersOverSixteenKilobytes) {
  Start();
  http::request<http::string_body> req{http::verb::get, "/api/games", 11};
  req.set("X-Long", std::string(17000, 'a'));
  EXPECT_EQ(Ask(std::move(req)).status, 431);
  EXPECT_EQ(api_.calls, 0);
}

TEST_F(HttpTest, AnswersBytesThatAreNotHttpWith400AndCloses) {
  Start();
  const std::string out = Raw("\x16\x03\x01 hello there\r\n\r\n");
  EXPECT_EQ(out.substr(0, 12), "HTTP/1.1 400");
  EXPECT_NE(out.find("not HTTP/1.1"), std::string::npos);
  EXPECT_EQ(api_.calls, 0);
}

TEST_F(HttpTest, AnswersABadEscapeOrANulWith400) {
  Start();
  EXPECT_EQ(Get("/api/games/%zz").status, 400);
  EXPECT_EQ(Get("/api/games/a%00b").status, 400);
  EXPECT_EQ(Get("/api/games?x=%4").status, 400);
  EXPECT_EQ(api_.calls, 0);
}

// A 404 for a file echoes its path: bytes there that are not UTF-8 made the error's JSON throw
// out of the connection's handler, and the whole server stopped (exit 70).
TEST_F(HttpTest, AFilePathThatIsNotUtf8IsA404AndTheServerGoesOn) {
  Start();
  const auto missing = Get("/%ff%fe.js");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(nlohmann::json::accept(missing.body)) << missing.body;
  EXPECT_EQ(Get("/").status, 200);
}

TEST_F(HttpTest, LimitsEachClientsRateAndSaysWhenToComeBack) {
  ServerOptions o;
  o.rate = 0.5;
  o.burst = 3;
  Start(o);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Get("/api/games", "a").status, 200);
  const auto refused = Get("/api/games", "a");
  EXPECT_EQ(refused.status, 429);
  EXPECT_EQ(refused.headers["Retry-After"], "1");
  EXPECT_EQ(refused.json()["error"]["code"], "rate-limited");
  EXPECT_EQ(api_.calls, 3);
  // Another token is another client.
  EXPECT_EQ(Get("/api/games", "b").status, 200);
}

TEST_F(HttpTest, AClientChangingItsTokenStillMeetsItsAddresssLimit) {
  ServerOptions o;
  o.rate = 0.05;
  o.burst = 1;  // an address: 20 at once, then one a second
  Start(o);
  int refused = 0;
  for (int i = 0; i < 21; ++i) {
    if (Get("/api/games", "token-" + std::to_string(i)).status == 429) ++refused;
  }
  EXPECT_EQ(refused, 1);
  EXPECT_EQ(api_.calls, 20);
}

TEST_F(HttpTest, ServesTheClientsFilesAndNothingOutsideTheirFolder) {
  Start();
  const auto index = Get("/");
  ASSERT_EQ(index.status, 200);
  EXPECT_EQ(index.body, "<!doctype html><title>opsim</title>");
  EXPECT_EQ(index.headers[http::field::content_type], "text/html; charset=utf-8");
  const auto js = Get("/js/app.js");
  ASSERT_EQ(js.status, 200);
  EXPECT_EQ(js.headers[http::field::content_type], "text/javascript; charset=utf-8");
  // Revalidation.
  http::request<http::string_body> again{http::verb::get, "/js/app.js", 11};
  again.set(http::field::if_none_match, js.headers[http::field::etag]);
  EXPECT_EQ(Ask(std::move(again)).status, 304);

  const std::string secret = "/../" + web_.filename().string() + "-secret.txt";
  EXPECT_EQ(Get(secret).status, 404);
  EXPECT_EQ(Get("/js/%2e%2e/%2e%2e/etc/passwd").status, 404);
  EXPECT_EQ(Get("/js//app.js").status, 404);
  EXPECT_EQ(Get("/js").status, 404);  // a folder
  std::filesystem::create_symlink(web_.string() + "-secret.txt", web_ / "out.txt");
  EXPECT_EQ(Get("/out.txt").status, 404);
  std::filesystem::create_symlink(web_ / "index.html", web_ / "in.html");
  EXPECT_EQ(Get("/in.html").status, 200);
  EXPECT_EQ(Ask({http::verb::post, "/index.html", 11}).status, 405);
  EXPECT_EQ(api_.calls, 0);
}

http::request<http::string_body> Asking(const std::string& target, const std::string& encodings,
                                        const std::string& if_none_match = {}) {
  http::request<http::string_body> req{http::verb::get, target, 11};
  if (!encodings.empty()) req.set(http::field::accept_encoding, encodings);
  if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
  return req;
}

TEST_F(HttpTest, GzipsLargeTextForAClientThatTakesIt) {
  Start();
  const auto plain = Ask(Asking("/api/big", ""));
  ASSERT_EQ(plain.status, 200);
  ASSERT_GT(plain.body.size(), 1024u);
  EXPECT_EQ(plain.headers.count(http::field::content_encoding), 0u);
  EXPECT_EQ(plain.headers[http::field::vary], "Accept-Encoding");
  for (const char* takes : {"gzip", "gzip, deflate, br", "br;q=1, GZIP;q=0.5", "*"}) {
    const auto zipped = Ask(Asking("/api/big", takes));
    ASSERT_EQ(zipped.status, 200) << takes;
    EXPECT_EQ(zipped.headers[http::field::content_encoding], "gzip") << takes;
    EXPECT_EQ(zipped.headers[http::field::vary], "Accept-Encoding") << takes;
    EXPECT_LT(zipped.body.size(), plain.body.size() / 4) << takes;
    EXPECT_EQ(test::Gunzip(zipped.body), plain.body) << takes;
  }
  for (const char* refuses :
       {"identity", "gzip;q=0", "gzip;q=0 , br", "br", "*, gzip;q=0.0", "deflate"}) {
    const auto same = Ask(Asking("/api/big", refuses));
    ASSERT_EQ(same.status, 200) << refuses;
    EXPECT_EQ(same.headers.count(http::field::content_encoding), 0u) << refuses;
    EXPECT_EQ(same.body, plain.body) << refuses;
  }
  // Small answers and errors go as they are.
  const auto small = Ask(Asking("/api/games", "gzip"));
  EXPECT_EQ(small.headers.count(http::field::content_encoding), 0u);
  EXPECT_EQ(small.json()["path"], "/api/games");
  const auto missing = Ask(Asking("/" + std::string(2000, 'x') + ".js", "gzip"));
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.headers.count(http::field::content_encoding), 0u);
}

TEST_F(HttpTest, AnAnswerWithAnEtagHasOneEtagPerEncodingAndRevalidates) {
  Start();
  const auto plain = Ask(Asking("/api/big/cached", ""));
  ASSERT_EQ(plain.status, 200);
  EXPECT_EQ(plain.headers[http::field::etag], "\"big-1\"");
  const auto zipped = Ask(Asking("/api/big/cached", "gzip"));
  ASSERT_EQ(zipped.status, 200);
  EXPECT_EQ(zipped.headers[http::field::etag], "\"big-1-gzip\"");
  EXPECT_EQ(test::Gunzip(zipped.body), plain.body);
  const auto again = Ask(Asking("/api/big/cached", "gzip"));  // the compressed body kept
  EXPECT_EQ(again.body, zipped.body);
  // 304 for the representation the client holds, the whole answer for the other one.
  const auto not_modified = Ask(Asking("/api/big/cached", "gzip", "\"big-1-gzip\""));
  EXPECT_EQ(not_modified.status, 304);
  EXPECT_TRUE(not_modified.body.empty());
  EXPECT_EQ(not_modified.headers[http::field::etag], "\"big-1-gzip\"");
  EXPECT_EQ(Ask(Asking("/api/big/cached", "", "\"big-1\"")).status, 304);
  EXPECT_EQ(Ask(Asking("/api/big/cached", "", "W/\"x\", \"big-1\"")).status, 304);
  const auto other = Ask(Asking("/api/big/cached", "gzip", "\"big-1\""));
  EXPECT_EQ(other.status, 200);
  EXPECT_EQ(other.headers[http::field::content_encoding], "gzip");
  EXPECT_EQ(Ask(Asking("/api/big/cached", "", "\"big-1-gzip\"")).status, 200);

  // The client's files likewise.
  const std::string script = "export const names = [" + std::string(3000, ' ') + "];\n";
  std::ofstream(web_ / "js" / "big.js") << script;
  const auto js = Ask(Asking("/js/big.js", "gzip"));
  ASSERT_EQ(js.status, 200);
  EXPECT_EQ(js.headers[http::field::content_encoding], "gzip");
  EXPECT_EQ(test::Gunzip(js.body), script);
  const std::string tag(js.headers[http::field::etag]);
  EXPECT_TRUE(tag.ends_with("-gzip\"")) << tag;
  EXPECT_EQ(Ask(Asking("/js/big.js", "gzip", tag)).status, 304);
  const auto identity = Ask(Asking("/js/big.js", ""));
  EXPECT_EQ(identity.body, script);
  EXPECT_EQ(Ask(Asking("/js/big.js", "", std::string(identity.headers[http::field::etag]))).status,
            304);
}

// Reads one Server-Sent Event block ("...\n\n") from `s`.
std::string ReadEvent(tcp::socket& s, std::string& buffer) {
  asio::read_until(s, asio::dynamic_buffer(buffer), "\n\n");
  const std::size_t end = buffer.find("\n\n") + 2;
  std::string event = buffer.substr(0, end);
  buffer.erase(0, end);
  return event;
}

TEST_F(HttpTest, StreamsAGamesChangesAsServerSentEvents) {
  Start();
  EXPECT_EQ(Get("/api/games/g1/events?token=bad").status, 401);

  tcp::socket s = Connect();
  const std::string ask =
      "GET /api/games/g1/events?token=good HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Accept-Encoding: gzip\r\n\r\n";  // an event stream is never compressed
  asio::write(s, asio::buffer(ask));
  std::string buffer;
  const std::string first = ReadEvent(s, buffer);
  EXPECT_NE(first.find("HTTP/1.1 200 OK"), std::string::npos);
  EXPECT_NE(first.find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_EQ(first.find("Content-Encoding"), std::string::npos);
  // The header ends in CRLF CRLF; the first event follows it.
  EXPECT_TRUE(first.ends_with("\r\n\r\nretry: 2000\nevent: ready\ndata: {}\n\n")) << first;
  for (int i = 0; i < 50 && api_.listeners.empty(); ++i) std::this_thread::sleep_for(10ms);
  api_.Fire("turn", R"({"game":"g1","player_turn":3})", "17 0 0");
  api_.Fire("pending", "line one\nline two");
  api_.Fire("step", "{}", "two\nlines");  // an id that is not one line is left out
  EXPECT_EQ(ReadEvent(s, buffer),
            "id: 17 0 0\nevent: turn\ndata: {\"game\":\"g1\",\"player_turn\":3}\n\n");
  EXPECT_EQ(ReadEvent(s, buffer), "event: pending\ndata: line one\ndata: line two\n\n");
  EXPECT_EQ(ReadEvent(s, buffer), "event: step\ndata: {}\n\n");
}

TEST_F(HttpTest, StopFinishesTheRequestInFlightThenRunReturns) {
  Start();
  std::optional<test::Reply> slow;
  std::thread client([&] { slow = Get("/api/slow"); });
  tcp::socket idle = Connect();  // an idle keep-alive connection is closed
  while (api_.calls == 0) std::this_thread::sleep_for(5ms);
  server_->Stop();
  runner_.join();  // Run returned
  client.join();
  ASSERT_TRUE(slow.has_value());
  EXPECT_EQ(slow->status, 200);
  EXPECT_EQ(nlohmann::json::parse(slow->body)["path"], "/api/slow");
  EXPECT_FALSE(slow->keep_alive);
  std::array<char, 16> byte{};
  beast::error_code ec;
  idle.read_some(asio::buffer(byte), ec);
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  tcp::socket refused(io_);
  refused.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
  EXPECT_TRUE(ec) << "still accepting after Stop";
}

TEST_F(HttpTest, DropsAClientThatSendsNothing) {
  ServerOptions o;
  o.idle_timeout = 1s;
  Start(o);
  tcp::socket s = Connect();
  asio::write(s, asio::buffer(std::string("GET /api/half")));  // never finished
  const auto start = std::chrono::steady_clock::now();
  std::array<char, 64> byte{};
  beast::error_code ec;
  s.read_some(asio::buffer(byte), ec);
  EXPECT_TRUE(ec) << "the connection stayed open";
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(api_.calls, 0);
}

TEST_F(HttpTest, ListenSaysWhyItCannot) {
  ServerOptions o;
  o.bind = "not-an-address";
  HttpServer bad(api_, o);
  auto r = bad.Listen();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  Start();
  ServerOptions same;
  same.port = port_;
  HttpServer twice(api_, same);
  auto busy = twice.Listen();
  ASSERT_FALSE(busy.has_value());
  EXPECT_EQ(busy.error().code, ErrorCode::kIOError);
  EXPECT_NE(busy.error().to_string().find(std::to_string(port_)), std::string::npos);
}

// A FIFO in the web folder held a server thread in open() per request, waiting for a writer:
// four requests stopped every answer, and Stop waited for the pipe. Nothing that is not a
// regular file is opened: 404 at once.
TEST_F(HttpTest, AFifoInTheWebFolderIsA404AndHoldsNoThread) {
  ASSERT_EQ(mkfifo((web_ / "pipe").c_str(), 0600), 0);
  Start();  // two threads
  std::vector<std::future<int>> asked;
  for (int i = 0; i < 4; ++i) {
    asked.push_back(std::async(std::launch::async, [this] { return Get("/pipe").status; }));
  }
  asked.push_back(std::async(std::launch::async, [this] { return Get("/").status; }));
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  bool answered = true;
  for (auto& f : asked) answered &= f.wait_until(deadline) == std::future_status::ready;
  EXPECT_TRUE(answered) << "a request to a FIFO held the server";
  // Release whatever waits on the pipe, so that the test ends either way.
  while (std::any_of(asked.begin(), asked.end(),
                     [](auto& f) { return f.wait_for(0s) != std::future_status::ready; })) {
    const int fd = open((web_ / "pipe").c_str(), O_RDWR | O_NONBLOCK);
    if (fd >= 0) close(fd);
    std::this_thread::sleep_for(10ms);
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(asked[i].get(), 404);
  EXPECT_EQ(asked[4].get(), 200);
}

// With --games inside --web, /games/ID.secrets served both dice secrets and /games/ID.sqlite
// the log. That layout is refused at start, also when the games folder's path is a link into
// the web folder; and no file of the games folder is served, however it is reached.
TEST_F(HttpTest, NeverServesTheGamesFolder) {
  const auto refused = [this](const std::filesystem::path& games) {
    ServerOptions o;
    o.web_dir = web_.string();
    o.games_dir = games.string();
    HttpServer server(api_, o);
    auto r = server.Listen();
    EXPECT_FALSE(r.has_value()) << games;
    if (r) return;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().message.find("inside the web client's folder"), std::string::npos)
        << r.error().to_string();
  };
  std::filesystem::create_directories(web_ / "games");
  refused(web_ / "games");
  refused(web_);
  const std::filesystem::path link = web_.string() + "-games-link";
  std::filesystem::create_symlink(web_ / "games", link);
  refused(link);
  std::filesystem::remove(link);

  // Elsewhere it serves, and a link from the web folder to the games folder leads nowhere.
  const std::filesystem::path games = web_.string() + "-games";
  std::filesystem::create_directories(games);
  std::ofstream(games / "g1.secrets") << "dice secrets";
  std::filesystem::create_symlink(games, web_ / "g");
  ServerOptions o;
  o.games_dir = games.string();
  Start(o);
  EXPECT_EQ(Get("/g/g1.secrets").status, 404);
  EXPECT_EQ(Get("/").status, 200);
  std::filesystem::remove_all(games);
}

// The bytes a connection sends, answered without a socket (the fuzzer's way in) as over one:
// pipelined requests in turn, a refusal that closes the connection, an event stream.
TEST_F(HttpTest, AnswerBytesAnswersAsAConnectionDoes) {
  Start();
  const std::string out = server_->AnswerBytes(
      "GET /api/a HTTP/1.1\r\nHost: x\r\n\r\n"
      "POST /api/b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
      "GET /nope HTTP/1.1\r\n\r\n"
      "not http\r\n\r\nGET /api/never HTTP/1.1\r\n\r\n",
      "peer");
  std::vector<std::string> lines;
  for (std::size_t at = out.find("HTTP/1.1 "); at != std::string::npos;
       at = out.find("HTTP/1.1 ", at + 1)) {
    if (std::isdigit(static_cast<unsigned char>(out[at + 9]))) lines.push_back(out.substr(at, 12));
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"HTTP/1.1 200", "HTTP/1.1 200", "HTTP/1.1 404",
                                             "HTTP/1.1 400"}))
      << out;
  EXPECT_NE(out.find(R"("body":"abc")"), std::string::npos) << out;
  EXPECT_EQ(api_.calls, 2);
  const std::string events =
      server_->AnswerBytes("GET /api/games/g/events?token=good HTTP/1.1\r\n\r\n", "peer");
  EXPECT_TRUE(events.starts_with("HTTP/1.1 200 OK")) << events;
  EXPECT_NE(events.find("event: ready"), std::string::npos) << events;
}

// Out of descriptors, accept failed at once, again and again: a core spun and the log grew
// (122 MB in 5 s), and a new client went unanswered. It now waits between attempts, says so
// once, and answers the client once a descriptor is free.
TEST_F(HttpTest, OutOfDescriptorsTheAcceptLoopWaitsAndSaysSoOnce) {
#if defined(OPSIM_SANITIZED)
  // UndefinedBehaviorSanitizer checks a virtual call's object through a pipe (pipe2 is how its
  // runtime asks whether memory is readable): with no descriptor left, it reports every such
  // call falsely ("invalid vptr"). The Release build runs this test.
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own";
#endif
  const std::string log = web_.string() + "-server.log";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the server, every descriptor taken but for a few seconds
    close(ready[0]);
    const int err = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(err, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    close(err);
    const rlimit limit{64, 64};
    setrlimit(RLIMIT_NOFILE, &limit);
    ServerOptions o;
    o.port = 0;
    o.threads = 1;
    HttpServer server(api_, o);
    auto port = server.Listen();
    if (!port) _exit(3);
    std::vector<int> taken;
    for (int fd; (fd = dup(STDERR_FILENO)) >= 0;) taken.push_back(fd);
    const std::uint16_t p = *port;
    if (write(ready[1], &p, sizeof p) != sizeof p) _exit(4);
    std::thread freeing([&taken, &server] {
      std::this_thread::sleep_for(3s);
      for (int fd : taken) close(fd);
      std::this_thread::sleep_for(3s);
      server.Stop();
    });
    server.Run();
    freeing.join();
    _exit(0);
  }
  close(ready[1]);
  std::uint16_t port = 0;
  ASSERT_EQ(read(ready[0], &port, sizeof port), static_cast<ssize_t>(sizeof port));
  close(ready[0]);
  port_ = port;
  auto answer = std::async(std::launch::async, [this] { return Get("/api/waited").status; });
  std::this_thread::sleep_for(2s);  // every accept fails meanwhile
  const double spent = test::CpuSeconds(child);
  EXPECT_EQ(answer.wait_for(5s), std::future_status::ready) << "not answered once freed";
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_LT(spent, 0.5) << "the accept loop spun";
  if (answer.valid()) {
    EXPECT_EQ(answer.get(), 200);
  }
  const auto logged = std::filesystem::file_size(log);
  EXPECT_LT(logged, 2000u) << "a log line per attempt";
  std::filesystem::remove(log);
}

}  // namespace
}  // namespace opsim::server
