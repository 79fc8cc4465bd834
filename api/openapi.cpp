#include "api/openapi.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "api/response_shapes.h"
#include "api/routes/routes.h"
#include "core/http_header.h"
#include "gleaner_api_embedded.h"
#include "extract/registry.h"
#include "extract/sessions.h"
#include "extract/web/request.h"
#include "jobs/job_request.h"
#include "jobs/page_job_request.h"
#include "proxies/guard.h"
#include "store/jobs_store.h"

namespace gleaner::api {
namespace {

using nlohmann::json;

json schema_ref(const std::string& component) {
  return {{"$ref", "#/components/schemas/" + component}};
}

/// The schema of one declared parameter's value (for a List, of the array).
json param_schema(const extract::Param& p) {
  using extract::ParamType;
  json s;
  switch (p.type()) {
    case ParamType::String:
      s = {{"type", "string"}, {"maxLength", p.length_limit()}};
      if (p.separator() != '\0') {
        std::string words = std::string("items separated by '") + p.separator() + "'";
        if (!p.allowed().empty()) {
          words += ", each one of:";
          for (const auto& v : p.accepted_words()) words += " " + v;
        }
        s["description"] = words;
      } else if (!p.allowed().empty()) {
        s["enum"] = p.accepted_words();
      }
      break;
    case ParamType::Int:
    case ParamType::Number:
      s["type"] = p.type() == ParamType::Int ? "integer" : "number";
      if (p.minimum()) s["minimum"] = *p.minimum();
      if (p.maximum()) s["maximum"] = *p.maximum();
      if (p.step() > 0) s["multipleOf"] = p.step();
      break;
    case ParamType::Bool:
      s["type"] = "boolean";
      break;
    case ParamType::Date:
      s = {{"type", "string"}, {"format", "date"}};
      break;
    case ParamType::List: {
      json item = {{"type", "string"}, {"maxLength", p.length_limit()}};
      if (!p.allowed().empty()) item["enum"] = p.accepted_words();
      s = {{"type", "array"}, {"items", item}};
      break;
    }
  }
  if (!p.pattern_source().empty()) {
    // params.cpp matches the whole value (each item of a List); JSON Schema patterns are not
    // anchored.
    json& target = p.type() == ParamType::List ? s["items"] : s;
    target["pattern"] = "^(?:" + p.pattern_source() + ")$";
    target["description"] = p.pattern_expected();
  }
  if (p.fallback()) s["default"] = *p.fallback();
  if (!p.value_aliases().empty()) {
    // The alias words are in the enumeration; say which value each stands for.
    std::string words = "aliases:";
    for (const auto& [word, value] : p.value_aliases()) words += " " + word + " = " + value + ";";
    words.pop_back();
    json& target = p.type() == ParamType::List ? s["items"] : s;
    const std::string before = target.value("description", "");
    target["description"] = before.empty() ? words : before + "; " + words;
  }
  if (!p.unserved_values().empty()) {
    std::string words = "refused with a 400 (" + p.unserved_reason() + "):";
    for (const auto& v : p.unserved_values()) words += " " + v;
    const std::string before = s.value("description", "");
    s["description"] = before.empty() ? words : before + "; " + words;
  }
  return s;
}

/// An answer in the envelope: requestMetadata plus `properties` (object of schemas).
json enveloped(json properties, std::vector<std::string> required = {}) {
  properties["requestMetadata"] = schema_ref("RequestMetadata");
  required.insert(required.begin(), "requestMetadata");
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}};
}

/// The answer of a data endpoint: the envelope around the keys its doc's Response section shows
/// (response_shapes.h), and no other key at the top level or in any object the doc spells out.
json endpoint_response_schema(const extract::RegisteredEndpoint& e) {
  const std::string name = std::string(e.site) + "/" + std::string(e.name) + ".md";
  for (const auto& [file, text] : endpoint_docs::files) {
    if (file != name) continue;
    try {
      json schema = enveloped(response_properties_from_doc(text));
      schema["additionalProperties"] = false;
      return schema;
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(e.doc_path() + ": " + error.what());
    }
  }
  throw std::runtime_error(e.doc_path() + " is not embedded: rerun cmake");
}

