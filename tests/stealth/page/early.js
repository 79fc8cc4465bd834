// The detector page's first script (a classic one, run while the head is parsed, before anything
// a browser's automation could run in the page's world after the document committed). It sets the
// traps whose springing the server is told of at once, by a synchronous request, so the record is
// complete by the time the call that sprang it returns:
//  - main_world: DOM methods and getters a reading script uses, called by code that is not this
//    page's own (no frame of /stealth/ on the stack): a script of the automation in the page's
//    world. The stack is sent too (it names the automation's sourceURL, if any);
//  - runtime_enable: an Error whose `stack` getter counts reads, logged with console.debug every
//    100 ms: only a DevTools client with the Runtime domain enabled makes V8 read it;
//  - event: every click, key and input on the page with its isTrusted, and whether the pointer
//    moved onto the page before a click (a person's hand, or Input.dispatchMouseEvent, moves it);
//  - the hold: an iframe whose document the server answers only once this run's verdict arrived,
//    so the page's load event waits for the verdict whatever road loads it.
(function () {
  'use strict';
  const params = new URLSearchParams(location.search);
  // POST /scrape/web passes ?run=; a site endpoint builds its own URL, where the run is the query.
  const run = params.get('run') || params.get('q') || 'none';
  const own = /\/stealth\//;

  function touch(check, detail) {
    try {
      const request = new XMLHttpRequest();
      request.open('GET', '/stealth/touch?run=' + encodeURIComponent(run) + '&check=' +
                              encodeURIComponent(check) + '&detail=' +
                              encodeURIComponent(String(detail).slice(0, 1500)),
                   false);
      request.send();
    } catch (e) {
      // A page that is being left cannot send: nothing to do.
    }
  }

  const state = {run, touch, stackReads: 0, foreignCalls: [], events: [], cspViolations: 0,
                 moved: false};
  Object.defineProperty(window, '__stealth', {value: state});

  // The hold (see above).
  const hold = document.createElement('iframe');
  hold.src = '/stealth/hold?run=' + encodeURIComponent(run);
  hold.style.display = 'none';
  hold.title = 'hold';
  document.documentElement.appendChild(hold);

  document.addEventListener('securitypolicyviolation', () => { state.cspViolations++; });

  // runtime_enable: an Error logged with console.debug whose `stack` and `name` are accessors
  // that count their reads. Chromium itself reads `name` once per call (the message's text for
  // its own log); with a DevTools client that enabled Runtime, V8's inspector also describes the
  // error for the client's console event: it reads `name` a second time (Chromium 156, measured
  // against a windowed Chromium with no client at all) or `stack` (older V8).
  let runtimeReported = false;
  state.reads = {baits: 0, extra: 0};
  function bait() {
    state.reads.baits++;
    let stack = 0, name = 0;
    const error = new Error('bait');
    Object.defineProperty(error, 'stack', {configurable: true, get() { stack++; return ''; }});
    console.debug(error);
    const named = new Error('bait');
    Object.defineProperty(named, 'name', {configurable: true, get() { name++; return 'Error'; }});
    console.debug(named);
    const extra = stack + Math.max(0, name - 1);
    if (extra === 0) return;
    state.reads.extra += extra;
    state.stackReads += extra;
    if (!runtimeReported) {
      runtimeReported = true;
      touch('runtime_enable', 'a logged Error was described: stack read ' + stack + ', name read ' +
                                  name + ' times');
    }
  }
  bait();
  setInterval(bait, 100);

  // main_world.
  const reported = new Set();
  function foreign(name) {
    // The first lines are the error's message, this function and the trap that called it.
    const stack = String(new Error().stack).split('\n').slice(3).join('\n');
    if (own.test(stack)) return;
    state.foreignCalls.push(name);
    if (reported.has(name)) return;
    reported.add(name);
    touch('main_world', name + '\n' + stack);
  }
  function trapMethod(proto, key, label) {
    const original = proto[key];
    if (typeof original !== 'function') return;
    proto[key] = function () {
      foreign(label);
      return original.apply(this, arguments);
    };
  }
  function trapGetter(proto, key, label) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    if (!descriptor || !descriptor.get) return;
    const get = descriptor.get;
    Object.defineProperty(proto, key, {
      configurable: true,
      enumerable: descriptor.enumerable,
      get() {
        foreign(label);
        return get.call(this);
      },
      set: descriptor.set,
    });
  }
  trapMethod(Document.prototype, 'querySelector', 'document.querySelector');
  trapMethod(Document.prototype, 'querySelectorAll', 'document.querySelectorAll');
  trapMethod(Element.prototype, 'querySelector', 'Element.querySelector');
  trapMethod(Element.prototype, 'querySelectorAll', 'Element.querySelectorAll');
  trapMethod(Document.prototype, 'evaluate', 'document.evaluate');
  trapMethod(Document.prototype, 'getElementsByTagName', 'document.getElementsByTagName');
  trapMethod(Element.prototype, 'getBoundingClientRect', 'Element.getBoundingClientRect');
  trapMethod(Element.prototype, 'scrollIntoView', 'Element.scrollIntoView');
  trapMethod(HTMLElement.prototype, 'click', 'HTMLElement.click');
  trapMethod(HTMLElement.prototype, 'focus', 'HTMLElement.focus');
  trapMethod(EventTarget.prototype, 'dispatchEvent', 'EventTarget.dispatchEvent');
  trapMethod(XMLSerializer.prototype, 'serializeToString', 'XMLSerializer.serializeToString');
  trapMethod(window, 'scrollTo', 'window.scrollTo');
  trapMethod(window, 'scrollBy', 'window.scrollBy');
  trapMethod(window, 'getComputedStyle', 'window.getComputedStyle');
  trapGetter(Element.prototype, 'outerHTML', 'Element.outerHTML');
  trapGetter(Element.prototype, 'innerHTML', 'Element.innerHTML');
  trapGetter(HTMLElement.prototype, 'innerText', 'HTMLElement.innerText');
  trapGetter(Node.prototype, 'textContent', 'Node.textContent');
  trapGetter(Document.prototype, 'readyState', 'document.readyState');
  trapGetter(Document.prototype, 'doctype', 'document.doctype');
  const NativeObserver = window.MutationObserver;
  window.MutationObserver = function MutationObserver(callback) {
    foreign('MutationObserver');
    return new NativeObserver(callback);
  };
  window.MutationObserver.prototype = NativeObserver.prototype;

  // event.
  document.addEventListener('mousemove', (e) => { if (e.isTrusted) state.moved = true; }, true);
  for (const type of ['click', 'keydown', 'input']) {
    document.addEventListener(type, (e) => {
      const target = e.target && e.target.id ? e.target.id : String(e.target);
      const line = type + ' on ' + target + ' trusted=' + e.isTrusted +
                   (type === 'click' ? ' moved=' + state.moved : '');
      state.events.push(line);
      touch('event', line);
    }, true);
  }
})();
