// The address guard without any network: classification of many addresses, host parsing in the
// odd literal forms browsers accept, URL scheme checks, and the allow_private_addresses switch.
#include "proxies/guard.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace gleaner;
using namespace gleaner::proxies;

namespace {

AddressKind kind_of(const char* text) { return classify(boost::asio::ip::make_address(text)); }

// Expects `url` to be refused with 400 invalid_parameter naming `url`; returns the message.
std::string refusal(const AddressGuard& guard, const std::string& url) {
  try {
    guard.check_url(url);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidParameter) << url;
    EXPECT_EQ(e.parameter().value_or(""), "url") << url;
    return e.what();
  }
  ADD_FAILURE() << url << " was not refused";
  return {};
}

}  // namespace

TEST(Classify, Ipv4Ranges) {
  const std::vector<std::pair<const char*, AddressKind>> cases = {
      {"8.8.8.8", AddressKind::Public},
      {"93.184.216.34", AddressKind::Public},
      {"1.1.1.1", AddressKind::Public},
      {"223.255.255.255", AddressKind::Public},
      {"127.0.0.1", AddressKind::Loopback},
      {"127.255.255.254", AddressKind::Loopback},
      {"10.0.0.1", AddressKind::Private},
      {"10.255.255.255", AddressKind::Private},
      {"172.16.0.1", AddressKind::Private},
      {"172.31.255.255", AddressKind::Private},
      {"172.15.255.255", AddressKind::Public},
      {"172.32.0.0", AddressKind::Public},
      {"192.168.1.1", AddressKind::Private},
      {"192.169.0.1", AddressKind::Public},
      {"169.254.0.1", AddressKind::LinkLocal},
      {"169.254.169.254", AddressKind::Metadata},
      {"100.100.100.200", AddressKind::Metadata},
      {"168.63.129.16", AddressKind::Metadata},
      {"100.64.0.1", AddressKind::SharedCgnat},
      {"100.127.255.255", AddressKind::SharedCgnat},
      {"100.63.255.255", AddressKind::Public},
      {"100.128.0.0", AddressKind::Public},
      {"0.0.0.0", AddressKind::Unspecified},
      {"0.1.2.3", AddressKind::Unspecified},
      {"224.0.0.1", AddressKind::Multicast},
      {"239.255.255.250", AddressKind::Multicast},
      {"255.255.255.255", AddressKind::Broadcast},
      {"240.0.0.1", AddressKind::Reserved},
      {"192.0.2.1", AddressKind::Reserved},
      {"198.51.100.7", AddressKind::Reserved},
      {"203.0.113.9", AddressKind::Reserved},
      {"198.18.0.1", AddressKind::Reserved},
      {"192.0.0.192", AddressKind::Reserved},
  };
  for (const auto& [address, kind] : cases)
    EXPECT_EQ(kind_name(kind_of(address)), kind_name(kind)) << address;
}

TEST(Classify, Ipv6Ranges) {
  const std::vector<std::pair<const char*, AddressKind>> cases = {
      {"2606:4700:4700::1111", AddressKind::Public},
      {"2a00:1450:4001:81b::200e", AddressKind::Public},
      {"::1", AddressKind::Loopback},
      {"::", AddressKind::Unspecified},
      {"fc00::1", AddressKind::Private},
      {"fd12:3456:789a::1", AddressKind::Private},
      {"fd00:ec2::254", AddressKind::Metadata},
      {"fec0::1", AddressKind::Private},
      {"fe80::1", AddressKind::LinkLocal},
      {"febf::1", AddressKind::LinkLocal},
      {"ff02::1", AddressKind::Multicast},
      {"2001:db8::1", AddressKind::Reserved},
      {"2001:0:4136:e378::1", AddressKind::Reserved},  // Teredo
      {"100::1", AddressKind::Reserved},
      {"64:ff9b:1::a00:1", AddressKind::Private},
      {"4000::1", AddressKind::Reserved},  // outside 2000::/3: not allocated
  };
  for (const auto& [address, kind] : cases)
    EXPECT_EQ(kind_name(kind_of(address)), kind_name(kind)) << address;
}

