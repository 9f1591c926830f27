"""The demo site: real news pages in a WARC (build_site.py) and the server that replays them (server.py)."""
