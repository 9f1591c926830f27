"""newscrawl's Scrapy project: settings, the news spider, Redis scheduling glue, the demo site, the CLI."""
