"""The web app: play crawl in the browser, watch a keep world, replay logs (docs/web.md).

:func:`undercroft.web.app.create_app` builds the ASGI app; ``undercroft serve`` runs it
with uvicorn. The pages are static files in ``static/`` (no CDN, no build step).
"""
