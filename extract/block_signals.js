// Reads what tells a block page from a real one; block_detection.cpp decides. Runs before every
// endpoint's own script. Works on HTML and on XML documents (feeds have no body).
() => {
  // Widgets of the captcha and challenge services sites put in front of their pages.
  const CAPTCHA_SELECTORS = [
    'iframe[src*="recaptcha"]', '.g-recaptcha', '#recaptcha', 'iframe[src*="hcaptcha"]',
    '.h-captcha', '#captcha-form', 'form[action*="/sorry/"]', '#challenge-form',
    '#challenge-running', '#cf-challenge-running', '.cf-turnstile', '[id^="px-captcha"]',
    '#px-captcha-wrapper', 'iframe[src*="captcha-delivery.com"]', '#sec-if-cpt-container',
  ];
  // A form that only asks to accept or reject cookies (Google's consent.google.com and the like).
  const CONSENT_SELECTORS = [
    'form[action*="consent."]', 'form[action*="/consent"]', 'iframe[src*="consent."]',
  ];
  const root = document.documentElement;
  const body = document.body;
  const visible = body ? (body.innerText || '') : (root ? root.textContent || '' : '');
  const trimmed = visible.replace(/\s+/g, ' ').trim();
  const matched = (list) => list.filter((s) => {
    try { return document.querySelector(s) !== null; } catch (e) { return false; }
  });
  return {
    url: location.href,
    title: document.title || '',
    text: trimmed.slice(0, 3000).toLowerCase(),
    textLength: trimmed.length,
    elementCount: document.getElementsByTagName('*').length,
    captcha: matched(CAPTCHA_SELECTORS),
    consentForm: matched(CONSENT_SELECTORS).length > 0,
  };
}
