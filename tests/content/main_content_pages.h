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

// From here on, cut from real pages (their own markup and text, shortened): the pages the
// benchmarks of bench/main_content/ found misread.

// wired.com (bench/main_content/data/scrapinghub, 2f42ef1d): the body is split into grids of one
// class between full-width ad rows; blocks of the best block's tag and classes near it join it.
inline const MainContentPage kArticleSplitIntoBlocksOfOneKind{
    "/main/split",
    R"html(<!doctype html><html><head><title>The Future of Banking Is … You're Broke | WIRED</title></head><body>
<div class="article main-content"><header><h1 class="content-header__row content-header__hed">The Future of Banking Is … You're Broke</h1></header>
<div class="content-background" data-attribute-verso-pattern="article-body"><div class=""><div class="article__chunks"><div class="grid grid-margins grid-items-2 grid-layout--adrail narrow"><div class="grid--item body body__container article__body grid-layout__content"><p>The latest wave of tech-based financial startups have a new angle on the banking sector: They’ll assume that everyone is out of money, then try to monetize their brokeness.</p><p>These neo-banks have been trying to make money in the usual ways: By taking a cut of credit or debit card transactions, collecting interest on consumer deposits, and making loans. The usual banking stuff.</p><p>Their come-on is that they’re super-convenient, all-digital, mobile alternatives to the big banks. Better yet, they’re focused on their customers’ “financial health,” as one neo-bank CEO told me, and easing the “pain” that people feel around their money.</p></div><div class="grid--item grid-layout__aside"><div class="sticky-box"><div class="sticky-box__primary"><div class="ad ad--rail"><div class="ad__slot ad__slot--rail"></div></div><div class="recirc-most-popular-wrapper viewport-monitor-anchor"></div></div><div class="sticky-box__placeholder"></div></div></div></div><div class="row full-bleed-ad"><div class="ad ad--mid-content"><span class="ad-label">Advertisement</span><div class="ad__slot ad__slot--mid-content"></div></div></div><div class="grid grid-margins grid-items-2 grid-layout--adrail narrow"><div class="grid--item body body__container article__body grid-layout__content"><p>In fact, the idea that the solution to our financial woes can be found in a more convenient, higher-tech, friendlier-named digital bank feels a little like the last story we heard from the tech industry: That the very idea of work could be disrupted by a bunch of apps, too.</p><p>The same business logic—that you’re trapped in a sad, hellish existence dictated by megacorporations, and tech can free you like Neo from the Matrix—underlies the entire gig economy. It’s the basis for another tech veneer, this one layered over people’s inability to find meaningful work for reasonable pay.</p><p>In fact, we can use the evolution of the gig economy as a case study for how the latest wave of banking disruption might play out.</p></div><div class="grid--item grid-layout__aside"><div class="sticky-box"><div class="sticky-box__primary"><div class="ad ad--rail"><div class="ad__slot ad__slot--rail"></div></div></div></div></div></div></div></div></div></div>
</body></html>)html",
    {"assume that everyone is out of money", "easing the “pain” that people feel",
     "friendlier-named digital bank", "a case study for how the latest wave"},
    {"Advertisement"}};

