// The words a failed navigation's net error is answered with.
#include "browser/net_error.h"

#include <gtest/gtest.h>

namespace gleaner::browser {
namespace {

TEST(NetError, CommonCausesAreSaidInWordsWithTheCodeKept) {
  EXPECT_EQ(describe_net_error("net::ERR_NAME_NOT_RESOLVED"),
            "the host name does not resolve (DNS) (net::ERR_NAME_NOT_RESOLVED)");
  EXPECT_EQ(describe_net_error("net::ERR_CONNECTION_REFUSED"),
            "the site refused the connection (net::ERR_CONNECTION_REFUSED)");
  EXPECT_EQ(describe_net_error("net::ERR_CERT_DATE_INVALID"),
            "TLS failed: the site's certificate was not accepted (net::ERR_CERT_DATE_INVALID)");
  EXPECT_EQ(describe_net_error("net::ERR_SSL_PROTOCOL_ERROR"),
            "TLS failed: no secure connection could be made (net::ERR_SSL_PROTOCOL_ERROR)");
  EXPECT_EQ(describe_net_error("net::ERR_PROXY_AUTH_UNSUPPORTED"),
            "the proxy refused the credentials (net::ERR_PROXY_AUTH_UNSUPPORTED)");
  EXPECT_EQ(describe_net_error("net::ERR_TUNNEL_CONNECTION_FAILED"),
            "the proxy could not open a connection to the site (net::ERR_TUNNEL_CONNECTION_FAILED)");
}

TEST(NetError, AnUnknownCodeIsStillNamed) {
  EXPECT_EQ(describe_net_error("net::ERR_SOMETHING_NEW"),
            "the page could not be loaded (net::ERR_SOMETHING_NEW)");
  EXPECT_EQ(describe_net_error("ERR_CONNECTION_RESET"),
            "the connection was reset (ERR_CONNECTION_RESET)");
}

}  // namespace
}  // namespace gleaner::browser
