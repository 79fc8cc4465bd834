#pragma once
// The site kit's reader of schema.org JSON-LD, in every form schema.org allows: a property may be
// a value, an object, an array of either, or a reference ({"@id": ...}) to another node of the
// page; numbers may be strings ("4.5", "4,5"). The in-page prelude (prelude.js `kit.jsonLd()`)
// returns the page's nodes with `@graph` and arrays flattened; these functions read them.
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gleaner::extract::schema_org {

/// Whether `node`'s @type is `type` or lists it (schema.org types may be arrays).
bool is_type(const nlohmann::json& node, std::string_view type);

/// The nodes of `nodes` (an array of JSON-LD objects) whose @type is one of `types`, in order.
std::vector<const nlohmann::json*> of_type(const nlohmann::json& nodes,
                                           const std::vector<std::string_view>& types);

/// `value` itself, or the node of `nodes` it references by {"@id"} (itself when not found).
const nlohmann::json& resolve(const nlohmann::json& value, const nlohmann::json& nodes);

/// A property as text: a string, a number, an object's `name` or `@value`, the first of an
/// array. "" when absent.
std::string text(const nlohmann::json& node, std::string_view property);

/// A property as a number: a number, or a string written with a decimal dot or comma ("4,5").
std::optional<double> number(const nlohmann::json& node, std::string_view property);

/// A PostalAddress (or a plain string) as {streetAddress?, addressLocality?, addressRegion?,
/// postalCode?, addressCountry?, full}; `full` joins the parts as the page lists them. null when
/// absent.
nlohmann::json address(const nlohmann::json& value, const nlohmann::json& nodes = {});

/// An AggregateRating as {value, count?, best?, worst?}: `count` from reviewCount, else
/// ratingCount. null when it has no value.
nlohmann::json rating(const nlohmann::json& value, const nlohmann::json& nodes = {});

/// Opening hours as [{day, opens, closes}] (day in English, "Monday"; times "HH:MM"), from the
/// `openingHours` short form ("Mo-Th 11:00-21:30", "Fr,Sa 11:00-23:00", "Mo-Su", a list of
/// them) or `openingHoursSpecification` objects. Empty when neither is there.
nlohmann::json opening_hours(const nlohmann::json& node, const nlohmann::json& nodes = {});

/// Image URLs of an `image` (or `photo`) property: strings, ImageObjects (`url`/`contentUrl`),
/// arrays of them, in order, without repeats.
std::vector<std::string> images(const nlohmann::json& value);

/// {latitude, longitude} of a `geo` GeoCoordinates (numbers or strings); nullopt when absent.
std::optional<std::pair<double, double>> coordinates(const nlohmann::json& geo,
                                                     const nlohmann::json& nodes = {});

/// The reviews a node lists (`review`: Review objects, arrays, references), in order, as
/// [{title?, text, rating?, date? (ISO 8601, read with the kit's date parser), author?}]; the text
/// is `reviewBody`, else `description`. Reviews without text are left out.
nlohmann::json reviews(const nlohmann::json& node, const nlohmann::json& nodes,
                       std::chrono::system_clock::time_point now);

}  // namespace gleaner::extract::schema_org