// mactechnews.de (shared/fixtures/main-content, d43f330c): a forum thread whose posts are all
// named "MtnComment"; the content is little but them, so they stay.
inline const MainContentPage kForumThreadNamedComments{
    "/main/thread",
    R"html(<!doctype html><html><head><title>kein App Store mehr über Mobile Daten mit iOS 13 ?</title></head><body>
<aside id="login"><span>Anmelden</span></aside>
<main id="content">
<div class="MtnBreadcrumb" id="SynMtnBreadcrumbNavigation"><span>Forum</span><span>&gt;</span><span>iPhone</span><span>&gt;</span><span>kein App Store mehr &#252;ber Mobile Daten mit iOS 13 ?</span></div>
<h2 class="Title">kein App Store mehr &#252;ber Mobile Daten mit iOS 13 ?</h2>
<div class="MtnComment" id="ContentPlaceHolder1_SynMtnForumCommentFirst"><div class="MtnCommentProfile" id="Comment6702386"><span class="MtnCommentAccountPictureDummy"></span></div><div class="MtnCommentContent"><div class="MtnCommentInformation"><span class="MtnCommentAccountName" title="304 Beiträge, vor 4300 Tagen registriert">macbacchi</span><span class="MtnCommentTime" title="Zeit der Erstellung"><span>28.09.19</span><span>12:44</span></span></div><div class="MtnCommentText">hallo, hat jemand eine idee was ich anders machen könnte? seit dem update auf ios 13 hab ich auf allen geräten, als da div iphone 11 und xs und ipads sind keinen zugriff mehr auf den appstore, wenn ich unterwegs bin. <br />wissentlich hab ich keine einstellungen geändert, der zugriff über mobile daten auf den appstore ist freigegeben, ich hab das gerät mehrfach mit geänderten einstellungen aus- und wieder eingeschaltet, aber appstore gibts nur im wlan. alles andere läuft über LTE.<br /><br />und bevor wieder die übliche häme kommt: ich hatte einen sehr konkreten grund zu den betas zu wechseln.</div></div></div>
<div class="MtnComment"><div class="MtnCommentProfile" id="Comment6702402"><span class="MtnCommentAccountPictureDummy"></span></div><div class="MtnCommentContent"><div class="MtnCommentInformation"><span class="MtnCommentAccountName">th3Chris</span></div><div class="MtnCommentText">Ich kann mit 13.1.1 untr mobilen Daten auf den App Store zugreifen und diesen durchsuchen.</div></div></div>
<div class="MtnComment"><div class="MtnCommentProfile" id="Comment6702420"><span class="MtnCommentAccountPictureDummy"></span></div><div class="MtnCommentContent"><div class="MtnCommentInformation"><span class="MtnCommentAccountName">maculi</span></div><div class="MtnCommentText">gabs so einen Fall nicht erst kürzlich hier im Forum? Per WLAN ging alles, über Mobilfunk nicht. Lag (wenn ich das richtig mitbekommen hab) am Mobilfunkanbieter.</div></div></div>
<div id="form"><h2 class="Title">Kommentieren</h2><h3 class="SynMessageNote">Sie müssen sich <a href="https://www.mactechnews.de/account/login.html">einloggen</a>, um sich an einer Diskussion beteiligen zu können.</h3></div>
</main>
</body></html>)html",
    {"keinen zugriff mehr auf den appstore", "und bevor wieder die übliche häme",
     "Per WLAN ging alles"},
    {"Anmelden"}};

// journals.univie.ac.at (shared/fixtures/main-content): the submission page's "author_guidelines"
// are most of its content; a block named like an author box is left out only when short.
inline const MainContentPage kLongBlockNamedLikeAnAuthorBox{
    "/main/guidelines",
    R"html(<!doctype html><html><head><title>Beitragseinreichung | Wiener Digitale Revue</title></head><body>
<div class="pkp_structure_content"><div id="pkp_content_main" class="pkp_structure_main" role="main">
<div class="page page_submissions">
<nav class="cmp_breadcrumbs" role="navigation" aria-label="Sie sind hier:"><ol><li><a href="https://journals.univie.ac.at/index.php/wdr/index">Home</a><span class="separator">/</span></li><li class="current"><h1>Beitragseinreichung</h1></li></ol></nav>
<div class="cmp_notification">Um Beiträge online einzureichen oder den aktuellen Status eines eingereichten Beitrags zu überprüfen, müssen Sie registriert und eingeloggt sein. In einen existierenden Account <a href="https://journals.univie.ac.at/index.php/wdr/login">Zum Login</a> oder einen neuen Account <a href="https://journals.univie.ac.at/index.php/wdr/user/register">Registrieren</a>.</div>
<div class="submission_checklist"><h2>Checkliste für Beitragseinreichungen</h2>
Als Teil des Einreichungsverfahren werden die Autor/innen gebeten, anhand der Checkliste für Beiträge die Übereinstimmung ihres Beitrags Punkt für Punkt mit den angegebenen Vorgaben abzugleichen. Beiträge können an Autor/innen, die die Richtlinien nicht befolgen, zurückgegeben werden.
<ul><li>Die Datei liegt im Format Microsoft Word, RTF oder WordPerfect vor.</li><li>Soweit möglich, wurden den Literaturangaben URLs bzw. DOIs beigefügt.</li></ul></div>
<div class="author_guidelines" id="authorGuidelines"><h2>Richtlinien für Autor/innen</h2>
<p><strong>Hinweise zur Manuskriptgestaltung „Wiener Digitale Revue“</strong></p>
<p><strong>Allgemeines</strong></p>
<p>Um den HerausgeberInnen die Arbeit zu erleichtern, orientieren Sie sich bitte beim Verfassen Ihres Beitrags an den folgenden Vorgaben:</p>
<ul><li class="show">neue Rechtschreibung</li><li class="show">gendergerechte Schreibweise</li><li class="show">Format: linksbündig, Times New Roman, 12 pt, 1,5-zeilig, Absatzeinzug 0,5 cm</li><li class="show">Überschriften: Haupttitel und Untertitel 12 pt fett; 1. Zwischenüberschrift nummeriert und fett; 2. Zwischenüberschrift nicht nummeriert und kursiv</li><li class="show">Betonungen kursiv</li><li class="show">lange Zitate ab 4 Zeilen einrücken</li><li class="show">zitierte Werktitel im Text kursiv</li><li class="show">Angabe von URLs ohne Hervorhebung</li><li class="show">bei Datumsangaben kein Abstand zwischen Tag und Monat und Jahr (z.B.: 9.9.2019)</li><li class="show">Abkürzungen immer ohne Abstand (u.a., o.Ä. usf.)</li></ul>
<p>Bei der Präsentation von Bild-, Ton- und Film- sowie Archivmaterialien bitten wir Sie die Rechte selbständig zu klären. Nur in Ausnahmefällen können Lizenzgebühren übernommen werden.<span class="Apple-converted-space">&nbsp;</span></p>
<p><strong>Zitierweise im Fließtext</strong></p>
<ul><li class="show">Kurzverweise im Fließtext</li><li class="show">Verweise im Text in runden Klammern ausweisen nach dem Muster: „(Nachname AutorIn/Herausgeber Jahr: Seite)“</li><li class="show">mehrere AutorInnen werden durch Schrägstrich getrennt; bei mehr als drei AutorInnen nur den erstgenannten Nachnamen mit „et al.“ anführen</li><li class="show">direkte und indirekte Zitate unterscheiden</li></ul></div>
</div></div></div>
</body></html>)html",
    {"Soweit möglich, wurden den Literaturangaben", "Betonungen kursiv",
     "direkte und indirekte Zitate unterscheiden"},
    {"Home"}};

