// The plain peer of POST /scrape/web with jsRendering: false: Node's fetch and Turndown, the way a
// hand-written service without a browser does it. html (the bytes as text) + markdown (turndown)
// + text (textContent) + links + e-mails of the page.
// Usage: node plain_service.mjs --port P
import TurndownService from 'turndown';
import { parseFlags, serve } from './common.mjs';

const flags = parseFlags(process.argv.slice(2), { port: '0' });
const turndown = new TurndownService();
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

serve(Number(flags.port), async (body) => {
  const response = await fetch(body.url, { redirect: 'follow', signal: AbortSignal.timeout(60000) });
  const html = await response.text();
  const markdown = turndown.turndown(html);
  // Turndown parses with its bundled DOM (domino) in Node; the text and links from a second parse
  // would double the cost, so they come from the markdown and the raw HTML, as a quick service does.
  const text = markdown.replace(/[#*_`>\[\]()!-]/g, ' ');
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1], response.url).href);
  return { statusCode: response.status, content: html, markdown, text, extractedLinks: [...new Set(links)],
           extractedEmails: [...new Set(text.match(EMAIL) || [])] };
});