TEST(Classify, Ipv6EmbeddingIpv4IsJudgedByTheIpv4) {
  const std::vector<std::pair<const char*, AddressKind>> cases = {
      {"::ffff:127.0.0.1", AddressKind::Loopback},      // IPv4-mapped
      {"::ffff:7f00:1", AddressKind::Loopback},         // the same, in hex
      {"::ffff:10.1.2.3", AddressKind::Private},
      {"::ffff:169.254.169.254", AddressKind::Metadata},
      {"::ffff:8.8.8.8", AddressKind::Public},
      {"::ffff:0:127.0.0.1", AddressKind::Loopback},    // IPv4-translated
      {"::127.0.0.1", AddressKind::Loopback},           // IPv4-compatible
      {"::192.168.0.1", AddressKind::Private},
      {"64:ff9b::127.0.0.1", AddressKind::Loopback},    // NAT64
      {"64:ff9b::8.8.8.8", AddressKind::Public},
      {"2002:7f00:1::", AddressKind::Loopback},         // 6to4 of 127.0.0.1
      {"2002:a9fe:a9fe::1", AddressKind::Metadata},     // 6to4 of 169.254.169.254
      {"2002:808:808::1", AddressKind::Public},         // 6to4 of 8.8.8.8
  };
  for (const auto& [address, kind] : cases)
    EXPECT_EQ(kind_name(kind_of(address)), kind_name(kind)) << address;
}

TEST(Guard, AllowPrivateLiftsOnlyTheInternalRanges) {
  const AddressGuard strict(false);
  const AddressGuard relaxed(true);
  for (auto kind : {AddressKind::Loopback, AddressKind::Private, AddressKind::LinkLocal,
                    AddressKind::SharedCgnat}) {
    EXPECT_FALSE(strict.allows(kind)) << kind_name(kind);
    EXPECT_TRUE(relaxed.allows(kind)) << kind_name(kind);
  }
  for (auto kind : {AddressKind::Metadata, AddressKind::Unspecified, AddressKind::Multicast,
                    AddressKind::Broadcast, AddressKind::Reserved}) {
    EXPECT_FALSE(strict.allows(kind)) << kind_name(kind);
    EXPECT_FALSE(relaxed.allows(kind)) << kind_name(kind);
  }
  EXPECT_TRUE(strict.allows(AddressKind::Public));
}

TEST(Guard, FromConfigReadsTheEntryAndTheEnvironment) {
  EXPECT_FALSE(AddressGuard::from_config(Config()).allow_private_addresses());
  EXPECT_TRUE(AddressGuard::from_config(Config({{"allow_private_addresses", true}}, {}))
                  .allow_private_addresses());
  EXPECT_TRUE(AddressGuard::from_config(
                  Config(nlohmann::json::object(), {{"GLEANER_ALLOW_PRIVATE_ADDRESSES", "true"}}))
                  .allow_private_addresses());
}