/// A component name for an endpoint's answer: "search/serp" → "SearchSerpResponse".
std::string component_name(std::string_view route) {
  std::string out;
  bool upper = true;
  for (char c : route) {
    if (c == '/' || c == '_' || c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out + "Response";
}

json json_response(const std::string& description, json schema) {
  return {{"description", description},
          {"content", {{"application/json", {{"schema", std::move(schema)}}}}}};
}

/// A 200 of a charged route (api/billing.cpp): it says what it cost in X-Credits-Charged.
json charged(json response) {
  response["headers"]["X-Credits-Charged"] = {
      {"description", "The credits this answer cost, charged once it reached the client"},
      {"schema", {{"type", "integer"}, {"minimum", 0}}}};
  return response;
}

json error_ref() {
  return {{"$ref", "#/components/responses/Error"}};
}

/// The error answers a route can give (spec/conventions.md "Errors"), by status.
json with_errors(json responses, std::vector<int> statuses) {
  for (int s : statuses) responses[std::to_string(s)] = error_ref();
  return responses;
}

// Statuses every authenticated route can answer, besides its own.
const std::vector<int> kAuthErrors{401, 429, 500, 503};
// Those of a route that loads a page and is charged.
const std::vector<int> kChargedErrors{400, 401, 402, 404, 429, 500, 502, 503, 504};

json job_request_schema();
json job_input_schema();

/// A job as jobs/job_request.cpp's job_json() and job_details_json() write it (docs/jobs.md): an
/// answer of its own (in the envelope), or an item of the jobs list.
json job_schema(bool enveloped_answer) {
  const json time = {{"type", "string"}, {"format", "date-time"}};
  const json attempt = {{"type", "object"},
                        {"additionalProperties", false},
                        {"required", {"attempt", "at", "outcome", "detail"}},
                        {"properties",
                         {{"attempt", {{"type", "integer"}}},
                          {"at", time},
                          {"outcome", {{"type", "string"}}},
                          {"httpStatus", {{"type", "integer"}}},
                          {"detail", {{"type", "string"}}}}}};
  const json delivery = {{"type", "object"},
                         {"additionalProperties", false},
                         {"required", {"id", "event", "status", "createdAt", "attempts"}},
                         {"properties",
                          {{"id", {{"type", "integer"}}},
                           {"event", {{"type", "string"}}},
                           {"status",
                            {{"type", "string"},
                             {"enum",
                              {store::delivery_status::kPending, store::delivery_status::kDone,
                               store::delivery_status::kFailed}}}},
                           {"createdAt", time},
                           {"attempts", {{"type", "array"}, {"items", attempt}}}}}};
  json properties = {
      {"id", {{"type", "string"}}},
       {"status",
        {{"type", "string"},
         {"enum",
          {store::job_status::kPending, store::job_status::kInProgress,
           store::job_status::kFinished, store::job_status::kStopped,
           store::job_status::kFailed}}}},
       {"creditsSpent", {{"type", "integer"}}},
       {"dataRowsCount", {{"type", "integer"}}},
       {"kind", {{"type", "string"}, {"enum", {"maps", "batch", "crawler"}}}},
       {"input", job_input_schema()},
       // Batches with ignoreInvalidURLs: the URLs left out.
       {"invalidUrls", {{"type", "array"}, {"items", {{"type", "string"}}}}},
       {"createdAt", time},
       {"updatedAt", time},
       {"startedAt", time},
       {"finishedAt", time},
       // DELETE /scrapers/jobs/{id}/results: when its rows were deleted.
       {"resultsDeletedAt", time},
       {"reason", {{"type", "string"}}},
       {"stopRequested", {{"type", "boolean"}}},
       // GET /scrapers/jobs/{id} only.
       {"webhookDeliveries", {{"type", "array"}, {"items", delivery}}},
       {"progress",
        {{"anyOf",
          {// maps: keyword × location pairs searched
           {{"type", "object"},
            {"additionalProperties", false},
            {"properties",
             {{"pairsDone", {{"type", "integer"}}}, {"pairsTotal", {{"type", "integer"}}}}},
            {"required", {"pairsDone", "pairsTotal"}}},
           // batch, crawler: pages admitted to the frontier, pages with a row, pages whose row
           // is an error (against the job's budget of failures), robots.txt files and
           // sitemaps read
           {{"type", "object"},
            {"additionalProperties", false},
            {"properties",
             {{"pagesFound", {{"type", "integer"}}},
              {"pagesDone", {{"type", "integer"}}},
              {"pagesFailed", {{"type", "integer"}}},
              {"robotsTxtFetched", {{"type", "integer"}}},
              {"sitemapsFetched", {{"type", "integer"}}}}},
            {"required", {"pagesFound", "pagesDone"}}}}}}}};
  const std::vector<std::string> required{"id",        "kind",      "status",    "creditsSpent",
                                          "dataRowsCount", "input", "createdAt", "updatedAt",
                                          "progress"};
  json schema;
  if (enveloped_answer) {
    schema = enveloped(std::move(properties), required);
  } else {
    schema = {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}};
  }
  schema["additionalProperties"] = false;
  return schema;
}

json extract_rules_schema();

json components() {
  json schemas = {
      {"RequestMetadata",
       {{"type", "object"},
        {"properties",
         {{"id", {{"type", "string"}}},
          {"status", {{"type", "string"}, {"enum", {"ok", "error"}}}},
          {"url", {{"type", "string"}}}}},
        {"required", {"id", "status"}}}},
      {"Error", enveloped({{"error",
                            {{"type", "object"},
                             {"properties",
                              {{"code",
                                {{"type", "string"},
                                 {"enum",
                                  {"invalid_parameter",
                                   "missing_parameter",
                                   "conflicting_parameters",
                                   "invalid_json",
                                   "missing_api_key",
                                   "invalid_api_key",
                                   "insufficient_credits",
                                   "not_found",
                                   "method_not_allowed",
                                   "payload_too_large",
                                   "session_lost",
                                   "job_not_ended",
                                   "too_many_requests",
                                   "scenario_failed",
                                   "upstream_blocked",
                                   "upstream_error",
                                   "extraction_failed",
                                   "timeout",
                                   "unavailable",
                                   "internal",
                                   "not_implemented",
                                   "answer_too_large",
                                   "storage_quota_exceeded",
                                   "insufficient_storage"}}}},
                               {"message", {{"type", "string"}}},
                               {"parameter", {{"type", "string"}}},
                               {"step", {{"type", "integer"}, {"minimum", 0}}}}},
                             {"required", {"code", "message"}}}}},
                          {"error"})},
      {"ExtractRules", extract_rules_schema()},
      {"Job", job_schema(false)},
      {"JobAnswer", job_schema(true)},
  };
  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    schemas[component_name(e.endpoint->route())] = endpoint_response_schema(e);
  }
  return {
      {"securitySchemes",
       {{"apiKey", {{"type", "apiKey"}, {"in", "header"}, {"name", "x-api-key"}}}}},
      {"schemas", schemas},
      {"responses",
       {{"Error",
         json_response("An error (spec/conventions.md \"Errors\"); `parameter` names the one at "
                       "fault of a 400",
                       schema_ref("Error"))}}}};
}

