#include "extract/web/outputs.h"

#include "core/http_header.h"

#include "extract/content/emails.h"
#include "extract/content/links.h"
#include "extract/content/markdown.h"
#include "extract/content/metadata.h"
#include "extract/content/tree_text.h"
#include "extract/rules/rules.h"

namespace gleaner::web {

using nlohmann::json;

content::SnapshotParts parts_for(const WebRequest& request) {
  content::SnapshotParts parts;
  parts.html = request.html || request.extract_rules.has_value();
  parts.text = request.text || request.extract_emails;
  parts.tree = request.markdown || (parts.text && request.filters_content());
  parts.links = request.extract_links || request.extract_emails;
  parts.meta = request.json;
  return parts;
}

std::string snapshot_expression(const WebRequest& request, const content::SnapshotParts& parts) {
  json args = content::snapshot_args(parts);
  args["dataImages"] = !request.remove_base64_images;
  const std::string snapshot = "(" + std::string(content::snapshot_script()) + ")";
  if (!request.filters_content() || !parts.tree) return snapshot + "(" + args.dump() + ")";
  const json filter = {{"include", request.include_only_tags},
                       {"exclude", request.exclude_tags},
                       {"main", request.only_main_content}};
  return "(() => {\n  const opts = " + args.dump() + ";\n  const chosen = (" +
         std::string(content::main_content_script()) + ")(" + filter.dump() +
         ");\n  opts.roots = chosen.roots;\n  opts.skip = chosen.skip;\n  opts.revealed = chosen.revealed;\n  return " + snapshot +
         "(opts);\n})()";
}

void put_answer(int status, const std::map<std::string, std::string>& headers, json& body) {
  body["statusCode"] = status;
  json kept = json::object();
  for (const auto& [name, value] : headers) {
    if (!http_header::from_proxy(name)) kept[name] = value;
  }
  body["headers"] = std::move(kept);
}

void fill_outputs(const WebRequest& request, const json& snapshot, bool inner_text,
                  const html::Document* parsed, html::XPathBudget& budget, json& body) {
  const json tree = snapshot.value("tree", json());
  std::string text;
  if (request.text || request.extract_emails) {
    text = inner_text && !request.filters_content() ? snapshot.value("text", std::string())
                                                    : content::tree_text(tree);
  }
  if (request.html) body["content"] = snapshot.value("html", std::string());
  if (request.text) body["text"] = text;
  if (request.markdown) body["markdown"] = content::to_markdown(tree);
  if (request.json) body["json"] = content::page_metadata(snapshot.value("meta", json::object()));
  const json links = snapshot.value("links", json::array());
  if (request.extract_links) body["extractedLinks"] = content::extract_links(links);
  if (request.extract_emails) body["extractedEmails"] = content::extract_emails(text, links);
  if (request.extract_rules) {
    if (parsed) {
      body["extractedData"] = rules::apply_rules(*request.extract_rules, *parsed, budget);
    } else {
      const html::Document doc = html::Document::parse(snapshot.value("html", std::string()));
      body["extractedData"] = rules::apply_rules(*request.extract_rules, doc, budget);
    }
  }
  if (snapshot.contains("truncated")) body["truncated"] = snapshot["truncated"];
}

}  // namespace gleaner::web
