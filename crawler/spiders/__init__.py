"""Spiders of the newscrawl Scrapy project."""
