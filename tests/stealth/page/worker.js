// The detector's dedicated worker: answers with what its navigator says (detector.js compares it
// with the page's).
onmessage = () => {
  postMessage({
    userAgent: navigator.userAgent,
    brands: navigator.userAgentData ? navigator.userAgentData.brands : null,
    platform: navigator.userAgentData ? navigator.userAgentData.platform : null,
    mobile: navigator.userAgentData ? navigator.userAgentData.mobile : null,
    languages: navigator.languages,
  });
};
