"""Scrapy extensions of newscrawl: the progress line and the end-of-crawl summary."""
