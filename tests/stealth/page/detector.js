// The detector page's checks (docs/stealth.md says what each guards and what a person's Chrome
// shows). Each check is {pass, value}; the verdict {checks, bot} is written into
// #stealth-verdict and sent to the server (/stealth/report), which answers the page's held
// iframe once it has it (early.js), so the load event follows the verdict.
import {load} from '/stealth/botd/botd.esm.js';

const S = window.__stealth;
const checks = {};
function put(name, pass, value) {
  checks[name] = {pass: Boolean(pass), value};
}
async function attempt(name, body) {
  try {
    await body();
  } catch (e) {
    put(name, false, 'threw: ' + String((e && e.message) || e));
  }
}
function within(ms, promise) {
  return Promise.race([promise, new Promise((_, reject) =>
      setTimeout(() => reject(new Error('no answer within ' + ms + ' ms')), ms))]);
}

const ua = navigator.userAgent;
const major = (ua.match(/Chrome\/(\d+)/) || [])[1];
const android = /Android/.test(ua);
const handheld = android;
const phone = /Mobile/.test(ua);
const uaPlatform = android ? 'Android' : /Windows/.test(ua) ? 'Windows'
                 : /Mac OS X/.test(ua) ? 'macOS' : /Linux|X11|CrOS/.test(ua) ? 'Linux' : '?';

// What a worker or a service worker says about itself (worker.js, sw.js answer with it).
function identityHere() {
  return {
    userAgent: navigator.userAgent,
    brands: navigator.userAgentData ? navigator.userAgentData.brands : null,
    platform: navigator.userAgentData ? navigator.userAgentData.platform : null,
    mobile: navigator.userAgentData ? navigator.userAgentData.mobile : null,
    languages: navigator.languages,
  };
}
const here = identityHere();
function sameIdentity(other) {
  return JSON.stringify(other) === JSON.stringify(here);
}

await attempt('botd', async () => {
  const detector = await load({monitoring: false});
  const result = detector.detect();
  const detections = detector.getDetections() || {};
  const triggered = Object.keys(detections).filter((k) => detections[k].bot);
  put('botd', result.bot === false, {result, triggered});
});

put('webdriver', navigator.webdriver === false, navigator.webdriver);

put('user_agent', !/headless/i.test(ua + ' ' + navigator.appVersion) && Boolean(major),
    {userAgent: ua, appVersion: navigator.appVersion});

await attempt('brands', async () => {
  const data = navigator.userAgentData;
  if (!data) return put('brands', false, 'navigator.userAgentData is missing');
  const brands = data.brands;
  const version = (name) => (brands.find((b) => b.brand === name) || {}).version;
  const grease = brands.filter((b) => /^Not.A.Brand$/.test(b.brand));
  put('brands',
      brands.length === 3 && version('Google Chrome') === major && version('Chromium') === major &&
          grease.length === 1 && data.mobile === phone && data.platform === uaPlatform,
      {brands, mobile: data.mobile, platform: data.platform, userAgentMajor: major});
});

await attempt('high_entropy', async () => {
  const data = navigator.userAgentData;
  if (!data) return put('high_entropy', false, 'navigator.userAgentData is missing');
  const v = await data.getHighEntropyValues(
      ['architecture', 'bitness', 'model', 'platformVersion', 'fullVersionList', 'uaFullVersion']);
  const chrome = (v.fullVersionList || []).find((b) => b.brand === 'Google Chrome');
  const full = chrome ? chrome.version : '';
  put('high_entropy',
      full.startsWith(major + '.') && !/\.0\.0\.0$/.test(full) && v.uaFullVersion === full &&
          (handheld ? v.model !== '' : v.architecture === 'x86' && v.bitness === '64'),
      v);
});

put('languages',
    navigator.languages.length > 0 && navigator.language === navigator.languages[0],
    {language: navigator.language, languages: navigator.languages});