TEST(Hosts, Ipv4LiteralsInEveryFormBrowsersAccept) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"127.0.0.1", "127.0.0.1"},   {"2130706433", "127.0.0.1"},  {"0177.0.0.1", "127.0.0.1"},
      {"0x7f.1", "127.0.0.1"},      {"0x7f000001", "127.0.0.1"},  {"127.1", "127.0.0.1"},
      {"127.0.1", "127.0.0.1"},     {"0x7F.0.0.1", "127.0.0.1"},  {"017700000001", "127.0.0.1"},
      {"127.0.0.1.", "127.0.0.1"},  {"%31%32%37.0.0.1", "127.0.0.1"}, {"0", "0.0.0.0"},
      {"0xa9.0xfe.0xa9.0xfe", "169.254.169.254"}, {"3232235521", "192.168.0.1"},
      {"0300.0250.0.1", "192.168.0.1"},
      // Full-width digits and full stops, as browsers map them (UTS #46): "１２７．０．０．１",
      // "１６９。２５４。１６９。２５４", and percent-encoded "１２７" with a half-width
      // ideographic full stop.
      {"\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x97\xEF\xBC\x8E\xEF\xBC\x90\xEF\xBC\x8E"
       "\xEF\xBC\x90\xEF\xBC\x8E\xEF\xBC\x91",
       "127.0.0.1"},
      {"\xEF\xBC\x91\xEF\xBC\x96\xEF\xBC\x99\xE3\x80\x82\xEF\xBC\x92\xEF\xBC\x95"
       "\xEF\xBC\x94\xE3\x80\x82\xEF\xBC\x91\xEF\xBC\x96\xEF\xBC\x99\xE3\x80\x82"
       "\xEF\xBC\x92\xEF\xBC\x95\xEF\xBC\x94",
       "169.254.169.254"},
      {"%EF%BC%91%EF%BC%92%EF%BC%97\xEF\xBD\xA1" "1", "127.0.0.1"},
      {"\xEF\xBC\x90\xEF\xBD\x98" "7f.1", "127.0.0.1"},  // "０ｘ7f.1"
  };
  for (const auto& [text, dotted] : cases) {
    auto host = parse_host(text);
    ASSERT_TRUE(host) << text;
    EXPECT_EQ(host->form, Host::Form::Ipv4) << text;
    EXPECT_EQ(host->text, dotted) << text;
    ASSERT_TRUE(host->literal) << text;
  }
}

TEST(Hosts, InvalidHosts) {
  for (const char* text : {"", "1.2.3.4.5", "256.0.0.1", "0x100.0.0.1", "1.2.3.256", "4294967296",
                           "09.0.0.1", "0x7g.0.0.1", "a b", "a/b", "a@b", "[::1", "[zz::1]",
                           "[fe80::1%25eth0]", ".", "a..b", "e8ample.com127.0..", ".a"})
    EXPECT_FALSE(parse_host(text)) << text;
  // Every canonical name parses back to itself.
  for (const char* text : {"Example.COM.", "a.b.c", "xn--bcher-kva.example", "localhost."}) {
    auto host = parse_host(text);
    ASSERT_TRUE(host) << text;
    EXPECT_EQ(parse_host(host->text)->text, host->text) << text;
  }
}

TEST(Hosts, NamesAndIpv6) {
  auto name = parse_host("WWW.Example.COM.");
  ASSERT_TRUE(name);
  EXPECT_EQ(name->form, Host::Form::Name);
  EXPECT_EQ(name->text, "www.example.com");
  EXPECT_FALSE(name->literal);
  // A name whose last label is not a number stays a name, even with numbers elsewhere.
  EXPECT_EQ(parse_host("127.0.0.1.nip.io")->form, Host::Form::Name);
  auto v6 = parse_host("[0:0:0:0:0:FFFF:7F00:1]");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->form, Host::Form::Ipv6);
  EXPECT_EQ(v6->text, "::ffff:127.0.0.1");
  EXPECT_EQ(name_kind("localhost"), AddressKind::Loopback);
  EXPECT_EQ(name_kind("foo.localhost"), AddressKind::Loopback);
  EXPECT_FALSE(name_kind("localhost.example"));
  EXPECT_FALSE(name_kind("notlocalhost"));
}

TEST(Hosts, Authorities) {
  auto plain = parse_authority("example.com:8080", 443);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->host.text, "example.com");
  EXPECT_EQ(plain->port, 8080);
  EXPECT_EQ(parse_authority("example.com", 443)->port, 443);
  EXPECT_EQ(parse_authority("[::1]:8443", 443)->host.text, "::1");
  EXPECT_EQ(parse_authority("[::1]:8443", 443)->port, 8443);
  for (const char* bad : {"example.com:0", "example.com:65536", "example.com:8x", "[::1]x",
                          "a:b:c", ":80"})
    EXPECT_FALSE(parse_authority(bad, 443)) << bad;
}

