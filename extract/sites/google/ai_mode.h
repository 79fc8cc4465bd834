#pragma once
// GET /scrape/google/ai-mode (hosted.md #11): Google Search in AI Mode (`/search?q=…&udm=50`),
// its answer to the question as {textBlocks, references}. AI Mode writes its answer in the markup
// of the AI Overview of a results page (the `aimc` subtree, its main and sources columns), so the
// results page's reader (serp.js) reads it and shape_ai_answer() shapes it.
#include <nlohmann/json.hpp>

#include "extract/endpoint.h"

namespace gleaner::extract::google {

/// The AI Mode endpoint (one instance, listed in registry.cpp).
const Endpoint& ai_mode_endpoint();

/// Shapes serp.js output read on an AI Mode page: {textBlocks, references}, empty lists when the
/// page shows no answer.
nlohmann::json shape_ai_mode(const nlohmann::json& page);

}  // namespace gleaner::extract::google
