// The detector's service worker: answers a message with what its navigator says (detector.js
// compares it with the page's). A service worker runs apart from any page, so a user agent set
// only for the page's frames does not reach it.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  event.ports[0].postMessage({
    userAgent: navigator.userAgent,
    brands: navigator.userAgentData ? navigator.userAgentData.brands : null,
    platform: navigator.userAgentData ? navigator.userAgentData.platform : null,
    mobile: navigator.userAgentData ? navigator.userAgentData.mobile : null,
    languages: navigator.languages,
  });
});
