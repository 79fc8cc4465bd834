#!/usr/bin/python3
"""The Scrapy peer of a gleaner crawl: a CrawlSpider from the start URL that follows every link
of its host (LinkExtractor, the default tags a/area and attribute href) and keeps each page's
URL and text (the text nodes of <body> joined, scripts and styles left out), written as JSON lines.
Run with Debian's python3-scrapy (/usr/bin/python3).

    scrapy_crawl.py --start URL --out FILE [--concurrency 8] [--summary FILE]

Settings: CONCURRENT_REQUESTS = CONCURRENT_REQUESTS_PER_DOMAIN = --concurrency, robots.txt not
read (as gleaner's ignoreRobotsTxt: true), no cookies, no telnet, no download delay, log at INFO.
The summary (JSON) is {pages, seconds, pagesPerSecond}: items over Scrapy's own start_time ..
finish_time stats (the spider opened to closed: the crawl, not Python's start).
"""
import argparse
import json
from urllib.parse import urlsplit

from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class SiteSpider(CrawlSpider):
    name = "site"

    def __init__(self, start, *a, **kw):
        self.start_urls = [start]
        self.allowed_domains = [urlsplit(start).hostname]
        self.rules = (Rule(LinkExtractor(), callback="parse_item", follow=True),)
        super().__init__(*a, **kw)

    def start_requests(self):
        # Scrapy's default start request skips the duplicate filter, so the home page would be
        # fetched a second time when a page links back to it (every page here does).
        from scrapy import Request
        return [Request(url) for url in self.start_urls]

    def parse_start_url(self, response):
        return [self.parse_item(response)]

    def parse_item(self, response):
        text = " ".join(t.strip() for t in response.xpath(
            "//body//text()[not(ancestor::script) and not(ancestor::style)]").getall() if t.strip())
        return {"url": response.url, "text": text}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--summary")
    args = ap.parse_args()
    process = CrawlerProcess(settings={
        "CONCURRENT_REQUESTS": args.concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": args.concurrency,
        "ROBOTSTXT_OBEY": False,
        "COOKIES_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "DOWNLOAD_DELAY": 0,
        "LOG_LEVEL": "INFO",
        "FEEDS": {args.out: {"format": "jsonlines", "overwrite": True}},
    })
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler, start=args.start)
    process.start()
    stats = crawler.stats.get_stats()
    pages = stats.get("item_scraped_count", 0)
    seconds = (stats["finish_time"] - stats["start_time"]).total_seconds()
    summary = {"label": "scrapy", "pages": pages, "seconds": round(seconds, 2),
               "pagesPerSecond": round(pages / seconds, 1), "concurrency": args.concurrency}
    print(json.dumps(summary))
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(summary, f)


if __name__ == "__main__":
    main()
