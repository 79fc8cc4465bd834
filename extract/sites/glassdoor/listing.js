// Reads a Glassdoor job search page: the job listings of the Apollo cache the Next.js page carries
// (ROOT_QUERY `jobListings({...})`, references resolved), or of the server components' payload of
// the App Router pages, with the cursors of the following pages and the total; on the older
// server-rendered layout, the `li.jl` job cards and the jobs count.
(args, kit) => {
  const SEL = {
    card: 'li.jl[data-id]',
    title: 'a.jobTitle:not(:has(.jobEmpolyerName)), .jobTitle',
    employer: '.jobEmpolyerName',
    location: '.loc',
    rating: '.compactStars',
    age: '.jobLabel .minor',
    salary: '.salaryEstimate',
    count: '.jobsCount',
    // In a card of the Next.js layouts (`#job-employer-<listing id>`): the employer's name.
    cardEmployer: '[class*="EmployerName"]',
  };
  const next = kit.nextData();
  const cache = kit.apolloCache(next);
  let search = null;
  if (cache && cache.ROOT_QUERY) {
    for (const key of Object.keys(cache.ROOT_QUERY)) {
      if (key.startsWith('jobListings(')) {
        search = kit.resolveRefs(cache, cache.ROOT_QUERY[key], 6);
        break;
      }
    }
  }
  // The App Router pages (2025 on) stream the same search results in their server components'
  // payload instead: the object with the listings and the total.
  const flight = next ? null : kit.nextFlight();
  if (!search && flight) {
    const found =
        flight.objects((o) => o.jobListings !== undefined && o.totalJobsCount !== undefined);
    if (found.length) search = flight.resolve(found[0], 8);
  }
  const listings = search && Array.isArray(search.jobListings) ? search.jobListings.map((l) => {
    const view = l.jobview || l;
    const h = view.header || {};
    const j = view.job || {};
    const id = j.listingId || h.jobListingId || null;
    // The name the card shows: the one the listing was posted under ("Athenahealth", not the
    // profile's legal name "athenahealth, Inc."), or on some pages (co.in, 2026) the profile's
    // short name ("ITWorks InfoTech" for "Infotech.Works"): read from the card where it is.
    const card = id ? document.getElementById('job-employer-' + id) : null;
    return {
      listingId: id,
      title: h.jobTitleText || j.jobTitleText || null,
      employer: (card && kit.text(SEL.cardEmployer, card)) || h.employerNameFromSearch ||
          (h.employer && h.employer.name) || null,
      // The App Router pages' cards carry the employer's rating only (-0.1 for none).
      rating: typeof h.rating === 'number' ? h.rating :
          (h.employer && h.employer.ratings ? h.employer.ratings.overallRating : null),
      location: h.locationName, link: h.jobLink || h.seoJobLink || null,
      ageInDays: h.ageInDays, easyApply: h.easyApply, payPeriod: h.payPeriod,
      pay: h.payPeriodAdjustedPay || null, payCurrency: h.payCurrency || null,
    };
  }) : null;
  const cards = [];
  if (!listings) {
    for (const card of document.querySelectorAll(SEL.card)) {
      const titleLink = Array.from(card.querySelectorAll('a.jobLink')).find((a) => !a.querySelector(SEL.employer) && kit.text(a));
      cards.push({
        listingId: card.getAttribute('data-id'),
        title: titleLink ? kit.text(titleLink) : card.getAttribute('data-normalize-job-title'),
        link: titleLink ? titleLink.getAttribute('href') : null,
        employer: kit.text(SEL.employer, card),
        location: kit.text(SEL.location, card) || card.getAttribute('data-job-loc'),
        rating: kit.text(SEL.rating, card),
        age: kit.text(SEL.age, card),
        salary: kit.text(SEL.salary, card),
        easyApply: card.getAttribute('data-is-easy-apply') === 'true',
      });
    }
  }
  return {
    url: location.href,
    hasNextData: !!next || !!flight,
    searchFound: !!search,
    listings,
    cursors: search && Array.isArray(search.paginationCursors) ? search.paginationCursors : [],
    total: search && search.totalJobsCount !== undefined ? search.totalJobsCount : null,
    cards,
    count: kit.text(SEL.count),
  };
}
