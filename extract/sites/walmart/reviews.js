// Reads a Walmart product or review page: the reviews object and the product's fields the answer
// names, from the Next.js data the page is rendered from (`script#__NEXT_DATA__`). The object is
// returned unchanged but for its media lists (not part of the answer), so the shaping is the same
// for every page that carries it.
(args, kit) => {
  const SEL = {canonical: 'link[rel="canonical"]'};
  const next = kit.nextData();
  const data = next && next.props && next.props.pageProps && next.props.pageProps.initialData &&
      next.props.pageProps.initialData.data;
  const reviews = data && data.reviews ? Object.assign({}, data.reviews) : null;
  if (reviews) {
    delete reviews.topProductMedia;
    delete reviews.topRankedReviewMedia;
  }
  const p = data && data.product;
  const product = p ? {
    usItemId: p.usItemId, id: p.id, name: p.name, brand: p.brand, canonicalUrl: p.canonicalUrl,
    averageRating: p.averageRating, numberOfReviews: p.numberOfReviews,
    conditionGroupCode: p.conditionGroupCode,
    image: p.imageInfo && (p.imageInfo.thumbnailUrl ||
        (p.imageInfo.allImages && p.imageInfo.allImages[0] && p.imageInfo.allImages[0].url)),
  } : null;
  const canonical = document.querySelector(SEL.canonical);
  return {
    hasNextData: !!next,
    page: next ? next.page : null,
    locale: next ? next.locale || null : null,
    lang: document.documentElement.getAttribute('lang'),
    canonical: canonical ? canonical.href : null,
    product,
    reviews,
  };
}
