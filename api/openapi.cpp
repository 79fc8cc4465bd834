#include "api/openapi.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "api/response_shapes.h"
#include "api/routes/routes.h"
#include "gleaner_api_embedded.h"
#include "extract/registry.h"
#include "extract/web/request.h"
#include "jobs/job_request.h"
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
          for (const auto& v : p.allowed()) words += " " + v;
        }
        s["description"] = words;
      } else if (!p.allowed().empty()) {
        s["enum"] = p.allowed();
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
      if (!p.allowed().empty()) item["enum"] = p.allowed();
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
       {"input", job_request_schema()},
       {"createdAt", time},
       {"updatedAt", time},
       {"startedAt", time},
       {"finishedAt", time},
       {"reason", {{"type", "string"}}},
       {"stopRequested", {{"type", "boolean"}}},
       // GET /scrapers/jobs/{id} only.
       {"webhookDeliveries", {{"type", "array"}, {"items", delivery}}},
       {"progress",
        {{"type", "object"},
         {"additionalProperties", false},
         {"properties",
          {{"pairsDone", {{"type", "integer"}}}, {"pairsTotal", {{"type", "integer"}}}}},
         {"required", {"pairsDone", "pairsTotal"}}}}};
  const std::vector<std::string> required{"id",        "status",    "creditsSpent", "dataRowsCount",
                                          "input",     "createdAt", "updatedAt",    "progress"};
  json schema;
  if (enveloped_answer) {
    schema = enveloped(std::move(properties), required);
  } else {
    schema = {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}};
  }
  schema["additionalProperties"] = false;
  return schema;
}

json components() {
  json schemas = {
      {"RequestMetadata",
       {{"type", "object"},
        {"properties",
         {{"id", {{"type", "string"}}},
          {"status", {{"type", "string"}, {"enum", {"ok", "error"}}}},
          {"url", {{"type", "string"}}}}},
        {"required", {"id", "status"}}}},
      {"Error",
       enveloped(
           {{"error",
             {{"type", "object"},
              {"properties",
               {{"code",
                 {{"type", "string"},
                  {"enum",
                   {"invalid_parameter", "missing_parameter", "conflicting_parameters",
                    "invalid_json", "missing_api_key", "invalid_api_key", "insufficient_credits",
                    "not_found", "method_not_allowed", "payload_too_large", "too_many_requests",
                    "upstream_blocked", "upstream_error", "extraction_failed", "timeout",
                    "unavailable", "internal"}}}},
                {"message", {{"type", "string"}}},
                {"parameter", {{"type", "string"}}}}},
              {"required", {"code", "message"}}}}},
           {"error"})},
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

// The body of POST /scrape/web, as extract/web/request.cpp parses it. That parser checks each
// field in code rather than from a declaration, so its fields are described here, once.
json web_request_schema() {
  const auto max_ms = web::kMaxTimeout.count();
  return {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"url"}},
      {"properties",
       {{"url", {{"type", "string"}}},
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
        {"headers",
         {{"type", "object"},
          {"maxProperties", 50},
          {"additionalProperties", {{"type", "string"}}}}},
        {"blockResources", {{"type", "boolean"}}},
        {"blockAds", {{"type", "boolean"}}},
        {"viewport",
         {{"type", "object"},
          {"additionalProperties", false},
          {"properties",
           {{"width", {{"type", "integer"}, {"minimum", 100}, {"maximum", 3840}}},
            {"height", {{"type", "integer"}, {"minimum", 100}, {"maximum", 2160}}}}}}}}}};
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
       {"truncated", strings}});
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
               {{"url", {{"type", "string"}}},
                {"events", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                {"headers",
                 {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}}}}}}}}};
}

/// One row of a job's results (docs/jobs.md "Rows"): the CSV columns, and the maps feature id
/// when the place has one.
json job_row_schema() {
  json properties = json::object();
  for (const char* field : jobs::kRowFields) properties[field] = json::object();
  properties["featureId"] = {{"type", "string"}};
  return {{"type", "object"}, {"additionalProperties", false}, {"properties", properties}};
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

  paths["/health"]["get"] = operation(
      "health", "Whether the service is up, and its browser pool",
      with_errors({{"200", json_response("Up", enveloped({{"status", {{"type", "string"}}},
                                                          {"pool", {{"type", "object"}}}},
                                                         {"status", "pool"}))},
                   {"503", json_response("Starting or shutting down",
                                         enveloped({{"status", {{"type", "string"}}},
                                                    {"pool", {{"type", "object"}}}},
                                                   {"status", "pool"}))}},
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
  paths["/account"]["get"] = operation(
      "account", "The caller's balance, allowance, period and usage",
      with_errors({{"200", json_response("The account",
                                         enveloped({{"account", {{"type", "object"}}},
                                                    {"balance", {{"type", "integer"}}},
                                                    {"allowance", {{"type", "integer"}}},
                                                    {"periodStart", {{"type", "string"}}},
                                                    {"periodEnd", {{"type", "string"}}},
                                                    {"concurrencyLimit", {{"type", "integer"}}},
                                                    {"usage", {{"type", "object"}}}},
                                                   {"account", "balance", "allowance",
                                                    "periodStart", "periodEnd",
                                                    "concurrencyLimit", "usage"}))}},
                  kAuthErrors));

  for (const extract::RegisteredEndpoint& e : extract::registered_endpoints()) {
    const std::string route(e.endpoint->route());
    json op = operation(std::string(e.site) + "_" + std::string(e.name), "GET " + e.endpoint->path(),
                        with_errors({{"200", json_response("The page's data",
                                                           schema_ref(component_name(route)))}},
                                    kChargedErrors));
    op["parameters"] = openapi_query_parameters(e.endpoint->parameters());
    paths[e.endpoint->path()]["get"] = std::move(op);
  }

  json web = operation("web", "Load any page and return its content",
                       with_errors({{"200", json_response("The page", web_response_schema())}},
                                   {400, 401, 402, 404, 413, 429, 500, 502, 503, 504}));
  web["requestBody"] = {{"required", true},
                        {"content", {{"application/json", {{"schema", web_request_schema()}}}}}};
  paths["/scrape/web"]["post"] = std::move(web);

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

  json create = operation(
      "createMapsJob", "Start a maps scraper job",
      with_errors({{"201", json_response("The job, queued", schema_ref("JobAnswer"))}}, {400, 413, 401, 429}));
  create["requestBody"] = {{"required", true},
                           {"content", {{"application/json", {{"schema", job_request_schema()}}}}}};
  paths["/scrapers/maps/jobs"]["post"] = std::move(create);

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
      "jobResults", "A page of a job's rows, as JSON or CSV",
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
                       {"text/csv", {{"schema", {{"type", "string"}}}}}}}}}},
                  {400, 401, 404}));
  results["parameters"] = json::array({job_id_parameter()});
  for (json& p : openapi_query_parameters(job_results_params())) results["parameters"].push_back(p);
  paths["/scrapers/jobs/{id}/results"]["get"] = std::move(results);

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