/// Headers a caller has sent on its behalf (core/http_header.h): POST /scrape/web's `headers`
/// and a webhook's. A value's bound is in bytes; maxLength counts characters, the same for the
/// ASCII that header values are.
json custom_headers_schema() {
  return {{"type", "object"},
          {"maxProperties", http_header::kMaxCustomHeaders},
          {"additionalProperties",
           {{"type", "string"}, {"maxLength", http_header::kMaxCustomHeaderValue}}}};
}

/// An array of 1..1000-character strings, at most `max`.
json selectors(std::size_t max) {
  return {{"type", "array"},
          {"maxItems", max},
          {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 1000}}}};
}

/// One jsScenario step: an object with exactly one of the kinds (extract/scenario/scenario.h).
json scenario_step_schema() {
  const json selector = {{"type", "string"}, {"minLength", 1}, {"maxLength", 1000}};
  const json px = {{"type", "integer"}, {"minimum", -1000000}, {"maximum", 1000000}};
  const json kinds = {
      {"click", selector},
      {"wait", {{"type", "integer"}, {"minimum", 0}, {"maximum", scenario::kMaxWaits.count()}}},
      {"waitFor", selector},
      {"waitForAndClick", selector},
      {"scrollX", px},
      {"scrollY", px},
      {"fill", {{"type", "array"}, {"minItems", 2}, {"maxItems", 2}, {"items", {{"type", "string"}}}}},
      {"press", {{"type", "string"}, {"minLength", 1}, {"maxLength", 32}}},
      {"evaluate", {{"type", "string"}, {"minLength", 1}, {"maxLength", scenario::kMaxScript}}},
      {"infiniteScroll",
       {{"type", "object"},
        {"additionalProperties", false},
        {"properties",
         {{"maxCount", {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}}},
          {"delay", {{"type", "integer"}, {"minimum", 0}, {"maximum", 10000}}},
          {"endClick", selector}}}}}};
  json one_of = json::array();
  for (const auto& [name, schema] : kinds.items()) {
    one_of.push_back({{"type", "object"},
                      {"additionalProperties", false},
                      {"required", {name}},
                      {"properties", {{name, schema}}}});
  }
  return {{"oneOf", one_of}};
}

/// extractRules: field name → a selector string or a rule object, nested rules by reference.
json extract_rules_schema() {
  json rule = {{"type", "object"},
               {"additionalProperties", false},
               {"required", {"selector"}},
               {"properties",
                {{"selector", {{"type", "string"}, {"minLength", 1}, {"maxLength", rules::kMaxSelector}}},
                 {"type", {{"type", "string"}, {"enum", {"item", "list"}}}},
                 {"output",
                  {{"oneOf",
                    {{{"type", "string"}, {"pattern", "^(text|html|table_json|table_array|@[A-Za-z0-9_:.-]+)$"}},
                     {{"$ref", "#/components/schemas/ExtractRules"}}}}}},
                 {"clean", {{"type", "boolean"}}}}}};
  return {{"type", "object"},
          {"minProperties", 1},
          {"maxProperties", rules::kMaxRules},
          {"additionalProperties", {{"oneOf", {{{"type", "string"}, {"minLength", 1}}, rule}}}}};
}

