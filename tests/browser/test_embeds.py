"""Another site frames a claim's embed card, and cannot frame its permalink."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

EPISODE = "example-show/testing-in-production"
EXCERPT = "If you do one thing, write a single smoke test"


def blog_post(ledger_url):
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A blog post</title></head>
<body>
  <h1>A blog post quoting the ledger</h1>
  <iframe id="embed" title="Embedded claim" width="560" height="300"
    src="{ledger_url}/embed/{EPISODE}/claims/2/"></iframe>
  <iframe id="permalink" title="Framed permalink" width="560" height="300"
    src="{ledger_url}/episodes/{EPISODE}/claims/2/"></iframe>
</body></html>""".encode()


@pytest.fixture
def blog(server):
    """Another origin (another port) serving a page that frames the ledger.

    A real local server, not an intercepted request: Chromium keeps pages of unknown
    address from framing local ones, which would hide what this test looks at.
    """
    body = blog_post(server.url)

    class Post(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Post)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/post/"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_another_site_shows_the_embed_but_cannot_frame_the_permalink(browser, blog, demo):
    context = browser.new_context()
    context.set_default_timeout(10_000)
    messages = []
    context.on("console", lambda message: messages.append((message.type, message.text)))
    page = context.new_page()
    page.goto(blog)

    card = page.frame_locator("#embed")
    expect(card.locator("blockquote")).to_contain_text(EXCERPT)
    expect(card.get_by_role("link", name="Ada Example")).to_have_attribute("target", "_blank")

    # The permalink's frame-ancestors 'none' leaves Chromium's error page in its frame,
    # and the console says why.
    permalink = page.frame_locator("#permalink")
    expect(permalink.locator("h1")).to_contain_text("is blocked")
    expect(permalink.get_by_text(EXCERPT)).to_have_count(0)
    assert [f.url.split(":")[0] for f in page.frames[1:]].count("chrome-error") == 1
    refusals = [text for kind, text in messages if "frame-ancestors 'none'" in text]
    assert len(refusals) == 1 and "The request has been blocked" in refusals[0], messages
    others = [text for kind, text in messages if kind == "error" and text not in refusals]
    assert not others, others
    context.close()
