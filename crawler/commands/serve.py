"""``newscrawl serve``: paper 002's JSON-RPC service (``detect_pagetype``, ``extract_pageinfo``)."""

from __future__ import annotations

import argparse
import logging
import os
import sys

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve detect_pagetype and extract_pageinfo over JSON-RPC 2.0 (HTTP)",
        description="JSON-RPC 2.0 over HTTP (POST /, single calls and batches; GET /health). "
        "Methods detect_pagetype and extract_pageinfo take {html, url?, sibling_html?} and return "
        "paper 002's shape. Binds loopback unless --host says otherwise; the server fetches no URL unless "
        "--allow-fetch is given.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080; 0: any free)")
    parser.add_argument("--max-bytes", type=int, default=5_000_000, metavar="N",
                        help="largest request body accepted (default 5 000 000)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="seconds one call may take (default 30)")
    parser.add_argument("--max-in-flight", type=int, default=64, metavar="N",
                        help="requests admitted at once; more get 'server busy' (default 64)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), metavar="N",
                        help="extraction processes, each warmed up (models, language identifier, date "
                             "parser: about a second) before the service listens (default: 2 or "
                             "the CPU count if fewer)")
    parser.add_argument("--token-env", metavar="VAR",
                        help="require 'Authorization: Bearer <token>', the token read from the "
                             "environment variable VAR (never from the command line)")
    parser.add_argument("--allow-fetch", action="store_true",
                        help="let a call give `url` without `html`: the server fetches it, never "
                             "from a private, loopback or link-local address")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from aiohttp import web

    from crawler.rpc_service import ServiceConfig, build_app
    from extractors.dwsie import load_node_model
    from extractors.modelio import ModelError

    token = None
    if args.token_env:
        token = os.environ.get(args.token_env)
        if not token:
            print(f"newscrawl serve: environment variable {args.token_env} is empty or unset",
                  file=sys.stderr)
            return 2
    if min(args.max_bytes, args.max_in_flight, args.workers) < 1 or args.timeout <= 0:
        print("newscrawl serve: --max-bytes, --max-in-flight, --workers and --timeout must be "
              "positive", file=sys.stderr)
        return 2
    try:
        load_node_model(None)  # a broken model fails here, not on the first call
    except ModelError as error:
        print(f"newscrawl serve: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    config = ServiceConfig(args.host, args.port, args.max_bytes, args.timeout,
                           args.max_in_flight, args.workers, token, args.allow_fetch)
    web.run_app(build_app(config), host=config.host, port=config.port,
                print=lambda text: print(text, flush=True))
    return 0