// 100noticias.com.ni (shared/fixtures/main-content): "Lea también:" and a headline inside the
// body, the colon followed by a no-break space: a label and a link, left out.
inline const MainContentPage kReadAlsoBeforeANoBreakSpace{
    "/main/read-also",
    R"html(<!doctype html><html><head><title>Nicaragua cerró 2021 con deuda externa</title></head><body>
<div class="story-body"><p>(EFE).- Nicaragua cerr&oacute; 2021 con una deuda externa total de 14.372,4 millones de d&oacute;lares, lo que equivale al 102,6 % del producto interior bruto (PIB) del pa&iacute;s.</p>
<p>Los desembolsos en 2021 fueron de 2.662,7 millones de d&oacute;lares, de los cuales 50,4 % provino de acreedores privados y el resto de acreedores oficiales bilaterales, de acuerdo con la informaci&oacute;n.</p>
<p>Del total de desembolsos, 1.500,7 millones de d&oacute;lares fueron para el sector privado y 1.162 millones de d&oacute;lares al sector p&uacute;blico, detall&oacute; la autoridad monetaria.</p>
<p><strong>Lea m&aacute;s:&nbsp;<a href="https://100noticias.com.ni/nacionales/115003-juan-carlos-ortega-legalizar-cannabis-marihuana/">Juan Carlos Ortega Murillo propone legalizar la comercializaci&oacute;n de marihuana en Nicaragua</a></strong></p>
<p>En tanto, el servicio de la deuda externa fue de 1.813,4 millones de d&oacute;lares en 2021, de los cuales 1.627,7 millones de d&oacute;lares fueron pagos de principal y 185,7 millones de d&oacute;lares en intereses y comisiones, precis&oacute; el Banco Central.</p>
<p><strong>Lea tambi&eacute;n:&nbsp;<a href="https://100noticias.com.ni/nacionales/115002-impiden-ingreso-nicaragua-reportero-miami-eeuu/">Impiden ingreso a Nicaragua a reportero y camar&oacute;grafo estadounidense</a></strong></p>
<p>Del total del servicio pagado, el 79,3 5 correspondi&oacute; al sector privado, y el resto al sector p&uacute;blico (20,7 %), seg&uacute;n el informe.</p></div>
</body></html>)html",
    {"14.372,4 millones", "según el informe."},
    {"Lea también", "legalizar la comercialización", "reportero y camarógrafo"}};

