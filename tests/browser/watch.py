"""Watching a browser context: console errors, uncaught exceptions and CSP violations."""

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 375, "height": 812},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


class PageProblems:
    """What went wrong in the browser: console errors, exceptions, CSP violations."""

    def __init__(self):
        self.found = []
        self.expected_statuses = set()

    def console(self, message):
        if message.type != "error":
            return
        location = message.location.get("url", "")
        # Chromium logs a page that answers 404 as an error; a test that asks for one expects it.
        if location in self.expected_statuses and "status of 404" in message.text:
            return
        self.found.append(f"console error at {location}: {message.text}")

    def page_error(self, error):
        self.found.append(f"uncaught exception: {error}")

    def csp_violation(self, source, violation):
        self.found.append(f"CSP violation at {source['frame'].url}: {violation}")

    def expect_not_found(self, url):
        self.expected_statuses.add(url)


# Reports every CSP violation, enforced or report-only, whether or not Chromium logs it.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__reportCspViolation(
    `${event.disposition} ${event.effectiveDirective} blocked ${event.blockedURI || "inline"} ` +
    `(${event.sourceFile || event.documentURI}:${event.lineNumber})`
  );
});
"""


def watched_context(browser, problems, **options):
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    context.expose_binding("__reportCspViolation", problems.csp_violation)
    context.add_init_script(REPORT_CSP_VIOLATIONS)
    context.on("console", problems.console)
    context.on("page", lambda page: page.on("pageerror", problems.page_error))
    return context
