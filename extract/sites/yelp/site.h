#pragma once
// What Yelp's endpoints share: the sites a request may name (`domain`) and the host each is
// served on.
#include <string>

#include "extract/params.h"

namespace gleaner::extract::yelp {

/// `domain`: a country's domain (`yelp.co.uk`, with or without `www.`) or one of its language hosts
/// (`fr.yelp.ca`, `zh.yelp.com.hk`); the hosted service's clients send the 41 hosts of its list.
Param domain_parameter();

/// The host the request's `domain` names (`www.yelp.com` when absent): a country's bare domain is
/// served on `www.`, a language host as named.
std::string host_of(const ValidatedParams& params);

}  // namespace gleaner::extract::yelp