// rt.com (bench/main_content/data/scrapinghub, 4a44ab3e): inside the article block a sharing row
// named "article__share" ("Follow RT on"), a date line named "article__date", and a headline
// linked to another article standing alone between the paragraphs ("Also on rt.com"): all left
// out, though their names also say "article".
inline const MainContentPage kShareRowDateAndLinkedHeadline{
    "/main/rt",
    R"html(<!doctype html><html><head><title>3 pro-Morales demonstrators killed in clashes — RT World News</title></head><body>
<div class="article "><h1 class="article__heading">‘He died in my hands’: 3 pro-Morales demonstrators killed in clashes with Bolivia’s police &amp; soldiers near barricaded fuel plant</h1>
<div class="article__date"><span class="date date_article-header">20 Nov, 2019 05:47  <span class="update_date_visible"></span></span></div>
<div class="article__share"><div class="article__social-wrapper_upper"><div class="social-container" data-buttons="facebook, twitter, reddit, telegram, fbmessenger, whatsapp" data-counters=""></div><div class="article__google-news upper"><span>Follow RT on</span><a href="https://news.google.com/publications/CAAqBwgKMJz93AIw0JIc?hl=en-US&amp;gl=US&amp;ceid=US%3Aen" target="_blank" rel="nofollow noopener"><img src="/static/img/googlenews.svg" alt="RT" style="vertical-align: middle; width: 120px"></a></div></div></div>
<div class="article__text text "><p>In addition to the three fatalities at a fuel plant on Tuesday, Bolivia’s public defender’s office said another 30 people had been injured in the skirmishes, but added the exact circumstances of the deaths and injuries remained unclear.</p><p>Public Ombudsman Nadia Cruz’s office said the deaths were caused by gunshot wounds and called on the <em>“interim”</em> government to withdraw military units from all policing operations in order to reduce the violence.</p><a class="read-more-big" href="/news/473735-bolivia-crackdown-socialists-journalists-sedition/" target="_blank">
    <span class="read-more-big__container">
        <span class="read-more-big__content">
            <span class="read-more-big__subtitle">Also on rt.com</span>
            <span class="read-more-big__title">Journalists &amp; politicians from Morales’ party threatened with sedition arrests as Bolivia purges socialist elements</span>
        </span>
    </span>
</a><p>An Associated Press journalist in the area also reported hearing gunfire near the fuel facility in Senkata, which protesters have tried to block over the last five days in an attempt to shut down operations, as well as seeing a military helicopter flying over the plant.</p><p>A doctor on the scene told Ruptly that he tried to save one of the wounded demonstrators, but failed to do so.</p><p><em>“It’s a shame to see a comrade die in this way, because he died in my hands. Seeing it was a shot in the heart, how sad to see something like that,”</em> the doctor said.</p></div>
</div>
</body></html>)html",
    {"another 30 people had been injured", "a military helicopter flying over the plant",
     "the doctor said."},
    {"Follow RT on", "Also on rt.com", "threatened with sedition arrests", "20 Nov, 2019"}};

// foxnews.com (bench/main_content/data/scrapinghub, 7dfc3e35): headlines of other articles,
// each a paragraph that is one link, between the article's paragraphs; a sentence with two links
// in it stays.
inline const MainContentPage kLinkedHeadlinesBetweenParagraphs{
    "/main/fox",
    R"html(<!doctype html><html><head><title>James Van Der Beek eliminated from 'Dancing with the Stars' | Fox News</title></head><body>
<article><h1 class="headline">James Van Der Beek eliminated from 'Dancing with the Stars' after wife suffers miscarriage</h1>
<div class="article-body"><p class="speakable"><a href="https://www.foxnews.com/entertainment/james-van-der-beek-gives-super-awkward-interview-about-dawsons-creek" target="_blank">James Van Der Beek</a> has been eliminated from “<a href="https://www.foxnews.com/category/entertainment/dancing-with-the-stars" target="_blank">Dancing with the Stars</a>.”</p><p>Van Der Beek was eliminated in what host <a href="https://www.foxnews.com/entertainment/tom-bergeron-sean-spicer-dancing-with-stars" target="_blank">Tom Bergeron</a> described as the “hardest judge’s verdict so far this season.” The difficult elimination came in light of Van Der Beek’s announcement that his wife, Kimberly, had suffered a miscarriage over the weekend.</p><p>“You never know why these things happen, that’s what I’ve been telling my kids. All you know is that it brings you closer together, it breaks you open, it opens your heart, it deepens your appreciation,” said the actor. “It makes you more human.”</p><p><strong><a href="https://www.foxnews.com/entertainment/sean-spicer-eliminated-from-dancing-with-the-stars" target="_blank">SEAN SPICER ELIMINATED FROM 'DANCING WITH THE STARS'</a></strong></p><p>Those involved with “DWTS” struggled with the decision to boot Van Der Beek off the show.</p><p>“This is not easy. First of all, this is not at all what I expected to see here,” judge Inaba noted as she made her decision.</p><p><strong><a href="https://www.foxnews.com/apps-products?pid=AppArticleLink" target="_blank">CLICK HERE TO GET THE FOX NEWS APP</a></strong></p><p>“Can I give it to James?” Brooke tearfully asked before apologizing to the actor.</p></div></article>
</body></html>)html",
    {"has been eliminated from “Dancing with the Stars.”", "It makes you more human.",
     "Brooke tearfully asked"},
    {"SEAN SPICER ELIMINATED", "GET THE FOX NEWS APP"}};

