// Reads a Glassdoor job search page: the job listings of the Apollo cache the Next.js page carries
// (ROOT_QUERY `jobListings({...})`, references resolved), with the cursors of the following pages
// and the total; on the older server-rendered layout, the `li.jl` job cards and the jobs count.
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
  const listings = search && Array.isArray(search.jobListings) ? search.jobListings.map((l) => {
    const view = l.jobview || l;
    const h = view.header || {};
    const j = view.job || {};
    return {
      listingId: j.listingId || h.jobListingId || null,
      title: h.jobTitleText || j.jobTitleText || null,
      // The card shows the name the listing was posted under ("Athenahealth"), not the
      // employer profile's legal name ("athenahealth, Inc.").
      employer: h.employerNameFromSearch || (h.employer && h.employer.name) || null,
      rating: h.rating, location: h.locationName, link: h.jobLink || h.seoJobLink || null,
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
    hasNextData: !!next,
    searchFound: !!search,
    listings,
    cursors: search && Array.isArray(search.paginationCursors) ? search.paginationCursors : [],
    total: search && search.totalJobsCount !== undefined ? search.totalJobsCount : null,
    cards,
    count: kit.text(SEL.count),
  };
}
