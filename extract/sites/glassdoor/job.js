// Reads one Glassdoor job: the `JobView` of the Apollo cache the Next.js page carries (ROOT_QUERY
// `jobView({...})`, references resolved): its header (title, employer, location, pay, age, skills),
// its details (the description, the date the site found it, the listing id), its map (the place)
// and the employer's profile. A job page carries the job's view; a search page the view of the job
// it shows beside the list. `args.listingId` is the job asked for: each view's id is returned, and
// the asked one's fields, so the view of another job is never taken for it.
(args, kit) => {
  const next = kit.nextData();
  const cache = kit.apolloCache(next);
  const views = [];
  if (cache && cache.ROOT_QUERY) {
    for (const key of Object.keys(cache.ROOT_QUERY)) {
      if (key.startsWith('jobView(')) views.push(kit.resolveRefs(cache, cache.ROOT_QUERY[key], 4));
    }
  }
  // The App Router pages (2025 on) stream the job's details in their server components' payload
  // instead, as the same view (`jobview` with a description) or flattened: the header's fields in
  // `jobListingDetails`, the job's in `jobOverview`, the employer's profile in `employerOverview`.
  const flight = next ? null : kit.nextFlight();
  if (!views.length && flight) {
    const details = flight.objects((o) => (o.jobOverview && o.jobListingDetails) ||
        (o.header && o.job && o.job.description !== undefined));
    for (const d of details.map((o) => flight.resolve(o, 6))) {
      views.push(d.jobOverview ? {header: d.jobListingDetails, job: d.jobOverview, map: d.map,
                                  overview: d.employerOverview, shownName: d.employerName} : d);
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
  const shownSkills = (h.profileAttributes || []).filter((a) => a && a.type === 'SKILLS' && a.label)
      .map((a) => a.label);
  return {
    hasNextData: !!cache || !!flight,
    viewIds: views.map(idOf),
    found: !!view,
    listingId: view ? idOf(view) : null,
    title: h.jobTitleText || j.jobTitleText || null,
    seoLink: h.seoJobLink || null,
    jobLink: h.jobLink || null,
    applyUrl: h.applyUrl || null,
    employer: {
      id: e.id !== undefined ? e.id : null,
      // The name the job's pane shows: the flattened details name it (co.in, 2026: the profile's
      // short name, "ITWorks InfoTech" for the listing's "Infotech.Works").
      name: (view && view.shownName) || h.employerNameFromSearch || e.name || null,
      shortName: e.shortName || null,
      rating: typeof h.rating === 'number' ? h.rating :
          (e.ratings && typeof e.ratings.overallRating === 'number' ? e.ratings.overallRating : null),
      logoUrl: e.squareLogoUrl || null,
      overviewUrl: (e.links && e.links.overviewUrl) ||
          (view && view.overview && view.overview.links && view.overview.links.overviewUrl) || null,
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
    // The skills the page lists, in its language ("Gestion des risques"), where it lists them;
    // else the listing's extracted ones (in English).
    skills: shownSkills.length ? shownSkills : attrs.skillsLabel || [],
    jobTypes: h.jobType || [],
    discoverDate: j.discoverDate || null,
    ageInDays: h.ageInDays,
    expired: h.expired === true,
    easyApply: h.easyApply,
  };
}