// thehill.com (bench/main_content/data/scrapinghub, 6ebac05f): a name in a sentence carries a
// hover card of its latest articles (links, shown on pointing): the card is left out, the
// sentence and the name stay.
inline const MainContentPage kHoverCardInASentence{
    "/main/hover-card",
    R"html(<!doctype html><html><head><title>New York man pleads guilty to threatening to kill Omar | TheHill</title></head><body>
<article><h1 class="title">New York man pleads guilty to threatening to kill Omar</h1>
<div class="field-items"><div class="field-item even" property="content:encoded"><p><span style="font-weight: 400;">A New York man pleaded guilty to charges he threatened to kill Rep. <span class="rollover-people" data-behavior="rolloverpeople"><a class="rollover-people-link" data-nid="418778" href="/people/ilhan-omar">Ilhan Omar</a><span class="rollover-people-block" id="rollover-people-418778"><span class="rollover-block"><span><img src="/sites/default/files/styles/thumb_100/public/omarilhan_111518gn2_lead.jpg" width="100" height="100" alt=""><a class="name" href="/people/ilhan-omar">Ilhan Omar</a><a class="people-articles" href="/policy/technology/overnights/471175-hillicon-valley-progressives-oppose-surveillance-rider-senators">Hillicon Valley: Progressives oppose funding bill over surveillance authority | Senators call for 5G security coordinator | Facebook gets questions over location tracking | Louisiana hit by ransomware attack</a> <a class="people-articles" href="/policy/technology/471161-progressives-oppose-stopgap-funding-measure-over-surveillance-authority">Progressives oppose spending stopgap measure over surveillance authority extension </a> <a class="people-articles" href="/blogs/blog-briefing-room/news/471124-omar-asks-court-to-apply-system-of-compassion-in-sentencing-man">Omar asks court to apply 'system of compassion' in sentencing man convicted of threatening her</a> <a class="more" href="/people/ilhan-omar">MORE<span></span></a></span></span></span></span> (D-Minn.), according to the Justice Department.</span></p>
<p>The office referred the call to U.S. Capitol Police, who worked with the FBI to investigate. When Carlineo was approached, he told police he supported Trump and hates radical Muslims in government. </p>
<p><span style="font-weight: 400;">Carlineo faces up to 10 years in prison and a fine of up to $250,000 when he is sentenced in February, the department said.</span></p></div></div></article>
</body></html>)html",
    {"threatened to kill Rep. Ilhan Omar (D-Minn.), according to the Justice Department.",
     "hates radical Muslims in government"},
    {"Hillicon Valley", "system of compassion", "MORE"}};

