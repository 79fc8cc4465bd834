// Prepares a loaded page for a full-page screenshot, within a time budget, and reports how it went.
// Called as (options) with {scroll, maxSteps, maxHeight, budgetMs}; returns
// {devicePixelRatio, steps, pendingImages, elapsedMs}.
//
// Lazy content comes in two kinds: native loading="lazy" images and iframes (made eager here), and
// script loaders that swap in the real source when an element nears the viewport (an
// IntersectionObserver or a scroll handler). The second kind only reacts to scrolling, so the page
// is scrolled down one viewport at a time, each step waiting for one rendering update (observers
// compute intersections then), then back to the top. Last, images still loading are
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

  let steps = 0;
  const scroller = document.scrollingElement || document.documentElement;
  const viewportHeight = Math.max(window.innerHeight, 100);
  if (options.scroll && scroller.scrollHeight > viewportHeight) {
    // The page may grow while it is scrolled (infinite lists): steps, time and maxHeight bound it.
    for (let top = viewportHeight;
         steps < options.maxSteps && timeLeft() > 0 &&
         top < Math.min(scroller.scrollHeight, options.maxHeight);
         top += viewportHeight) {
      scrollToTop(top);
      await nextFrame();
      steps++;
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
    pendingImages: Array.from(document.images).filter((image) => !image.complete).length,
    elapsedMs: Math.round(performance.now() - started),
  };
}
