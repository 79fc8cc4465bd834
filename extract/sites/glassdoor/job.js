// Reads one Glassdoor job: the `JobView` of the Apollo cache the Next.js page carries (ROOT_QUERY
// `jobView({...})`, references resolved): its header (title, employer, location, pay, age, skills),
// its details (the description, the date the site found it, the listing id), its map (the place)
// and the employer's profile. A job page carries the job's view; a search page the view of the job
// it shows beside the list. `args.listingId` is the job asked for: each view's id is returned, and
// the asked one's fields, so the view of another job is never taken for it.
(args, kit) => {
  const cache = kit.apolloCache(kit.nextData());
  const views = [];
  if (cache && cache.ROOT_QUERY) {
    for (const key of Object.keys(cache.ROOT_QUERY)) {
      if (key.startsWith('jobView(')) views.push(kit.resolveRefs(cache, cache.ROOT_QUERY[key], 4));
    }
  }
  const idOf = (v) => String((v.job && v.job.listingId) || (v.header && v.header.jobListingId) || '');
  const view = views.find((v) => idOf(v) === String(args.listingId)) || null;
  const h = (view && view.header) || {};
  const j = (view && view.job) || {};
  const map = (view && view.map) || {};
  const e = (h.employer && h.employer.id !== undefined ? h.employer : null) ||
      (view && view.overview && view.overview.id !== undefined ? view.overview : null) || {};
  const attrs = h.indeedJobAttribute || {};
  return {
    hasNextData: !!cache,
    viewIds: views.map(idOf),
    found: !!view,
    listingId: view ? idOf(view) : null,
    title: h.jobTitleText || j.jobTitleText || null,
    seoLink: h.seoJobLink || null,
    jobLink: h.jobLink || null,
    applyUrl: h.applyUrl || null,
    employer: {
      id: e.id !== undefined ? e.id : null,
      name: h.employerNameFromSearch || e.name || null,
      shortName: e.shortName || null,
      rating: typeof h.rating === 'number' ? h.rating :
          (e.ratings && typeof e.ratings.overallRating === 'number' ? e.ratings.overallRating : null),
      logoUrl: e.squareLogoUrl || null,
      overviewUrl: (e.links && e.links.overviewUrl) || null,
    },
    location: h.locationName || map.locationName || null,
    address: {country: map.country || null, region: map.stateName || null,
              city: map.cityName || null, latitude: map.lat, longitude: map.lng},
    pay: h.payPeriodAdjustedPay || null, payPeriod: h.payPeriod || null,
    payCurrency: h.payCurrency || null, salarySource: h.salarySource || null,
    descriptionHtml: kit.safeHtml(j.description || ''),
    description: kit.htmlText(j.description || ''),
    education: attrs.educationLabel || [],
    experience: attrs.yearsOfExperienceLabel || [],
    skills: attrs.skillsLabel || [],
    jobTypes: h.jobType || [],
    discoverDate: j.discoverDate || null,
    ageInDays: h.ageInDays,
    expired: h.expired === true,
    easyApply: h.easyApply,
  };
}