// sfgate.com (bench/main_content/data/scrapinghub, 5caf91b8): "Updated" and a <time> on a line of
// their own under the heading, left out.
inline const MainContentPage kDateLineUnderTheHeading{
    "/main/date-line",
    R"html(<!doctype html><html><head><title>The Latest: Man stabbed to death on San Francisco Bay train - SFGate</title></head><body>
<div class="article-content"><div class="article-title">
<h1 class="headline entry-title">The Latest: Man stabbed to death on San Francisco Bay train</h1>
    <span class="timestamp">Updated
        <time itemprop="datePublished" datetime="2019-11-20T06:01:19Z">
            10:01 pm PST, Tuesday, November 19, 2019
        </time>
    </span>
</div>
<div class="article-body">
            <p>HAYWARD, Calif. (AP) — The Latest on a deadly stabbing on a San Francisco Bay Area commuter train (all times local):</p>
            <p>10 p.m.</p>
            <p>Authorities say a stabbing that killed a passenger on a San Francisco Bay Area commuter train may have occurred after the attacker tried to steal another rider’s shoes.</p>
            <p>The fight broke out Tuesday afternoon on a BART train pulling into a station in Hayward.</p>
            <p>The San Francisco Chronicle says police are looking into whether the victim was a good Samaritan who tried to stop the suspect from stealing items from another person, possibly shoes.</p>
</div></div>
</body></html>)html",
    {"The Latest on a deadly stabbing", "possibly shoes."},
    {"Updated", "10:01 pm PST"}};

// nj.com (bench/main_content/data/scrapinghub, 3f65af7b): a tweet quoted in the article, in a
// wrapper named "social-media-embed": a quotation, so it stays.
inline const MainContentPage kTweetInASocialWrapper{
    "/main/tweet",
    R"html(<!doctype html><html><head><title>Florida Man exists. South Dakota: Hold my beer. - nj.com</title></head><body>
<article class="article"><h1>Florida Man exists. South Dakota: Hold my beer.</h1>
<div class="entry-content">
<p class="article__paragraph--left">Enter South Dakota to throw down the gauntlet. The state’s new slogan for an anti-drug campaign drew a South Dakota-sized share of attention on social media Monday.</p>
<p class="article__paragraph--left">Yes, that’s it. No joke. The governor of South Dakota would like us to know that her state is on meth. You know, like solving the problem. <i>On it</i>!</p>
<p class="article__paragraph--left">And if you haven’t yet noticed what might be wrong, a whole lot of people on Twitter pointed it out.</p><div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">Yes this is real and yes the state spent nearly half a million dollars on it: <a href="https://t.co/Nc0nKoXGBP">https://t.co/Nc0nKoXGBP</a></p>— Dianna E. Anderson (@diannaeanderson) <a href="https://twitter.com/diannaeanderson/status/1196501054197649413?ref_src=twsrc%5Etfw">November 18, 2019</a></blockquote>
</div><p class="article__paragraph--left">So many people were talking about South Dakota’s odd new slogan that the state and “We’re On It" became top Twitter trends.</p>
</div></article>
</body></html>)html",
    {"the state spent nearly half a million dollars on it", "became top Twitter trends"},
    {}};

// nbcnews.com (bench/main_content/data/scrapinghub, 5a822960): inside the article body a
// newsletter box named "article-body__tablet-newsletter" and a <time> on a line of its own: both
// left out, though the box's name also says "article-body".
inline const MainContentPage kNewsletterBoxAndTimeInTheBody{
    "/main/newsletter",
    R"html(<!doctype html><html><head><title>House Hitler was born in will become a police station, Austria says</title></head><body>
<article class="articleBody" data-taboola-target="read-more"><div class="gridContainer___3alrm gridContainer article-body__grid--container"><div class="article-body__section article-body__last-section"><div class="body___2BbXy article-body publico-txt f4 f5-m lh-copy gray-100 article-body__hover--links" data-test="articleBody"><div class="article-body__tablet-newsletter"><div class="container___jsHMh news___34TC8 dn-print" data-test="newsletter-signup"><div class="borderTop___3KbzM"></div><div></div><div class="signupBackground___27LhS"><h2 class="signupTitle___15fvr">Breaking News Emails</h2><div class="signupForeground___2FAE6"><div class="signupMessage___3ctJh">Get breaking news alerts and special reports. The news and stories that matter, delivered weekday mornings.</div><a href="https://www.nbcnews.com/newsletters/breakingnews" class="animated-ghost-button animated-ghost-button--normal" target="_blank">SUBSCRIBE</a></div></div></div></div><section class="mb7"><div class="mb1 founders-mono f2 lh-copy gray-80 ls-tight"><time class="relative z-1" datetime="Wed Nov 20 2019 09:28:00 GMT+0000 (UTC)" data-test="timestamp__datePublished" itemprop="datePublished" content="2019-11-20T09:28:00.000Z">Nov. 20, 2019, 9:28 AM UTC</time></div></section><div class="article-body__content"><p class="endmarkEnabled">VIENNA — The house where Adolf Hitler was born will be turned into a police station, Austria's interior minister said on Tuesday, after years of debate over how best to prevent it becoming a pilgrimage site for neo-Nazis.</p><p class="endmarkEnabled"><a href="https://www.nbcnews.com/news/world/hitler-s-house-seizure-backed-court-amid-nazi-shrine-fears-n778481" target="_blank">Having recently carried out a compulsory purchase of the house in Braunau am Inn</a>, a town on the border with Germany, Austria will invite architects to submit plans for a redesign of the building. It will house the local police force's offices, the Interior Ministry said in a statement.</p><p class="endmarkEnabled">"The house's future use by the police should send an unmistakable signal that this building will never again evoke the memory of National Socialism," Interior Minister Wolfgang Peschorn, who serves in a provisional government of civil servants, said in the statement.</p><p class="endmarkEnabled">Architects from across the European Union will be invited to submit plans for the building's redesign this month and a jury of experts and public officials will pick the winning design in the first half of next year, the Interior Ministry said.</p><p class="endmarkEnabled">Although Hitler was born in Braunau in 1889, Austria argued for decades that it was the first victim of National Socialism, having been annexed by Hitler's Germany in 1938.</p></div></div></div></div></article>
</body></html>)html",
    {"will be turned into a police station", "annexed by Hitler's Germany in 1938."},
    {"Breaking News Emails", "delivered weekday mornings", "9:28 AM UTC"}};

