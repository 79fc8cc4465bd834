// One jsScenario step in the page (extract/scenario/scenario.h): ONE function expression (the
// convention of extract/endpoint.h), called with
//   {kind, selector, text, amount, maxCount, delay, endClick, timeout, trusted}
// and resolving {ok: true, value?, point?, keys?} or {ok: false, error}. `timeout` (ms) bounds
// every wait of the step: what is left of the scenario's 60 s of waits and of the request's time.
// It never rejects. With `trusted` (a tab that offers trusted input, extract/tab.h) a click, a fill
// and a press dispatch nothing here: the step scrolls its element into view and answers where to
// click (`point`, the element's centre in CSS pixels of the viewport) and whether to type
// (`keys`), and the caller's mouse and keyboard do it (isTrusted events, as a person's).
(step) => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  const started = performance.now();
  const left = () => step.timeout - (performance.now() - started);

  // CSS, or XPath when the selector starts with '/' or '(' (or './').
  const find = (selector) => {
    if (/^(\/|\(|\.\.?\/)/.test(selector)) {
      const r = document.evaluate(selector, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null);
      const node = r.singleNodeValue;
      return node && node.nodeType === 1 ? node : null;
    }
    return document.querySelector(selector);
  };
  const visible = (el) => el.getClientRects().length > 0;
  // Resolves the element once it is there (and shown, when asked), null when `ms` pass first.
  const waitFor = async (selector, ms, mustShow) => {
    for (;;) {
      const el = find(selector);
      if (el && (!mustShow || visible(el))) return el;
      if (ms - (performance.now() - started) <= 0) return null;
      await sleep(Math.min(50, ms - (performance.now() - started)));
    }
  };
  // Where a trusted click lands: the centre of the element's first box, once scrolled into view;
  // null when a click there would not reach it (not rendered, or covered by another element),
  // where the step falls back to a script's click as a person could not click it at all.
  const pointAt = (el) => {
    el.scrollIntoView({block: 'center', inline: 'center'});
    const box = el.getClientRects()[0];
    if (!box || box.width === 0 || box.height === 0) return null;
    const point = {x: box.left + box.width / 2, y: box.top + box.height / 2};
    const hit = document.elementFromPoint(point.x, point.y);
    return hit && (hit === el || el.contains(hit)) ? point : null;
  };
  const click = (el) => {
    el.scrollIntoView({block: 'center', inline: 'center'});
    const opts = {bubbles: true, cancelable: true, view: window, composed: true};
    // Pointer and mouse events first, for pages that listen to those rather than to click.
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup']) {
      const Ctor = type.startsWith('pointer') && typeof PointerEvent === 'function' ? PointerEvent : MouseEvent;
      el.dispatchEvent(new Ctor(type, opts));
    }
    if (typeof el.focus === 'function') el.focus();
    // click(): dispatches the click and runs its activation (follows a link, submits a form).
    el.click();
  };
  const setValue = (el, value) => {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
        : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
    setter.call(el, value);  // the native setter, so frameworks that track value see a change
  };
  const fire = (el, type) => el.dispatchEvent(new Event(type, {bubbles: true}));
  const height = () => Math.max(
      document.documentElement ? document.documentElement.scrollHeight : 0,
      document.body ? document.body.scrollHeight : 0);

  const run = async () => {
    switch (step.kind) {
      case 'click': {
        const el = find(step.selector);
        if (!el) return {ok: false, error: 'no element matches ' + step.selector};
        const point = step.trusted ? pointAt(el) : null;
        if (point) return {ok: true, point};
        click(el);
        return {ok: true};
      }
      case 'waitFor': {
        const el = await waitFor(step.selector, step.timeout, false);
        return el ? {ok: true} : {ok: false, error: 'no element matched ' + step.selector +
                                  ' within ' + Math.round(step.timeout) + ' ms'};
      }
      case 'waitForAndClick': {
        const el = await waitFor(step.selector, step.timeout, true);
        if (!el) {
          return {ok: false, error: 'no visible element matched ' + step.selector + ' within ' +
                  Math.round(step.timeout) + ' ms'};
        }
        const point = step.trusted ? pointAt(el) : null;
        if (point) return {ok: true, point};
        click(el);
        return {ok: true};
      }
      case 'scrollX':
      case 'scrollY': {
        window.scrollBy(step.kind === 'scrollX' ? step.amount : 0, step.kind === 'scrollY' ? step.amount : 0);
        return {ok: true};
      }
      case 'fill': {
        const el = find(step.selector);
        if (!el) return {ok: false, error: 'no element matches ' + step.selector};
        // Only text is typed; a <select>, a date or a checkbox gets its value set as below.
        const typable = el.isContentEditable || el instanceof HTMLTextAreaElement ||
            (el instanceof HTMLInputElement &&
             /^(text|search|email|url|tel|password|number)$/.test(el.type));
        if (step.trusted && typable) {
          // Clicked into, its content selected, the text typed over it by the caller.
          const point = pointAt(el);
          if (point) return {ok: true, point, keys: step.text};
        }
        if (typeof el.focus === 'function') el.focus();
        if (el.isContentEditable) {
          el.textContent = step.text;
        } else if ('value' in el) {
          setValue(el, step.text);
        } else {
          return {ok: false, error: step.selector + ' is not a field'};
        }
        fire(el, 'input');
        fire(el, 'change');
        return {ok: true};
      }
      case 'press': {
        if (step.trusted) return {ok: true, keys: step.text};
        const el = document.activeElement || document.body;
        const key = step.text;
        const code = key.length === 1 ? (/[a-z]/i.test(key) ? 'Key' + key.toUpperCase() : /[0-9]/.test(key) ? 'Digit' + key : '') : key;
        const opts = {key, code, bubbles: true, cancelable: true, composed: true};
        const go = el.dispatchEvent(new KeyboardEvent('keydown', opts));
        if (go && key.length === 1) {
          el.dispatchEvent(new KeyboardEvent('keypress', opts));
          if ('value' in el && !el.readOnly && !el.disabled && typeof el.value === 'string') {
            setValue(el, el.value + key);
            fire(el, 'input');
          }
        }
        el.dispatchEvent(new KeyboardEvent('keyup', opts));
        // Enter in a form's field submits the form (implicit submission), as a user's key does.
        if (go && key === 'Enter' && el.form && !(el instanceof HTMLTextAreaElement)) {
          if (typeof el.form.requestSubmit === 'function') el.form.requestSubmit();
          else el.form.submit();
        }
        return {ok: true};
      }
      case 'infiniteScroll': {
        let last = height();
        let scrolls = 0;
        let reason = 'maxCount';
        while (scrolls < step.maxCount) {
          window.scrollTo(0, height());
          scrolls++;
          if (left() <= 0) {
            reason = 'time';
            break;
          }
          await sleep(Math.min(step.delay, left()));
          let clicked = false;
          if (step.endClick) {
            const el = find(step.endClick);
            if (el && visible(el)) {
              click(el);
              clicked = true;
              await sleep(Math.min(step.delay, left()));
            }
          }
          let now = height();
          if (now <= last && !clicked) {
            // One more delay: content that arrives slowly still counts as growth.
            await sleep(Math.min(step.delay, left()));
            now = height();
            if (now <= last) {
              reason = 'end';
              break;
            }
          }
          last = now;
        }
        return {ok: true, value: {scrolls, stoppedBy: reason, height: height()}};
      }
    }
    return {ok: false, error: 'unknown step ' + step.kind};
  };
  return run().catch((e) => ({ok: false, error: String((e && e.message) || e)}));
}
