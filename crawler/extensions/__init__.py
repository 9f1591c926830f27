"""Scrapy extensions of newscrawl: the progress line, the end-of-crawl summary, the reactor's
health (stalls, peak memory) and the threads that run the page work off the reactor."""