// theantijunecleaver.com (bench/main_content/data/scrapinghub, 0e014df6): "Sharing is caring!"
// named "dpsp-share-text", and the author's box named "post-author", each short beside the post:
// left out, though their names also say "text" and "post".
inline const MainContentPage kShareTextAndAuthorBox{
    "/main/author-box",
    R"html(<!doctype html><html><head><title>Simple Hiking Survival Kit (with Kids) - The Anti-June Cleaver</title></head><body>
<article id="post-14848" class="post type-post status-publish hentry"><div class="header-standard header-classic single-header"><h1 class="post-title single-post-title entry-title">Hiking the Boulder Flat Irons</h1></div>
<div class="post-entry blockquote-style-1"><div class="inner-post-entry entry-content" id="penci-post-entry-inner"><p class="dpsp-share-text ">Sharing is caring!</p>
<p>When you live in a state as beautiful as Colorado it’s impossible to stay inside. We moved here two years ago and we’re still in awe of the beauty and take advantage of it every chance we can get.</p>
<p>In the time we’ve lived here and all of the times we’ve been to Boulder, one place we hadn’t yet visited were the Boulder Flatirons. We always have a baby carrier in the car so for our hike we just had to make a pit stop at Walmart for some easy to carry bottled Arrowhead water and healthy snacks.</p>
<p>Red was our water boy for this trip. Armed with some ice packs and a portable cooler bag, the Arrowhead water stayed nice and cold while being easy for a teenager to carry on a mountain hike. We use Arrowhead bottled water because their bottles are made from BPA-free PET plastic.</p>
<p>This guy learned the importance of staying hydrated very early on. Soon after we moved here we went to a festival and he didn’t take our warnings to keep hydrated seriously and passed out while waiting in line for a ride.</p>
<p><strong>What is your favorite weekend family activity? How do you make sure that you stay hydrated?</strong></p><p class="dpsp-share-text ">Sharing is caring!</p></div></div>
<div class="post-author"><div class="author-img"></div><div class="author-content"><h5><a href="https://theantijunecleaver.com/author/reganshae99/" title="Posts by Regan" rel="author">Regan</a></h5><p>Regan is a Southeastern Connecticut native now living in Central Massachusetts with her husband, two sons, and two cats. After living in Colorado for six years, she and her family realized that New England is home. Regan loves traveling, taking day trips, reading, cooking, and coffee.</p></div></div></article>
</body></html>)html",
    {"impossible to stay inside", "BPA-free PET plastic", "How do you make sure that you stay"},
    {"Sharing is caring!", "Southeastern Connecticut native"}};

// morebikes.co.uk (bench/main_content/data/scrapinghub, 30b771a4): an ad slot's label
// "Advert" between the paragraphs of a review, left out.
inline const MainContentPage kAdvertLabel{
    "/main/advert",
    R"html(<!doctype html><html><head><title>Bike &amp; Style book with soundtrack review | MoreBikes</title></head><body>
<div class="entry-content"><p>Born to be Wild, the soundtrack album, gives you a selection of classic rock tracks, including Born to be Wild and The Road to Hell. While we all know vinyl is best, there’s also a download code to get all the tracks as 256kps MP3s.</p><div class="Off5dpXq" style="clear:both;float:left;width:100%;margin:0 0 20px 0;"><center><span style="font-size:0.7em;color:#AAA;">Advert</span><br> </center></div><p>The book is full of iconic bikes, people and kit (though where are Lewis Leathers?!). It’s a very enjoyable title to leaf through whenever you want to remember how cool you are.</p></div>
</body></html>)html",
    {"a download code to get all the tracks", "remember how cool you are."},
    {"Advert"}};