TEST(Urls, OnlyHttpAndHttpsSchemes) {
  const AddressGuard guard(true);
  for (const char* url : {"file:///etc/passwd", "chrome://settings", "data:text/html,<b>x</b>",
                          "javascript:alert(1)", "ftp://example.com/", "ws://example.com/",
                          "wss://example.com/", "about:blank", "view-source:http://example.com/",
                          "blob:http://example.com/uuid", "chrome-extension://abc/x.html",
                          "  FILE:///etc/passwd", "gopher://example.com/"}) {
    const std::string message = refusal(guard, url);
    EXPECT_NE(message.find("only http and https"), std::string::npos) << url << ": " << message;
  }
  for (const char* url : {"", "example.com", "//example.com/", "http://", "http://:80/",
                          "https://exa mple.com/", "http://1.2.3.4.5/", "http://example.com:99999/"})
    EXPECT_FALSE(refusal(guard, url).empty()) << url;
}

TEST(Urls, TakenApartLikeABrowserDoes) {
  const AddressGuard guard(true);
  auto target = guard.check_url("  HTTPS://user:pw@Example.COM:8443/path?q#frag ");
  EXPECT_EQ(target.scheme, "https");
  EXPECT_EQ(target.host.text, "example.com");
  EXPECT_EQ(target.port, 8443);
  EXPECT_EQ(guard.check_url("http://example.com").port, 80);
  EXPECT_EQ(guard.check_url("https://example.com/").port, 443);
  EXPECT_EQ(guard.check_url("http:\\\\example.com\\x").host.text, "example.com");
  EXPECT_EQ(guard.check_url("http:example.com").host.text, "example.com");
  EXPECT_EQ(guard.check_url("http://a@b@example.com/").host.text, "example.com");
}

// Issue 41, item 6: a url with CR LF passed validation (browsers drop them) and reached libcurl,
// whose error echoed it, raw, to the caller. Every control character is refused, named by its
// code, and the message never holds the URL's bytes.
TEST(Urls, ControlCharactersAreRefusedByTheirCode) {
  const AddressGuard guard(true);
  for (const std::string& url :
       {std::string("http://example.com/a\r\nX-Injected: 1"), std::string("ht\ttp://example.com/"),
        std::string("http://example.com/\x01"), std::string("http://example.com/\x7f"),
        std::string("\x00http://example.com/", 20)}) {
    const std::string message = refusal(guard, url);
    EXPECT_NE(message.find("control character (0x"), std::string::npos) << message;
    for (char c : message) {
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << message;
    }
  }
  EXPECT_NE(refusal(guard, "http://example.com/a\r\nb").find("0x0D at byte 21"), std::string::npos);
}

