// Reads an Indeed job: the view model of `window._initialData` (read from the script text, so it
// works before and without the site's scripts), on a job page (`jobInfoWrapperModel` at the top)
// or on a search page that shows the job beside the list (`autoOpenTwoPaneViewjobResponse.body`),
// the job's GraphQL record (`hostQueryExecutionResult`), and the JSON-LD JobPosting where the page
// has one. The description is returned as sanitised HTML and as text. `args.jobKey` is the job
// asked for: the model of another job is not returned.
(args, kit) => {
  const SEL = {description: '#jobDescriptionText'};
  const initial = kit.windowObject('_initialData');
  let body = null;
  if (initial && initial.jobInfoWrapperModel) body = initial;
  else if (initial && initial.autoOpenTwoPaneViewjobResponse) {
    body = initial.autoOpenTwoPaneViewjobResponse.body || null;
  }
  const model = body && body.jobInfoWrapperModel && body.jobInfoWrapperModel.jobInfoModel;
  const results = body && body.hostQueryExecutionResult &&
      body.hostQueryExecutionResult.data && body.hostQueryExecutionResult.data.jobData &&
      body.hostQueryExecutionResult.data.jobData.results;
  const record = results && results[0] ? results[0].job : null;
  const key = (body && body.jobKey) || (record && record.key) ||
      (initial && initial.autoOpenTwoPaneJobKey) || null;

  const html = (model && model.sanitizedJobDescription) ||
      (document.querySelector(SEL.description) || {}).innerHTML || '';
  const postings = kit.jsonLd('JobPosting');
  return {
    jobKey: key,
    siteData: !!initial,
    asked: args.jobKey,
    header: model ? model.jobInfoHeaderModel : null,
    metadata: model ? model.jobMetadataHeaderModel : null,
    details: model && model.jobDescriptionSectionModel ?
        model.jobDescriptionSectionModel.jobDetailsSection : null,
    expired: model ? {header: model.showExpiredHeader, metadata: model.expiredJobMetadataModel} : null,
    commute: model ? model.commuteInfoModel : null,
    salary: body ? body.salaryInfoModel : null,
    benefits: body && body.benefitsModel ? body.benefitsModel.benefits : null,
    record: record ? {key: record.key, title: record.title, datePublished: record.datePublished,
                      expired: record.expired, url: record.url,
                      employer: record.sourceEmployerName} : null,
    descriptionHtml: kit.safeHtml(html),
    description: kit.htmlText(html),
    posting: postings[0] || null,
    lang: document.documentElement.getAttribute('lang'),
  };
}