await attempt('headers', async () => {
  // The headers the server saw for a request of this page (a fetch: what the document's request
  // carried is recorded by the server too).
  const seen = await within(5000, fetch('/stealth/headers?run=' + encodeURIComponent(S.run))
                                      .then((r) => r.json()));
  const data = navigator.userAgentData;
  const brands = data ? data.brands.map((b) => '"' + b.brand + '";v="' + b.version + '"')
                            .join(', ') : '';
  const firstLanguage = (seen['accept-language'] || '').split(/[,;]/)[0];
  put('headers',
      seen['user-agent'] === ua && seen['sec-ch-ua'] === brands &&
          seen['sec-ch-ua-mobile'] === (phone ? '?1' : '?0') &&
          seen['sec-ch-ua-platform'] === '"' + uaPlatform + '"' &&
          firstLanguage === navigator.language,
      {seen, expectedSecChUa: brands});
});

await attempt('worker', async () => {
  const worker = new Worker('/stealth/worker.js');
  const reply = await within(5000, new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error('worker failed: ' + (e.message || 'error')));
    worker.postMessage('identity');
  }));
  worker.terminate();
  put('worker', sameIdentity(reply), reply);
});

await attempt('service_worker', async () => {
  if (!navigator.serviceWorker) return put('service_worker', false, 'no navigator.serviceWorker');
  const registration = await within(
      5000, navigator.serviceWorker.register('/stealth/sw.js', {scope: '/stealth/'}));
  const active = await within(5000, new Promise((resolve) => {
    const worker = registration.active || registration.waiting || registration.installing;
    if (worker.state === 'activated') return resolve(worker);
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve(worker);
    });
  }));
  const reply = await within(5000, new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => resolve(e.data);
    active.postMessage('identity', [channel.port2]);
  }));
  await registration.unregister();
  put('service_worker', sameIdentity(reply), reply);
});

{
  const m = {outerWidth, outerHeight, innerWidth, innerHeight, screenWidth: screen.width,
             screenHeight: screen.height, availWidth: screen.availWidth,
             availHeight: screen.availHeight, devicePixelRatio};
  const fits = outerWidth >= innerWidth && screen.width >= outerWidth &&
               screen.height >= outerHeight && screen.availHeight <= screen.height;
  // A desktop window has its tab strip and toolbar above the page.
  put('window_metrics', fits && (handheld ? outerHeight >= innerHeight : outerHeight > innerHeight),
      m);
}

{
  const names = Array.from(navigator.plugins, (p) => p.name);
  const types = Array.from(navigator.mimeTypes, (t) => t.type);
  const shaped = Object.getPrototypeOf(navigator.plugins) === PluginArray.prototype &&
                 Object.getPrototypeOf(navigator.mimeTypes) === MimeTypeArray.prototype;
  // Chrome on a desktop lists its PDF viewer five times over and two PDF types; on Android none.
  const expected = handheld
      ? names.length === 0 && types.length === 0 && navigator.pdfViewerEnabled === false
      : names.length === 5 && names.includes('PDF Viewer') && types.length === 2 &&
            navigator.pdfViewerEnabled === true;
  put('plugins', shaped && expected,
      {plugins: names, mimeTypes: types, pdfViewerEnabled: navigator.pdfViewerEnabled});
}