// Issue 41, item 6: a 100 KB URL reached the egress gateway, which could not read the request
// line and answered 407, taken for the site's answer. URLs have a bound below the gateway's.
TEST(Urls, LongerThanTheLimitIsRefused) {
  const AddressGuard guard(true);
  const std::string base = "http://example.com/";
  EXPECT_EQ(guard.check_url(base + std::string(kMaxUrlLength - base.size(), 'a')).port, 80);
  const std::string message = refusal(guard, base + std::string(100'000, 'a'));
  EXPECT_NE(message.find("more than the 16384 allowed"), std::string::npos) << message;
}

// Issue 41, item 6: IDN hosts failed on the plain road (they work in the browser, which sends
// them in their ASCII form).
TEST(Hosts, InternationalisedNamesInTheirAsciiForm) {
  EXPECT_EQ(parse_host("B\xC3\xBC"
                       "cher.example")
                ->text,
            "xn--bcher-kva.example");
  EXPECT_EQ(parse_host("%C3%BC.example")->text, "xn--tda.example");
  EXPECT_EQ(parse_host("\xE4\xBE\x8B\xE5\xAD\x90.\xE6\xB5\x8B\xE8\xAF\x95")->text,
            "xn--fsqu00a.xn--0zwm56d");
  EXPECT_EQ(AddressGuard(true)
                .check_url("http://b\xC3\xBC"
                           "cher.example/")
                .host.text,
            "xn--bcher-kva.example");
}

// Issue 41, item 6: `http:127.0.0.1:8555/x` as a redirect target was absolute on the plain road
// (libcurl reads RFC 3986) and relative in Chromium (the URL Standard). Both read it as Chromium.
TEST(Urls, ResolvedAsTheUrlStandardSays) {
  const std::string base = "http://site.example:8080/dir/page?q=1#top";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"http:127.0.0.1:8555/x", "http://site.example:8080/dir/127.0.0.1:8555/x"},
      {"https:127.0.0.1:8555/x", "https://127.0.0.1:8555/x"},
      {"http://other.example/x", "http://other.example/x"},
      {"//other.example/x", "http://other.example/x"},
      {"\\\\other.example\\x", "http://other.example/x"},
      {"/a/../b/./c", "http://site.example:8080/b/c"},
      {"x/%2e%2E/y", "http://site.example:8080/dir/y"},
      {"../../../up", "http://site.example:8080/up"},
      {"?p=2", "http://site.example:8080/dir/page?p=2"},
      {"#frag", "http://site.example:8080/dir/page?q=1"},
      {"", "http://site.example:8080/dir/page?q=1"},
      {"HTTP://Site.Example:80/a b?c d\"e", "http://site.example/a%20b?c%20d%22e"},
      {"http://b\xC3\xBC"
       "cher.example/\xC3\xA4",
       "http://xn--bcher-kva.example/%C3%A4"},
      {"  /x\t/y\n ", "http://site.example:8080/x/y"},
      {"https://site.example:443/", "https://site.example/"},
  };
  for (const auto& [ref, want] : cases) {
    EXPECT_EQ(resolve_http_url(base, ref).value_or("(none)"), want) << ref;
  }
  for (const char* ref :
       {"mailto:a@b.example", "javascript:x", "ftp://a/", "http://", "http://a b/"}) {
    EXPECT_FALSE(resolve_http_url(base, ref)) << ref;
  }
  EXPECT_FALSE(resolve_http_url("", "/relative"));
  EXPECT_EQ(resolve_http_url("", "http://Example.COM").value_or(""), "http://example.com/");
}

TEST(Urls, PrivateLiteralsAndLocalhostRefusedWithoutResolving) {
  const AddressGuard guard(false);
  for (const char* url :
       {"http://127.0.0.1/", "http://127.0.0.1:8080/x", "http://2130706433/", "http://0177.0.0.1/",
        "http://0x7f.1/", "http://127.1/", "https://[::1]/", "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/", "http://10.0.0.5/", "http://192.168.1.1/",
        "http://172.20.0.1/", "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/", "http://100.64.0.1/", "http://[fe80::1]/", "http://0.0.0.0/",
        "http://0/", "http://localhost/", "http://LOCALHOST./", "http://api.localhost/",
        "http://%6c%6f%63%61%6c%68%6f%73%74/", "http://user@127.0.0.1/", "http:/\\127.0.0.1/",
        "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/",
        "http://\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x97.0.0.1/",
        "http://\xEF\xBD\x8C\xEF\xBD\x8F\xEF\xBD\x83\xEF\xBD\x81\xEF\xBD\x8C"
        "host/"}) {
    EXPECT_EQ(refusal(guard, url), kPrivateAddressMessage) << url;
  }
  EXPECT_EQ(guard.check_url("http://93.184.216.34/").host.text, "93.184.216.34");
  EXPECT_EQ(guard.check_url("https://example.com/").host.text, "example.com");
}

TEST(Urls, AllowPrivateLetsLoopbackThroughButNotMetadata) {
  const AddressGuard guard(true);
  EXPECT_EQ(guard.check_url("http://127.0.0.1:8080/").port, 8080);
  EXPECT_EQ(guard.check_url("http://localhost/").host.text, "localhost");
  EXPECT_EQ(refusal(guard, "http://169.254.169.254/"), kPrivateAddressMessage);
  EXPECT_EQ(refusal(guard, "http://[ff02::1]/"), kPrivateAddressMessage);
}

TEST(Urls, ParameterNameIsTheCallers) {
  const AddressGuard guard(false);
  try {
    guard.check_url("file:///x", "webhookUrl");
    FAIL() << "not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.parameter().value_or(""), "webhookUrl");
  }
}
