"""newscrawl's Scrapy downloader middlewares (one per module)."""
