// Reads a Google Flights results page (`/travel/flights/search?tfs=...`) from the data the page
// draws its results from: the `AF_initDataCallback` blob `ds:1` (kit.afInitData). In it, [2][0]
// holds the "Best departing flights" and [3][0] the "Other departing flights", each an entry
// [itinerary, [[null, price], price token], ...]; [5] is the price insight and [1] the places
// searched from and to. The arrays go to the C++ (flights.cpp), which knows their positions.
// Nothing here depends on a class name.
(args, kit) => {
  const blobs = kit.afInitData();
  const results = blobs['ds:1'];
  const list = (v) => (Array.isArray(v) && Array.isArray(v[0]) ? v[0] : []);
  if (!Array.isArray(results)) return { url: location.href, lang: document.documentElement.lang };
  return {
    url: location.href,
    lang: document.documentElement.lang,
    best: list(results[2]),
    other: list(results[3]),
    insights: Array.isArray(results[5]) ? results[5] : null,
    places: Array.isArray(results[1]) ? results[1] : null,
  };
}
