// Prepares a loaded page for a full-page screenshot, within a time budget, and reports how it went.
// Called as (options) with {scroll, maxSteps, maxHeight, budgetMs}; returns
// {devicePixelRatio, steps, lazy, pendingImages, elapsedMs}.
//
// Lazy content comes in two kinds: native loading="lazy" images and iframes, which only need to
// be made eager (no scrolling), and script loaders that swap in the real source when an element
// nears the viewport (an IntersectionObserver or a scroll handler). Only the second kind needs the
// page scrolled, and scrolling costs one rendering update per viewport (~17 ms each, 20 steps on
// a 16,000 px page), so the page is scrolled only when it shows signs of such a loader:
// - markup that lazy-load libraries leave (data-src, data-srcset, data-lazy*, a "lazy" class, an
//   <img> without a source);
// - or a change after one probe: the page scrolled to its bottom for one rendering update grows,
//   or an image there changes its source (observer-driven content without known markup).
// Then it is scrolled down one viewport at a time, each step waiting for one rendering update
// (observers compute intersections then), and back to the top. Last, images still loading are
// awaited, with what is left of the budget.
async (options) => {
  const started = performance.now();
  const timeLeft = () => options.budgetMs - (performance.now() - started);

  // Resolves after the next rendering update: the frame's animation callbacks run, then the same
  // update computes intersections (observers' callbacks are queued then); the timer task runs after
  // that update. The outer timer covers pages that produce no frames.
  const nextFrame = () => new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(fallback);
      resolve();
    }, 0));
  });
  const scrollToTop = (top) => window.scrollTo({top, left: 0, behavior: 'instant'});

  for (const element of document.querySelectorAll('img[loading="lazy"], iframe[loading="lazy"]')) {
    element.loading = 'eager';
  }

  const scroller = document.scrollingElement || document.documentElement;
  const viewportHeight = Math.max(window.innerHeight, 100);
  const scrollable = () => Math.min(scroller.scrollHeight, options.maxHeight) > viewportHeight;

  const hasLazyMarkup = () => document.querySelector(
      'img[data-src], img[data-srcset], source[data-srcset], iframe[data-src], ' +
      '[data-lazy], [data-lazy-src], [data-bg], [data-background], .lazy, .lazyload, ' +
      '.lazyloaded, .lazyloading, img:not([src]):not([srcset]), img[src=""]') !== null;

  // One probe: the bottom of the page for one rendering update. Growth or a source swapped in
  // there means something reacts to scrolling.
  const changesWhenScrolled = async () => {
    const sources = () => Array.from(document.images, (image) => image.currentSrc || image.src);
    const heightBefore = scroller.scrollHeight;
    const sourcesBefore = sources();
    scrollToTop(Math.min(heightBefore, options.maxHeight) - viewportHeight);
    await nextFrame();
    // Observer callbacks queued by that update ran before nextFrame resolved; their loads may
    // start a task later.
    await nextFrame();
    const sourcesAfter = sources();
    return scroller.scrollHeight > heightBefore || sourcesAfter.length !== sourcesBefore.length ||
        sourcesAfter.some((source, i) => source !== sourcesBefore[i]);
  };

  let steps = 0;
  let lazy = 'none';
  if (options.scroll && scrollable() && timeLeft() > 0) {
    if (hasLazyMarkup()) {
      lazy = 'markup';
    } else if (await changesWhenScrolled()) {
      lazy = 'probe';
    }
    if (lazy !== 'none') {
      // The page may grow while it is scrolled (infinite lists): steps, time and maxHeight bound
      // it.
      for (let top = viewportHeight;
           steps < options.maxSteps && timeLeft() > 0 &&
           top < Math.min(scroller.scrollHeight, options.maxHeight);
           top += viewportHeight) {
        scrollToTop(top);
        await nextFrame();
        steps++;
      }
    }
    scrollToTop(0);
    await nextFrame();
  }

  const loading = Array.from(document.images).filter((image) => !image.complete);
  if (loading.length > 0 && timeLeft() > 0) {
    // decode() settles once the image is loaded and decoded (or failed): ready to be painted.
    await Promise.race([
      Promise.allSettled(loading.map((image) => image.decode())),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, timeLeft()))),
    ]);
  }
  return {
    devicePixelRatio: window.devicePixelRatio,
    steps,
    lazy,
    pendingImages: Array.from(document.images).filter((image) => !image.complete).length,
    elapsedMs: Math.round(performance.now() - started),
  };
}
