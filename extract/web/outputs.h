#pragma once
// POST /scrape/web's outputs from a snapshot (snapshot.js's output on the browser road,
// plain::snapshot_of's on the plain road): the same converters for both roads.
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "extract/content/snapshot.h"
#include "extract/html/document.h"
#include "extract/web/request.h"

namespace gleaner::web {

/// The snapshot parts the request's outputs need. On the plain road `text` is made from the tree.
content::SnapshotParts parts_for(const WebRequest& request);

/// The in-page expression of the browser road: snapshot.js, composed with main_content.js when
/// onlyMainContent, includeOnlyTags or excludeTags choose the part of the page converted.
std::string snapshot_expression(const WebRequest& request, const content::SnapshotParts& parts);

/// The site's answer: its status and its headers as `statusCode` and `headers`, without what our
/// egress gateway added on the way (Proxy-Connection...), the same on both roads.
void put_answer(int status, const std::map<std::string, std::string>& headers,
                nlohmann::json& body);

/// Puts every asked output in `body`: content, text, markdown, json, extractedLinks,
/// extractedEmails, extractedData, truncated. `inner_text`: the snapshot's `text` is the browser's
/// innerText of the whole page (else the text is made from the tree). `parsed`: the snapshot's
/// html already parsed (the plain road has it), else it is parsed here when extractRules need it.
/// extractRules draw on `budget`, the request's one bound on selector work.
void fill_outputs(const WebRequest& request, const nlohmann::json& snapshot, bool inner_text,
                  const html::Document* parsed, html::XPathBudget& budget, nlohmann::json& body);

}  // namespace gleaner::web