// The body of POST /scrape/web, as extract/web/request.cpp parses it. That parser checks each
// field in code rather than from a declaration, so its fields are described here, once.
json web_request_schema() {
  const auto max_ms = web::kMaxTimeout.count();
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"url"}},
      {"properties",
       {{"url", {{"type", "string"}, {"maxLength", proxies::kMaxUrlLength}}},
        {"outputFormat",
         {{"type", "array"},
          {"items", {{"type", "string"}, {"enum", {"html", "text", "markdown", "json"}}}}}},
        {"screenshot", {{"type", "boolean"}}},
        {"screenshotFullPage", {{"type", "boolean"}}},
        {"screenshotFormat", {{"type", "string"}, {"enum", {"png", "jpeg", "webp"}}}},
        {"screenshotQuality", {{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}},
        {"extractLinks", {{"type", "boolean"}}},
        {"extractEmails", {{"type", "boolean"}}},
        {"proxyType", {{"type", "string"}, {"enum", {"residential", "datacenter"}}}},
        {"proxyCountry", {{"type", "string"}}},
        {"wait", {{"type", "integer"}, {"minimum", 0}, {"maximum", max_ms}}},
        {"waitFor", {{"type", "string"}, {"minLength", 1}, {"maxLength", 1000}}},
        {"timeout", {{"type", "integer"}, {"minimum", 1000}, {"maximum", max_ms}}},
        {"headers", custom_headers_schema()},
        {"blockResources", {{"type", "boolean"}}},
        {"blockAds", {{"type", "boolean"}}},
        {"viewport",
         {{"type", "object"},
          {"additionalProperties", false},
          {"properties",
           {{"width", {{"type", "integer"}, {"minimum", 100}, {"maximum", 3840}}},
            {"height", {{"type", "integer"}, {"minimum", 100}, {"maximum", 2160}}}}}}},
        // conventions.md "Interactions, rules, no browser, main content".
        {"jsRendering", {{"type", "boolean"}}},
        {"jsScenario", {{"type", "array"}, {"maxItems", scenario::kMaxSteps}, {"items", scenario_step_schema()}}},
        {"jsScenarioStrict", {{"type", "boolean"}}},
        {"extractRules", {{"$ref", "#/components/schemas/ExtractRules"}}},
        {"onlyMainContent", {{"type", "boolean"}}},
        {"includeOnlyTags", selectors(web::kMaxTagSelectors)},
        {"excludeTags", selectors(web::kMaxTagSelectors)},
        {"removeBase64Images", {{"type", "boolean"}}},
        {"blockUrls", selectors(web::kMaxBlockUrls)},
        // docs/sessions.md.
        {"sessionId",
         {{"type", "string"},
          {"pattern", "^[A-Za-z0-9_-]{1,64}$"},
          {"description", "Run in the caller's browser session of this name (opened by its "
                          "first request): its cookies, storage and exit address are kept"}}},
        {"sessionTtl",
         {{"type", "integer"},
          {"minimum", 1},
          {"maximum", extract::kMaxSessionTtl.count()},
          {"description", "Seconds without a request after which the session ends (default "
                          "300); needs sessionId"}}},
        {"sessionQueue",
         {{"type", "integer"},
          {"minimum", 0},
          {"maximum", extract::kMaxSessionQueue},
          {"description", "Requests that may wait for the session's tab while another uses it "
                          "(default 4); one more is a 429. Needs sessionId"}}}}}};
}

/// What POST /scrape/web and a batch take that a crawl does not: a session serves one page at a
/// time on one node (docs/sessions.md "Batches").
void drop_session_fields(json& schema) {
  for (const char* field : {"sessionId", "sessionTtl", "sessionQueue"})
    schema["properties"].erase(field);
}

/// The answer of POST /scrape/web (docs/endpoints/web.md "Response"): no other key.
json web_response_schema() {
  const json strings = {{"type", "array"}, {"items", {{"type", "string"}}}};
  const json map = {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}};
  json schema = enveloped(
      {{"statusCode", {{"type", "integer"}}},
       {"headers", map},
       {"content", {{"type", "string"}}},
       {"text", {{"type", "string"}}},
       {"markdown", {{"type", "string"}}},
       // docs/content.md: the page's metadata.
       {"json",
        {{"type", "object"},
         {"additionalProperties", false},
         {"properties",
          {{"title", {{"type", "string"}}},
           {"description", {{"type", "string"}}},
           {"language", {{"type", "string"}}},
           {"canonicalUrl", {{"type", "string"}}},
           {"meta", {{"type", "object"}}},
           {"openGraph", {{"type", "object"}}},
           {"twitter", {{"type", "object"}}},
           {"jsonLd", {{"type", "array"}}}}}}},
       {"extractedLinks", strings},
       {"extractedEmails", strings},
       {"screenshot", {{"type", "string"}}},
       // The names of the parts cut at their size limit.
       {"truncated", strings},
       // extractRules' answers: whatever the rules select (strings, arrays, objects, null).
       {"extractedData", {{"type", "object"}}},
       {"jsScenarioReport",
        {{"type", "array"},
         {"items",
          {{"type", "object"},
           {"additionalProperties", false},
           {"required", {"step", "kind", "ok", "ms"}},
           {"properties",
            {{"step", {{"type", "integer"}, {"minimum", 0}}},
             {"kind", {{"type", "string"}}},
             {"ok", {{"type", "boolean"}}},
             {"ms", {{"type", "integer"}, {"minimum", 0}}},
             {"error", {{"type", "string"}}},
             {"result", {{"type", "object"}}}}}}}}},
       // One JSON value per evaluate step, in step order (null for a failed one).
       {"evaluateResults", {{"type", "array"}}}});
  schema["additionalProperties"] = false;
  return schema;
}

