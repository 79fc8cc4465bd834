#pragma once
// Runtime.evaluate in a world of our own: the scripts gleaner runs in pages to read them (the
// page snapshot, the screenshot preparation) see the page's DOM but none of its scripts' globals,
// so built-ins the page replaced are not the ones they use, and the page cannot see them run.
#include <string>

#include "cdp/connection.h"
#include "cdp/error.h"
#include "core/clock.h"

namespace gleaner::cdp {

/// True for the protocol errors Runtime.evaluate answers when the document it ran in (or was to
/// run in) was replaced meanwhile: the caller may try again in the new one.
bool context_went_away(const Error& e);

/// Runtime.evaluate of `expression` (promises awaited, the value returned by value) in a new
/// isolated world (Page.createIsolatedWorld) of frame `frame_id`; an empty `frame_id` is the top
/// frame, read with Page.getFrameTree. Returns Runtime.evaluate's reply as it came (its
/// `exceptionDetails` are the caller's to read). When the document is replaced between the calls
/// (a redirect by script), tries once more in the new one.
Json evaluate_isolated(Session& session, const std::string& expression, Deadline deadline,
                       const std::string& frame_id = {});

}  // namespace gleaner::cdp