// reuters.com (bench/main_content/data/scrapinghub, 57d46c9d): the reporters' credit at the end
// of the story, named "Attribution_content", left out like a byline.
inline const MainContentPage kReportersCredit{
    "/main/attribution",
    R"html(<!doctype html><html><head><title>Stocks slip as trade worries weigh - Reuters</title></head><body>
<div class="StandardArticleBody_body"><p>While the dollar was supported by recent U.S. economic data meeting lowered expectations, the greenback may be in for some weakness, said Juan Perez, senior foreign exchange trader and strategist at Tempus Inc. </p><p>“Central banks cannot provide that much to incentivize stocks any higher, thus risk-appetite is muted and the buck may continue to lose based on the fact that the American economy is indeed slower and the Fed’s ability to satisfy anyone is in question,” Perez said. </p><p>The Japanese yen strengthened 0.13% versus the greenback at 108.55 per dollar, while Sterling <a href="/finance/currencies/quote?srcCurr=GBP&amp;destCurr=USD">GBP=</a> was last trading at $1.2925, down 0.21% on the day.     </p><p>Spot gold XAU= added 0.1% to $1,472.19 an ounce.  </p><p>Copper CMCU3 rose 0.86% to $5,880.00 a tonne.     </p><p>Three-month aluminum on the London Metal Exchange CMAL3 lost 0.06% to $1,737.00 a tonne. </p><div class="Attribution_container"><div class="Attribution_attribution"><p class="Attribution_content">Reporting by Rodrigo Campos; additional reporting by  Stephanie Kelly, Saqib Iqbal Ahmed and Gertrude Chavez-Dreyfuss; Editing by Nick Zieminski and Dan Grebler</p></div></div></div>
</body></html>)html",
    {"the greenback may be in for some weakness", "lost 0.06% to $1,737.00 a tonne."},
    {"Reporting by Rodrigo Campos", "Editing by Nick Zieminski"}};

// Written for this test: the article's heading repeats the page's title (less the site's name), as
// Readability's _headerDuplicatesTitle finds it: left out (the title is in json.title); a
// sub-heading stays.
inline const MainContentPage kHeadingRepeatsTheTitle{
    "/main/title-heading",
    R"html(<!doctype html><html><head><title>The harbour reopens after three weeks | Coast News</title></head><body>
<div id="header"><a href="/">Coast News</a></div>
<article><h1>The Harbour Reopens After Three Weeks</h1>
<p>The harbour reopened on Monday after three weeks of repairs, and the first ferry left on time.</p>
<p>Engineers said the new wall, built of stone from the quarry above the town, would hold back the winter storms for decades to come.</p>
<h2>What comes next</h2>
<p>Repairs to the lighthouse are planned for next year, when the budget allows for them.</p>
<p>Until then the harbour master asks sailors to keep to the marked channel after dark.</p>
</article>
</body></html>)html",
    {"The harbour reopened on Monday", "What comes next", "keep to the marked channel"},
    {"The Harbour Reopens After Three Weeks"}};

inline const std::vector<const MainContentPage*> kMainContentPages = {
    &kCommentsOutweighTheArticle,
    &kHeadingRepeatsTheTitle,
    &kArticleBodyStated,
    &kParagraphsAsDivs,
    &kParagraphBesideTheBody,
    &kArticleSplitIntoBlocksOfOneKind,
    &kForumThreadNamedComments,
    &kLongBlockNamedLikeAnAuthorBox,
    &kReadAlsoBeforeANoBreakSpace,
    &kShareRowDateAndLinkedHeadline,
    &kLinkedHeadlinesBetweenParagraphs,
    &kHoverCardInASentence,
    &kDateLineUnderTheHeading,
    &kTweetInASocialWrapper,
    &kNewsletterBoxAndTimeInTheBody,
    &kShareTextAndAuthorBox,
    &kAdvertLabel,
    &kReportersCredit};

}  // namespace gleaner::testing