// The body of POST /scrapers/maps/jobs, as jobs/job_request.cpp parses it (described here once,
// as for /scrape/web).
json job_request_schema() {
  json strings = {{"type", "array"}, {"items", {{"type", "string"}}}, {"minItems", 1}};
  return {{"type", "object"},
          {"additionalProperties", false},
          {"required", {"keywords", "locations"}},
          {"properties",
           {{"keywords", strings},
            {"locations", strings},
            {"extractEmails", {{"type", "boolean"}}},
            {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", jobs::kMaxLimitPerPair}}},
            {"webhook",
             {{"type", "object"},
              {"additionalProperties", false},
              {"required", {"url"}},
              {"properties",
               {{"url", {{"type", "string"}, {"maxLength", proxies::kMaxUrlLength}}},
                {"events", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                {"headers", custom_headers_schema()}}}}}}}};
}

/// The webhook object every job body takes.
json webhook_schema() {
  return job_request_schema()["properties"]["webhook"];
}

/// The body of POST /scrape/batch/web (`stored`: as the job's input shows it, defaults written
/// in): /scrape/web's fields but `url`, with the batch's own (jobs/page_job_request.h).
json batch_request_schema(bool stored) {
  json schema = web_request_schema();
  schema["properties"].erase("url");
  schema["properties"]["sessionId"]["description"] =
      "Run every row in the caller's browser session of this name, one after another, on the "
      "node that accepted the batch; the first row opens it if it is not open, a later row that "
      "finds it gone fails with session_lost (docs/sessions.md \"Batches\")";
  schema["properties"]["urls"] = {{"type", "array"},
                                  {"items", {{"type", "string"}}},
                                  {"minItems", 1},
                                  {"maxItems", jobs::kMaxBatchUrls}};
  schema["properties"]["ignoreInvalidURLs"] = {{"type", "boolean"}};
  schema["properties"]["webhook"] = webhook_schema();
  if (stored) {
    schema["properties"]["invalidUrls"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
    schema["required"] = {"urls", "invalidUrls"};
  } else {
    schema["required"] = {"urls"};
  }
  return schema;
}

/// The body of POST /scrapers/crawler/jobs (`stored`: as the job's input shows it).
json crawler_request_schema(bool stored) {
  json schema = web_request_schema();
  schema["properties"].erase("url");
  drop_session_fields(schema);
  const json patterns = {{"type", "array"},
                         {"items",
                          {{"type", "string"},
                           {"minLength", 1},
                           {"maxLength", jobs::kMaxPathPatternLength},
                           {"description", "An RE2 regular expression (no lookaround or "
                                           "backreferences), searched in the path"}}},
                         {"maxItems", jobs::kMaxPathPatterns}};
  schema["properties"].update({
      {"urls",
       {{"type", "array"},
        {"items", {{"type", "string"}}},
        {"minItems", 1},
        {"maxItems", jobs::kMaxStartUrls}}},
      {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", jobs::kMaxCrawlPages}}},
      {"maxDepth", {{"type", "integer"}, {"minimum", 0}, {"maximum", 1000}}},
      {"includePaths", patterns},
      {"excludePaths", patterns},
      {"allowSubdomains", {{"type", "boolean"}}},
      {"allowExternalLinks", {{"type", "boolean"}}},
      {"ignoreRobotsTxt", {{"type", "boolean"}}},
      {"sitemap", {{"type", "string"}, {"enum", {"include", "skip", "only"}}}},
      {"delayMs", {{"type", "integer"}, {"minimum", 0}, {"maximum", jobs::kMaxDelayMs}}},
      {"maxConcurrency",
       {{"type", "integer"}, {"minimum", 1}, {"maximum", jobs::kMaxHostConcurrency}}},
      {"webhook", webhook_schema()}});
  schema["required"] = stored ? json{"urls", "limit", "sitemap"} : json{"urls"};
  return schema;
}

/// A job's `input`: the body of its kind, as stored.
json job_input_schema() {
  return {{"anyOf", {job_request_schema(), batch_request_schema(true), crawler_request_schema(true)}}};
}

/// One row of a job's results (docs/jobs.md "Rows"). Maps: the CSV columns, and the feature id
/// when the place has one. Batch and crawler: the page's place in the job, then /scrape/web's
/// answer (whatever fields it has) or the page's error.
json job_row_schema() {
  json properties = json::object();
  for (const char* field : jobs::kRowFields) properties[field] = json::object();
  properties["featureId"] = {{"type", "string"}};
  // The fields a row over max_row_bytes had cut (store/row_size.h).
  properties["truncated"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
  const json maps = {{"type", "object"}, {"additionalProperties", false}, {"properties", properties}};
  const json page = {
      {"type", "object"},
      {"required", {"url"}},
      {"properties",
       {{"url", {{"type", "string"}}},
        {"depth", {{"type", "integer"}}},
        {"parentUrl", {{"type", {"string", "null"}}}},
        {"statusCode", {{"type", "integer"}}},
        {"error",
         {{"type", "object"},
          {"additionalProperties", false},
          {"required", {"code", "message"}},
          {"properties", {{"code", {{"type", "string"}}}, {"message", {{"type", "string"}}}}}}}}}};
  return {{"anyOf", {maps, page}}};
}

json job_id_parameter() {
  return {{"name", "id"}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}};
}

json operation(std::string id, std::string summary, json responses, bool authenticated = true) {
  json op = {{"operationId", std::move(id)},
             {"summary", std::move(summary)},
             {"responses", std::move(responses)}};
  op["security"] = authenticated ? json::array({{{"apiKey", json::array()}}}) : json::array();
  return op;
}

}  // namespace

json openapi_query_parameters(const extract::Parameters& params) {
  json out = json::array();
  for (const extract::Param& p : params.params()) {
    const bool list = p.type() == extract::ParamType::List;
    json param = {{"name", list ? p.name() + "[]" : p.name()},
                  {"in", "query"},
                  {"required", p.is_required()},
                  {"schema", param_schema(p)}};
    if (list) {
      param["style"] = "form";
      param["explode"] = true;
    }
    out.push_back(std::move(param));
  }
  return out;
}

json openapi_document() {
  json paths = json::object();

  // `storage`: the store's disk (docs/jobs.md "Sizes"); its bytes only with a valid key.
  const json health_schema = enveloped({{"status", {{"type", "string"}}},
                                        {"pool", {{"type", "object"}}},
                                        {"storage",
                                         {{"type", "object"},
                                          {"additionalProperties", false},
                                          {"required", {"low"}},
                                          {"properties",
                                           {{"low", {{"type", "boolean"}}},
                                            {"freeBytes", {{"type", {"integer", "null"}}}},
                                            {"minFreeBytes", {{"type", "integer"}}}}}}}},
                                       {"status", "pool"});
  paths["/health"]["get"] =
      operation("health", "Whether the service is up, and its browser pool",
                with_errors({{"200", json_response("Up", health_schema)},
                             {"503", json_response("Starting or shutting down", health_schema)}},
                            {401}),
                false);
  paths["/metrics"]["get"] = operation(
      "metrics", "Prometheus metrics",
      {{"200",
        {{"description", "Prometheus text exposition"},
         {"content", {{"text/plain", {{"schema", {{"type", "string"}}}}}}}}}},
      false);
  paths["/openapi.json"]["get"] = operation(
      "openapi", "This document",
      {{"200", json_response("The OpenAPI document", {{"type", "object"}})}}, false);
  // The web console (api/routes/console.cpp): static files, no key.
  const auto console_file = [](std::string id, std::string summary, std::vector<std::string> path) {
    json op = operation(std::move(id), std::move(summary),
                        {{"200",
                          {{"description", "The file (HTML, CSS, JavaScript or text)"},
                           {"content",
                            {{"text/html", {{"schema", {{"type", "string"}}}}},
                             {"text/css", {{"schema", {{"type", "string"}}}}},
                             {"text/javascript", {{"schema", {{"type", "string"}}}}},
                             {"text/plain", {{"schema", {{"type", "string"}}}}}}}}},
                         {"404", error_ref()}},
                        false);
    for (std::string& name : path) {
      op["parameters"].push_back({{"name", std::move(name)},
                                  {"in", "path"},
                                  {"required", true},
                                  {"schema", {{"type", "string"}}}});
    }
    return op;
  };
  paths["/console"]["get"] = console_file("console", "The web console (docs/console.md)", {});
  paths["/console/{file}"]["get"] =
      console_file("consoleFile", "A file of the web console", {"file"});
  paths["/console/{folder}/{file}"]["get"] =
      console_file("consoleFolderFile", "A file of the web console", {"folder", "file"});
  const json account_answers = with_errors(
      {{"200",
        json_response("The account", enveloped({{"account", {{"type", "object"}}},
                                                {"balance", {{"type", "integer"}}},
                                                {"allowance", {{"type", "integer"}}},
                                                {"periodStart", {{"type", "string"}}},
                                                {"periodEnd", {{"type", "string"}}},
                                                {"concurrencyLimit", {{"type", "integer"}}},
                                                {"usage", {{"type", "object"}}}},
                                               {"account", "balance", "allowance", "periodStart",
                                                "periodEnd", "concurrencyLimit", "usage"}))}},
      kAuthErrors);
  paths["/account"]["get"] =
      operation("account", "The caller's balance, allowance, period and usage", account_answers);
  // Where the hosted service's clients ask for the same (their credential check calls /user/me).
  paths["/user/me"]["get"] =
      operation("user_me", "The account's answer, at the hosted service's path", account_answers);
  paths["/user/me/usage"]["get"] = operation(
      "user_me_usage", "The account's answer, at the hosted service's path", account_answers);

  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    const std::string route(e.endpoint->route());
    json op = operation(std::string(e.site) + "_" + std::string(e.name), "GET " + e.endpoint->path(),
                        with_errors({{"200", charged(json_response(
                                                 "The page's data",
                                                 schema_ref(component_name(route))))}},
                                    kChargedErrors));
    op["parameters"] = openapi_query_parameters(e.endpoint->parameters());
    // The site path the hosted service's clients send: the same endpoint, cost and answer.
    json alias = op;
    alias["operationId"] = std::string(e.site) + "_" + std::string(e.name) + "_site_path";
    alias["summary"] = "GET " + e.site_path() + ": the same endpoint as GET " + e.endpoint->path();
    paths[e.endpoint->path()]["get"] = std::move(op);
    if (e.site_path() != e.endpoint->path()) paths[e.site_path()]["get"] = std::move(alias);
  }

  // The hosted service's client operations no real page of could be found: always 501.
  for (const NotImplementedOperation& op : hosted_client_operations_not_implemented()) {
    std::string id = std::string(op.path).substr(std::string("/scrape/").size());
    for (char& c : id) c = (c == '/' || c == '-') ? '_' : c;
    paths[op.path]["get"] = operation(id + "_not_implemented", not_implemented_message(op),
                                      with_errors(json::object(), {501}), false);
  }

  // docs/sessions.md: the session may be named in a header, which a load balancer can route on.
  const json session_header = {
      {"name", "X-Session-Id"},
      {"in", "header"},
      {"required", false},
      {"description", "The sessionId, where a load balancer can read it; a body naming another "
                      "session is a 400 (conflicting_parameters)"},
      {"schema", {{"type", "string"}, {"pattern", "^[A-Za-z0-9_-]{1,64}$"}}}};
  json web =
      operation("web", "Load any page and return its content",
                with_errors({{"200", charged(json_response("The page", web_response_schema()))}},
                            {400, 401, 402, 404, 409, 413, 422, 429, 500, 502, 503, 504}));
  web["requestBody"] = {{"required", true},
                        {"content", {{"application/json", {{"schema", web_request_schema()}}}}}};
  web["parameters"] = json::array({session_header});
  // The hosted service's clients send the same fields as query parameters of a GET (arrays as
  // `outputFormat[0]=html`, objects as their JSON text, booleans as true/false).
  json web_get = web;
  web_get.erase("requestBody");
  web_get["operationId"] = "web_query";
  web_get["summary"] = "The same fetch, with the body's fields as query parameters";
  web_get["parameters"] = {
      {{"name", "url"}, {"in", "query"}, {"required", true}, {"schema", {{"type", "string"}}}},
      {{"name", "fields"},
       {"in", "query"},
       {"required", false},
       {"description", "every other field of the POST body, by its name"},
       {"style", "form"},
       {"explode", true},
       {"schema", {{"type", "object"}}}},
      session_header};
  paths["/scrape/web"]["post"] = std::move(web);
  paths["/scrape/web"]["get"] = std::move(web_get);

  // docs/sessions.md: the caller's browser sessions.
  const json time = {{"type", "string"}, {"format", "date-time"}};
  const json session = {{"type", "object"},
                        {"additionalProperties", false},
                        {"required", {"id", "created", "lastUsed", "expires", "requests"}},
                        {"properties",
                         {{"id", {{"type", "string"}}},
                          {"created", time},
                          {"lastUsed", time},
                          {"expires", time},
                          {"requests", {{"type", "integer"}, {"minimum", 0}}},
                          {"proxyCountry", {{"type", {"string", "null"}}}}}}};
  paths["/scrape/sessions"]["get"] = operation(
      "listSessions", "The caller's open browser sessions, on every node",
      with_errors({{"200", json_response("The sessions",
                                         enveloped({{"sessions", {{"type", "array"}, {"items", session}}}},
                                                   {"sessions"}))}},
                  kAuthErrors));
  json end_session = operation(
      "endSession", "End one of the caller's browser sessions",
      with_errors({{"200", json_response("Ended",
                                         enveloped({{"id", {{"type", "string"}}},
                                                    {"ended", {{"type", "boolean"}}}},
                                                   {"id", "ended"}))}},
                  {401, 404, 409, 429, 500, 503}));
  paths["/scrape/sessions/{id}"] = {
      {"parameters",
       {{{"name", "id"}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}}}},
      {"delete", end_session}};

  json shot = operation(
      "screenshot", "A screenshot, by the signed URL /scrape/web answered",
      {{"200",
        {{"description", "The image"},
         {"content",
          {{"image/png", {{"schema", {{"type", "string"}, {"contentMediaType", "image/png"}}}}},
           {"image/jpeg", {{"schema", {{"type", "string"}, {"contentMediaType", "image/jpeg"}}}}},
           {"image/webp",
            {{"schema", {{"type", "string"}, {"contentMediaType", "image/webp"}}}}}}}}},
       {"404", error_ref()}},
      false);
  shot["parameters"] = {
      {{"name", "file"}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}},
      {{"name", "expires"}, {"in", "query"}, {"required", true}, {"schema", {{"type", "string"}}}},
      {{"name", "sig"}, {"in", "query"}, {"required", true}, {"schema", {{"type", "string"}}}}};
  paths["/screenshots/{file}"]["get"] = std::move(shot);

  json create =
      operation("createMapsJob", "Start a maps scraper job",
                with_errors({{"201", json_response("The job, queued", schema_ref("JobAnswer"))}},
                            {400, 413, 401, 429, 507}));
  create["requestBody"] = {{"required", true},
                           {"content", {{"application/json", {{"schema", job_request_schema()}}}}}};
  paths["/scrapers/maps/jobs"]["post"] = std::move(create);

  // 409 session_lost: the batch's session is held by another node; 503: this node runs no jobs.
  json batch =
      operation("createBatch", "Fetch up to 10,000 pages as a job, each as POST /scrape/web would",
                with_errors({{"201", json_response("The job, queued", schema_ref("JobAnswer"))}},
                            {400, 413, 401, 409, 429, 503, 507}));
  batch["requestBody"] = {
      {"required", true},
      {"content", {{"application/json", {{"schema", batch_request_schema(false)}}}}}};
  batch["parameters"] = json::array({session_header});
  paths["/scrape/batch/web"]["post"] = std::move(batch);

  json crawl =
      operation("createCrawl", "Crawl a site from start pages, as a job",
                with_errors({{"201", json_response("The job, queued", schema_ref("JobAnswer"))}},
                            {400, 413, 401, 429, 507}));
  crawl["requestBody"] = {
      {"required", true},
      {"content", {{"application/json", {{"schema", crawler_request_schema(false)}}}}}};
  paths["/scrapers/crawler/jobs"]["post"] = std::move(crawl);

  json list = operation(
      "listJobs", "The caller's jobs",
      with_errors(
          {{"200", json_response("A page of jobs",
                                 enveloped({{"jobs", {{"type", "array"}, {"items", schema_ref("Job")}}},
                                            {"page", {{"type", "integer"}}},
                                            {"limit", {{"type", "integer"}}},
                                            {"total", {{"type", "integer"}}}},
                                           {"jobs", "page", "limit", "total"}))}},
          {400, 401, 429}));
  list["parameters"] = openapi_query_parameters(job_list_params());
  paths["/scrapers/jobs"]["get"] = std::move(list);

  json get = operation("getJob", "A job with its webhook deliveries",
                       with_errors({{"200", json_response("The job", schema_ref("JobAnswer"))}}, {401, 404}));
  json stop = operation("stopJob", "Stop a job",
                        with_errors({{"200", json_response("The job", schema_ref("JobAnswer"))}}, {401, 404}));
  paths["/scrapers/jobs/{id}"] = {
      {"parameters", {job_id_parameter()}}, {"get", get}, {"delete", stop}};

  json results = operation(
      "jobResults",
      "A page of a job's rows as JSON, or the whole job as CSV or NDJSON, sent row by row "
      "(chunked); 429 when the account or the node sends as many exports as it may",
      with_errors({{"200",
                    {{"description", "The rows"},
                     {"content",
                      {{"application/json",
                        {{"schema", enveloped({{"jobId", {{"type", "string"}}},
                                               {"status", {{"type", "string"}}},
                                               {"page", {{"type", "integer"}}},
                                               {"limit", {{"type", "integer"}}},
                                               {"total", {{"type", "integer"}}},
                                               {"data", {{"type", "array"}, {"items", job_row_schema()}}}},
                                              {"jobId", "status", "page", "limit", "total",
                                               "data"})}}},
                       {"text/csv", {{"schema", {{"type", "string"}}}}},
                       {"application/x-ndjson", {{"schema", {{"type", "string"}}}}}}}}}},
                  {400, 401, 404, 429, 502}));
  results["parameters"] = json::array({job_id_parameter()});
  for (json& p : openapi_query_parameters(job_results_params())) results["parameters"].push_back(p);
  paths["/scrapers/jobs/{id}/results"]["get"] = std::move(results);
  json delete_results = operation(
      "deleteJobResults",
      "Delete an ended job's rows, freeing the account's stored bytes (its quota); the job keeps "
      "its counts and charges and says when (`resultsDeletedAt`); 409 job_not_ended while it runs",
      with_errors({{"200", json_response("The job", schema_ref("JobAnswer"))}}, {401, 404, 409}));
  delete_results["parameters"] = json::array({job_id_parameter()});
  paths["/scrapers/jobs/{id}/results"]["delete"] = std::move(delete_results);

  return {{"openapi", "3.1.0"},
          {"info",
           {{"title", "gleaner"},
            {"version", "0.1.0"},
            {"description", "Self-hosted web-data extraction. Generated from the service's "
                            "declarations (api/openapi.cpp)."}}},
          {"servers", {{{"url", "/"}}}},
          {"security", {{{"apiKey", json::array()}}}},
          {"paths", paths},
          {"components", components()}};
}

}  // namespace gleaner::api
