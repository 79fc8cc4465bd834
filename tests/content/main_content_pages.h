#pragma once
// Pages for onlyMainContent, each built so that one rule of the main-content search decides it
// (extract/content/main_content.js on the browser road, extract/plain/main_content.cpp on the
// jsRendering: false road; both must give the same text). Used by tests/rules/plain_test.cpp
// (the plain road, with a control that shows the rule matters) and tests/web/roads_test.cpp (both
// roads over loopback). `kept` and `gone` name what the main content holds and leaves out.
#include <vector>

namespace gleaner::testing {

struct MainContentPage {
  const char* path;  // where tests/web/interaction_pages.cpp serves it
  const char* html;
  std::vector<const char*> kept;
  std::vector<const char*> gone;
};

// Comments hold more text and more commas than the article: text inside blocks named like
// furniture (comments, a footer, related links) credits nobody.
inline const MainContentPage kCommentsOutweighTheArticle{
    "/main/comments",
    R"html(<!doctype html><html><head><title>Harbour</title></head><body>
<div id="header"><a href="/">Coast News</a></div>
<div class="post"><h1>The harbour reopens</h1>
<div class="entry">
<p>The harbour reopened on Monday after three weeks of repairs, and the first ferry left on time.</p>
<p>Engineers said the new wall, built of stone from the quarry above the town, would hold back the winter storms for decades to come.</p>
<p>Fishermen who had moored in the next bay for the whole month brought their boats home in the afternoon.</p>
<p>The mayor thanked the crews who had worked through two weekends, and promised a market on the quay in spring.</p>
<p>Repairs to the lighthouse are planned for next year, when the budget allows for them.</p>
<p>Until then the harbour master asks sailors to keep to the marked channel after dark.</p>
</div></div>
<div id="comments"><h3>Comments</h3>
<div class="comment-body"><p>Well, well, well, I said it, I wrote it, I posted it, and nobody, not the council, not the mayor, not the engineers, listened, until now.</p></div>
<div class="comment-body"><p>Stone, concrete, steel, wood, whatever, as long as it holds, and as long as, in the end, the ferry runs, the boats come home, and we can fish.</p></div>
<div class="comment-body"><p>My grandfather, my father, my uncle, my cousins, all of them, fished here, and all of them, every single one, would have said, finally, at last.</p></div>
<div class="comment-body"><p>Markets, festivals, concerts, sure, fine, lovely, but who, exactly, pays, and when, and how much, and from which budget, please?</p></div>
<div class="comment-body"><p>First, the wall, then, the lighthouse, then, surely, the road, the car park, the bus stop, the school, and, one day, maybe, the hospital.</p></div>
</div>
</body></html>)html",
    {"first ferry left on time", "market on the quay in spring", "when the budget allows"},
    {"nobody, not the council", "my father, my uncle", "Coast News"}};

// The page states its article text (schema.org articleBody in JSON-LD): the block holding it is
// the article, alone; without the statement a block of teasers beside it, which scores as well
// by its names and commas, is taken too.
inline const MainContentPage kArticleBodyStated{
    "/main/stated",
    R"html(<!doctype html><html><head><title>Orchard</title>
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [{"@type": "WebPage"},
{"@type": "NewsArticle", "headline": "An orchard for the village",
 "articleBody": "The village planted forty apple trees on the old football ground this weekend. Each family that asked for one was given a tree to look after for the first three years. The seedlings came from a nursery in the valley that grows old local varieties which had almost disappeared from the shops. Children from the primary school made labels for every tree, with the name of the variety and the family that cares for it. The first apples are expected in four or five years, and the council hopes to hold a harvest festival on the ground once they come."}]}
