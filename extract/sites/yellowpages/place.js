// Reads a yellowpages.com business page: its LocalBusiness JSON-LD (any subtype), and from the
// markup the years in business, payment methods, e-mail and photos the JSON-LD leaves out.
(args, kit) => {
  const SEL = {
    years: '.years-in-business .count, .years-in-business',
    payment: 'dd.payment, .payment',
    email: 'a.email-business[href^="mailto:"]',
    website: 'a.website-link, a.primary-btn.website-link',
    photos: '.media-thumbnail img, .collage img',
    categories: '.categories a',
  };
  const types = ['LocalBusiness', 'Restaurant', 'Store', 'ProfessionalService', 'HomeAndConstructionBusiness',
                 'AutomotiveBusiness', 'FoodEstablishment', 'HealthAndBeautyBusiness', 'LegalService',
                 'MedicalBusiness', 'FinancialService', 'Plumber', 'Dentist'];
  const email = document.querySelector(SEL.email);
  const website = document.querySelector(SEL.website);
  return {
    url: location.href,
    nodes: kit.jsonLd(),
    business: kit.jsonLd(types)[0] || null,
    years: kit.text(SEL.years),
    payment: kit.text(SEL.payment),
    email: email ? email.getAttribute('href').slice(7) : null,
    website: website ? website.href : null,
    photos: Array.from(document.querySelectorAll(SEL.photos), (i) => i.getAttribute('src')).filter((u) => u),
    categories: kit.texts(SEL.categories),
  };
}
