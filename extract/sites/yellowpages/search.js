// Reads a Yellow Pages search results page: every LocalBusiness JSON-LD node (the directory
// publishes one per listing), the Australian directory's state (`window.__INITIAL_STATE__.model`:
// inAreaResultViews, pagination), and the result blocks of yellowpages.com's markup for what only
// they show (an ad's label, years in business, the order).
(args, kit) => {
  const SEL = {
    result: '.search-results .result, .search-results .srp-listing',
    name: 'a.business-name',
    ad: '.ad-pill, .ad-label',
    years: '.years-in-business .count, .years-in-business',
    categories: '.categories a',
    count: '.pagination span, .showing-count',
  };
  const TYPES = ['LocalBusiness', 'Restaurant', 'Plumber', 'Store', 'ProfessionalService',
                 'HomeAndConstructionBusiness', 'AutomotiveBusiness', 'FoodEstablishment',
                 'HealthAndBeautyBusiness', 'LegalService', 'MedicalBusiness', 'FinancialService'];
  const state = kit.windowObject('__INITIAL_STATE__');
  const model = state && state.model;
  const results = Array.from(document.querySelectorAll(SEL.result), (r) => {
    const name = r.querySelector(SEL.name);
    return {
      name: name ? kit.text(name) : '',
      link: name ? name.href : null,
      isAd: !!r.querySelector(SEL.ad) || /\bpaid-listing\b/.test(r.className),
      years: kit.text(SEL.years, r),
      categories: kit.texts(SEL.categories, r),
    };
  });
  return {
    url: location.href,
    jsonLd: kit.jsonLd(TYPES),
    au: model ? {results: model.inAreaResultViews || [], pagination: model.pagination || null,
                 page: model.requestPageNumber || null} : null,
    results,
    count: kit.text(SEL.count),
  };
}