</script></head><body>
<div class="layout">
<div class="story-text">
<p>The village planted forty apple trees on the old football ground this weekend.</p>
<p>Each family that asked for one was given a tree to look after for the first three years.</p>
<p>The seedlings came from a nursery in the valley that grows old local varieties which had almost disappeared from the shops.</p>
<p>Children from the primary school made labels for every tree, with the name of the variety and the family that cares for it.</p>
<p>The first apples are expected in four or five years, and the council hopes to hold a harvest festival on the ground once they come.</p>
</div>
<div class="content-more">
<p>Elsewhere, in brief, the bakery, the butcher, the post office, and the pharmacy change their opening hours, again, from Monday, for winter.</p>
<p>Also, the choir, the brass band, the drama club, and, for the first time, the chess club, meet in the hall, on Thursdays, at seven.</p>
<p>And, finally, the bus timetable, the bin collection, the library, and the swimming pool, all change, slightly, in December, as usual.</p>
<p>Meanwhile, the parish council, the school governors, the sports club, and the allotment society, all, once again, seek new members.</p>
</div>
</div>
</body></html>)html",
    {"forty apple trees", "made labels for every tree", "harvest festival on the ground"},
    {"the bakery, the butcher", "the chess club", "the allotment society"}};

// A blog post written as divs of spans (no <p>): a div's own text, inline elements included, is
// a paragraph of it.
inline const MainContentPage kParagraphsAsDivs{
    "/main/divs",
    R"html(<!doctype html><html><head><title>Bread</title></head><body>
<div class="top-links"><p><a href="/">Home</a> <a href="/recipes">Recipes</a> <a href="/about">About us and our story so far</a></p></div>
<div class="post-body">
<div><span style="font-size: small">Good bread needs little more than flour, water, salt and time, and most of all time.</span></div>
<div class="separator"><a href="/big.jpg"><img src="/small.jpg" alt=""></a></div>
<div><span>Mix the flour and the water first, and let them rest for half an hour before the salt goes in.</span></div>
<div><span><b>Then knead</b> for ten minutes, until the dough is smooth and springs back when pressed with a finger.</span></div>
<div><span>Let it rise overnight in a cool place, shape it in the morning, and bake it in the hottest oven you have.</span></div>
<div><span>A tray of water on the floor of the oven gives the crust its shine, and a knock on the bottom of the loaf tells when it is done.</span></div>
<div><span>Leave it to cool for an hour before cutting it, however good it smells, or the crumb will be gummy.</span></div>
</div>
<div class="blog-footer"><p>Posted in recipes. Subscribe to our letter for a new recipe every week, free.</p></div>
</body></html>)html",
    {"flour, water, salt and time", "Then knead for ten minutes", "hottest oven you have"},
    {"About us and our story", "Subscribe to our letter"}};

// The article's closing sentence sits beside its body, in a column that also holds a long list of
// links: a paragraph beside the body is kept when it reads as prose.
inline const MainContentPage kParagraphBesideTheBody{
    "/main/beside",
    R"html(<!doctype html><html><head><title>Bridge</title></head><body>
<div class="column">
<div class="text">
<p>The old bridge over the river closed to cars on Friday, after inspectors found cracks, some of them deep, in two of its arches.</p>
<p>Buses will use the ring road for the time being, which adds about ten minutes to the journey into town, and more at rush hour.</p>
<p>Repairs, which the county says will cost less than a new bridge, could start in the summer, and last until the end of the year.</p>
</div>
<p>Walkers and cyclists can still cross.</p>
<ul class="links"><li><a href="/1">Traffic in the county this week</a></li><li><a href="/2">Roadworks on the ring road from Monday</a></li>
<li><a href="/3">Bus timetables for the winter season</a></li><li><a href="/4">All our stories about the old bridge</a></li>
<li><a href="/5">Weather warnings for the weekend</a></li><li><a href="/6">Letters to the editor about transport</a></li>
<li><a href="/7">Parking in the town centre over Christmas</a></li><li><a href="/8">The county budget for next year</a></li>
<li><a href="/9">Cycling routes along the river</a></li><li><a href="/10">Photos of the bridge through the years</a></li></ul>
</div>
</body></html>)html",
    {"cracks, some of them deep", "until the end of the year",
     "Walkers and cyclists can still cross."},
    {"Roadworks on the ring road", "Letters to the editor"}};

inline const std::vector<const MainContentPage*> kMainContentPages = {
    &kCommentsOutweighTheArticle, &kArticleBodyStated, &kParagraphsAsDivs,
    &kParagraphBesideTheBody};

}  // namespace gleaner::testing