{
  // Functions a patch would replace: each must still print as native code, with the name a
  // native one has, and have no prototype of its own (a JavaScript function has one).
  const descriptor = (proto, key) => Object.getOwnPropertyDescriptor(proto, key) || {};
  const candidates = {
    'get webdriver': descriptor(Navigator.prototype, 'webdriver').get,
    'get userAgent': descriptor(Navigator.prototype, 'userAgent').get,
    'get languages': descriptor(Navigator.prototype, 'languages').get,
    'get plugins': descriptor(Navigator.prototype, 'plugins').get,
    'get platform': descriptor(Navigator.prototype, 'platform').get,
    'get hardwareConcurrency': descriptor(Navigator.prototype, 'hardwareConcurrency').get,
    'get userAgentData': descriptor(Navigator.prototype, 'userAgentData').get,
    'get outerWidth': descriptor(window, 'outerWidth').get,
    'get outerHeight': descriptor(window, 'outerHeight').get,
    'get permission': typeof Notification === 'function' ? descriptor(Notification, 'permission').get : null,
    'query': Permissions.prototype.query,
    'getParameter': WebGLRenderingContext.prototype.getParameter,
    'toDataURL': HTMLCanvasElement.prototype.toDataURL,
    'getHighEntropyValues': window.NavigatorUAData && NavigatorUAData.prototype.getHighEntropyValues,
    'toString': Function.prototype.toString,
    'attachShadow': Element.prototype.attachShadow,
  };
  const wrong = [];
  for (const [name, f] of Object.entries(candidates)) {
    if (typeof f !== 'function') {
      wrong.push(name + ': missing');
      continue;
    }
    const text = Function.prototype.toString.call(f);
    if (text !== 'function ' + name + '() { [native code] }') wrong.push(name + ': ' + text);
    else if (Object.prototype.hasOwnProperty.call(f, 'prototype')) wrong.push(name + ': prototype');
  }
  const ownNavigator = Object.getOwnPropertyNames(navigator);
  if (ownNavigator.length) wrong.push('navigator own properties: ' + ownNavigator.join(','));
  put('native_functions', wrong.length === 0, wrong);
}

{
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl');
  let value = 'no WebGL context';
  if (gl) {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    value = {
      vendor: gl.getParameter(gl.VENDOR),
      renderer: gl.getParameter(gl.RENDERER),
      unmaskedVendor: info ? gl.getParameter(info.UNMASKED_VENDOR_WEBGL) : null,
      unmaskedRenderer: info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : null,
    };
  }
  // A software renderer that only automation ships (SwiftShader, Mesa's off-screen one) gives the
  // browser away; no WebGL at all is what Chromium shows on a machine without a usable GPU
  // (docs/stealth.md).
  put('webgl', !gl || !/SwiftShader|Mesa OffScreen|llvmpipe/i.test(JSON.stringify(value)), value);
}

{
  const c = window.chrome;
  const members = c ? Object.keys(c).sort() : [];
  put('window_chrome',
      typeof c === 'object' && typeof c.loadTimes === 'function' && typeof c.csi === 'function' &&
          typeof c.app === 'object',
      members);
}

await attempt('notification_permission', async () => {
  const state = (await navigator.permissions.query({name: 'notifications'})).state;
  const permission = typeof Notification === 'function' ? Notification.permission : 'none';
  const agree = {default: 'prompt', denied: 'denied', granted: 'granted'}[permission] === state;
  put('notification_permission', agree, {permission, state});
});

put('hardware', navigator.hardwareConcurrency > 0 && navigator.deviceMemory > 0,
    {hardwareConcurrency: navigator.hardwareConcurrency, deviceMemory: navigator.deviceMemory});

{
  // The page's CSP allows neither inline scripts without the nonce nor eval: with the CSP
  // bypassed (Page.setBypassCSP) both run.
  let evalRan = false;
  try {
    evalRan = (0, eval)('true');
  } catch (e) {
    evalRan = false;
  }
  const inlineRan = window.__stealthCspBypassed === true;
  put('csp_untouched', !inlineRan && !evalRan, {inlineScriptRan: inlineRan, evalRan});
}

put('runtime_enable', S.stackReads === 0, S.reads);
put('main_world', S.foreignCalls.length === 0, S.foreignCalls);

const verdict = {run: S.run, bot: checks.botd ? !checks.botd.pass : true, checks};
const text = JSON.stringify(verdict);
document.getElementById('stealth-verdict').textContent = text;
fetch('/stealth/report?run=' + encodeURIComponent(S.run) + '&v=' + encodeURIComponent(text));
