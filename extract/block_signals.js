// Reads what tells a block page from a real one; block_detection.cpp decides. Runs before every
// endpoint's own script, whatever the site: a wall is recognised by its vendor's markers, not by
// the site that sent it. Works on HTML and on XML documents (feeds have no body).
//
// Each vendor's markers, from its own pages and public documentation. `strong` markers appear only
// on a wall (a challenge, a captcha or a block page); `weak` ones also appear on ordinary pages of
// protected sites (a sensor script, an invisible captcha on a sign-in form) and count only on a
// page that has next to no content.
() => {
  const VENDORS = [
    {vendor: 'cloudflare',
     strong: {selectors: ['#challenge-form', '#challenge-running', '#challenge-stage',
                          '#challenge-error-text', '#cf-challenge-running', '#cf-error-details',
                          '.cf-browser-verification', '#cf-please-wait'],
              scripts: [/\/cdn-cgi\/challenge-platform\/h\//, /challenges\.cloudflare\.com\/cdn-cgi\/challenge-platform\/h\//],
              inline: [/\b_cf_chl_opt\b/, /\bcf_chl_prog\b/]},
     weak: {selectors: ['.cf-turnstile', 'iframe[src*="challenges.cloudflare.com"]'],
            scripts: [/challenges\.cloudflare\.com\/turnstile\//]}},
    {vendor: 'perimeterx',
     // `#px-captcha-modal` is the frame its client script lays over a real page (Zillow's
     // property pages of 2026 are saved with it): the page under it is the site's.
     strong: {selectors: ['#px-captcha', '[id^="px-captcha"]:not(#px-captcha-modal)',
                          '.px-captcha-container', '#px-captcha-wrapper',
                          'meta[name="description"][content="px-captcha"]'],
              scripts: [/captcha\.px-cdn\.net\//, /captcha\.px-cloud\.net\//, /^\/[A-Za-z0-9]{8}\/captcha\/captcha\.js/],
              inline: [/\b_pxCaptcha\b/, /\bpxCaptcha\b/]},
     weak: {selectors: ['#px-captcha-modal'], inline: [/\b_pxAppId\b/],
            scripts: [/client\.px-cloud\.net\//, /client\.perimeterx\.net\//]}},
    {vendor: 'datadome',
     strong: {selectors: ['iframe[src*="captcha-delivery.com"]'],
              scripts: [/captcha-delivery\.com\//],
              inline: [/geo\.captcha-delivery\.com/, /var dd=\{[^}]*'cid'/]},
     weak: {scripts: [/js\.datadome\.co\//]}},
    {vendor: 'akamai',
     strong: {selectors: ['#sec-if-cpt-container', '#sec-cpt-if', '#sec-text-if', '#sec-container'],
              scripts: [/\/_sec\/cp_challenge\//],
              inline: [/\bbm-verify\b/, /_sec\/verify\?provider=interstitial/],
              links: [/errors\.edgesuite\.net/]},
     weak: {}},
    {vendor: 'aws-waf',
     strong: {selectors: ['#captcha-container[data-awswaf]'],
              scripts: [/captcha-sdk\.awswaf\.com\//, /\.captcha\.awswaf\.com\//],
              inline: [/\bwindow\.gokuProps\s*=/, /\bAwsWafCaptcha\.renderCaptcha\b/]},
     weak: {scripts: [/\.awswaf\.com\/.*challenge\.js/], inline: [/\bAwsWafIntegration\b/]}},
    {vendor: 'imperva',
     strong: {selectors: ['iframe[src*="_Incapsula_Resource"]', 'iframe#main-iframe[src*="Incapsula"]'],
              scripts: [/\/_Incapsula_Resource\?SWJIYLWA=/, /\/_Incapsula_Resource\?SWCGHOEL=/],
              inline: [/Incapsula incident ID/i]},
     weak: {scripts: [/\/_Incapsula_Resource/]}},
    {vendor: 'kasada',
     strong: {scripts: [/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/ips\.js/],
              inline: [/\bKPSDK\.scriptStart\b/]},
     weak: {inline: [/\bKPSDK\b/]}},
    // Its captcha; and the JavaScript check of its search (2025 on): a script that reloads the page
    // once it has run, and a <noscript> refresh to /httpservice/retry/enablejs. A browser that
    // passes goes on to the results, so it counts only while the page shows next to nothing.
    {vendor: 'google',
     strong: {selectors: ['form[action*="/sorry/"]', '#captcha-form']},
     weak: {noscripts: [/\/httpservice\/retry\/enablejs/], links: [/^\/httpservice\/retry\/enablejs/]}},
    // Its robot check: a form posting to /errors/validateCaptcha. And its "Sorry! Something went
    // wrong!" page of the Dogs of Amazon, the 503 it answers a client it throttles (a scraper
    // saves it as 200): its links and image are its error page's own (ref=cs_503_*). The other
    // storefronts' compact template of it (amazon.ca in English and French, amazon.com.br "Algo
    // deu errado") has no such link: its words are its title image, /error/500-title._TTD_.png.
    {vendor: 'amazon',
     strong: {selectors: ['form[action*="/errors/validateCaptcha"]',
                          'a[href*="/ref=cs_503_link"]', 'img[src*="/error/500_503.png"]',
                          'img[src*="/error/500-title."]']}},
    // The vendors below: markers from wafw00f's and identYwaf's block-page signatures and from
    // public scrapers that stop on them (docs/endpoints/README.md, "Walls no page ... shows").
    {vendor: 'sucuri',  // its JavaScript challenge, and its block page's stylesheet and address
     strong: {selectors: ['link[href*="sucuri-firewall-block.css"]'],
              inline: [/\bsucuri_cloudproxy_js\b/],
              links: [/cloudproxy@sucuri\.net/]}},
    {vendor: 'siteground',  // a refresh to its captcha
     strong: {selectors: ['meta[http-equiv="refresh" i][content*="/.well-known/sgcaptcha/"]',
                          'meta[http-equiv="refresh" i][content*="/.well-known/captcha/"]']}},
    {vendor: 'vercel',  // the Security Checkpoint's challenge script
     strong: {scripts: [/\/\.well-known\/vercel\/security\//]}},
    {vendor: 'radware',  // Bot Manager sends a suspect visitor to its validator (its host decides)
     strong: {},
     weak: {inline: [/validate\.perfdrive\.com\//], links: [/validate\.perfdrive\.com\//]}},
    {vendor: 'ddos-guard',  // its challenge's script
     strong: {},
     weak: {scripts: [/check\.ddos-guard\.net\/check\.js/],
            inline: [/\/\.well-known\/ddos-guard\//]}},
    {vendor: 'alibaba',  // Aliyun's JavaScript challenge; Alibaba's TMD punishment captcha
     strong: {scripts: [/\/_____tmd_____\/punish/],
              inline: [/\bacw_sc__v2\b/, /\/_____tmd_____\/punish/]}},
    {vendor: 'ruishu',  // Rivers Security's first-visit challenge; its script is on real pages too
     strong: {},
     weak: {inline: [/\$_ts\s*=\s*window\[['"]\$_ts['"]\]/]}},
    {vendor: 'distil',
     strong: {selectors: ['#distilCaptchaForm'], inline: [/\bdistilCallbackGuard\b/]}},
    {vendor: 'tencent',
     strong: {inline: [/waf\.tencent(-?cloud)?\.com\/(403|501)page\.html/]}},
    {vendor: 'geetest',
     strong: {},
     weak: {scripts: [/static\.geetest\.com\//, /gcaptcha4\.geetest\.com\//]}},
    {vendor: 'arkose',
     strong: {},
     weak: {scripts: [/client-api\.arkoselabs\.com\//, /\.funcaptcha\.com\//]}},
    {vendor: 'recaptcha',
     strong: {},
     weak: {selectors: ['iframe[src*="recaptcha"]', '.g-recaptcha', '#recaptcha'],
            scripts: [/\/recaptcha\/(api|enterprise)\.js/]}},
    {vendor: 'hcaptcha',
     strong: {},
     weak: {selectors: ['iframe[src*="hcaptcha.com"]', '.h-captcha'],
            scripts: [/hcaptcha\.com\/1\/api\.js/]}},
  ];
  // A form that only asks to accept or reject cookies (Google's consent.google.com and the like).
  const CONSENT_SELECTORS = [
    'form[action*="consent."]', 'form[action*="/consent"]', 'iframe[src*="consent."]',
  ];

  const root = document.documentElement;
  const body = document.body;
  const visible = body ? (body.innerText || '') : (root ? root.textContent || '' : '');
  const trimmed = visible.replace(/\s+/g, ' ').trim();
  const exists = (s) => {
    try { return document.querySelector(s) !== null; } catch (e) { return false; }
  };
  const scriptSources = [];
  const inlineScripts = [];
  for (const s of document.getElementsByTagName('script')) {
    const src = s.getAttribute('src');
    if (src) scriptSources.push(src);
    else if (s.textContent) inlineScripts.push(s.textContent.slice(0, 20000));
  }
  // A <noscript>'s content is its markup as text where scripts run (a refresh, a link).
  const noscripts = [];
  for (const n of document.getElementsByTagName('noscript')) {
    if (n.textContent) noscripts.push(n.textContent.slice(0, 5000));
    if (noscripts.length > 20) break;
  }
  const links = [];
  for (const a of document.getElementsByTagName('a')) {
    const href = a.getAttribute('href');
    if (href) links.push(href);
    if (links.length > 200) break;
  }
  // Every marker of `set` found on the page, as "selector", "script:<pattern>", ...
  const found = (set) => {
    const out = [];
    for (const s of set.selectors || []) if (exists(s)) out.push(s);
    for (const re of set.scripts || []) if (scriptSources.some((src) => re.test(src))) out.push('script ' + re.source);
    for (const re of set.inline || []) if (inlineScripts.some((t) => re.test(t))) out.push('inline ' + re.source);
    for (const re of set.links || []) if (links.some((h) => re.test(h))) out.push('link ' + re.source);
    for (const re of set.noscripts || []) if (noscripts.some((t) => re.test(t))) out.push('noscript ' + re.source);
    return out;
  };
  const walls = [];
  for (const v of VENDORS) {
    for (const m of found(v.strong || {})) walls.push({vendor: v.vendor, marker: m, strong: true});
    for (const m of found(v.weak || {})) walls.push({vendor: v.vendor, marker: m, strong: false});
  }
  return {
    url: location.href,
    title: document.title || '',
    text: trimmed.slice(0, 3000).toLowerCase(),
    textLength: trimmed.length,
    elementCount: document.getElementsByTagName('*').length,
    walls,
    consentForm: CONSENT_SELECTORS.some(exists),
  };
}
